// How much a search's page statement costs by which connection runs it: the benchmark's queries (bench/search.ts) as
// hybrid page statements of the large tenant, warm, timed from here on the database that bench/search.ts keeps:
// - on one connection, one after another;
// - taking turns on two, three and seven connections;
// - on one connection that has been idle 100 ms before each.
// Three rounds of each; the first warms the connections. Not a target: it explains what the service's pool costs.
//   npx tsx bench/search-connections.ts --keep-db NAME [--queries 60]
//   (NAME as given to `bench/search.ts --db server --models local --keep-db NAME`, which fills it)
import pg from 'pg'
import { LocalEmbedder } from '../src/ai/local/local-embedder.js'
import { sessionOptions, sessionSettings } from '../src/db/database.js'
import { loadConfig } from '../src/config.js'
import { hybridSearchSql, samplePercent, tenantFilter, type SearchSql } from '../src/db/search.repository.js'
import { everyWord, lexicalThresholds, queryTerms, termsQuery, termWords } from '../src/domain/lexical.js'
import { keptDb } from './lib/env.js'
import { percentile } from './lib/load.js'
import { arg } from './lib/report.js'
import { syntheticQueries } from './lib/synthetic.js'

const CONNECTIONS = 7
const IDLE_MS = 100

/** The large tenant's hybrid statements for the benchmark's queries, as the service builds them. */
async function pageStatements(c: pg.Client, local: LocalEmbedder, queries: number): Promise<SearchSql[]> {
  const tenant = (await c.query(`SELECT id FROM tenants WHERE name = 'default'`)).rows[0]?.id as string | undefined
  if (!tenant) throw new Error('no large tenant: fill the database with bench/search.ts --keep-db first')
  const rows = (
    await c.query(`SELECT count(*)::int AS n FROM profiles WHERE tenant_id = $1 AND embedding_model = $2`, [
      tenant,
      local.model,
    ])
  ).rows[0].n as number
  const statements: SearchSql[] = []
  for (const query of syntheticQueries(queries)) {
    const terms = queryTerms(query)
    if (!terms.length) continue
    const vector = (await local.embed([query])).vectors[0]!
    const every = everyWord(query)
    statements.push(
      hybridSearchSql({
        ...tenantFilter(tenant),
        vector: `[${vector.join(',')}]`,
        maxDistance: 1 - local.calibration.toCosine(0),
        model: local.model,
        lexicalMaxDistance: lexicalThresholds(0, every.length, (x) => local.calibration.toCosine(x)),
        terms: termsQuery(terms),
        words: termWords(query, terms),
        every,
        required: terms.length,
        limit: 10,
        bound: { exactMax: 5000, samplePercent: samplePercent(rows), tenantRows: rows, known: 'estimate' },
      }),
    )
  }
  return statements
}

const MODES: { name: string; pick: (k: number) => number; idle?: boolean }[] = [
  { name: 'one connection', pick: () => 0 },
  { name: 'turns on 2', pick: (k) => k % 2 },
  { name: 'turns on 3', pick: (k) => k % 3 },
  { name: `turns on ${CONNECTIONS}`, pick: (k) => k % CONNECTIONS },
  { name: `one, idle ${IDLE_MS} ms before each`, pick: () => 0, idle: true },
]

const name = arg('keep-db')
if (!name) throw new Error('--keep-db NAME: the database bench/search.ts kept (NAME_local)')
const { db, created } = await keptDb(`${name}_local`)
if (created) throw new Error(`${name}_local did not exist: fill it with bench/search.ts --keep-db ${name} first`)
const options = sessionOptions(sessionSettings(loadConfig({})))
const clients = Array.from(
  { length: CONNECTIONS },
  () => new pg.Client({ connectionString: db.connectionString(), options } as pg.ClientConfig),
)
await Promise.all(clients.map((c) => c.connect()))
try {
  const local = new LocalEmbedder()
  await local.warmUp?.()
  const statements = await pageStatements(clients[0]!, local, Number(arg('queries', '60')))
  for (const s of statements) await clients[0]!.query(s.page, s.args)
  for (let round = 1; round <= 3; round++) {
    for (const mode of MODES) {
      const times: number[] = []
      for (const [k, s] of statements.entries()) {
        const client = clients[mode.pick(k)]!
        if (mode.idle) await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
        const start = performance.now()
        await client.query(s.page, s.args)
        times.push(performance.now() - start)
      }
      const mean = times.reduce((a, b) => a + b, 0) / times.length
      process.stdout.write(
        `round ${round}, ${mode.name}: p50 ${percentile(times, 50).toFixed(1)} ms, mean ${mean.toFixed(1)} ms\n`,
      )
    }
  }
} finally {
  await Promise.all(clients.map((c) => c.end()))
  await db.drop()
}

// What one tenant's words cost another tenant's searches
// (docs/architecture/search-internals.md#one-tenants-words-cost-another-nothing):
// - a small tenant (one profile, one passage that says "lighthouse") searches by words, 30 times, before and after a
//     loud tenant's profile gets --n passages that all say them (written straight into the database, then ANALYZE, as
//     a server's autovacuum would); the ratio of the small tenant's p50 after to before is the figure (the baseline is
//     the same search, in the same run, before the other tenant's passages existed);
//   - in context: a middle tenant with --n / 5 passages of its own that do not say the words, and the loud tenant's own
//     searches, measured after.
// With BENCH_SERVICE_ROOT=<another checkout> the service of that checkout runs, for a side by side with the code
// before. npx tsx bench/tenant-words.ts [--db server|embedded|both] [--n 100000]
import pg from 'pg'
import { ROOT as ROOT_DIR, freshDb, SERVICE_ROOT, spawnTs, startService, type BenchDb, type DbKind } from './lib/env.js'
import { percentile, round } from './lib/load.js'
import { arg, benchMain, type BenchResult } from './lib/report.js'

async function cli(db: BenchDb, ...args: string[]): Promise<string> {
  const p = spawnTs('src/main.ts', args, {
    PROFILER_DATA_DIR: db.dataDir,
    LOG_LEVEL: 'warn',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  })
  const code = await new Promise<number | null>((r) => p.child.once('exit', r))
  if (code !== 0) throw new Error(`profiler ${args.join(' ')} failed:\n${p.output()}`)
  return p.output()
}

const QUERIES = ['lighthouse storm', 'lighthouse keeper']
const SEARCHES = 30

async function runTenantWords(kind: DbKind, n: number): Promise<BenchResult> {
  const db = await freshDb(kind)
  const api = await startService(db, 'start')
  if (SERVICE_ROOT !== ROOT_DIR) process.stderr.write(`  the service runs from ${SERVICE_ROOT}\n`)
  const c = new pg.Client({ connectionString: db.connectionString() })
  try {
    const appOf = async (tenant: string) =>
      JSON.parse(
        (await cli(db, 'app', 'create', '--tenant', tenant, '--name', 'bench', '--json')).match(/\{[\s\S]*\}/)![0],
      ) as { tenant_id: string; api_key: string }
    const tenants = { loud: api.key, middle: (await appOf('middle')).api_key, small: (await appOf('small')).api_key }
    const auth = (key: string) => ({ authorization: `Bearer ${key}` })
    for (const [id, key] of Object.entries(tenants)) {
      const r = await fetch(`${api.url}/v1/profile/${id}`, {
        method: 'POST',
        headers: { ...auth(key), 'content-type': 'application/json' },
        body: JSON.stringify({ data: 'I kept the lighthouse for years. I remember the storm.' }),
      })
      if (r.status !== 202) throw new Error(`POST ${id}: ${r.status} ${await r.text()}`)
    }
    for (const [id, key] of Object.entries(tenants)) {
      for (;;) {
        const p = (
          (await (await fetch(`${api.url}/v1/profile/${id}`, { headers: auth(key) })).json()) as {
            profile?: { status: string }
          }
        ).profile
        if (p?.status === 'ready') break
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    /** p50 and p95 (ms) of SEARCHES searches by a tenant, the queries in turn; each must find its own profile. */
    const searches = async (id: keyof typeof tenants) => {
      const times: number[] = []
      for (let i = 0; i < SEARCHES + 2; i++) {
        const t = performance.now()
        const r = await fetch(
          `${api.url}/v1/search?pageSize=10&query=${encodeURIComponent(QUERIES[i % QUERIES.length]!)}`,
          { headers: auth(tenants[id]) },
        )
        const body = (await r.json()) as { profiles: { profile_id: string }[] }
        if (r.status !== 200 || !body.profiles.some((p) => p.profile_id === id))
          throw new Error(`search of ${id}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`)
        if (i >= 2) times.push(performance.now() - t) // the first two warm the caches
      }
      return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1) }
    }
    const before = await searches('small')
    await c.connect()
    const write = async (profile: string, count: number, words: string) => {
      const [sub] = (await c.query(`SELECT tenant_id, id FROM submissions WHERE profile_id = $1`, [profile])).rows
      for (let done = 0; done < count; done += 10_000) {
        await c.query(
          `INSERT INTO passages (tenant_id, profile_id, submission_id, position, speaker, prompt, text, occurred_at, language)
           SELECT $1, $2, $3, 1000 + g, null, null, $4 || ' ' || g, now(), 'english' FROM generate_series($5::int, $6::int) g`,
          [sub.tenant_id, profile, sub.id, words, done, Math.min(count, done + 10_000) - 1],
        )
      }
    }
    const t0 = Date.now()
    await write('loud', n, 'the lighthouse keeper remembered the storm')
    await write('middle', Math.round(n / 5), 'the ocean was calm that night')
    await c.query(`ANALYZE passages`)
    const seeded = (Date.now() - t0) / 1000
    const after = { small: await searches('small'), middle: await searches('middle'), loud: await searches('loud') }
    const ratio = round(after.small.p50 / before.p50, 2)
    return {
      name: 'tenant-words',
      db: kind,
      rows: [
        {
          what: `a small tenant's word search, another tenant holding ${n.toLocaleString('en-US')} passages that say its words, against before they existed (p50)`,
          ratio,
          target: '<= 1.5x (what other tenants say costs nothing)',
          met: ratio <= 1.5,
          figures: `p50 ${before.p50} -> ${after.small.p50} ms, p95 ${before.p95} -> ${after.small.p95} ms; ${SEARCHES} searches each; passages written in ${round(seeded, 1)} s`,
        },
        {
          what: `in context: a tenant with ${Math.round(n / 5).toLocaleString('en-US')} passages not saying the words, and the loud tenant itself (p50 / p95)`,
          value: after.middle.p50,
          unit: 'ms',
          target: '(context)',
          met: true,
          figures: `middle ${after.middle.p50} / ${after.middle.p95} ms; loud ${after.loud.p50} / ${after.loud.p95} ms`,
        },
      ],
      raw: { n, before, after, seededSeconds: seeded, serviceRoot: SERVICE_ROOT },
    }
  } finally {
    await c.end().catch(() => undefined)
    await api.stop()
    await db.drop()
  }
}

await benchMain(import.meta.url, 'tenant-words', (kind) => runTenantWords(kind, Number(arg('n', '100000'))))

// The request path against bare routes, side by side in one run:
// POST /v1/profile/{id} (202) vs a bare Fastify route running the same single statement on the same database, each
// to a new profile (the costliest: profile, submission and job rows) and to 1,000 existing ones;
// GET /v1/profile/{id} and GraphQL profile(id) vs a bare route doing one SELECT by key, and GraphQL also vs a bare
// Apollo Server with the same schema and SELECT (the floor of the GraphQL stack);
// GET /v1/search, a listing and a hybrid query (pages of 10 of the 100 small profiles) and GraphQL searchProfiles, vs
// the same bare SELECT (context: how much a page of small profiles costs; compare runs of two versions side by side).
// npx tsx bench/http.ts [--db server|embedded|both] [--seconds 10] [--rounds 3] [--connections 32]
//     [--only words] [--env K=V,...] [--cpu-prof dir]   (--cpu-prof: V8 CPU profiles of the API process and, in
//     <dir>/baseline, of the baseline server, for bench/profile-summary.ts)
import { waitFor } from '../test/support/wait.js'
import { freshDb, spawnTs, startService, withClient, type DbKind } from './lib/env.js'
import { load, median, round, type LoadResult, type LoadSpec } from './lib/load.js'
import { POST_BODIES, seedProfiles } from './lib/seed.js'
import { arg, benchMain, type BenchResult } from './lib/report.js'

const PROFILE_QUERY = `query($id: ID!) { profile(id: $id) { profileId status summary language lastUpdated createdAt
  coreInfo { name { value confidence } age { value confidence } gender { value confidence } location { value confidence } occupation { value confidence } }
  interests { category values { value confidence } }
  personality { traits { value confidence } moodTrends { default { value confidence } recent { value confidence } } }
  memories { event date importance confidence }
  preferences { conversationStyle { value confidence } topicsToAvoid { value confidence } } } }`

const SEARCH_QUERIES = ['likes jazz', 'lives in Lisbon', 'works as a nurse', 'enjoys hiking with the dog']
const SEARCH_QUERY = `query($q: String) { searchProfiles(query: $q, sensitivity: 0, pageSize: 10) { total profiles { similarityScore profile {
  profileId status summary coreInfo { name { value confidence } location { value confidence } } interests { category values { value confidence } }
  personality { traits { value confidence } } memories { event date } preferences { topicsToAvoid { value } } } } } }`

export async function runHttp(
  kind: DbKind,
  opts: {
    seconds: number
    rounds: number
    connections: number
    only?: string
    serviceEnv?: Record<string, string>
    cpuProf?: string
  },
): Promise<BenchResult> {
  const db = await freshDb(kind)
  const stops: (() => Promise<void>)[] = []
  try {
    // Seed 100 ready profiles with the real pipeline, then measure an API-only process.
    const seeder = await startService(db, 'start')
    const key = seeder.key
    const ids = await seedProfiles(seeder.url, key, 'g', 100, 3)
    await seeder.stop()
    const api = await startService(
      db,
      'serve',
      opts.serviceEnv,
      opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [],
    )
    stops.push(() => api.stop())
    const tenant = await withClient(
      db.connectionString(),
      async (c) => (await c.query(`SELECT id FROM tenants WHERE name = 'default'`)).rows[0].id as string,
    )
    const baseline = spawnTs(
      'bench/lib/baseline-server.ts',
      [db.connectionString(), tenant],
      {},
      { nodeArgs: opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}/baseline`] : [] },
    )
    stops.push(() => baseline.stop())
    const bareUrl = await waitFor('the baseline server', () => baseline.output().match(/listening on (\S+)/)?.[1], {
      timeoutMs: 60_000,
    })

    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const graphqlBodies = ids.map((id) => JSON.stringify({ query: PROFILE_QUERY, variables: { id } }))
    const specs: Record<string, Omit<LoadSpec, 'connections' | 'seconds'>> = {
      'bare route, same INSERT': {
        url: bareUrl,
        method: 'POST',
        path: '/same-insert/b{i}',
        headers: { 'content-type': 'application/json' },
        bodies: POST_BODIES,
      },
      'bare route, plain INSERT': {
        url: bareUrl,
        method: 'POST',
        path: '/plain-insert/b{i}',
        headers: { 'content-type': 'application/json' },
        bodies: POST_BODIES,
      },
      'POST /v1/profile/{id}': {
        url: api.url,
        method: 'POST',
        path: '/v1/profile/n{i}',
        headers: auth,
        bodies: POST_BODIES,
      },
      // The common case of a chat application: messages to profiles that exist (and are processing: no worker runs
      // here).
      'bare route, same INSERT, 1,000 profiles': {
        url: bareUrl,
        method: 'POST',
        path: '/same-insert/r{n}',
        headers: { 'content-type': 'application/json' },
        bodies: POST_BODIES,
        ids: 1000,
      },
      'POST to 1,000 existing profiles': {
        url: api.url,
        method: 'POST',
        path: '/v1/profile/e{n}',
        headers: auth,
        bodies: POST_BODIES,
        ids: 1000,
      },
      'bare route, same SELECT': { url: bareUrl, method: 'GET', path: `/same-select/g{n}`, ids: ids.length },
      'bare route, plain SELECT': { url: bareUrl, method: 'GET', path: `/plain-select/g{n}`, ids: ids.length },
      'GET /v1/profile/{id}': {
        url: api.url,
        method: 'GET',
        path: '/v1/profile/g{n}',
        headers: { authorization: auth.authorization },
        ids: ids.length,
      },
      'bare Apollo, same SELECT': {
        url: bareUrl,
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json' },
        bodies: graphqlBodies,
      },
      'GraphQL profile(id)': {
        url: api.url,
        method: 'POST',
        path: '/graphql',
        headers: auth,
        bodies: graphqlBodies,
      },
      'GET /v1/search, listing': {
        url: api.url,
        method: 'GET',
        path: '/v1/search?pageSize=10',
        paths: [
          '/v1/search?pageSize=10&page=1',
          '/v1/search?pageSize=10&page=5',
          '/v1/search?pageSize=10&page=10&sortBy=id',
        ],
        headers: { authorization: auth.authorization },
      },
      'GET /v1/search, query': {
        url: api.url,
        method: 'GET',
        path: '/v1/search?query=x',
        paths: SEARCH_QUERIES.map((q) => `/v1/search?pageSize=10&sensitivity=0&query=${encodeURIComponent(q)}`),
        headers: { authorization: auth.authorization },
      },
      'GraphQL searchProfiles': {
        url: api.url,
        method: 'POST',
        path: '/graphql',
        headers: auth,
        bodies: SEARCH_QUERIES.map((q) => JSON.stringify({ query: SEARCH_QUERY, variables: { q } })),
      },
    }
    // --only: a comma-separated list of words; a load whose name contains one of them runs (the others are skipped).
    if (opts.only)
      for (const k of Object.keys(specs))
        if (!opts.only.split(',').some((w) => k.toLowerCase().includes(w.toLowerCase()))) delete specs[k]
    const runs: Record<string, LoadResult[]> = Object.fromEntries(Object.keys(specs).map((k) => [k, []]))
    // Both processes always: on the embedded database the service's process also runs the database the bare route uses.
    const watch = () => ({
      'bare route': [baseline.child.pid!],
      [kind === 'embedded' ? 'service (and PGlite)' : 'service']: [api.child.pid!],
      ...(db.backends ? { postgres: db.backends } : {}),
    })
    let counter = 0
    // A first pass of every load, not counted: a fresh database's first thousands of rows cost more (its tables and
    // indexes growing), which would fall on whichever load ran first.
    for (const spec of Object.values(specs))
      await load({ ...spec, connections: opts.connections, seconds: 3, startAt: (counter += 1_000_000) })
    for (let r = 0; r < opts.rounds; r++) {
      // Alternating, so a drift of the machine's load touches baseline and service alike.
      for (const [name, spec] of Object.entries(specs)) {
        const startAt = (counter += 1_000_000)
        await load({ ...spec, connections: opts.connections, seconds: 2, startAt }) // warm-up
        const res = await load(
          { ...spec, connections: opts.connections, seconds: opts.seconds, startAt: startAt + 500_000 },
          watch(),
        )
        runs[name]!.push(res)
        process.stderr.write(
          `  ${kind} round ${r + 1}: ${name} ${Math.round(res.rps)} req/s, p99 ${res.latency.p99} ms, CPU ms per request ${JSON.stringify(res.cpuPerRequest)}\n`,
        )
      }
    }
    if (opts.only) return { name: 'http-partial', db: kind, rows: [], raw: runs }
    const rps = (k: string) => median(runs[k]!.map((x) => x.rps))
    const p99 = (k: string) => median(runs[k]!.map((x) => x.latency.p99))
    const p50 = (k: string) => median(runs[k]!.map((x) => x.latency.p50))
    const row = (name: string, base: string, target?: number, p99Target?: number) => {
      const ratio = rps(name) / rps(base)
      return {
        what: `${name} vs ${base}`,
        ratio: round(ratio),
        target: target === undefined ? '(context)' : `>= ${target}x${p99Target ? `, p99 < ${p99Target} ms` : ''}`,
        met: target === undefined || (ratio >= target && (p99Target === undefined || p99(name) < p99Target)),
        figures: `${Math.round(rps(name))} vs ${Math.round(rps(base))} req/s; p50 ${p50(name)} ms, p99 ${p99(name)} ms (baseline p99 ${p99(base)} ms)`,
      }
    }
    return {
      name: 'http',
      db: kind,
      rows: [
        row('POST /v1/profile/{id}', 'bare route, same INSERT', 0.6, 20),
        row('POST to 1,000 existing profiles', 'bare route, same INSERT, 1,000 profiles', 0.6, 20),
        row('GET /v1/profile/{id}', 'bare route, same SELECT', 0.7),
        row('GraphQL profile(id)', 'bare route, same SELECT', 0.6),
        row('GraphQL profile(id)', 'bare Apollo, same SELECT'),
        row('bare Apollo, same SELECT', 'bare route, same SELECT'),
        row('POST /v1/profile/{id}', 'bare route, plain INSERT'),
        row('GET /v1/profile/{id}', 'bare route, plain SELECT'),
        row('GET /v1/search, listing', 'bare route, same SELECT'),
        row('GET /v1/search, query', 'bare route, same SELECT'),
        row('GraphQL searchProfiles', 'bare route, same SELECT'),
      ],
      raw: runs,
      chart: {
        title: `Request path, ${kind} database (${opts.connections} connections)`,
        unit: 'req/s',
        bars: Object.keys(specs).map((k) => ({ label: k, value: Math.round(rps(k)), note: `p99 ${p99(k)} ms` })),
      },
    }
  } finally {
    for (const s of stops.reverse()) await s().catch(() => undefined)
    await db.drop()
  }
}

await benchMain(import.meta.url, 'http', (kind) =>
  runHttp(kind, {
    seconds: Number(arg('seconds', '10')),
    rounds: Number(arg('rounds', '3')),
    connections: Number(arg('connections', '32')),
    only: arg('only'),
    serviceEnv: arg('env')
      ? Object.fromEntries(
          arg('env')!
            .split(',')
            .map((kv) => kv.split('=') as [string, string]),
        )
      : undefined,
    cpuProf: arg('cpu-prof'),
  }),
)

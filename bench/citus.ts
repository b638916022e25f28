// Single PostgreSQL server against a Citus cluster (coordinator + 2 workers) on this machine, side by side: the same
// service (one in-process `profiler start`: API + worker) on each, each database a private server started here with the
// same settings (initdb on a free port, fsync off; test/support/pg-cluster.ts), one after the other, never both at
// once. Measures: accepting structured submissions over HTTP (8 in flight; POST latency), the worker applying them
// (until every submission is done; leases left after), and search latency (a text query; a filter), for `tenants`
// tenants. npx tsx bench/citus.ts
// [--submissions 400] [--profiles 80] [--tenants 4] [--searches 100]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startProfiler } from '../src/app.js'
import { client, serverDatabase, testConfig, type TestDatabase } from '../test/support/harness.js'
import { CitusCluster, citusInstalled, PgCluster, pgBinDir } from '../test/support/pg-cluster.js'
import { waitFor } from '../test/support/wait.js'

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : d
}
const SUBMISSIONS = arg('submissions', 400)
const PROFILES = arg('profiles', 80)
const TENANTS = arg('tenants', 4)
const SEARCHES = arg('searches', 100)

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!

async function measure(label: string, db: TestDatabase) {
  const profiler = await startProfiler(
    testConfig(db, { LOG_LEVEL: 'silent', PROFILER_RATE_LIMIT_PER_MINUTE: '1000000', PROFILER_TENANT_QUEUE: '100000' }),
    { role: 'all' },
  )
  try {
    const keys: string[] = []
    for (let t = 0; t < TENANTS; t++)
      keys.push((await profiler.services.tenants.createApp(`bench-${t}`, 'web')).api_key)
    const apis = keys.map((k) => client(profiler.url!, k))
    const cities = ['Oslo', 'Rome', 'Lima', 'Bonn', 'Kyoto']
    let next = 0
    const postMs: number[] = []
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < SUBMISSIONS; i = next++) {
          const p = i % PROFILES
          const data = JSON.stringify({
            core_info: { name: `Person ${p}`, location: cities[p % cities.length] },
            interests: { hobbies: [`hobby ${i}`] },
          })
          const started = performance.now()
          const r = await apis[p % TENANTS]!.post(`p${p}`, { input_type: 'structured', data })
          postMs.push(performance.now() - started)
          if (r.status !== 202) throw new Error(`POST ${r.status} ${await r.text()}`)
        }
      }),
    )
    const accepted = performance.now() - t0
    await waitFor(
      'every submission done',
      async () =>
        (await profiler.db.dataSource.query(`SELECT count(*)::int AS n FROM submissions WHERE status <> 'done'`))[0].n,
      {
        until: (n: number) => n === 0,
        timeoutMs: 600_000,
        everyMs: 100,
      },
    )
    const applied = performance.now() - t0
    const [{ leased }] = await profiler.db.dataSource.query(
      `SELECT count(*)::int AS leased FROM profiles WHERE claimed_by IS NOT NULL OR lease_until IS NOT NULL`,
    )
    const lat = { query: [] as number[], filter: [] as number[] }
    for (let i = 0; i < SEARCHES; i++) {
      const api = apis[i % TENANTS]!
      let s = performance.now()
      await api.search({ query: `hobby ${i}`, sensitivity: 0 })
      lat.query.push(performance.now() - s)
      s = performance.now()
      await api.search({ filterBy: 'location', filterValue: cities[i % cities.length]!.toLowerCase().slice(0, 3) })
      lat.filter.push(performance.now() - s)
    }
    return {
      label,
      acceptPerSec: Math.round((SUBMISSIONS / accepted) * 1000),
      applyPerSec: Math.round((SUBMISSIONS / applied) * 1000),
      postP50: +pct(postMs, 50).toFixed(1),
      postP99: +pct(postMs, 99).toFixed(1),
      leasesLeft: leased,
      searchQueryP50: +pct(lat.query, 50).toFixed(1),
      searchQueryP95: +pct(lat.query, 95).toFixed(1),
      searchFilterP50: +pct(lat.filter, 50).toFixed(1),
      searchFilterP95: +pct(lat.filter, 95).toFixed(1),
    }
  } finally {
    await profiler.close()
  }
}

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-bench-'))
if (!citusInstalled()) throw new Error('Citus is not installed: run scripts/install-citus.sh as root')
const results = []
{
  const single = new PgCluster(pgBinDir()!)
  await single.init()
  const db = await serverDatabase(single.url, dir())
  try {
    results.push(await measure('single server', db))
  } finally {
    await db.drop()
    await single.destroy()
  }
}
{
  const cluster = new CitusCluster(2)
  await cluster.init()
  const db = await serverDatabase(
    cluster.url,
    dir(),
    cluster.workers.map((w) => w.url),
  )
  try {
    results.push(await measure('Citus, coordinator + 2 workers', db))
  } finally {
    await db.drop()
    await cluster.destroy()
  }
}
console.log(
  `${SUBMISSIONS} structured submissions for ${PROFILES} profiles over ${TENANTS} tenants, ${SEARCHES} searches of each kind; ${os.cpus().length} cores`,
)
console.table(results)

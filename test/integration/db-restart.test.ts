// A real PostgreSQL restart under load (server mode): a cluster of the test's own is stopped and started again while
// clients keep submitting. During the outage the API answers 503 (never 500) and stays alive; once the server is back
// it answers 202 again within 10 s; every submission that got a 202 is processed, none lost, none twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { client, SERVER_URL } from '../support/harness.js'
import { PgCluster, pgBinDir } from '../support/pg-cluster.js'
import { sleep, waitFor } from '../support/wait.js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const bin = pgBinDir()

describe.skipIf(!SERVER_URL || !bin)('PostgreSQL restart under load (server mode)', () => {
  let cluster: PgCluster
  let profiler: Profiler & { bootstrapKey?: string }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-restart-'))

  beforeAll(async () => {
    cluster = new PgCluster(bin!)
    await cluster.init()
    profiler = await startProfiler(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DATABASE_URL: cluster.url,
        PROFILER_DATA_DIR: dataDir,
        PROFILER_RATE_LIMIT_PER_MINUTE: '1000000',
        PROFILER_RECONCILE_SECONDS: '2',
        PROFILER_LEASE_SECONDS: '6',
      }),
      { role: 'all' },
    )
  })
  afterAll(async () => {
    await profiler?.close()
    await cluster?.destroy()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('503 while it is down, 202 within 10 s of its return, every accepted submission processed once', async () => {
    const api = client(profiler.url!, profiler.bootstrapKey!)
    const results: { id: string; status: number; at: number }[] = []
    let running = true
    let n = 0
    const loop = async (w: number) => {
      while (running) {
        const id = `load-${w}-${n++}`
        const r = await api.post(id, { data: `I live in Oslo and I love skiing (${id}).` }).catch(() => undefined)
        results.push({ id, status: r?.status ?? 0, at: Date.now() })
        await r?.arrayBuffer().catch(() => undefined)
        if (r?.status === 503) await sleep(50) // a client backing off, not a wait
      }
    }
    const loops = [0, 1, 2, 3].map(loop)
    const count = (s: number, after = 0) => results.filter((r) => r.status === s && r.at > after).length
    try {
      await waitFor('20 accepted submissions', () => count(202), { until: (n) => n >= 20, timeoutMs: 30_000 })
      await cluster.stop()
      const down = Date.now()
      await waitFor('5 answers 503 during the outage', () => count(503, down), {
        until: (n) => n >= 5,
        timeoutMs: 20_000,
      })
      expect((await fetch(`${profiler.url}/healthz`)).status).toBe(200)
      expect((await fetch(`${profiler.url}/readyz`)).status).toBe(503)
      await cluster.start()
      const back = Date.now()
      await waitFor('a 202 within 10 s of the restart', () => results.find((r) => r.status === 202 && r.at > back), {
        timeoutMs: 10_000,
      })
      await waitFor('20 more accepted submissions', () => count(202, back), {
        until: (n) => n >= 20,
        timeoutMs: 30_000,
      })
    } finally {
      running = false
      await Promise.all(loops)
    }
    // Nothing but 202 and 503: no 500, no dropped connection.
    expect(results.filter((r) => r.status !== 202 && r.status !== 503)).toEqual([])
    const accepted = results.filter((r) => r.status === 202).map((r) => r.id)
    // Every accepted submission is processed exactly once.
    const ds = profiler.db.dataSource
    await waitFor(
      'every submission to be done (submissions not done)',
      async () => (await ds.query(`SELECT count(*)::int AS open FROM submissions WHERE status <> 'done'`))[0].open,
      {
        until: (open) => open === 0,
        timeoutMs: 120_000,
        everyMs: 200,
      },
    )
    const rows: { profile_id: string; n: number; history: number }[] = await ds.query(
      `SELECT s.profile_id, count(*)::int AS n,
              (SELECT count(*)::int FROM profile_history h
                WHERE h.tenant_id = s.tenant_id AND h.profile_id = s.profile_id) AS history
         FROM submissions s GROUP BY s.tenant_id, s.profile_id`,
    )
    const stored = new Set(rows.map((r) => r.profile_id))
    expect(accepted.filter((id) => !stored.has(id))).toEqual([])
    // A commit whose answer was lost with the connection is stored although its client saw 503 (and would retry with
    // its Idempotency-Key); nothing is stored that was never sent.
    const sent = new Set(results.map((r) => r.id))
    expect([...stored].filter((id) => !sent.has(id))).toEqual([])
    for (const r of rows) expect(r, r.profile_id).toMatchObject({ n: 1, history: 1 })
    const sample = await api.profile(accepted.at(-1)!)
    expect(sample.status).toBe('ready')
    expect(sample.core_info.location.value).toBe('Oslo')
  }, 300_000)
})

// Search on a read replica (PROFILER_SEARCH_DATABASE_URL): a real primary and a real hot standby (two PostgreSQL
// clusters of this machine's server, streaming replication). With the standby's replay paused, a profile that is ready
// on the primary is readable by id but not found by search, which reads the standby; once replay resumes, it is.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { client, SERVER_URL, testConfig } from '../support/harness.js'
import { PgCluster, pgBinDir } from '../support/pg-cluster.js'
import { waitFor } from '../support/wait.js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const bin = pgBinDir()

describe('configuration', () => {
  it('refuses a search replica without a server database', () => {
    expect(() => loadConfig({ PROFILER_SEARCH_DATABASE_URL: 'postgres://x@127.0.0.1/y' })).toThrow(
      /PROFILER_SEARCH_DATABASE_URL: a read replica of the server in DATABASE_URL/,
    )
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/y', PROFILER_SEARCH_DATABASE_URL: 'not a url' }),
    ).toThrow(/PROFILER_SEARCH_DATABASE_URL/)
  })
})

// Server runs only (this machine's PostgreSQL binaries make both clusters).
describe.skipIf(!SERVER_URL || !bin)('search on a read replica', () => {
  const primary = new PgCluster(bin!)
  const standby = new PgCluster(bin!)
  let api: Profiler & { bootstrapKey?: string }
  let standbyAdmin: pg.Client
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-replica-'))

  // Two clusters and a base backup: set-up, out of the test's clock.
  beforeAll(async () => {
    await primary.init()
    await standby.initStandbyOf(primary)
    standbyAdmin = new pg.Client({ connectionString: standby.url })
    await standbyAdmin.connect()
    api = await startProfiler(
      testConfig(
        { url: primary.url, dataDir, drop: async () => undefined },
        { PROFILER_SEARCH_DATABASE_URL: standby.url },
      ),
      { role: 'all' },
    )
  }, 180_000)
  afterAll(async () => {
    await api?.close()
    await standbyAdmin?.end().catch(() => undefined)
    await standby.destroy()
    await primary.destroy()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('searches the standby: what it has not replayed is not found until it has', async () => {
    const http = client(api.url!, api.bootstrapKey!)
    const found = async (q: string) =>
      ((await http.search({ query: q, sensitivity: 0, pageSize: 100 })).profiles as any[]).map((p) => p.profile_id)
    expect((await standbyAdmin.query('SELECT pg_is_in_recovery() AS r')).rows[0].r).toBe(true)

    expect((await http.post('before', { data: 'I live in Lisbon and I love sailing.' })).status).toBe(202)
    await http.waitReady('before')
    await waitFor('the first profile in search (replicated)', () => found('sailing in Lisbon'), {
      until: (ids) => ids.includes('before'),
      timeoutMs: 30_000,
    })

    await standbyAdmin.query('SELECT pg_wal_replay_pause()')
    await waitFor(
      'replay paused',
      async () => (await standbyAdmin.query('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s,
      { until: (s) => s === 'paused' },
    )
    expect((await http.post('after', { data: 'I live in Lisbon and I love sailing.' })).status).toBe(202)
    const ready = await http.waitReady('after') // read by id: the primary
    expect(ready.core_info.location.value).toBe('Lisbon')
    // The standby has not replayed it: search does not see it (while the primary would).
    const direct = new pg.Client({ connectionString: primary.url })
    await direct.connect()
    try {
      expect(
        (
          await direct.query(
            `SELECT count(*)::int AS n FROM profiles WHERE profile_id = 'after' AND embedding IS NOT NULL`,
          )
        ).rows[0].n,
      ).toBe(1)
    } finally {
      await direct.end()
    }
    expect(await found('sailing in Lisbon')).toEqual(['before'])

    await standbyAdmin.query('SELECT pg_wal_replay_resume()')
    await waitFor('the second profile in search once replayed', () => found('sailing in Lisbon'), {
      until: (ids) => ids.includes('after'),
      timeoutMs: 30_000,
    })
    // Writes never reach the standby: a POST and a delete went to the primary all along.
    expect((await http.del('before')).status).toBe(204)
    await waitFor('the deletion replicated', () => found('sailing in Lisbon'), {
      until: (ids) => !ids.includes('before'),
      timeoutMs: 30_000,
    })
  }, 120_000)
})

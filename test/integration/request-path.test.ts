// The request path's one-statement POST and the prepared statements behind it, on the real database (both modes).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { DataSource } from 'typeorm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js'
import { Statements } from '../../src/db/statements.js'
import { JobQueue, PROCESS_QUEUE } from '../../src/jobs/queue.js'
import { client, freshDatabase, startService, type TestDatabase, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

describe('the POST statement', () => {
  let svc: TestService
  beforeAll(async () => {
    // API only: jobs stay queued, so they can be inspected.
    svc = await startService({ role: 'api' })
  })
  afterAll(async () => svc?.close())

  const jobs = (profileId: string) =>
    svc.profiler.db.dataSource.query(
      `SELECT * FROM pgboss.job WHERE name = $1 AND data->>'profileId' = $2 ORDER BY created_on`,
      [PROCESS_QUEUE, profileId],
    )

  it("enqueues the very row pg-boss's own send() inserts", async () => {
    expect((await client(svc.url, svc.key).post('job-shape', { data: 'I am Ada.' })).status).toBe(202)
    const [ours] = await jobs('job-shape')
    const queue = new JobQueue({ url: svc.profiler.db.url, pollSeconds: 1, supervise: false, onError: () => undefined })
    await queue.start()
    try {
      await queue.enqueue({ tenantId: ours.data.tenantId, profileId: 'job-shape-boss' })
    } finally {
      await queue.stop()
    }
    const [boss] = await jobs('job-shape-boss')
    const shape = (j: any) => {
      const { id, data, created_on, start_after, keep_until, priority, ...rest } = j
      return { ...rest, keep_for_ms: new Date(keep_until).getTime() - new Date(start_after).getTime() }
    }
    expect(shape(ours)).toEqual(shape(boss))
    expect(shape(ours)).toMatchObject({
      state: 'created',
      retry_limit: 3,
      policy: 'standard',
      dead_letter: 'profile-process-dead',
    })
  })

  it('a burst to one profile enqueues one job: a profile already processing has its job or its worker', async () => {
    const api = client(svc.url, svc.key)
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post('burst-one', { data: `Message ${i}: I like tea.` })),
    )
    expect(statuses.map((r) => r.status)).toEqual(Array(12).fill(202))
    expect(await jobs('burst-one')).toHaveLength(1)
    const [{ n }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS n FROM submissions WHERE profile_id = 'burst-one'`,
    )
    expect(n).toBe(12)
    expect((await api.profile('burst-one')).status).toBe('processing')
  })
})

describe('prepared statements', () => {
  let target: TestDatabase
  let embedded: EmbeddedPostgres | undefined
  let ds: DataSource
  // Counts the prepared statements from outside the pool: a pooled connection busy counting would never go idle, and
  // what it prepared would never go with it.
  let counter: pg.Client
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-stmt-'))

  beforeAll(async () => {
    target = await freshDatabase()
    let url = target.url
    if (!url) url = (embedded = await startEmbeddedPostgres(path.join(dataDir, 'db'))).url
    // A pool that lets idle connections go quickly, as the default one does after 10 s.
    ds = new DataSource({ type: 'postgres', url, extra: { max: 4, idleTimeoutMillis: 200 } })
    await ds.initialize()
    counter = new pg.Client({ connectionString: url })
    await counter.connect()
  })
  afterAll(async () => {
    await counter?.end()
    await ds?.destroy()
    await embedded?.stop()
    await target?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it("many connections at once, some sharing a session (embedded); a closed one's statements go with it", async () => {
    const statements = await Statements.create(ds)
    const add = statements.define('test_add', `SELECT $1::int + $2::int AS sum`)
    for (let round = 0; round < 3; round++) {
      const sums = await Promise.all(Array.from({ length: 16 }, (_, i) => add.rows([i, round])))
      expect(sums.map((r) => r[0].sum)).toEqual(Array.from({ length: 16 }, (_, i) => i + round))
    }
    const prepared = async () =>
      Number(
        (await counter.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'test_add%'`))
          .rows[0].n,
      )
    // On a server each connection sees its own statements, once each, and they go with the connection's session.
    if (target.url) return expect(await prepared()).toBeLessThanOrEqual(1)
    // Two processes (two Statements) on one PGlite never take each other's names.
    const other = (await Statements.create(ds)).define('test_add', `SELECT $1::int * $2::int AS sum`)
    expect((await Promise.all([other.rows([3, 4]), add.rows([3, 4])])).map((r) => r[0].sum)).toEqual([12, 7])
    // PGlite's single session sees every connection's, under names of their own.
    expect(await prepared()).toBeGreaterThan(1)
    await waitFor('the idle connections to close and their statements to go (statements left)', prepared, {
      until: (n) => n === 0,
      timeoutMs: 10_000,
    })
  })

  it('rejects names that are malformed or taken', () => {
    const statements = new Statements(ds, false)
    statements.define('test_one', 'SELECT 1')
    expect(() => statements.define('test_one', 'SELECT 2')).toThrow(/taken/)
    expect(() => statements.define('Bad-Name', 'SELECT 2')).toThrow(/invalid/)
  })
})

// The parts of a sharded database's queueing: the due tenants (src/jobs/due-tenants.ts), the reconciler that reads
// them, and the lead enqueuer (src/jobs/lead-enqueuer.ts). The logic is the same on any PostgreSQL, so the first two
// run on both databases; the lead's advisory lock needs a server's sessions. test/integration/citus.test.ts checks on
// a cluster that a lost job is found from its tenant's mark, and that the reconciler reads the marked tenants' shards.
import type { EntityManager } from 'typeorm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DueTenants } from '../../src/jobs/due-tenants.js'
import { LeadEnqueuer } from '../../src/jobs/lead-enqueuer.js'
import { JobQueue, PROCESS_QUEUE } from '../../src/jobs/queue.js'
import { Reconciler } from '../../src/jobs/reconciler.js'
import { UnitOfWork } from '../../src/db/unit-of-work.js'
import { client, SERVER_URL, startService, type TestService } from '../support/harness.js'
import { post } from '../support/submit.js'
import { waitFor } from '../support/wait.js'

describe('due tenants and the reconciler that reads them', () => {
  let svc: TestService
  let queue: JobQueue
  let clock = 1_000_000
  let due: DueTenants
  const q = (sql: string, params: unknown[] = []) => svc.profiler.db.dataSource.query(sql, params)
  const markOf = async (tenantId: string) =>
    (await q(`SELECT marked_at::text AS at FROM due_tenants WHERE tenant_id = $1`, [tenantId]))[0]?.at as
      | string
      | undefined
  const backdate = (tenantId: string) =>
    q(`UPDATE due_tenants SET marked_at = now() - interval '1 hour' WHERE tenant_id = $1`, [tenantId])
  const jobs = async (profileId: string) =>
    (
      await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'profileId' = $2`, [
        PROCESS_QUEUE,
        profileId,
      ])
    )[0].n as number

  beforeAll(async () => {
    // No worker: the jobs the test makes stay queued, and it runs the reconciler itself.
    svc = await startService({ role: 'api', env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    queue = new JobQueue({ url: svc.profiler.db.url, pollSeconds: 1, supervise: false, onError: () => undefined })
    await queue.start()
    due = new DueTenants(svc.profiler.db.dataSource, () => clock)
  })
  afterAll(async () => {
    await queue?.stop()
    await svc?.close()
  })

  it('writes a mark at most once in a few seconds per tenant and process', async () => {
    await due.mark('ten_a')
    const first = await markOf('ten_a')
    expect(first).toBeDefined()
    await backdate('ten_a')
    const old = await markOf('ten_a')
    clock += 1_000
    await due.mark('ten_a') // remembered: no statement
    expect(await markOf('ten_a')).toBe(old)
    clock += 5_000
    await due.mark('ten_a') // forgotten, and the mark older than the interval: refreshed
    expect(await markOf('ten_a')).not.toBe(old)
    expect(new Date((await markOf('ten_a'))!).getTime()).toBeGreaterThan(Date.now() - 60_000)
  })

  it('clears a mark only past its grace and only when no POST refreshed it since it was read', async () => {
    clock += 10_000
    await due.mark('ten_b')
    let [mark] = (await due.list(100)).filter((m) => m.tenantId === 'ten_b')
    expect(await due.clear(mark!)).toBe(false) // within the grace
    await backdate('ten_b')
    ;[mark] = (await due.list(100)).filter((m) => m.tenantId === 'ten_b')
    await q(`UPDATE due_tenants SET marked_at = marked_at + interval '1 second' WHERE tenant_id = 'ten_b'`) // a POST
    expect(await due.clear(mark!)).toBe(false)
    ;[mark] = (await due.list(100)).filter((m) => m.tenantId === 'ten_b')
    expect(await due.clear(mark!)).toBe(true)
    expect(await markOf('ten_b')).toBeUndefined()
  })

  it("enqueues a lost job from its tenant's mark alone, and clears the mark once nothing is open", async () => {
    const api = client(svc.url, svc.key)
    await post(api, 'lost', { data: 'I live in Porto.' })
    const [{ tenant_id: tenantId }] = await q(`SELECT tenant_id FROM profiles WHERE profile_id = 'lost'`)
    // Its job lost, and older than the reconciler's grace.
    await q(`DELETE FROM pgboss.job WHERE name = $1 AND data->>'profileId' = 'lost'`, [PROCESS_QUEUE])
    await q(`UPDATE submissions SET created_at = now() - interval '1 minute' WHERE profile_id = 'lost'`)
    await q(`DELETE FROM due_tenants`)
    const reconciler = new Reconciler(svc.profiler.db.dataSource, queue, 30, due)
    expect(await reconciler.run()).toBe(0) // not marked: not looked at
    expect(await jobs('lost')).toBe(0)
    // One server reconciles every tenant, marked or not.
    expect(await new Reconciler(svc.profiler.db.dataSource, queue, 30).run()).toBe(1)
    await q(`DELETE FROM pgboss.job WHERE name = $1 AND data->>'profileId' = 'lost'`, [PROCESS_QUEUE])
    clock += 10_000
    await due.mark(tenantId)
    expect(await reconciler.run()).toBe(1)
    expect(await jobs('lost')).toBe(1)
    expect(await reconciler.run()).toBe(0) // queued now
    await backdate(tenantId)
    await reconciler.run()
    expect(await markOf(tenantId)).toBeDefined() // still open
    await q(`UPDATE submissions SET status = 'done' WHERE profile_id = 'lost'`)
    await reconciler.run()
    expect(await markOf(tenantId)).toBeUndefined()
  })

  it('looks at a bounded number of marks per run: 1,200 idle tenants clear in three runs', async () => {
    await q(
      `INSERT INTO due_tenants (tenant_id, marked_at)
       SELECT 'idle' || i, now() - interval '1 hour' FROM generate_series(1, 1200) i`,
    )
    const reconciler = new Reconciler(svc.profiler.db.dataSource, queue, 30, due)
    const left: number[] = []
    for (let run = 0; run < 3; run++) {
      await reconciler.run()
      left.push((await q(`SELECT count(*)::int AS n FROM due_tenants WHERE tenant_id LIKE 'idle%'`))[0].n)
    }
    expect(left).toEqual([700, 200, 0])
  })

  it('queues a job after the commit when sharded, inside the transaction otherwise, none on rollback', async () => {
    const sharded = new JobQueue({
      url: svc.profiler.db.url,
      pollSeconds: 1,
      supervise: false,
      onError: () => undefined,
      sharded: true,
    })
    await sharded.start()
    try {
      const uow = new UnitOfWork(svc.profiler.db.dataSource)
      const inTx = (manager: EntityManager, profileId: string) =>
        manager.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'profileId' = $1`, [profileId])
      // Plain: the job is written in the transaction, seen by it before the commit.
      const plain = await uow.run(undefined, async (tx) => {
        await queue.enqueue({ tenantId: 'ten_q', profileId: 'in-tx' }, { tx })
        return (await inTx(tx.manager, 'in-tx'))[0].n
      })
      expect(plain).toBe(1)
      // Sharded: nothing in the transaction (no write beside the tenant's shard); the job once it has committed.
      const before = await uow.run(undefined, async (tx) => {
        await sharded.enqueue({ tenantId: 'ten_q', profileId: 'after-commit' }, { tx, startAfterSeconds: 30 })
        return (await inTx(tx.manager, 'after-commit'))[0].n
      })
      expect(before).toBe(0)
      await waitFor('the job queued after the commit', async () => (await jobs('after-commit')) === 1 || undefined)
      const [delayed] = await q(`SELECT start_after > now() + interval '20 seconds' AS later FROM pgboss.job
        WHERE data->>'profileId' = 'after-commit'`)
      expect(delayed.later).toBe(true)
      await uow
        .run(undefined, async (tx) => {
          await sharded.enqueue({ tenantId: 'ten_q', profileId: 'rolled-back' }, { tx })
          throw new Error('roll back')
        })
        .catch(() => undefined)
      await uow.run(undefined, (tx) => sharded.enqueue({ tenantId: 'ten_q', profileId: 'next' }, { tx }))
      await waitFor('the next job', async () => (await jobs('next')) === 1 || undefined)
      expect(await jobs('rolled-back')).toBe(0)
    } finally {
      await sharded.stop()
    }
  })
})

describe.skipIf(!SERVER_URL)('the lead enqueuer', () => {
  let svc: TestService
  let queue: JobQueue
  const q = (sql: string, params: unknown[] = []) => svc.profiler.db.dataSource.query(sql, params)
  const jobsOf = async (prefix: string) =>
    (
      await q(
        `SELECT data->>'profileId' AS id, count(*)::int AS n FROM pgboss.job
          WHERE name = $1 AND data->>'profileId' LIKE $2 GROUP BY 1 ORDER BY 1`,
        [PROCESS_QUEUE, `${prefix}%`],
      )
    ).map((r: { id: string; n: number }) => `${r.id}:${r.n}`)
  const log = { warn: () => undefined, info: () => undefined }

  beforeAll(async () => {
    svc = await startService({ role: 'api' })
    queue = new JobQueue({ url: svc.profiler.db.url, pollSeconds: 1, supervise: false, onError: () => undefined })
    await queue.start()
  })
  afterAll(async () => {
    await queue?.stop()
    await svc?.close()
  })

  it('enqueues from one process, in batches, and another process leads once its connection ends', async () => {
    let woken = 0
    const enqueuer = () =>
      new LeadEnqueuer(queue, { url: svc.profiler.db.url, retryMs: 100, log, onEnqueued: () => woken++ })
    const first = enqueuer()
    const second = enqueuer()
    try {
      await first.start()
      await second.start()
      expect([first.isLead, second.isLead]).toEqual([true, false])
      // Both hear every event; only the lead enqueues, once per profile of a batch.
      for (const lead of [first, second])
        for (const id of ['lead1', 'lead2', 'lead1']) lead.add({ tenantId: 'ten_x', profileId: id })
      await waitFor('the jobs', () => jobsOf('lead'), { until: (jobs) => jobs.length === 2, timeoutMs: 10_000 })
      expect(await jobsOf('lead')).toEqual(['lead1:1', 'lead2:1'])
      expect(woken).toBe(1)
      // The lead's connection ends: the other takes over within its retry interval.
      await q(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND objid = $1 AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [0x706c6561],
      )
      await waitFor('the second process to lead', () => second.isLead || undefined, { timeoutMs: 10_000 })
      expect(first.isLead).toBe(false)
      first.add({ tenantId: 'ten_x', profileId: 'next1' })
      second.add({ tenantId: 'ten_x', profileId: 'next2' })
      await waitFor("the new lead's job", () => jobsOf('next'), { until: (jobs) => jobs.length > 0, timeoutMs: 10_000 })
      expect(await jobsOf('next')).toEqual(['next2:1'])
    } finally {
      await first.stop()
      await second.stop()
    }
  })
})

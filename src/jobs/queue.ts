import pg from 'pg'
import PgBoss from 'pg-boss'
import type { EntityManager } from 'typeorm'
import { rawClient } from '../db/database.js'
import type { Transaction } from '../db/unit-of-work.js'
import type { ProfileJob } from '../domain/profile.js'

export const PROCESS_QUEUE = 'profile-process'
const DEAD_QUEUE = 'profile-process-dead'
/** Advisory lock key serializing queue setup across processes ("pbos" in ASCII). */
const QUEUE_SETUP_LOCK = 0x70626f73

/** A job taken from the queue: its id (to complete it) and what it names. */
export interface QueuedJob {
  id: string
  data: ProfileJob
}

export interface QueueOptions {
  url: string
  pollSeconds: number
  /** API-only processes enqueue but run no maintenance. */
  supervise: boolean
  onError: (err: Error) => void
  /** The database is sharded by tenant (Citus): jobs a transaction queues are written after its commit. */
  sharded?: boolean
}

/**
 * The enqueue of a profile's job as the body of a data-modifying CTE, for a caller that commits its work and the job in
 * one statement (the POST: one round trip). It inserts the row pg-boss 10's send() inserts (its insertJob, with the
 * queue's stored policy and no per-job overrides; a test compares the two), when the SQL condition `when` holds.
 * Parameters: the job's data (JSON text) and its priority.
 */
export function jobInsertSql(dataParam: string, priorityParam: string, when: string): string {
  return `INSERT INTO pgboss.job (name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit,
                                  retry_delay, retry_backoff, policy)
      SELECT q.name, ${dataParam}::jsonb, ${priorityParam}::int, now(), q.dead_letter,
             COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
             now() + COALESCE((q.retention_minutes * 60)::text || ' seconds', '14 days')::interval,
             COALESCE(q.retry_limit, 2),
             CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(q.retry_delay, 1)
                  ELSE COALESCE(q.retry_delay, 0) END,
             COALESCE(q.retry_backoff, false), q.policy
        FROM pgboss.queue q WHERE q.name = '${PROCESS_QUEUE}' AND ${when}
      RETURNING id`
}

/**
 * pg-boss 10 behind a small interface. A job only says "this profile may have work": the handler claims the
 * profile's pending submissions itself, so a job that runs twice applies nothing twice.
 */
export class JobQueue {
  private readonly boss: PgBoss
  private started = false
  private readonly fairness = new TenantFairness()

  constructor(private readonly opts: QueueOptions) {
    this.boss = new PgBoss({
      connectionString: opts.url,
      max: 4,
      supervise: opts.supervise,
      schedule: false,
      migrate: true,
    })
    this.boss.on('error', (e) => opts.onError(e))
  }

  async start(): Promise<void> {
    await this.boss.start()
    this.started = true
    // Explicit policy on every queue (the defaults in pg-boss 10's SQL differ from its docs).
    const common = {
      retryLimit: 3,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 15 * 60,
      retentionMinutes: 60 * 24,
    }
    // pg-boss 10 creates a queue's partition without a lock: processes starting together deadlock (measured).
    const lock = new pg.Client({ connectionString: this.opts.url })
    // A connection cut while it is idle emits 'error', which would end the process without a listener; the queries
    // awaited below fail on their own.
    lock.on('error', () => undefined)
    await lock.connect()
    try {
      await lock.query(`SELECT pg_advisory_lock($1)`, [QUEUE_SETUP_LOCK])
      await this.ensureQueue(DEAD_QUEUE, { ...common, retryLimit: 0 })
      await this.ensureQueue(PROCESS_QUEUE, { ...common, deadLetter: DEAD_QUEUE })
      // What forgetProfile looks up in the archive (days of finished jobs), without a scan on every profile deletion.
      await lock.query(
        `CREATE INDEX IF NOT EXISTS profiler_archive_profile
           ON pgboss.archive (name, (data->>'tenantId'), (data->>'profileId'))`,
      )
    } finally {
      await lock.query(`SELECT pg_advisory_unlock($1)`, [QUEUE_SETUP_LOCK]).catch(() => undefined)
      await lock.end()
    }
  }

  private async ensureQueue(name: string, options: Record<string, unknown>) {
    const existing = await this.boss.getQueue(name)
    if (existing) await this.boss.updateQueue(name, { policy: 'standard', ...options } as any)
    else await this.boss.createQueue(name, { policy: 'standard', ...options } as any)
  }

  /**
   * Enqueues with the caller's transaction when given: inside it on a plain database, so that a commit means the job
   * exists; after its commit on a sharded one, where the queue is a table of the coordinator and writing it beside a
   * tenant's shard would commit in two phases. A job lost between that commit and its insert (the process ended) is
   * the reconciler's: a tenant stays marked due while it has open submissions. Without a transaction, on its own.
   */
  async enqueue(job: ProfileJob, opts: { tx?: Transaction; startAfterSeconds?: number } = {}): Promise<void> {
    const { tx, startAfterSeconds } = opts
    if (tx && this.opts.sharded) {
      tx.onCommit(() => void this.send(job, undefined, startAfterSeconds).catch((err) => this.opts.onError(err)))
      return
    }
    await this.send(job, tx?.manager, startAfterSeconds)
  }

  private async send(job: ProfileJob, tx: EntityManager | undefined, startAfterSeconds = 0): Promise<void> {
    const sendOpts: Record<string, unknown> = { priority: this.fairness.priority(job.tenantId) }
    if (startAfterSeconds > 0) sendOpts.startAfter = Math.ceil(startAfterSeconds)
    if (tx) {
      const client = await rawClient(tx)
      sendOpts.db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) }
    }
    const id = await this.boss.send(PROCESS_QUEUE, job, sendOpts as PgBoss.SendOptions)
    if (!id) throw new Error(`pg-boss returned no job id for queue ${PROCESS_QUEUE}`)
  }

  /** Enqueues the jobs in one statement, each with its tenant's priority. */
  async enqueueMany(jobs: ProfileJob[]): Promise<void> {
    if (!jobs.length) return
    await this.boss.insert(
      jobs.map((job) => ({ name: PROCESS_QUEUE, data: job, priority: this.fairness.priority(job.tenantId) })),
    )
  }

  /** The priority of a tenant's next job (see TenantFairness); `jobInsertSql` callers pass it. */
  priority(tenantId: string): number {
    return this.fairness.priority(tenantId)
  }

  /**
   * Removes every job of a profile, inside the caller's transaction: queued ones (nothing runs for a deleted profile),
   * running, finished and dead-lettered ones, and their archived copies; a job's data names the profile, and a profile
   * id may be personal (an e-mail address), so a deleted profile leaves none behind. A worker running one of them finds
   * the profile gone, and completing a job that is no longer there is a no-op in pg-boss.
   */
  async forgetProfile(tx: EntityManager, job: ProfileJob): Promise<void> {
    const params = [[PROCESS_QUEUE, DEAD_QUEUE], job.tenantId, job.profileId]
    await tx.query(
      `DELETE FROM pgboss.job WHERE name = ANY($1::text[]) AND data->>'tenantId' = $2 AND data->>'profileId' = $3`,
      params,
    )
    await tx.query(
      `DELETE FROM pgboss.archive WHERE name = ANY($1::text[]) AND data->>'tenantId' = $2 AND data->>'profileId' = $3`,
      params,
    )
  }

  /**
   * The profiles (tenant_id, profile_id) that have a queued job, of the tenant in the parameter `tenantParam` when
   * given (the reconciler uses it to avoid piling up jobs).
   */
  queuedSql(tenantParam?: string): string {
    return `SELECT j.data->>'tenantId' AS tenant_id, j.data->>'profileId' AS profile_id FROM pgboss.job j
             WHERE j.name = '${PROCESS_QUEUE}' AND j.state IN ('created', 'retry')
             ${tenantParam ? `AND j.data->>'tenantId' = ${tenantParam}` : ''}`
  }

  /** Takes up to `n` queued jobs (by priority, then age), now active; [] when none (or the database is unreachable). */
  async fetch(count: number): Promise<QueuedJob[]> {
    const jobs = await this.boss.fetch<ProfileJob>(PROCESS_QUEUE, {
      batchSize: count,
      priority: true,
    } as PgBoss.FetchOptions)
    return (jobs ?? []).map((j) => ({ id: j.id, data: j.data }))
  }

  async complete(ids: string[]): Promise<void> {
    if (ids.length && this.started) await this.boss.complete(PROCESS_QUEUE, ids)
  }

  /** Fails the jobs (pg-boss retries them by the queue's policy). */
  async fail(ids: string[], err: unknown): Promise<void> {
    // pg-boss 10's fail() takes output data for one id only; for several, the jobs fail without it.
    if (!this.started) return
    if (ids.length === 1)
      await this.boss.fail(PROCESS_QUEUE, ids[0]!, { message: err instanceof Error ? err.message : String(err) })
    else if (ids.length) await this.boss.fail(PROCESS_QUEUE, ids)
  }

  async stop(): Promise<void> {
    if (!this.started) return
    this.started = false
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 } as any)
  }
}

/**
 * Fair shares between tenants in the queue: a job's priority falls with the log of how many jobs its tenant queued
 * lately (this process's count, halving every 10 s). pg-boss fetches by priority, then age, so one tenant's burst of
 * thousands does not make another tenant's single submission wait behind all of it; a burst still runs in order
 * within itself, and the order of one profile's submissions is the claim's (by sequence), not the queue's.
 */
export class TenantFairness {
  private readonly recent = new Map<string, { count: number; at: number }>()

  constructor(
    private readonly halfLifeMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  priority(tenantId: string): number {
    const now = this.now()
    const recent = this.recent.get(tenantId) ?? { count: 0, at: now }
    recent.count = recent.count * 0.5 ** ((now - recent.at) / this.halfLifeMs) + 1
    recent.at = now
    this.recent.set(tenantId, recent)
    if (this.recent.size > 10_000) this.forget(now)
    return -Math.floor(Math.log2(recent.count))
  }

  private forget(now: number) {
    for (const [t, r] of this.recent) if (r.count * 0.5 ** ((now - r.at) / this.halfLifeMs) < 1) this.recent.delete(t)
  }
}

import type { DataSource } from 'typeorm'
import type { ProfileJob } from '../domain/profile.js'
import { isOpenSql } from '../domain/submission.js'
import type { DueMark, DueTenants } from './due-tenants.js'
import type { JobQueue } from './queue.js'

/** Marked tenants looked at in one run, oldest mark first; the rest wait for the next run. */
const TENANTS_PER_RUN = 500

/**
 * Enqueues a job for profiles whose open submissions nobody holds (a worker died mid-batch, a job was lost).
 * With the lease, this bounds recovery to about lease + interval seconds. On a sharded database it looks at the
 * tenants marked due (DueTenants), one tenant's shard per statement, instead of every shard at once.
 */
export class Reconciler {
  constructor(
    private readonly ds: DataSource,
    private readonly queue: JobQueue,
    private readonly leaseSeconds: number,
    private readonly due?: DueTenants,
  ) {}

  /** The number of jobs enqueued. */
  async run(): Promise<number> {
    if (!this.due) return this.enqueue(await this.stranded())
    let enqueued = 0
    for (const mark of await this.due.list(TENANTS_PER_RUN)) enqueued += await this.reconcileTenant(mark)
    return enqueued
  }

  private async reconcileTenant(mark: DueMark): Promise<number> {
    const enqueued = await this.enqueue(await this.stranded(mark.tenantId))
    if (!enqueued && !(await this.hasOpen(mark.tenantId))) await this.due!.clear(mark)
    return enqueued
  }

  private async enqueue(jobs: ProfileJob[]): Promise<number> {
    for (const job of jobs) await this.queue.enqueue(job)
    return jobs.length
  }

  /** Profiles with open submissions past the grace, no live lease and no queued job; of one tenant when given. */
  private stranded(tenantId?: string): Promise<ProfileJob[]> {
    // The tenant is named on both tables and on the queue, so that a sharded database runs it on the tenant's shard.
    const ofTenant = tenantId ? 'AND s.tenant_id = $2 AND p.tenant_id = $2' : ''
    return this.ds.query(
      `SELECT DISTINCT s.tenant_id AS "tenantId", s.profile_id AS "profileId"
         FROM submissions s JOIN profiles p ON p.tenant_id = s.tenant_id AND p.profile_id = s.profile_id
         -- Those with no queued job: an anti-join to the queue's (uncorrelated) subquery rather than a NOT EXISTS,
         -- because the queue is a table of the coordinator and the others may be distributed (Citus), which can join
         -- them only through the subquery's result.
         LEFT JOIN (${this.queue.queuedSql(tenantId ? '$2' : undefined)}) q
           ON q.tenant_id = s.tenant_id AND q.profile_id = s.profile_id
        WHERE ${isOpenSql('s.status')} ${ofTenant}
          AND (s.not_before IS NULL OR s.not_before <= now())
          AND s.created_at < now() - make_interval(secs => $1)
          AND (p.lease_until IS NULL OR p.lease_until < now())
          AND q.tenant_id IS NULL
        LIMIT 500`,
      [Math.min(this.leaseSeconds, 10), ...(tenantId ? [tenantId] : [])],
    )
  }

  private async hasOpen(tenantId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `SELECT 1 FROM submissions s WHERE s.tenant_id = $1 AND ${isOpenSql('s.status')} LIMIT 1`,
      [tenantId],
    )
    return rows.length > 0
  }
}

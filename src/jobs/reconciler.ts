import type { DataSource } from 'typeorm'
import type { ProfileJob } from '../domain/profile.js'
import { isOpenSql } from '../domain/submission.js'
import type { JobQueue } from './queue.js'

/**
 * Enqueues a job for profiles whose open submissions nobody holds (a worker died mid-batch, a job was lost).
 * With the lease, this bounds recovery to about lease + interval seconds.
 */
export class Reconciler {
  constructor(
    private readonly ds: DataSource,
    private readonly queue: JobQueue,
    private readonly leaseSeconds: number,
  ) {}

  async run(): Promise<number> {
    const rows: ProfileJob[] = await this.ds.query(
      `SELECT DISTINCT s.tenant_id AS "tenantId", s.profile_id AS "profileId"
         FROM submissions s JOIN profiles p ON p.tenant_id = s.tenant_id AND p.profile_id = s.profile_id
         -- Those with no queued job: an anti-join to the queue's (uncorrelated) subquery rather than a NOT EXISTS,
         -- because the queue is a table of the coordinator and the others may be distributed (Citus), which can join
         -- them only through the subquery's result.
         LEFT JOIN (${this.queue.queuedSql()}) q ON q.tenant_id = s.tenant_id AND q.profile_id = s.profile_id
        WHERE ${isOpenSql('s.status')}
          AND (s.not_before IS NULL OR s.not_before <= now())
          AND s.created_at < now() - make_interval(secs => $1)
          AND (p.lease_until IS NULL OR p.lease_until < now())
          AND q.tenant_id IS NULL
        LIMIT 500`,
      [Math.min(this.leaseSeconds, 10)],
    )
    for (const job of rows) await this.queue.enqueue(job)
    return rows.length
  }
}

import type { DataSource } from 'typeorm'
import type { WebhookRepository } from '../../db/webhook.repository.js'

/** A tenant the index says is due, with the version its row had when read. */
export interface DueTenant {
  tenantId: string
  version: string
}

/**
 * On a sharded database (Citus), when each tenant with pending webhook deliveries next needs a look, in a table of the
 * coordinator's own (`webhook_due`). The dispatcher's poll reads the tenants due now from it and claims in their shards
 * only, instead of looking at every shard of the deliveries each second.
 *
 * A row's `due_at` is never later than the next attempt of any of its tenant's pending deliveries: a retry marks its
 * time, a claim's lease is written when the claiming dispatcher settles the tenant, and a look that finds nothing
 * pending drops the row. New deliveries are told to every dispatcher by their transaction's events; what a dispatcher
 * missed (none was listening, or one died before it settled) is restored by `rebuild`, a look at every shard that the
 * dispatcher runs at its start, hourly and when its event connection lost events.
 */
/** A write that only ever brings a tenant's row earlier, and tells a look that read it before that something came. */
const KEEP_EARLIER = `ON CONFLICT (tenant_id) DO UPDATE
  SET due_at = least(webhook_due.due_at, excluded.due_at), version = webhook_due.version + 1`

export class WebhookDueIndex {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: WebhookRepository,
  ) {}

  /** The tenant needs a look at `at` (a Date, or as the database wrote it) at the latest; now when not given. */
  async mark(tenantId: string, at?: Date | string): Promise<void> {
    await this.ds.query(
      `INSERT INTO webhook_due (tenant_id, due_at) VALUES ($1, coalesce($2::timestamptz, now())) ${KEEP_EARLIER}`,
      [tenantId, at ?? null],
    )
  }

  /** The tenants due now, the longest due first. */
  async due(limit: number): Promise<DueTenant[]> {
    const rows: { tenant_id: string; version: string }[] = await this.ds.query(
      `SELECT tenant_id, version::text FROM webhook_due WHERE due_at <= now() ORDER BY due_at LIMIT $1`,
      [limit],
    )
    return rows.map((r) => ({ tenantId: r.tenant_id, version: r.version }))
  }

  /**
   * Sets the tenant's row to its next pending attempt (a claim's lease included), after a look or a claim: or drops it
   * when nothing is pending. `seen`: the version the look read; the row is then changed only if no mark came since.
   */
  async settle(tenantId: string, seen?: string): Promise<void> {
    const next = await this.repo.nextAttemptAt(this.ds.manager, tenantId)
    if (next === null) {
      if (seen !== undefined)
        await this.ds.query(`DELETE FROM webhook_due WHERE tenant_id = $1 AND version = $2`, [tenantId, seen])
    } else if (seen !== undefined) {
      await this.ds.query(
        `UPDATE webhook_due SET due_at = $2::timestamptz, version = version + 1 WHERE tenant_id = $1 AND version = $3`,
        [tenantId, next, seen],
      )
    } else {
      await this.mark(tenantId, next)
    }
  }

  /** Marks every tenant with pending deliveries at its next attempt, from every shard; the number of tenants. */
  async rebuild(): Promise<number> {
    const next = await this.repo.nextAttempts(this.ds.manager)
    if (!next.length) return 0
    await this.ds.query(
      `INSERT INTO webhook_due (tenant_id, due_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[]) ${KEEP_EARLIER}`,
      [next.map((n) => n.tenantId), next.map((n) => n.at)],
    )
    return next.length
  }
}

import type { DataSource } from 'typeorm'

/** How long a mark stays after its tenant's last POST, at the least (longer than any POST's transaction). */
export const DUE_GRACE_SECONDS = 120
/** A tenant's mark is written at most once in this many seconds (by the database, and by each process). */
const REMARK_SECONDS = 5
/** Tenants this process remembers having marked; past it, it forgets them all (and marks each once more). */
const REMEMBERED_TENANTS = 10_000

/** A tenant's mark: since when it may have work (refreshed by its POSTs). */
export interface DueMark {
  tenantId: string
  /** As the database wrote it (text, to the microsecond: a Date would not match it again). */
  markedAt: string
}

/**
 * On a sharded database (Citus), the tenants that may have work, in a table of the coordinator's own (`due_tenants`).
 * A POST marks its tenant before its transaction, so every committed submission is under a mark; the reconciler looks
 * at the marked tenants' shards only, instead of every shard of the submissions, and clears a mark once its tenant has
 * nothing open and no POST refreshed it for DUE_GRACE_SECONDS. A mark is one coordinator-local statement, and at most
 * one every REMARK_SECONDS per tenant and process, so a tenant's burst of POSTs does not contend for its row.
 */
export class DueTenants {
  private readonly marked = new Map<string, number>()

  constructor(
    private readonly ds: DataSource,
    private readonly now: () => number = Date.now,
  ) {}

  async mark(tenantId: string): Promise<void> {
    const at = this.marked.get(tenantId)
    if (at !== undefined && this.now() - at < REMARK_SECONDS * 1000) return
    await this.ds.query(
      `INSERT INTO due_tenants (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET marked_at = now()
        WHERE due_tenants.marked_at < now() - make_interval(secs => $2)`,
      [tenantId, REMARK_SECONDS],
    )
    if (this.marked.size >= REMEMBERED_TENANTS) this.marked.clear()
    this.marked.set(tenantId, this.now())
  }

  /** The marks, oldest first. */
  async list(limit: number): Promise<DueMark[]> {
    const rows: { tenant_id: string; marked_at: string }[] = await this.ds.query(
      `SELECT tenant_id, marked_at::text FROM due_tenants ORDER BY marked_at LIMIT $1`,
      [limit],
    )
    return rows.map((r) => ({ tenantId: r.tenant_id, markedAt: r.marked_at }))
  }

  /**
   * Clears a mark that its tenant's POSTs left alone since it was read and for the grace period: the caller has seen
   * nothing open in the tenant after reading it. True when cleared.
   */
  async clear(mark: DueMark): Promise<boolean> {
    // As a SELECT: TypeORM answers a DELETE with its rows and its count, not the rows alone.
    const [row]: { n: number }[] = await this.ds.query(
      `WITH cleared AS (
         DELETE FROM due_tenants
          WHERE tenant_id = $1 AND marked_at = $2::timestamptz AND marked_at < now() - make_interval(secs => $3)
         RETURNING 1
       ) SELECT count(*)::int AS n FROM cleared`,
      [mark.tenantId, mark.markedAt, DUE_GRACE_SECONDS],
    )
    return row!.n > 0
  }
}

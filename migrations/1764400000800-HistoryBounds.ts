import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * A profile keeps at most PROFILER_PROFILE_MAX_HISTORY history entries and PROFILER_PROFILE_MAX_SNAPSHOTS snapshots
 * (the newest): each write of an entry prunes what falls out. The entries that still hold a snapshot are indexed on
 * their own, so that the prune touches only those, never the profile's whole history.
 */
export class HistoryBounds1764400000800 implements MigrationInterface {
  name = 'HistoryBounds1764400000800'

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX profile_history_snapshots ON profile_history (tenant_id, profile_id, seq) WHERE snapshot IS NOT NULL`,
    )
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX profile_history_snapshots`)
  }
}

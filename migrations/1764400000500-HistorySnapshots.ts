import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Each history entry written from now on keeps the profile's state once it applied (content, internals,
 * field_timestamps, language), so a profile can be rolled back to it. Entries written before have none (NULL): a
 * rollback to them is refused. Deleted with the profile (the table's ON DELETE CASCADE).
 */
export class HistorySnapshots1764400000500 implements MigrationInterface {
  name = 'HistorySnapshots1764400000500'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profile_history ADD COLUMN snapshot jsonb`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profile_history DROP COLUMN snapshot`)
  }
}

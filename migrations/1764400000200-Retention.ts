import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Per-app retention (README "Retention"): how many days an app's profiles may stay untouched, and after how many days
 * the raw text of its finished submissions is dropped (null: never). Submissions now record the app that made them
 * (null for those made before this migration), and their text may be null (dropped by retention, or imported without
 * it). The partial index finds the finished submissions whose text is still kept, by app and age; rows enter it when
 * they finish, not when they are accepted.
 */
export class Retention1764400000200 implements MigrationInterface {
  name = 'Retention1764400000200'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps ADD COLUMN delete_profiles_after_days integer CHECK (delete_profiles_after_days > 0),
                                   ADD COLUMN drop_submission_text_after_days integer CHECK (drop_submission_text_after_days > 0)`)
    await q.query(`ALTER TABLE submissions ADD COLUMN app_id text, ALTER COLUMN data DROP NOT NULL`)
    await q.query(
      `CREATE INDEX submissions_text_kept ON submissions (tenant_id, app_id, finished_at) WHERE data IS NOT NULL AND finished_at IS NOT NULL`,
    )
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS submissions_text_kept`)
    await q.query(`UPDATE submissions SET data = '' WHERE data IS NULL`)
    await q.query(`ALTER TABLE submissions DROP COLUMN app_id, ALTER COLUMN data SET NOT NULL`)
    await q.query(
      `ALTER TABLE apps DROP COLUMN delete_profiles_after_days, DROP COLUMN drop_submission_text_after_days`,
    )
  }
}

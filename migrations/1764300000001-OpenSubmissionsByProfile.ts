import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * A profile's open submissions in order, for the worker's claim and its count of what remains: the index on all of a
 * profile's submissions made both walk past every finished one (a long-lived profile has thousands). Small: only open
 * submissions are in it.
 */
export class OpenSubmissionsByProfile1764300000001 implements MigrationInterface {
  name = 'OpenSubmissionsByProfile1764300000001'

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX submissions_open_by_profile ON submissions (tenant_id, profile_id, seq) WHERE status IN ('pending', 'processing')`,
    )
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS submissions_open_by_profile`)
  }
}

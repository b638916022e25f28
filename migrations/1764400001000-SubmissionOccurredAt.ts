import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * When a submission's text was said or written (README "Event time"): `occurred_at` of the POST, or the latest
 * `timestamp` of a JSON conversation's messages. Null stands for the acceptance time (`created_at`), so existing rows
 * need no backfill and adding the column rewrites nothing.
 */
export class SubmissionOccurredAt1764400001000 implements MigrationInterface {
  name = 'SubmissionOccurredAt1764400001000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions ADD COLUMN occurred_at timestamptz`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN occurred_at`)
  }
}

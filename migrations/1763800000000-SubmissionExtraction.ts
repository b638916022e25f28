import type { MigrationInterface, QueryRunner } from 'typeorm'

/** Keeps what the extractor proposed for each submission, with the evidence quoted for each value (provenance). */
export class SubmissionExtraction1763800000000 implements MigrationInterface {
  name = 'SubmissionExtraction1763800000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions ADD COLUMN extraction jsonb`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN extraction`)
  }
}

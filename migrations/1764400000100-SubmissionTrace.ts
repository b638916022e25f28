import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The W3C traceparent of the request that accepted a submission, when tracing is on: the worker's spans for it continue
 * that trace across the queue. Null when tracing is off (nothing is written).
 */
export class SubmissionTrace1764400000100 implements MigrationInterface {
  name = 'SubmissionTrace1764400000100'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions ADD COLUMN traceparent text`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE submissions DROP COLUMN traceparent`)
  }
}

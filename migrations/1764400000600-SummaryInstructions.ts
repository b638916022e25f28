import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Summary instructions per app (README "Summary instructions"): up to 5 short sentences (checked by the service) that
 * say what the summary of a profile must cover or leave out; the worker reads them with each batch's submissions.
 */
export class SummaryInstructions1764400000600 implements MigrationInterface {
  name = 'SummaryInstructions1764400000600'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps ADD COLUMN summary_instructions jsonb NOT NULL DEFAULT '[]'::jsonb
                     CHECK (jsonb_typeof(summary_instructions) = 'array' AND jsonb_array_length(summary_instructions) <= 5)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps DROP COLUMN summary_instructions`)
  }
}

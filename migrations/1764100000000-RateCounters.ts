import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Request budgets shared by every API process: one row per limiter scope, key and time window. UNLOGGED: counts are
 * worth nothing after a crash, and they are written several times a second.
 */
export class RateCounters1764100000000 implements MigrationInterface {
  name = 'RateCounters1764100000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_counters (
        scope text NOT NULL,
        key text NOT NULL,
        window_id bigint NOT NULL,
        hits integer NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, key, window_id)
      )`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS rate_counters`)
  }
}

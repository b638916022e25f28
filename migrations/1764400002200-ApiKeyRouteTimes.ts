import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * When each key route was written: a process that keeps the ids of the live keys in memory (the failure budget's
 * KnownKeyIds) reads only the routes written since its last read. On Citus the routes are on the coordinator, so
 * these reads touch no shard. Existing routes get the migration's time: later than their keys were made, so they are
 * read once more, which does no harm.
 */
export class ApiKeyRouteTimes1764400002200 implements MigrationInterface {
  name = 'ApiKeyRouteTimes1764400002200'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_key_routes ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_key_routes DROP COLUMN IF EXISTS created_at`)
  }
}

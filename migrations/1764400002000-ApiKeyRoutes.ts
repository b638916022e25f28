import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The tenant of each live API key, by its public id (src/db/tenant.repository.ts): a request's key names no tenant,
 * and on a sharded database (Citus) a look for the public id in `api_keys` reads every shard. A plain table, so on
 * Citus it stays on the coordinator. The live keys are copied in.
 */
export class ApiKeyRoutes1764400002000 implements MigrationInterface {
  name = 'ApiKeyRoutes1764400002000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_key_routes (
        public_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        app_id text NOT NULL
      )`)
    await q.query(`CREATE INDEX api_key_routes_app ON api_key_routes (tenant_id, app_id)`)
    await q.query(`
      INSERT INTO api_key_routes (public_id, tenant_id, app_id)
      SELECT public_id, tenant_id, app_id FROM api_keys WHERE revoked_at IS NULL`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS api_key_routes`)
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The tenants that may have an app with a retention policy (src/db/retention.repository.ts): on a sharded database
 * (Citus) the retention sweep reads them instead of every shard of `apps`. A plain table, so on Citus it stays on the
 * coordinator. The tenants with a policy today are copied in.
 */
export class RetentionTenants1764400002100 implements MigrationInterface {
  name = 'RetentionTenants1764400002100'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retention_tenants (
        tenant_id text PRIMARY KEY,
        marked_at timestamptz NOT NULL DEFAULT now()
      )`)
    await q.query(`
      INSERT INTO retention_tenants (tenant_id)
      SELECT DISTINCT tenant_id FROM apps
       WHERE delete_profiles_after_days IS NOT NULL OR drop_submission_text_after_days IS NOT NULL`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS retention_tenants`)
  }
}

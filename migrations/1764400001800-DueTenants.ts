import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * The tenants that may have work, on a sharded database (src/jobs/due-tenants.ts): a POST marks its tenant, the
 * reconciler reads the marks instead of every shard. A plain table, so on Citus it stays on the coordinator, beside
 * the job queue. No foreign key: a deleted tenant's mark is cleared like any other. One server leaves it empty.
 */
export class DueTenants1764400001800 implements MigrationInterface {
  name = 'DueTenants1764400001800'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE due_tenants (
        tenant_id text PRIMARY KEY,
        marked_at timestamptz NOT NULL DEFAULT now()
      )`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS due_tenants`)
  }
}

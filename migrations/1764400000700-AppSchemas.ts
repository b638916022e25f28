import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Custom profile schemas per app (issue 14): every version an app set is kept (app_schemas), the app points at its
 * current one (apps.schema_version; NULL = no custom schema). Versions are numbered from 1 per app.
 */
export class AppSchemas1764400000700 implements MigrationInterface {
  name = 'AppSchemas1764400000700'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE app_schemas (
        tenant_id text NOT NULL,
        app_id text NOT NULL,
        version int NOT NULL,
        schema jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, app_id, version),
        FOREIGN KEY (tenant_id, app_id) REFERENCES apps(tenant_id, id) ON DELETE CASCADE
      )`)
    await q.query(`ALTER TABLE apps ADD COLUMN schema_version int`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE apps DROP COLUMN schema_version`)
    await q.query(`DROP TABLE app_schemas`)
  }
}

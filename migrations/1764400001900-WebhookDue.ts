import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * When each tenant with pending webhook deliveries next needs a look, on a sharded database
 * (src/services/webhooks/due-index.ts): the dispatcher reads it instead of every shard of the deliveries. A plain
 * table, so on Citus it stays on the coordinator. No foreign key: a deleted tenant's row goes at its next look. One
 * server leaves it empty.
 */
export class WebhookDue1764400001900 implements MigrationInterface {
  name = 'WebhookDue1764400001900'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_due (
        tenant_id text PRIMARY KEY,
        due_at timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT 0
      )`)
    await q.query(`CREATE INDEX webhook_due_due_at ON webhook_due (due_at)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_due`)
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Signed webhooks per app. `webhook_endpoints`: an app's receivers, the events each takes and its signing secrets
 * (encrypted; the previous secret stays valid for a grace period after a rotation). `webhook_deliveries` is the
 * transactional outbox and the delivery log in one: a row per event and endpoint, inserted in the transaction of the
 * change it reports, sent by the worker's dispatcher until delivered or given up. `webhook_attempts` keeps each
 * attempt. Payloads hold ids only; a profile's deletion removes its earlier rows (src/db/webhook.repository.ts).
 */
export class Webhooks1764400000000 implements MigrationInterface {
  name = 'Webhooks1764400000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        tenant_id text NOT NULL,
        id text NOT NULL,
        app_id text NOT NULL,
        url text NOT NULL,
        description text,
        events text[] NOT NULL,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until timestamptz,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, app_id) REFERENCES apps(tenant_id, id) ON DELETE CASCADE
      )`)
    await q.query(`CREATE INDEX webhook_endpoints_app ON webhook_endpoints (tenant_id, app_id)`)
    await q.query(`
      CREATE TABLE webhook_deliveries (
        tenant_id text NOT NULL,
        id uuid NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        endpoint_id text NOT NULL,
        event_id text NOT NULL,
        event text NOT NULL,
        profile_id text,
        payload jsonb NOT NULL,
        test boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints(tenant_id, id) ON DELETE CASCADE
      )`)
    // The dispatcher's claim (across tenants, like the job queue): only rows still to send are in it.
    await q.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    )
    await q.query(`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (tenant_id, endpoint_id, seq)`)
    await q.query(
      `CREATE INDEX webhook_deliveries_profile ON webhook_deliveries (tenant_id, profile_id) WHERE profile_id IS NOT NULL`,
    )
    await q.query(
      `CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending'`,
    )
    await q.query(`
      CREATE TABLE webhook_attempts (
        tenant_id text NOT NULL,
        delivery_id uuid NOT NULL,
        attempt integer NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        PRIMARY KEY (tenant_id, delivery_id, attempt),
        FOREIGN KEY (tenant_id, delivery_id) REFERENCES webhook_deliveries(tenant_id, id) ON DELETE CASCADE
      )`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_attempts`)
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`)
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`)
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * On a Citus coordinator (the `citus` extension created in the database), spreads the tenant-owned tables over the
 * workers by tenant_id, all co-located with `apps`: one tenant's rows of every table live in one shard group on one
 * node, so the service's per-tenant joins, foreign keys and transactions stay on that node. `tenants` becomes a
 * reference table (a copy on every node: the tenant-owned tables' foreign keys point at it). The rest stays on the
 * coordinator: accounts, sessions and invites (Citus makes them coordinator-local "Citus managed" tables, as they have
 * foreign keys to the reference table), rate_counters and login_failures (plain local tables), and pg-boss's schema.
 *
 * Citus needs every primary key and unique index of a distributed table to include the distribution column; all do
 * except api_keys (keyed by its public id, looked up before the tenant is known), whose key becomes
 * (tenant_id, public_id) here. The public ids are random, and that lookup by public id alone still finds the one key.
 *
 * Without Citus (a plain server, the embedded database) this migration does nothing, and its down does nothing.
 */
export class CitusDistribution1764400001200 implements MigrationInterface {
  name = 'CitusDistribution1764400001200'

  async up(q: QueryRunner): Promise<void> {
    if (!(await citus(q))) return
    // All of it in the migration's transaction: with the shards created over one connection per node, which is what
    // lets a transaction block distribute several tables that have foreign keys between them.
    await q.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`)
    // A table can be distributed (or made a reference table) only when no local table has a foreign key to it, nor
    // it to a local table: the foreign keys of the tables to distribute (between them, and to tenants) go first and
    // come back, unchanged, once all are distributed.
    const fks: { t: string; name: string; def: string }[] = await q.query(
      `SELECT conrelid::regclass::text AS t, conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE contype = 'f' AND conrelid::regclass::text = ANY($1) AND confrelid::regclass::text = ANY($1 || '{tenants}'::text[]) ORDER BY oid`,
      [['apps', ...DISTRIBUTED]],
    )
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.t} DROP CONSTRAINT ${fk.name}`)
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey`)
    await q.query(`ALTER TABLE api_keys ADD PRIMARY KEY (tenant_id, public_id)`)
    await q.query(`SELECT create_reference_table('tenants')`)
    await q.query(`SELECT create_distributed_table('apps', 'tenant_id')`)
    for (const t of DISTRIBUTED)
      await q.query(`SELECT create_distributed_table($1, 'tenant_id', colocate_with => 'apps')`, [t])
    for (const fk of fks) await q.query(`ALTER TABLE ${fk.t} ADD CONSTRAINT ${fk.name} ${fk.def}`)
  }

  async down(q: QueryRunner): Promise<void> {
    if (!(await citus(q))) return
    for (const t of [...DISTRIBUTED].reverse())
      await q.query(`SELECT undistribute_table($1, cascade_via_foreign_keys => true)`, [t]).catch(() => undefined)
  }
}

/** Co-located with apps, in foreign-key order. */
const DISTRIBUTED = [
  'profiles',
  'submissions',
  'profile_history',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'app_schemas',
  'passages',
]

async function citus(q: QueryRunner): Promise<boolean> {
  const rows: unknown[] = await q.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)
  return rows.length > 0
}

import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Tenants, apps, keys, profiles (with the embedding), submissions and the profile history.
 * Every tenant-owned table leads its primary key and unique indexes with tenant_id.
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS vector`)
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`)
    await q.query(`
      CREATE TABLE tenants (
        id text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`)
    await q.query(`
      CREATE TABLE apps (
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, name)
      )`)
    // The key lookup happens before the tenant is known, so this table is keyed by the key's public id.
    await q.query(`
      CREATE TABLE api_keys (
        public_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        app_id text NOT NULL,
        key_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        FOREIGN KEY (tenant_id, app_id) REFERENCES apps(tenant_id, id) ON DELETE CASCADE
      )`)
    await q.query(
      `CREATE UNIQUE INDEX api_keys_one_live_per_app ON api_keys (tenant_id, app_id) WHERE revoked_at IS NULL`,
    )
    await q.query(`
      CREATE TABLE profiles (
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        profile_id text NOT NULL,
        status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready')),
        content jsonb NOT NULL DEFAULT '{}',
        field_timestamps jsonb NOT NULL DEFAULT '{}',
        internals jsonb NOT NULL DEFAULT '{}',
        summary text,
        language text,
        name text,
        age integer,
        gender text,
        location text,
        embedding vector(1024),
        embedding_model text,
        version integer NOT NULL DEFAULT 0,
        history_seq integer NOT NULL DEFAULT 0,
        claimed_by text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_updated timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, profile_id)
      )`)
    await q.query(`CREATE INDEX profiles_last_updated ON profiles (tenant_id, last_updated, profile_id)`)
    await q.query(`CREATE INDEX profiles_created_at ON profiles (tenant_id, created_at, profile_id)`)
    await q.query(`CREATE INDEX profiles_name ON profiles (tenant_id, lower(name), profile_id)`)
    await q.query(`CREATE INDEX profiles_location ON profiles (tenant_id, lower(location), profile_id)`)
    await q.query(`CREATE INDEX profiles_age ON profiles (tenant_id, age, profile_id)`)
    await q.query(`CREATE INDEX profiles_name_trgm ON profiles USING gin (lower(name) gin_trgm_ops)`)
    await q.query(`CREATE INDEX profiles_location_trgm ON profiles USING gin (lower(location) gin_trgm_ops)`)
    await q.query(`CREATE INDEX profiles_id_trgm ON profiles USING gin (lower(profile_id) gin_trgm_ops)`)
    await q.query(`CREATE INDEX profiles_embedding_hnsw ON profiles USING hnsw (embedding vector_cosine_ops)`)
    await q.query(`
      CREATE TABLE submissions (
        tenant_id text NOT NULL,
        id uuid NOT NULL,
        profile_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        input_type text NOT NULL CHECK (input_type IN ('text', 'conversation', 'structured')),
        data text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'done', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        error text,
        not_before timestamptz,
        idempotency_key text,
        request_hash text,
        usage jsonb,
        prompt_version text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, profile_id) REFERENCES profiles(tenant_id, profile_id) ON DELETE CASCADE
      )`)
    await q.query(
      `CREATE UNIQUE INDEX submissions_idempotency ON submissions (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
    )
    await q.query(`CREATE INDEX submissions_profile ON submissions (tenant_id, profile_id, seq)`)
    await q.query(`CREATE INDEX submissions_open ON submissions (created_at) WHERE status IN ('pending', 'processing')`)
    await q.query(`
      CREATE TABLE profile_history (
        tenant_id text NOT NULL,
        profile_id text NOT NULL,
        seq integer NOT NULL,
        extracted_on timestamptz NOT NULL,
        changes jsonb NOT NULL,
        submission_ids jsonb NOT NULL,
        input_type text NOT NULL,
        PRIMARY KEY (tenant_id, profile_id, seq),
        FOREIGN KEY (tenant_id, profile_id) REFERENCES profiles(tenant_id, profile_id) ON DELETE CASCADE
      )`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS profile_history`)
    await q.query(`DROP TABLE IF EXISTS submissions`)
    await q.query(`DROP TABLE IF EXISTS profiles`)
    await q.query(`DROP TABLE IF EXISTS api_keys`)
    await q.query(`DROP TABLE IF EXISTS apps`)
    await q.query(`DROP TABLE IF EXISTS tenants`)
  }
}

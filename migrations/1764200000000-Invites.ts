import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Invite codes for dashboard sign-up (PROFILER_SIGNUP=invite): stored by the SHA-256 of the code, like API keys; an
 * invite may name the tenant the new account joins, and has a number of uses and an expiry.
 */
export class Invites1764200000000 implements MigrationInterface {
  name = 'Invites1764200000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invites (
        code_hash bytea PRIMARY KEY,
        tenant_id text REFERENCES tenants(id) ON DELETE CASCADE,
        uses_left integer NOT NULL CHECK (uses_left >= 0),
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS invites`)
  }
}

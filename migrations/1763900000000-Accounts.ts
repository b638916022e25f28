import type { MigrationInterface, QueryRunner } from 'typeorm'

/**
 * Dashboard accounts: each owns one tenant. Sessions are stored by the SHA-256 of their token (the cookie holds the
 * token), with the CSRF token the browser must echo. Failed sign-ins are kept for the login rate limit.
 */
export class Accounts1763900000000 implements MigrationInterface {
  name = 'Accounts1763900000000'

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        password_changed_at timestamptz NOT NULL DEFAULT now()
      )`)
    await q.query(`CREATE UNIQUE INDEX accounts_email ON accounts (lower(email))`)
    await q.query(`
      CREATE TABLE sessions (
        token_hash bytea PRIMARY KEY,
        account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`)
    await q.query(`CREATE INDEX sessions_account ON sessions (account_id)`)
    await q.query(`
      CREATE TABLE login_failures (
        email text NOT NULL,
        ip text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`)
    await q.query(`CREATE INDEX login_failures_email ON login_failures (email, at)`)
    await q.query(`CREATE INDEX login_failures_ip ON login_failures (ip, at)`)
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS login_failures`)
    await q.query(`DROP TABLE IF EXISTS sessions`)
    await q.query(`DROP TABLE IF EXISTS accounts`)
  }
}

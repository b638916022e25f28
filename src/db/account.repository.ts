import type { EntityManager } from 'typeorm'

/** An account with its tenant's name. */
export interface AccountRow {
  id: string
  email: string
  tenant_id: string
  tenant_name: string
  created_at: Date | string
}

/** A live session: its account, and the CSRF token and end stored with it. */
export interface SessionRow extends AccountRow {
  csrf_token: string
  expires_at: Date | string
}

/** What signing in checks a password against. */
export interface CredentialsRow {
  id: string
  password_hash: string
}

/** Failed sign-ins within the window, per e-mail address and per client address, and the seconds until the oldest of each leaves it. */
export interface LoginFailureCounts {
  by_email: number
  by_ip: number
  email_wait: number | null
  ip_wait: number | null
}

/** The columns of an AccountRow, from `accounts a JOIN tenants t`. */
const ACCOUNT_COLUMNS = 'a.id, a.email, a.tenant_id, t.name AS tenant_name, a.created_at'

/**
 * Dashboard accounts, their sessions, invites and failed sign-ins: the SQL of the aggregate. Each method runs on the
 * manager it is given. Tokens and invite codes arrive as their SHA-256 digests: only those are stored.
 */
export class AccountRepository {
  /** False when an account has that e-mail address already. */
  async insertAccount(m: EntityManager, a: { id: string; email: string; passwordHash: string; tenantId: string }): Promise<boolean> {
    const inserted = await m.query(
      `INSERT INTO accounts (id, email, password_hash, tenant_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
      [a.id, a.email, a.passwordHash, a.tenantId],
    )
    return inserted.length > 0
  }

  async account(m: EntityManager, id: string): Promise<AccountRow | null> {
    const rows = await m.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN tenants t ON t.id = a.tenant_id WHERE a.id = $1`, [id])
    return rows[0] ?? null
  }

  async accounts(m: EntityManager): Promise<AccountRow[]> {
    return m.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN tenants t ON t.id = a.tenant_id ORDER BY a.created_at, a.email`)
  }

  /** The account of an e-mail address given in lower case, or null. */
  async credentials(m: EntityManager, lowerEmail: string): Promise<CredentialsRow | null> {
    const rows = await m.query(`SELECT id, password_hash FROM accounts WHERE lower(email) = $1`, [lowerEmail])
    return rows[0] ?? null
  }

  async passwordHash(m: EntityManager, accountId: string): Promise<string | null> {
    const rows = await m.query(`SELECT password_hash FROM accounts WHERE id = $1`, [accountId])
    return rows[0]?.password_hash ?? null
  }

  /** The id of the account of that e-mail address (any case), locked until the transaction ends; null when none. */
  async lockAccountByEmail(m: EntityManager, email: string): Promise<string | null> {
    const rows = await m.query(`SELECT id FROM accounts WHERE lower(email) = lower($1) FOR UPDATE`, [email])
    return rows[0]?.id ?? null
  }

  async setPassword(m: EntityManager, accountId: string, passwordHash: string): Promise<void> {
    await m.query(`UPDATE accounts SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [accountId, passwordHash])
  }

  // ---- sessions ----

  /** A new session lasting `hours`; when it ends. */
  async insertSession(m: EntityManager, s: { tokenHash: Buffer; accountId: string; csrfToken: string; hours: number }): Promise<Date | string> {
    const [row] = await m.query(
      `INSERT INTO sessions (token_hash, account_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4)) RETURNING expires_at`,
      [s.tokenHash, s.accountId, s.csrfToken, s.hours],
    )
    return row.expires_at
  }

  /** The live session of that token digest, or null (unknown, expired, or its account deleted). */
  async liveSession(m: EntityManager, tokenHash: Buffer): Promise<SessionRow | null> {
    const rows = await m.query(
      `SELECT ${ACCOUNT_COLUMNS}, s.csrf_token, s.expires_at
         FROM sessions s JOIN accounts a ON a.id = s.account_id JOIN tenants t ON t.id = a.tenant_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
    )
    return rows[0] ?? null
  }

  async deleteSession(m: EntityManager, tokenHash: Buffer): Promise<void> {
    await m.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash])
  }

  async deleteExpiredSessions(m: EntityManager, accountId: string): Promise<void> {
    await m.query(`DELETE FROM sessions WHERE account_id = $1 AND expires_at < now()`, [accountId])
  }

  /** Ends every session of the account but the one of `keepTokenHash`. */
  async deleteOtherSessions(m: EntityManager, accountId: string, keepTokenHash: Buffer): Promise<void> {
    await m.query(`DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2`, [accountId, keepTokenHash])
  }

  async deleteSessions(m: EntityManager, accountId: string): Promise<void> {
    await m.query(`DELETE FROM sessions WHERE account_id = $1`, [accountId])
  }

  // ---- invites ----

  /** A new invite for `uses` sign-ups into the tenant (or new tenants when null), for `seconds`; when it expires. */
  async insertInvite(m: EntityManager, i: { codeHash: Buffer; tenantId: string | null; uses: number; seconds: number }): Promise<Date | string> {
    const [row] = await m.query(
      `INSERT INTO invites (code_hash, tenant_id, uses_left, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [i.codeHash, i.tenantId, i.uses, i.seconds],
    )
    return row.expires_at
  }

  /**
   * Takes one use of the live invite of that code digest: the tenant it names (`tenant_id` null for a new tenant), or
   * null when there is no such invite (unknown, used up or expired).
   */
  async useInvite(m: EntityManager, codeHash: Buffer): Promise<{ tenant_id: string | null } | null> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows]: [{ tenant_id: string | null }[], number] = await m.query(
      `UPDATE invites SET uses_left = uses_left - 1
        WHERE code_hash = $1 AND uses_left > 0 AND expires_at > now() RETURNING tenant_id`,
      [codeHash],
    )
    return rows[0] ?? null
  }

  // ---- failed sign-ins ----

  async loginFailures(m: EntityManager, email: string, ip: string, windowMinutes: number): Promise<LoginFailureCounts> {
    const [counts] = await m.query(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email, count(*) FILTER (WHERE ip = $2)::int AS by_ip,
              extract(epoch FROM (min(at) FILTER (WHERE email = $1) + make_interval(mins => $3) - now()))::float AS email_wait,
              extract(epoch FROM (min(at) FILTER (WHERE ip = $2) + make_interval(mins => $3) - now()))::float AS ip_wait
         FROM login_failures WHERE at > now() - make_interval(mins => $3) AND (email = $1 OR ip = $2)`,
      [email, ip, windowMinutes],
    )
    return counts
  }

  /** Records a failed sign-in, first forgetting those older than the window. */
  async recordLoginFailure(m: EntityManager, email: string, ip: string, windowMinutes: number): Promise<void> {
    await m.query(`DELETE FROM login_failures WHERE at < now() - make_interval(mins => $1)`, [windowMinutes])
    await m.query(`INSERT INTO login_failures (email, ip) VALUES ($1, $2)`, [email, ip])
  }

  async clearLoginFailures(m: EntityManager, email: string): Promise<void> {
    await m.query(`DELETE FROM login_failures WHERE email = $1`, [email])
  }
}

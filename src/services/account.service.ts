import crypto from 'node:crypto'
import type { DataSource, EntityManager } from 'typeorm'
import type { DashboardConfig } from '../config.js'
import { DomainError, invalid } from '../domain/errors.js'
import { checkStorable } from '../domain/validation.js'
import { newId, randomToken } from '../domain/keys.js'
import { RateLimitedError } from './budget.js'
import { PostgresCounterStore, RateLimiter } from './rate-limiter.js'
import { dummyHash, hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js'

export interface Account {
  id: string
  email: string
  tenantId: string
  tenantName: string
  createdAt: string
}

/** A signed-in browser: the account, the CSRF token it must echo, and when the session ends. */
export interface Session {
  account: Account
  csrfToken: string
  expiresAt: string
}

export interface Invite {
  /** The code, shown once; only its SHA-256 is stored. */
  code: string
  tenantId: string | null
  uses: number
  expiresAt: string
}

export interface NewSession extends Session {
  /** The cookie value; only its SHA-256 is stored. */
  token: string
}

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,63}$/

export function checkEmail(email: string): string {
  const e = checkStorable(email.trim(), 'email')
  if (e.length > 254 || !EMAIL_RE.test(e)) throw invalid('email must be an e-mail address such as ada@example.com')
  return e
}

export function checkPassword(password: string) {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw invalid(`password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw invalid(`password must be at most ${MAX_PASSWORD_LENGTH} characters`)
}

/** The columns toAccount reads, from `accounts a JOIN tenants t`. */
const ACCOUNT_COLUMNS = 'a.id, a.email, a.tenant_id, t.name AS tenant_name, a.created_at'

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest()

/** A tenant name for a new account: the e-mail's local part, cleaned, plus a random suffix (names are unique). */
function tenantNameFor(email: string): string {
  const local = email.split('@')[0]!.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 40)
  return `${local || 'account'}-${crypto.randomBytes(3).toString('hex')}`
}

/** Dashboard accounts, sessions and the sign-in rate limit. Never reached with an app's API key. */
export class AccountService {
  /** Sign-ups per client address, shared by every process on a server database (the request budget's mechanism). */
  private readonly signUps: RateLimiter

  constructor(
    private readonly ds: DataSource,
    private readonly config: DashboardConfig,
    opts: { shared?: boolean } = {},
  ) {
    this.signUps = new RateLimiter({
      limit: config.signUpMaxPerAddress,
      windowMs: config.signUpWindowMinutes * 60_000,
      store: opts.shared ? new PostgresCounterStore(ds, 'signups') : undefined,
    })
  }

  async close() {
    await this.signUps.close()
  }

  /**
   * Creates an account with a new tenant, or for an existing tenant (the CLI's --tenant, or the tenant an invite
   * names). An invite code is used up in the same transaction.
   */
  async createAccount(emailIn: string, password: string, opts: { tenant?: string; inviteCode?: string } = {}): Promise<Account> {
    const email = checkEmail(emailIn)
    checkPassword(password)
    const hash = await hashPassword(password)
    return this.ds.transaction(async (m) => {
      let tenantId: string
      const invited = opts.inviteCode !== undefined ? await this.useInvite(m, opts.inviteCode) : null
      if (invited) tenantId = invited
      else if (opts.tenant) {
        const rows = await m.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [opts.tenant])
        if (!rows.length) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${opts.tenant}'`)
        tenantId = rows[0].id
      } else {
        tenantId = newId('ten')
        await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [tenantId, tenantNameFor(email)])
      }
      const id = newId('acc')
      const inserted = await m.query(
        `INSERT INTO accounts (id, email, password_hash, tenant_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
        [id, email, hash, tenantId],
      )
      if (!inserted.length) throw new DomainError('CONFLICT', 'An account with this e-mail address already exists')
      return (await this.findAccount(m, id))!
    })
  }

  /**
   * Self-service sign-up, as the policy allows (open; invite: with a valid code; closed: never), and at most
   * signUpMaxPerAddress per client address in the window, whatever the outcome of each attempt.
   */
  async signUp(email: string, password: string, opts: { ip: string; inviteCode?: string | null }): Promise<NewSession> {
    const policy = this.config.signUp
    if (policy === 'closed') throw new DomainError('SIGNUP_CLOSED', 'Sign-up is closed on this server; ask its operator for an account')
    const code = opts.inviteCode?.trim() || undefined
    if (policy === 'invite' && !code) throw new DomainError('SIGNUP_CLOSED', 'Sign-up needs an invite code on this server; ask its operator for one')
    const d = this.signUps.take(`ip:${opts.ip}`)
    if (!d.allowed) {
      throw new RateLimitedError(`Too many sign-ups from this address; try again in ${Math.ceil(d.resetSeconds / 60)} min`, d)
    }
    const account = await this.createAccount(email, password, { inviteCode: code })
    return this.openSession(account)
  }

  /** A new invite code, shown only here: for `uses` sign-ups within `expiresHours`, into `tenant` or new tenants. */
  async createInvite(opts: { tenant?: string; uses?: number; expiresHours?: number } = {}): Promise<Invite> {
    const uses = opts.uses ?? 1
    if (!Number.isInteger(uses) || uses < 1 || uses > 100_000) throw invalid('uses must be a whole number from 1 to 100000')
    const hours = opts.expiresHours ?? 24 * 7
    if (!(hours > 0 && hours <= 24 * 366)) throw invalid('expires-hours must be more than 0 and at most a year (8784)')
    let tenantId: string | null = null
    if (opts.tenant) {
      const rows = await this.ds.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [opts.tenant])
      if (!rows.length) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${opts.tenant}'`)
      tenantId = rows[0].id
    }
    const code = `inv_${randomToken(32)}`
    const [row] = await this.ds.query(
      `INSERT INTO invites (code_hash, tenant_id, uses_left, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [tokenHash(code), tenantId, uses, hours * 3600],
    )
    return { code, tenantId, uses, expiresAt: iso(row.expires_at) }
  }

  /** Uses one sign-up of an invite; returns the tenant it names (or null for a new tenant). Refuses a bad code. */
  private async useInvite(m: EntityManager, code: string): Promise<string | null> {
    // TypeORM answers an UPDATE with [rows, affected].
    const [rows]: [{ tenant_id: string | null }[], number] = await m.query(
      `UPDATE invites SET uses_left = uses_left - 1
        WHERE code_hash = $1 AND uses_left > 0 AND expires_at > now() RETURNING tenant_id`,
      [tokenHash(String(code))],
    )
    if (!rows.length) throw new DomainError('INVALID_INVITE', 'This invite code is not valid: unknown, used up or expired')
    return rows[0]!.tenant_id
  }

  /**
   * Checks the password and opens a session. Failed attempts are counted per e-mail address and per client address;
   * past the limit every attempt is refused until the window has passed, whatever the password.
   */
  async signIn(emailIn: string, password: string, ip: string): Promise<NewSession> {
    const email = String(emailIn ?? '').trim().toLowerCase()
    const windowMinutes = this.config.loginWindowMinutes
    const [counts] = await this.ds.query(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email, count(*) FILTER (WHERE ip = $2)::int AS by_ip,
              extract(epoch FROM (min(at) FILTER (WHERE email = $1) + make_interval(mins => $3) - now()))::float AS email_wait,
              extract(epoch FROM (min(at) FILTER (WHERE ip = $2) + make_interval(mins => $3) - now()))::float AS ip_wait
         FROM login_failures WHERE at > now() - make_interval(mins => $3) AND (email = $1 OR ip = $2)`,
      [email, ip, windowMinutes],
    )
    const max = this.config.loginMaxFailures
    if (counts.by_email >= max || counts.by_ip >= max * 4) {
      const wait = Math.max(1, Math.ceil(counts.by_email >= max ? counts.email_wait : counts.ip_wait))
      throw new DomainError('RATE_LIMITED', `Too many failed sign-in attempts; try again in ${Math.ceil(wait / 60)} min`)
    }
    const rows = await this.ds.query(`SELECT id, password_hash FROM accounts WHERE lower(email) = $1`, [email])
    const ok = await verifyPassword(String(password ?? ''), rows[0]?.password_hash ?? (await dummyHash()))
    if (!ok || !rows.length) {
      await this.ds.query(`DELETE FROM login_failures WHERE at < now() - make_interval(mins => $1)`, [windowMinutes])
      await this.ds.query(`INSERT INTO login_failures (email, ip) VALUES ($1, $2)`, [email, ip])
      throw new DomainError('INVALID_CREDENTIALS', 'Wrong e-mail address or password')
    }
    await this.ds.query(`DELETE FROM login_failures WHERE email = $1`, [email])
    return this.openSession((await this.findAccount(this.ds.manager, rows[0].id))!)
  }

  /** The live session of a cookie token, or null (unknown, expired, or its account deleted). */
  async session(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 200) return null
    const rows = await this.ds.query(
      `SELECT ${ACCOUNT_COLUMNS}, s.csrf_token, s.expires_at
         FROM sessions s JOIN accounts a ON a.id = s.account_id JOIN tenants t ON t.id = a.tenant_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash(token)],
    )
    return rows.length ? { account: toAccount(rows[0]), csrfToken: rows[0].csrf_token, expiresAt: iso(rows[0].expires_at) } : null
  }

  async signOut(token: string): Promise<void> {
    await this.ds.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash(token)])
  }

  /** Replaces the password; every other session of the account ends. */
  async changePassword(accountId: string, currentToken: string | undefined, current: string, next: string): Promise<void> {
    checkPassword(next)
    const rows = await this.ds.query(`SELECT password_hash FROM accounts WHERE id = $1`, [accountId])
    if (!rows.length || !(await verifyPassword(String(current ?? ''), rows[0].password_hash))) {
      throw new DomainError('INVALID_CREDENTIALS', 'The current password is wrong')
    }
    const hash = await hashPassword(next)
    await this.ds.transaction(async (m) => {
      await m.query(`UPDATE accounts SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [accountId, hash])
      await m.query(`DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2`, [accountId, currentToken ? tokenHash(currentToken) : Buffer.alloc(0)])
    })
  }

  /** Sets a password from the CLI (forgotten passwords): every session of the account ends. */
  async resetPassword(email: string, password: string): Promise<Account> {
    checkPassword(password)
    const hash = await hashPassword(password)
    return this.ds.transaction(async (m) => {
      const rows = await m.query(`SELECT id FROM accounts WHERE lower(email) = lower($1) FOR UPDATE`, [email.trim()])
      if (!rows.length) throw new DomainError('NOT_FOUND', `No account '${email}'`)
      await m.query(`UPDATE accounts SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [rows[0].id, hash])
      await m.query(`DELETE FROM sessions WHERE account_id = $1`, [rows[0].id])
      return (await this.findAccount(m, rows[0].id))!
    })
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.ds.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN tenants t ON t.id = a.tenant_id ORDER BY a.created_at, a.email`)
    return rows.map(toAccount)
  }

  private async openSession(account: Account): Promise<NewSession> {
    const token = randomToken(43)
    const csrfToken = randomToken(32)
    const [row] = await this.ds.query(
      `INSERT INTO sessions (token_hash, account_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4)) RETURNING expires_at`,
      [tokenHash(token), account.id, csrfToken, this.config.sessionHours],
    )
    await this.ds.query(`DELETE FROM sessions WHERE account_id = $1 AND expires_at < now()`, [account.id])
    return { token, account, csrfToken, expiresAt: iso(row.expires_at) }
  }

  private async findAccount(m: { query: DataSource['query'] }, id: string): Promise<Account | null> {
    const rows = await m.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a JOIN tenants t ON t.id = a.tenant_id WHERE a.id = $1`, [id])
    return rows.length ? toAccount(rows[0]) : null
  }
}

const iso = (d: Date | string) => new Date(d).toISOString()
const toAccount = (r: any): Account => ({ id: r.id, email: r.email, tenantId: r.tenant_id, tenantName: r.tenant_name, createdAt: iso(r.created_at) })

import crypto from 'node:crypto'
import type { DataSource, EntityManager } from 'typeorm'
import type { DashboardConfig } from '../config.js'
import { AccountRepository, type AccountRow } from '../db/account.repository.js'
import { TenantRepository } from '../db/tenant.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { addressKey } from '../domain/addresses.js'
import { DomainError, invalid } from '../domain/errors.js'
import { checkStorable } from '../domain/validation.js'
import { newId, randomToken } from '../domain/keys.js'
import { RateLimitedError } from './budget.js'
import { PostgresCounterStore, RateLimiter } from './rate-limiter.js'
import { dummyHash, hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js'
import { isoTime as iso } from '../domain/time.js'

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
  const address = checkStorable(email.trim(), 'email')
  if (address.length > 254 || !EMAIL_RE.test(address))
    throw invalid('email must be an e-mail address such as ada@example.com')
  return address
}

export function checkPassword(password: string) {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw invalid(`password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw invalid(`password must be at most ${MAX_PASSWORD_LENGTH} characters`)
}

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest()

/** A tenant name for a new account: the e-mail's local part, cleaned, plus a random suffix (names are unique). */
function tenantNameFor(email: string): string {
  const local = email
    .split('@')[0]!
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 40)
  return `${local || 'account'}-${crypto.randomBytes(3).toString('hex')}`
}

/** Dashboard accounts, sessions and the sign-in rate limit. Never reached with an app's API key. */
export class AccountService {
  /** Sign-ups per client address, shared by every process on a server database (the request budget's mechanism). */
  private readonly signUps: RateLimiter
  private readonly repo = new AccountRepository()
  private readonly tenants = new TenantRepository()
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly config: DashboardConfig,
    opts: { shared?: boolean } = {},
  ) {
    this.uow = new UnitOfWork(ds)
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
  async createAccount(
    emailIn: string,
    password: string,
    opts: { tenant?: string; inviteCode?: string } = {},
  ): Promise<Account> {
    const email = checkEmail(emailIn)
    checkPassword(password)
    const hash = await hashPassword(password)
    return this.uow.run(undefined, async ({ manager }) => {
      let tenantId: string
      const invited = opts.inviteCode !== undefined ? await this.useInvite(manager, opts.inviteCode) : null
      if (invited) tenantId = invited
      else if (opts.tenant) tenantId = await this.tenantId(manager, opts.tenant)
      else {
        tenantId = newId('ten')
        await this.tenants.addTenant(manager, tenantId, tenantNameFor(email))
      }
      const id = newId('acc')
      if (!(await this.repo.insertAccount(manager, { id, email, passwordHash: hash, tenantId }))) {
        throw new DomainError('CONFLICT', 'An account with this e-mail address already exists')
      }
      return toAccount((await this.repo.account(manager, id))!)
    })
  }

  /**
   * Self-service sign-up, as the policy allows (open; invite: with a valid code; closed: never), and at most
   * signUpMaxPerAddress per client address (an IPv6 /64) in the window, whatever the outcome of each attempt.
   */
  async signUp(email: string, password: string, opts: { ip: string; inviteCode?: string | null }): Promise<NewSession> {
    const policy = this.config.signUp
    if (policy === 'closed')
      throw new DomainError('SIGNUP_CLOSED', 'Sign-up is closed on this server; ask its operator for an account')
    const code = opts.inviteCode?.trim() || undefined
    if (policy === 'invite' && !code)
      throw new DomainError('SIGNUP_CLOSED', 'Sign-up needs an invite code on this server; ask its operator for one')
    const decision = this.signUps.take(`ip:${addressKey(opts.ip)}`)
    if (!decision.allowed) {
      throw new RateLimitedError(
        `Too many sign-ups from this address; try again in ${Math.ceil(decision.resetSeconds / 60)} min`,
        decision,
      )
    }
    const account = await this.createAccount(email, password, { inviteCode: code })
    return this.openSession(account)
  }

  /** A new invite code, shown only here: for `uses` sign-ups within `expiresHours`, into `tenant` or new tenants. */
  async createInvite(opts: { tenant?: string; uses?: number; expiresHours?: number } = {}): Promise<Invite> {
    const uses = opts.uses ?? 1
    if (!Number.isInteger(uses) || uses < 1 || uses > 100_000)
      throw invalid('uses must be a whole number from 1 to 100000')
    const hours = opts.expiresHours ?? 24 * 7
    if (!(hours > 0 && hours <= 24 * 366)) throw invalid('expires-hours must be more than 0 and at most a year (8784)')
    const tenantId = opts.tenant ? await this.tenantId(this.ds.manager, opts.tenant) : null
    const code = `inv_${randomToken(32)}`
    const expiresAt = await this.repo.insertInvite(this.ds.manager, {
      codeHash: tokenHash(code),
      tenantId,
      uses,
      seconds: hours * 3600,
    })
    return { code, tenantId, uses, expiresAt: iso(expiresAt) }
  }

  /** The id of the tenant of that name or id; TENANT_NOT_FOUND when none. */
  private async tenantId(manager: EntityManager, tenant: string): Promise<string> {
    const id = await this.tenants.tenantId(manager, tenant)
    if (id === null) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${tenant}'`)
    return id
  }

  /** Uses one sign-up of an invite; returns the tenant it names (or null for a new tenant). Refuses a bad code. */
  private async useInvite(manager: EntityManager, code: string): Promise<string | null> {
    const invite = await this.repo.useInvite(manager, tokenHash(String(code)))
    if (!invite) throw new DomainError('INVALID_INVITE', 'This invite code is not valid: unknown, used up or expired')
    return invite.tenant_id
  }

  /**
   * Checks the password and opens a session. Failed attempts are counted per e-mail address and per client address
   * (an IPv6 /64). An e-mail address past its limit is refused until the window has passed, whatever the password.
   * A client address past its limit (x4) is refused for every e-mail address except an account with no failures of
   * its own in the window: another client failing from the same address never locks a user out, while a flood from
   * it costs no password hashing for made-up addresses, and at most one failed check per real account (after which
   * that account has a failure). From an address past its limit every failure answers RATE_LIMITED, a wrong password
   * for a real account too, so the answer does not tell which addresses have accounts.
   */
  async signIn(emailIn: string, password: string, ipIn: string): Promise<NewSession> {
    const email = String(emailIn ?? '')
      .trim()
      .toLowerCase()
    const ip = addressKey(ipIn)
    const windowMinutes = this.config.loginWindowMinutes
    const manager = this.ds.manager
    const counts = await this.repo.loginFailures(manager, email, ip, windowMinutes)
    const max = this.config.loginMaxFailures
    const refused = (waitSeconds: number | null) => {
      const wait = Math.max(1, Math.ceil(waitSeconds ?? 60))
      const message = `Too many failed sign-in attempts; try again in ${Math.ceil(wait / 60)} min`
      return new DomainError('RATE_LIMITED', message)
    }
    if (counts.by_email >= max) throw refused(counts.email_wait)
    const addressBlocked = counts.by_ip >= max * 4
    if (addressBlocked && counts.by_email > 0) throw refused(counts.ip_wait)
    const stored = await this.repo.credentials(manager, email)
    if (addressBlocked && !stored) throw refused(counts.ip_wait)
    const ok = await verifyPassword(String(password ?? ''), stored?.password_hash ?? (await dummyHash()))
    if (!ok || !stored) {
      await this.repo.recordLoginFailure(manager, email, ip, windowMinutes)
      if (addressBlocked) throw refused(counts.ip_wait)
      throw new DomainError('INVALID_CREDENTIALS', 'Wrong e-mail address or password')
    }
    await this.repo.clearLoginFailures(manager, email)
    return this.openSession(toAccount((await this.repo.account(manager, stored.id))!))
  }

  /** The live session of a cookie token, or null (unknown, expired, or its account deleted). */
  async session(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 200) return null
    const session = await this.repo.liveSession(this.ds.manager, tokenHash(token))
    return session
      ? { account: toAccount(session), csrfToken: session.csrf_token, expiresAt: iso(session.expires_at) }
      : null
  }

  async signOut(token: string): Promise<void> {
    await this.repo.deleteSession(this.ds.manager, tokenHash(token))
  }

  /** Replaces the password; every other session of the account ends. */
  async changePassword(
    accountId: string,
    currentToken: string | undefined,
    current: string,
    next: string,
  ): Promise<void> {
    checkPassword(next)
    const stored = await this.repo.passwordHash(this.ds.manager, accountId)
    if (stored === null || !(await verifyPassword(String(current ?? ''), stored))) {
      throw new DomainError('INVALID_CREDENTIALS', 'The current password is wrong')
    }
    const hash = await hashPassword(next)
    await this.uow.run(undefined, async ({ manager }) => {
      await this.repo.setPassword(manager, accountId, hash)
      await this.repo.deleteOtherSessions(manager, accountId, currentToken ? tokenHash(currentToken) : Buffer.alloc(0))
    })
  }

  /** Sets a password from the CLI (forgotten passwords): every session of the account ends. */
  async resetPassword(email: string, password: string): Promise<Account> {
    checkPassword(password)
    const hash = await hashPassword(password)
    return this.uow.run(undefined, async ({ manager }) => {
      const id = await this.repo.lockAccountByEmail(manager, email.trim())
      if (id === null) throw new DomainError('NOT_FOUND', `No account '${email}'`)
      await this.repo.setPassword(manager, id, hash)
      await this.repo.deleteSessions(manager, id)
      return toAccount((await this.repo.account(manager, id))!)
    })
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.repo.accounts(this.ds.manager)).map(toAccount)
  }

  private async openSession(account: Account): Promise<NewSession> {
    const token = randomToken(43)
    const csrfToken = randomToken(32)
    const manager = this.ds.manager
    const expiresAt = await this.repo.insertSession(manager, {
      tokenHash: tokenHash(token),
      accountId: account.id,
      csrfToken,
      hours: this.config.sessionHours,
    })
    await this.repo.deleteExpiredSessions(manager, account.id)
    return { token, account, csrfToken, expiresAt: iso(expiresAt) }
  }
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  tenantId: row.tenant_id,
  tenantName: row.tenant_name,
  createdAt: iso(row.created_at),
})

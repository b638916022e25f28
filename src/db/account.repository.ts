import type { EntityManager, SelectQueryBuilder } from 'typeorm'
import type { AccountEntity, SessionEntity } from './entities/account.entity.js'
import type { TenantEntity } from './entities/tenant.entity.js'
import { table } from './entities/tables.js'

/** An account with its tenant's name. */
export type AccountRow = Pick<AccountEntity, 'id' | 'email' | 'tenant_id' | 'created_at'> & {
  tenant_name: TenantEntity['name']
}

/** A live session: its account, and the CSRF token and end stored with it. */
export type SessionRow = AccountRow & Pick<SessionEntity, 'csrf_token' | 'expires_at'>

/** What signing in checks a password against. */
export type CredentialsRow = Pick<AccountEntity, 'id' | 'password_hash'>

/**
 * Failed sign-ins within the window, per e-mail address and per client address, and the seconds until the oldest of
 * each leaves it.
 */
export interface LoginFailureCounts {
  by_email: number
  by_ip: number
  email_wait: number | null
  ip_wait: number | null
}

/** The columns of an AccountRow, from accounts `a` joined to tenants `t`. */
function accountColumns<T extends object>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
  return query
    .select('a.id', 'id')
    .addSelect('a.email', 'email')
    .addSelect('a.tenant_id', 'tenant_id')
    .addSelect('t.name', 'tenant_name')
    .addSelect('a.created_at', 'created_at')
}

/**
 * Dashboard accounts, their sessions, invites and failed sign-ins, through TypeORM's repositories and query builder.
 * Each method runs on the manager it is given. Tokens and invite codes arrive as their SHA-256 digests: only those are
 * stored. The login rate limit's counts stay SQL (aggregates with FILTER: the builder would only wrap the same text).
 */
export class AccountRepository {
  /** False when an account has that e-mail address already. */
  async insertAccount(
    manager: EntityManager,
    account: { id: string; email: string; passwordHash: string; tenantId: string },
  ): Promise<boolean> {
    const result = await table(manager, 'accounts')
      .createQueryBuilder()
      .insert()
      .values({
        id: account.id,
        email: account.email,
        password_hash: account.passwordHash,
        tenant_id: account.tenantId,
      })
      .orIgnore()
      .returning(['id'])
      .execute()
    return (result.raw as unknown[]).length > 0
  }

  async account(manager: EntityManager, id: string): Promise<AccountRow | null> {
    const row = await accountColumns(table(manager, 'accounts').createQueryBuilder('a'))
      .innerJoin('tenants', 't', 't.id = a.tenant_id')
      .where('a.id = :id', { id })
      .getRawOne<AccountRow>()
    return row ?? null
  }

  async accounts(manager: EntityManager): Promise<AccountRow[]> {
    return accountColumns(table(manager, 'accounts').createQueryBuilder('a'))
      .innerJoin('tenants', 't', 't.id = a.tenant_id')
      .orderBy('a.created_at')
      .addOrderBy('a.email')
      .getRawMany<AccountRow>()
  }

  /** The account of an e-mail address given in lower case, or null. */
  async credentials(manager: EntityManager, lowerEmail: string): Promise<CredentialsRow | null> {
    const row = await table(manager, 'accounts')
      .createQueryBuilder('a')
      .select('a.id', 'id')
      .addSelect('a.password_hash', 'password_hash')
      .where('lower(a.email) = :lowerEmail', { lowerEmail })
      .getRawOne<CredentialsRow>()
    return row ?? null
  }

  async passwordHash(manager: EntityManager, accountId: string): Promise<string | null> {
    return (
      (await table(manager, 'accounts').findOne({ select: { password_hash: true }, where: { id: accountId } }))
        ?.password_hash ?? null
    )
  }

  /** The id of the account of that e-mail address (any case), locked until the transaction ends; null when none. */
  async lockAccountByEmail(manager: EntityManager, email: string): Promise<string | null> {
    const row = await table(manager, 'accounts')
      .createQueryBuilder('a')
      .select('a.id', 'id')
      .where('lower(a.email) = lower(:email)', { email })
      .setLock('pessimistic_write')
      .getRawOne<Pick<AccountEntity, 'id'>>()
    return row?.id ?? null
  }

  async setPassword(manager: EntityManager, accountId: string, passwordHash: string): Promise<void> {
    await table(manager, 'accounts').update(
      { id: accountId },
      { password_hash: passwordHash, password_changed_at: () => 'now()' },
    )
  }

  // ---- sessions ----

  /** A new session lasting `hours`; when it ends. */
  async insertSession(
    manager: EntityManager,
    session: { tokenHash: Buffer; accountId: string; csrfToken: string; hours: number },
  ): Promise<Date> {
    const result = await table(manager, 'sessions')
      .createQueryBuilder()
      .insert()
      .values({
        token_hash: session.tokenHash,
        account_id: session.accountId,
        csrf_token: session.csrfToken,
        expires_at: () => 'now() + make_interval(hours => :hours)',
      })
      .setParameter('hours', session.hours)
      .returning(['expires_at'])
      .execute()
    return (result.raw as Pick<SessionEntity, 'expires_at'>[])[0]!.expires_at
  }

  /** The live session of that token digest, or null (unknown, expired, or its account deleted). */
  async liveSession(manager: EntityManager, tokenHash: Buffer): Promise<SessionRow | null> {
    const row = await accountColumns(table(manager, 'sessions').createQueryBuilder('s'))
      .addSelect('s.csrf_token', 'csrf_token')
      .addSelect('s.expires_at', 'expires_at')
      .innerJoin('accounts', 'a', 'a.id = s.account_id')
      .innerJoin('tenants', 't', 't.id = a.tenant_id')
      .where('s.token_hash = :tokenHash AND s.expires_at > now()', { tokenHash })
      .getRawOne<SessionRow>()
    return row ?? null
  }

  async deleteSession(manager: EntityManager, tokenHash: Buffer): Promise<void> {
    await table(manager, 'sessions').delete({ token_hash: tokenHash })
  }

  async deleteExpiredSessions(manager: EntityManager, accountId: string): Promise<void> {
    await table(manager, 'sessions')
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND expires_at < now()', { accountId })
      .execute()
  }

  /** Ends every session of the account but the one of `keepTokenHash`. */
  async deleteOtherSessions(manager: EntityManager, accountId: string, keepTokenHash: Buffer): Promise<void> {
    await table(manager, 'sessions')
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND token_hash <> :keepTokenHash', { accountId, keepTokenHash })
      .execute()
  }

  async deleteSessions(manager: EntityManager, accountId: string): Promise<void> {
    await table(manager, 'sessions').delete({ account_id: accountId })
  }

  // ---- invites ----

  /** A new invite for `uses` sign-ups into the tenant (or new tenants when null), for `seconds`; when it expires. */
  async insertInvite(
    manager: EntityManager,
    invite: { codeHash: Buffer; tenantId: string | null; uses: number; seconds: number },
  ): Promise<Date> {
    const result = await table(manager, 'invites')
      .createQueryBuilder()
      .insert()
      .values({
        code_hash: invite.codeHash,
        tenant_id: invite.tenantId,
        uses_left: invite.uses,
        expires_at: () => 'now() + make_interval(secs => :seconds)',
      })
      .setParameter('seconds', invite.seconds)
      .returning(['expires_at'])
      .execute()
    return (result.raw as { expires_at: Date }[])[0]!.expires_at
  }

  /**
   * Takes one use of the live invite of that code digest: the tenant it names (`tenant_id` null for a new tenant), or
   * null when there is no such invite (unknown, used up or expired).
   */
  async useInvite(manager: EntityManager, codeHash: Buffer): Promise<{ tenant_id: string | null } | null> {
    const result = await table(manager, 'invites')
      .createQueryBuilder()
      .update()
      .set({ uses_left: () => 'uses_left - 1' })
      .where('code_hash = :codeHash AND uses_left > 0 AND expires_at > now()', { codeHash })
      .returning(['tenant_id'])
      .execute()
    return (result.raw as { tenant_id: string | null }[])[0] ?? null
  }

  // ---- failed sign-ins ----

  async loginFailures(
    manager: EntityManager,
    email: string,
    ip: string,
    windowMinutes: number,
  ): Promise<LoginFailureCounts> {
    const [counts]: LoginFailureCounts[] = await manager.query(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email, count(*) FILTER (WHERE ip = $2)::int AS by_ip,
              extract(epoch FROM (min(at) FILTER (WHERE email = $1) + make_interval(mins => $3) - now()))::float
                AS email_wait,
              extract(epoch FROM (min(at) FILTER (WHERE ip = $2) + make_interval(mins => $3) - now()))::float
                AS ip_wait
         FROM login_failures WHERE at > now() - make_interval(mins => $3) AND (email = $1 OR ip = $2)`,
      [email, ip, windowMinutes],
    )
    return counts!
  }

  /** Records a failed sign-in, first forgetting those older than the window. */
  async recordLoginFailure(manager: EntityManager, email: string, ip: string, windowMinutes: number): Promise<void> {
    await table(manager, 'login_failures')
      .createQueryBuilder()
      .delete()
      .where('at < now() - make_interval(mins => :windowMinutes)', { windowMinutes })
      .execute()
    await table(manager, 'login_failures')
      .createQueryBuilder()
      .insert()
      .values({ email, ip })
      .updateEntity(false)
      .execute()
  }

  async clearLoginFailures(manager: EntityManager, email: string): Promise<void> {
    await table(manager, 'login_failures').delete({ email })
  }
}

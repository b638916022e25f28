import type { DataSource } from 'typeorm'
import { addressKey } from '../domain/addresses.js'
import { DomainError } from '../domain/errors.js'
import type { RequestContext } from './context.js'
import { PostgresCounterStore, RateLimiter, type RateDecision } from './rate-limiter.js'

/** A refusal for being over a budget: carries what the Retry-After and RateLimit-* headers say. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly decision: RateDecision,
  ) {
    super('RATE_LIMITED', message)
  }
}

/** What authenticate knows of a credential before checking it; nothing in it is a secret. */
export interface Credential {
  /** Its digest (credentialId()): the key cache's name for it, and how a recent success is recognised. */
  digest?: string
  /** A stable public name (an API key's public id): its failures are counted under it as well as by address. */
  id?: string
  /**
   * Whether the credential can be valid, answered without a lookup per request (TenantService.mayExist for an API
   * key's id): then it is checked even from an address over its limit, while its id is under its own. Without it, an
   * address over its limit is refused whatever it presents.
   */
  mayExist?: () => Promise<boolean>
}

export interface BudgetOptions {
  /** Operations per minute per API key (or dashboard session), all transports together. */
  perMinute: number
  /** Failed authentications per minute per client address, and per credential id. */
  authFailuresPerMinute: number
  /** Service calls of one tenant running at once in this process while other tenants have calls too; more wait. */
  tenantConcurrency: number
  /** ... and while it is alone (the connection pool's size). */
  tenantBurst?: number
  /** Calls of one tenant waiting for a slot; more are refused (429). */
  tenantQueue: number
  /** Shared across processes through this database (server mode); in memory otherwise. */
  shared?: DataSource
}

/**
 * One budget for every transport: REST requests, GraphQL operations over HTTP and over WebSocket are charged to the
 * same per-key limiter, keyed by the authenticated app (never by header text); failed authentications are limited per
 * client address and per key id before any key lookup; and each tenant has a bounded number of service calls in
 * flight, so one tenant cannot hold the whole connection pool.
 */
export class RequestBudget {
  readonly operations: RateLimiter
  readonly authFailures: RateLimiter
  readonly tenants: TenantGate

  constructor(readonly opts: BudgetOptions) {
    const store = (scope: string) => (opts.shared ? new PostgresCounterStore(opts.shared, scope) : undefined)
    this.operations = new RateLimiter({ limit: opts.perMinute, windowMs: 60_000, store: store('operations') })
    this.authFailures = new RateLimiter({
      limit: opts.authFailuresPerMinute,
      windowMs: 60_000,
      store: store('auth-failures'),
    })
    this.tenants = new TenantGate(opts.tenantConcurrency, opts.tenantQueue, opts.tenantBurst)
  }

  /** Charges `cost` operations to a caller; throws RATE_LIMITED when they do not fit (`why`: what the cost is for). */
  charge(key: string, cost = 1, why?: string): RateDecision {
    const decision = this.operations.take(key, cost)
    if (!decision.allowed) {
      const what = why ? `${why}; ` : cost > 1 ? `this request counts ${cost} operations; ` : ''
      throw new RateLimitedError(
        `Rate limit exceeded: ${decision.limit} operations per minute per API key; ` +
          `${what}retry in ${decision.resetSeconds} s`,
        decision,
      )
    }
    return decision
  }

  /**
   * Charges `cost` operations one at a time, each waiting until the budget has room instead of being refused: for work
   * paid as it goes that must not fail half-way (an import: a client importing again would pay again). Rejects with
   * the signal's reason once it aborts, also while waiting. Returns the last decision (for the RateLimit-* headers).
   */
  async chargeWaiting(key: string, cost: number, signal?: AbortSignal): Promise<RateDecision | undefined> {
    let decision: RateDecision | undefined
    for (let i = 0; i < cost; i++) {
      for (;;) {
        signal?.throwIfAborted()
        decision = this.operations.take(key, 1)
        if (decision.allowed) break
        await pause(Math.min(decision.resetSeconds, 5) * 1000, signal)
      }
    }
    return decision
  }

  /**
   * Authenticates, counting failures per client address and per credential id. An address over its limit is refused
   * (429) before any lookup, except for a credential that this refusal would wrongly lock out: one that authenticated
   * within the last minute, or one whose id is known to exist and is under its own failure limit. So another client
   * failing from the same address (a shared NAT, a proxy not trusted) never refuses a valid key with no failures of its
   * own, while a flood of invalid keys still costs no lookups once its address is over the limit: keys that cannot
   * exist (unknown public ids, malformed) are refused from memory, and a known id pays lookups only until its own
   * failures reach the limit.
   */
  async authenticate<T>(address: string, credential: Credential, fn: () => Promise<T>): Promise<T> {
    const byAddress = `ip:${addressKey(address)}`
    const byId = credential.id === undefined ? undefined : `id:${credential.id}`
    const digest = credential.digest ?? ''
    const blocked = this.authFailures.exhausted(byAddress)
    if (blocked && !this.recentlyGood(digest) && !(await this.checkedAnyway(byId, credential))) {
      throw new RateLimitedError(
        `Too many failed authentications from this address; retry in ${blocked.resetSeconds} s`,
        blocked,
      )
    }
    try {
      const ok = await fn()
      if (digest) {
        this.good.delete(digest) // re-inserted last: the map stays in order of last success
        this.good.set(digest, Date.now())
        this.trimGood()
      }
      return ok
    } catch (err) {
      if (err instanceof DomainError && err.status === 401) {
        this.authFailures.take(byAddress)
        if (byId) this.authFailures.take(byId)
        this.good.delete(digest)
      }
      throw err
    }
  }

  /** Whether a credential from an address over its limit is still worth a lookup (see authenticate). */
  private async checkedAnyway(byId: string | undefined, credential: Credential): Promise<boolean> {
    if (!credential.mayExist || (byId && this.authFailures.exhausted(byId))) return false
    return credential.mayExist()
  }

  /** Digests of credentials that authenticated within the last minute (bounded; oldest dropped first). */
  private readonly good = new Map<string, number>()
  private recentlyGood(id: string): boolean {
    const at = id ? this.good.get(id) : undefined
    if (at === undefined) return false
    if (Date.now() - at > 60_000) {
      this.good.delete(id)
      return false
    }
    return true
  }

  private trimGood() {
    for (const key of this.good.keys()) {
      if (this.good.size <= 10_000) break
      this.good.delete(key)
    }
  }

  async close() {
    await Promise.all([this.operations.close(), this.authFailures.close()])
  }
}

/** The budget key of an app's requests. */
export const appBudgetKey = (ctx: Pick<RequestContext, 'tenantId' | 'appId'>) => `app:${ctx.tenantId}:${ctx.appId}`

/**
 * At most `slots` calls per tenant at once while other tenants have calls in this process, and up to `burst` (the
 * pool) while it is alone: work-conserving, so a single busy tenant still gets the whole pool, and a second tenant
 * finds room as soon as it shows up. Beyond that a bounded line waits (first come, first served).
 */
export class TenantGate {
  private readonly busy = new Map<string, { running: number; waiting: (() => void)[] }>()

  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
    private readonly burst = slots,
  ) {}

  /** How many calls the tenant may run now. */
  private limit(tenantId: string): number {
    for (const key of this.busy.keys()) if (key !== tenantId) return this.slots
    return Math.max(this.slots, this.burst)
  }

  async run<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    let calls = this.busy.get(tenantId)
    if (!calls) this.busy.set(tenantId, (calls = { running: 0, waiting: [] }))
    if (calls.running >= this.limit(tenantId)) {
      if (calls.waiting.length >= this.maxWaiting) {
        throw new RateLimitedError(
          `Too many requests of this tenant in progress (${this.slots} run at once, ${this.maxWaiting} wait); ` +
            'retry shortly',
          {
            allowed: false,
            limit: this.slots,
            remaining: 0,
            resetSeconds: 1,
          },
        )
      }
      await new Promise<void>((r) => calls!.waiting.push(r))
    } else calls.running++
    try {
      return await fn()
    } finally {
      if (calls.waiting.length && calls.running <= this.limit(tenantId))
        calls.waiting.shift()!() // the slot passes on
      else if (--calls.running === 0 && !calls.waiting.length) this.busy.delete(tenantId)
    }
  }

  /** Calls in flight or waiting for a tenant (tests and metrics). */
  load(tenantId: string): { running: number; waiting: number } {
    const calls = this.busy.get(tenantId)
    return { running: calls?.running ?? 0, waiting: calls?.waiting.length ?? 0 }
  }
}

/**
 * The service object with every tenant-scoped async method (ctx first) run through the tenant gate: the same bound for
 * REST, GraphQL over HTTP and WebSocket, since all of them call services.
 */
export function gated<S extends object>(service: S, gate: TenantGate): S {
  // One wrapper per method, made on first use (not a new closure on every call).
  const wrappers = new Map<PropertyKey, { of: Function; wrapper: Function }>()
  return new Proxy(service, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      // Only async methods (database work); synchronous ones, such as event subscriptions, pass straight.
      if (typeof value !== 'function' || value.constructor.name !== 'AsyncFunction') return value
      const known = wrappers.get(prop)
      if (known?.of === value) return known.wrapper
      const wrapper = function (this: unknown, ...args: unknown[]) {
        const ctx = args[0] as RequestContext | undefined
        if (!ctx || typeof ctx !== 'object' || typeof ctx.tenantId !== 'string') return value.apply(target, args)
        return gate.run(ctx.tenantId, () => value.apply(target, args))
      }
      wrappers.set(prop, { of: value, wrapper })
      return wrapper
    },
  })
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', done)
      resolve()
    }, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

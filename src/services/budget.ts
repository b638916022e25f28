import type { DataSource } from 'typeorm'
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

export interface BudgetOptions {
  /** Operations per minute per API key (or dashboard session), all transports together. */
  perMinute: number
  /** Failed authentications per minute per client address. */
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
 * client address before any key lookup; and each tenant has a bounded number of service calls in flight, so one
 * tenant cannot hold the whole connection pool.
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
    const d = this.operations.take(key, cost)
    if (!d.allowed) {
      const what = why ? `${why}; ` : cost > 1 ? `this request counts ${cost} operations; ` : ''
      throw new RateLimitedError(
        `Rate limit exceeded: ${d.limit} operations per minute per API key; ${what}retry in ${d.resetSeconds} s`,
        d,
      )
    }
    return d
  }

  /**
   * Charges `cost` operations one at a time, each waiting until the budget has room instead of being refused: for work
   * paid as it goes that must not fail half-way (an import: a client importing again would pay again). Rejects with
   * the signal's reason once it aborts, also while waiting. Returns the last decision (for the RateLimit-* headers).
   */
  async chargeWaiting(key: string, cost: number, signal?: AbortSignal): Promise<RateDecision | undefined> {
    let d: RateDecision | undefined
    for (let i = 0; i < cost; i++) {
      for (;;) {
        signal?.throwIfAborted()
        d = this.operations.take(key, 1)
        if (d.allowed) break
        await pause(Math.min(d.resetSeconds, 5) * 1000, signal)
      }
    }
    return d
  }

  /**
   * Authenticates unless the client address has failed too often lately (then 429 before any key lookup); failures
   * are counted. A credential that succeeded recently still gets through, so a legitimate client behind the same
   * address as an attacker is not locked out. `credentialId` names the credential without being it (a digest of the
   * key or session token: `credentialId()`), so no secret is kept here.
   */
  async authenticate<T>(address: string, credentialId: string | undefined, fn: () => Promise<T>): Promise<T> {
    const key = `ip:${address}`
    const id = credentialId ?? ''
    const blocked = this.authFailures.exhausted(key)
    if (blocked && !this.recentlyGood(id)) {
      throw new RateLimitedError(
        `Too many failed authentications from this address; retry in ${blocked.resetSeconds} s`,
        blocked,
      )
    }
    try {
      const ok = await fn()
      if (id) {
        this.good.delete(id) // re-inserted last: the map stays in order of last success
        this.good.set(id, Date.now())
        this.trimGood()
      }
      return ok
    } catch (e) {
      if (e instanceof DomainError && e.status === 401) {
        this.authFailures.take(key)
        this.good.delete(id)
      }
      throw e
    }
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
    for (const k of this.good.keys()) {
      if (this.good.size <= 10_000) break
      this.good.delete(k)
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
    for (const k of this.busy.keys()) if (k !== tenantId) return this.slots
    return Math.max(this.slots, this.burst)
  }

  async run<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    let t = this.busy.get(tenantId)
    if (!t) this.busy.set(tenantId, (t = { running: 0, waiting: [] }))
    if (t.running >= this.limit(tenantId)) {
      if (t.waiting.length >= this.maxWaiting) {
        throw new RateLimitedError(
          `Too many requests of this tenant in progress (${this.slots} run at once, ${this.maxWaiting} wait); retry shortly`,
          {
            allowed: false,
            limit: this.slots,
            remaining: 0,
            resetSeconds: 1,
          },
        )
      }
      await new Promise<void>((r) => t!.waiting.push(r))
    } else t.running++
    try {
      return await fn()
    } finally {
      if (t.waiting.length && t.running <= this.limit(tenantId))
        t.waiting.shift()!() // the slot passes on
      else if (--t.running === 0 && !t.waiting.length) this.busy.delete(tenantId)
    }
  }

  /** Calls in flight or waiting for a tenant (tests and metrics). */
  load(tenantId: string): { running: number; waiting: number } {
    const t = this.busy.get(tenantId)
    return { running: t?.running ?? 0, waiting: t?.waiting.length ?? 0 }
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
      const v = Reflect.get(target, prop, receiver)
      // Only async methods (database work); synchronous ones, such as event subscriptions, pass straight.
      if (typeof v !== 'function' || v.constructor.name !== 'AsyncFunction') return v
      const known = wrappers.get(prop)
      if (known?.of === v) return known.wrapper
      const wrapper = function (this: unknown, ...args: unknown[]) {
        const ctx = args[0] as RequestContext | undefined
        if (!ctx || typeof ctx !== 'object' || typeof ctx.tenantId !== 'string') return v.apply(target, args)
        return gate.run(ctx.tenantId, () => v.apply(target, args))
      }
      wrappers.set(prop, { of: v, wrapper })
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

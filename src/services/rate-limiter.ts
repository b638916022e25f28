import type { DataSource } from 'typeorm'
import type { RateCounterEntity } from '../db/entities/rate-counter.entity.js'

/** What one `take` decided, with what the RateLimit-* headers report. */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the budget has room again (Retry-After when refused). */
  resetSeconds: number
}

/** Counts of other processes, merged into ours (PostgreSQL on a server; none in embedded mode). */
export interface SharedCounterStore {
  /**
   * Adds each row's `add` to the shared count of (key, window) and returns the shared totals of every row given
   * (rows with add 0 only read).
   */
  exchange(
    rows: { key: string; window: number; add: number }[],
  ): Promise<{ key: string; window: number; total: number }[]>
  /** Forgets windows older than the given one. */
  prune(beforeWindow: number): Promise<void>
}

interface KeyState {
  window: number
  /** This process's count in the current window not yet sent to the store. */
  unsent: number
  /** Sent, and not yet answered (an exchange in flight). */
  sending: number
  /** The shared total of the current window as last heard (ours included once sent). */
  shared: number
  /** The previous window's total (for the sliding estimate). */
  previous: number
  lastUsed: number
}

export interface RateLimiterOptions {
  limit: number
  windowMs: number
  store?: SharedCounterStore
  /** How often counts are exchanged with the store. */
  syncMs?: number
  now?: () => number
}

/**
 * A sliding-window limiter (the current window's count plus the previous one's, weighted by how much of it still
 * overlaps): no burst of twice the limit at a window's edge. Decisions are synchronous and in memory, so the hot path
 * makes no database round trip; with a shared store the process exchanges its counts every `syncMs`, so a budget is
 * shared by every process: together they admit at most the limit plus what the others admitted since their last
 * exchange.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>()
  private readonly now: () => number
  private timer?: NodeJS.Timeout
  private syncing?: Promise<void>
  private lastPrune = 0
  private takes = 0

  private forgetIdle(now: number) {
    for (const [key, keyState] of this.keys) if (now - keyState.lastUsed > 2 * this.opts.windowMs) this.keys.delete(key)
  }

  constructor(private readonly opts: RateLimiterOptions) {
    this.now = opts.now ?? Date.now
    if (opts.store) {
      this.timer = setInterval(() => void (this.syncing ?? this.sync()), opts.syncMs ?? 250)
      this.timer.unref()
    }
  }

  get limit() {
    return this.opts.limit
  }

  private state(key: string, now: number): KeyState {
    const window = Math.floor(now / this.opts.windowMs)
    let keyState = this.keys.get(key)
    if (!keyState) {
      keyState = { window, unsent: 0, sending: 0, shared: 0, previous: 0, lastUsed: now }
      this.keys.set(key, keyState)
    } else if (keyState.window !== window) {
      // Unsent counts of an old window still go out with the next exchange (under their window), see sync().
      const prev = keyState.window === window - 1 ? keyState.shared + keyState.unsent + keyState.sending : 0
      this.flushOld(key, keyState)
      Object.assign(keyState, { window, unsent: 0, sending: 0, shared: 0, previous: prev })
    }
    keyState.lastUsed = now
    return keyState
  }

  private readonly stale: { key: string; window: number; add: number }[] = []
  private flushOld(key: string, keyState: KeyState) {
    if (this.opts.store && keyState.unsent > 0) this.stale.push({ key, window: keyState.window, add: keyState.unsent })
  }

  private estimate(keyState: KeyState, now: number): number {
    const into = (now % this.opts.windowMs) / this.opts.windowMs
    return keyState.previous * (1 - into) + keyState.shared + keyState.unsent + keyState.sending
  }

  /** Counts `cost` against the key's budget when it fits; a refused request costs nothing. */
  take(key: string, cost = 1): RateDecision {
    const now = this.now()
    // Without a store no exchange forgets idle keys: forget them here, so many distinct keys cannot grow the map.
    if (!this.opts.store && ++this.takes % 1024 === 0) this.forgetIdle(now)
    const keyState = this.state(key, now)
    const used = this.estimate(keyState, now)
    const allowed = used + cost <= this.opts.limit
    if (allowed) keyState.unsent += cost
    return this.decision(keyState, now, allowed, allowed ? used + cost : used, cost)
  }

  /** Whether the key is already over its budget, without counting anything. */
  exhausted(key: string): RateDecision | null {
    const keyState = this.keys.get(key)
    if (!keyState) return null
    const now = this.now()
    const st = this.state(key, now)
    const used = this.estimate(st, now)
    return used + 1 > this.opts.limit ? this.decision(st, now, false, used, 1) : null
  }

  private decision(keyState: KeyState, now: number, allowed: boolean, used: number, cost: number): RateDecision {
    const { limit, windowMs } = this.opts
    const windowEnd = (keyState.window + 1) * windowMs
    let reset = (windowEnd - now) / 1000
    if (!allowed) {
      // When the previous window's share has decayed enough, or else the next window, whichever comes first.
      const over = used + cost - limit
      const current = keyState.shared + keyState.unsent + keyState.sending
      if (keyState.previous > 0 && current + cost <= limit)
        reset = Math.min(reset, ((over / keyState.previous) * windowMs) / 1000)
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - used)),
      resetSeconds: Math.max(1, Math.ceil(reset)),
    }
  }

  /**
   * Exchanges counts with the shared store (one statement for every active key). What was counted before the call is
   * sent when it returns: an exchange already under way started earlier, so it is awaited and another one follows.
   */
  async sync(): Promise<void> {
    const store = this.opts.store
    if (!store) return
    while (this.syncing) await this.syncing
    const now = this.now()
    const rows = this.stale.splice(0)
    const sent = new Map<string, number>()
    for (const [key, s0] of this.keys) {
      if (now - s0.lastUsed > 2 * this.opts.windowMs) {
        this.flushOld(key, s0)
        this.keys.delete(key)
        continue
      }
      const lastUsed = s0.lastUsed
      const keyState = this.state(key, now) // rolls the window if needed; an exchange is not a use
      keyState.lastUsed = lastUsed
      rows.push({ key, window: keyState.window, add: keyState.unsent }, { key, window: keyState.window - 1, add: 0 })
      sent.set(key, keyState.unsent)
      keyState.sending += keyState.unsent
      keyState.unsent = 0
    }
    if (!rows.length) return
    this.syncing = (async () => {
      try {
        const totals = await store.exchange(rows)
        for (const total of totals) {
          const keyState = this.keys.get(total.key)
          if (!keyState) continue
          if (total.window === keyState.window) {
            keyState.sending = Math.max(0, keyState.sending - (sent.get(total.key) ?? 0))
            keyState.shared = total.total
          } else if (total.window === keyState.window - 1) keyState.previous = Math.max(keyState.previous, total.total)
        }
        if (now - this.lastPrune > this.opts.windowMs) {
          this.lastPrune = now
          await store.prune(Math.floor(now / this.opts.windowMs) - 2)
        }
      } catch {
        // The database is away: keep counting locally, and send what was not acknowledged with the next exchange.
        for (const [key, count] of sent) {
          const keyState = this.keys.get(key)
          if (keyState) {
            keyState.sending = Math.max(0, keyState.sending - count)
            keyState.unsent += count
          }
        }
      } finally {
        this.syncing = undefined
      }
    })()
    return this.syncing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.sync()
  }
}

/** The shared counts in PostgreSQL: one UNLOGGED row per key and window. */
export class PostgresCounterStore implements SharedCounterStore {
  constructor(
    private readonly ds: DataSource,
    private readonly scope: string,
  ) {}

  async exchange(given: { key: string; window: number; add: number }[]) {
    // One row per (key, window): ON CONFLICT cannot touch a row twice in one statement.
    const merged = new Map<string, { key: string; window: number; add: number }>()
    for (const row of given) {
      const id = `${row.window}:${row.key}`
      const existing = merged.get(id)
      if (existing) existing.add += row.add
      else merged.set(id, { ...row })
    }
    const rows = [...merged.values()]
    const out: (Pick<RateCounterEntity, 'key'> & {
      window: RateCounterEntity['window_id']
      total: RateCounterEntity['hits']
    })[] = await this.ds.query(
      `INSERT INTO rate_counters AS c (scope, key, window_id, hits)
         SELECT $1, k, w, n FROM unnest($2::text[], $3::bigint[], $4::int[]) AS t(k, w, n)
       ON CONFLICT (scope, key, window_id) DO UPDATE SET hits = c.hits + EXCLUDED.hits
       RETURNING key, window_id AS window, hits AS total`,
      [this.scope, rows.map((r) => r.key), rows.map((r) => r.window), rows.map((r) => r.add)],
    )
    return out.map((row) => ({ key: row.key, window: Number(row.window), total: Number(row.total) }))
  }

  async prune(beforeWindow: number) {
    await this.ds.query(`DELETE FROM rate_counters WHERE scope = $1 AND window_id < $2`, [this.scope, beforeWindow])
  }
}

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
    for (const [key, s] of this.keys) if (now - s.lastUsed > 2 * this.opts.windowMs) this.keys.delete(key)
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
    let s = this.keys.get(key)
    if (!s) {
      s = { window, unsent: 0, sending: 0, shared: 0, previous: 0, lastUsed: now }
      this.keys.set(key, s)
    } else if (s.window !== window) {
      // Unsent counts of an old window still go out with the next exchange (under their window), see sync().
      const prev = s.window === window - 1 ? s.shared + s.unsent + s.sending : 0
      this.flushOld(key, s)
      Object.assign(s, { window, unsent: 0, sending: 0, shared: 0, previous: prev })
    }
    s.lastUsed = now
    return s
  }

  private readonly stale: { key: string; window: number; add: number }[] = []
  private flushOld(key: string, s: KeyState) {
    if (this.opts.store && s.unsent > 0) this.stale.push({ key, window: s.window, add: s.unsent })
  }

  private estimate(s: KeyState, now: number): number {
    const into = (now % this.opts.windowMs) / this.opts.windowMs
    return s.previous * (1 - into) + s.shared + s.unsent + s.sending
  }

  /** Counts `cost` against the key's budget when it fits; a refused request costs nothing. */
  take(key: string, cost = 1): RateDecision {
    const now = this.now()
    // Without a store no exchange forgets idle keys: forget them here, so many distinct keys cannot grow the map.
    if (!this.opts.store && ++this.takes % 1024 === 0) this.forgetIdle(now)
    const s = this.state(key, now)
    const used = this.estimate(s, now)
    const allowed = used + cost <= this.opts.limit
    if (allowed) s.unsent += cost
    return this.decision(s, now, allowed, allowed ? used + cost : used, cost)
  }

  /** Whether the key is already over its budget, without counting anything. */
  exhausted(key: string): RateDecision | null {
    const s = this.keys.get(key)
    if (!s) return null
    const now = this.now()
    const st = this.state(key, now)
    const used = this.estimate(st, now)
    return used + 1 > this.opts.limit ? this.decision(st, now, false, used, 1) : null
  }

  private decision(s: KeyState, now: number, allowed: boolean, used: number, cost: number): RateDecision {
    const { limit, windowMs } = this.opts
    const windowEnd = (s.window + 1) * windowMs
    let reset = (windowEnd - now) / 1000
    if (!allowed) {
      // When the previous window's share has decayed enough, or else the next window, whichever comes first.
      const over = used + cost - limit
      const current = s.shared + s.unsent + s.sending
      if (s.previous > 0 && current + cost <= limit) reset = Math.min(reset, ((over / s.previous) * windowMs) / 1000)
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
      const s = this.state(key, now) // rolls the window if needed; an exchange is not a use
      s.lastUsed = lastUsed
      rows.push({ key, window: s.window, add: s.unsent }, { key, window: s.window - 1, add: 0 })
      sent.set(key, s.unsent)
      s.sending += s.unsent
      s.unsent = 0
    }
    if (!rows.length) return
    this.syncing = (async () => {
      try {
        const totals = await store.exchange(rows)
        for (const t of totals) {
          const s = this.keys.get(t.key)
          if (!s) continue
          if (t.window === s.window) {
            s.sending = Math.max(0, s.sending - (sent.get(t.key) ?? 0))
            s.shared = t.total
          } else if (t.window === s.window - 1) s.previous = Math.max(s.previous, t.total)
        }
        if (now - this.lastPrune > this.opts.windowMs) {
          this.lastPrune = now
          await store.prune(Math.floor(now / this.opts.windowMs) - 2)
        }
      } catch {
        // The database is away: keep counting locally, and send what was not acknowledged with the next exchange.
        for (const [key, n] of sent) {
          const s = this.keys.get(key)
          if (s) {
            s.sending = Math.max(0, s.sending - n)
            s.unsent += n
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
    for (const r of given) {
      const id = `${r.window}:${r.key}`
      const m = merged.get(id)
      if (m) m.add += r.add
      else merged.set(id, { ...r })
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
    return out.map((r) => ({ key: r.key, window: Number(r.window), total: Number(r.total) }))
  }

  async prune(beforeWindow: number) {
    await this.ds.query(`DELETE FROM rate_counters WHERE scope = $1 AND window_id < $2`, [this.scope, beforeWindow])
  }
}

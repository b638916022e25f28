// The request budget's parts as pure units, with an injected clock and an in-memory shared store standing in for the
// rate_counters table (the table itself is exercised through the service in test/integration/budget.test.ts).
import { describe, expect, it } from 'vitest'
import { RateLimiter, type SharedCounterStore } from '../../src/services/rate-limiter.js'
import { gated, TenantGate } from '../../src/services/budget.js'

const W = 60_000

class MemoryStore implements SharedCounterStore {
  rows = new Map<string, number>()
  exchanges = 0
  async exchange(rows: { key: string; window: number; add: number }[]) {
    this.exchanges++
    return rows.map((r) => {
      const id = `${r.key}@${r.window}`
      const total = (this.rows.get(id) ?? 0) + r.add
      this.rows.set(id, total)
      return { key: r.key, window: r.window, total }
    })
  }
  async prune() {}
}

describe('RateLimiter', () => {
  it('admits exactly the limit in a window, refuses the rest without counting them, and says when to retry', () => {
    let now = 10 * W
    const l = new RateLimiter({ limit: 5, windowMs: W, now: () => now })
    const results = Array.from({ length: 8 }, () => l.take('a'))
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false, false])
    expect(results[4]!.remaining).toBe(0)
    expect(results[5]!.resetSeconds).toBe(60)
    // Another key has its own budget.
    expect(l.take('b').allowed).toBe(true)
    // A cost larger than what is left is refused whole.
    now += W / 2
    expect(l.take('b', 5).allowed).toBe(false)
    expect(l.take('b', 4).allowed).toBe(true)
  })

  it('slides: the previous window still counts, in proportion to its overlap (no double burst at the edge)', () => {
    let now = 10 * W + W - 1
    const l = new RateLimiter({ limit: 10, windowMs: W, now: () => now })
    for (let i = 0; i < 10; i++) expect(l.take('k').allowed).toBe(true)
    now = 11 * W // the next window begins: the previous one still weighs fully
    expect(l.take('k').allowed).toBe(false)
    now = 11 * W + W / 2 // half of it overlaps: 5 of 10 are free
    let admitted = 0
    while (l.take('k').allowed) admitted++
    expect(admitted).toBe(5)
    now = 13 * W // two windows later: everything is free again
    admitted = 0
    while (l.take('k').allowed) admitted++
    expect(admitted).toBe(10)
  })

  it('a shared store makes one budget of several limiters (processes)', async () => {
    const now = 20 * W + 1000
    const store = new MemoryStore()
    const a = new RateLimiter({ limit: 30, windowMs: W, store, now: () => now, syncMs: 3_600_000 })
    const b = new RateLimiter({ limit: 30, windowMs: W, store, now: () => now, syncMs: 3_600_000 })
    for (let i = 0; i < 20; i++) expect(a.take('app').allowed).toBe(true)
    await a.sync()
    b.take('app') // b learns of the key
    await b.sync()
    let admitted = 1
    while (b.take('app').allowed) admitted++
    expect(admitted).toBe(10)
    await b.sync()
    await a.sync()
    expect(a.take('app').allowed).toBe(false)
    expect(store.rows.get(`app@${Math.floor(now / W)}`)).toBe(30)
    await Promise.all([a.close(), b.close()])
  })

  it('sync() sends what was counted before it, even while an earlier exchange is still under way', async () => {
    const now = 40 * W
    const store = new MemoryStore()
    let release: () => void = () => {}
    let hold = true
    const slow: SharedCounterStore = {
      exchange: async (rows) => {
        if (hold) await new Promise<void>((r) => (release = r))
        return store.exchange(rows)
      },
      prune: async () => {},
    }
    const l = new RateLimiter({ limit: 10, windowMs: W, store: slow, now: () => now, syncMs: 3_600_000 })
    l.take('k')
    const first = l.sync() // under way, holding 1
    for (let i = 0; i < 3; i++) l.take('k')
    hold = false
    const second = l.sync()
    release()
    await Promise.all([first, second])
    expect(store.rows.get('k@40')).toBe(4)
    await l.close()
  })

  it('keeps counting locally while the store is unreachable and sends the counts once it is back', async () => {
    const now = 30 * W
    const store = new MemoryStore()
    let down = true
    const flaky: SharedCounterStore = {
      exchange: (rows) => (down ? Promise.reject(new Error('connect ECONNREFUSED')) : store.exchange(rows)),
      prune: async () => {},
    }
    const l = new RateLimiter({ limit: 10, windowMs: W, store: flaky, now: () => now, syncMs: 3_600_000 })
    for (let i = 0; i < 4; i++) l.take('k')
    await l.sync()
    for (let i = 0; i < 6; i++) expect(l.take('k').allowed).toBe(true)
    expect(l.take('k').allowed).toBe(false)
    down = false
    await l.sync()
    expect(store.rows.get(`k@30`)).toBe(10)
    expect(l.take('k').allowed).toBe(false)
    await l.close()
  })
})

describe('TenantGate', () => {
  it('runs at most N calls of a tenant at once, in order; others are not held up; a full line is refused', async () => {
    const gate = new TenantGate(2, 3)
    let running = 0
    let peak = 0
    const releases: (() => void)[] = []
    const order: number[] = []
    const call = (i: number) =>
      gate.run('t1', async () => {
        running++
        peak = Math.max(peak, running)
        order.push(i)
        await new Promise<void>((r) => releases.push(r))
        running--
        return i
      })
    const calls = [0, 1, 2, 3, 4].map(call)
    await new Promise((r) => setImmediate(r))
    expect(gate.load('t1')).toEqual({ running: 2, waiting: 3 })
    await expect(call(5)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    // Another tenant runs at once.
    expect(await gate.run('t2', async () => 'other')).toBe('other')
    while (releases.length) {
      releases.shift()!()
      await new Promise((r) => setImmediate(r))
    }
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4])
    expect(order).toEqual([0, 1, 2, 3, 4])
    expect(peak).toBe(2)
    expect(gate.load('t1')).toEqual({ running: 0, waiting: 0 })
  })

  it('work-conserving: alone, a tenant may use the whole burst; with others calling, only its slots', async () => {
    const gate = new TenantGate(2, 100, 5)
    let running = 0
    let peak = 0
    const releases: (() => void)[] = []
    let releaseOther!: () => void
    const hold = (tenant: string) =>
      gate.run(tenant, async () => {
        if (tenant === 'hog') peak = Math.max(peak, ++running)
        await new Promise<void>((r) => (tenant === 'hog' ? releases.push(r) : (releaseOther = r)))
        if (tenant === 'hog') running--
      })
    const tick = () => new Promise((r) => setImmediate(r))
    const hogs = Array.from({ length: 8 }, () => hold('hog'))
    await tick()
    expect(gate.load('hog')).toEqual({ running: 5, waiting: 3 }) // alone: the burst
    const other = hold('other')
    await tick()
    expect(gate.load('other')).toEqual({ running: 1, waiting: 0 }) // another tenant runs at once
    // While 'other' is busy, the hog's freed slots are not handed on until it is back under its 2 slots.
    for (let i = 0; i < 3; i++) {
      releases.shift()!()
      await tick()
    }
    expect(gate.load('hog')).toEqual({ running: 2, waiting: 3 })
    releases.shift()!() // a hog call ends: at 2, its slot passes on
    await tick()
    expect(gate.load('hog')).toEqual({ running: 2, waiting: 2 })
    // 'other' finishes: the hog may use the burst again as its calls end and hand over.
    releaseOther()
    await other
    while (releases.length) {
      releases.shift()!()
      await tick()
    }
    await Promise.all(hogs)
    expect(peak).toBe(5)
    expect(gate.load('hog')).toEqual({ running: 0, waiting: 0 })
  })

  it('a failing call frees its slot', async () => {
    const gate = new TenantGate(1, 10)
    await expect(gate.run('t', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await gate.run('t', async () => 1)).toBe(1)
    expect(gate.load('t')).toEqual({ running: 0, waiting: 0 })
  })

  it('gated(service): async calls with a ctx go through the gate, the rest pass straight', async () => {
    const gate = new TenantGate(1, 0)
    const svc = {
      async hold(_ctx: { tenantId: string }, p: Promise<void>) {
        await p
      },
      plain: (x: number) => x * 2,
      // Synchronous, like watchStatus: its return value (an unsubscribe function) must come back as it is.
      watch: (_ctx: { tenantId: string }) => () => 'unsubscribed',
    }
    const g = gated(svc, gate)
    let release!: () => void
    const held = g.hold({ tenantId: 't' }, new Promise<void>((r) => (release = r)))
    await new Promise((r) => setImmediate(r))
    await expect(g.hold({ tenantId: 't' }, Promise.resolve())).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    expect(g.plain(21)).toBe(42)
    expect(g.watch({ tenantId: 't' })()).toBe('unsubscribed')
    release()
    await held
  })

  it('gated(service): one wrapper per method, made again when the method is replaced', async () => {
    const gate = new TenantGate(1, 0)
    const svc: { one(ctx: { tenantId: string }): Promise<string> } = {
      async one() {
        return 'first'
      },
    }
    const g = gated(svc, gate)
    expect(g.one).toBe(g.one)
    const before = g.one
    svc.one = async () => 'second'
    expect(g.one).not.toBe(before)
    await expect(g.one({ tenantId: 't' })).resolves.toBe('second')
    expect(gate.load('t')).toEqual({ running: 0, waiting: 0 })
  })
})

describe('RateLimiter memory', () => {
  it('without a store, keys idle for two windows are forgotten, so many distinct keys do not accumulate', () => {
    let now = 0
    const l = new RateLimiter({ limit: 5, windowMs: W, now: () => now })
    for (let i = 0; i < 5000; i++) l.take(`ip:${i}`)
    now += 3 * W
    for (let i = 0; i < 2048; i++) l.take('ip:same')
    expect((l as unknown as { keys: Map<string, unknown> }).keys.size).toBe(1)
  })
})

describe('RateLimiter with a store: idle keys', () => {
  it('a key unused for two windows is no longer exchanged (exchanges are not uses)', async () => {
    let now = 50 * W
    const store = new MemoryStore()
    const l = new RateLimiter({ limit: 5, windowMs: W, store, now: () => now, syncMs: 3_600_000 })
    l.take('old')
    await l.sync()
    for (let i = 0; i < 3; i++) {
      now += W
      await l.sync()
    }
    l.take('new')
    const before = store.exchanges
    await l.sync()
    expect(store.exchanges).toBe(before + 1)
    expect((l as unknown as { keys: Map<string, unknown> }).keys.has('old')).toBe(false)
    await l.close()
  })
})

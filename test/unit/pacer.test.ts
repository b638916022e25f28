// The pacer of large profiles' passage reads: one task at a time, the keys (tenants) served in turn, each key resting
// after a task for as long as it took. The clock is faked, so each task takes exactly its time and the order is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FairPacer } from '../../src/services/pacer.js'

/** Tasks that take `ms` on the (fake) clock, each noting when it started and ended, and whether another overlapped. */
function tasks() {
  const log: { name: string; start: number; end: number }[] = []
  let running = 0
  let overlapped = false
  const task = (name: string, ms: number) => async () => {
    running++
    if (running > 1) overlapped = true
    const start = performance.now()
    await new Promise((r) => setTimeout(r, ms))
    running--
    log.push({ name, start, end: performance.now() })
    return name
  }
  const startOf = (name: string) => log.find((t) => t.name === name)!.start
  return { log, task, startOf, overlapped: () => overlapped }
}

describe('FairPacer', () => {
  let zero: number
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    zero = performance.now()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('serves the keys in turn, one task at a time: a key waits for one task of another, not its queue', async () => {
    const pacer = new FairPacer()
    const { log, task, startOf, overlapped } = tasks()
    const a = Array.from({ length: 5 }, (_, i) => pacer.run('a', task(`a${i}`, 10)))
    const b = [pacer.run('b', task('b0', 10)), pacer.run('b', task('b1', 10))]
    await vi.runAllTimersAsync()
    expect(await Promise.all([...a, ...b])).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1'])
    expect(log.map((t) => t.name)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'a3', 'a4'])
    // b0 starts as soon as a0 is done; a1 when a has rested as long as a0 took (b0 ran meanwhile). Once b has nothing
    // left, a is alone: each task, then a rest as long.
    expect(['a0', 'b0', 'a1', 'b1', 'a2', 'a3', 'a4'].map((n) => startOf(n) - zero)).toEqual([
      0, 10, 20, 30, 40, 60, 80,
    ])
    expect(overlapped()).toBe(false)
  })

  it('makes a key that comes late wait for the task running, not for the queues of the keys before it', async () => {
    const pacer = new FairPacer()
    const { task, startOf } = tasks()
    const queued = [
      ...Array.from({ length: 4 }, (_, i) => pacer.run('a', task(`a${i}`, 50))),
      ...Array.from({ length: 4 }, (_, i) => pacer.run('b', task(`b${i}`, 50))),
    ]
    await vi.advanceTimersByTimeAsync(20)
    const late = pacer.run('c', task('c0', 5))
    await vi.runAllTimersAsync()
    await Promise.all([...queued, late])
    // a0 runs from 0 to 50, then b0 was first in turn (it came before c); c0 comes next, before a1 and b1.
    expect(startOf('b0') - zero).toBe(50)
    expect(startOf('c0') - zero).toBe(100)
    expect(startOf('a1') - zero).toBe(105)
  })

  it('rests a key for as long as its task took, at most a second, while another key is served', async () => {
    const pacer = new FairPacer()
    const { task, startOf } = tasks()
    const runs = [pacer.run('a', task('a0', 40)), pacer.run('a', task('a1', 5)), pacer.run('b', task('b0', 5))]
    await vi.runAllTimersAsync()
    await Promise.all(runs)
    expect(startOf('b0') - zero).toBe(40)
    expect(startOf('a1') - zero).toBe(80)
    const long = [pacer.run('a', task('a2', 3000)), pacer.run('a', task('a3', 5))]
    await vi.runAllTimersAsync()
    await Promise.all(long)
    expect(startOf('a3') - startOf('a2')).toBe(3000 + 1000)
  })

  it('gives each caller its own result or error, and goes on after a task that failed or threw at once', async () => {
    const pacer = new FairPacer()
    const failed = pacer.run('a', async () => {
      throw new Error('no')
    })
    const threw = pacer.run('a', (() => {
      throw new Error('at once')
    }) as () => Promise<never>)
    const next = pacer.run('a', async () => 'yes')
    const other = pacer.run('b', async () => 'also')
    const settled = Promise.allSettled([failed, threw, next, other])
    await vi.runAllTimersAsync()
    const [f, t, n, o] = await settled
    expect(f).toMatchObject({ status: 'rejected', reason: { message: 'no' } })
    expect(t).toMatchObject({ status: 'rejected', reason: { message: 'at once' } })
    expect(n).toEqual({ status: 'fulfilled', value: 'yes' })
    expect(o).toEqual({ status: 'fulfilled', value: 'also' })
  })
})

import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JobQueue } from '../../src/jobs/queue.js'
import { WorkerLoop } from '../../src/jobs/worker-loop.js'

describe('WorkerLoop.pause', () => {
  afterEach(() => vi.useRealTimers())

  it('takes no jobs while paused, not even when woken, and fetches again once the pause is over', async () => {
    vi.useFakeTimers()
    let fetches = 0
    const queue = { fetch: async () => (fetches++, []), fail: async () => undefined } as unknown as JobQueue
    const loop = new WorkerLoop(
      queue,
      { concurrency: 4, roundSize: 4, pollMs: 1_000 },
      async () => undefined,
      pino({ level: 'silent' }),
    )
    loop.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetches).toBe(1)
    loop.pause(30_000)
    await vi.advanceTimersByTimeAsync(5_000) // past several poll intervals
    expect(fetches).toBe(1)
    loop.wake() // new work announced: still paused
    await vi.advanceTimersByTimeAsync(1_000)
    expect(fetches).toBe(1)
    await vi.advanceTimersByTimeAsync(23_900) // 29.9 s in
    expect(fetches).toBe(1)
    await vi.advanceTimersByTimeAsync(100) // 30 s: the pause is over
    expect(fetches).toBe(2)
    await vi.advanceTimersByTimeAsync(1_000) // polling as before
    expect(fetches).toBe(3)
    const stopped = loop.stop()
    await vi.advanceTimersByTimeAsync(0)
    await stopped
  })
})

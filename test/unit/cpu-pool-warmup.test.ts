// The CPU pool's start: prestart starts every thread and has each run its warm-up (a sample context) before it
// resolves, so the first request finds warm threads; the warm-up changes no answer.
import { afterAll, describe, expect, it } from 'vitest'
import { CpuPool } from '../../src/services/cpu/cpu.js'
import { composeTask, warmUp } from '../../src/services/cpu/cpu-tasks.js'
import { ThreadPool, threadEntry } from '../../src/threads/pool.js'
import type { CpuResult, CpuTask } from '../../src/services/cpu/cpu-tasks.js'

const source = {
  content: JSON.stringify({
    core_info: { name: { value: 'Maria', confidence: 0.9 } },
    interests: { music: [{ value: 'jazz', confidence: 0.9 }] },
  }),
  timestamps: '{}',
}
const compose = { ...source, summary: 'Maria likes jazz.', query: 'music', maxTokens: 100 }

describe('CpuPool.prestart', () => {
  const pool = new CpuPool(2)
  afterAll(() => pool.close())

  it('starts every thread and waits for each warm-up; answers are unchanged', async () => {
    expect(pool.threads).toBe(0)
    await pool.prestart()
    expect(pool.threads).toBe(2)
    expect(await pool.composeContext(compose)).toEqual(await composeTask(compose))
  })

  it('runs the warm-up on this thread too when it has no threads', async () => {
    const inline = new CpuPool(0)
    await expect(inline.prestart()).resolves.toBeUndefined()
    expect(inline.threads).toBe(0)
    await expect(warmUp()).resolves.toBeNull()
  })
})

describe('ThreadPool warm-up job', () => {
  const entry = threadEntry(new URL('../../src/services/cpu/cpu.ts', import.meta.url).href, 'cpu-thread')
  const pools: ThreadPool<CpuTask, CpuResult>[] = []
  const newPool = (size: number) => {
    const pool = new ThreadPool<CpuTask, CpuResult>({ name: 'cpu', size, entry, warmUp: { kind: 'warm-up' } })
    pools.push(pool)
    return pool
  }
  afterAll(() => Promise.all(pools.map((pool) => pool.close())))

  it('sends each new thread its warm-up first, and holds no job once prestart resolves', async () => {
    const pool = newPool(2)
    const started = pool.prestart()
    expect(pool.threads).toBe(2)
    expect(pool.load).toEqual({ waiting: 0, held: 2 })
    await started
    expect(pool.load).toEqual({ waiting: 0, held: 0 })
  })

  it('warms a thread that replaces a stopped one before it runs the next job', async () => {
    const pool = newPool(1)
    await pool.prestart()
    const stopped = new AbortController()
    const running = pool.run({ kind: 'context-compose', ...compose }, { signal: stopped.signal })
    stopped.abort(new Error('stopped'))
    await expect(running).rejects.toThrow('stopped')
    expect(pool.threads).toBe(0)
    // The next job starts a new thread: its warm-up goes first, then the job.
    const next = pool.run({ kind: 'context-compose', ...compose })
    expect(pool.threads).toBe(1)
    expect(pool.load).toEqual({ waiting: 0, held: 2 })
    expect(await next).toEqual(await composeTask(compose))
  })
})

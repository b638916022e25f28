// The local extractor on worker threads: the same results as on the main thread, requests beyond the pool wait, an
// aborted or crashed request fails alone, and the pool closes.
import { afterAll, describe, expect, it } from 'vitest'
import { ThreadedExtractor } from '../../src/ai/local/extract-pool.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { ExtractRequest } from '../../src/ai/types.js'
import { emptyContent } from '../../src/domain/profile.js'

const now = () => new Date('2024-06-15T12:00:00Z')
const direct = new LocalExtractor({ now })
const pool = new ThreadedExtractor(2, now)
afterAll(() => pool.close())

const req = (...data: [string, 'text' | 'conversation'][]): ExtractRequest => ({
  profile: emptyContent(),
  submissions: data.map(([d, inputType], i) => ({ submissionId: `s${i}`, inputType, data: d })),
})
const slow = req([`${'so much to say about nothing at all - '.repeat(2500)} I live in Rome.`, 'text'])

describe('ThreadedExtractor', () => {
  it('returns exactly what the in-process extractor returns (text, conversation, batch, relative dates)', async () => {
    const cases = [
      req([
        'Hi, I am Maria, 34, a nurse from Lisbon. I love hiking and jazz, and I have a dog. ' +
          'Last year I moved to Porto.',
        'text',
      ]),
      req(['Maria: I just started learning the piano.\nBot: Nice! I love Chopin.', 'conversation']),
      req(
        ['I am vegetarian.', 'text'],
        ["I don't like football anymore.", 'text'],
        [JSON.stringify([{ role: 'user', content: 'I work as a pharmacist in Valencia.' }]), 'conversation'],
      ),
    ]
    for (const c of cases) expect(await pool.extract(c)).toEqual(await direct.extract(c))
  })

  it('runs at most its size at once; the rest wait and complete', async () => {
    const names = ['Ann', 'Bea', 'Cid', 'Dan', 'Eve']
    const results = await Promise.all(names.map((n) => pool.extract(req([`I live in Rome. My name is ${n}.`, 'text']))))
    expect(pool.threads).toBeLessThanOrEqual(2)
    expect(results.map((r) => r.extractions[0]!.core_info?.name?.value)).toEqual(names)
  })

  it('an aborted request fails alone, in flight or waiting; the pool goes on', async () => {
    const inFlight = new AbortController()
    const waiting = new AbortController()
    const a = pool.extract(slow, inFlight.signal)
    const b = pool.extract(slow)
    const c = pool.extract(slow, waiting.signal)
    waiting.abort(new Error('gone while waiting'))
    inFlight.abort(new Error('gone while running'))
    await expect(a).rejects.toThrow('gone while running')
    await expect(c).rejects.toThrow('gone while waiting')
    expect((await b).extractions[0]!.core_info?.location?.value).toBe('Rome')
    expect((await pool.extract(req(['I live in Oslo.', 'text']))).extractions[0]!.core_info?.location?.value).toBe(
      'Oslo',
    )
  })

  it('a background request aborted mid-run answers at once; its thread finishes it and is not replaced', async () => {
    const one = new ThreadedExtractor(1, now)
    try {
      await one.extract(req(['I live in Oslo.', 'text']))
      const workerOf = () => (one as unknown as { pool: { slots: { worker: object }[] } }).pool.slots[0]?.worker
      const before = workerOf()
      const gone = new AbortController()
      const bg = one.extract({ ...slow, background: true }, gone.signal)
      await new Promise((r) => setTimeout(r, 50)) // a window in which it runs: the point is to abort it mid-run
      gone.abort(new Error('client went away'))
      await expect(bg).rejects.toThrow('client went away')
      // The same thread (its models loaded) takes the next request once it is done with the abandoned one.
      expect((await one.extract(req(['I live in Kyiv.', 'text']))).extractions[0]!.core_info?.location?.value).toBe(
        'Kyiv',
      )
      expect(workerOf()).toBe(before)
    } finally {
      await one.close()
    }
  })

  it('a thread that dies fails only its request, and is replaced', async () => {
    const a = pool.extract(slow)
    const b = pool.extract(req(['I live in Lima.', 'text']))
    // Kill the thread running `a` (the first slot took it).
    await (
      pool as unknown as { pool: { slots: { worker: { terminate(): Promise<number> } }[] } }
    ).pool.slots[0]!.worker.terminate()
    await expect(a).rejects.toThrow(/exited/)
    expect((await b).extractions[0]!.core_info?.location?.value).toBe('Lima')
    expect((await pool.extract(req(['I live in Kyiv.', 'text']))).extractions[0]!.core_info?.location?.value).toBe(
      'Kyiv',
    )
  })

  it('a thread queues requests: if it dies only the running one fails; an aborted queued one is dropped', async () => {
    const one = new ThreadedExtractor(1, now)
    try {
      const queuedAbort = new AbortController()
      const running = one.extract(slow)
      const held = ['Lima', 'Kyiv', 'Pune'].map((city) => one.extract(req([`I live in ${city}.`, 'text'])))
      const dropped = one.extract(req(['I live in Nice.', 'text']), queuedAbort.signal)
      const slots = (
        one as unknown as { pool: { slots: { jobs: unknown[]; worker: { terminate(): Promise<number> } }[] } }
      ).pool.slots
      expect(slots[0]!.jobs.length).toBeGreaterThan(1) // sent ahead, not waiting for the running one
      queuedAbort.abort(new Error('not wanted any more'))
      await expect(dropped).rejects.toThrow('not wanted any more')
      await slots[0]!.worker.terminate()
      await expect(running).rejects.toThrow(/exited/)
      expect((await Promise.all(held)).map((r) => r.extractions[0]!.core_info?.location?.value)).toEqual([
        'Lima',
        'Kyiv',
        'Pune',
      ])
    } finally {
      await one.close()
    }
  })

  it('close() ends the threads and refuses new work', async () => {
    const p = new ThreadedExtractor(1, now)
    await p.extract(req(['I live in Oslo.', 'text']))
    expect(p.threads).toBe(1)
    await p.close()
    expect(p.threads).toBe(0)
    await expect(p.extract(req(['x', 'text']))).rejects.toThrow(/closed/)
  })
})

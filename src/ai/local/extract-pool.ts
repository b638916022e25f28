import { Worker } from 'node:worker_threads'
import type { ExtractRequest, ExtractResult, Extractor } from '../types.js'
import type { ThreadReply, ThreadRequest } from './extract-thread.js'

interface Job {
  id: number
  req: ExtractRequest
  now: string
  resolve(r: ExtractResult): void
  reject(e: unknown): void
  signal?: AbortSignal
}

interface Slot {
  worker: Worker
  /** Sent to the thread, oldest first: it runs them in order, so the first is the one running. */
  jobs: Job[]
}

/**
 * Requests sent to a thread ahead of the one it runs, so it never idles waiting for the main thread to send the next
 * (a busy worker's main thread answered late: one request at a time kept the thread about a third busy).
 */
const PIPELINE = 4

/**
 * A thread's entry: the compiled module in the build (dist/), or, running from the TypeScript sources (tsx, vitest),
 * a JavaScript shim that registers tsx in the thread first (threads do not inherit the main thread's loader).
 */
const THREAD_ENTRY = new URL(import.meta.url.endsWith('.ts') ? './extract-thread.mjs' : './extract-thread.js', import.meta.url)

/**
 * The local extractor on a pool of worker threads: extraction is CPU work (up to a second for the largest allowed
 * input), and on the main thread it would stall every request, subscription and lease heartbeat of the process.
 * Requests beyond what the threads hold wait in line. A thread that crashes fails only the request it was running (the
 * others it held go back to the line) and is replaced; an aborted request that is running ends its thread (a thread
 * cannot be interrupted otherwise) and a new one takes its place, one that is only queued there is just dropped.
 */
export class ThreadedExtractor implements Extractor {
  readonly name = 'local'
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private nextId = 1
  private closed = false

  constructor(
    private readonly size: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
    if (this.closed) return Promise.reject(new Error('the extraction pool is closed'))
    signal?.throwIfAborted()
    return new Promise<ExtractResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, req, now: this.now().toISOString(), resolve, reject, signal }
      signal?.addEventListener('abort', () => this.abort(job), { once: true })
      this.queue.push(job)
      this.dispatch()
    })
  }

  /** Threads running now (tests). */
  get threads(): number {
    return this.slots.length
  }

  private dispatch() {
    while (this.queue.length) {
      // An idle thread first, then a new one, then the least loaded with room in its pipeline.
      let slot = this.slots.find((s) => !s.jobs.length)
      if (!slot && this.slots.length < this.size) slot = this.spawn()
      slot ??= this.slots.filter((s) => s.jobs.length < PIPELINE).sort((a, b) => a.jobs.length - b.jobs.length)[0]
      if (!slot) return
      const job = this.queue.shift()!
      slot.jobs.push(job)
      slot.worker.postMessage({ id: job.id, req: job.req, now: job.now } satisfies ThreadRequest)
    }
  }

  private spawn(): Slot {
    const worker = new Worker(THREAD_ENTRY, { execArgv: [] })
    const slot: Slot = { worker, jobs: [] }
    worker.unref()
    worker.on('message', (m: ThreadReply | { ready: true }) => {
      if ('ready' in m) return
      const i = slot.jobs.findIndex((j) => j.id === m.id)
      if (i < 0) return // aborted while it waited there
      const [job] = slot.jobs.splice(i, 1)
      if (m.ok) job!.resolve(m.result)
      else job!.reject(new Error(m.message))
      this.dispatch()
    })
    const gone = (err: unknown) => {
      const i = this.slots.indexOf(slot)
      if (i < 0) return
      this.slots.splice(i, 1)
      const [running, ...held] = slot.jobs.splice(0)
      running?.reject(err instanceof Error ? err : new Error(`extraction thread exited (${String(err)})`))
      this.queue.unshift(...held)
      if (!this.closed) this.dispatch()
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`extraction thread exited with code ${code}`)))
    this.slots.push(slot)
    return slot
  }

  private abort(job: Job) {
    const waiting = this.queue.indexOf(job)
    if (waiting >= 0) {
      this.queue.splice(waiting, 1)
      job.reject(job.signal!.reason)
      return
    }
    const slot = this.slots.find((s) => s.jobs.includes(job))
    if (!slot) return
    if (slot.jobs[0] !== job) {
      // Queued at a thread, not started: its answer, when it comes, is ignored.
      slot.jobs.splice(slot.jobs.indexOf(job), 1)
      job.reject(job.signal!.reason)
      return
    }
    const [, ...held] = slot.jobs.splice(0)
    this.slots.splice(this.slots.indexOf(slot), 1)
    this.queue.unshift(...held)
    job.reject(job.signal!.reason)
    void slot.worker.terminate()
    this.dispatch()
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new Error('the extraction pool is closed'))
    await Promise.all(
      this.slots.splice(0).map((s) => {
        for (const j of s.jobs.splice(0)) j.reject(new Error('the extraction pool is closed'))
        return s.worker.terminate()
      }),
    )
  }
}

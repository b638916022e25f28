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
  job?: Job
}

/**
 * The local extractor on a pool of worker threads: extraction is CPU work (up to a second for the largest allowed
 * input), and on the main thread it would stall every request, subscription and lease heartbeat of the process.
 * Requests beyond the pool's size wait in line. A thread that crashes fails only its request and is replaced; an
 * aborted request ends its thread (a thread cannot be interrupted otherwise) and a new one takes its place.
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
      let slot = this.slots.find((s) => !s.job)
      if (!slot && this.slots.length < this.size) slot = this.spawn()
      if (!slot) return
      const job = this.queue.shift()!
      slot.job = job
      slot.worker.postMessage({ id: job.id, req: job.req, now: job.now } satisfies ThreadRequest)
    }
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./extract-thread.mjs', import.meta.url), { execArgv: [] })
    const slot: Slot = { worker }
    worker.unref()
    worker.on('message', (m: ThreadReply | { ready: true }) => {
      if ('ready' in m) return
      const job = slot.job
      if (!job || job.id !== m.id) return
      slot.job = undefined
      if (m.ok) job.resolve(m.result)
      else job.reject(new Error(m.message))
      this.dispatch()
    })
    const gone = (err: unknown) => {
      const i = this.slots.indexOf(slot)
      if (i < 0) return
      this.slots.splice(i, 1)
      slot.job?.reject(err instanceof Error ? err : new Error(`extraction thread exited (${String(err)})`))
      slot.job = undefined
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
    const slot = this.slots.find((s) => s.job === job)
    if (!slot) return
    slot.job = undefined
    this.slots.splice(this.slots.indexOf(slot), 1)
    job.reject(job.signal!.reason)
    void slot.worker.terminate()
    this.dispatch()
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new Error('the extraction pool is closed'))
    await Promise.all(this.slots.splice(0).map((s) => (s.job?.reject(new Error('the extraction pool is closed')), s.worker.terminate())))
  }
}

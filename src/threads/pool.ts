import { Worker } from 'node:worker_threads'

/** A message to a pool thread, and its answer (src/threads/serve.ts answers them in the order they arrive). */
export interface ThreadMessage<Req> {
  id: number
  req: Req
}
export type ThreadAnswer<Res> =
  | { id: number; ok: true; result: Res }
  | { id: number; ok: false; message: string; name?: string }

/** A job that ran past its time limit: its thread was stopped (a thread cannot be interrupted otherwise). */
export class ThreadTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than its limit of ${ms} ms and was stopped`)
    this.name = 'ThreadTimeoutError'
  }
}

export interface RunOptions {
  signal?: AbortSignal
  /** Stop the job (and its thread) when it has run this long. */
  timeoutMs?: number
  /**
   * `background` jobs run after every waiting `normal` one, and only on an idle thread (never queued at a thread behind
   * which a normal job would have to wait): long work (a re-extraction) cannot hold up the work of requests.
   */
  priority?: 'normal' | 'background'
  /**
   * When aborted while it runs, the caller is answered at once but the thread finishes the job (its result ignored)
   * instead of being stopped: for short jobs whose thread is costly to start again (one that loads models). A time
   * limit still stops the thread.
   */
  finishOnAbort?: boolean
}

interface Job<Req, Res> {
  id: number
  req: Req
  resolve(result: Res): void
  reject(error: unknown): void
  opts: RunOptions
  timer?: NodeJS.Timeout
  /** Listens on opts.signal until the job settles (a signal may outlive many jobs: a subscription's). */
  onAbort?: () => void
  /** Answered already (aborted with finishOnAbort): the thread's answer, when it comes, is dropped. */
  answered?: boolean
}

interface Slot<Req, Res> {
  worker: Worker
  /** Sent to the thread, oldest first: it runs them in order, so the first is the one running. */
  jobs: Job<Req, Res>[]
  /** Settles when the thread has run its warm-up job (at once without one). */
  warm: Promise<void>
}

/**
 * CPU work on a pool of worker threads, so that the main thread (requests, subscriptions, lease heartbeats, /healthz)
 * never waits for it. Jobs beyond what the threads hold wait in line; a thread holds up to `pipeline` jobs so it never
 * idles waiting for the main thread to send the next. A thread that crashes fails only the job it was running (the
 * others it held go back to the line) and is replaced; a running job that is aborted or runs past its time limit ends
 * its thread (a thread cannot be interrupted otherwise) and a new one takes its place; a job that only waits is just
 * dropped.
 */
export class ThreadPool<Req, Res> {
  private readonly slots: Slot<Req, Res>[] = []
  private readonly queue: Job<Req, Res>[] = []
  private nextId = 1
  private closed = false

  constructor(
    private readonly options: {
      /** What the pool's work is called in errors ("extraction", "merge"). */
      name: string
      size: number
      /** The thread's module (see threadEntry). */
      entry: URL
      pipeline?: number
      /**
       * The first job of every thread, its answer dropped: it loads what the thread's first real job would otherwise
       * load, so no request pays for a thread's start (nor for the start of one that replaced a stopped thread).
       */
      warmUp?: Req
    },
  ) {}

  run(req: Req, opts: RunOptions = {}): Promise<Res> {
    if (this.closed) return Promise.reject(new Error(`the ${this.options.name} pool is closed`))
    opts.signal?.throwIfAborted()
    return new Promise<Res>((resolve, reject) => {
      const job: Job<Req, Res> = { id: this.nextId++, req, resolve, reject, opts }
      if (opts.signal) {
        job.onAbort = () => this.stop(job, opts.signal!.reason)
        opts.signal.addEventListener('abort', job.onAbort, { once: true })
      }
      if (opts.priority === 'background') this.queue.push(job)
      else {
        // Ahead of every background job that waits.
        const position = this.queue.findIndex((j) => j.opts.priority === 'background')
        if (position < 0) this.queue.push(job)
        else this.queue.splice(position, 0, job)
      }
      this.dispatch()
    })
  }

  /**
   * Starts every thread the pool may hold and resolves once each has run its warm-up job: a service calls it before it
   * says it is ready. Rejects with the first warm-up that failed.
   */
  async prestart(): Promise<void> {
    while (!this.closed && this.slots.length < this.options.size) this.spawn()
    await Promise.all(this.slots.map((slot) => slot.warm))
  }

  /** Threads running now (tests). */
  get threads(): number {
    return this.slots.length
  }

  /** Jobs waiting for a thread, and held by the threads (metrics, tests). */
  get load(): { waiting: number; held: number } {
    return { waiting: this.queue.length, held: this.slots.reduce((n, s) => n + s.jobs.length, 0) }
  }

  private dispatch() {
    const pipeline = this.options.pipeline ?? 1
    while (this.queue.length) {
      const job = this.queue[0]!
      if (job.opts.signal?.aborted) {
        // Its own abort listener has not run yet (a signal shared by several jobs): never start it.
        this.queue.shift()
        this.settle(job)
        job.reject(job.opts.signal.reason)
        continue
      }
      // An idle thread first, then a new one, then (normal jobs only) the least loaded with room in its pipeline,
      // unless it holds a background job: a normal job never waits behind one.
      let slot = this.slots.find((s) => !s.jobs.length)
      if (!slot && this.slots.length < this.options.size) slot = this.spawn()
      if (!slot && job.opts.priority !== 'background') {
        slot = this.slots
          .filter((s) => s.jobs.length < pipeline && !s.jobs.some((j) => j.opts.priority === 'background'))
          .sort((a, b) => a.jobs.length - b.jobs.length)[0]
      }
      if (!slot) return
      this.queue.shift()
      slot.jobs.push(job)
      if (slot.jobs.length === 1) this.started(slot)
      slot.worker.postMessage({ id: job.id, req: job.req } satisfies ThreadMessage<Req>)
    }
  }

  /** The first job of a thread is the one it runs: its time limit starts now. */
  private started(slot: Slot<Req, Res>) {
    const job = slot.jobs[0]
    if (!job?.opts.timeoutMs || job.timer) return
    const ms = job.opts.timeoutMs
    job.timer = setTimeout(() => this.stop(job, new ThreadTimeoutError(this.options.name, ms)), ms)
    job.timer.unref()
  }

  private settle(job: Job<Req, Res>) {
    clearTimeout(job.timer)
    if (job.onAbort) job.opts.signal?.removeEventListener('abort', job.onAbort)
  }

  private spawn(): Slot<Req, Res> {
    const worker = new Worker(this.options.entry, { execArgv: [] })
    const slot: Slot<Req, Res> = { worker, jobs: [], warm: Promise.resolve() }
    worker.unref()
    worker.on('message', (message: ThreadAnswer<Res> | { ready: true }) => {
      if ('ready' in message) return
      const position = slot.jobs.findIndex((j) => j.id === message.id)
      if (position < 0) return // aborted while it waited there
      const [job] = slot.jobs.splice(position, 1)
      this.settle(job!)
      if (job!.answered) {
        // Aborted while running, let finish: nobody waits for this answer.
      } else if (message.ok) job!.resolve(message.result)
      else job!.reject(Object.assign(new Error(message.message), message.name ? { name: message.name } : {}))
      this.started(slot)
      this.dispatch()
    })
    const gone = (err: unknown) => {
      const position = this.slots.indexOf(slot)
      if (position < 0) return
      this.slots.splice(position, 1)
      const [running, ...held] = slot.jobs.splice(0)
      if (running) {
        this.settle(running)
        if (!running.answered)
          running.reject(err instanceof Error ? err : new Error(`${this.options.name} thread exited (${String(err)})`))
      }
      this.queue.unshift(...held)
      if (!this.closed) this.dispatch()
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`${this.options.name} thread exited with code ${code}`)))
    if (this.options.warmUp !== undefined) slot.warm = this.sendWarmUp(slot, this.options.warmUp)
    this.slots.push(slot)
    return slot
  }

  /** Sends a new thread its warm-up job, ahead of any other. */
  private sendWarmUp(slot: Slot<Req, Res>, req: Req): Promise<void> {
    const warm = new Promise<void>((resolve, reject) => {
      const job: Job<Req, Res> = { id: this.nextId++, req, resolve: () => resolve(), reject, opts: {} }
      slot.jobs.push(job)
      slot.worker.postMessage({ id: job.id, req } satisfies ThreadMessage<Req>)
    })
    // Only prestart reports a failed warm-up; a replacement thread's is not awaited by anyone.
    warm.catch(() => undefined)
    return warm
  }

  /** Ends a job with `reason`: dropped if it waits; its thread stopped if it runs. */
  private stop(job: Job<Req, Res>, reason: unknown) {
    this.settle(job)
    if (job.answered) return
    const waiting = this.queue.indexOf(job)
    if (waiting >= 0) {
      this.queue.splice(waiting, 1)
      job.reject(reason)
      return
    }
    const slot = this.slots.find((s) => s.jobs.includes(job))
    if (!slot) return
    if (slot.jobs[0] !== job) {
      // Queued at a thread, not started: its answer, when it comes, is ignored.
      slot.jobs.splice(slot.jobs.indexOf(job), 1)
      job.reject(reason)
      return
    }
    if (job.opts.finishOnAbort && !(reason instanceof ThreadTimeoutError)) {
      // Let the thread finish it (the slot stays busy until then); the caller goes on now.
      job.answered = true
      job.reject(reason)
      return
    }
    const [, ...held] = slot.jobs.splice(0)
    this.slots.splice(this.slots.indexOf(slot), 1)
    // Jobs it held go back to the line, except those aborted by the same signal (a caller's jobs all go at once): sent
    // to a new thread, each would end it in turn.
    for (const h of held.filter((h) => h.opts.signal?.aborted)) {
      this.settle(h)
      h.reject(h.opts.signal!.reason)
    }
    this.queue.unshift(...held.filter((h) => !h.opts.signal?.aborted))
    job.reject(reason)
    void slot.worker.terminate()
    this.dispatch()
  }

  async close(): Promise<void> {
    this.closed = true
    const err = () => new Error(`the ${this.options.name} pool is closed`)
    for (const job of this.queue.splice(0)) {
      this.settle(job)
      job.reject(err())
    }
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        for (const j of slot.jobs.splice(0)) {
          this.settle(j)
          j.reject(err())
        }
        return slot.worker.terminate()
      }),
    )
  }
}

/**
 * A thread's entry module: the compiled one in the build (dist/), or, running from the TypeScript sources (tsx,
 * vitest), a JavaScript shim next to it (threads do not inherit the main thread's loader): it starts the compiled
 * module when dist/ is a current build of the sources, else registers tsx in the thread first (source-entry.mjs).
 * `from` is the caller's import.meta.url; `name` the module's name without extension.
 */
export function threadEntry(from: string, name: string): URL {
  return new URL(from.endsWith('.ts') ? `./${name}.mjs` : `./${name}.js`, from)
}

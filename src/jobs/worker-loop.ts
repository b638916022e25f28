import type { Logger } from 'pino'
import type { JobQueue, QueuedJob } from './queue.js'

export interface WorkerLoopOptions {
  /** Profiles in flight at once in this process. */
  concurrency: number
  /** Jobs taken in one fetch at most (a round). */
  roundSize: number
  /** How long to wait for new work when nothing says there is any. */
  pollMs: number
}

/**
 * Takes jobs from the queue as fast as rounds finish, instead of pg-boss's own loop, which waited out its polling
 * interval after every job (with 0.5 s and 4 workers: 8 jobs a second at most, what the worker drained under load).
 * While there is room it fetches up to a round's worth of jobs and starts a round with them; with nothing queued it
 * sleeps until `wake()` (a profile started processing: the bus's event) or the poll interval.
 */
export class WorkerLoop {
  private inflight = 0
  private running = false
  private done?: Promise<void>
  private sleeper?: { timer: NodeJS.Timeout; resolve: () => void }
  private woken = false
  private pausedUntil = 0

  constructor(
    private readonly queue: JobQueue,
    private readonly opts: WorkerLoopOptions,
    private readonly round: (jobs: QueuedJob[]) => Promise<void>,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.running) return
    this.running = true
    this.done = this.loop()
  }

  /** New work may be queued: fetch now rather than at the next poll. */
  wake(): void {
    this.woken = true
    this.sleeper?.resolve()
  }

  /**
   * Takes no new jobs for `ms` (rounds in flight go on): for when every job this process took would fail the same way
   * (its embedding model unlike the database's), so the queue's jobs go to the other workers meanwhile.
   */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms)
  }

  /** Stops fetching (rounds in flight go on; the processing service waits for them). */
  async stop(): Promise<void> {
    this.running = false
    this.wake()
    await this.done
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const paused = this.pausedUntil - Date.now()
      if (paused > 0) {
        this.woken = false
        await this.sleep(paused)
        continue
      }
      const room = Math.min(this.opts.roundSize, this.opts.concurrency - this.inflight)
      if (room <= 0) {
        await this.sleep() // a round ending wakes us
        continue
      }
      this.woken = false
      let jobs: QueuedJob[] = []
      try {
        jobs = await this.queue.fetch(room)
      } catch (err) {
        this.log.warn({ err }, 'fetching jobs failed')
      }
      if (!this.running) {
        // Taken just as the process stops: back to the queue for a live worker.
        await this.queue
          .fail(
            jobs.map((j) => j.id),
            new Error('the worker is shutting down'),
          )
          .catch(() => undefined)
        return
      }
      if (!jobs.length) {
        if (!this.woken) await this.sleep(this.opts.pollMs)
        continue
      }
      this.inflight += jobs.length
      void this.round(jobs)
        .catch((e) => this.log.warn({ err: e }, 'a processing round failed'))
        .finally(() => {
          this.inflight -= jobs.length
          this.wake()
        })
    }
  }

  private sleep(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.sleeper = undefined
        resolve()
      }
      const timer = setTimeout(done, ms ?? 2_147_483_647)
      this.sleeper = { timer, resolve: done }
      if (this.woken && ms !== undefined) done()
    })
  }
}

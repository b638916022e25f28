import pg from 'pg'
import type { Logger } from 'pino'
import type { ProfileJob } from '../domain/profile.js'
import type { JobQueue } from './queue.js'

/** Advisory lock key of the lead enqueuer ("plea" in ASCII). */
const LEAD_LOCK = 0x706c6561

export interface LeadEnqueuerOptions {
  /** The coordinator's connection string (the lock lives there, beside the queue). */
  url: string
  /** How often a process that does not lead tries again. */
  retryMs: number
  log: Pick<Logger, 'warn' | 'info'>
  /** Called after jobs were enqueued (the worker loop fetches them). */
  onEnqueued: () => void
}

/**
 * On a sharded database (Citus), the jobs of profiles that started processing, enqueued from the status events by one
 * worker process: the lead, which holds an advisory lock on the coordinator. So a POST writes its tenant's shard and
 * no job table, and a burst of POSTs costs the coordinator one insert per batch of events. The other workers try to
 * lead every `retryMs` and take over when the lead's connection ends. An event no one enqueued (no lead at that moment,
 * an API process that ended before it published) is found by the reconciler from its tenant's mark (DueTenants).
 */
export class LeadEnqueuer {
  /** The connection holding the lock, while this process leads. */
  private lock?: pg.Client
  private stopped = false
  private timer?: NodeJS.Timeout
  private readonly pending = new Map<string, ProfileJob>()
  private flushing?: Promise<void>

  constructor(
    private readonly queue: JobQueue,
    private readonly opts: LeadEnqueuerOptions,
  ) {}

  get isLead(): boolean {
    return this.lock !== undefined
  }

  async start(): Promise<void> {
    await this.tryToLead()
  }

  /** A profile started processing: its job, when this process leads (in the next batch). */
  add(job: ProfileJob): void {
    if (!this.lock || this.stopped) return
    this.pending.set(`${job.tenantId}\0${job.profileId}`, job)
    this.flushing ??= this.flush()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.flushing
    const lock = this.lock
    this.lock = undefined
    await lock?.end().catch(() => undefined)
  }

  /** Enqueues what is pending, batch after batch, until nothing is. */
  private async flush(): Promise<void> {
    await Promise.resolve() // the events of one notification arrive together: one batch
    while (this.pending.size) {
      const jobs = [...this.pending.values()]
      this.pending.clear()
      try {
        await this.queue.enqueueMany(jobs)
        this.opts.onEnqueued()
      } catch (err) {
        this.opts.log.warn({ err, jobs: jobs.length }, 'enqueueing jobs failed; the reconciler will')
      }
    }
    this.flushing = undefined
  }

  private async tryToLead(): Promise<void> {
    if (this.stopped) return
    const client = new pg.Client({ connectionString: this.opts.url })
    // Heard, so that a lost connection does not end the process: it ends the lead, and the next try may lead again.
    client.on('error', () => undefined)
    client.on('end', () => this.lost(client))
    try {
      await client.connect()
      const [row] = (await client.query(`SELECT pg_try_advisory_lock($1) AS got`, [LEAD_LOCK])).rows
      if (row.got && !this.stopped) {
        this.lock = client
        this.opts.log.info('this worker enqueues the jobs of new submissions')
        return
      }
    } catch (err) {
      this.opts.log.warn({ err }, 'trying to lead the enqueueing failed')
    }
    await client.end().catch(() => undefined)
    this.retry()
  }

  private lost(client: pg.Client) {
    if (this.lock !== client) return
    this.lock = undefined
    this.retry()
  }

  private retry() {
    if (this.stopped) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.tryToLead(), this.opts.retryMs)
    this.timer.unref()
  }
}

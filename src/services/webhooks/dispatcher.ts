import type { Logger } from 'pino'
import type { DataSource } from 'typeorm'
import type { AttemptOutcome, ClaimedDelivery, WebhookRepository } from '../../db/webhook.repository.js'
import { webhookRetryDelayMs } from '../../domain/webhooks.js'
import type { WebhookDueIndex } from './due-index.js'
import type { SecretBox } from './secrets.js'
import type { SendResult, WebhookSender } from './sender.js'

export interface DeliveryOptions {
  /** Deliveries in flight at once per process. */
  concurrency: number
  /** How often due deliveries are looked for when nothing wakes the dispatcher. */
  pollMs: number
  timeoutMs: number
  retryBaseMs: number
  /** Attempts before a delivery is given up (the first included). */
  maxAttempts: number
  /** Finished deliveries stay in the log this long. */
  logDays: number
}

/**
 * Sends deliveries: claims them (SKIP LOCKED, with a lease: at-least-once, and a receiver dedupes by
 * Profiler-Event-Id), POSTs each signed, logs the attempt and settles it: 2xx delivered; 410 Gone disables the
 * endpoint; anything else is retried with exponential backoff and jitter until the attempts run out. A test delivery is
 * tried once.
 */
export class WebhookDeliverer {
  private readonly leaseSeconds: number
  private readonly stopping = new AbortController()

  constructor(
    private readonly ds: DataSource,
    private readonly repo: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    readonly opts: DeliveryOptions,
    /** On a sharded database: where the poll finds the tenants due (see WebhookDueIndex). */
    private readonly dueIndex?: WebhookDueIndex,
  ) {
    // Past the request's deadline, a claimed delivery is due again: its sender died.
    this.leaseSeconds = Math.ceil(opts.timeoutMs / 1000) + 30
  }

  /**
   * Claims up to `limit` due deliveries, of every tenant (on a sharded database: of the tenants its index says are
   * due) or of the given tenants only; each is returned with its tenant and the promise of its attempt.
   */
  async claimDue(limit: number, tenantIds?: readonly string[]): Promise<{ tenantId: string; done: Promise<void> }[]> {
    let claimed: ClaimedDelivery[]
    if (tenantIds) {
      claimed = await this.repo.claimOf(this.ds.manager, tenantIds, limit, this.leaseSeconds)
      await this.settle(claimed)
    } else if (this.dueIndex) {
      const due = await this.dueIndex.due(limit)
      claimed = await this.repo.claimOf(
        this.ds.manager,
        due.map((t) => t.tenantId),
        limit,
        this.leaseSeconds,
      )
      for (const { tenantId, version } of due) await this.dueIndex.settle(tenantId, version)
    } else {
      claimed = await this.repo.claim(this.ds.manager, limit, this.leaseSeconds)
    }
    return claimed.map((d) => ({ tenantId: d.tenant_id, done: this.attempt(d) }))
  }

  /** Claims that one delivery, if due, and attempts it now; false when it was not due (another process has it). */
  async deliverNow(tenantId: string, id: string): Promise<boolean> {
    const [delivery] = await this.repo.claim(this.ds.manager, 1, this.leaseSeconds, { tenantId, id })
    if (!delivery) return false
    await this.settle([delivery])
    await this.attempt(delivery)
    return true
  }

  /** The tenant may have deliveries due now that no dispatcher was told of (an endpoint enabled again). */
  async markDue(tenantId: string): Promise<void> {
    await this.dueIndex?.mark(tenantId)
  }

  /** On a sharded database: puts every tenant with pending deliveries in the index, from every shard. */
  async rebuildIndex(): Promise<number> {
    return (await this.dueIndex?.rebuild()) ?? 0
  }

  /** Writes the claims' leases into the index, so that another dispatcher takes them up if this one dies. */
  private async settle(claimed: readonly ClaimedDelivery[]): Promise<void> {
    if (!this.dueIndex) return
    for (const tenantId of new Set(claimed.map((d) => d.tenant_id))) await this.dueIndex.settle(tenantId)
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    let result: SendResult
    try {
      const secrets = [this.secrets.open(delivery.secret)]
      if (
        delivery.previous_secret &&
        delivery.previous_secret_until &&
        new Date(delivery.previous_secret_until).getTime() > Date.now()
      ) {
        secrets.push(this.secrets.open(delivery.previous_secret))
      }
      const payload = delivery.payload
      const body = JSON.stringify({
        id: payload.id,
        type: payload.type,
        created_at: payload.created_at,
        data: payload.data,
      })
      result = await this.sender.send(
        {
          url: delivery.url,
          body,
          secrets,
          eventId: delivery.event_id,
          event: delivery.event,
          deliveryId: delivery.id,
          attempt: delivery.attempts,
        },
        this.stopping.signal,
      )
    } catch (err) {
      result = { statusCode: null, error: (err as Error).message, durationMs: 0 }
    }
    const outcome = this.outcome(delivery, result)
    if (outcome.kind !== 'delivered') {
      this.log.info(
        {
          tenantId: delivery.tenant_id,
          endpointId: delivery.endpoint_id,
          deliveryId: delivery.id,
          attempt: delivery.attempts,
          statusCode: result.statusCode,
          err: result.error,
          outcome: outcome.kind,
        },
        'webhook delivery attempt failed',
      )
    }
    try {
      const retryAt = await this.ds.transaction((manager) =>
        this.repo.recordAttempt(
          manager,
          {
            tenantId: delivery.tenant_id,
            id: delivery.id,
            endpointId: delivery.endpoint_id,
            attempt: delivery.attempts,
          },
          result,
          outcome,
        ),
      )
      // Until this mark the tenant's row may be due later than the retry: at the latest when this claim's lease ends.
      if (retryAt !== null) await this.dueIndex?.mark(delivery.tenant_id, retryAt)
    } catch (err) {
      // The lease runs out and the delivery is tried again: at least once.
      this.log.warn({ err, deliveryId: delivery.id }, 'recording a webhook attempt failed')
    }
  }

  private outcome(delivery: ClaimedDelivery, sent: SendResult): AttemptOutcome {
    if (sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300) return { kind: 'delivered' }
    if (sent.statusCode === 410 && !delivery.test)
      return { kind: 'failed', disableEndpoint: `the receiver answered 410 Gone at ${new Date().toISOString()}` }
    if (delivery.test || delivery.attempts >= this.opts.maxAttempts) return { kind: 'failed' }
    return { kind: 'retry', afterMs: webhookRetryDelayMs(delivery.attempts, this.opts.retryBaseMs) }
  }

  /** Ends the attempts in flight now (a shutdown): they are recorded as failed and retried by the schedule. */
  interrupt(): void {
    this.stopping.abort()
  }

  /** Drops finished deliveries older than the log keeps them. */
  async prune(): Promise<number> {
    return this.repo.prune(this.ds.manager, this.opts.logDays)
  }
}

const PRUNE_EVERY_MS = 60 * 60 * 1000

/**
 * The worker's loop over the outbox: keeps up to `concurrency` deliveries in flight, claims more as slots free up,
 * wakes at once when told (new outbox rows committed here or in another process, heard on the event bus) and otherwise
 * polls. Told of a tenant, it claims that tenant's deliveries only. A look at every tenant runs at each poll, at start
 * and when every slot was taken; on a sharded database (Citus) it reads the tenants due from the index
 * (WebhookDueIndex), which it rebuilds from every shard at start, hourly and when its events were interrupted.
 */
export class WebhookDispatcher {
  private readonly inflight = new Set<Promise<void>>()
  private stopped = false
  private running?: Promise<void>
  private wakeUp?: () => void
  private woken = false
  private lastPrune = 0
  /** Tenants told of new deliveries since the last claim. */
  private readonly told = new Set<string>()
  /** The next claim looks at every tenant. */
  private everyTenant = true
  /** The index of due tenants (sharded database) is rebuilt before the next claim. */
  private rebuildDue = true

  constructor(
    private readonly deliverer: WebhookDeliverer,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  start(): void {
    this.running ??= this.loop()
  }

  /** New deliveries may be due: of that tenant, or of any when none is named. */
  wake(tenantId?: string): void {
    if (tenantId === undefined) this.everyTenant = true
    else this.told.add(tenantId)
    this.woken = true
    this.wakeUp?.()
  }

  /** Events may have been missed (the event connection was lost): looks at every tenant's deliveries again. */
  resync(): void {
    this.rebuildDue = true
    this.wake()
  }

  /** Stops claiming, interrupts the attempts in flight and waits for them to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true
    this.wake()
    await this.running
    this.deliverer.interrupt()
    await Promise.allSettled([...this.inflight])
  }

  private async loop(): Promise<void> {
    const { concurrency, pollMs } = this.deliverer.opts
    while (!this.stopped) {
      this.woken = false
      let claimed = 0
      const free = concurrency - this.inflight.size
      // Deliveries may have waited for a slot, of any tenant.
      if (free <= 0) this.everyTenant = true
      const tenants = this.everyTenant ? undefined : [...this.told].sort()
      if (free > 0 && (!tenants || tenants.length)) {
        this.everyTenant = false
        this.told.clear()
        try {
          if (this.rebuildDue) {
            await this.deliverer.rebuildIndex()
            this.rebuildDue = false
          }
          const attempts = await this.deliverer.claimDue(free, tenants)
          claimed = attempts.length
          // Every slot filled: more may be due where these were looked for.
          if (claimed === free) for (const tenantId of tenants ?? []) this.told.add(tenantId)
          if (claimed === free && !tenants) this.everyTenant = true
          for (const { tenantId, done } of attempts) {
            const tracked = done.finally(() => {
              this.inflight.delete(tracked)
              this.wake(tenantId)
            })
            this.inflight.add(tracked)
          }
          if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
            this.lastPrune = Date.now()
            this.rebuildDue = true
            await this.deliverer.prune()
          }
        } catch (err) {
          this.log.warn({ err }, 'webhook dispatch failed; retrying')
        }
      }
      if (this.stopped) break
      // More may be due at once when every free slot was filled; otherwise wait for a wake-up or the next poll.
      if (claimed > 0 && claimed === free) continue
      if (this.woken) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.everyTenant = true
          resolve()
        }, pollMs)
        this.wakeUp = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wakeUp = undefined
    }
  }
}

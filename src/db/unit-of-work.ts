import type { DataSource, EntityManager } from 'typeorm'
import { newEventId, type OutboxEvent } from '../domain/webhooks.js'
import type { BusEvent, EventBus, EventMap, EventName } from '../events/event-bus.js'
import { WebhookRepository } from './webhook.repository.js'

const webhooks = new WebhookRepository()

/** The webhook events a transaction's events call for (src/domain/webhooks.ts). */
export function outboxEvents(events: BusEvent[]): OutboxEvent[] {
  const out: OutboxEvent[] = []
  for (const e of events) {
    if (e.name === 'profileStatusChanged') {
      const payload = e.payload as EventMap['profileStatusChanged']
      if (payload.status === 'processing') continue
      const event = payload.status === 'ready' ? 'profile.ready' : 'profile.deleted'
      out.push({
        tenantId: payload.tenantId,
        eventId: newEventId(),
        event,
        profileId: payload.profileId,
        at: payload.at,
        data: { profile_id: payload.profileId, status: payload.status },
      })
    } else if (e.name === 'submissionFailed') {
      const payload = e.payload as EventMap['submissionFailed']
      out.push({
        tenantId: payload.tenantId,
        eventId: newEventId(),
        event: 'submission.failed',
        profileId: payload.profileId,
        at: payload.at,
        data: { profile_id: payload.profileId, submission_id: payload.submissionId, status: 'failed' },
      })
    }
  }
  return out
}

/**
 * One transaction and what it raised: events, staged in it (a NOTIFY is delivered by PostgreSQL only at commit) and
 * delivered by this process after it commits, and steps this process takes once it has committed. Nothing of a
 * transaction that rolls back is delivered.
 */
export class Transaction {
  readonly events: BusEvent[] = []
  readonly afterCommit: (() => void)[] = []

  constructor(readonly manager: EntityManager) {}

  /** An event of this transaction: delivered if, and once, it commits. */
  raise<K extends EventName>(name: K, payload: EventMap[K]): void {
    this.events.push({ name, payload } as BusEvent)
  }

  /** A step of this process after the commit, before the events go out (e.g. forgetting a revoked key). */
  onCommit(step: () => void): void {
    this.afterCommit.push(step)
  }
}

/** Anything that may carry the transaction it runs in: a request's context, or none (the worker, the CLI). */
export interface InTransaction {
  tx?: Transaction
}

/**
 * Runs use cases in transactions: `run(ctx, fn)` opens one (or joins the one `ctx` carries: a use case that calls
 * another passes `{ ...ctx, tx }`), writes the webhook deliveries its events call for, commits, then delivers what
 * `fn` raised. No service stages and publishes events by
 * hand. The context is never changed: GraphQL resolves the fields of one operation side by side with one context.
 */
export class UnitOfWork {
  constructor(
    private readonly ds: DataSource,
    private readonly bus?: EventBus,
  ) {}

  async run<T>(ctx: InTransaction | undefined, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (ctx?.tx) return fn(ctx.tx) // the outer run commits and delivers
    let tx!: Transaction
    const result = await this.ds.transaction(async (manager) => {
      tx = new Transaction(manager)
      const value = await fn(tx)
      // The webhook outbox: written in this transaction, so its events are sent if, and only if, it commits.
      await webhooks.stage(manager, outboxEvents(tx.events))
      await this.stage(tx)
      return value
    })
    for (const step of tx.afterCommit) step()
    for (const e of tx.events) await this.bus?.committed(e.name, e.payload as never)
    return result
  }

  /** The events of a transaction, in one statement per run of events of the same name, in the order raised. */
  private async stage(tx: Transaction) {
    if (!this.bus) return
    for (let i = 0; i < tx.events.length; ) {
      const name = tx.events[i]!.name
      let runEnd = i
      while (runEnd < tx.events.length && tx.events[runEnd]!.name === name) runEnd++
      await this.bus.stageMany(tx.manager, name, tx.events.slice(i, runEnd).map((e) => e.payload) as never[])
      i = runEnd
    }
  }
}

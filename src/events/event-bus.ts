import { EventEmitter } from 'node:events'
import type { EntityManager } from 'typeorm'

export type ProfileStatus = 'processing' | 'ready'

/** Every event the system raises, by name. Payloads are small; subscribers re-read what they need. */
export interface EventMap {
  /**
   * `seq` orders the events of one profile (profile_status_seq, taken under the profile's row lock); a process delivers
   * a profile's events only in rising order.
   */
  profileStatusChanged: {
    tenantId: string
    profileId: string
    status: ProfileStatus | 'deleted'
    at: string
    seq?: number
  }
  /** A submission failed for good (its last attempt failed); nothing of it was merged. */
  submissionFailed: { tenantId: string; profileId: string; submissionId: string; at: string }
  /** An app's key was rotated or revoked, or the app deleted: connections authenticated with the old key end now. */
  apiKeysRevoked: { tenantId: string; appId: string }
  /**
   * Events of other processes may have been lost (the connection that listens for them broke): whatever is kept in
   * step by events (the API key cache) must be dropped. Raised by the bus itself, never published.
   */
  eventsMissed: { at: string }
}

export type EventName = keyof EventMap
export type Handler<K extends EventName> = (payload: EventMap[K]) => void
export interface BusEvent<K extends EventName = EventName> {
  name: K
  payload: EventMap[K]
}

/**
 * Events are delivered only for transactions that commit. A service either calls `stage` inside its transaction and
 * `committed` after it (the Postgres bus NOTIFYs in `stage`: PostgreSQL delivers a NOTIFY at commit, never on rollback;
 * the in-process bus emits in `committed`), or, for an event it did not stage, `publish` after the commit (the Postgres
 * bus then NOTIFYs from a connection of its own, batched: the POST's hot path, where a NOTIFY in the transaction would
 * serialize every committing POST of the cluster). A profile's status events carry `seq`, which keeps their delivery in
 * order however they travel.
 */
export interface EventBus {
  stage<K extends EventName>(tx: EntityManager, name: K, payload: EventMap[K]): Promise<void>
  /** `stage` for several events of one kind, in one statement. */
  stageMany<K extends EventName>(tx: EntityManager, name: K, payloads: EventMap[K][]): Promise<void>
  committed<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>
  publish<K extends EventName>(name: K, payload: EventMap[K]): void
  subscribe<K extends EventName>(name: K, handler: Handler<K>): () => void
  close(): Promise<void>
}

/** The text of an event as NOTIFY carries it between processes. */
export const EVENT_CHANNEL = 'profiler_events'
export const encodeEvent = <K extends EventName>(name: K, payload: EventMap[K]) => JSON.stringify({ name, payload })
export function decodeEvent(text: string): BusEvent | null {
  try {
    const event = JSON.parse(text) as BusEvent
    return event && typeof event.name === 'string' && event.payload && typeof event.payload === 'object' ? event : null
  } catch {
    return null
  }
}

/**
 * The newest `seq` delivered per profile, so an event that arrives after a newer one of the same profile (published
 * after its commit, it can be overtaken) is dropped rather than delivered out of order. Bounded: the oldest entries go.
 */
export class StatusOrder {
  private readonly newest = new Map<string, number>()
  constructor(private readonly max = 100_000) {}

  /** Whether to deliver the event (events without `seq` always are). */
  admit(change: EventMap['profileStatusChanged']): boolean {
    if (change.seq === undefined) return true
    const key = `${change.tenantId}\u0000${change.profileId}`
    const last = this.newest.get(key)
    if (last !== undefined && change.seq <= last) return false
    this.newest.delete(key)
    this.newest.set(key, change.seq)
    if (this.newest.size > this.max) this.newest.delete(this.newest.keys().next().value!)
    return true
  }
}

/** In-process bus: embedded mode (NOTIFY does not cross pglite connections), and local fan-out. */
export class MemoryEventBus implements EventBus {
  protected readonly emitter = new EventEmitter().setMaxListeners(0)
  private readonly order = new StatusOrder()

  async stage<K extends EventName>(tx: EntityManager, name: K, payload: EventMap[K]): Promise<void> {
    await this.stageMany(tx, name, [payload])
  }

  async stageMany<K extends EventName>(_tx: EntityManager, _name: K, _payloads: EventMap[K][]): Promise<void> {}

  async committed<K extends EventName>(name: K, payload: EventMap[K]): Promise<void> {
    this.emit(name, payload)
  }

  publish<K extends EventName>(name: K, payload: EventMap[K]): void {
    this.emit(name, payload)
  }

  protected emit<K extends EventName>(name: K, payload: EventMap[K]) {
    if (name === 'profileStatusChanged' && !this.order.admit(payload as EventMap['profileStatusChanged'])) return
    this.emitter.emit(name, payload)
  }

  subscribe<K extends EventName>(name: K, handler: Handler<K>): () => void {
    this.emitter.on(name, handler)
    return () => this.emitter.off(name, handler)
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners()
  }
}

/**
 * The embedded database's bus: this process's own events travel in process (as in MemoryEventBus), and events that
 * another process (the CLI, through the embedded server's socket) NOTIFYs are delivered too: the embedded server
 * finds them in that connection's replies (`PGliteServer.onNotification`), since PGlite has no LISTEN across
 * connections.
 */
export class EmbeddedEventBus extends MemoryEventBus {
  /** A NOTIFY on the events channel, as the embedded server saw it go by. */
  receive(channel: string, text: string): void {
    if (channel !== EVENT_CHANNEL) return
    const event = decodeEvent(text)
    if (event && event.name !== 'eventsMissed') this.emit(event.name, event.payload as never)
  }
}

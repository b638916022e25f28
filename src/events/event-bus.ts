import { EventEmitter } from 'node:events'
import type { EntityManager } from 'typeorm'

export type ProfileStatus = 'processing' | 'ready'

/** Every event the system raises, by name. Payloads are small; subscribers re-read what they need. */
export interface EventMap {
  profileStatusChanged: { tenantId: string; profileId: string; status: ProfileStatus | 'deleted'; at: string }
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
 * Events are delivered only for transactions that commit, in commit order. A service calls `stage` inside its
 * transaction and `committed` after it: the Postgres bus NOTIFYs in `stage` (PostgreSQL delivers a NOTIFY at
 * commit, never on rollback), the in-process bus emits in `committed`.
 */
export interface EventBus {
  stage<K extends EventName>(tx: EntityManager, name: K, payload: EventMap[K]): Promise<void>
  /**
   * For a caller that stages an event inside one SQL statement of its own: the SQL expression that stages the event whose
   * `encodeEvent` text is in the given parameter, or null when this bus stages nothing in SQL (it delivers on `committed`).
   */
  stageExpression(textParam: string): string | null
  committed<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>
  subscribe<K extends EventName>(name: K, handler: Handler<K>): () => void
  close(): Promise<void>
}

/** The text of an event as NOTIFY carries it between processes. */
export const EVENT_CHANNEL = 'profiler_events'
export const encodeEvent = <K extends EventName>(name: K, payload: EventMap[K]) => JSON.stringify({ name, payload })
export function decodeEvent(text: string): BusEvent | null {
  try {
    const e = JSON.parse(text) as BusEvent
    return e && typeof e.name === 'string' && e.payload && typeof e.payload === 'object' ? e : null
  } catch {
    return null
  }
}

/** Stage a list of events in a transaction, then report them after it commits. */
export async function publishAfterCommit(bus: EventBus, events: BusEvent[]): Promise<void> {
  for (const e of events) await bus.committed(e.name, e.payload)
}

/** In-process bus: embedded mode (NOTIFY does not cross pglite connections), and local fan-out. */
export class MemoryEventBus implements EventBus {
  protected readonly emitter = new EventEmitter().setMaxListeners(0)

  async stage<K extends EventName>(_tx: EntityManager, _name: K, _payload: EventMap[K]): Promise<void> {}

  stageExpression(_textParam: string): string | null {
    return null
  }

  async committed<K extends EventName>(name: K, payload: EventMap[K]): Promise<void> {
    this.emit(name, payload)
  }

  protected emit<K extends EventName>(name: K, payload: EventMap[K]) {
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
    const e = decodeEvent(text)
    if (e && e.name !== 'eventsMissed') this.emit(e.name, e.payload as never)
  }
}

import { EventEmitter } from 'node:events'
import type { EntityManager } from 'typeorm'

export type ProfileStatus = 'processing' | 'ready'

/** Every event the system raises, by name. Payloads are small; subscribers re-read what they need. */
export interface EventMap {
  profileStatusChanged: { tenantId: string; profileId: string; status: ProfileStatus | 'deleted'; at: string }
  /** An app's key was rotated or revoked, or the app deleted: connections authenticated with the old key end now. */
  apiKeysRevoked: { tenantId: string; appId: string }
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
  committed<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>
  subscribe<K extends EventName>(name: K, handler: Handler<K>): () => void
  close(): Promise<void>
}

/** Stage a list of events in a transaction, then report them after it commits. */
export async function publishAfterCommit(bus: EventBus, events: BusEvent[]): Promise<void> {
  for (const e of events) await bus.committed(e.name, e.payload)
}

/** In-process bus: embedded mode (NOTIFY does not cross pglite connections), and local fan-out. */
export class MemoryEventBus implements EventBus {
  protected readonly emitter = new EventEmitter().setMaxListeners(0)

  async stage<K extends EventName>(_tx: EntityManager, _name: K, _payload: EventMap[K]): Promise<void> {}

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

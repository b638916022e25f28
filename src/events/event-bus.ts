import { EventEmitter } from 'node:events'

export type ProfileStatus = 'processing' | 'ready'

/** Every event the system raises, by name. Payloads are small; subscribers re-read what they need. */
export interface EventMap {
  profileStatusChanged: { tenantId: string; profileId: string; status: ProfileStatus | 'deleted'; at: string }
}

export type EventName = keyof EventMap
export type Handler<K extends EventName> = (payload: EventMap[K]) => void

export interface EventBus {
  /** Call only after the transaction that caused the event has committed. */
  publish<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>
  subscribe<K extends EventName>(name: K, handler: Handler<K>): () => void
  close(): Promise<void>
}

/** In-process bus: embedded mode, and the local fan-out of the Postgres bus. */
export class MemoryEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0)

  async publish<K extends EventName>(name: K, payload: EventMap[K]): Promise<void> {
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

import pg from 'pg'
import type { EntityManager } from 'typeorm'
import type { Logger } from 'pino'
import { decodeEvent, encodeEvent, EVENT_CHANNEL, MemoryEventBus, type EventMap, type EventName } from './event-bus.js'

/**
 * Events across processes with LISTEN/NOTIFY: any API process receives what any worker raised. Every process,
 * the publisher included, receives its own events through LISTEN, so there is one delivery path.
 */
export class PostgresEventBus extends MemoryEventBus {
  private client?: pg.Client
  private closed = false
  private retry?: NodeJS.Timeout

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {
    super()
  }

  async start(): Promise<void> {
    await this.connect()
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url })
    client.on('notification', (msg) => {
      if (msg.channel !== EVENT_CHANNEL || !msg.payload) return
      const e = decodeEvent(msg.payload)
      if (e && e.name !== 'eventsMissed') this.emit(e.name, e.payload as never)
      else this.log.warn('ignored a malformed event notification')
    })
    client.on('error', (e) => {
      this.log.warn({ err: e }, 'event listener connection lost; reconnecting')
      this.reconnectSoon()
    })
    client.on('end', () => this.reconnectSoon())
    await client.connect()
    await client.query(`LISTEN ${EVENT_CHANNEL}`)
    this.client = client
  }

  private reconnectSoon() {
    if (this.closed || this.retry) return
    // What other processes raise until the listener is back is lost: tell whoever keeps state in step by events, now
    // and again once it listens (what they learnt meanwhile may be stale too).
    const missed = () => this.emit('eventsMissed', { at: new Date().toISOString() })
    if (this.client) missed()
    this.client = undefined
    this.retry = setTimeout(() => {
      this.retry = undefined
      this.connect().then(missed, () => this.reconnectSoon())
    }, 1000)
  }

  override async stage<K extends EventName>(tx: EntityManager, name: K, payload: EventMap[K]): Promise<void> {
    await tx.query(`SELECT pg_notify($1, $2)`, [EVENT_CHANNEL, encodeEvent(name, payload)])
  }

  override stageExpression(textParam: string): string {
    return `pg_notify('${EVENT_CHANNEL}', ${textParam})`
  }

  /** Delivered by the NOTIFY staged in the transaction. */
  override async committed<K extends EventName>(_name: K, _payload: EventMap[K]): Promise<void> {}

  override async close(): Promise<void> {
    this.closed = true
    if (this.retry) clearTimeout(this.retry)
    await this.client?.end().catch(() => undefined)
    await super.close()
  }
}

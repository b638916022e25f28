import pg from 'pg'
import type { EntityManager } from 'typeorm'
import type { Logger } from 'pino'
import { decodeEvent, encodeEvent, EVENT_CHANNEL, MemoryEventBus, type EventMap, type EventName } from './event-bus.js'

/** Events published after their commit that wait for the listener connection (while it is down, say) at most. */
const MAX_UNSENT = 10_000
const PUBLISH_GATHER_MS = 2
const NOTIFY_MANY = `SELECT pg_notify($1, e) FROM unnest($2::text[]) WITH ORDINALITY AS x(e, i) ORDER BY i`

/**
 * Events across processes with LISTEN/NOTIFY: any API process receives what any worker raised. Every process,
 * the publisher included, receives its own events through LISTEN, so there is one delivery path.
 *
 * `publish` (an event not staged in its transaction) NOTIFYs from the listening connection itself, in batches: one
 * statement for whatever waits, then the next, with synchronous_commit off (a notification-only transaction has
 * nothing to make durable). A NOTIFY in a transaction holds PostgreSQL's notification lock through the commit's flush,
 * which serialized every committing POST of the cluster: measured with pgbench, the POST's statement went from 6,900 to
 * 3,200 transactions per second with one.
 */
export class PostgresEventBus extends MemoryEventBus {
  private client?: pg.Client
  private closed = false
  private retry?: NodeJS.Timeout
  private unsent: string[] = []
  private sending?: Promise<void>
  private dropped = 0

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
      const event = decodeEvent(msg.payload)
      if (event && event.name !== 'eventsMissed') this.emit(event.name, event.payload as never)
      else this.log.warn('ignored a malformed event notification')
    })
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'event listener connection lost; reconnecting')
      this.reconnectSoon()
    })
    client.on('end', () => this.reconnectSoon())
    await client.connect()
    await client.query(`SET synchronous_commit = off`)
    await client.query(`LISTEN ${EVENT_CHANNEL}`)
    this.client = client
    void this.send()
  }

  override publish<K extends EventName>(name: K, payload: EventMap[K]): void {
    this.unsent.push(encodeEvent(name, payload))
    if (this.unsent.length > MAX_UNSENT) {
      this.dropped += this.unsent.length - MAX_UNSENT
      this.unsent.splice(0, this.unsent.length - MAX_UNSENT)
    }
    // A moment's wait gathers what a busy API publishes into one statement.
    if (!this.sending && !this.gathering)
      this.gathering = setTimeout(() => ((this.gathering = undefined), void this.send()), PUBLISH_GATHER_MS)
  }
  private gathering?: NodeJS.Timeout

  /** Sends what waits, one statement at a time; what publish adds meanwhile goes in the next one. */
  private send(): Promise<void> {
    if (this.sending || !this.unsent.length || !this.client) return this.sending ?? Promise.resolve()
    const client = this.client
    this.sending = (async () => {
      try {
        while (this.unsent.length && this.client === client) {
          if (this.dropped) {
            this.log.warn({ dropped: this.dropped }, 'status events dropped while the event connection was unavailable')
            this.dropped = 0
          }
          const batch = this.unsent.splice(0, 500)
          try {
            await client.query(NOTIFY_MANY, [EVENT_CHANNEL, batch])
          } catch (err) {
            // The connection broke: the batch waits for the next one (reconnectSoon sends it).
            this.unsent.unshift(...batch)
            this.log.warn({ err }, 'publishing events failed; retrying on the next connection')
            return
          }
        }
      } finally {
        this.sending = undefined
      }
    })()
    return this.sending
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

  override async stageMany<K extends EventName>(tx: EntityManager, name: K, payloads: EventMap[K][]): Promise<void> {
    if (payloads.length === 1)
      await tx.query(`SELECT pg_notify($1, $2)`, [EVENT_CHANNEL, encodeEvent(name, payloads[0]!)])
    else if (payloads.length) await tx.query(NOTIFY_MANY, [EVENT_CHANNEL, payloads.map((p) => encodeEvent(name, p))])
  }

  /** Delivered by the NOTIFY staged in the transaction. */
  override async committed<K extends EventName>(_name: K, _payload: EventMap[K]): Promise<void> {}

  override async close(): Promise<void> {
    // What was published before the close still goes out (the API has stopped taking requests by now).
    clearTimeout(this.gathering)
    this.gathering = undefined
    await this.send()
    this.closed = true
    if (this.retry) clearTimeout(this.retry)
    await this.client?.end().catch(() => undefined)
    await super.close()
  }
}

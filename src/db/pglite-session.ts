import net from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket'

const SYNC = 0x53 // 'S'
const QUERY = 0x51 // 'Q'
const TERMINATE = 0x58 // 'X'

interface Item {
  handlerId: number
  message: Uint8Array
  onData: (data: Uint8Array) => void
  resolve: (n: number) => void
  reject: (e: unknown) => void
}

/**
 * Schedules the wire-protocol messages of many connections onto PGlite's single session.
 *
 * pglite-socket 0.2's own queue interleaves individual messages, so one connection's Bind can land on another's
 * unnamed Parse and results get crossed under concurrency. Here a connection owns the session from its first
 * message until a Sync or simple Query completes outside a transaction (or until its transaction ends), which is
 * what a real backend per connection would give it.
 */
export class SessionScheduler {
  private readonly waiting: Item[] = []
  private owner: number | null = null
  private running = false

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ handlerId, message, onData, resolve, reject })
      void this.pump()
    })
  }

  getQueueLength(): number {
    return this.waiting.length
  }

  clearQueueForHandler(handlerId: number): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i]!.handlerId === handlerId) this.waiting.splice(i, 1)[0]!.reject(new Error('Handler disconnected'))
    }
  }

  /** A connection that goes away while it owns the session: roll back what it left open, free the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined)
    this.owner = null
    void this.pump()
  }

  private next(): Item | undefined {
    if (this.owner === null) return this.waiting.shift()
    const i = this.waiting.findIndex((w) => w.handlerId === this.owner)
    return i < 0 ? undefined : this.waiting.splice(i, 1)[0]
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      for (let item = this.next(); item; item = this.next()) {
        this.owner = item.handlerId
        let bytes = 0
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (d: Uint8Array) => {
                bytes += d.length
                item!.onData(d)
              },
            }),
          )
          item.resolve(bytes)
        } catch (e) {
          item.reject(e)
        }
        const type = item.message[0]
        const startup = item.message.length >= 8 && type === 0 // startup packets start with a length, not a type
        if ((startup || type === SYNC || type === QUERY || type === TERMINATE) && !this.db.isInTransaction()) this.owner = null
      }
    } finally {
      this.running = false
    }
  }
}

/** A loopback TCP server speaking the Postgres protocol to PGlite, one scheduled session for all connections. */
export class PGliteServer {
  private server?: net.Server
  private readonly handlers = new Set<PGLiteSocketHandler>()
  private readonly scheduler: SessionScheduler

  constructor(private readonly db: PGlite) {
    this.scheduler = new SessionScheduler(db)
  }

  async start(port = 0): Promise<number> {
    await this.db.waitReady
    this.server = net.createServer((socket) => {
      const handler = new PGLiteSocketHandler({ db: this.db, closeOnDetach: true, queryQueue: this.scheduler } as any)
      this.handlers.add(handler)
      const drop = () => this.handlers.delete(handler)
      handler.addEventListener('close', drop)
      handler.addEventListener('error', drop)
      handler.attach(socket).catch(() => {
        drop()
        socket.destroy()
      })
    })
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject)
      this.server!.listen(port, '127.0.0.1', () => resolve())
    })
    return (this.server.address() as net.AddressInfo).port
  }

  async stop(): Promise<void> {
    for (const h of this.handlers) await h.detach(true)
    this.handlers.clear()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}

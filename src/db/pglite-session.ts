import net from 'node:net'
import type { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket'

const SYNC = 0x53 // 'S'
const QUERY = 0x51 // 'Q'
const TERMINATE = 0x58 // 'X'
const NOTIFICATION = 0x41 // 'A' (NotificationResponse)

export type NotificationHandler = (channel: string, payload: string) => void

/**
 * Finds NotificationResponse messages in the backend's replies to one request, across chunk boundaries. PGlite has one
 * session: a NOTIFY committed by any connection comes back in that connection's own reply (the session listens to
 * itself), and no other connection sees it; reading it here is how this process learns of another's NOTIFY.
 */
export class NotificationScanner {
  private readonly header = new Uint8Array(5)
  private headerLen = 0
  private remaining = 0
  private body: Uint8Array | null = null
  private filled = 0

  constructor(private readonly onNotification: NotificationHandler) {}

  push(chunk: Uint8Array): void {
    let offset = 0
    while (offset < chunk.length) {
      if (this.remaining === 0) {
        const take = Math.min(5 - this.headerLen, chunk.length - offset)
        this.header.set(chunk.subarray(offset, offset + take), this.headerLen)
        this.headerLen += take
        offset += take
        if (this.headerLen < 5) return
        this.headerLen = 0
        const length = new DataView(this.header.buffer).getInt32(1) - 4
        if (length <= 0) continue
        this.remaining = length
        this.body = this.header[0] === NOTIFICATION && length <= 1 << 20 ? new Uint8Array(length) : null
        this.filled = 0
        continue
      }
      const take = Math.min(this.remaining, chunk.length - offset)
      if (this.body) this.body.set(chunk.subarray(offset, offset + take), this.filled)
      this.filled += take
      this.remaining -= take
      offset += take
      if (this.remaining === 0 && this.body) {
        this.emit(this.body)
        this.body = null
      }
    }
  }

  /** Int32 sender pid, then channel and payload, each NUL-terminated. */
  private emit(body: Uint8Array) {
    const channelEnd = body.indexOf(0, 4)
    const payloadEnd = body.indexOf(0, channelEnd + 1)
    if (channelEnd < 0 || payloadEnd < 0) return
    const text = new TextDecoder()
    this.onNotification(
      text.decode(body.subarray(4, channelEnd)),
      text.decode(body.subarray(channelEnd + 1, payloadEnd)),
    )
  }
}

/** How long the scheduler runs statements back to back before it yields to the event loop. */
const YIELD_AFTER_MS = 5

interface Item {
  handlerId: number
  message: Uint8Array
  onData: (data: Uint8Array) => void
  resolve: (bytes: number) => void
  reject: (error: unknown) => void
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
  /** Told of every NOTIFY any connection commits. */
  onNotification?: NotificationHandler

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
      if (this.waiting[i]!.handlerId === handlerId)
        this.waiting.splice(i, 1)[0]!.reject(new Error('Handler disconnected'))
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
    const position = this.waiting.findIndex((w) => w.handlerId === this.owner)
    return position < 0 ? undefined : this.waiting.splice(position, 1)[0]
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    let slice = performance.now()
    try {
      for (let item = this.next(); item; item = this.next()) {
        // The engine runs on this thread: after a few milliseconds of statements back to back, let the event loop
        // answer what needs no database (/healthz, timers, sockets) before the next one.
        if (performance.now() - slice > YIELD_AFTER_MS) {
          await new Promise<void>((r) => setImmediate(r))
          slice = performance.now()
        }
        this.owner = item.handlerId
        let bytes = 0
        const scanner = this.onNotification ? new NotificationScanner(this.onNotification) : undefined
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item!.message, {
              onRawData: (chunk: Uint8Array) => {
                bytes += chunk.length
                scanner?.push(chunk)
                item!.onData(chunk)
              },
            }),
          )
          item.resolve(bytes)
        } catch (err) {
          item.reject(err)
        }
        const type = item.message[0]
        const startup = item.message.length >= 8 && type === 0 // startup packets start with a length, not a type
        if ((startup || type === SYNC || type === QUERY || type === TERMINATE) && !this.db.isInTransaction())
          this.owner = null
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

  /** Every NOTIFY that a connection commits (PGlite delivers none to other connections). */
  onNotification(handler: NotificationHandler): void {
    this.scheduler.onNotification = handler
  }

  stats(): { connections: number; queued: number } {
    return { connections: this.handlers.size, queued: this.scheduler.getQueueLength() }
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

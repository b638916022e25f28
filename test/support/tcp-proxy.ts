import net from 'node:net'

/** A loopback TCP proxy the test can cut and restore, to make the database unreachable for real. */
export class TcpProxy {
  private server?: net.Server
  private sockets = new Set<net.Socket>()
  private cut = false
  port = 0

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      if (this.cut) return client.destroy()
      const upstream = net.connect({ host: this.targetHost, port: this.targetPort })
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('close', () => this.sockets.delete(s))
        s.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r))
    this.port = (this.server!.address() as net.AddressInfo).port
  }

  /** Drops every open connection and refuses new ones. */
  disconnect(): void {
    this.cut = true
    for (const s of this.sockets) s.destroy()
  }

  reconnect(): void {
    this.cut = false
  }

  async stop(): Promise<void> {
    this.disconnect()
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r())
  }
}

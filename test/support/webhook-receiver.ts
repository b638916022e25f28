import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  raw: Buffer
  body: any
}

export type ReceiverMode = 'ok' | 'hang' | 'huge-error' | 'huge-ok' | 'gone' | 'redirect' | 'error'

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers as its mode says. It can be
 * taken down and brought back on the same port (downtime).
 */
export class TestReceiver {
  readonly received: Received[] = []
  mode: ReceiverMode = 'ok'
  port = 0
  private server?: http.Server
  private readonly sockets = new Set<import('node:net').Socket>()

  async start(port = 0): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const raw = Buffer.concat(chunks)
        let body: any = null
        try {
          body = JSON.parse(raw.toString('utf8'))
        } catch {
          body = raw.toString('utf8')
        }
        this.received.push({ path: req.url ?? '', headers: req.headers, raw, body })
        this.answer(res)
      })
    })
    server.on('connection', (s) => {
      this.sockets.add(s)
      s.on('close', () => this.sockets.delete(s))
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => resolve())
    })
    this.server = server
    this.port = (server.address() as AddressInfo).port
    return this
  }

  private answer(res: http.ServerResponse) {
    switch (this.mode) {
      case 'ok':
        return void res.writeHead(204).end()
      case 'hang':
        return // never answers
      case 'gone':
        return void res.writeHead(410).end('gone')
      case 'error':
        return void res.writeHead(500).end('receiver broke')
      case 'redirect':
        return void res.writeHead(302, { location: `http://127.0.0.1:${this.port}/elsewhere` }).end()
      case 'huge-ok':
      case 'huge-error': {
        // 64 MB, streamed as fast as the client reads it: the sender must not read it all.
        res.writeHead(this.mode === 'huge-ok' ? 200 : 500, { 'content-type': 'text/plain' })
        const chunk = Buffer.alloc(64 * 1024, 'x')
        let left = 1024
        const write = () => {
          while (left > 0) {
            left--
            if (!res.write(chunk)) return void res.once('drain', write)
          }
          res.end()
        }
        res.on('error', () => undefined)
        return write()
      }
    }
  }

  get running(): boolean {
    return !!this.server
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  /** Down: the port refuses connections until `start(port)` again. */
  async stop(): Promise<void> {
    const s = this.server
    this.server = undefined
    if (!s) return
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }

  of(type: string): Received[] {
    return this.received.filter((r) => r.body?.type === type)
  }
}

import fs from 'node:fs'
import http from 'node:http'
import type { Socket } from 'node:net'
import type { HttpConfig } from '../config.js'
import { addressKey } from '../domain/addresses.js'
import type { ClientAddresses } from './client-address.js'

/** Why a connection was closed before it carried a request (the metric's label). */
export type RefusedConnection = 'per_address' | 'total' | 'headers_timeout'

/** The process's soft limit of open files (Linux: /proc/self/limits), or null when it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'))
    return line && line[1] !== 'unlimited' ? Number(line[1]) : null
  } catch {
    return null
  }
}

/**
 * The cap on open connections: as configured, or else below the open-file limit by a fifth of it (at least 256 files,
 * at most half of them), which the database pool, the files and the outgoing requests of the process keep for
 * themselves. 0: no cap.
 */
export function connectionCap(config: HttpConfig, fileLimit = openFileLimit()): number {
  if (config.maxConnections !== undefined) return config.maxConnections
  if (!fileLimit) return 0
  return Math.max(Math.floor(fileLimit / 2), fileLimit - Math.max(256, Math.floor(fileLimit / 5)))
}

/**
 * The API's HTTP server (Fastify's serverFactory), bounded for clients that hold connections without using them:
 *
 * - A connection must deliver a complete request head within `headersTimeoutMs` of opening, and each later request on
 * it within that time of its first byte; it is answered 408 and closed otherwise. Node checks this for connections
 * that never send a byte too, every `connectionsCheckingInterval`: a tenth of the timeout here, not 30 s.
 * - Between two requests a keep-alive connection may idle `keepAliveTimeoutMs` (Node adds a second).
 * - Neither timeout reaches an answer being written (a streamed NDJSON export, however long) nor an upgraded
 * WebSocket: Node stops tracking a connection's request once its head and body are in, and hands an upgraded
 * socket over with no timeout.
 * - A client address (an IPv6 /64) holds at most `maxConnectionsPerAddress` connections; one more is closed at once.
 * Connections from a trusted proxy are not counted by the proxy's address, which stands for all its clients, and
 * the client address is not known before a request arrives: the proxy caps its clients' connections
 * (deploy/nginx.conf), and the service still caps the total.
 * - At most `cap` connections in all (net.Server's maxConnections): beyond, new ones are closed at once, so held
 * connections cannot use up the process's file handles.
 */
export function boundedServerFactory(
  config: HttpConfig,
  addresses: ClientAddresses,
  opts: { cap: number; onRefused?: (why: RefusedConnection) => void },
) {
  return (handler: http.RequestListener): http.Server => {
    const server = http.createServer(
      {
        headersTimeout: config.headersTimeoutMs,
        // The whole request, body included, is not bounded in time: an import streams up to a gigabyte.
        requestTimeout: 0,
        keepAliveTimeout: config.keepAliveTimeoutMs,
        connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 10))),
      },
      handler,
    )
    if (opts.cap > 0) {
      server.maxConnections = opts.cap
      server.on('drop', () => opts.onRefused?.('total'))
    }
    if (opts.onRefused) {
      server.on('clientError', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') opts.onRefused!('headers_timeout')
      })
    }
    const perAddress = config.maxConnectionsPerAddress
    if (perAddress > 0) capPerAddress(server, perAddress, addresses, opts.onRefused)
    return server
  }
}

/** Closes a connection at once when its address already holds `max` (before the HTTP server sets it up). */
function capPerAddress(
  server: http.Server,
  max: number,
  addresses: ClientAddresses,
  onRefused?: (why: RefusedConnection) => void,
) {
  const open = new Map<string, number>()
  server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress
    if (!peer || addresses.isProxy(peer)) return
    const key = addressKey(peer)
    const held = open.get(key) ?? 0
    if (held >= max) {
      socket.destroy()
      onRefused?.('per_address')
      return
    }
    open.set(key, held + 1)
    socket.once('close', () => {
      const left = open.get(key)! - 1
      if (left > 0) open.set(key, left)
      else open.delete(key)
    })
  })
}

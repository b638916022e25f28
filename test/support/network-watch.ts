import dgram from 'node:dgram'
import diagnostics from 'node:diagnostics_channel'
import net from 'node:net'

/**
 * Everything this process sends over the network while watched: every TCP connection (whatever opens it: fetch,
 * node:http, pg, tls), every fetch, every UDP datagram. Used to prove that nothing but the configured provider is
 * called (tests and benches).
 */
export interface Connection {
  host: string
  port: number
}

export function watchNetwork() {
  const connections: Connection[] = []
  const fetches: string[] = []
  const datagrams: string[] = []
  // Socket.prototype.connect sees every TCP connection (undici/fetch, node:http, pg, tls) whatever opens it.
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0] as unknown
    const opts = (Array.isArray(first) ? first[0] : first) as
      | { host?: string; port?: number; path?: string }
      | number
      | string
    if (typeof opts === 'object' && opts && !opts.path)
      connections.push({ host: opts.host ?? 'localhost', port: Number(opts.port) })
    else if (typeof opts === 'number' || (typeof opts === 'string' && /^\d+$/.test(opts))) {
      connections.push({ host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(opts) })
    }
    return connect.apply(this, args)
  } as typeof net.Socket.prototype.connect
  const send = dgram.Socket.prototype.send as (...args: unknown[]) => void
  dgram.Socket.prototype.send = function (this: dgram.Socket, ...args: unknown[]) {
    datagrams.push(
      args
        .map((a) => (typeof a === 'string' || typeof a === 'number' ? String(a) : ''))
        .filter(Boolean)
        .join(' '),
    )
    return send.apply(this, args)
  } as typeof dgram.Socket.prototype.send
  const onFetch = (msg: unknown) => {
    const r = (msg as { request: { origin: string | URL; path: string } }).request
    fetches.push(`${String(r.origin)}${r.path}`)
  }
  diagnostics.subscribe('undici:request:create', onFetch)
  return {
    connections,
    fetches,
    datagrams,
    stop() {
      net.Socket.prototype.connect = connect as typeof net.Socket.prototype.connect
      dgram.Socket.prototype.send = send as typeof dgram.Socket.prototype.send
      diagnostics.unsubscribe('undici:request:create', onFetch)
    },
  }
}

import type { IncomingMessage } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'

/** proxy-addr's trust function: whether the address `hop` steps from the service is a trusted proxy. */
export type TrustFunction = (address: string, hop: number) => boolean

/**
 * Whose address a request comes from, the same for HTTP requests (Fastify's `request.ip`, given `trust`), WebSocket
 * upgrades and connections. Without trusted proxies it is the socket's peer. Behind them it is the first address,
 * walking X-Forwarded-For from the right (nearest hop first), that is not a trusted proxy: what a client writes into
 * the header itself sits further left and is never reached, since the trusted proxy appends the address it saw.
 */
export class ClientAddresses {
  /** Undefined when no proxy is trusted. */
  readonly trust?: TrustFunction

  constructor(trustedProxies: string[]) {
    this.trust = trustedProxies.length ? proxyAddr.compile(trustedProxies) : undefined
  }

  /** The client address of a request or an upgrade ('' once its socket is gone). */
  of(req: IncomingMessage): string {
    if (!this.trust || !req.socket?.remoteAddress) return req.socket?.remoteAddress ?? ''
    return proxyAddr(req, this.trust)
  }

  /** Whether a socket's peer is a trusted proxy: its connections carry many clients, known only from their requests. */
  isProxy(peer: string): boolean {
    return this.trust?.(peer, 0) ?? false
  }
}

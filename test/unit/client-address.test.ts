// Whose address a request comes from, and what every per-address limit counts it under.
import http from 'node:http'
import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { addressKey } from '../../src/domain/addresses.js'
import { ClientAddresses } from '../../src/http/client-address.js'
import { connectionCap } from '../../src/http/connections.js'

/** A request as the server sees it: from socket address `peer`, with `forwardedFor` as X-Forwarded-For. */
function request(peer: string, forwardedFor?: string): http.IncomingMessage {
  const socket = new Socket()
  Object.defineProperty(socket, 'remoteAddress', { value: peer })
  const req = new http.IncomingMessage(socket)
  if (forwardedFor !== undefined) req.headers['x-forwarded-for'] = forwardedFor
  return req
}

describe('addressKey', () => {
  it('an IPv4 address as it is, also written IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7')
  })

  it('an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:1:2::/64'
    const written = [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2::a',
      '2001:db8:1:2::1%eth0',
    ]
    for (const a of written) expect(addressKey(a), a).toBe(key)
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64')
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })

  it('anything else as it is (an empty address of a gone socket)', () => {
    expect(addressKey('')).toBe('')
    expect(addressKey('not an address')).toBe('not an address')
  })
})

describe('ClientAddresses', () => {
  it('without trusted proxies: the socket, whatever X-Forwarded-For says', () => {
    const a = new ClientAddresses([])
    expect(a.of(request('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1')
    expect(a.isProxy('198.51.100.1')).toBe(false)
  })

  it('behind trusted proxies: the rightmost address that is not one; a direct client is not believed', () => {
    const a = new ClientAddresses(['10.0.0.0/8', '192.0.2.10'])
    expect(a.of(request('10.0.0.5', '203.0.113.9'))).toBe('203.0.113.9')
    // What the client wrote itself is left of the address the proxy appended.
    expect(a.of(request('10.0.0.5', '198.51.100.77, 203.0.113.9'))).toBe('203.0.113.9')
    // Two trusted hops: a CDN edge (192.0.2.10) forwarding to the proxy.
    expect(a.of(request('10.0.0.5', '203.0.113.9, 192.0.2.10'))).toBe('203.0.113.9')
    // Not from a proxy: the header is ignored.
    expect(a.of(request('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1')
    // From a proxy without the header: the proxy itself.
    expect(a.of(request('10.0.0.5'))).toBe('10.0.0.5')
    expect(a.isProxy('10.1.2.3')).toBe(true)
    expect(a.isProxy('::ffff:10.1.2.3')).toBe(true)
    expect(a.isProxy('198.51.100.1')).toBe(false)
  })
})

describe('PROFILER_TRUST_PROXY', () => {
  const trust = (v: string) => loadConfig({ PROFILER_TRUST_PROXY: v }).http.trustProxy
  it('off by default, or addresses, CIDR ranges and range names', () => {
    expect(loadConfig({}).http.trustProxy).toEqual([])
    expect(trust('false')).toEqual([])
    const items = ['10.0.0.5', '172.16.0.0/12', 'fd00::/8', 'uniquelocal', 'loopback']
    expect(trust('10.0.0.5, 172.16.0.0/12,fd00::/8, uniquelocal,loopback')).toEqual(items)
  })

  it('refuses what would believe any client: a hop count, true, /0; and anything that is not an address', () => {
    for (const v of ['1', '2', 'true', '0.0.0.0/0', '::/0', 'nginx', '10.0.0.0/33', '10.0.0.5;rm']) {
      expect(() => trust(v), v).toThrow(/PROFILER_TRUST_PROXY/)
    }
  })
})

describe('connectionCap', () => {
  const http = loadConfig({}).http
  it('as configured; else under the open-file limit by a fifth of it (at least 256 files kept, at most half)', () => {
    expect(connectionCap({ ...http, maxConnections: 500 }, 20_000)).toBe(500)
    expect(connectionCap({ ...http, maxConnections: 0 }, 20_000)).toBe(0)
    expect(connectionCap(http, 20_000)).toBe(16_000)
    expect(connectionCap(http, 1024)).toBe(768)
    expect(connectionCap(http, 300)).toBe(150)
    expect(connectionCap(http, null)).toBe(0) // no limit known: no cap
  })
})

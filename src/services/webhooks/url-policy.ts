import dns from 'node:dns'
import net from 'node:net'
import { invalid } from '../../domain/errors.js'
import { MAX_URL_CHARS } from '../../domain/webhooks.js'

// Where webhooks may go (SSRF): http(s) URLs without credentials whose host resolves only to public addresses. The
// addresses are checked when an endpoint is registered and again on every connection, by the lookup the request uses,
// so a name that resolves elsewhere later (DNS rebinding) is refused too. Operators may allow private targets.

export interface UrlPolicyOptions {
  /** Any non-public address (loopback, private, link-local, ...) except multicast. */
  allowPrivate: boolean
  /** Host names that may resolve to non-public addresses (lower case, exact). */
  allowedHosts: string[]
  /** Addresses or CIDR ranges allowed although not public, e.g. 127.0.0.1/32 or 10.1.0.0/16. */
  allowedCidrs: string[]
}

/** A webhook target the policy refuses; `message` says why (never with anything secret). */
export class UrlRefusedError extends Error {
  readonly code = 'WEBHOOK_URL_REFUSED'
  constructor(message: string) {
    super(message)
    this.name = 'UrlRefusedError'
  }
}

type Range = [base: bigint, prefix: number, what: string]

function v4(ip: string): bigint | null {
  const parts = ip.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)) return null
  return parts.reduce((n, p) => (n << 8n) | BigInt(Number(p)), 0n)
}

/** An IPv6 address as a 128-bit number (zone id dropped, dotted IPv4 tail allowed), or null. */
function v6(ip: string): bigint | null {
  let text = ip.replace(/%.*$/, '').toLowerCase()
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (tail) {
    const four = v4(tail[1]!)
    if (four === null) return null
    text = text.slice(0, -tail[1]!.length) + `${(four >> 16n).toString(16)}:${(four & 0xffffn).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const left = halves[0] ? halves[0].split(':') : []
  const right = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - left.length - right.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  const groups = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right]
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n)
}

const V4_RANGES: Range[] = [
  [0x00000000n, 8, 'unspecified'],
  [0x0a000000n, 8, 'private'],
  [0x64400000n, 10, 'shared (CGNAT)'],
  [0x7f000000n, 8, 'loopback'],
  [0xa9fe0000n, 16, 'link-local'],
  [0xac100000n, 12, 'private'],
  [0xc0000000n, 24, 'reserved'],
  [0xc0000200n, 24, 'documentation'],
  [0xc0a80000n, 16, 'private'],
  [0xc6120000n, 15, 'benchmarking'],
  [0xc6336400n, 24, 'documentation'],
  [0xcb007100n, 24, 'documentation'],
  [0xe0000000n, 4, 'multicast'],
  [0xf0000000n, 4, 'reserved'],
]

const h6 = (s: string) => v6(s)!
const V6_RANGES: Range[] = [
  [0n, 128, 'unspecified'],
  [1n, 128, 'loopback'],
  // ::ffff:0:a.b.c.d (RFC 2765 SIIT; not the mapped ::ffff:a.b.c.d) and local-use NAT64 (RFC 8215), whose IPv4 part
  // sits where the operator's prefix length puts it: neither is globally reachable, so the whole range is refused.
  [h6('::ffff:0:0:0'), 96, 'IPv4-translated'],
  [h6('64:ff9b:1::'), 48, 'local-use NAT64'],
  [h6('100::'), 64, 'discard'],
  [h6('2001::'), 32, 'Teredo'],
  [h6('2001:db8::'), 32, 'documentation'],
  [h6('fc00::'), 7, 'private'],
  [h6('fe80::'), 10, 'link-local'],
  [h6('fec0::'), 10, 'site-local'],
  [h6('ff00::'), 8, 'multicast'],
]

const inRange = (address: bigint, bits: number, [base, prefix]: Range) =>
  address >> BigInt(bits - prefix) === base >> BigInt(bits - prefix)

/**
 * Why an address is not public ('loopback', 'private', 'link-local', ...), or null when it is. IPv6 forms that embed
 * an IPv4 address (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by it.
 */
export function addressClass(ip: string): string | null {
  const four = v4(ip)
  if (four !== null) return V4_RANGES.find((r) => inRange(four, 32, r))?.[2] ?? null
  const six = v6(ip)
  if (six === null) return 'not an IP address'
  const embedded =
    six >> 32n === 0xffffn || (six >> 32n === 0n && six > 1n) || six >> 32n === h6('64:ff9b::') >> 32n
      ? six & 0xffffffffn
      : six >> 112n === 0x2002n
        ? (six >> 80n) & 0xffffffffn
        : null
  if (embedded !== null) {
    const embeddedClass = V4_RANGES.find((r) => inRange(embedded, 32, r))?.[2]
    return embeddedClass ? `${embeddedClass} (IPv4 in IPv6)` : null
  }
  return V6_RANGES.find((r) => inRange(six, 128, r))?.[2] ?? null
}

/** The IPv4 address an IPv6 one embeds as mapped, compatible or translated, for matching allowed IPv4 ranges. */
function unmapped(ip: string): string {
  const six = v4(ip) === null ? v6(ip) : null
  if (six === null || !(six >> 32n === 0xffffn || six >> 32n === 0xffff0000n || (six >> 32n === 0n && six > 1n)))
    return ip
  const four = six & 0xffffffffn
  return [24n, 16n, 8n, 0n].map((s) => String((four >> s) & 0xffn)).join('.')
}

export class UrlPolicy {
  private readonly allowed = new net.BlockList()
  private readonly hosts: Set<string>

  constructor(private readonly opts: UrlPolicyOptions) {
    this.hosts = new Set(opts.allowedHosts.map((h) => h.toLowerCase()))
    for (const cidr of opts.allowedCidrs) {
      const [addr, bits] = cidr.split('/')
      const type = net.isIPv6(addr!) ? 'ipv6' : 'ipv4'
      if (!net.isIP(addr!)) throw new Error(`not an address or CIDR range: ${cidr}`)
      this.allowed.addSubnet(addr!, bits === undefined ? (type === 'ipv6' ? 128 : 32) : Number(bits), type)
    }
  }

  /** Why the address may not be a target, or null when it may. */
  refusal(ip: string, host?: string): string | null {
    const what = addressClass(ip)
    if (what === null) return null
    if (what.startsWith('multicast') || what === 'not an IP address') return `${ip} is ${what}`
    if (this.opts.allowPrivate || (host && this.hosts.has(host.toLowerCase()))) return null
    // An allowed range may name the address itself or, for an IPv6 form embedding one, the IPv4 address.
    const allowed = (address: string) => this.allowed.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4')
    const plain = unmapped(ip)
    if (allowed(ip) || (plain !== ip && allowed(plain))) return null
    return `${ip} is ${/^[aeiou]/i.test(what) ? 'an' : 'a'} ${what} address`
  }

  /**
   * The URL if it may be a target: http(s), no credentials, and every address its host resolves to allowed. Throws
   * VALIDATION_FAILED with the reason (for registration); `UrlRefusedError` from `check` is the delivery-time form.
   */
  async validate(raw: string): Promise<URL> {
    try {
      return await this.check(raw)
    } catch (err) {
      if (err instanceof UrlRefusedError) throw invalid(`url: ${err.message}`)
      throw err
    }
  }

  async check(raw: string): Promise<URL> {
    const url = this.parse(raw)
    const host = hostOf(url)
    if (net.isIP(host)) {
      const why = this.refusal(host)
      if (why) throw new UrlRefusedError(`refused: ${why}`)
      return url
    }
    let addresses: dns.LookupAddress[]
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true })
    } catch (err) {
      throw new UrlRefusedError(`host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
    }
    this.checkResolved(host, addresses)
    return url
  }

  /** Syntax only: an absolute http(s) URL without credentials, within the length limit. */
  parse(raw: string): URL {
    if (typeof raw !== 'string' || raw.length > MAX_URL_CHARS)
      throw new UrlRefusedError(`at most ${MAX_URL_CHARS} characters`)
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new UrlRefusedError('not an absolute URL')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UrlRefusedError(`scheme ${url.protocol.replace(/:$/, '')} is not allowed (http or https)`)
    if (url.username || url.password)
      throw new UrlRefusedError('credentials in the URL are not allowed (use the signature to authenticate)')
    if (!url.hostname) throw new UrlRefusedError('no host')
    return url
  }

  private checkResolved(host: string, addresses: dns.LookupAddress[]) {
    if (!addresses.length) throw new UrlRefusedError(`host ${host} has no address`)
    for (const resolved of addresses) {
      const why = this.refusal(resolved.address, host)
      if (why) throw new UrlRefusedError(`refused: ${host} resolves to ${why}`)
    }
  }

  /**
   * The `lookup` of a webhook request: resolves as dns.lookup does and fails when any address is refused, so the
   * address actually connected to has passed the policy whatever the name resolved to at registration.
   */
  readonly lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 0)
      try {
        this.checkResolved(hostname, addresses)
      } catch (error) {
        return callback(error as NodeJS.ErrnoException, '', 0)
      }
      if ((options as dns.LookupOptions).all)
        (callback as unknown as (error: null, all: dns.LookupAddress[]) => void)(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1')

import net from 'node:net'

/**
 * What every per-address limit counts a client address under: an IPv4 address as it is (also when the socket writes
 * it IPv4-mapped, ::ffff:192.0.2.1), an IPv6 address by its /64. A /64 is one subscriber's network: its 2^64
 * addresses cost nothing to rotate through, so counting single IPv6 addresses would bound nothing.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1]!
  const bare = address.split('%')[0]! // a zone index (fe80::1%eth0) names an interface, not a client
  if (!net.isIPv6(bare)) return address
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined]
  const groups = (part: string | undefined) =>
    // A dotted IPv4 tail (64:ff9b::192.0.2.1) is the last two groups.
    part ? part.split(':').flatMap((g) => (g.includes('.') ? ipv4Groups(g) : [g])) : []
  const first = groups(head)
  const last = groups(tail)
  const zeros = Array<string>(8 - first.length - last.length).fill('0')
  const all = tail === undefined ? first : [...first, ...zeros, ...last]
  return all.map((g) => parseInt(g, 16).toString(16))
}

function ipv4Groups(dotted: string): string[] {
  const [high1, low1, high2, low2] = dotted.split('.').map(Number) as [number, number, number, number]
  return [((high1 << 8) | low1).toString(16), ((high2 << 8) | low2).toString(16)]
}

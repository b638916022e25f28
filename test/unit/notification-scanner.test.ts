import { describe, expect, it } from 'vitest'
import { NotificationScanner } from '../../src/db/pglite-session.js'

/** A backend message: type byte, Int32 length (itself included), body. */
function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length)
  out[0] = type.charCodeAt(0)
  new DataView(out.buffer).setInt32(1, body.length + 4)
  out.set(body, 5)
  return out
}
const cstr = (s: string) => new Uint8Array([...new TextEncoder().encode(s), 0])
function notification(channel: string, payload: string): Uint8Array {
  const pid = new Uint8Array(4)
  new DataView(pid.buffer).setInt32(0, 42)
  return message('A', new Uint8Array([...pid, ...cstr(channel), ...cstr(payload)]))
}
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let i = 0
  for (const p of parts) out.set(p, (i += p.length) - p.length)
  return out
}

describe('NotificationScanner', () => {
  const stream = concat(
    message('C', cstr('SELECT 1')),
    notification('profiler_events', '{"name":"apiKeysRevoked","payload":{"tenantId":"t","appId":"a"}}'),
    message('D', new Uint8Array(3000).fill(65)), // a large DataRow that happens to contain 'A' bytes
    notification('other', 'ünïcödé ✓'),
    message('Z', new Uint8Array([0x49])),
  )
  const expected = [
    ['profiler_events', '{"name":"apiKeysRevoked","payload":{"tenantId":"t","appId":"a"}}'],
    ['other', 'ünïcödé ✓'],
  ]

  it('finds NotificationResponse messages among the others', () => {
    const seen: string[][] = []
    new NotificationScanner((c, p) => seen.push([c, p])).push(stream)
    expect(seen).toEqual(expected)
  })

  it('finds them whatever the chunking: every split point, and byte by byte', () => {
    for (let cut = 1; cut < stream.length; cut += 7) {
      const seen: string[][] = []
      const s = new NotificationScanner((c, p) => seen.push([c, p]))
      s.push(stream.subarray(0, cut))
      s.push(stream.subarray(cut))
      expect(seen, `split at ${cut}`).toEqual(expected)
    }
    const seen: string[][] = []
    const s = new NotificationScanner((c, p) => seen.push([c, p]))
    for (let i = 0; i < stream.length; i++) s.push(stream.subarray(i, i + 1))
    expect(seen).toEqual(expected)
  })
})

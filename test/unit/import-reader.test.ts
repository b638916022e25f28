// The import's two text scanners: the line reader (blank lines skipped in one byte loop, wherever chunks split) and
// the nesting-depth check that runs before JSON.parse (exact for valid JSON, strings skipped whole, no recursion).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nestedDeeperThan } from '../../src/domain/export-format.js'
import { lines } from '../../src/services/ndjson.js'

const limits = { maxLineBytes: 1000, maxBytes: 100_000 }
async function read(chunks: (string | Buffer)[], l = limits) {
  const out: { n: number; text: string }[] = []
  for await (const x of lines(
    (async function* () {
      yield* chunks
    })(),
    l,
  ))
    out.push(x)
  return out
}

/** Depth of a parsed JSON value, recursively (the reference). */
const depthOf = (v: unknown): number =>
  Array.isArray(v)
    ? 1 + Math.max(0, ...v.map(depthOf))
    : v !== null && typeof v === 'object'
      ? 1 + Math.max(0, ...Object.values(v).map(depthOf))
      : 0

describe('lines', () => {
  const text = '\n \t\r\n{"a":1}\r\n\n  {"b":"x y"}\n\t\n{"c":3}'
  const expected = [
    { n: 3, text: '{"a":1}' },
    { n: 5, text: '{"b":"x y"}' },
    { n: 7, text: '{"c":3}' },
  ]

  it('numbers lines from 1, blank ones included; yields the others without their CR or leading blanks', async () => {
    expect(await read([text])).toEqual(expected)
  })

  it('gives the same lines wherever the chunks split', async () => {
    const bytes = Buffer.from(text)
    for (let i = 0; i <= bytes.length; i++) {
      for (const j of [i, Math.min(bytes.length, i + 1), Math.min(bytes.length, i + 3)]) {
        expect(
          await read([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]),
          `split at ${i}, ${j}`,
        ).toEqual(expected)
      }
    }
  })

  it('passes a line of other whitespace on (it is not JSON), and counts blank bytes in the total', async () => {
    expect(await read(['\n\u00a0\n'])).toEqual([{ n: 2, text: '\u00a0' }])
    await expect(read(['\n'.repeat(100_001)])).rejects.toThrow(/larger than the limit of 100000 bytes \(at line 1\b/)
    await expect(read(['{', 'x'.repeat(1000)])).rejects.toThrow('Line 1 is longer than the limit of 1000 bytes')
    await expect(read(['\n\n{}\n', Buffer.from([0x7b, 0xff, 0x0a])])).rejects.toThrow('Line 4: not valid UTF-8')
  })
})

describe('nestedDeeperThan', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(nestedDeeperThan('{"a":"[[[[[[{{{{"}', 1)).toBe(false)
    expect(nestedDeeperThan('["\\"[[[[", 1]', 1)).toBe(false)
    expect(nestedDeeperThan('["\\\\", [[1]]]', 2)).toBe(true)
    expect(nestedDeeperThan('["\\\\", [[1]]]', 3)).toBe(false)
    expect(nestedDeeperThan('['.repeat(1_000_000) + ']'.repeat(1_000_000), 32)).toBe(true)
  })

  it('agrees with the depth of the parsed value, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (v, max) => {
        expect(nestedDeeperThan(JSON.stringify(v), max)).toBe(depthOf(v) > max)
      }),
      { numRuns: 2000 },
    )
  })
})

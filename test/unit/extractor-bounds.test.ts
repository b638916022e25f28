// The local extractor's bounds that keep it linear in the input's size (no timing here: bench/extract-speed.ts
// measures the scaling): over-long runs of non-space characters are dropped, over-long sentences are read in pieces,
// and the facts around such input still come out.
import { describe, expect, it } from 'vitest'
import { boundTokens, LocalExtractor, MAX_TOKEN_CHARS } from '../../src/ai/local/local-extractor.js'
import { chunk, MAX_SENTENCE_CHARS, splitClauses } from '../../src/ai/local/text.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })

describe('bounds of the local extractor', () => {
  it('drops runs of non-space characters longer than MAX_TOKEN_CHARS, keeps the rest', () => {
    const long = 'x'.repeat(MAX_TOKEN_CHARS + 1)
    const word = 'y'.repeat(MAX_TOKEN_CHARS)
    expect(boundTokens(`I love ${long} and ${word} too`)).toBe(`I love   and ${word} too`)
    expect(boundTokens('https://example.com/a/b?c=d stays')).toBe('https://example.com/a/b?c=d stays')
  })

  it('cuts sentences longer than MAX_SENTENCE_CHARS at spaces; each piece at most that long, nothing lost', () => {
    const s = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ')
    const pieces = chunk(s, MAX_SENTENCE_CHARS)
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.every((p) => p.length <= MAX_SENTENCE_CHARS)).toBe(true)
    expect(pieces.join(' ')).toBe(s)
    expect(chunk('z'.repeat(1200), 500)).toEqual(['z'.repeat(500), 'z'.repeat(500), 'z'.repeat(200)])
    const clauses = splitClauses(`${'so much filler here '.repeat(100)}i live in rome.`)
    expect(Math.max(...clauses.map((c) => c.text.length))).toBeLessThanOrEqual(MAX_SENTENCE_CHARS)
  })

  it('facts next to hostile input still come out', () => {
    const e = extractor.extractOne({
      inputType: 'text',
      data: `My name is Ann and I live in Rome. ${'a'.repeat(100_000)} I love jazz.`,
    })
    expect(e.core_info?.name?.value).toBe('Ann')
    expect(e.core_info?.location?.value).toBe('Rome')
    const noStop = extractor.extractOne({ inputType: 'text', data: `${'a '.repeat(20_000)}. My name is Ann.` })
    expect(noStop.core_info?.name?.value).toBe('Ann')
  })
})

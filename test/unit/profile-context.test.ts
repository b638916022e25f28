import fc from 'fast-check'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { composeContext, contextFacts, contextHeader, type ContextFact } from '../../src/ai/profile-context.js'
import { emptyContent } from '../../src/domain/profile.js'

// The composer alone, on generated facts (emoji, scripts, newlines, huge values): within budget by an exact count,
// whole lines only, a larger budget a superset, deterministic.

const text = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.constantFrom('🎸 guitar 🎶', '👩🏽‍🚀', '李小龍', 'ॐ', 'a\n\nb', '   ', 'x'.repeat(3000), '\r\n', '- Interests:'),
)
const fact = fc.record({
  section: fc.constantFrom('basics', 'interests', 'personality', 'preferences', 'memories') as fc.Arbitrary<ContextFact['section']>,
  text,
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  at: fc.constantFrom('', '2024-01-01', '2025-06-30T10:00:00.000Z'),
})

describe('composeContext', () => {
  it('fits, never cuts a line, grows monotonically with the budget, and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(fact, { maxLength: 30 }),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 2, maxLength: 4 }),
        fc.boolean(),
        (raw, summary, budgets, withRelevance) => {
          const facts = raw.map((f) => ({ ...f, matchText: f.text }))
          const relevance = withRelevance ? facts.map((_, i) => (i * 7919) % 10 / 10) : undefined
          const full = composeContext({ header: 'About Zoë 🦊:', summary, facts, relevance, maxTokens: 32000, count: countTokens })
          const fullLines = new Set(full.text.split('\n'))
          let prev: Set<string> = new Set()
          for (const max of [...budgets].sort((a, b) => a - b)) {
            const c = composeContext({ header: 'About Zoë 🦊:', summary, facts, relevance, maxTokens: max, count: countTokens })
            expect(c.tokens).toBe(countTokens(c.text))
            expect(c.tokens).toBeLessThanOrEqual(max)
            const lines = new Set(c.text === '' ? [] : c.text.split('\n'))
            for (const l of lines) expect(fullLines.has(l)).toBe(true)
            for (const l of prev) expect(lines.has(l)).toBe(true)
            expect(c.factsIncluded).toBeLessThanOrEqual(c.factsTotal)
            expect(composeContext({ header: 'About Zoë 🦊:', summary, facts, relevance, maxTokens: max, count: countTokens })).toEqual(c)
            prev = lines
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('facts from a profile: clean lines, no empty values, the name as the header', () => {
    const content = emptyContent()
    content.core_info.name = { value: '  Ada\nLovelace. ', confidence: 1 }
    content.interests = { music_genres: [{ value: 'jazz', confidence: 0.5 }, { value: 'Jazz.', confidence: 0.4 }, { value: '  ', confidence: 1 }] }
    content.memories = [{ event: 'Moved to Lisbon', date: '2020-01-02', importance: 'high', confidence: 0.7 }]
    expect(contextHeader(content)).toBe('About Ada Lovelace:')
    expect(contextHeader(emptyContent())).toBe('About this person (name unknown):')
    const facts = contextFacts(content, { 'interests.music_genres': '2025-01-01T00:00:00.000Z' })
    expect(facts.map((f) => [f.section, f.text, f.confidence, f.at])).toEqual([
      ['interests', 'music genres: jazz', 0.5, '2025-01-01T00:00:00.000Z'],
      ['memories', '2020-01-02: Moved to Lisbon', 0.8, '2020-01-02'],
    ])
  })

  it('a fact longer than the budget is left out whole, and ends the text', () => {
    const facts: ContextFact[] = [
      { section: 'interests', text: 'long '.repeat(200), matchText: '', confidence: 0.9, at: '' },
      { section: 'interests', text: 'short', matchText: '', confidence: 0.1, at: '' },
    ]
    const c = composeContext({ header: 'About X:', facts, maxTokens: 100, count: countTokens })
    expect(c.text).toBe('About X:')
    expect(c).toMatchObject({ factsIncluded: 0, factsTotal: 2, truncated: true })
  })
})

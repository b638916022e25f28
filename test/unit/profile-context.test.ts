import fc from 'fast-check'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import {
  composeContext,
  contextFacts,
  contextHeader,
  factAlternatives,
  lexicalScore,
  PAST_IN_CONTEXT,
  stems,
  type ContextFact,
} from '../../src/ai/profile-context.js'
import { readableDate } from '../../src/domain/passages.js'
import { emptyContent } from '../../src/domain/profile.js'

// The composer alone, on generated facts (emoji, scripts, newlines, huge values): within budget by an exact count,
// whole lines only, a larger budget a superset, deterministic.

const text = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.constantFrom('🎸 guitar 🎶', '👩🏽‍🚀', '李小龍', 'ॐ', 'a\n\nb', '   ', 'x'.repeat(3000), '\r\n', '- Interests:'),
)
const fact = fc.record({
  section: fc.constantFrom('basics', 'interests', 'personality', 'preferences', 'memories') as fc.Arbitrary<
    ContextFact['section']
  >,
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
          const relevance = withRelevance ? facts.map((_, i) => ((i * 7919) % 10) / 10) : undefined
          const full = composeContext({
            header: 'About Zoë 🦊:',
            summary,
            facts,
            relevance,
            maxTokens: 32000,
            count: countTokens,
          })
          const fullLines = new Set(full.text.split('\n'))
          let prev: Set<string> = new Set()
          for (const max of [...budgets].sort((a, b) => a - b)) {
            const c = composeContext({
              header: 'About Zoë 🦊:',
              summary,
              facts,
              relevance,
              maxTokens: max,
              count: countTokens,
            })
            expect(c.tokens).toBe(countTokens(c.text))
            expect(c.tokens).toBeLessThanOrEqual(max)
            const lines = new Set(c.text === '' ? [] : c.text.split('\n'))
            for (const l of lines) expect(fullLines.has(l)).toBe(true)
            for (const l of prev) expect(lines.has(l)).toBe(true)
            expect(c.factsIncluded).toBeLessThanOrEqual(c.factsTotal)
            expect(
              composeContext({
                header: 'About Zoë 🦊:',
                summary,
                facts,
                relevance,
                maxTokens: max,
                count: countTokens,
              }),
            ).toEqual(c)
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
    content.interests = {
      music_genres: [
        { value: 'jazz', confidence: 0.5 },
        { value: 'Jazz.', confidence: 0.4 },
        { value: '  ', confidence: 1 },
      ],
    }
    content.memories = [{ event: 'Moved to Lisbon', date: '2020-01-02', importance: 'high', confidence: 0.7 }]
    expect(contextHeader(content)).toBe('About Ada Lovelace:')
    expect(contextHeader(emptyContent())).toBe('About this person (name unknown):')
    expect(contextHeader(emptyContent(), ' Caroline\n')).toBe('About Caroline (as their turns are labelled):')
    expect(contextHeader(emptyContent(), '')).toBe('About this person (name unknown):')
    expect(contextHeader(content, 'Caroline')).toBe('About Ada Lovelace:')
    const facts = contextFacts(content, { 'interests.music_genres': '2025-01-01T00:00:00.000Z' })
    expect(facts.map((f) => [f.section, f.text, f.confidence, f.at])).toEqual([
      ['interests', 'music genres: jazz', 0.5, '2025-01-01T00:00:00.000Z'],
      ['memories', '2 January 2020: Moved to Lisbon', 0.8, '2020-01-02'],
    ])
  })

  it('equal confidence: the part evidence named latest (said_at) first, else the part changed last', () => {
    const content = emptyContent()
    content.interests = { music: [{ value: 'jazz', confidence: 0.6 }], sports: [{ value: 'tennis', confidence: 0.6 }] }
    content.personality.traits = [{ value: 'patient', confidence: 0.6 }]
    // Merge times say sports changed last; said times say the trait was named last, then music.
    const merged = {
      'interests.music': '2026-01-12T00:00:00.000Z',
      'interests.sports': '2026-01-13T00:00:00.000Z',
      'personality.traits': '2026-01-11T00:00:00.000Z',
    }
    const said = { 'interests.music': '2025-05-01T00:00:00.000Z', 'personality.traits': '2025-06-01T00:00:00.000Z' }
    const order = (f: ContextFact[]) =>
      composeContext({ header: 'About X:', facts: f, maxTokens: 200, count: countTokens }).text
    expect(contextFacts(content, merged, said).map((f) => f.at)).toEqual([
      '2025-05-01T00:00:00.000Z',
      '2026-01-13T00:00:00.000Z',
      '2025-06-01T00:00:00.000Z',
    ])
    // A budget of two facts: sports (no said time: its merge time, the newest) and the trait.
    const two = (f: ContextFact[]) =>
      composeContext({
        header: 'About X:',
        facts: f,
        maxTokens: countTokens('About X:\nInterests:\n- sports: tennis\nPersonality:\n- Trait: patient\n') + 1,
        count: countTokens,
      }).text
    expect(two(contextFacts(content, merged, said))).toBe(
      'About X:\nInterests:\n- sports: tennis\nPersonality:\n- Trait: patient',
    )
    // With every part said, the merge times no longer matter.
    const allSaid = { ...said, 'interests.sports': '2024-01-01T00:00:00.000Z' }
    expect(order(contextFacts(content, merged, allSaid))).toBe(
      order(contextFacts(content, { ...merged, 'interests.sports': '2020-01-01T00:00:00.000Z' }, allSaid)),
    )
    expect(two(contextFacts(content, merged, allSaid))).toBe(
      'About X:\nPersonality:\n- Trait: patient\nInterests:\n- music: jazz',
    )
  })

  it('a misspelt word counts for facts saying what it may have meant, unless one says it as written', () => {
    const facts = ['food: shawarma', 'Works as nurse', 'music: ice cream van jingles', 'food: schawarma rolls'].map(
      stems,
    )
    const q = stems('likes schawarma')
    // No fact says "icecream": a split alternative counts only where both its words are.
    const icecream = factAlternatives(stems('icecream'), facts, [['icecream', [['ice', 'cream']]]])
    expect([...icecream.keys()]).toEqual([...stems('icecream')])
    expect(facts.map((f) => lexicalScore(stems('icecream'), f, icecream))).toEqual([0, 0, 1, 0])
    // A fact says "schawarma": the word is taken as written, not corrected.
    expect(factAlternatives(q, facts, [['schawarma', [['shawarma']]]]).size).toBe(0)
    const three = facts.slice(0, 3)
    const alts = factAlternatives(q, three, [
      ['schawarma', [['shawarma'], ['shawarmas']]],
      ['unasked', [['asked']]],
    ])
    expect([...alts.keys()]).toEqual([...stems('schawarma')])
    expect(three.map((f) => lexicalScore(q, f, alts))).toEqual([1, 0, 0])
    expect(three.map((f) => lexicalScore(q, f))).toEqual([0, 0, 0])
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

  it('a scalar that changed says what it was before, with dates a model reads without help (never ISO)', () => {
    const content = emptyContent()
    content.core_info.name = { value: 'Ana', confidence: 0.9 }
    content.core_info.location = { value: 'Porto', confidence: 0.85 }
    content.core_info.occupation = { value: 'nurse', confidence: 0.8 }
    const w = (value: string, from: string, until: string) => ({ value, confidence: 0.9, from, until, last_said: from })
    content.past_values = {
      'core_info.location': [w('Lisbon', '2019-06-01T00:00:00.000Z', '2025-03-10T00:00:00.000Z')],
      'personality.mood_trends.recent': [w('anxious', '2023-05-08T10:00:00.000Z', '2023-05-08T18:00:00.000Z')],
      'core_info.name': [w('Anna', '2020-01-01T00:00:00.000Z', '2021-02-03T00:00:00.000Z')],
    }
    content.personality.mood_trends = { recent: { value: 'calm', confidence: 0.6 } }
    const texts = contextFacts(content, {}).map((f) => f.text)
    expect(texts).toEqual([
      'Name: Ana (before: Anna, 1 January 2020 to 3 February 2021)',
      'Lives in Porto (before: Lisbon, 1 June 2019 to 10 March 2025)',
      'Works as nurse',
      'Mood lately: calm (before: anxious, 8 May 2023)',
    ])
    for (const t of texts) expect(t).not.toMatch(/\d{4}-\d{2}/)
    expect(readableDate('2023-05-08T23:30:00.000Z')).toBe('8 May 2023')
    // A long life names the newest few: one line, a bounded length.
    content.past_values['core_info.location'] = Array.from({ length: 20 }, (_, i) =>
      w(`City ${i}`, `${2020 - i}-01-01T00:00:00.000Z`, `${2021 - i}-01-01T00:00:00.000Z`),
    )
    const line = contextFacts(content, {}).find((f) => f.text.startsWith('Lives in'))!.text
    expect(line.match(/City/g)).toHaveLength(PAST_IN_CONTEXT)
    expect(line).toBe(
      'Lives in Porto (before: City 0, 1 January 2020 to 1 January 2021; ' +
        'City 1, 1 January 2019 to 1 January 2020; City 2, 1 January 2018 to 1 January 2019)',
    )
  })
})

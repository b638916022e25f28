import { describe, expect, it } from 'vitest'
import { proposesValue } from '../../src/domain/forget.js'
import {
  keepBest,
  parseEvidenceParams,
  proposalOf,
  quoteFor,
  share,
  siftSupport,
  storedProvenance,
  supportingPassages,
  textWords,
  wordGroups,
  type CandidatePassage,
} from '../../src/domain/provenance.js'

// Which passages support a value (src/domain/provenance.ts): pure, given the stored extractions and the candidates.

const ex = {
  core_info: { location: { value: 'Lisbon', confidence: 0.9 }, age: { value: 34, confidence: 0.9 } },
  interests: { music: [{ value: 'Jazz', confidence: 0.9 }], hobbies: [{ value: 'hiking', confidence: 0.8 }] },
  personality: { traits: [{ value: 'curious', confidence: 0.7 }] },
  memories: [{ event: 'moved to Porto', date: '2025-03', confidence: 0.8 }],
  custom: {
    diet: { restrictions: [{ value: 'vegetarian', confidence: 0.6 }], style: { value: 'keto', confidence: 0.5 } },
  },
}

const passage = (
  submission_id: string,
  position: number,
  hits: string[],
  rank = 0.1,
  occurred_at = '2024-01-01T00:00:00.000Z',
): CandidatePassage => ({
  submission_id,
  position,
  occurred_at,
  hits,
  rank,
})

describe('provenance', () => {
  it("reads an extraction's proposals as the merge compares (case, plural), in the category if given", () => {
    expect(proposesValue(ex, { section: 'core_info.location', value: 'lisbon ' })).toBe(true)
    expect(proposesValue(ex, { section: 'core_info.location', value: 'Porto' })).toBe(false)
    expect(proposesValue(ex, { section: 'core_info.age', value: '34' })).toBe(true)
    expect(proposesValue(ex, { section: 'interests', value: 'jazz' })).toBe(true)
    expect(proposesValue(ex, { section: 'interests', value: 'jazz', category: 'Music' })).toBe(true)
    expect(proposesValue(ex, { section: 'interests', value: 'jazz', category: 'hobbies' })).toBe(false)
    expect(proposesValue(ex, { section: 'personality.traits', value: 'Curious' })).toBe(true)
    expect(proposesValue(ex, { section: 'memories', value: 'Moved to Porto' })).toBe(true)
    expect(proposesValue(ex, { section: 'custom.diet.restrictions', value: 'Vegetarian' })).toBe(true)
    expect(proposesValue(ex, { section: 'custom.diet.style', value: 'keto' })).toBe(true)
    expect(proposesValue({}, { section: 'interests', value: 'jazz' })).toBe(false)
  })

  it('reads the stored provenance in its shapes, and the quote the model kept for a value', () => {
    expect(storedProvenance({ structured: true })).toEqual({ structured: true })
    expect(storedProvenance({ extraction: ex })).toEqual({ extraction: ex })
    expect(storedProvenance(ex)).toEqual({ extraction: ex }) // an older row: the bare extraction
    expect(storedProvenance(null)).toEqual({})
    const evidence = {
      'core_info.location': 'I live in Lisbon',
      'interests.music.Jazz': 'I love jazz',
      'personality.traits.curious': 'I am curious',
      'memories.moved to Porto': 'we moved to Porto',
      'custom.diet.restrictions': 'I am vegetarian',
      'custom.diet.style': 'keto only',
    }
    const p = { extraction: ex, evidence }
    expect(quoteFor(p, { section: 'core_info.location', value: 'Lisbon' })).toBe('I live in Lisbon')
    expect(quoteFor(p, { section: 'interests', value: 'jazz' })).toBe('I love jazz')
    expect(quoteFor(p, { section: 'interests', value: 'jazz', category: 'hobbies' })).toBeUndefined()
    expect(quoteFor(p, { section: 'personality.traits', value: 'Curious' })).toBe('I am curious')
    expect(quoteFor(p, { section: 'memories', value: 'moved to porto' })).toBe('we moved to Porto')
    // A list custom field keeps the quote of its first value only: not taken for any value.
    expect(quoteFor(p, { section: 'custom.diet.restrictions', value: 'vegetarian' })).toBeUndefined()
    expect(quoteFor(p, { section: 'custom.diet.style', value: 'keto' })).toBe('keto only')
    expect(proposalOf({ extraction: ex, evidence }, { section: 'core_info.location', value: 'Lisbon' })).toEqual({
      proposed: true,
      quote: 'I live in Lisbon',
    })
    expect(proposalOf({ extraction: ex }, { section: 'core_info.location', value: 'Lisbon' })).toEqual({
      proposed: true,
    })
    expect(proposalOf({ extraction: ex, evidence }, { section: 'core_info.location', value: 'Porto' })).toEqual({
      proposed: false,
    })
  })

  it('groups a value by word (stems and the word); stop words count only when nothing else is there', () => {
    expect(textWords('Moved to  Porto, moved!')).toEqual(['moved', 'to', 'porto'])
    expect(wordGroups(['moved', 'to', 'porto'], [['move'], [], ['porto']])).toEqual([['move', 'moved'], ['porto']])
    expect(wordGroups(['the', 'who'], [[], []])).toEqual([['the'], ['who']])
    expect(share(new Set(['move']), [['move', 'moved'], ['porto']])).toBe(0.5)
    expect(share(new Set(), [])).toBe(0)
  })

  it('ranks quote, extraction, then words; a known submission not proposing it counts as a last resort', () => {
    const valueGroups = [['lisbon']]
    const quoteGroups = new Map([['a', [['i'], ['live'], ['in'], ['lisbon']]]])
    const base = {
      valueGroups,
      quoteGroups,
      proposed: new Map([['a', { quote: 'I live in Lisbon' }]]),
      known: new Set(['a', 'b']),
    }
    const r = supportingPassages({
      ...base,
      ofProposed: [
        passage('a', 1, ['lisbon'], 0.5),
        passage('a', 0, ['i', 'live', 'in', 'lisbon'], 0.1),
        passage('a', 2, ['i', 'live'], 0.9),
      ],
      others: [passage('b', 0, ['lisbon']), passage('c', 0, ['lisbon'])],
    })
    expect(r.map((x) => [x.passage.submission_id, x.passage.position, x.match])).toEqual([
      ['a', 0, 'quote'],
      ['a', 1, 'extraction'],
      ['c', 0, 'words'], // c's extraction is unknown; b's is known and did not propose it
    ])
    // Nothing from the proposers or unknown submissions: any passage holding every word.
    const fallback = supportingPassages({
      ...base,
      proposed: new Map(),
      quoteGroups: new Map(),
      known: new Set(['b']),
      ofProposed: [],
      others: [passage('b', 0, ['lisbon'])],
    })
    expect(fallback.map((x) => x.match)).toEqual(['words'])
    // A passage holding only some words of a value is no evidence outside its proposing submission.
    const two = [['rock'], ['climb', 'climbing']]
    const partial = supportingPassages({
      valueGroups: two,
      quoteGroups: new Map(),
      proposed: new Map([['a', {}]]),
      known: new Set(['a']),
      ofProposed: [passage('a', 0, ['rock'])],
      others: [passage('x', 0, ['rock'])],
    })
    expect(partial.map((x) => [x.passage.submission_id, x.match, x.share])).toEqual([['a', 'extraction', 0.5]])
  })

  it('keeps the best across pages of candidates: the best of all, in any order of pages', () => {
    const rules = {
      valueGroups: [['chess']],
      quoteGroups: new Map(),
      proposed: new Map([['a', {}]]),
      known: new Set(['a', 'b']),
    }
    const all = [
      ...Array.from({ length: 30 }, (_, i) =>
        passage('a', i, ['chess'], (i % 7) / 10, `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`),
      ),
      ...Array.from({ length: 30 }, (_, i) => passage('b', i, ['chess'], 0.9)),
      ...Array.from({ length: 5 }, (_, i) => passage('c', i, ['chess'], 0.01)),
    ]
    const whole = supportingPassages({
      ...rules,
      ofProposed: all.filter((p) => p.submission_id === 'a'),
      others: all.filter((p) => p.submission_id !== 'a'),
    })
    expect(whole.map((x) => x.passage.submission_id)).not.toContain('b')
    for (const order of [all, [...all].reverse()]) {
      let best: ReturnType<typeof siftSupport>['supported'] = []
      for (let i = 0; i < order.length; i += 7)
        best = keepBest(best, siftSupport(order.slice(i, i + 7), rules).supported, 10)
      expect(best).toEqual(whole.slice(0, 10))
    }
    // A known submission that did not propose it: only what is left when no page had anything else.
    const onlyKnown = siftSupport([passage('b', 0, ['chess'])], rules)
    expect(onlyKnown.supported).toEqual([])
    expect(onlyKnown.fallback.map((x) => x.match)).toEqual(['words'])
  })

  it('parses the lookup, naming what is wrong', () => {
    expect(parseEvidenceParams({ field: 'interests', value: 'jazz', category: 'music', limit: '3' })).toEqual({
      section: 'interests',
      value: 'jazz',
      category: 'music',
      limit: 3,
    })
    expect(parseEvidenceParams({ field: 'custom.diet.style', value: 'keto' })).toEqual({
      section: 'custom.diet.style',
      value: 'keto',
      limit: 10,
    })
    expect(() => parseEvidenceParams({ field: 'interests' })).toThrow(/Missing parameter: value/)
    expect(() => parseEvidenceParams({ field: 'custom.Diet', value: 'x' })).toThrow(/Invalid parameter field/)
    expect(() => parseEvidenceParams({ field: 'interests', value: 'x'.repeat(1001) })).toThrow(
      /value: longer than 1000/,
    )
    expect(() => parseEvidenceParams({ field: 'interests', value: 'x', limit: 51 })).toThrow(
      /limit: must be an integer from 1 to 50/,
    )
    expect(() => parseEvidenceParams({ field: 'interests', value: 'x', limit: 2.5 })).toThrow(/limit/)
    expect(() => parseEvidenceParams({ field: 'interests', value: 'ja\u0000zz' })).toThrow(
      /Invalid parameter value: contains/,
    )
    expect(() => parseEvidenceParams({ field: 'interests', value: 'jazz', category: 'mu\ud800sic' })).toThrow(
      /Invalid parameter category: contains/,
    )
  })
})

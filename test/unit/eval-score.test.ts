import { describe, expect, it } from 'vitest'
import { buildQueries, queryObject, unrelatedQueries } from '../../eval/queries.js'
import {
  addScores,
  buildTable,
  extractedValues,
  matches,
  prf,
  rankingMetrics,
  sample,
  scoreProfile,
  sectionOf,
  tokenKey,
  type FieldCounts,
} from '../../eval/score.js'

describe('eval: match rule', () => {
  it('finds a gold object whose tokens are contained in the value, after stemming and stop words', () => {
    expect(matches('turtle', 'a pet turtle')).toBe(true)
    expect(matches('turtles', 'Turtle')).toBe(true)
    expect(matches('ultimate frisbee', 'playing ultimate frisbee')).toBe(true)
    expect(matches('hiking', 'hikes')).toBe(true)
  })

  it('accepts Jaccard >= 0.5 and rejects less', () => {
    // {classic, rock} vs {rock}: gold not contained, Jaccard 1/2
    expect(matches('classic rock', 'rock')).toBe(true)
    // {new, york, citi} vs {york}: Jaccard 1/3
    expect(matches('new york city', 'york')).toBe(false)
    expect(matches('jazz', 'country music')).toBe(false)
  })

  it('compares values made only of stop words by their dedupe key ("The Who")', () => {
    expect(matches('the who', 'The Who')).toBe(true)
    expect(matches('the who', 'who is there')).toBe(false)
    expect(matches('dog', '')).toBe(false)
  })

  it('token keys ignore order, case and inflection', () => {
    expect(tokenKey('Pet Turtles')).toBe(tokenKey('turtle pet'))
  })
})

describe('eval: sections', () => {
  it('maps profile fields to scoring sections and drops unscored ones', () => {
    expect(sectionOf('core_info.location')).toBe('core_info.location')
    expect(sectionOf('interests.music')).toBe('interests')
    expect(sectionOf('interests.pets')).toBe('interests')
    expect(sectionOf('personality.traits')).toBe('personality.traits')
    expect(sectionOf('preferences.topics_to_avoid')).toBe('preferences.topics_to_avoid')
    expect(sectionOf('other.family')).toBeUndefined()
    expect(sectionOf('memories')).toBeUndefined()
    expect(sectionOf('core_info.shoe_size')).toBeUndefined()
  })

  it('reads the scored values of a REST profile', () => {
    const v = extractedValues({
      core_info: { age: { value: 34 }, location: { value: 'Texas' } },
      interests: { Music: [{ value: 'jazz' }], pets: [{ value: 'turtle' }] },
      personality: { traits: [{ value: 'shy' }] },
      preferences: { topics_to_avoid: [{ value: 'politics' }] },
    })
    expect(v).toEqual([
      { section: 'core_info.age', value: '34' },
      { section: 'core_info.location', value: 'Texas' },
      { section: 'interests', value: 'jazz', category: 'music' },
      { section: 'interests', value: 'turtle', category: 'pets' },
      { section: 'personality.traits', value: 'shy' },
      { section: 'preferences.topics_to_avoid', value: 'politics' },
    ])
  })
})

describe('eval: scoring a profile', () => {
  const gold = [
    { field: 'interests.pets', object: 'turtle' },
    { field: 'interests.music', object: 'jazz' },
    { field: 'interests.music', object: 'Jazz' }, // duplicate: counted once
    { field: 'core_info.location', object: 'texas' },
    { field: 'core_info.occupation', object: 'teacher' },
    { field: 'other.family', object: 'son' }, // unscored
  ]

  it('counts found gold per gold field and correct/false-positive values per extracted section', () => {
    const s = scoreProfile(gold, [
      { section: 'interests', value: 'pet turtle', category: 'pets' },
      { section: 'interests', value: 'jazz music', category: 'hobbies' }, // found, wrong category
      { section: 'interests', value: 'knitting', category: 'hobbies' }, // false positive
      { section: 'core_info.location', value: 'Austin, Texas' },
      { section: 'core_info.occupation', value: 'texas' }, // right word, wrong section: FP, and teacher is missed
    ])
    expect(s.fields['interests.pets']).toMatchObject({
      gold: 1,
      found: 1,
      extracted: 1,
      correct: 1,
      categoryCorrect: 1,
    })
    expect(s.fields['interests.music']).toMatchObject({
      gold: 1,
      found: 1,
      extracted: 0,
      correct: 0,
      categoryCorrect: 0,
    })
    expect(s.fields['interests.hobbies']).toMatchObject({ gold: 0, found: 0, extracted: 2, correct: 1 })
    expect(s.fields['core_info.location']).toMatchObject({ gold: 1, found: 1, extracted: 1, correct: 1 })
    expect(s.fields['core_info.occupation']).toMatchObject({ gold: 1, found: 0, extracted: 1, correct: 0 })
    expect(s.fields['other.family']).toBeUndefined()
    expect(s.missed).toEqual([{ field: 'core_info.occupation', object: 'teacher' }])
    expect(s.falsePositives.map((f) => f.value)).toEqual(['knitting', 'texas'])

    const t = buildTable(s.fields)
    expect(t.interests).toMatchObject({ gold: 2, found: 2, extracted: 3, correct: 2 })
    expect(t.micro).toMatchObject({ gold: 4, found: 3, extracted: 5, correct: 3 })
    expect(t.micro.precision).toBeCloseTo(3 / 5)
    expect(t.micro.recall).toBeCloseTo(3 / 4)
    expect(t.micro.f1).toBeCloseTo((2 * 0.6 * 0.75) / 1.35)
    expect(t.categoryAccuracy).toBeCloseTo(1 / 2)
    expect(t.rows.map((r) => r.field)).toEqual([
      'core_info.location',
      'core_info.occupation',
      'interests.hobbies',
      'interests.music',
      'interests.pets',
    ])
  })

  it("counts false positives matching only the other speaker's facts", () => {
    const s = scoreProfile(
      [{ field: 'interests.pets', object: 'dog' }],
      [
        { section: 'interests', value: 'dog', category: 'pets' },
        { section: 'interests', value: 'cats', category: 'pets' }, // the other speaker's
        { section: 'interests', value: 'opera', category: 'music' }, // nobody's
      ],
      [
        { field: 'interests.pets', object: 'cat' },
        { field: 'interests.pets', object: 'dog' }, // both have it: not an error
      ],
    )
    const t = buildTable(s.fields)
    expect(t.micro).toMatchObject({ extracted: 3, correct: 1, otherSpeaker: 1 })
    expect(t.otherSpeakerShare).toBeCloseTo(1 / 3)
  })

  it('adds profiles up and leaves undefined ratios null', () => {
    const total: Record<string, FieldCounts> = {}
    addScores(total, { 'core_info.name': { gold: 0, found: 0, extracted: 2, correct: 0 } })
    addScores(total, { 'core_info.name': { gold: 1, found: 1, extracted: 1, correct: 1 } })
    expect(total['core_info.name']).toEqual({ gold: 1, found: 1, extracted: 3, correct: 1 })
    expect(prf({ gold: 0, found: 0, extracted: 0, correct: 0 })).toEqual({ precision: null, recall: null, f1: null })
    expect(prf({ gold: 2, found: 0, extracted: 1, correct: 0 })).toEqual({ precision: 0, recall: 0, f1: 0 })
  })
})

describe('eval: search metrics', () => {
  it('computes recall, precision and nDCG at 10 with binary relevance', () => {
    const m = rankingMetrics(['x', 'a', 'y', 'b'], new Set(['a', 'b']))
    expect(m.hits).toBe(2)
    expect(m.recall).toBe(1)
    expect(m.precision).toBeCloseTo(0.2)
    expect(m.precisionReturned).toBeCloseTo(0.5)
    const ideal = 1 + 1 / Math.log2(3)
    expect(m.ndcg).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(5)) / ideal)
  })

  it('caps recall by 10 and scores an empty answer as zero', () => {
    const many = new Set(Array.from({ length: 20 }, (_, i) => `p${i}`))
    const top = Array.from({ length: 10 }, (_, i) => `p${i}`)
    expect(rankingMetrics(top, many)).toMatchObject({ recall: 1, precision: 1, ndcg: 1 })
    expect(rankingMetrics([], new Set(['a']))).toMatchObject({
      recall: 0,
      precision: 0,
      ndcg: 0,
      precisionReturned: null,
    })
  })

  it('builds user-style queries with the profiles holding the fact as the relevant set', () => {
    const profiles = new Map([
      [
        'p1',
        [
          { subject: 'i', relation: 'have_pet', object: 'turtle' },
          { subject: 'i', relation: 'live_in_citystatecountry', object: 'texas' },
        ],
      ],
      [
        'p2',
        [
          { subject: 'i', relation: 'have_pet', object: 'turtles' },
          { subject: 'i', relation: 'like_animal', object: 'turtle' },
        ],
      ],
      [
        'p3',
        [
          { subject: 'my father', relation: 'has_profession', object: 'teacher' },
          { subject: 'i', relation: 'like_music', object: '<blank>' },
        ],
      ],
    ])
    const qs = buildQueries(profiles, 100, 1).sort((a, b) => a.query.localeCompare(b.query))
    expect(qs.map((q) => [q.query, q.relevant])).toEqual([
      ['has a pet turtle', ['p1', 'p2']],
      ['likes turtle', ['p2']],
      ['lives in texas', ['p1']],
    ])
    expect(buildQueries(profiles, 2, 7)).toHaveLength(2)
  })

  it('drops counts from query objects and counts a profile whose object contains the query words as holding it', () => {
    const profiles = new Map([
      [
        'p1',
        [
          { subject: 'i', relation: 'have_pet', object: '2 dog' },
          { subject: 'i', relation: 'has_profession', object: 'kindergarten teacher' },
        ],
      ],
      [
        'p2',
        [
          { subject: 'i', relation: 'have_pet', object: 'dog' },
          { subject: 'i', relation: 'has_profession', object: 'teacher' },
        ],
      ],
      [
        'p3',
        [
          { subject: 'i', relation: 'like_animal', object: 'dog' },
          { subject: 'i', relation: 'has_profession', object: 'preacher' },
        ],
      ],
    ])
    const qs = buildQueries(profiles, 100, 1).sort((a, b) => a.query.localeCompare(b.query))
    expect(qs.map((q) => [q.query, q.relevant])).toEqual([
      ['has a pet dog', ['p1', 'p2']],
      ['is a kindergarten teacher', ['p1']],
      ['is a preacher', ['p3']],
      ['is a teacher', ['p1', 'p2']],
      ['likes dog', ['p3']],
    ])
    expect(queryObject('0 musician')).toBe('musician')
    expect(queryObject('the 1975')).toBe('the 1975')
  })

  it('keeps only unrelated objects that no gold object contains', () => {
    const { queries, dropped } = unrelatedQueries(['a pet axolotl', 'cricket'])
    expect(dropped).toEqual(expect.arrayContaining(['axolotl', 'cricket']))
    expect(queries.some((q) => /axolotl|cricket/.test(q))).toBe(false)
    expect(queries.length).toBeGreaterThan(10)
  })
})

describe('eval: seeded sample', () => {
  it('is reproducible and a permutation when n covers everything', () => {
    const xs = Array.from({ length: 50 }, (_, i) => i)
    expect(sample(xs, 10, 3)).toEqual(sample(xs, 10, 3))
    expect(sample(xs, 10, 3)).not.toEqual(sample(xs, 10, 4))
    expect([...sample(xs, 100, 1)].sort((a, b) => a - b)).toEqual(xs)
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { merge } from '../../src/domain/merge.js'
import { DEFAULT_PROFILE_LIMITS, type ProfileLimits } from '../../src/domain/profile-limits.js'
import { emptyState, type Extraction, type ProfileState } from '../../src/domain/profile.js'

// Event time decides (docs/guides/the-profile.md "Facts over time"): a scalar's timeline is a function of the
// statements made, whatever order and batches they arrive in.

interface Said {
  city: string
  at: string
  confidence: number
}

const livesIn = (s: Said): Extraction => ({ core_info: { location: { value: s.city, confidence: s.confidence } } })

/** Each batch merged at its own wall-clock time, its statements at their own event times. */
function post(batches: Said[][], limits: ProfileLimits = DEFAULT_PROFILE_LIMITS): ProfileState {
  let state = emptyState()
  batches.forEach((batch, i) => {
    const now = new Date(Date.UTC(2027, 0, 1) + i * 60_000).toISOString()
    state = merge(state, batch.map(livesIn), now, { occurredAt: batch.map((s) => s.at), limits }).state
  })
  return state
}

const timeline = (s: ProfileState) => ({
  current: s.content.core_info.location,
  past: s.content.past_values?.['core_info.location'],
})

// The statements of the report: Madrid in 2014, 2017 and 2023, then "I live in Lisbon now" seven times, 2024-2026.
const MADRID_LISBON: Said[] = [
  { city: 'Madrid', at: '2014-05-01T10:00:00.000Z', confidence: 0.9 },
  { city: 'Madrid', at: '2017-03-12T10:00:00.000Z', confidence: 0.9 },
  { city: 'Madrid', at: '2023-09-30T10:00:00.000Z', confidence: 0.9 },
  ...['2024-02-01', '2024-06-15', '2024-11-03', '2025-03-20', '2025-08-08', '2026-01-05', '2026-04-19'].map((day) => ({
    city: 'Lisbon',
    at: `${day}T10:00:00.000Z`,
    confidence: 0.9,
  })),
]

describe('a timeline in event time', () => {
  it('a newer statement replaces a value said often, more confidently; the replaced one is a past value', () => {
    const s = post([
      MADRID_LISBON.slice(0, 3).map((x) => ({ ...x, confidence: 0.95 })),
      [MADRID_LISBON[3]!].map((x) => ({ ...x, confidence: 0.5 })),
    ])
    expect(s.content.core_info.location).toEqual({ value: 'Lisbon', confidence: 0.5 })
    expect(s.content.past_values?.['core_info.location']).toEqual([
      {
        value: 'Madrid',
        confidence: 1 - 0.05 ** 3,
        from: MADRID_LISBON[0]!.at,
        until: MADRID_LISBON[3]!.at,
        last_said: MADRID_LISBON[2]!.at,
      },
    ])
  })

  it('the Madrid and Lisbon statements give one timeline posted sorted, reversed or shuffled, Lisbon current', () => {
    const sorted = post(MADRID_LISBON.map((x) => [x]))
    const reversed = post([...MADRID_LISBON].reverse().map((x) => [x]))
    const shuffled = post([5, 0, 9, 2, 7, 1, 4, 8, 3, 6].map((i) => [MADRID_LISBON[i]!]))
    const inOneBatch = post([[...MADRID_LISBON].reverse()])
    expect(timeline(sorted).current?.value).toBe('Lisbon')
    expect(timeline(sorted).past).toEqual([
      {
        value: 'Madrid',
        confidence: expect.closeTo(0.999, 12),
        from: MADRID_LISBON[0]!.at,
        until: MADRID_LISBON[3]!.at,
        last_said: MADRID_LISBON[2]!.at,
      },
    ])
    for (const other of [reversed, shuffled, inOneBatch]) expect(timeline(other)).toEqual(timeline(sorted))
  })

  it('any statements, in any order and batches, give the same current value, past values and statements', () => {
    const said = fc.record({
      city: fc.constantFrom('Lisbon', 'lisbon', 'Porto', 'Madrid', 'Faro'),
      at: fc.integer({ min: 0, max: 30 }).map((day) => new Date(Date.UTC(2020, 0, 1 + day)).toISOString()),
      confidence: fc.constantFrom(0.3, 0.6, 0.9),
    })
    const limits = fc.record({
      pastValues: fc.integer({ min: 0, max: 4 }),
      scalarStatements: fc.integer({ min: 1, max: 12 }),
      valueChars: fc.integer({ min: 6, max: 30 }),
    })
    fc.assert(
      fc.property(fc.array(said, { maxLength: 14 }), fc.infiniteStream(fc.nat()), limits, (statements, seeds, l) => {
        const lim = { ...DEFAULT_PROFILE_LIMITS, ...l }
        const expected = post([statements], lim)
        // A permutation, cut into batches.
        const order = statements.map((s) => ({ s, k: seeds.next().value })).sort((a, b) => a.k - b.k)
        const batches: Said[][] = []
        for (const { s, k } of order) {
          if (!batches.length || k % 3 === 0) batches.push([])
          batches[batches.length - 1]!.push(s)
        }
        const got = post(batches, lim)
        expect(timeline(got)).toEqual(timeline(expected))
        expect(got.internals.statements).toEqual(expected.internals.statements)
      }),
      { numRuns: 400 },
    )
  })

  it('windows never have zero length, and each lies within itself and before the next', () => {
    const s = post([
      [
        { city: 'Lisbon', at: '2020-01-01T00:00:00.000Z', confidence: 0.9 },
        { city: 'Porto', at: '2020-01-01T00:00:00.000Z', confidence: 0.8 },
        { city: 'Faro', at: '2020-01-02T00:00:00.000Z', confidence: 0.3 },
        { city: 'Porto', at: '2020-01-03T00:00:00.000Z', confidence: 0.3 },
      ],
    ])
    const past = s.content.past_values!['core_info.location']!
    expect(past.map((p) => p.value)).toEqual(['Faro', 'Lisbon'])
    for (const p of past)
      expect(Date.parse(p.from) < Date.parse(p.until) && p.from <= p.last_said && p.last_said <= p.until).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { parseEventTime } from '../../src/domain/event-time.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState } from '../../src/domain/profile.js'
import { DEFAULT_PROFILE_LIMITS } from '../../src/domain/profile-limits.js'
import type { Extraction, ProfileState, Scored } from '../../src/domain/profile.js'

// Merging in event time (docs/guides/submitting-data.md "Event time"): evidence is ordered by when it was said, not
// when it arrived.

const sv = <T>(value: T, confidence: number): Scored<T> => ({ value, confidence })
const NOW = '2026-01-10T00:00:00.000Z'
const LAST_WEEK = '2026-01-03T10:00:00.000Z'
const LAST_YEAR = '2025-01-03T10:00:00.000Z'
const LONG_AGO = '2020-01-03T10:00:00.000Z'
const livesIn = (city: string, confidence = 0.8): Extraction => ({ core_info: { location: sv(city, confidence) } })

/** One batch per extraction, each said at its own time. */
function backfill(state: ProfileState, ...items: [Extraction, string][]): ProfileState {
  for (const [ex, at] of items) state = merge(state, [ex], NOW, { acceptedAt: [NOW], occurredAt: [at] }).state
  return state
}

describe('merge in event time', () => {
  it('a different value from older evidence does not replace one from newer evidence, across batches', () => {
    const s = backfill(emptyState(), [livesIn('Porto'), LAST_WEEK], [livesIn('Lisbon', 0.95), LAST_YEAR])
    expect(s.content.core_info.location).toEqual(sv('Porto', 0.8))
    expect(s.internals.evidence_at).toEqual({ 'core_info.location': LAST_WEEK })
    // Newer evidence still replaces it.
    const moved = backfill(s, [livesIn('Braga'), '2026-01-08T00:00:00.000Z'])
    expect(moved.content.core_info.location).toEqual(sv('Braga', 0.8))
    expect(moved.internals.evidence_at!['core_info.location']).toBe('2026-01-08T00:00:00.000Z')
  })

  it('older evidence of the same value reinforces it and keeps the newer time', () => {
    const s = backfill(emptyState(), [livesIn('Porto', 0.5), LAST_WEEK], [livesIn('porto', 0.5), LAST_YEAR])
    expect(s.content.core_info.location!.confidence).toBeCloseTo(0.75)
    expect(s.internals.seen['core_info.location']).toBe(2)
    expect(s.internals.evidence_at!['core_info.location']).toBe(LAST_WEEK)
  })

  it('within a batch, extractions are applied oldest first whatever their order', () => {
    const r = merge(emptyState(), [livesIn('Porto'), livesIn('Lisbon'), livesIn('Faro')], NOW, {
      occurredAt: [LAST_WEEK, LAST_YEAR, LONG_AGO],
    })
    expect(r.state.content.core_info.location!.value).toBe('Porto')
    // The history records the value the batch ends with, and nothing replaced (the older values never stood).
    expect(r.changes.core_info).toEqual({ location: sv('Porto', 0.8) })
    // Without times: all said at the merge's time, where the more confident stands.
    expect(
      merge(emptyState(), [livesIn('Porto'), livesIn('Lisbon', 0.9)], NOW).state.content.core_info.location!.value,
    ).toBe('Lisbon')
    expect(
      merge(emptyState(), [livesIn('Porto', 0.9), livesIn('Lisbon')], NOW).state.content.core_info.location!.value,
    ).toBe('Porto')
  })

  it('conversation_style, age and recent mood follow the same rule; default mood counts all sightings', () => {
    const ex = (style: string, age: number, mood: string): Extraction => ({
      core_info: { age: sv(age, 0.9) },
      preferences: { conversation_style: sv(style, 0.9) },
      personality: { mood: sv(mood, 0.9) },
    })
    let s = backfill(emptyState(), [ex('brief', 41, 'calm'), LAST_WEEK], [ex('detailed', 30, 'anxious'), LAST_YEAR])
    expect(s.content.preferences.conversation_style!.value).toBe('brief')
    expect(s.content.core_info.age!.value).toBe(41)
    expect(s.content.personality.mood_trends.recent!.value).toBe('calm')
    // One sighting each: the tie goes to the newer mood.
    expect(s.content.personality.mood_trends.default!.value).toBe('calm')
    s = backfill(s, [ex('detailed', 30, 'anxious'), LONG_AGO])
    expect(s.content.personality.mood_trends.recent!.value).toBe('calm')
    expect(s.content.personality.mood_trends.default!.value).toBe('anxious')
  })

  it('a value stored before event times is dated by when it last changed', () => {
    // Stored before event times: no evidence_at, since or statements; field_timestamps say when it changed.
    const legacy = merge(emptyState(), [livesIn('Porto')], LAST_WEEK).state
    delete legacy.internals.evidence_at
    delete legacy.internals.since
    delete legacy.internals.statements
    expect(backfill(legacy, [livesIn('Lisbon', 0.95), LAST_YEAR]).content.core_info.location!.value).toBe('Porto')
    expect(backfill(legacy, [livesIn('Lisbon', 0.95), NOW]).content.core_info.location!.value).toBe('Lisbon')
  })

  it('keeps one time per scalar path, whatever the number of merges', () => {
    let s = emptyState()
    for (let i = 0; i < 50; i++)
      s = backfill(s, [livesIn(`City${i}`), new Date(Date.parse(LONG_AGO) + i * 86_400_000).toISOString()])
    expect(Object.keys(s.internals.evidence_at!)).toEqual(['core_info.location'])
  })

  it('said_at: each part keeps when evidence last named it, the same whatever batches the evidence came in', () => {
    const sessions: [Extraction, string][] = [
      [{ interests: { music: [sv('jazz', 0.6)] }, personality: { traits: [sv('patient', 0.6)] } }, LONG_AGO],
      [
        { interests: { sports: [sv('tennis', 0.6)] }, memories: [{ event: 'Ran a marathon', confidence: 0.7 }] },
        LAST_YEAR,
      ],
      [
        {
          interests: { music: [sv('jazz', 0.6)] },
          preferences: { topics_to_avoid: [sv('politics', 0.6)] },
          custom: { work: { team: sv('data', 0.7) } },
        },
        LAST_WEEK,
      ],
      [
        {
          core_info: { location: sv('Porto', 0.8) },
          personality: { mood: sv('calm', 0.6) },
          preferences: { conversation_style: sv('brief', 0.6) },
        },
        LAST_YEAR,
      ],
    ]
    const one = merge(
      emptyState(),
      sessions.map(([ex]) => ex),
      '2026-01-10T00:00:00.000Z',
      { occurredAt: sessions.map(([, at]) => at) },
    ).state
    // The same sessions one at a time, in another order, each merged at its own wall-clock time.
    let apart = emptyState()
    for (const [i, [ex, at]] of [...sessions.entries()].reverse())
      apart = merge(apart, [ex], `2026-01-1${i}T00:00:00.000Z`, { occurredAt: [at] }).state
    expect(one.internals.said_at).toEqual({
      interests: LAST_WEEK,
      'interests.music': LAST_WEEK,
      'interests.sports': LAST_YEAR,
      personality: LAST_YEAR,
      'personality.traits': LONG_AGO,
      'personality.mood_trends': LAST_YEAR,
      memories: LAST_YEAR,
      preferences: LAST_WEEK,
      'preferences.topics_to_avoid': LAST_WEEK,
      'preferences.conversation_style': LAST_YEAR,
      'custom.work': LAST_WEEK,
      'custom.work.team': LAST_WEEK,
      core_info: LAST_YEAR,
      'core_info.location': LAST_YEAR,
    })
    expect(apart.internals.said_at).toEqual(one.internals.said_at)
    // The merge times differ (what a context used to order ties by); the said times do not.
    expect(apart.field_timestamps).not.toEqual(one.field_timestamps)
  })

  it('said_at: unknown-time evidence is said at the merge; negated, forgotten or dropped names nothing', () => {
    const s = merge(emptyState(), [{ interests: { music: [sv('jazz', 0.6)] } }], NOW).state
    expect(s.internals.said_at).toEqual({ interests: NOW, 'interests.music': NOW })
    // A value negated in the same extraction is not said.
    const negated = merge(
      emptyState(),
      [{ personality: { traits: [sv('shy', 0.6)] }, removals: [{ section: 'traits', value: 'shy' }] }],
      NOW,
    ).state
    expect(negated.internals.said_at ?? {}).toEqual({})
    // A category the limits drop leaves no said time behind (tidy removes it with the category).
    const limits = { ...DEFAULT_PROFILE_LIMITS, categories: 1 }
    const capped = merge(
      emptyState(),
      [{ interests: { music: [sv('jazz', 0.9)], sports: [sv('tennis', 0.2)] } }],
      NOW,
      { limits, occurredAt: [LAST_WEEK] },
    ).state
    expect(Object.keys(capped.content.interests)).toEqual(['music'])
    expect(capped.internals.said_at).toEqual({ interests: LAST_WEEK, 'interests.music': LAST_WEEK })
  })

  it('is pure: the input state is not mutated', () => {
    const s = backfill(emptyState(), [livesIn('Porto'), LAST_WEEK])
    const copy = structuredClone(s)
    merge(s, [livesIn('Lisbon')], NOW, { occurredAt: [NOW] })
    expect(s).toEqual(copy)
  })
})

describe('event times as given', () => {
  const now = Date.parse('2026-01-10T12:00:00Z')
  it('accepts dates and date-times with an offset, as UTC', () => {
    expect(parseEventTime('2023-05-08', now)).toEqual({ iso: '2023-05-08T00:00:00.000Z' })
    expect(parseEventTime('2023-05-08T23:30:00-02:00', now)).toEqual({ iso: '2023-05-09T01:30:00.000Z' })
    expect(parseEventTime('2026-01-10T12:04:00Z', now)).toEqual({ iso: '2026-01-10T12:04:00.000Z' })
  })
  it('refuses other forms, impossible dates, the far past and the future past the skew', () => {
    for (const bad of [
      '2023-05-08T10:00:00',
      '08/05/2023',
      '2023-02-30',
      '2023-05-08T25:00Z',
      '1899-12-31',
      '2026-01-10T12:06:00Z',
      'x'.repeat(41),
      12,
    ]) {
      expect(parseEventTime(bad, now), String(bad)).toHaveProperty('error')
    }
  })
})

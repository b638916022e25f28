import { describe, expect, it } from 'vitest'
import { forgetValue, restoreSnapshot } from '../../src/domain/forget.js'
import { merge, type MergeOptions } from '../../src/domain/merge.js'
import { keyMemo } from '../../src/domain/merge-rules.js'
import { contentViolation, DEFAULT_PROFILE_LIMITS, enforceLimits } from '../../src/domain/profile-limits.js'
import {
  emptyState,
  type Extraction,
  type PastValue,
  type ProfileState,
  type Scored,
} from '../../src/domain/profile.js'

// Facts over time (docs/guides/the-profile.md "Facts over time"): a scalar keeps the values it held before, each with
// its window in event time, whatever order the evidence arrives in.

const sv = <T>(value: T, confidence: number): Scored<T> => ({ value, confidence })
const NOW = '2026-01-10T00:00:00.000Z'
const d = (day: string) => `${day}T00:00:00.000Z`
const livesIn = (city: string, confidence = 0.8): Extraction => ({ core_info: { location: sv(city, confidence) } })
const past = (
  value: string | number,
  confidence: number,
  from: string,
  until: string,
  last_said = from,
): PastValue => ({ value, confidence, from: d(from), until: d(until), last_said: d(last_said) })

/** One batch per extraction, each said at its own time. */
function said(state: ProfileState, items: [Extraction, string][], opts: MergeOptions = {}): ProfileState {
  for (const [ex, at] of items)
    state = merge(state, [ex], NOW, { acceptedAt: [NOW], occurredAt: [d(at)], ...opts }).state
  return state
}
const locations = (s: ProfileState) => s.content.past_values?.['core_info.location']

describe('past values of a scalar', () => {
  it('a replaced value is kept with its window, and the history entry says it', () => {
    const s = said(emptyState(), [[livesIn('Lisbon', 0.9), '2019-06-01']])
    const r = merge(s, [livesIn('Porto', 0.85)], NOW, { acceptedAt: [NOW], occurredAt: [d('2025-03-10')] })
    expect(r.state.content.core_info.location).toEqual(sv('Porto', 0.85))
    expect(locations(r.state)).toEqual([past('Lisbon', 0.9, '2019-06-01', '2025-03-10')])
    expect(r.state.internals.since).toEqual({ 'core_info.location': d('2025-03-10') })
    expect(r.changes.replaced).toEqual({
      'core_info.location': { ...sv('Lisbon', 0.9), from: d('2019-06-01'), until: d('2025-03-10') },
    })
    expect(r.changes.past_values).toBeUndefined()
  })

  it('back-filled older evidence: same timeline, current value kept, the entry lists the past value', () => {
    const s = said(emptyState(), [[livesIn('Porto', 0.85), '2025-03-10']])
    const r = merge(s, [livesIn('Lisbon', 0.9)], NOW, { acceptedAt: [NOW], occurredAt: [d('2019-06-01')] })
    expect(r.state.content.core_info.location).toEqual(sv('Porto', 0.85))
    expect(locations(r.state)).toEqual([past('Lisbon', 0.9, '2019-06-01', '2025-03-10')])
    expect(r.changed).toBe(true)
    expect(r.changes).toEqual({
      past_values: { 'core_info.location': [past('Lisbon', 0.9, '2019-06-01', '2025-03-10')] },
    })
    // Both in one batch, in either order: the same.
    for (const order of [
      [livesIn('Lisbon', 0.9), livesIn('Porto', 0.85), '2019-06-01', '2025-03-10'],
      [livesIn('Porto', 0.85), livesIn('Lisbon', 0.9), '2025-03-10', '2019-06-01'],
    ] as const) {
      const b = merge(emptyState(), [order[0], order[1]], NOW, { occurredAt: [d(order[2]), d(order[3])] }).state
      expect(b.content.core_info.location!.value).toBe('Porto')
      expect(locations(b)).toEqual([past('Lisbon', 0.9, '2019-06-01', '2025-03-10')])
    }
  })

  it('a past value: its evidence reinforces it; said earlier, it reaches back; so does the current value', () => {
    let s = said(emptyState(), [
      [livesIn('Porto'), '2025-03-10'],
      [livesIn('Lisbon', 0.5), '2019-06-01'],
      [livesIn('lisbon', 0.5), '2020-01-01'],
    ])
    expect(locations(s)).toEqual([past('lisbon', 0.75, '2019-06-01', '2025-03-10', '2020-01-01')])
    s = said(s, [[livesIn('Lisbon', 0.5), '2018-01-01']])
    expect(locations(s)).toEqual([past('lisbon', 0.875, '2018-01-01', '2025-03-10', '2020-01-01')])
    // Porto said in 2023, after Lisbon was last said: Porto began then.
    s = said(s, [[livesIn('Porto'), '2023-01-01']])
    expect(locations(s)).toEqual([past('lisbon', 0.875, '2018-01-01', '2023-01-01', '2020-01-01')])
    expect(s.internals.since!['core_info.location']).toBe(d('2023-01-01'))
    expect(s.content.core_info.location).toEqual(sv('Porto', 0.96))
  })

  it('a value said between two values starts a window there, also between two statements of another value', () => {
    let s = said(emptyState(), [
      [livesIn('Lisbon'), '2019-06-01'],
      [livesIn('Porto'), '2025-03-10'],
      [livesIn('Madrid'), '2022-01-01'],
    ])
    expect(locations(s)).toEqual([
      past('Madrid', 0.8, '2022-01-01', '2025-03-10'),
      past('Lisbon', 0.8, '2019-06-01', '2022-01-01'),
    ])
    // Said before Madrid's start, after Lisbon was last said: the next window (Madrid) reaches back.
    s = said(s, [[livesIn('Madrid'), '2021-01-01']])
    expect(locations(s)).toEqual([
      past('Madrid', 0.96, '2021-01-01', '2025-03-10', '2022-01-01'),
      past('Lisbon', 0.8, '2019-06-01', '2021-01-01'),
    ])
    // Older than all: a window of its own, first.
    s = said(s, [[livesIn('Faro'), '2010-01-01']])
    expect(locations(s)!.map((p) => [p.value, p.from.slice(0, 10), p.until.slice(0, 10)])).toEqual([
      ['Madrid', '2021-01-01', '2025-03-10'],
      ['Lisbon', '2019-06-01', '2021-01-01'],
      ['Faro', '2010-01-01', '2019-06-01'],
    ])
    // Lisbon said again in 2020, and Braga in between (2019-12-01): Lisbon, then Braga, then Lisbon again.
    s = said(s, [
      [livesIn('Lisbon'), '2020-06-01'],
      [livesIn('Braga'), '2019-12-01'],
    ])
    expect(locations(s)!.map((p) => [p.value, p.from.slice(0, 10), p.until.slice(0, 10)])).toEqual([
      ['Madrid', '2021-01-01', '2025-03-10'],
      ['Lisbon', '2020-06-01', '2021-01-01'],
      ['Braga', '2019-12-01', '2020-06-01'],
      ['Lisbon', '2019-06-01', '2019-12-01'],
      ['Faro', '2010-01-01', '2019-06-01'],
    ])
    // And nothing older than the current value's start replaced it.
    expect(s.content.core_info.location!.value).toBe('Porto')
  })

  it('distinct values said once give the same timeline in any order of arrival, with windows in order', () => {
    const cities = ['Faro', 'Lisbon', 'Madrid', 'Paris', 'Berlin', 'Oslo', 'Rome', 'Porto']
    const times = cities.map((_, i) => `${2010 + i}-0${1 + (i % 9)}-01`)
    const chronological = said(
      emptyState(),
      cities.map((c, i) => [livesIn(c), times[i]!]),
    )
    const expected = locations(chronological)
    expect(expected!.map((p) => p.value)).toEqual(cities.slice(0, -1).reverse())
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let round = 0; round < 50; round++) {
      const order = cities.map((_, i) => i).sort(() => random() - 0.5)
      const s = said(
        emptyState(),
        order.map((i) => [livesIn(cities[i]!), times[i]!]),
      )
      expect(s.content.core_info.location!.value, order.join()).toBe('Porto')
      expect(locations(s), order.join()).toEqual(expected)
    }
    // Windows: newest first, each within itself, none overlapping the next.
    const list = expected!
    for (let k = 0; k < list.length; k++) {
      const p = list[k]!
      expect(p.from <= p.last_said && p.last_said <= p.until).toBe(true)
      expect(p.until <= (k === 0 ? chronological.internals.since!['core_info.location']! : list[k - 1]!.from)).toBe(
        true,
      )
    }
  })

  it('every scalar keeps its past: age, occupation, conversation style, the recent mood', () => {
    const ex = (age: number, job: string, style: string, mood: string): Extraction => ({
      core_info: { age: sv(age, 0.9), occupation: sv(job, 0.9) },
      preferences: { conversation_style: sv(style, 0.9) },
      personality: { mood: sv(mood, 0.9) },
    })
    const s = said(emptyState(), [
      [ex(30, 'teacher', 'brief', 'calm'), '2020-01-01'],
      [ex(31, 'nurse', 'detailed', 'anxious'), '2021-01-01'],
    ])
    expect(s.content.past_values).toEqual({
      'core_info.age': [past(30, 0.9, '2020-01-01', '2021-01-01')],
      'core_info.occupation': [past('teacher', 0.9, '2020-01-01', '2021-01-01')],
      'preferences.conversation_style': [past('brief', 0.9, '2020-01-01', '2021-01-01')],
      'personality.mood_trends.recent': [past('calm', 0.9, '2020-01-01', '2021-01-01')],
    })
  })

  it('keeps at most the limit per scalar (the oldest go, listed as dropped), in the merge and in enforceLimits', () => {
    const limits = { ...DEFAULT_PROFILE_LIMITS, pastValues: 3 }
    let s = emptyState()
    let last: ReturnType<typeof merge> | undefined
    for (let i = 0; i < 6; i++) {
      last = merge(s, [livesIn(`City ${i}`)], NOW, { occurredAt: [d(`201${i}-01-01`)], limits })
      s = last.state
    }
    expect(locations(s)!.map((p) => p.value)).toEqual(['City 4', 'City 3', 'City 2'])
    expect(last!.changes.dropped).toMatchObject({
      total: 1,
      limits: ['past_values'],
      values: [{ section: 'core_info.location', value: 'City 1' }],
    })
    // Back-filled older than the oldest kept: it goes at once.
    const r = merge(s, [livesIn('Faro')], NOW, { occurredAt: [d('2000-01-01')], limits })
    expect(locations(r.state)!.map((p) => p.value)).toEqual(['City 4', 'City 3', 'City 2'])
    expect(r.changes.dropped?.limits).toEqual(['past_values'])
    // A state over the limit (a snapshot kept under a larger one) is cut by enforceLimits; an import is refused.
    const log = enforceLimits(s, { ...limits, pastValues: 1 }, keyMemo())
    expect(locations(s)!.map((p) => p.value)).toEqual(['City 4'])
    expect(log.result()).toMatchObject({ total: 2, limits: ['past_values'] })
    const content = structuredClone(s.content)
    content.past_values!['core_info.location'] = Array.from({ length: 10_000 }, (_, i) =>
      past(`v${i}`, 0.5, '2000-01-01', '2000-01-02'),
    )
    expect(contentViolation(content, DEFAULT_PROFILE_LIMITS)).toBe(
      'past_values.core_info.location holds 10000 values; at most 20 (PROFILER_PROFILE_MAX_PAST_VALUES)',
    )
  })

  it('past values count toward the byte limit and go before any current value', () => {
    let s = emptyState()
    for (let i = 0; i < 10; i++)
      s = merge(
        s,
        [{ core_info: { location: sv(`${'x'.repeat(900)}${i}`, 0.8) }, interests: { music: [sv(`song ${i}`, 0.1)] } }],
        NOW,
        { occurredAt: [d(`201${i}-01-01`)] },
      ).state
    expect(locations(s)).toHaveLength(9)
    const bytes = Buffer.byteLength(JSON.stringify(s.content))
    const log = enforceLimits(s, { ...DEFAULT_PROFILE_LIMITS, profileBytes: bytes - 2000 }, keyMemo())
    expect(log.result()!.limits).toEqual(['profile_bytes'])
    expect(log.result()!.values.every((v) => v.section === 'core_info.location')).toBe(true)
    expect(s.content.interests.music).toHaveLength(10)
  })

  it('forgetting removes a value from the past; back-filled evidence or a rollback cannot bring it back', () => {
    const s = said(emptyState(), [
      [livesIn('Lisbon'), '2019-06-01'],
      [livesIn('Madrid'), '2022-01-01'],
      [livesIn('Porto'), '2025-03-10'],
    ])
    const f = forgetValue(s, { section: 'core_info.location', value: 'lisbon' }, NOW)
    expect(f.found).toBe(true)
    expect(f.changes).toEqual({ removed: [{ section: 'core_info.location', value: 'Lisbon' }] })
    expect(locations(f.state)).toEqual([past('Madrid', 0.8, '2022-01-01', '2025-03-10')])
    // Evidence accepted before the forget (a back-filled conversation sent earlier) cannot bring it back.
    const again = merge(f.state, [livesIn('Lisbon')], NOW, {
      acceptedAt: ['2026-01-01T00:00:00.000Z'],
      occurredAt: [d('2019-06-01')],
    })
    expect(locations(again.state)!.map((p) => p.value)).toEqual(['Madrid'])
    // A rollback to the state before the forget keeps it forgotten.
    const back = restoreSnapshot(f.state, s, 3, NOW)
    expect(locations(back.state)!.map((p) => p.value)).toEqual(['Madrid'])
    // Forgetting the current value leaves the past; forgetting the last past value leaves no past_values at all.
    const cur = forgetValue(f.state, { section: 'core_info.location', value: 'Porto' }, NOW)
    expect(cur.state.content.core_info.location).toBeUndefined()
    expect(locations(cur.state)!.map((p) => p.value)).toEqual(['Madrid'])
    expect(
      forgetValue(cur.state, { section: 'core_info.location', value: 'Madrid' }, NOW).state.content.past_values,
    ).toBeUndefined()
  })

  it('a thousand changes of a scalar in one batch keep the limit, newest first, windows in order', () => {
    const batch = (n: number) => Array.from({ length: n }, (_, i) => livesIn(`City ${i % 50}`))
    const times = (n: number) =>
      Array.from({ length: n }, (_, i) => new Date(Date.UTC(2000, 0, 1) + ((i * 7919) % n) * 86_400_000).toISOString())
    const r = merge(emptyState(), batch(1000), NOW, { occurredAt: times(1000) })
    expect(locations(r.state)).toHaveLength(DEFAULT_PROFILE_LIMITS.pastValues)
    const list = locations(r.state)!
    for (let k = 1; k < list.length; k++) expect(list[k]!.until <= list[k - 1]!.from).toBe(true)
  })
})

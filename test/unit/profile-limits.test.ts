// The profile limits (src/domain/profile-limits.ts) and the merge's cost: what is kept, what is recorded, and that the
// work grows with the profile plus the batch, not with their product.
import { describe, expect, it } from 'vitest'
import { merge } from '../../src/domain/merge.js'
import { keyMemo } from '../../src/domain/merge-rules.js'
import * as normalise from '../../src/domain/normalise.js'
import {
  contentViolation,
  DEFAULT_PROFILE_LIMITS,
  enforceLimits,
  MAX_MOODS,
  type ProfileLimits,
} from '../../src/domain/profile-limits.js'
import { emptyContent, emptyState, type ProfileState } from '../../src/domain/profile.js'

// Counted by normaliseValue itself (a module mock would not reach merge-rules when the worker has already imported it).
const calls = normalise.normaliseCalls

const NOW = '2025-01-01T00:00:00.000Z'
const limits = (o: Partial<ProfileLimits>): ProfileLimits => ({ ...DEFAULT_PROFILE_LIMITS, ...o })
const scored = (value: string, confidence: number) => ({ value, confidence })

describe('enforceLimits', () => {
  it('a list keeps its most confident entries, the newest of equals, and logs the rest', () => {
    const s = emptyState()
    s.content.personality.traits = [
      scored('a', 0.5),
      scored('b', 0.9),
      scored('c', 0.5),
      scored('d', 0.2),
      scored('e', 0.5),
    ]
    const log = enforceLimits(s, limits({ listValues: 3 }), keyMemo())
    expect(s.content.personality.traits.map((t) => t.value)).toEqual(['b', 'c', 'e'])
    expect(log.result()).toEqual({
      total: 2,
      limits: ['list_values'],
      values: [
        { section: 'personality.traits', value: 'd' },
        { section: 'personality.traits', value: 'a' },
      ],
    })
  })

  it('past the category limit, the categories whose best value is least confident go whole', () => {
    const s = emptyState()
    s.content.interests = {
      music: [scored('jazz', 0.9)],
      food: [scored('sushi', 0.3), scored('tea', 0.4)],
      sport: [scored('golf', 0.6)],
    }
    s.field_timestamps = { 'interests.food': NOW, 'interests.music': NOW, interests: NOW }
    enforceLimits(s, limits({ categories: 2 }), keyMemo())
    expect(Object.keys(s.content.interests).sort()).toEqual(['music', 'sport'])
    // A category that is gone loses its timestamp; the section keeps its own.
    expect(s.field_timestamps).toEqual({ 'interests.music': NOW, interests: NOW })
  })

  it('interests in all and custom values in all: the least confident of any list go first', () => {
    const s = emptyState()
    s.content.interests = { a: [scored('x1', 0.9), scored('x2', 0.1)], b: [scored('y1', 0.2), scored('y2', 0.8)] }
    s.content.custom = {
      diet: { tags: [scored('vegan', 0.3), scored('raw', 0.9)], budget: { value: 10, confidence: 0.1 } },
    } as never
    s.internals.seen['custom.diet.budget'] = 2
    enforceLimits(s, limits({ interests: 2, customValues: 1 }), keyMemo())
    expect(s.content.interests).toEqual({ a: [scored('x1', 0.9)], b: [scored('y2', 0.8)] })
    expect(s.content.custom).toEqual({ diet: { tags: [scored('raw', 0.9)] } })
    expect(s.internals.seen['custom.diet.budget']).toBeUndefined()
  })

  it('memories: the least important, then least confident, then oldest go', () => {
    const s = emptyState()
    s.content.memories = [
      { event: 'a', importance: 'low', confidence: 0.9 },
      { event: 'b', confidence: 0.5 },
      { event: 'c', importance: 'high', confidence: 0.1 },
      { event: 'd', confidence: 0.5 },
    ]
    enforceLimits(s, limits({ memories: 2 }), keyMemo())
    expect(s.content.memories.map((m) => m.event)).toEqual(['c', 'd'])
  })

  it('past the byte limit, the least confident values of all sections go until the content fits', () => {
    const s = emptyState()
    for (let i = 0; i < 50; i++) s.content.personality.traits.push(scored(`trait ${i} ${'x'.repeat(50)}`, 0.8))
    for (let i = 0; i < 50; i++) s.content.memories.push({ event: `memory ${i} ${'y'.repeat(50)}`, confidence: 0.5 })
    const log = enforceLimits(s, limits({ profileBytes: 4000 }), keyMemo())
    expect(Buffer.byteLength(JSON.stringify(s.content))).toBeLessThanOrEqual(4000)
    // Memories (less confident) went first, and only as many as needed.
    expect(s.content.memories.length).toBe(0)
    expect(s.content.personality.traits.length).toBeGreaterThan(40)
    expect(log.result()).toMatchObject({ limits: ['profile_bytes'] })
    expect(log.result()!.values).toHaveLength(50)
  })

  it('keeps at most MAX_MOODS moods counted, and the current ones always', () => {
    const s = emptyState()
    for (let i = 0; i < 300; i++) s.internals.mood_counts[`mood${i}`] = i < 5 ? 100 : 1
    s.content.personality.mood_trends = { default: scored('mood0', 0.3), recent: scored('mood299', 1) }
    enforceLimits(s, DEFAULT_PROFILE_LIMITS, keyMemo())
    expect(Object.keys(s.internals.mood_counts).length).toBeLessThanOrEqual(MAX_MOODS + 1)
    expect(s.internals.mood_counts.mood0).toBe(100)
    expect(s.internals.mood_counts.mood299).toBe(1)
  })
})

describe('contentViolation', () => {
  it('names the first breach, and null within the limits', () => {
    const c = emptyContent()
    expect(contentViolation(c, DEFAULT_PROFILE_LIMITS)).toBeNull()
    c.interests.music = Array.from({ length: 6 }, (_, i) => scored(`v${i}`, 0.5))
    expect(contentViolation(c, limits({ listValues: 5 }))).toMatch(
      /^interests\.music holds 6 values; at most 5 \(PROFILER_PROFILE_MAX_LIST_VALUES\)/,
    )
    expect(contentViolation(c, limits({ interests: 4 }))).toMatch(/PROFILER_PROFILE_MAX_INTERESTS/)
    c.memories = [{ event: 'x'.repeat(20) }]
    expect(contentViolation(c, limits({ valueChars: 10 }))).toMatch(
      /^memories\[0\]\.event is longer than 10 characters/,
    )
    expect(contentViolation(c, limits({ profileBytes: 100 }))).toMatch(/PROFILER_PROFILE_MAX_BYTES/)
  })
})

describe('the merge is linear', () => {
  /** A profile of `n` interests in 50 categories, and a batch of `k` new ones. */
  const sized = (n: number): ProfileState => {
    const s = emptyState()
    for (let i = 0; i < n; i++) (s.content.interests[`c${i % 50}`] ??= []).push(scored(`value ${i}`, 0.5))
    return s
  }
  const batch = (k: number) => [{ interests: { music: Array.from({ length: k }, (_, i) => scored(`new ${i}`, 0.6)) } }]

  it('normalises each distinct value a bounded number of times, whatever the profile and batch sizes', () => {
    const big = limits({ interests: 1e6, listValues: 1e6, categories: 1e6, profileBytes: 1e9 })
    for (const [n, k] of [
      [1000, 100],
      [10_000, 100],
      [10_000, 5000],
      [40_000, 9000],
    ] as const) {
      calls.n = 0
      const r = merge(sized(n), batch(k), NOW, { limits: big })
      expect(r.changed).toBe(true)
      // Before: each added value scanned every stored one (n * k normalisations; 360 million for the last case).
      expect(calls.n, `${n} stored, ${k} added`).toBeLessThanOrEqual(3 * (n + k))
      expect(calls.n).toBeGreaterThanOrEqual(n + k) // the count sees the merge's calls
    }
  })

  it('cuts a profile stored far over the limits in one merge, linearly', () => {
    calls.n = 0
    const r = merge(sized(80_000), batch(100), NOW)
    expect(Object.values(r.state.content.interests).flat().length).toBe(DEFAULT_PROFILE_LIMITS.interests)
    expect(r.changes.dropped?.total).toBe(80_100 - DEFAULT_PROFILE_LIMITS.interests)
    expect(calls.n).toBeLessThanOrEqual(3 * 80_100)
  })
})

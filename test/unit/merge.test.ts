import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { merge } from '../../src/domain/merge.js'
import { reinforce } from '../../src/domain/merge-rules.js'
import { categoryKey, normaliseValue } from '../../src/domain/normalise.js'
import { emptyState } from '../../src/domain/profile.js'
import type { Extraction, ProfileState, Scored } from '../../src/domain/profile.js'

const T1 = '2024-01-01T00:00:00.000Z'
const T2 = '2024-02-01T00:00:00.000Z'
const T3 = '2024-03-01T00:00:00.000Z'
const sv = <T>(value: T, confidence: number): Scored<T> => ({ value, confidence })

/** Applies each batch in turn, each at its own time. */
function run(...batches: Extraction[][]): ProfileState {
  let state = emptyState()
  batches.forEach((b, i) => (state = merge(state, b, `2024-01-0${i + 1}T00:00:00.000Z`).state))
  return state
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v)
    Object.freeze(o)
  }
  return o
}

describe('merge: confidence and value hygiene', () => {
  it('clamps confidence to [0,1]', () => {
    const { state } = merge(emptyState(), [{ core_info: { name: sv('Ann', 7), location: sv('Paris', -2) } }], T1)
    expect(state.content.core_info.name).toEqual(sv('Ann', 1))
    expect(state.content.core_info.location).toEqual(sv('Paris', 0))
  })

  it('treats NaN, missing and non-numeric confidence as 0.5, and Infinity as 1', () => {
    const ex = {
      core_info: {
        name: sv('Ann', NaN),
        gender: { value: 'female' },
        location: sv('Rome', '0.9' as unknown as number),
        occupation: sv('nurse', Infinity),
      },
    } as unknown as Extraction
    const c = merge(emptyState(), [ex], T1).state.content.core_info
    expect(c.name?.confidence).toBe(0.5)
    expect(c.gender?.confidence).toBe(0.5)
    expect(c.location?.confidence).toBe(0.5)
    expect(c.occupation?.confidence).toBe(1)
  })

  it('trims values and ignores empty, punctuation-only and non-string ones', () => {
    const ex = {
      core_info: { name: sv('  Ann  ', 0.9), location: sv('   ', 0.9), gender: sv('!!', 0.9), occupation: sv(42, 0.9) },
      interests: { music: [sv(' jazz ', 0.5), sv('', 0.5), sv('  ', 0.5)] },
      personality: { traits: [sv('', 0.5)], mood: sv(' ', 0.5) },
      memories: [{ event: '  ' }],
    } as unknown as Extraction
    const r = merge(emptyState(), [ex], T1)
    expect(r.state.content.core_info).toEqual({ name: sv('Ann', 0.9) })
    expect(r.state.content.interests).toEqual({ music: [sv('jazz', 0.5)] })
    expect(r.state.content.personality).toEqual({ traits: [], mood_trends: {} })
    expect(r.state.content.memories).toEqual([])
  })
})

describe('merge: scalars', () => {
  it('sets a new value, counts it seen once and reports it', () => {
    const r = merge(emptyState(), [{ core_info: { name: sv('Ann', 0.6) } }], T1)
    expect(r.state.content.core_info.name).toEqual(sv('Ann', 0.6))
    expect(r.state.internals.seen['core_info.name']).toBe(1)
    expect(r.changes).toEqual({ core_info: { name: sv('Ann', 0.6) } })
    expect(r.changed).toBe(true)
  })

  it('reinforces the same value with 1-(1-a)(1-b), keeping the newest display form', () => {
    const s = run([{ core_info: { name: sv('ann', 0.6) } }])
    const r = merge(s, [{ core_info: { name: sv('Ann', 0.5) } }], T2)
    expect(r.state.content.core_info.name?.value).toBe('Ann')
    expect(r.state.content.core_info.name?.confidence).toBeCloseTo(0.8, 12)
    expect(r.state.internals.seen['core_info.name']).toBe(2)
    expect(r.changes.core_info?.name?.confidence).toBeCloseTo(0.8, 12)
    expect(r.changes.replaced).toBeUndefined()
  })

  it('compares scalars by normalised value', () => {
    const s = run(
      [{ core_info: { location: sv('The Hague', 0.5) } }],
      [{ core_info: { location: sv('the hague!', 0.5) } }],
    )
    expect(s.content.core_info.location).toEqual(sv('the hague!', 0.75))
  })

  it('compares ages numerically and reinforces them', () => {
    const s = run([{ core_info: { age: sv(34, 0.5) } }], [{ core_info: { age: sv(34.0, 0.5) } }])
    expect(s.content.core_info.age).toEqual(sv(34, 0.75))
    expect(s.internals.seen['core_info.age']).toBe(2)
  })

  it('rounds ages, accepts digit strings and ignores implausible ones', () => {
    expect(run([{ core_info: { age: sv(33.6, 0.5) } }]).content.core_info.age?.value).toBe(34)
    expect(run([{ core_info: { age: sv('41', 0.5) } } as unknown as Extraction]).content.core_info.age?.value).toBe(41)
    for (const bad of [-1, 151, NaN, Infinity, 'old']) {
      expect(run([{ core_info: { age: sv(bad, 0.5) } } as unknown as Extraction]).content.core_info.age).toBeUndefined()
    }
  })

  it('replaces a confirmed value with a more confident different one and records the old one', () => {
    const s = run([{ core_info: { location: sv('Paris', 0.5) } }], [{ core_info: { location: sv('Paris', 0.5) } }])
    expect(s.internals.seen['core_info.location']).toBe(2)
    const r = merge(s, [{ core_info: { location: sv('Berlin', 0.9) } }], T3)
    expect(r.state.content.core_info.location).toEqual(sv('Berlin', 0.9))
    expect(r.state.internals.seen['core_info.location']).toBe(1)
    expect(r.changes.core_info?.location).toEqual(sv('Berlin', 0.9))
    expect(r.changes.replaced).toEqual({ 'core_info.location': { ...sv('Paris', 0.75), from: T1, until: T3 } })
    // The old value stays as the scalar's newest past value, with its window
    // (docs/guides/the-profile.md "Facts over time").
    expect(r.state.content.past_values).toEqual({
      'core_info.location': [{ ...sv('Paris', 0.75), from: T1, until: T3, last_said: '2024-01-02T00:00:00.000Z' }],
    })
  })

  it('replaces a confirmed value with an equally confident one', () => {
    const s = run([{ core_info: { age: sv(30, 0.5) } }], [{ core_info: { age: sv(30, 0.5) } }])
    const r = merge(s, [{ core_info: { age: sv(31, 0.75) } }], T3)
    expect(r.state.content.core_info.age).toEqual(sv(31, 0.75))
    expect(r.changes.replaced).toEqual({ 'core_info.age': { ...sv(30, 0.75), from: T1, until: T3 } })
  })

  it('replaces a value said often and with more confidence by one newer statement', () => {
    const s = run([{ core_info: { name: sv('Ann', 0.9) } }], [{ core_info: { name: sv('Ann', 0.9) } }])
    expect(s.content.core_info.name).toEqual(sv('Ann', 0.99))
    const r = merge(s, [{ core_info: { name: sv('Bob', 0.6) } }], T3)
    expect(r.state.content.core_info.name).toEqual(sv('Bob', 0.6))
    expect(r.state.internals.seen['core_info.name']).toBe(1)
    expect(r.changes.replaced).toEqual({ 'core_info.name': { ...sv('Ann', 0.99), from: T1, until: T3 } })
  })

  it('between different values said at the same time, the more confident stands and the other leaves no window', () => {
    const r = merge(
      emptyState(),
      [{ core_info: { name: sv('Bob', 0.6) } }, { core_info: { name: sv('Ann', 0.9) } }],
      T1,
    )
    expect(r.state.content.core_info.name).toEqual(sv('Ann', 0.9))
    expect(r.state.content.past_values).toBeUndefined()
    // The same confidence: the same one stands in either order.
    const tie = (a: string, b: string) =>
      merge(emptyState(), [{ core_info: { name: sv(a, 0.7) } }, { core_info: { name: sv(b, 0.7) } }], T1).state.content
        .core_info.name
    expect(tie('Bob', 'Ann')).toEqual(tie('Ann', 'Bob'))
  })

  it('replaces a never-confirmed value even with a less confident one', () => {
    const s = run([{ core_info: { name: sv('Ann', 0.9) } }])
    const r = merge(s, [{ core_info: { name: sv('Bob', 0.2) } }], T2)
    expect(r.state.content.core_info.name).toEqual(sv('Bob', 0.2))
    expect(r.changes.replaced).toEqual({ 'core_info.name': { ...sv('Ann', 0.9), from: T1, until: T2 } })
  })

  it('an undated stored value is dated by the merge: newer evidence replaces it, same-time competes', () => {
    const s = emptyState()
    s.content.core_info.gender = sv('male', 0.9)
    expect(
      merge(s, [{ core_info: { gender: sv('female', 0.1) } }], T1, { occurredAt: [T2] }).state.content.core_info.gender,
    ).toEqual(sv('female', 0.1))
    expect(merge(s, [{ core_info: { gender: sv('female', 0.1) } }], T1).state.content.core_info.gender).toEqual(
      sv('male', 0.9),
    )
  })

  it('applies the same rule to occupation and conversation_style', () => {
    const s = run(
      [{ core_info: { occupation: sv('nurse', 0.6) }, preferences: { conversation_style: sv('casual', 0.6) } }],
      [{ core_info: { occupation: sv('Nurses', 0.5) }, preferences: { conversation_style: sv('Casual', 0.5) } }],
    )
    expect(s.content.core_info.occupation?.confidence).toBeCloseTo(0.8, 12)
    expect(s.content.preferences.conversation_style).toEqual({
      value: 'Casual',
      confidence: s.content.preferences.conversation_style?.confidence,
    })
    const r = merge(
      s,
      [{ core_info: { occupation: sv('doctor', 0.3) }, preferences: { conversation_style: sv('formal', 0.9) } }],
      T3,
    )
    expect(r.state.content.core_info.occupation).toEqual(sv('doctor', 0.3))
    expect(r.state.content.preferences.conversation_style).toEqual(sv('formal', 0.9))
    expect(Object.keys(r.changes.replaced ?? {}).sort()).toEqual([
      'core_info.occupation',
      'preferences.conversation_style',
    ])
  })

  it('records the pre-batch value when several extractions of a batch replace it at different times', () => {
    const s = run([{ core_info: { name: sv('Ann', 0.5) } }])
    const r = merge(s, [{ core_info: { name: sv('Cat', 0.7) } }, { core_info: { name: sv('Bea', 0.6) } }], T3, {
      occurredAt: [T3, T2],
    })
    expect(r.state.content.core_info.name).toEqual(sv('Cat', 0.7))
    expect(r.changes.replaced).toEqual({ 'core_info.name': { ...sv('Ann', 0.5), from: T1, until: T2 } })
    // Bea held in between; it is a past value of this batch.
    expect(r.changes.past_values).toEqual({
      'core_info.name': [{ ...sv('Bea', 0.6), from: T2, until: T3, last_said: T2 }],
    })
  })

  it('records no replacement when a batch ends on the value it started with', () => {
    const s = run([{ core_info: { name: sv('Ann', 0.5) } }])
    const r = merge(s, [{ core_info: { name: sv('Ann', 0.7) } }, { core_info: { name: sv('Bea', 0.6) } }], T3, {
      occurredAt: [T3, T2],
    })
    expect(r.state.content.core_info.name).toEqual(sv('Ann', 0.7))
    expect(r.changes.replaced).toBeUndefined()
    expect(r.changes.core_info?.name).toEqual(sv('Ann', 0.7))
    expect(r.changes.past_values).toEqual({
      'core_info.name': [
        { ...sv('Bea', 0.6), from: T2, until: T3, last_said: T2 },
        { ...sv('Ann', 0.5), from: T1, until: T2, last_said: T1 },
      ],
    })
  })

  it('is no change when a repeat cannot raise a confidence of 1', () => {
    const s = run([{ core_info: { name: sv('Ann', 1) } }])
    const r = merge(s, [{ core_info: { name: sv('Ann', 1) } }], T2)
    expect(r.changed).toBe(false)
    expect(r.changes).toEqual({})
    // ...but the sighting still counts: the value is now confirmed.
    expect(r.state.internals.seen['core_info.name']).toBe(2)
  })
})

describe('merge: lists', () => {
  it('dedupes "Hiking", "hiking " and "hikes" into one reinforced entry with the newest display form', () => {
    const r = merge(
      emptyState(),
      [{ interests: { hobbies: [sv('Hiking', 0.5), sv('hiking ', 0.5), sv('hikes', 0.5)] } }],
      T1,
    )
    expect(r.state.content.interests).toEqual({ hobbies: [sv('hikes', 0.875)] })
  })

  it('raises confidence on a repeat in a later batch and reports it as a change', () => {
    const s = run([{ interests: { music: [sv('jazz', 0.6), sv('rock', 0.5)] } }])
    const r = merge(s, [{ interests: { music: [sv('Jazz', 0.5)] } }], T2)
    expect(r.state.content.interests.music).toEqual([sv('Jazz', 0.8), sv('rock', 0.5)])
    expect(r.changes).toEqual({ interests: { music: [sv('Jazz', 0.8)] } })
    expect(r.changed).toBe(true)
  })

  it('normalises category names to lower snake_case', () => {
    const r = merge(
      emptyState(),
      [{ interests: { 'Movies TV': [sv('Inception', 0.5)], 'Movies & TV': [sv('Dune', 0.5)] } }],
      T1,
    )
    expect(Object.keys(r.state.content.interests)).toEqual(['movies_tv'])
    expect(r.state.content.interests.movies_tv.map((e) => e.value)).toEqual(['Inception', 'Dune'])
    expect(r.state.field_timestamps['interests.movies_tv']).toBe(T1)
  })

  it('dedupes interests across categories by reinforcing where the value already sits', () => {
    const s = run([{ interests: { hobbies: [sv('Hiking', 0.5)] } }])
    const r = merge(s, [{ interests: { sports: [sv('hikes', 0.5)] } }], T2)
    expect(r.state.content.interests).toEqual({ hobbies: [sv('hikes', 0.75)] })
    expect(r.changes.interests).toEqual({ hobbies: [sv('hikes', 0.75)] })
  })

  it('prefers the named category when a legacy state holds the value twice', () => {
    const s = emptyState()
    s.content.interests = { a: [sv('chess', 0.5)], b: [sv('chess', 0.5)] }
    const r = merge(s, [{ interests: { b: [sv('chess', 0.5)] } }], T1)
    expect(r.state.content.interests).toEqual({ a: [sv('chess', 0.5)], b: [sv('chess', 0.75)] })
  })

  it('dedupes traits and topics_to_avoid ("Dogs" == "dog")', () => {
    const r = merge(
      emptyState(),
      [
        { personality: { traits: [sv('Curious', 0.5)] }, preferences: { topics_to_avoid: [sv('Dogs', 0.5)] } },
        { personality: { traits: [sv('curious', 0.5)] }, preferences: { topics_to_avoid: [sv('dog', 0.5)] } },
      ],
      T1,
    )
    expect(r.state.content.personality.traits).toEqual([sv('curious', 0.75)])
    expect(r.state.content.preferences.topics_to_avoid).toEqual([sv('dog', 0.75)])
  })

  it('keeps distinct values apart and in arrival order', () => {
    const s = run(
      [{ personality: { traits: [sv('kind', 0.5), sv('shy', 0.5)] } }],
      [{ personality: { traits: [sv('funny', 0.5)] } }],
    )
    expect(s.content.personality.traits.map((t) => t.value)).toEqual(['kind', 'shy', 'funny'])
  })
})

describe('merge: removals', () => {
  const withJazz = () =>
    run([{ interests: { music: [sv('jazz', 0.7), sv('rock', 0.6)], hobbies: [sv('chess', 0.5)] } }])

  it('removes an interest in the given category and logs it', () => {
    const r = merge(withJazz(), [{ removals: [{ section: 'interests', category: 'Music', value: 'Jazz' }] }], T2)
    expect(r.state.content.interests.music).toEqual([sv('rock', 0.6)])
    expect(r.changes).toEqual({ removed: [{ section: 'interests', category: 'music', value: 'jazz' }] })
    expect(r.state.field_timestamps['interests.music']).toBe(T2)
    expect(r.state.field_timestamps.interests).toBe(T2)
  })

  it('drops a category that becomes empty', () => {
    const r = merge(withJazz(), [{ removals: [{ section: 'interests', value: 'chess' }] }], T2)
    expect(Object.keys(r.state.content.interests)).toEqual(['music'])
    expect(r.changes.removed).toEqual([{ section: 'interests', category: 'hobbies', value: 'chess' }])
    expect(r.state.field_timestamps['interests.hobbies']).toBe(T2)
  })

  it('without a category removes from every category', () => {
    const s = emptyState()
    s.content.interests = { a: [sv('chess', 0.5), sv('go', 0.5)], b: [sv('Chess', 0.5)] }
    const r = merge(s, [{ removals: [{ section: 'interests', value: 'CHESS' }] }], T1)
    expect(r.state.content.interests).toEqual({ a: [sv('go', 0.5)] })
    expect(r.changes.removed).toEqual([
      { section: 'interests', category: 'a', value: 'chess' },
      { section: 'interests', category: 'b', value: 'Chess' },
    ])
  })

  it('with a category that does not hold the value, removes it where cross-category dedupe filed it', () => {
    const r = merge(withJazz(), [{ removals: [{ section: 'interests', category: 'hobbies', value: 'jazz' }] }], T2)
    expect(r.state.content.interests.music).toEqual([sv('rock', 0.6)])
  })

  it('matches removals by normalised value', () => {
    const s = run([{ preferences: { topics_to_avoid: [sv('Dogs', 0.5)] }, personality: { traits: [sv('Shy', 0.5)] } }])
    const r = merge(
      s,
      [
        {
          removals: [
            { section: 'topics_to_avoid', value: 'dog' },
            { section: 'traits', value: ' shy.' },
          ],
        },
      ],
      T2,
    )
    expect(r.state.content.preferences.topics_to_avoid).toEqual([])
    expect(r.state.content.personality.traits).toEqual([])
    expect(r.changes.removed).toEqual([
      { section: 'traits', value: 'Shy' },
      { section: 'topics_to_avoid', value: 'Dogs' },
    ])
    expect(r.state.field_timestamps['personality.traits']).toBe(T2)
    expect(r.state.field_timestamps['preferences.topics_to_avoid']).toBe(T2)
  })

  it('is no change when the value is not there, and ignores malformed removals', () => {
    const ex = {
      removals: [
        { section: 'interests', value: 'opera' },
        { section: 'bogus', value: 'jazz' },
        { section: 'interests', value: '  ' },
        null,
      ],
    } as unknown as Extraction
    const r = merge(withJazz(), [ex], T2)
    expect(r.changed).toBe(false)
    expect(r.changes).toEqual({})
  })

  it('wins over an add of the same value in the same extraction (value existed before)', () => {
    const r = merge(
      withJazz(),
      [{ interests: { music: [sv('Jazz', 0.9)] }, removals: [{ section: 'interests', value: 'jazz' }] }],
      T2,
    )
    expect(r.state.content.interests.music).toEqual([sv('rock', 0.6)])
    expect(r.changes).toEqual({ removed: [{ section: 'interests', category: 'music', value: 'jazz' }] })
  })

  it('wins over an add of the same value in the same extraction (value new), whatever the categories', () => {
    const ex: Extraction = {
      interests: { music: [sv('opera', 0.9)] },
      personality: { traits: [sv('shy', 0.5)] },
      preferences: { topics_to_avoid: [sv('politics', 0.5)] },
      removals: [
        { section: 'interests', category: 'hobbies', value: 'opera' },
        { section: 'traits', value: 'shy' },
        { section: 'topics_to_avoid', value: 'politics' },
      ],
    }
    const r = merge(withJazz(), [ex], T2)
    expect(r.changed).toBe(false)
    expect(r.state.content).toEqual(withJazz().content)
  })

  it('does not affect other sections holding the same value', () => {
    const s = run([{ interests: { pets: [sv('dogs', 0.5)] }, preferences: { topics_to_avoid: [sv('dogs', 0.5)] } }])
    const r = merge(s, [{ removals: [{ section: 'topics_to_avoid', value: 'dogs' }] }], T2)
    expect(r.state.content.interests.pets).toEqual([sv('dogs', 0.5)])
  })

  it('is undone by an add in a later extraction of the batch (fresh confidence, reported as changed)', () => {
    const r = merge(
      withJazz(),
      [{ removals: [{ section: 'interests', value: 'jazz' }] }, { interests: { music: [sv('jazz', 0.4)] } }],
      T2,
    )
    expect(r.state.content.interests.music).toEqual([sv('rock', 0.6), sv('jazz', 0.4)])
    // changes are the batch's net effect: jazz is still there, with a new confidence.
    expect(r.changes).toEqual({ interests: { music: [sv('jazz', 0.4)] } })
  })

  it('an add then a removal later in the batch leaves nothing and reports only the removal of what existed', () => {
    const r = merge(
      withJazz(),
      [
        { interests: { music: [sv('jazz', 0.5), sv('blues', 0.5)] } },
        {
          removals: [
            { section: 'interests', value: 'jazz' },
            { section: 'interests', value: 'blues' },
          ],
        },
      ],
      T2,
    )
    expect(r.state.content.interests.music).toEqual([sv('rock', 0.6)])
    expect(r.changes).toEqual({ removed: [{ section: 'interests', category: 'music', value: 'jazz' }] })
  })
})

describe('merge: memories', () => {
  it('appends memories sorted by date, undated last, stable', () => {
    const r = merge(
      emptyState(),
      [
        { memories: [{ event: 'undated A' }, { event: 'moved to Paris', date: '2021-05-01' }] },
        {
          memories: [
            { event: 'graduated', date: '2015-06-30' },
            { event: 'undated B' },
            { event: 'same day', date: '2021-05-01' },
          ],
        },
      ],
      T1,
    )
    expect(r.state.content.memories.map((m) => m.event)).toEqual([
      'graduated',
      'moved to Paris',
      'same day',
      'undated A',
      'undated B',
    ])
    expect(r.state.field_timestamps.memories).toBe(T1)
  })

  it('merges the same event on the same date: reinforced confidence, higher importance, newest wording', () => {
    const s = run([{ memories: [{ event: 'Adopted a dog', date: '2022-03-04', importance: 'high', confidence: 0.6 }] }])
    const r = merge(
      s,
      [{ memories: [{ event: 'adopted a dog.', date: '2022-03-04', importance: 'low', confidence: 0.5 }] }],
      T2,
    )
    expect(r.state.content.memories).toEqual([
      { event: 'adopted a dog.', date: '2022-03-04', importance: 'high', confidence: 0.8 },
    ])
    expect(r.changes.memories).toEqual(r.state.content.memories)
  })

  it('merges the same undated event', () => {
    const s = run(
      [{ memories: [{ event: 'ran a marathon', confidence: 0.5 }] }],
      [{ memories: [{ event: 'Ran a marathon', importance: 'medium', confidence: 0.5 }] }],
    )
    expect(s.content.memories).toEqual([{ event: 'Ran a marathon', importance: 'medium', confidence: 0.75 }])
  })

  it('does not merge the same event on different dates, nor dated with undated', () => {
    const s = run([
      {
        memories: [
          { event: 'visited Rome', date: '2019-01-01' },
          { event: 'visited Rome', date: '2020-01-01' },
          { event: 'visited Rome' },
        ],
      },
    ])
    expect(s.content.memories.map((m) => m.date)).toEqual(['2019-01-01', '2020-01-01', undefined])
  })

  it('reports only new or merged memories in changes', () => {
    const s = run([
      {
        memories: [
          { event: 'a', date: '2020-01-01' },
          { event: 'b', date: '2020-01-02' },
        ],
      },
    ])
    const r = merge(s, [{ memories: [{ event: 'c', date: '2019-01-01' }] }], T2)
    expect(r.changes).toEqual({ memories: [{ event: 'c', date: '2019-01-01', confidence: 0.5 }] })
  })

  it('drops invalid dates and importances, defaults confidence to 0.5, ignores empty events', () => {
    const ex = {
      memories: [
        { event: 'x', date: '2023-02-30', importance: 'huge' },
        { event: 'y', date: '2023-02-03T10:00:00Z', importance: 'low', confidence: 3 },
        { event: '' },
        'not an object',
      ],
    } as unknown as Extraction
    expect(merge(emptyState(), [ex], T1).state.content.memories).toEqual([
      { event: 'y', date: '2023-02-03', importance: 'low', confidence: 1 },
      { event: 'x', confidence: 0.5 },
    ])
  })
})

describe('merge: mood', () => {
  const mood = (value: string, confidence = 0.6): Extraction => ({ personality: { mood: sv(value, confidence) } })

  it('sets recent and default from the first mood', () => {
    const r = merge(emptyState(), [mood('Happy')], T1)
    expect(r.state.content.personality.mood_trends).toEqual({ recent: sv('Happy', 0.6), default: sv('Happy', 1) })
    expect(r.state.internals.mood_counts).toEqual({ happi: 1 })
    expect(r.state.field_timestamps['personality.mood_trends']).toBe(T1)
  })

  it('always replaces recent with the latest mood, even a less confident one against a confirmed one', () => {
    const s = run([mood('calm', 0.9)], [mood('calm', 0.9)])
    const r = merge(s, [mood('anxious', 0.1)], T3)
    expect(r.state.content.personality.mood_trends.recent).toEqual(sv('anxious', 0.1))
    expect(r.changes.replaced).toEqual({
      'personality.mood_trends.recent': { ...sv('calm', 0.99), from: T1, until: T3 },
    })
  })

  it('reinforces recent when the mood repeats', () => {
    const s = run([mood('happy', 0.5)], [mood('Happy ', 0.5)])
    expect(s.content.personality.mood_trends.recent).toEqual(sv('Happy', 0.75))
    expect(s.internals.mood_counts).toEqual({ happi: 2 })
  })

  it('keeps default as the most frequent mood over several batches, ties going to the most recent', () => {
    let s = run([mood('happy')], [mood('happy')], [mood('sad')])
    expect(s.content.personality.mood_trends.default?.value).toBe('happy')
    expect(s.content.personality.mood_trends.default?.confidence).toBeCloseTo(2 / 3, 12)
    expect(s.content.personality.mood_trends.recent?.value).toBe('sad')

    s = merge(s, [mood('sad')], T2).state // 2-2: the most recent of the tied
    expect(s.content.personality.mood_trends.default).toEqual(sv('sad', 0.5))

    s = merge(s, [mood('happy')], T3).state // 3-2
    expect(s.content.personality.mood_trends.default).toEqual(sv('happy', 0.6))

    const r = merge(s, [mood('tired')], '2024-04-01T00:00:00.000Z') // 3-2-1: default keeps its value, confidence drops
    expect(r.state.content.personality.mood_trends.default).toEqual(sv('happy', 0.5))
    expect(r.state.content.personality.mood_trends.recent?.value).toBe('tired')
    expect(r.changes.personality?.mood_trends?.default).toEqual(sv('happy', 0.5))
  })

  it('breaks a first tie in favour of the newer mood, also within one batch', () => {
    const r = merge(emptyState(), [mood('happy'), mood('sad')], T1)
    expect(r.state.content.personality.mood_trends.default).toEqual(sv('sad', 0.5))
    expect(r.state.internals.mood_counts).toEqual({ happi: 1, sad: 1 })
  })

  it('does not let a mood tie with an older default flip it unless the mood is the newest', () => {
    // happy, sad, sad, happy -> 2-2, happy is newest; then calm -> happy stays.
    const s = run([mood('happy')], [mood('sad')], [mood('sad')], [mood('happy')], [mood('calm')])
    expect(s.content.personality.mood_trends.default).toEqual(sv('happy', 0.4))
  })
})

describe('merge: language', () => {
  it('takes the latest detected language', () => {
    const s = run([{ language: 'en' }], [{ language: 'fr' }])
    expect(s.language).toBe('fr')
  })

  it('normalises codes and ignores non-codes', () => {
    expect(run([{ language: 'EN-us' }]).language).toBe('en')
    expect(run([{ language: 'en' }], [{ language: 'english' }]).language).toBe('en')
    expect(run([{ language: 'und' }]).language).toBeUndefined()
  })

  it('reports a change of language, and no change for the same one', () => {
    const s = run([{ language: 'en' }])
    expect(merge(s, [{ language: 'de' }], T2).changes).toEqual({ language: 'de' })
    expect(merge(s, [{ language: 'en' }], T2).changed).toBe(false)
  })
})

describe('merge: field_timestamps', () => {
  it('stamps both the section and the field of every part that changed', () => {
    const ex: Extraction = {
      core_info: { name: sv('Ann', 0.5), age: sv(30, 0.5) },
      interests: { music: [sv('jazz', 0.5)] },
      personality: { traits: [sv('kind', 0.5)], mood: sv('happy', 0.5) },
      memories: [{ event: 'born' }],
      preferences: { conversation_style: sv('casual', 0.5), topics_to_avoid: [sv('politics', 0.5)] },
      language: 'en',
    }
    const r = merge(emptyState(), [ex], T1)
    expect(Object.keys(r.state.field_timestamps).sort()).toEqual(
      [
        'core_info',
        'core_info.name',
        'core_info.age',
        'interests',
        'interests.music',
        'personality',
        'personality.traits',
        'personality.mood_trends',
        'memories',
        'preferences',
        'preferences.conversation_style',
        'preferences.topics_to_avoid',
        'language',
      ].sort(),
    )
    expect(new Set(Object.values(r.state.field_timestamps))).toEqual(new Set([T1]))
  })

  it('leaves the stamps of unchanged parts alone', () => {
    const s = run([{ core_info: { name: sv('Ann', 0.5) }, interests: { music: [sv('jazz', 0.5)] } }])
    const r = merge(s, [{ interests: { books: [sv('Dune', 0.5)] } }], T2)
    expect(r.state.field_timestamps).toEqual({
      core_info: s.field_timestamps.core_info,
      'core_info.name': s.field_timestamps['core_info.name'],
      interests: T2,
      'interests.music': s.field_timestamps['interests.music'],
      'interests.books': T2,
    })
  })
})

describe('merge: changes, purity, determinism', () => {
  const full: Extraction = {
    core_info: { name: sv('Ann', 0.6), location: sv('Paris', 0.5) },
    interests: { Hobbies: [sv('hiking', 0.5)], music: [sv('jazz', 0.4)] },
    personality: { traits: [sv('curious', 0.5)], mood: sv('happy', 0.5) },
    memories: [{ event: 'moved', date: '2020-01-01', importance: 'high', confidence: 0.5 }],
    preferences: { conversation_style: sv('casual', 0.5), topics_to_avoid: [sv('politics', 0.5)] },
    removals: [{ section: 'interests', value: 'opera' }],
    language: 'en',
  }

  it('reports nothing for an empty batch and returns an equal state', () => {
    const s = run([full])
    const r = merge(s, [], T2)
    expect(r).toEqual({ state: s, changes: {}, changed: false })
  })

  it('the same submission twice changes only confidences, never adds entries', () => {
    const first = merge(emptyState(), [full], T1)
    const second = merge(first.state, [full], T2)
    expect(second.changed).toBe(true)
    expect(second.changes.replaced).toBeUndefined()
    expect(second.changes.removed).toBeUndefined()
    const strip = (c: unknown) => JSON.parse(JSON.stringify(c, (k, v) => (k === 'confidence' ? undefined : v)))
    expect(strip(second.state.content)).toEqual(strip(first.state.content))
    expect(second.state.content.interests.hobbies).toEqual([sv('hiking', 0.75)])
  })

  it('does not mutate its inputs (deep-frozen state and extractions)', () => {
    const s = deepFreeze(run([full]))
    const exs = deepFreeze([full, { removals: [{ section: 'interests' as const, value: 'jazz' }] }])
    const copy = structuredClone(s)
    const r = merge(s, exs, T2)
    expect(s).toEqual(copy)
    expect(r.state).not.toBe(s)
    expect(r.state.content.interests.music).toBeUndefined()
  })

  it('returns changes that do not alias the new state', () => {
    const r = merge(emptyState(), [full], T1)
    r.changes.core_info!.name!.value = 'mutated'
    expect(r.state.content.core_info.name?.value).toBe('Ann')
  })

  it('is deterministic and independent of the clock', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2001-01-01'))
    const a = merge(run([full]), [full, { personality: { mood: sv('sad', 0.5) } }], T2)
    vi.setSystemTime(new Date('2030-06-06'))
    const b = merge(run([full]), [full, { personality: { mood: sv('sad', 0.5) } }], T2)
    expect(b).toEqual(a)
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
  })

  it('accepts a stored state of an older shape with missing sections', () => {
    const legacy = {
      content: { core_info: {}, interests: {} },
      field_timestamps: {},
      internals: {},
    } as unknown as ProfileState
    const r = merge(legacy, [full], T1)
    expect(r.state.content.personality.traits).toEqual([sv('curious', 0.5)])
    expect(r.state.internals.mood_counts).toEqual({ happi: 1 })
  })

  it('ignores non-object extractions', () => {
    const r = merge(emptyState(), [null, 'x', 3] as unknown as Extraction[], T1)
    expect(r.changed).toBe(false)
  })

  it('handles values and categories named like Object.prototype members', () => {
    const r = merge(
      emptyState(),
      [
        // JSON.parse makes "__proto__" an own key, as a parsed request body would.
        {
          interests: JSON.parse(
            '{"constructor":[{"value":"toString","confidence":0.5}],' +
              '"__proto__":[{"value":"hasOwnProperty","confidence":0.5}]}',
          ),
        },
        { personality: { mood: sv('constructor', 0.5) } },
        { removals: [{ section: 'interests', category: 'valueOf', value: 'x' }] },
      ],
      T1,
    )
    expect(Object.keys(r.state.content.interests).sort()).toEqual(['constructor', 'proto'].sort())
    expect(r.state.content.personality.mood_trends.default).toEqual(sv('constructor', 1))
    expect(Object.getPrototypeOf(r.state.content.interests)).toBe(Object.prototype)
  })
})

afterEach(() => {
  vi.useRealTimers()
})

// ---- property tests -------------------------------------------------------------------------------------------

const confArb = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, 0, 1, -0.5, 1.5),
)
const valueArb = fc.oneof(
  fc.constantFrom(
    'Hiking',
    'hiking ',
    'hikes',
    'Jazz',
    'jazz',
    'Dogs',
    'dog',
    'The Beatles',
    'beatles',
    'chess',
    'Café',
    'cafe',
  ),
  fc.constantFrom('', '  ', '!!', 'constructor', 'toString'),
  fc.string({ maxLength: 12 }),
)
const scoredArb = fc.record({ value: valueArb, confidence: confArb })
const catArb = fc.constantFrom('hobbies', 'Hobbies', 'music', 'Movies TV', 'movies_tv', 'sports', '', 'constructor')
const memoryArb = fc.record(
  {
    event: fc.constantFrom('moved', 'Moved.', 'graduated', 'the wedding', 'Wedding', ''),
    date: fc.constantFrom('2020-01-01', '2021-06-15', '2020-02-30', 'soon'),
    importance: fc.constantFrom('low', 'medium', 'high', 'huge'),
    confidence: confArb,
  },
  { requiredKeys: ['event'] },
)
const removalArb = fc.record(
  { section: fc.constantFrom('interests', 'traits', 'topics_to_avoid'), category: catArb, value: valueArb },
  { requiredKeys: ['section', 'value'] },
)
const extractionArb = fc.record(
  {
    core_info: fc.record(
      {
        name: scoredArb,
        location: scoredArb,
        gender: scoredArb,
        occupation: scoredArb,
        age: fc.record({ value: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double()), confidence: confArb }),
      },
      { requiredKeys: [] },
    ),
    interests: fc.dictionary(catArb, fc.array(scoredArb, { maxLength: 4 }), { maxKeys: 3 }),
    personality: fc.record(
      {
        traits: fc.array(scoredArb, { maxLength: 3 }),
        mood: fc.record({ value: fc.constantFrom('happy', 'Happy', 'sad', 'calm', ''), confidence: confArb }),
      },
      { requiredKeys: [] },
    ),
    memories: fc.array(memoryArb, { maxLength: 3 }),
    preferences: fc.record(
      { conversation_style: scoredArb, topics_to_avoid: fc.array(scoredArb, { maxLength: 3 }) },
      { requiredKeys: [] },
    ),
    removals: fc.array(removalArb, { maxLength: 3 }),
    language: fc.constantFrom('en', 'fr', 'EN-us', 'xx1'),
  },
  { requiredKeys: [] },
) as unknown as fc.Arbitrary<Extraction>
const batchesArb = fc.array(fc.array(extractionArb, { maxLength: 3 }), { minLength: 1, maxLength: 4 })

function allConfidences(s: ProfileState): unknown[] {
  const c = s.content
  return [
    ...Object.values(c.core_info).map((v) => v?.confidence),
    ...Object.values(c.interests)
      .flat()
      .map((e) => e.confidence),
    ...c.personality.traits.map((e) => e.confidence),
    c.personality.mood_trends.recent?.confidence ?? 0,
    c.personality.mood_trends.default?.confidence ?? 0,
    ...c.memories.map((m) => m.confidence ?? 0),
    c.preferences.conversation_style?.confidence ?? 0,
    ...c.preferences.topics_to_avoid.map((e) => e.confidence),
  ]
}

const keysOf = (list: Scored<string>[]) => list.map((e) => normaliseValue(e.value))
const interestKeys = (s: ProfileState) =>
  Object.values(s.content.interests)
    .flat()
    .map((e) => normaliseValue(e.value))
const memoryKeys = (s: ProfileState) => s.content.memories.map((m) => `${normaliseValue(m.event)}|${m.date ?? ''}`)
const unique = (xs: string[]) => new Set(xs).size === xs.length

function checkInvariants(s: ProfileState): void {
  for (const c of allConfidences(s)) {
    expect(typeof c).toBe('number')
    expect(c).toBeGreaterThanOrEqual(0)
    expect(c).toBeLessThanOrEqual(1)
  }
  expect(unique(interestKeys(s))).toBe(true) // within and across categories
  expect(unique(keysOf(s.content.personality.traits))).toBe(true)
  expect(unique(keysOf(s.content.preferences.topics_to_avoid))).toBe(true)
  expect(unique(memoryKeys(s))).toBe(true)
  for (const [cat, list] of Object.entries(s.content.interests)) {
    expect(list.length).toBeGreaterThan(0)
    expect(categoryKey(cat)).toBe(cat)
  }
  const dates = s.content.memories.map((m) => m.date ?? '\uffff')
  expect(dates).toEqual([...dates].sort())
  const { default: def } = s.content.personality.mood_trends
  if (def) {
    const total = Object.values(s.internals.mood_counts).reduce((a, b) => a + b, 0)
    expect(def.confidence).toBeCloseTo(s.internals.mood_counts[normaliseValue(def.value)] / total, 12)
    expect(Math.max(...Object.values(s.internals.mood_counts))).toBe(s.internals.mood_counts[normaliseValue(def.value)])
  }
}

describe('merge: properties', () => {
  it('reinforce is 1-(1-a)(1-b), symmetric, within [max(a,b), 1] even for extreme floats', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const r = reinforce(a, b)
        expect(r).toBeCloseTo(1 - (1 - a) * (1 - b), 12)
        expect(r).toBeGreaterThanOrEqual(Math.max(a, b))
        expect(r).toBeLessThanOrEqual(1)
        expect(reinforce(b, a)).toBeCloseTo(r, 15)
      }),
    )
    expect(reinforce(0.6, 0.5)).toBeCloseTo(0.8, 15)
    expect(reinforce(NaN, 0)).toBe(0.5)
  })

  it('keeps every confidence in [0,1] and every list free of duplicates, whatever the extractions', () => {
    fc.assert(
      fc.property(batchesArb, (batches) => {
        let s = emptyState()
        for (const b of batches) {
          const r = merge(s, b, T1)
          checkInvariants(r.state)
          expect(r.changed).toBe(Object.keys(r.changes).length > 0)
          if (!r.changed) expect(r.state.content).toEqual(s.content)
          s = r.state
        }
      }),
      { numRuns: 300 },
    )
  })

  it('merging the same extraction twice never creates entries, removals or replacements', () => {
    fc.assert(
      fc.property(batchesArb, extractionArb, (history, ex) => {
        let s = emptyState()
        for (const b of history) s = merge(s, b, T1).state
        const once = merge(s, [ex], T2)
        const twice = merge(once.state, [ex], T3)
        checkInvariants(twice.state)
        expect(interestKeys(twice.state)).toEqual(interestKeys(once.state))
        expect(keysOf(twice.state.content.personality.traits)).toEqual(keysOf(once.state.content.personality.traits))
        expect(keysOf(twice.state.content.preferences.topics_to_avoid)).toEqual(
          keysOf(once.state.content.preferences.topics_to_avoid),
        )
        expect(memoryKeys(twice.state)).toEqual(memoryKeys(once.state))
        expect(Object.keys(twice.state.content.interests)).toEqual(Object.keys(once.state.content.interests))
        expect(twice.changes.removed).toBeUndefined()
        expect(twice.changes.replaced).toBeUndefined()
        for (const [cat, list] of Object.entries(twice.state.content.interests)) {
          list.forEach((e, i) =>
            expect(e.confidence).toBeGreaterThanOrEqual(once.state.content.interests[cat][i].confidence),
          )
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic and never mutates its inputs', () => {
    fc.assert(
      fc.property(batchesArb, fc.array(extractionArb, { maxLength: 3 }), (history, batch) => {
        let s = emptyState()
        for (const b of history) s = merge(s, b, T1).state
        const stateCopy = structuredClone(s)
        const batchCopy = structuredClone(batch)
        const a = merge(s, batch, T2)
        const b = merge(s, batch, T2)
        expect(b).toEqual(a)
        expect(s).toEqual(stateCopy)
        expect(batch).toEqual(batchCopy)
      }),
      { numRuns: 200 },
    )
  })
})

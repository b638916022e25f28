import { describe, expect, it } from 'vitest'
import {
  forgetValue,
  MAX_TOMBSTONES,
  parseForgetTarget,
  restoreSnapshot,
  screenForgotten,
} from '../../src/domain/forget.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState, type Extraction, type ProfileState } from '../../src/domain/profile.js'

const T0 = '2026-01-01T00:00:00.000Z'
const T1 = '2026-01-02T00:00:00.000Z'
const T2 = '2026-01-03T00:00:00.000Z'

const ex: Extraction = {
  core_info: { name: { value: 'Ana', confidence: 0.9 }, age: { value: 34, confidence: 0.9 } },
  interests: { music: [{ value: 'Jazz', confidence: 0.9 }], hobbies: [{ value: 'hiking', confidence: 0.8 }] },
  personality: { traits: [{ value: 'curious', confidence: 0.7 }] },
  preferences: {
    conversation_style: { value: 'brief', confidence: 0.8 },
    topics_to_avoid: [{ value: 'politics', confidence: 0.8 }],
  },
  memories: [{ event: 'Moved to Lisbon', date: '2020-05-01' }],
}
const base = (): ProfileState => merge(emptyState(), [ex], T0, { acceptedAt: [T0] }).state

describe('forgetValue', () => {
  it('removes each kind of value, logs it under removed, stamps field_timestamps and leaves a tombstone', () => {
    const cases: [Parameters<typeof forgetValue>[1], unknown][] = [
      [{ section: 'interests', value: 'jazz' }, [{ section: 'interests', category: 'music', value: 'Jazz' }]],
      [{ section: 'core_info.age', value: ' 34 ' }, [{ section: 'core_info.age', value: '34' }]],
      [{ section: 'core_info.name', value: 'ANA' }, [{ section: 'core_info.name', value: 'Ana' }]],
      [{ section: 'personality.traits', value: 'Curious' }, [{ section: 'traits', value: 'curious' }]],
      [
        { section: 'preferences.topics_to_avoid', value: 'politics' },
        [{ section: 'topics_to_avoid', value: 'politics' }],
      ],
      [
        { section: 'preferences.conversation_style', value: 'brief' },
        [{ section: 'preferences.conversation_style', value: 'brief' }],
      ],
      [{ section: 'memories', value: 'moved to lisbon' }, [{ section: 'memories', value: 'Moved to Lisbon' }]],
    ]
    for (const [target, removed] of cases) {
      const before = base()
      const r = forgetValue(before, target, T1)
      expect(r.found, target.section).toBe(true)
      expect(r.changes.removed, target.section).toEqual(removed)
      expect(r.state.internals.forgotten).toHaveLength(1)
      expect(r.state.internals.forgotten![0]).toMatchObject({ section: target.section, at: T1 })
      expect(Object.values(r.state.field_timestamps)).toContain(T1)
      expect(before).toEqual(base()) // input untouched
    }
  })

  it('finds nothing for a value that is not there, or in another category', () => {
    expect(forgetValue(base(), { section: 'interests', value: 'opera' }, T1).found).toBe(false)
    expect(forgetValue(base(), { section: 'interests', value: 'jazz', category: 'hobbies' }, T1).found).toBe(false)
    expect(forgetValue(base(), { section: 'core_info.age', value: '35' }, T1).found).toBe(false)
  })

  it('keeps a bounded number of tombstones', () => {
    let s = base()
    for (let i = 0; i < MAX_TOMBSTONES + 5; i++) {
      s = merge(s, [{ personality: { traits: [{ value: `trait${i}`, confidence: 0.5 }] } }], T0, {
        acceptedAt: [T0],
      }).state
      s = forgetValue(s, { section: 'personality.traits', value: `trait${i}` }, T1).state
    }
    expect(s.internals.forgotten).toHaveLength(MAX_TOMBSTONES)
  })
})

describe('the merge and tombstones', () => {
  const forgotten = () => forgetValue(base(), { section: 'interests', value: 'jazz' }, T1).state

  it('evidence accepted before the forget (or of unknown age) does not bring the value back', () => {
    for (const acceptedAt of [[T0], [undefined], undefined]) {
      const r = merge(forgotten(), [ex], T2, acceptedAt ? { acceptedAt } : {})
      expect(
        Object.values(r.state.content.interests)
          .flat()
          .map((e) => e.value),
      ).not.toContain('Jazz')
      expect(r.state.internals.forgotten).toHaveLength(1)
    }
  })

  it("newer evidence brings it back, clears the tombstone; the extraction's other values merge as usual", () => {
    const r = merge(forgotten(), [ex], T2, { acceptedAt: [T2] })
    expect(r.state.content.interests.music!.map((e) => e.value)).toEqual(['Jazz'])
    expect(r.state.internals.forgotten).toEqual([])
    expect(screenForgotten(base(), [ex], [T0]).extractions[0]).toBe(ex)
  })

  it('a rollback keeps forgotten values forgotten and reports what it takes away', () => {
    const snapshot = base()
    const now = merge(snapshot, [{ core_info: { location: { value: 'Porto', confidence: 0.9 } } }], T1, {
      acceptedAt: [T1],
    }).state
    const cur = forgetValue(now, { section: 'interests', value: 'hiking' }, T1).state
    const r = restoreSnapshot(cur, snapshot, 1, T2)
    expect(r.state.content.core_info.location).toBeUndefined()
    expect(r.state.content.interests.hobbies).toBeUndefined()
    expect(r.state.content.interests.music!.map((e) => e.value)).toEqual(['Jazz'])
    expect(r.state.internals.forgotten).toHaveLength(1)
    expect(r.changes).toMatchObject({ rolled_back_to: 1, removed: [{ section: 'core_info.location', value: 'Porto' }] })
    expect(r.state.field_timestamps['core_info.location']).toBe(T2)
  })
})

describe('parseForgetTarget', () => {
  it('names what is wrong', () => {
    expect(() => parseForgetTarget({ section: 'x', value: 'y' })).toThrow(/Invalid field section/)
    expect(() => parseForgetTarget({ section: 'interests', value: 'y', category: 5 })).toThrow(
      /category must be a string/,
    )
    expect(() => parseForgetTarget({ section: 'memories', value: 'y', category: 'a' })).toThrow(
      /only for section interests/,
    )
    expect(parseForgetTarget({ section: 'core_info.age', value: 34 })).toEqual({
      section: 'core_info.age',
      value: '34',
    })
  })
})

describe('forgetting custom schema values (custom.<section>.<field>)', () => {
  const withCustom = (): ProfileState => {
    const s = base()
    s.content.custom = {
      diet: {
        restrictions: [
          { value: 'vegetarian', confidence: 0.6 },
          { value: 'halal', confidence: 0.6 },
        ],
      },
      travel: { budget: { value: 800, confidence: 0.8 }, ok: { value: true, confidence: 0.7 } },
    }
    return s
  }

  it('removes a list entry, a number and a boolean, dropping emptied fields and sections', () => {
    const a = forgetValue(withCustom(), { section: 'custom.diet.restrictions', value: 'Vegetarian' }, T1)
    expect(a.changes.removed).toEqual([{ section: 'custom.diet.restrictions', value: 'vegetarian' }])
    expect(a.state.content.custom!.diet!.restrictions).toEqual([{ value: 'halal', confidence: 0.6 }])
    expect(a.state.field_timestamps['custom.diet.restrictions']).toBe(T1)
    const b = forgetValue(a.state, { section: 'custom.diet.restrictions', value: 'halal' }, T1)
    expect(b.state.content.custom!.diet).toBeUndefined()
    const c = forgetValue(b.state, { section: 'custom.travel.budget', value: '800' }, T1)
    expect(c.found).toBe(true)
    expect(c.state.content.custom!.travel).toEqual({ ok: { value: true, confidence: 0.7 } })
    expect(forgetValue(c.state, { section: 'custom.travel.ok', value: 'true' }, T1).state.content.custom).toEqual({})
    expect(forgetValue(withCustom(), { section: 'custom.travel.budget', value: '801' }, T1).found).toBe(false)
    expect(forgetValue(withCustom(), { section: 'custom.nope.x', value: 'a' }, T1).found).toBe(false)
  })

  it('older evidence cannot bring a custom value back; newer can', () => {
    const gone = forgetValue(withCustom(), { section: 'custom.diet.restrictions', value: 'vegetarian' }, T1).state
    const again: Extraction = { custom: { diet: { restrictions: [{ value: 'Vegetarian', confidence: 0.6 }] } } }
    expect(merge(gone, [again], T2, { acceptedAt: [T0] }).state.content.custom!.diet!.restrictions!).toEqual([
      { value: 'halal', confidence: 0.6 },
    ])
    const back = merge(gone, [again], T2, { acceptedAt: [T2] }).state
    expect(
      (back.content.custom!.diet!.restrictions as { value: string }[]).map((e) => e.value.toLowerCase()),
    ).toContain('vegetarian')
    expect(back.internals.forgotten ?? []).toEqual([])
  })

  it('parses custom paths and refuses malformed ones', () => {
    expect(parseForgetTarget({ section: 'custom.diet.restrictions', value: 'x' }).section).toBe(
      'custom.diet.restrictions',
    )
    for (const section of [
      'custom.diet',
      'custom.Diet.x',
      'custom.diet.x.y',
      'custom.1a.b',
      'custom.' + 'a'.repeat(41) + '.b',
    ]) {
      expect(() => parseForgetTarget({ section, value: 'x' }), section).toThrow(/custom\.<section>\.<field>/)
    }
  })
})

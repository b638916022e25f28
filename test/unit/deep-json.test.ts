// Stored JSON of any depth (a history entry's `changes` from an import or a direct write): the GraphQL API serves it
// (deeper levels as JSON text) and the dashboard renders it, without recursion. JSON.stringify itself overflows the
// stack at a few thousand levels, so every check here runs on 100,000.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CHANGE_PATH_DEPTH,
  changeLines,
  JSON_TEXT_CHARS,
  jsonText as dashboardJsonText,
} from '../../dashboard/src/pages/profile/change-lines.js'
import { capJsonDepth, jsonText, SERVED_JSON_DEPTH } from '../../src/domain/deep-json.js'

/** {"a": {"a": ... leaf}} `depth` levels deep, or [[[... leaf]]] with `list`. */
function nested(depth: number, leaf: unknown, list = false): unknown {
  let v = leaf
  for (let i = 0; i < depth; i++) v = list ? [v] : { a: v }
  return v
}
const DEEP = 100_000

describe('JSON text without recursion', () => {
  it('JSON.stringify overflows where these do not', () => {
    expect(() => JSON.stringify(nested(DEEP, 1))).toThrow(RangeError)
    const text = jsonText(nested(DEEP, 1))
    expect(text).toBe(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`)
    expect(dashboardJsonText(nested(DEEP, 1, true), Infinity)).toBe(`${'['.repeat(DEEP)}1${']'.repeat(DEEP)}`)
  })

  it('is JSON.stringify for any JSON value (server and dashboard)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonText(v)).toBe(JSON.stringify(v))
        expect(dashboardJsonText(v, Infinity)).toBe(JSON.stringify(v))
      }),
      { numRuns: 500, seed: 22 },
    )
  })

  it("the dashboard's stops after its budget, never inside a surrogate pair", () => {
    const t = dashboardJsonText(nested(DEEP, 'x'))
    expect(t.length).toBe(JSON_TEXT_CHARS + 1)
    expect(t.endsWith('…')).toBe(true)
    expect(dashboardJsonText({ a: '😀'.repeat(10) }, 7)).toBe('{"a":"…') // not half of the emoji
    expect(dashboardJsonText({ a: '😀'.repeat(10) }, 8)).toBe('{"a":"😀…')
    expect(dashboardJsonText([1, 2], 10)).toBe('[1,2]')
  })
})

describe('capJsonDepth (the GraphQL API)', () => {
  it('returns what is within the depth as it is (the same object)', () => {
    const v = {
      core_info: { name: { value: 'Ana', confidence: 0.9 } },
      interests: { music: [{ value: 'jazz', confidence: 0.8 }] },
    }
    expect(capJsonDepth(v)).toBe(v)
    const edge = nested(SERVED_JSON_DEPTH - 1, { value: 1 })
    expect(capJsonDepth(edge)).toBe(edge)
  })

  it('gives lists and objects 100 levels down as their JSON text, keeping key order and __proto__ keys', () => {
    const capped = capJsonDepth(nested(DEEP, { value: 'bottom' })) as Record<string, unknown>
    const text = JSON.stringify(capped)
    const belowCap = JSON.stringify(jsonText(nested(DEEP - SERVED_JSON_DEPTH, { value: 'bottom' })))
    expect(text).toBe(`${'{"a":'.repeat(SERVED_JSON_DEPTH)}${belowCap}${'}'.repeat(SERVED_JSON_DEPTH)}`)
    const small = JSON.parse('{"z": 1, "__proto__": {"x": [[1, {"y": 2}]]}, "b": [3, [4, [5]]]}')
    const c = capJsonDepth(small, 2) as any
    expect(Object.keys(c)).toEqual(['z', '__proto__', 'b'])
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype)
    expect(JSON.stringify(c)).toBe('{"z":1,"__proto__":{"x":"[[1,{\\"y\\":2}]]"},"b":[3,"[4,[5]]"]}')
  })
})

describe('the dashboard: history changes as lines', () => {
  it('flattens an entry as before: paths, values with confidences, (none) for empty ones', () => {
    const lines = changeLines({
      language: 'en',
      core_info: { name: { value: 'Ana', confidence: 0.95 }, age: { value: null } },
      interests: { music: [{ value: 'jazz', confidence: 0.8 }], sports: [] },
      removed: [{ section: 'interests', value: 'golf' }],
      custom: {},
      memories: [{ value: { event: 'moved', date: '2020' }, confidence: 0.7 }],
    })
    expect(lines).toEqual([
      { path: 'language', value: 'en' },
      { path: 'core_info.name', value: 'Ana', confidence: 0.95 },
      { path: 'core_info.age', value: '(none)' },
      { path: 'interests.music[0]', value: 'jazz', confidence: 0.8 },
      { path: 'interests.sports' },
      { path: 'removed[0].section', value: 'interests' },
      { path: 'removed[0].value', value: 'golf' },
      { path: 'custom' },
      { path: 'memories[0]', value: '{"event":"moved","date":"2020"}', confidence: 0.7 },
    ])
    expect(changeLines({})).toEqual([{ path: '(empty)' }])
  })

  // As docs/guides/the-profile.md "Facts over time" describes them.
  it('a replaced scalar and a past value come as one line each, with their window', () => {
    const window = { from: '2019-06-01T00:00:00.000Z', until: '2025-03-10T00:00:00.000Z' }
    expect(
      changeLines({
        replaced: { 'core_info.location': { value: 'Lisbon', confidence: 0.9, ...window } },
        past_values: {
          'core_info.occupation': [{ value: 'teacher', confidence: 0.8, ...window, last_said: window.from }],
        },
      }),
    ).toEqual([
      { path: 'replaced.core_info.location', value: 'Lisbon', confidence: 0.9, window },
      { path: 'past_values.core_info.occupation[0]', value: 'teacher', confidence: 0.8, window },
    ])
  })

  it(`renders 100,000 levels of objects or lists: ${CHANGE_PATH_DEPTH} as a path, the rest as JSON text`, () => {
    const started = performance.now()
    const [line, ...rest] = changeLines(nested(DEEP, { value: 'bottom', confidence: 0.5 }))
    expect(rest).toEqual([])
    expect(line!.path).toBe(Array(CHANGE_PATH_DEPTH).fill('a').join('.'))
    expect(line!.value!.startsWith('{"a":{"a":')).toBe(true)
    expect(line!.value!.length).toBe(JSON_TEXT_CHARS + 1)
    const [list] = changeLines({ a: nested(DEEP, 1, true) })
    expect(list!.path).toBe(`a${'[0]'.repeat(CHANGE_PATH_DEPTH - 1)}`)
    expect(list!.value!.startsWith('[[[')).toBe(true)
    // A {value, confidence} pair holding a deep value, and a deep value within the path depth.
    const [pair] = changeLines({ x: { value: nested(DEEP, 1), confidence: 0.9 } })
    expect(pair).toMatchObject({ path: 'x', confidence: 0.9 })
    expect(pair!.value!.length).toBe(JSON_TEXT_CHARS + 1)
    expect(changeLines(nested(3, 'leaf'))).toEqual([{ path: 'a.a.a', value: 'leaf' }])
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

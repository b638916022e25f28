import { describe, expect, it } from 'vitest'
import { merge } from '../../src/domain/merge.js'
import { emptyState, type Extraction } from '../../src/domain/profile.js'
import { reextractedTimestamps, reextractionDiff } from '../../src/domain/reextract.js'

const T0 = '2026-01-01T00:00:00.000Z'
const T1 = '2026-02-01T00:00:00.000Z'
const state = (...ex: Extraction[]) => merge(emptyState(), ex, T0).state

describe('re-extraction diff', () => {
  it('is empty for the same state', () => {
    const s = state({
      core_info: { name: { value: 'Ana', confidence: 0.9 } },
      interests: { music: [{ value: 'jazz', confidence: 0.8 }] },
    })
    expect(reextractionDiff(s, structuredClone(s))).toEqual({ changes: {}, changed: false, paths: [] })
  })

  it('reports changed values with what they replaced, removed list entries, and cleared scalars and memories', () => {
    const before = state({
      core_info: {
        name: { value: 'Ana', confidence: 0.9 },
        age: { value: 41, confidence: 0.9 },
        location: { value: 'Porto', confidence: 0.9 },
      },
      interests: { music: [{ value: 'jazz', confidence: 0.8 }] },
      memories: [{ event: 'moved to Porto', date: '2020-01-01', importance: 'high', confidence: 0.9 }],
    })
    const after = state({
      core_info: { name: { value: 'Ana', confidence: 0.9 }, location: { value: 'Lisbon', confidence: 0.95 } },
    })
    const d = reextractionDiff(before, after)
    expect(d.changed).toBe(true)
    expect(d.changes.core_info).toEqual({ location: { value: 'Lisbon', confidence: 0.95 } })
    expect(d.changes.replaced).toEqual({ 'core_info.location': { value: 'Porto', confidence: 0.9 } })
    expect(d.changes.removed).toEqual([{ section: 'interests', category: 'music', value: 'jazz' }])
    expect(d.changes.cleared).toEqual([
      { path: 'core_info.age', value: 41 },
      { path: 'memories', value: 'moved to Porto' },
    ])
    expect(new Set(d.paths)).toEqual(
      new Set(['core_info', 'core_info.location', 'core_info.age', 'interests', 'interests.music', 'memories']),
    )
    const stamps = reextractedTimestamps(before, d.paths, T1)
    expect(stamps['core_info.name']).toBe(T0)
    expect(stamps['core_info.age']).toBe(T1)
    expect(stamps['memories']).toBe(T1)
  })
})

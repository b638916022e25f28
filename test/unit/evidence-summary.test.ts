import { describe, expect, it } from 'vitest'
import { evidenceCheck } from '../../src/ai/evidence.js'
import { mergeKeptProposals } from '../../src/domain/summary-check.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState, type Extraction } from '../../src/domain/profile.js'
import { DEFAULT_PROFILE_LIMITS } from '../../src/domain/profile-limits.js'

describe('evidenceCheck', () => {
  it('takes the words of the text, whatever the punctuation, case or ellipsis', () => {
    const ok = evidenceCheck({ inputType: 'text', data: "I'm 34, and honestly? I LOVE hiking in the Alps." })
    expect(ok('I love hiking')).toBe(true)
    expect(ok('I’m 34 … hiking in the alps')).toBe(true)
    expect(ok('I love skydiving')).toBe(false)
    expect(ok('')).toBe(false)
    // one word in five may differ ("I am" for "I'm")
    expect(ok('I am 34 and honestly I love hiking')).toBe(true)
  })

  it("a conversation: the person's turns and the question they answer, never another turn", () => {
    const data =
      'Bot: Do you like jazz?\nMara: Yes, a lot.\nBot: I play golf myself.\nBot: Anything else?\nMara: I cook.'
    const ok = evidenceCheck({ inputType: 'conversation', data })
    expect(ok('Do you like jazz? Yes, a lot')).toBe(true)
    expect(ok('I cook')).toBe(true)
    expect(ok('I play golf myself')).toBe(false)
  })

  it('scripts without spaces match as written', () => {
    const ok = evidenceCheck({ inputType: 'text', data: '我喜欢爵士乐和徒步旅行。' })
    expect(ok('喜欢爵士乐')).toBe(true)
    expect(ok('喜欢高尔夫')).toBe(false)
  })

  it('is linear: a 100 KB text and a long quote check in milliseconds', () => {
    const data = 'word '.repeat(20_000) + 'I love jazz.'
    const ok = evidenceCheck({ inputType: 'text', data })
    const t = performance.now()
    for (let i = 0; i < 1000; i++) ok(`${'nope '.repeat(50)}jazz`)
    expect(performance.now() - t).toBeLessThan(5000)
  })
})

describe('mergeKeptProposals', () => {
  const now = '2026-01-01T00:00:00.000Z'
  const s = (value: string, confidence = 0.9) => ({ value, confidence })

  it('holds when the merge took everything, the last scalar of a batch and later negations included', () => {
    const exs: Extraction[] = [
      { core_info: { location: s('Lisbon') }, interests: { music: [s('jazz')] } },
      {
        core_info: { location: s('Porto') },
        removals: [{ section: 'interests', value: 'jazz' }],
        interests: { hobbies: [s('hiking')] },
      },
    ]
    const m = merge(emptyState(), exs, now, { occurredAt: ['2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'] })
    expect(mergeKeptProposals(exs, m.state.content)).toBe(true)
  })

  it('fails when the merge kept something else', () => {
    const state = emptyState()
    state.content.core_info.location = s('Lisbon', 0.95)
    state.internals.seen = { 'core_info.location': 3 }
    const exs: Extraction[] = [{ core_info: { location: s('Porto', 0.5) } }]
    const m = merge(state, exs, now)
    expect(m.state.content.core_info.location?.value).toBe('Lisbon')
    expect(mergeKeptProposals(exs, m.state.content)).toBe(false)
    const two: Extraction[] = [{ interests: { music: [s('jazz'), s('blues')] } }]
    const limited = merge(emptyState(), two, now, { limits: { ...DEFAULT_PROFILE_LIMITS, interests: 1 } })
    expect(mergeKeptProposals(two, limited.state.content)).toBe(false)
  })
})

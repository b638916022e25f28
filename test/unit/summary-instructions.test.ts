import { describe, expect, it } from 'vitest'
import { summarizeProfile } from '../../src/ai/local/local-summarizer.js'
import { withInstructions } from '../../src/ai/openai/openai-extractor.js'
import { emptyContent, type ProfileContent, type Scored } from '../../src/domain/profile.js'
import { checkInstructions, parseInstruction, planSummary } from '../../src/domain/summary-instructions.js'

const c = (value: string, confidence = 0.8): Scored<string> => ({ value, confidence })
const full: ProfileContent = {
  ...emptyContent(),
  core_info: {
    name: c('Maria'),
    age: { value: 34, confidence: 0.9 },
    gender: c('female'),
    location: c('Lisbon'),
    occupation: c('nurse'),
  },
  interests: { hobbies: [c('hiking', 0.9)], music: [c('jazz', 0.8)] },
  personality: { traits: [c('kind', 0.9)], mood_trends: { recent: c('stressed') } },
  preferences: { conversation_style: c('casual'), topics_to_avoid: [c('politics')] },
  memories: [{ event: 'ran a marathon', date: '2023-04-01', importance: 'high', confidence: 0.9 }],
}

describe('summary instructions', () => {
  it('are checked: at most 5 of 1-200 characters, no control or invisible characters, duplicates dropped', () => {
    expect(checkInstructions(['  Leave out   age ', 'leave out age', 'Mention interests first'])).toEqual([
      'Leave out age',
      'Mention interests first',
    ])
    expect(checkInstructions([])).toEqual([])
    expect(() => checkInstructions('leave out age')).toThrow(/list of strings/)
    expect(() => checkInstructions(['a', 'b', 'c', 'd', 'e', 'f'])).toThrow(/At most 5/)
    expect(() => checkInstructions(['x'.repeat(201)])).toThrow(/at most 200 characters \(got 201\)/)
    expect(checkInstructions(['é'.repeat(200)])[0]).toHaveLength(200)
    expect(() => checkInstructions(['   '])).toThrow(/instruction 1 must not be empty/)
    expect(() => checkInstructions(['ok', 'line\nbreak'])).toThrow(/instruction 2 .*U\+000A/)
    expect(() => checkInstructions(['\u202Eega tuo evael'])).toThrow(/U\+202E/)
    expect(() => checkInstructions([42])).toThrow(/instruction 1 must be a string/)
    expect(() => checkInstructions(['\uD800'])).toThrow(/U\+D800/)
  })

  // The forms are those docs/guides/summary-instructions.md lists.
  it('are read by the template summarizer in the forms the guide lists; others are not its to follow', () => {
    expect(parseInstruction('Leave out age and location.')).toEqual({ kind: 'omit', parts: ['age', 'location'] })
    expect(parseInstruction("Don't mention their job")).toEqual({ kind: 'omit', parts: ['occupation'] })
    expect(parseInstruction('never mention memories')).toEqual({ kind: 'omit', parts: ['memories'] })
    expect(parseInstruction('Mention interests first')).toEqual({ kind: 'first', parts: ['interests'] })
    expect(parseInstruction('start with personality')).toEqual({ kind: 'first', parts: ['traits', 'mood'] })
    expect(parseInstruction('Always cover key events')).toEqual({ kind: 'cover', parts: ['memories'] })
    expect(parseInstruction('Write in French')).toBeUndefined()
    expect(parseInstruction('leave out the weather')).toBeUndefined()
    expect(planSummary(['mention memories first', 'leave out memories']).order[0]).toBe('identity')
  })

  it('shape the local summary: leave out, first, cover', () => {
    const plain = summarizeProfile(full)
    expect(plain).toMatch(/^Maria is a 34-year-old nurse who lives in Lisbon\./)
    expect(plain).not.toMatch(/marathon/) // four sentences: the memory did not fit
    expect(summarizeProfile(full, [])).toBe(plain)
    expect(summarizeProfile(full, ['Write in French'])).toBe(plain)

    const noAge = summarizeProfile(full, ['Leave out age and location'])
    expect(noAge).toMatch(/^Maria is a nurse\./)
    expect(noAge).not.toMatch(/34|Lisbon/)
    const noName = summarizeProfile(full, ['omit name', 'omit identity'])
    expect(noName).not.toMatch(/Maria|nurse|Lisbon/)
    expect(noName).toMatch(/^This person enjoys hiking/)
    expect(summarizeProfile(full, ['leave out interests'])).not.toMatch(/hiking|jazz/)
    expect(summarizeProfile(full, ["don't mention topics to avoid"])).not.toMatch(/politics/)

    const first = summarizeProfile(full, ['Mention interests first'])
    expect(first).toMatch(/^Maria enjoys hiking, and listens to jazz\. Maria is a 34-year-old nurse/)
    const covered = summarizeProfile(full, ['Always cover memories'])
    expect(covered).toMatch(/ran a marathon/)
    expect(covered.split(/(?<=\.)\s+/).length).toBe(4)
    expect(summarizeProfile(full, ['cover memories', 'leave out memories'])).not.toMatch(/marathon/)
  })

  it('reach the LLM after the system prompt, numbered, and only when there are some', () => {
    expect(withInstructions('SYSTEM', undefined)).toBe('SYSTEM')
    expect(withInstructions('SYSTEM', [])).toBe('SYSTEM')
    expect(withInstructions('SYSTEM', ['Leave out age', 'Mention interests first'])).toMatch(
      /^SYSTEM\n\n.*summary only.*\n1\. Leave out age\n2\. Mention interests first$/s,
    )
  })
})

// The languages a person speaks, kept as undated memories of medium importance (docs/guides/the-profile.md,
// "Standing facts"): only names the vocabulary knows, only the person's own statements.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const events = (data: string) => (extractor.extractOne({ inputType: 'text', data }).memories ?? []).map((m) => m.event)

describe('languages the person speaks', () => {
  it('names each language as the vocabulary writes it', () => {
    expect(events('I speak english, spanish, and french.')).toEqual(['speaks English, Spanish and French'])
    expect(events('I am from china, so I speak mandarin')).toEqual(['speaks Mandarin'])
    expect(events('I speak ASL with my brother.')).toEqual(['speaks ASL', 'has a brother'])
    expect(events('i speak fluent spanish at home')).toEqual(['speaks fluent Spanish'])
    expect(events('I am fluent in German and I speak a little Japanese.')).toEqual([
      'is fluent in German',
      'speaks a little Japanese',
    ])
    expect(events('I only speak English.')).toEqual(['speaks only English'])
    expect(events('No, sorry. I can only speak english.')).toEqual(['speaks only English'])
    expect(events("I can't speak French.")).toEqual(['does not speak French'])
    expect(events('I know French and Italian.')).toEqual(['knows French and Italian'])
    expect(events('I never learned French.')).toEqual(['does not speak French'])
    expect(events('I speak, english, spanish and french.')).toEqual(['speaks English, Spanish and French'])
  })

  it('reads a language being learned, and no pastime from it', () => {
    expect(events('I am still learning to read english.')).toEqual(['is learning English'])
    const said = extractor.extractOne({ inputType: 'text', data: 'I am learning to speak Spanish.' })
    expect(said.memories?.map((m) => m.event)).toEqual(['is learning Spanish'])
    expect(said.interests).toBeUndefined()
    expect(events('I study French at school.')).toContain('is learning French')
    expect(events('I learn a lot from you.')).toEqual([])
  })

  it('is undated, of medium importance and traced to its rule', () => {
    const said = 'I speak Hindi and Punjabi.'
    expect(extractor.extractOne({ inputType: 'text', data: said }).memories).toEqual([
      { event: 'speaks Hindi and Punjabi', importance: 'medium', confidence: 0.7 },
    ])
    const trace = extractor.explainOne({ inputType: 'text', data: said }).trace
    expect(trace.flatMap((t) => t.hits.map((h) => h.rule))).toContain('memory.languages')
  })

  it('reads nothing where no language is named, asked, wished or someone else’s', () => {
    for (const said of [
      'I speak my mind.',
      'I speak to my mom every day.',
      'Do you speak Spanish?',
      'I want to speak Italian one day.',
      'My mom speaks Spanish.',
      'She said I speak French well.',
      'I know french fries are bad for me.',
      'Maybe I speak Dutch, who knows.',
    ])
      expect(events(said).join(' '), said).not.toMatch(/^(?:speaks|is fluent|knows|does not speak)\b/)
    // a wish is kept as a goal, not as a language spoken
    expect(events('I want to speak Italian one day.')).toEqual(['wants to speak Italian one day'])
  })

  it('reads a long list in linear time', () => {
    const started = process.cpuUsage()
    expect(events(`I speak ${'english, '.repeat(40_000)}x`)).toEqual(['speaks English'])
    events(`I speak ${'mandarin chinese '.repeat(20_000)}.`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(3)
  })
})

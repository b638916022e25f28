// What a person believes, kept as undated memories of medium importance (docs/guides/the-profile.md, "Standing
// facts"): only faiths the vocabulary knows, only the person's own statements, and never taken for a name.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const extract = (data: string) => extractor.extractOne({ inputType: 'text', data })
const events = (data: string) => (extract(data).memories ?? []).map((m) => m.event)

describe('the faith the person holds', () => {
  it('names the faith as the vocabulary writes it', () => {
    expect(events('I am Catholic.')).toEqual(['is Catholic'])
    expect(events("i'm buddhist, my spiritual journey relaxes me")).toEqual(['is Buddhist'])
    expect(events('I am a devout Christian.')).toEqual(['is a devout Christian'])
    expect(events('I am a Southern Baptist too')).toEqual(['is a Southern Baptist'])
    expect(events("I'm a Jehovah's Witness.")).toEqual(["is a Jehovah's Witness"])
    expect(events('I was raised Catholic.')).toEqual(['was raised Catholic'])
    expect(events('I was brought up as a Methodist, but that was long ago.')).toEqual(['was raised Methodist'])
    expect(events("I don't believe in god.")).toEqual(['does not believe in God'])
    expect(events('I do believe in a higher power.')).toEqual(['believes in a higher power'])
  })

  it('is undated, of medium importance and traced to its rule', () => {
    expect(extract('i am hindu').memories).toEqual([{ event: 'is Hindu', importance: 'medium', confidence: 0.7 }])
    const trace = extractor.explainOne({ inputType: 'text', data: 'I am a Sikh.' }).trace
    expect(trace.flatMap((t) => t.hits.map((h) => h.rule))).toContain('memory.faith')
  })

  it('does not take a faith for the person’s name', () => {
    for (const said of ["I'm Muslim and I pray five times a day", 'I am Mormon.', 'I am Catholic.']) {
      expect(extract(said).core_info?.name, said).toBeUndefined()
      expect(events(said).join(' '), said).toMatch(/^is (?:Muslim|Mormon|Catholic)$/)
    }
    expect(extract('My name is Christian.').core_info?.name?.value).toBe('Christian')
  })

  it('reads nothing where no faith is named, asked, wished, hedged or someone else’s', () => {
    for (const said of [
      "I'm a christian rock fan.",
      'I am a friend of the family.',
      'Are you Catholic?',
      'I want to be a Buddhist monk one day.',
      'Maybe I am a Taoist, who knows.',
      'She thinks I am a Mormon.',
      'I believe in you.',
      'if i was catholic i would go',
    ])
      expect(events(said).join(' '), said).not.toMatch(/Catholic|Buddhist|Mormon|Taoist|Christian|believe|Dominican/)
    // a demonym is a nationality, kept as a standing fact, never as the faith of the same name
    expect(
      extractor
        .explainOne({ inputType: 'text', data: 'I am Dominican.' })
        .trace.flatMap((t) => t.hits.map((h) => h.rule)),
    ).toEqual(['memory.is', 'language.detected'])
    // a relative's faith is theirs, kept as a memory that names them
    expect(events('My mom is Catholic.')).toEqual(['their mom is Catholic'])
  })

  it('reads a long clause in linear time', () => {
    const started = process.cpuUsage()
    events(`I am ${'devout '.repeat(40_000)}catholic`)
    events(`I was raised ${'a '.repeat(40_000)}baptist`)
    events(`I believe in ${'god '.repeat(40_000)}.`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(3)
  })
})

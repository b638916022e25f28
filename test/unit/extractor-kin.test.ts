// The people in the person's life, named in passing ("my sister went there" -> "has a sister"), and what the person has
// never done ("has never been to Spain"): undated low-importance memories (docs/guides/the-profile.md, "Standing
// facts").
import { describe, expect, it } from 'vitest'
import { kinMentions } from '../../src/ai/local/kin.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const memories = (data: string) => extractor.extractOne({ inputType: 'text', data }).memories ?? []
const events = (data: string) => memories(data).map((m) => m.event)
const rulesOf = (data: string) =>
  extractor
    .explainOne({ inputType: 'text', data })
    .trace.filter((t) => t.field === 'memories')
    .flatMap((t) => t.hits.map((h) => h.rule))

describe('relatives named in passing', () => {
  it('keeps who the person has, weaker than a fact said outright', () => {
    expect(memories('Europe must be very beautiful, my sister went there.')).toEqual([
      { event: 'has a sister', importance: 'low', confidence: 0.5 },
    ])
    expect(rulesOf('Europe must be very beautiful, my sister went there.')).toEqual(['memory.kin'])
    expect(events('Our kids love it.')).toEqual(['has kids'])
    expect(events('We have three kiddos, so there is never any ice cream in the house.')).toEqual(['has three kiddos'])
    expect(events('we have two sisters')).toEqual([])
    expect(events('Eating out, have to pick up my little sister and my two sons after work')).toEqual([
      'has a little sister',
      'has two sons',
    ])
    expect(events("my older brother's car broke down")).toEqual(['has an older brother'])
  })

  it('says a relative once, and not when another memory already names them', () => {
    expect(events('My sister lives in Oslo and has two dogs. My sister is great.')).toEqual([
      'their sister lives in Oslo and has two dogs',
      'their sister is great',
    ])
    expect(events('I called my sister.')).toEqual(['called their sister'])
    expect(events('Europe is nice, my sister went there. Then my sister went back.')).toEqual(['has a sister'])
  })

  it('leaves out parents, friends’ relatives, in-laws, former and lost relatives, and what others say', () => {
    for (const said of [
      'My mom is sweet and my dad is funny.',
      "my friend's sister is a nurse",
      'My sister in law visited.',
      'I talked to my ex-wife yesterday.',
      'my late husband loved this song',
      'My wife left me last year.',
      'I miss my brother so much.',
      'Your sister sounds fun.',
      'he said "my son is a doctor"',
    ])
      expect(events(said).join(' '), said).not.toMatch(/^has |\bhas (?:a|an|kids|children)\b/)
    // a possessive without its apostrophe names the relative's thing, not several relatives
    expect(events('Sometimes I punch my sisters cat.').filter((event) => event.startsWith('has '))).toEqual([])
    expect(events('my brothers car broke down')).toEqual([])
    expect(events('my sisters live in Oslo')).toEqual(['their sisters live in Oslo'])
  })

  it('reads a clause in linear time', () => {
    const started = process.cpuUsage()
    expect(kinMentions(`my ${'older '.repeat(50_000)}sister`)).toHaveLength(1)
    expect(kinMentions('my sister, '.repeat(20_000))).toHaveLength(20_000)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(2)
  })
})

describe('what the person has never done', () => {
  it('keeps places never visited and things never tried', () => {
    expect(events("No I've never been to colorado")).toEqual(['has never been to colorado'])
    expect(events('I have never been to Spain, have you?')).toEqual(['has never been to Spain'])
    expect(events("I've never tried sushi but I want to.")).toEqual(['has never tried sushi'])
    expect(rulesOf('I have never been to Spain.')).toEqual(['memory.never-done'])
  })

  it('reads nothing that points elsewhere or speaks of the other speaker', () => {
    for (const said of ['I have never heard of that.', 'I have not seen you in ages.', 'I have never been there.'])
      expect(events(said), said).toEqual([])
  })
})

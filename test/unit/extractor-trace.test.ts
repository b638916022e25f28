import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { RULE_LIST, type RuleId } from '../../src/ai/local/rules.js'
import { Tracer, type TracedValue } from '../../src/ai/local/trace.js'
import { emptyContent, type ProfileContent } from '../../src/domain/profile.js'

const NOW = new Date('2024-06-15T12:00:00Z')
const extractor = new LocalExtractor({ now: () => NOW })
const explain = (data: string, inputType: 'text' | 'conversation' = 'text', profile?: ProfileContent) =>
  extractor.explainOne({ inputType, data }, profile)
/** The rules behind the values of `field` (for a value, when given). */
const rulesOf = (trace: TracedValue[], field: string, value?: string | number) =>
  trace
    .filter((v) => v.field === field && (value === undefined || v.value === value))
    .flatMap((v) => v.hits.map((h) => h.rule))

describe('explainOne names the rule behind each value', () => {
  // [sentence, field, rule]: one or more representative sentences for each section of the profile
  const cases: [string, string, RuleId][] = [
    ['Hello! My name is Ingrid and I grow tomatoes.', 'core_info.name', 'name.my-name-is'],
    ['Everyone calls me Benji.', 'core_info.name', 'name.call-me'],
    ['I am 41 years old.', 'core_info.age', 'age.years-old'],
    ['I was born in 1990.', 'core_info.age', 'age.born-in'],
    ['I am a woman in my forties.', 'core_info.gender', 'gender.i-am-a'],
    ['As a mother of three, I rarely sleep.', 'core_info.gender', 'gender.as-a'],
    ['I live in Valencia with my wife.', 'core_info.location', 'location.live-in'],
    ['I moved to Berlin last year.', 'core_info.location', 'location.moved-to'],
    ['I work as a pharmacist.', 'core_info.occupation', 'occupation.work-as'],
    ['I am retired.', 'core_info.occupation', 'occupation.retired'],
    ['I run a small bakery.', 'core_info.occupation', 'occupation.business'],
    ['I love jazz.', 'interests.music', 'interest.love'],
    ['I play the guitar in a band.', 'interests.music', 'interest.play'],
    ['My favorite food is paella.', 'interests.food', 'interest.my-favorite-is'],
    ['I have two cats and a dog.', 'interests.pets', 'interest.pet-have-a'],
    ['My name is Ingrid and I grow tomatoes.', 'interests.hobbies', 'interest.grow'],
    ['I am shy.', 'personality.traits', 'personality.am-trait'],
    ['I am so tired today.', 'personality.mood', 'personality.mood'],
    ['In 2016 I graduated from university.', 'memories', 'memory.past-event'],
    ['Please keep your answers short.', 'preferences.conversation_style', 'style.concise'],
    ["Don't talk about politics with me.", 'preferences.topics_to_avoid', 'avoid.do-not-talk-about'],
    ['I am afraid of heights.', 'preferences.topics_to_avoid', 'personality.afraid-of'],
    ["I don't like football anymore.", 'removals.interests', 'negation.verb-anymore'],
    ['I used to love golf, but not anymore.', 'removals.interests', 'negation.used-to-not-anymore'],
    ['Hobbies: hiking, chess', 'interests.hobbies', 'field.interests'],
    ['Maria is a nurse from Lisbon. She loves jazz.', 'core_info.name', 'name.third-person'],
    ['Maria is a nurse from Lisbon. She loves jazz.', 'core_info.gender', 'gender.third-person'],
    ['Maria is a nurse from Lisbon. She loves jazz.', 'core_info.occupation', 'occupation.i-am-a'],
  ]
  it.each(cases)('%s -> %s by %s', (sentence, field, rule) => {
    const { trace } = explain(sentence)
    expect(rulesOf(trace, field), JSON.stringify(trace)).toContain(rule)
  })

  it('gives the span each rule matched, inside the clause it read', () => {
    const { trace } = explain("Hi, I'm Rosa. In my free time I love salsa dancing and I live in Valencia now.")
    const hobby = trace.find((v) => v.field === 'interests.hobbies' && v.value === 'salsa dancing')!
    expect(hobby.hits).toEqual([
      expect.objectContaining({ rule: 'interest.love', match: 'i love salsa dancing', confidence: hobby.confidence }),
    ])
    expect(hobby.hits[0]!.clause).toContain(hobby.hits[0]!.match)
    const place = trace.find((v) => v.field === 'core_info.location')!
    expect(place.hits[0]).toMatchObject({ rule: 'location.live-in', match: 'i live in valencia now' })
    // "I'm" is read as "i am": the match is in the normalised text the rules read
    expect(trace.find((v) => v.field === 'core_info.name')!.hits[0]).toMatchObject({
      rule: 'name.i-am',
      match: 'i am rosa',
    })
  })

  it('records every rule that produced a merged value, and the value keeps the highest confidence', () => {
    const { extraction, trace } = explain('I love jazz. Jazz is my favorite music. I listen to jazz every night.')
    const jazz = trace.find((v) => v.field === 'interests.music' && v.value === 'jazz')!
    expect(jazz.hits.map((h) => h.rule)).toEqual(['interest.love', 'interest.is-my-favorite', 'interest.listen-to'])
    expect(extraction.interests!.music!.find((s) => s.value === 'jazz')!.confidence).toBe(
      Math.max(...jazz.hits.map((h) => h.confidence!)),
    )
  })

  it('traces a dislike to the rule that turned it into a removal when the profile lists the interest', () => {
    const profile = { ...emptyContent(), interests: { music: [{ value: 'country', confidence: 0.8 }] } }
    const withProfile = explain('I hate country music.', 'text', profile)
    expect(rulesOf(withProfile.trace, 'removals.interests', 'country')).toEqual(['negation.dislike'])
    expect(rulesOf(explain('I hate country music.').trace, 'preferences.topics_to_avoid', 'country music')).toEqual([
      'negation.dislike',
    ])
  })

  it('in a conversation traces only the profiled person, each value to its turn', () => {
    const { trace } = explain('Ann: I love jazz\nBot: I love rock\nAnn: I am a nurse', 'conversation')
    expect(trace.map((v) => v.value)).not.toContain('rock')
    expect(rulesOf(trace, 'interests.music', 'jazz')).toEqual(['interest.love'])
    expect(rulesOf(trace, 'core_info.occupation', 'nurse')).toEqual(['occupation.i-am-a'])
  })

  it('has a hit for every value, and the same extraction as extractOne', () => {
    const texts = [
      "Hi, I'm Rosa and I'm 38. I grew up in Seville but I live in Valencia now. I work as a pharmacist. " +
        'In my free time I love salsa dancing and I play the guitar. My favorite food is paella. ' +
        'I have a lazy old cat. In 2016 I graduated from university. I am outgoing but a bit impatient. ' +
        "Don't talk about politics with me. I don't like football anymore.",
      'Name: Tom Baker\nAge: 52\nJob: plumber\nHobbies: fishing, chess\nDislikes: crowds',
      'Oskar is a 52 year old plumber from Gdansk. He loves fishing and has a cat. He is stubborn.',
      'Je suis content. Ich bin müde.',
    ]
    for (const t of texts) {
      const { extraction, trace } = explain(t)
      expect(extraction).toEqual(extractor.extractOne({ inputType: 'text', data: t }))
      for (const v of trace) expect(v.hits.length, `${v.field}: ${v.value}`).toBeGreaterThan(0)
    }
  })
})

describe('without explain, no trace is built', () => {
  afterEach(() => vi.restoreAllMocks())

  it('extractOne and extract never record; explainOne does', async () => {
    const record = vi.spyOn(Tracer.prototype, 'record')
    const data = 'My name is Ingrid. I live in Leeds and I enjoy rock climbing. Last summer I hiked the Alps.'
    const plain = extractor.extractOne({ inputType: 'text', data })
    await extractor.extract({ profile: emptyContent(), submissions: [{ submissionId: 's', inputType: 'text', data }] })
    expect(record).not.toHaveBeenCalled()
    expect(plain).not.toHaveProperty('trace')
    explain(data)
    expect(record).toHaveBeenCalled()
  })
})

describe('the rule registry', () => {
  const dir = path.resolve(import.meta.dirname, '../../src/ai/local')
  const source = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'rules.ts')
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n')

  it('lists each rule once, with a section and a description', () => {
    expect(new Set(RULE_LIST.map((r) => r.id)).size).toBe(RULE_LIST.length)
    for (const r of RULE_LIST) {
      expect(r.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/)
      expect(r.id.startsWith(`${r.section}.`)).toBe(true)
      expect(r.description.length).toBeGreaterThan(5)
    }
  })

  it('has no entry that no rule uses (and the type check refuses an id it lacks)', () => {
    const unused = RULE_LIST.filter((r) => !source.includes(`'${r.id}'`)).map((r) => r.id)
    expect(unused).toEqual([])
  })
})

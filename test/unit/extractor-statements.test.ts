// Statements: a plain first-person clause no other rule read, kept as an undated low-importance memory in the third
// person (docs/architecture/local-extractor.md, "Statements"). Sentences written for these tests.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const events = (data: string) => (x(data).memories ?? []).map((m) => m.event)
/** The memories `data` gives with the rule behind each, as "rule: event". */
const traced = (data: string) =>
  extractor
    .explainOne({ inputType: 'text', data })
    .trace.filter((t) => t.field === 'memories')
    .map((t) => `${t.hits[0]!.rule}: ${t.value}`)

describe('a statement no other rule reads', () => {
  it('keeps a verb in the present with what follows it, in the third person', () => {
    expect(traced('I restore old motorcycles.')).toEqual(['memory.statement: restores old motorcycles'])
    expect(events('honestly i just admire street artists')).toEqual(['admires street artists'])
    expect(events('I do the books for a small bakery.')).toEqual(['does the books for a small bakery'])
    expect(events('I do race my bike though')).toEqual(['races their bike'])
  })

  it('keeps what is under way, a past state, a future under way and what is not done', () => {
    expect(events('I am rebuilding an old sailboat with my dad.')).toEqual([
      'is rebuilding an old sailboat with their dad',
    ])
    expect(events('I was raised around horses.')).toEqual(['was raised around horses'])
    expect(events('I will be interning at a law firm in the fall')).toEqual([
      'will be interning at a law firm in the fall',
    ])
    expect(events('I do not follow politics.')).toEqual(['does not follow politics'])
    expect(events('I have been to four weddings in June.')).toEqual(['has been to four weddings in June'])
    expect(events('i have always loved old westerns')).toEqual(['has always loved old westerns'])
    expect(events('sometimes i punch the clock at midnight')).toEqual(['punches the clock at midnight'])
    expect(events('I have to give up coffee.')).toEqual(['has to give up coffee'])
    expect(events('I try to be thrifty.')).toEqual(['tries to be thrifty'])
    expect(events('I had two roommates in college.')).toEqual(['had two roommates in college'])
    expect(events('I am looking for a restaurant job.')).toEqual(['is looking for a restaurant job'])
    expect(events('I was in a band in high school.')).toEqual(['was in a band in high school'])
    // who shares the subject is who the person does it with
    expect(events('my dad and i are starting a band')).toEqual(['is starting a band with their dad'])
  })

  it('keeps what is said of the person’s things and of their earlier life', () => {
    expect(traced('My natural hair color is blond.')).toEqual(['memory.statement: their natural hair color is blond'])
    expect(events('but my favorite food was cheeseburgers!')).toEqual(['their favorite food was cheeseburgers'])
    expect(events('my car is a red honda civic')).toEqual(['their car is a red honda civic'])
    expect(events('my house is in the woods')).toEqual(['their house is in the woods'])
    expect(events('Hey, I was poor growing up!')).toEqual(['was poor growing up'])
    expect(events('i was bullied as a kid')).toEqual(['was bullied as a kid'])
    expect(events('I was in a band in college.')).toEqual(['was in a band in college'])
  })

  it('keeps no moment of the person’s things, and nothing of someone else’s', () => {
    for (const said of [
      'my day was long and tiring',
      'my phone is dead',
      'my room is clean',
      'my test is hard',
      'my guess is that it will rain',
      'my point is that it costs too much',
      "my mom's arthritis is bad",
      'my ex was a chef',
      'my pizza is named Bob',
      'I was a bit of a nerd in high school.',
    ])
      expect(events(said), said).toEqual([])
  })

  it('says who shares the subject with the person', () => {
    expect(events('My kids and I went to the museum last weekend.')).toEqual(['went to the museum with their kids'])
    expect(events('me and Sam adopted a cat')).toContain('adopted a cat with Sam')
    // one companion is enough: a second "with" would muddle who went with whom
    expect(events('my sister and I went shopping with her kids')).toContain('went shopping with her kids')
    // the relative is still someone the person has
    expect(events('my wife and i love hiking')).toEqual(['has a wife'])
  })

  it('is undated, of low importance and weaker than a standing fact', () => {
    const [memory] = x('I restore old motorcycles.').memories ?? []
    expect(memory).toEqual({ event: 'restores old motorcycles', importance: 'low', confidence: 0.45 })
  })

  it('keeps nothing from the talk itself, a moment or a passing thought', () => {
    for (const said of [
      'I think so.',
      'I agree with you completely.',
      'I am doing well, thanks.',
      'I see what you mean.',
      'I have heard that before.',
      'I was in the shower when you called.',
      'I do care about that.',
      'I am looking forward to it.',
      'I have been doing okay, thanks for asking.',
      'I had a great time.',
      'I have to say, that is funny.',
      'i am gardening is okay',
      'I was in a bad mood when I was younger.',
      'I am opening a jar.',
      'I am moving the couch.',
      'i am starting to feel better',
      'i am starting my day with coffee',
      // an undated stay is the stays rule's to keep or leave
      'I was in Paris.',
      'I was in the hospital.',
      // a language spoken is the languages rule's
      'I speak my mind.',
    ])
      expect(events(said), said).toEqual([])
    // a relative named gives who the person has, not a statement that would hide them
    expect(events('have to pick up my little sister after work')).toEqual(['has a little sister'])
  })

  it('keeps nothing that points elsewhere, asks, hedges or promises', () => {
    for (const said of [
      'I do it every day.',
      'I take them to school.',
      'Do you restore old motorcycles?',
      'I might restore an old boat.',
      'I will bring my guitar.',
      'I want to restore an old boat.',
    ])
      expect(
        traced(said).filter((t) => t.startsWith('memory.statement')),
        said,
      ).toEqual([])
  })

  it('keeps no noun of a list read as a verb, and no verb already in the third person', () => {
    expect(events('I watch crime dramas and war documentaries.').join(' ')).not.toMatch(/crimes|wars/)
    expect(events('i lives in a small town by the sea')).toEqual([])
    expect(events('i just spray painted my hair green')).toEqual([])
  })

  it('leaves a clause another rule read to that rule', () => {
    expect(traced('I teach math at a high school.')).toEqual([])
    expect(x('I teach math at a high school.').core_info?.occupation?.value).toBe('math teacher')
    expect(traced('I have two jobs.')).toEqual(['memory.has: has two jobs'])
  })

  it('never makes another person’s statement the person’s', () => {
    expect(events('My brother restores old motorcycles.')).toEqual(['has a brother'])
    expect(events('she restores old motorcycles')).toEqual([])
    expect(events('my friend said "I restore old motorcycles"')).toEqual([])
  })

  it('reads long statements in linear time', () => {
    const started = process.cpuUsage()
    x(`I restore ${'very old '.repeat(4000)}motorcycles.`)
    x(`I am rebuilding ${'an old boat and '.repeat(3000)}a car.`)
    x('I do '.repeat(5000))
    // a run of adverbs before a verb that is not "do": each adverb must read one way only
    x(`I ${'really '.repeat(5000)}had pizza.`)
    x(`I ${'actually '.repeat(5000)}race my bike.`)
    // what is said of the person's things, of their earlier life, and of who shares the subject
    x(`My ${'very old '.repeat(4000)}car is a red honda.`)
    x(`I was ${'really '.repeat(5000)}poor growing up.`)
    x(`${'my kids and i went to the park and '.repeat(2000)}.`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(10)
  })
})

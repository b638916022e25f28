// Diet, allergies, health, identity, informal moods and events, and style requests as people write them in chat
// (docs/architecture/local-extractor.md, "What it extracts"; docs/guides/the-profile.md, "Diet, health and identity").
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { detectLanguage } from '../../src/ai/language.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const food = (data: string) => (x(data).interests?.food ?? []).map((s) => s.value)
const events = (data: string) => (x(data).memories ?? []).map((m) => m.event)
const gender = (data: string) => x(data).core_info?.gender?.value
const mood = (data: string) => x(data).personality?.mood?.value
const style = (data: string) => x(data).preferences?.conversation_style?.value

describe('diet', () => {
  it('reads a diet as a food interest, in the forms chat uses', () => {
    expect(food("I'm pescatarian")).toEqual(['pescatarian'])
    expect(food("i'm vegan now")).toEqual(['vegan'])
    expect(food('Vegan for 5 years.')).toEqual(['vegan'])
    expect(food('pescatarian here')).toEqual(['pescatarian'])
    expect(food('I keep kosher.')).toEqual(['kosher'])
    expect(food('I follow a low-carb diet')).toEqual(['low-carb diet'])
    expect(food("I don't eat pork")).toEqual(['no pork'])
  })

  it('leaves out someone else’s diet and a diet that is only wished for or denied', () => {
    expect(food('my boss is vegan')).toEqual([])
    expect(food('my sister went vegetarian last year')).toEqual([])
    expect(food('maybe I should go vegan')).toEqual([])
    expect(food('I want to be vegetarian')).toEqual([])
    expect(food("I'm not vegan anymore")).toEqual([])
    expect(food('are you vegan?')).toEqual([])
  })

  it('removes a diet the person no longer keeps', () => {
    const removal = { section: 'interests', category: 'food', value: 'vegan' }
    expect(x("I'm not vegan anymore, I eat everything").removals).toEqual([removal])
    expect(x('i stopped being vegan').removals).toEqual([removal])
    expect(x("I'm not vegan, I just like salads").removals).toBeUndefined()
  })
})

describe('allergies and health', () => {
  it('keeps allergies and conditions as undated memories of high importance', () => {
    const said = x("I'm pescatarian and allergic to tree nuts").memories
    expect(said).toEqual([{ event: 'is allergic to tree nuts', importance: 'high', confidence: 0.85 }])
    expect(events('I have a severe peanut allergy')).toEqual(['is allergic to peanut'])
    expect(events('Allergic to penicillin btw')).toEqual(['is allergic to penicillin'])
    expect(events('type 1 diabetic here, so carbs matter')).toEqual(['has type 1 diabetes'])
    expect(events('I have celiac disease')).toEqual(['has celiac disease'])
    expect(events('I live with ADHD')).toEqual(['has ADHD'])
    expect(events("I'm asthmatic")).toEqual(['has asthma'])
  })

  it('takes nothing from others’ conditions, common complaints or look-alike words', () => {
    // someone else's condition is at most a standing fact that names them, never the person's
    expect(events('my son is allergic to eggs')).toEqual(['their son is allergic to eggs'])
    expect(events('i think my son is allergic to eggs')).toEqual(['has a son'])
    expect(events('I have a cold')).toEqual([])
    expect(events('I have a dog and two cats')).toEqual(['has a dog and two cats'])
    expect(events('I have additional questions')).toEqual([])
    expect(events('my mom has diabetes')).toEqual(['their mom has diabetes'])
    expect(events('do you have asthma?')).toEqual([])
    expect(events('allergic to it, honestly')).toEqual([])
  })

  it('keeps a dated diagnosis as the dated event it is', () => {
    expect(x('I was diagnosed with ADHD last year').memories).toEqual([
      expect.objectContaining({ event: 'was diagnosed with ADHD', date: '2023-01-01' }),
    ])
  })
})

describe('identity', () => {
  it('keeps a gender identity in the person’s words and pronouns as a memory', () => {
    const e = x('non-binary, she/they')
    expect(e.core_info?.gender?.value).toBe('non-binary')
    expect(e.memories?.map((m) => m.event)).toEqual(['uses she/they pronouns'])
    expect(gender("I'm a trans man")).toBe('trans man')
    expect(gender('I identify as genderfluid')).toBe('genderfluid')
    expect(gender('enby btw')).toBe('non-binary')
    expect(events('my pronouns are they/them')).toEqual(['uses they/them pronouns'])
  })

  it('does not read pronouns inside a sentence or another person’s identity', () => {
    expect(events('he/she will have to decide')).toEqual([])
    expect(events('I asked if he/him was right')).toEqual([])
    expect(gender('my friend is non-binary')).toBeUndefined()
    expect(gender('I transferred to a trans-atlantic route')).toBeUndefined()
  })
})

describe('informal moods, events and style', () => {
  it('reads a mood said without "I feel", only as the whole clause', () => {
    expect(mood('ugh, worst week ever')).toBe('frustrated')
    expect(mood('what a rough week')).toBe('frustrated')
    expect(mood('best day ever!!')).toBe('happy')
    expect(x('the movie had the worst ending ever').personality).toBeUndefined()
  })

  it('dates a pregnancy at the time it is said', () => {
    expect(x("we're expecting twins!!").memories).toEqual([
      { event: 'is expecting twins', date: '2024-06-15', importance: 'high', confidence: 0.85 },
    ])
    expect(events('my sister is pregnant')).toEqual(['their sister is pregnant'])
    expect(events('I was expecting more from the movie')).toEqual([])
  })

  it('dates a life event under way when it is said, or by the date the clause gives', () => {
    expect(x("I'm getting a divorce and I'd like a new job, too.").memories).toEqual([
      { event: 'is getting a divorce', date: '2024-06-15', importance: 'high', confidence: 0.8 },
    ])
    expect(events('We are moving to Denver soon')).toEqual(['is moving to Denver'])
    expect(events('I am going through chemo.')).toEqual(['is going through chemo'])
    expect(x('I am retiring this year.').memories?.[0]).toMatchObject({ event: 'is retiring', date: '2024-01-01' })
    const trace = extractor.explainOne({ inputType: 'text', data: 'I am getting married' }).trace
    expect(trace.flatMap((t) => t.hits.map((h) => h.rule))).toContain('memory.under-way')
    for (const said of [
      'I am getting ready for work.',
      'I am moving the couch.',
      'I am not getting a divorce.',
      'Are you getting married?',
      'Maybe I am moving to Denver.',
    ])
      expect(events(said), said).toEqual([])
    expect(events('my sister is getting a divorce')).toEqual(['their sister is getting a divorce'])
  })

  it('reads a family, a business or a job on its way as an event under way', () => {
    expect(x("I just found out I'm going to be a grandparent!").memories).toEqual([
      { event: 'is going to be a grandparent', date: '2024-06-15', importance: 'high', confidence: 0.8 },
    ])
    expect(events('We are going to be parents!')).toEqual(['is going to be a parent'])
    expect(events('We are starting our own business next year.')).toEqual(['is starting their own business'])
    expect(events('I am actually opening a restaurant.')).toEqual(['is opening a restaurant'])
    expect(events('I am starting a new job.')).toEqual(['is starting a new job'])
    for (const said of ['I am going to be late.', 'I am opening a jar.', 'Are you starting a new job?'])
      expect(events(said), said).toEqual([])
    expect(x('I am going to be a teacher.').core_info?.occupation?.value).toBe('aspiring teacher')
  })

  it('reads style requests in chat form', () => {
    expect(style("explain it like I'm new to this")).toBe('simple')
    expect(style('no fluff please')).toBe('direct')
    expect(style('no jargon pls')).toBe('simple')
  })

  it('reads a request for answers without emoji, and not someone else’s habit or a liking', () => {
    for (const said of ['please stop using emojis', 'also, no emojis', "don't use any emoji in your answers"])
      expect(style(said), said).toBe('no emojis')
    for (const said of ['my mom sends no emojis ever', 'I love emojis', 'what is an emoji?'])
      expect(style(said), said).toBeUndefined()
  })

  it('still drops "no" as an interjection', () => {
    expect(x('no, I live in Leeds').core_info?.location?.value).toBe('Leeds')
    expect(x('no i live in Leeds').core_info?.location?.value).toBe('Leeds')
  })

  it('leaves short chat without function words undetermined rather than guessing a language', () => {
    expect(detectLanguage('ugh, worst week ever')).toBeUndefined()
    expect(detectLanguage('hola, soy Ana')).toBe('es')
  })

  it('leaves addresses out of the detection, and reads a long run without spaces in linear time', () => {
    expect(detectLanguage('write to ana@example.com or see www.example.com, I love it here')).toBe('en')
    expect(detectLanguage('ana@example.com bob@x.org')).toBeUndefined()
    const started = process.cpuUsage()
    detectLanguage(`hello ${'a'.repeat(200_000)}`)
    detectLanguage(`hello ${'a@'.repeat(100_000)}`)
    detectLanguage(`hello ${'a.'.repeat(100_000)}@`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(2)
  })
})

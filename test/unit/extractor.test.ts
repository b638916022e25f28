import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { emptyContent } from '../../src/domain/profile.js'
import type { Extraction, ProfileContent } from '../../src/domain/profile.js'

const NOW = new Date('2024-06-15T12:00:00Z')
const extractor = new LocalExtractor({ now: () => NOW })
const x = (data: string, profile?: ProfileContent): Extraction =>
  extractor.extractOne({ inputType: 'text', data }, profile)
const values = (e: Extraction, cat: string) => (e.interests?.[cat] ?? []).map((s) => s.value)
const allInterests = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value.toLowerCase())

describe('LocalExtractor: interface', () => {
  it('is named local and returns one extraction per submission, in order', async () => {
    const res = await extractor.extract({
      profile: emptyContent(),
      submissions: [
        { submissionId: 's1', inputType: 'text', data: 'I am 41 years old.' },
        { submissionId: 's2', inputType: 'conversation', data: 'Kim: I adore sushi.\nBot: Nice!' },
        { submissionId: 's3', inputType: 'text', data: '' },
      ],
    })
    expect(extractor.name).toBe('local')
    expect(res.extractions).toHaveLength(3)
    expect(res.extractions[0].core_info?.age?.value).toBe(41)
    expect(values(res.extractions[1], 'food')).toContain('sushi')
    expect(res.extractions[2]).toEqual({})
  })

  it('is deterministic', () => {
    const t = 'My name is Priya. I live in Leeds and I enjoy rock climbing. Last summer I hiked the Alps.'
    expect(x(t)).toEqual(x(t))
  })

  it('honours an aborted signal', async () => {
    const ac = new AbortController()
    ac.abort()
    await expect(
      extractor.extract(
        { profile: emptyContent(), submissions: [{ submissionId: 'a', inputType: 'text', data: 'hi' }] },
        ac.signal,
      ),
    ).rejects.toThrow()
  })

  it('keeps confidences within [0, 1]', () => {
    const e = x('I am Oskar, a 52 year old male plumber from Gdansk. I love fishing and I have a cat. I am stubborn.')
    const confs = [
      ...Object.values(e.core_info ?? {}).map((s) => s!.confidence),
      ...Object.values(e.interests ?? {})
        .flat()
        .map((s) => s.confidence),
      ...(e.personality?.traits ?? []).map((s) => s.confidence),
    ]
    expect(confs.length).toBeGreaterThan(5)
    for (const c of confs) expect(c >= 0 && c <= 1).toBe(true)
  })
})

describe('core_info', () => {
  it('reads a name from "my name is", "call me" and "I\'m <Name>"', () => {
    expect(x('Hello! My name is Ingrid and I grow tomatoes.').core_info?.name).toMatchObject({ value: 'Ingrid' })
    expect(x('Everyone calls me Benji.').core_info?.name?.value).toBe('Benji')
    expect(x("Hi, I'm Tomasz.").core_info?.name?.value).toBe('Tomasz')
    expect(x('my name is oliver').core_info?.name?.value).toBe('Oliver')
    expect(x('My name is Ingrid.').core_info!.name!.confidence).toBeGreaterThanOrEqual(0.9)
  })

  it('reads a name the way chat gives it: in lower case, before a question, "<name> here"', () => {
    const name = (t: string) => x(t).core_info?.name?.value
    expect(name("Good I'm nancy.")).toBe('Nancy')
    expect(name('I am ariel by the way were are you from?')).toBe('Ariel')
    expect(name('Hi I am amy I hate clowns')).toBe('Amy')
    expect(name('My name is larry what is yours?')).toBe('Larry')
    expect(name('Hey my name is emily, could I get yours?')).toBe('Emily')
    expect(name('Hi, alan here.')).toBe('Alan')
    expect(name('Hey girl, chelsea here.')).toBe('Chelsea')
    // "here" after a word that is no first name, or a state before a question, gives none
    expect(name('nobody here')).toBeUndefined()
    expect(name('hunter here, any tips?')).toBeUndefined()
    expect(name('i am tired who are you')).toBeUndefined()
    expect(name('what is my name?')).toBeUndefined()
  })

  it('does not take adjectives or states for names', () => {
    expect(x("I'm tired.").core_info?.name).toBeUndefined()
    expect(x("I'm Brazilian and I'm happy here.").core_info?.name).toBeUndefined()
    expect(x('Call me later tonight.').core_info?.name).toBeUndefined()
  })

  it('does not take what follows a name, an adjective after "call me" or a verb after "I am" for a name', () => {
    // The name ends where the sentence goes on ("my name is sam i am six"), whatever the case.
    expect(x('Hi! My name is tomas I am nine years old.').core_info?.name?.value).toBe('Tomas')
    expect(x('my name is petra we just moved').core_info?.name?.value).toBe('Petra')
    // "call me <adjective>" is an idiom, not a name; a lower-case name after it still is one.
    expect(x('Call me lazy, but I never iron my shirts.').core_info?.name).toBeUndefined()
    expect(x('You can call me very old fashioned.').core_info?.name).toBeUndefined()
    expect(x('Call me grumpy today.').core_info?.name).toBeUndefined()
    expect(x('Hi, call me noor.').core_info?.name?.value).toBe('Noor')
    expect(x('Please call me Ezekiel.').core_info?.name?.value).toBe('Ezekiel')
    // "I'm also considering Denver": a verb, not a name.
    expect(x("I'm also considering Denver for the winter.").core_info?.name).toBeUndefined()
    expect(x('i am visiting paris next week').core_info?.name).toBeUndefined()
  })

  it('ends a place where a participle goes on about something else ("I live in Ohio working as a nurse")', () => {
    expect(x('I live in idaho working as a nurse.').core_info?.location?.value).toBe('Idaho')
    expect(x('I live in Lyon looking for a flat in Paris.').core_info?.location?.value).toBe('Lyon')
    // A place that ends like a participle is not cut.
    expect(x('I live in Wyoming working as a nurse.').core_info?.location?.value).toBe('Wyoming')
    expect(x('I live in Austin, Texas.').core_info?.location?.value).toBe('Austin, Texas')
  })

  it('reads ages in digits and in words', () => {
    expect(x('I am 27 years old.').core_info?.age?.value).toBe(27)
    expect(x("I'm thirty-four.").core_info?.age?.value).toBe(34)
    expect(x('i am a 61 year old grandmother').core_info?.age?.value).toBe(61)
    expect(x('I just turned fifty two!').core_info?.age?.value).toBe(52)
    expect(x('i am sixty years old and i fix bikes').core_info?.age?.value).toBe(60)
  })

  it('does not read other numbers as an age', () => {
    expect(x('I am 5 foot 9.').core_info?.age).toBeUndefined()
    expect(x('My son is 12 years old.').core_info?.age).toBeUndefined()
    expect(x('I have 3 kids.').core_info?.age).toBeUndefined()
  })

  it('reads explicit gender with high confidence and role cues with low confidence', () => {
    expect(x('I am a woman in tech.').core_info?.gender).toEqual({ value: 'female', confidence: 0.9 })
    expect(x('i am a 45 year old male').core_info?.gender?.value).toBe('male')
    expect(x('I identify as non-binary.').core_info?.gender?.value).toBe('non-binary')
    const cue = x('I am a proud father of three.').core_info?.gender
    expect(cue?.value).toBe('male')
    expect(cue!.confidence).toBeLessThanOrEqual(0.5)
    expect(x('I am a fan of man utd.').core_info?.gender).toBeUndefined()
  })

  it('reads a location from live in / from / moved to / based in', () => {
    expect(x('I live in Porto.').core_info?.location?.value).toBe('Porto')
    expect(x('i am from kenya').core_info?.location?.value).toBe('Kenya')
    expect(x('We had a baby, then I moved to Denver last year.').core_info?.location?.value).toBe('Denver')
    expect(x("I'm based in Berlin, Germany.").core_info?.location?.value).toBe('Berlin, Germany')
    expect(x('I live in a small town.').core_info?.location).toMatchObject({ value: 'small town' })
    expect(x('I live in a small town.').core_info!.location!.confidence).toBeLessThan(0.7)
  })

  it('prefers where the person lives over where they grew up', () => {
    expect(x('I grew up in Ohio but I live in Seattle now.').core_info?.location?.value).toBe('Seattle')
  })

  it('does not take non-places for a location', () => {
    expect(x('I am from a big family.').core_info?.location).toBeUndefined()
    expect(x('I live in fear of spiders.').core_info?.location).toBeUndefined()
  })

  it('reads occupations from several phrasings', () => {
    const occ = (t: string) => x(t).core_info?.occupation?.value
    expect(occ('I work as a dental hygienist.')).toBe('dental hygienist')
    expect(occ('I just started working as a personal assistant about three months ago.')).toBe('personal assistant')
    expect(occ('I am a software engineer at a startup.')).toBe('software engineer')
    expect(occ("i'm an electrician")).toBe('electrician')
    expect(occ('I teach chemistry at a high school.')).toBe('chemistry teacher')
    expect(occ('I teach at the local university.')).toBe('teacher')
    expect(occ('I run a bakery downtown.')).toBe('bakery owner')
    expect(occ("I'm retired.")).toBe('retired')
    expect(occ('I am a college student.')).toBe('college student')
    expect(occ("I'm a student.")).toBe('student')
    expect(occ('i walk dogs for a living')).toBe('dog walker')
    expect(occ('I am a retired school teacher.')).toBe('retired school teacher')
    expect(occ('I am a stay at home mom.')).toBe('stay-at-home parent')
    expect(occ('I am currently unemployed.')).toBe('unemployed')
  })

  it('does not take family roles, fans or traits for occupations', () => {
    const occ = (t: string) => x(t).core_info?.occupation
    expect(occ('I am a mother of two.')).toBeUndefined()
    expect(occ('I am a huge fan of opera.')).toBeUndefined()
    expect(occ('I am an introvert.')).toBeUndefined()
    expect(occ('I am a vegetarian.')).toBeUndefined()
  })

  it('turns pastime nouns into interests, not jobs', () => {
    const e = x('I am an avid reader and a keen cyclist.')
    expect(e.core_info?.occupation).toBeUndefined()
    expect(allInterests(e)).toEqual(expect.arrayContaining(['reading', 'cycling']))
  })
})

describe('interests', () => {
  it('classifies liked things into categories with short values', () => {
    const e = x('I love jazz and I enjoy hiking. I really like pizza. I adore my two cats.')
    expect(values(e, 'music')).toContain('jazz')
    expect(values(e, 'hobbies')).toContain('hiking')
    expect(values(e, 'food')).toContain('pizza')
    expect(values(e, 'pets')).toContain('cat')
  })

  it('reads "my hobby is X" and a sport done "a lot"', () => {
    expect(values(x('No, my main hobby is mountain biking. Do you?'), 'sports')).toEqual(['mountain biking'])
    const both = x('My hobbies are hiking and reading.')
    expect([...values(both, 'hobbies'), ...values(both, 'books')]).toEqual(['hiking', 'reading'])
    expect(allInterests(x('My hobby is that I collect stamps.'))).not.toContain('that i collect stamps')
    expect(values(x('I run a lot.'), 'sports')).toEqual(['running'])
    expect(values(x('I run a business.'), 'sports')).toEqual([])
    expect(values(x('I take photos of the horses and scenery.'), 'hobbies')).toEqual(['photography'])
    expect(allInterests(x('I take the bus to work.'))).toEqual([])
  })

  it('reads lists, infinitives and gerunds', () => {
    const e = x('I like to swim, bake and go camping. I enjoy playing the violin and watching documentaries.')
    expect(values(e, 'sports')).toContain('swimming')
    expect(allInterests(e)).toEqual(expect.arrayContaining(['baking', 'camping', 'violin', 'documentaries']))
    expect(values(e, 'music')).toContain('violin')
  })

  it('reads "my favorite X is Y" and "Y is my favorite"', () => {
    const e = x(
      'My favorite food is ramen. My favourite band is Radiohead. ' +
        'Blue is my favorite color. Autumn is my favorite season.',
    )
    expect(values(e, 'food')).toContain('ramen')
    expect(values(e, 'music')).toContain('Radiohead')
    expect(values(e, 'other')).toEqual(expect.arrayContaining(['blue', 'autumn']))
    expect(values(x('my favorite book is the hobbit'), 'books')).toEqual(['the hobbit'])
    expect(values(x('My favorite show is The Office.'), 'movies_tv')).toEqual(['The Office'])
  })

  it('reads activities: play, listen to, collect, go, do', () => {
    const e = x(
      'I play basketball on weekends. I listen to a lot of reggae. I collect stamps. ' +
        'I go fishing with my uncle. I do yoga every morning.',
    )
    expect(values(e, 'sports')).toEqual(expect.arrayContaining(['basketball', 'yoga']))
    expect(values(e, 'music')).toContain('reggae')
    expect(values(e, 'hobbies')).toEqual(expect.arrayContaining(['collecting stamps', 'fishing']))
  })

  it('reads pets from "I have a dog named Rex" and "my cat"', () => {
    expect(values(x('I have a dog named Rex.'), 'pets')).toEqual(['dog'])
    expect(values(x('i have three hamsters'), 'pets')).toEqual(['hamster'])
    expect(values(x('My old cat sleeps all day.'), 'pets')).toEqual(['cat'])
    expect(values(x('I have no pets.'), 'pets')).toEqual([])
    expect(values(x("I'm allergic to dogs."), 'pets')).toEqual([])
    expect(values(x('I ate a hot dog.'), 'pets')).toEqual([])
  })

  it('reads a pet named in passing, weaker, in any clause of the person’s own', () => {
    const pets = (data: string) => x(data).interests?.pets ?? []
    expect(pets('I work part time because I cant leave my cats alone long')).toEqual([
      { value: 'cat', confidence: 0.6 },
    ])
    expect(values(x('can you watch my dogs this weekend?'), 'pets')).toEqual(['dog'])
    expect(values(x('I guess you can afford more than my pet fish!'), 'pets')).toEqual(['fish'])
    expect(values(x('yeah she is my therapy dog'), 'pets')).toEqual(['dog'])
    for (const said of ['I miss my dog so much', 'my sisters cat is cute', 'She used to sleep with my cat.'])
      expect(values(x(said), 'pets'), said).toEqual([])
  })

  it('reads "both" as no part of a value, and someone else’s thing as no favourite', () => {
    expect(values(x('I love both cats and dogs'), 'pets')).toEqual(['cat', 'dog'])
    expect(values(x('I think I would like to visit both Paris and Berlin.'), 'travel')).toEqual(['Paris', 'Berlin'])
    expect(values(x('I like old hogan because his uniform is my favorite color'), 'other')).toEqual(['old hogan'])
    expect(x('Her cooking is my favorite.').interests).toBeUndefined()
  })

  it('reads travel interests', () => {
    const e = x('I love traveling to Japan. I visit Italy every summer.')
    expect(values(e, 'travel')).toEqual(expect.arrayContaining(['Japan', 'Italy']))
  })

  it('uses lower snake_case category keys', () => {
    const e = x('I love horror movies and I watch a lot of anime.')
    expect(Object.keys(e.interests ?? {})).toEqual(['movies_tv'])
    for (const k of Object.keys(x('I love jazz, pizza, tennis, chess, cats, novels and Paris.').interests ?? {})) {
      expect(k).toMatch(/^[a-z]+(?:_[a-z]+)*$/)
    }
  })

  it('does not add pronouns, family or filler as interests', () => {
    const e = x('I love my family. I like it. I love you. I enjoy that.')
    expect(e.interests).toBeUndefined()
  })
})

describe('negation, hedging, questions and other people', () => {
  it('turns "anymore" / "no longer" / "stopped" into removals', () => {
    const e = x(
      "I don't like jazz anymore. I no longer play tennis. I stopped eating meat. I'm not into anime anymore.",
    )
    expect(e.removals).toEqual(
      expect.arrayContaining([
        { section: 'interests', value: 'jazz' },
        { section: 'interests', value: 'tennis' },
        { section: 'interests', value: 'meat' },
        { section: 'interests', value: 'anime' },
      ]),
    )
    expect(e.interests).toBeUndefined()
  })

  it('names the category of a removal when the profile holds the value', () => {
    const profile = emptyContent()
    profile.interests.music = [{ value: 'Jazz', confidence: 0.9 }]
    expect(x('I do not listen to jazz anymore.', profile).removals).toEqual([
      { section: 'interests', category: 'music', value: 'jazz' },
    ])
  })

  it('treats a plain dislike as a weak topic to avoid, never as an interest', () => {
    const e = x("I don't like country music. I hate mushrooms.")
    expect(allInterests(e)).toEqual([])
    expect(e.removals).toBeUndefined()
    const avoid = e.preferences?.topics_to_avoid ?? []
    expect(avoid.map((t) => t.value)).toEqual(expect.arrayContaining(['country music', 'mushrooms']))
    for (const t of avoid) expect(t.confidence).toBeLessThanOrEqual(0.5)
  })

  it('removes an existing interest that a plain dislike contradicts', () => {
    const profile = emptyContent()
    profile.interests.food = [{ value: 'mushrooms', confidence: 0.8 }]
    expect(x('I hate mushrooms.', profile).removals).toEqual([
      { section: 'interests', category: 'food', value: 'mushrooms' },
    ])
  })

  it('the later statement wins inside one text', () => {
    expect(values(x('I used to hate golf. Now I love golf.'), 'sports')).toEqual(['golf'])
    const e = x("I love sushi. Actually, I don't like sushi anymore.")
    expect(values(e, 'food')).toEqual([])
    expect(e.removals).toEqual([{ section: 'interests', value: 'sushi' }])
  })

  it('handles "I used to love X, but not anymore"', () => {
    expect(x('I used to love skiing, but not anymore.').removals).toEqual([{ section: 'interests', value: 'skiing' }])
  })

  it('skips or weakens hedged statements', () => {
    const e = x("I might try surfing. Maybe I'll learn piano. Perhaps I am a teacher.")
    expect(e.interests).toBeUndefined()
    expect(e.core_info).toBeUndefined()
    const wish = x('I would love to visit Iceland someday.')
    expect(values(wish, 'travel')).toEqual(['Iceland'])
    expect(wish.interests!.travel[0].confidence).toBeLessThanOrEqual(0.5)
  })

  it('ignores questions', () => {
    const e = x('Do you like jazz? What is your favorite food? Are you a nurse?')
    expect(e).toEqual({ language: 'en' })
    expect(values(x('I love reggae, do you?'), 'music')).toEqual(['reggae'])
  })

  it("does not attribute other people's facts to the person", () => {
    const e = x('My sister loves jazz. My husband is a doctor. My dad lives in Chicago. My son is 12 years old.')
    expect(e.interests).toBeUndefined()
    expect(e.core_info).toBeUndefined()
  })
})

describe('personality and mood', () => {
  it('reads traits from "I am ..." and "I\'m an introvert"', () => {
    const traits = (t: string) => (x(t).personality?.traits ?? []).map((s) => s.value)
    expect(traits('I am shy and very organized.')).toEqual(['shy', 'organized'])
    expect(traits("I'm an introvert.")).toEqual(['introvert'])
    expect(traits('People say I am stubborn.')).toEqual(['stubborn'])
    expect(traits('I am not lazy.')).toEqual([])
  })

  it('reads the mood from explicit feelings', () => {
    expect(x("I'm so tired today.").personality?.mood).toEqual({ value: 'tired', confidence: 0.85 })
    expect(x('i feel stressed out').personality?.mood?.value).toBe('stressed')
    expect(x('I am excited about the trip!').personality?.mood?.value).toBe('excited')
    expect(x('I am happy to help.').personality?.mood).toBeUndefined()
  })

  it('tells a stable disposition from a passing feeling', () => {
    const e = x('I am generally an anxious person.')
    expect(e.personality?.traits?.map((t) => t.value)).toEqual(['anxious'])
    expect(e.personality?.mood).toBeUndefined()
    expect(x('I feel anxious right now.').personality?.mood?.value).toBe('anxious')
  })

  it('removes a trait the person says they no longer have', () => {
    expect(x("I'm not shy anymore.").removals).toEqual([{ section: 'traits', value: 'shy' }])
  })
})

describe('memories', () => {
  it('reads an event told with "once", undated', () => {
    expect(x('I once gave my sister a goldfish.').memories).toEqual([
      { event: 'gave their sister a goldfish', importance: 'low', confidence: 0.6 },
    ])
  })

  it('records past events with chrono dates relative to the injected clock', () => {
    const e = x(
      'I graduated from college in 2015. Last year I ran a marathon. ' +
        'We got married on June 3, 2019. Two months ago I adopted a puppy.',
    )
    expect(e.memories).toEqual(
      expect.arrayContaining([
        { event: 'graduated from college in 2015', date: '2015-01-01', importance: 'high', confidence: 0.9 },
        expect.objectContaining({ event: 'ran a marathon', date: '2023-01-01', importance: 'medium' }),
        expect.objectContaining({ event: 'got married on June 3, 2019', date: '2019-06-03', importance: 'high' }),
        expect.objectContaining({ event: 'adopted a puppy', date: '2024-04-01', importance: 'high' }),
      ]),
    )
  })

  it('keeps a dated stay at a known place, and no stay without a place and a date', () => {
    expect(x('I was in Portugal last year. The street art there is beautiful!').memories).toEqual([
      { event: 'was in Portugal', date: '2023-01-01', importance: 'medium', confidence: 0.8 },
    ])
    expect(x('I was in Bath last week.').memories?.[0]?.event).toBe('was in Bath')
    for (const said of ['I was in Paris.', 'I was in bath last week.', 'I was in the hospital last year.'])
      expect(x(said).memories, said).toBeUndefined()
    expect(x('My sister was in Rome last year.').memories?.map((m) => m.event)).toEqual([
      'their sister was in Rome last year',
    ])
  })

  it('reads a long stay or a long move in linear time', () => {
    const started = process.cpuUsage()
    x(`I was in ${'paris '.repeat(20_000)}last year.`)
    x(`We are moving to ${'new york '.repeat(20_000)}soon.`)
    x(`I went to the ocean with ${'my fiance and me '.repeat(5_000)}yesterday.`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(5)
  })

  it('dates a past event by a bare month or weekday, and no plan', () => {
    const first = (t: string) => x(t).memories?.[0]
    expect(first('I broke my arm in April.')).toMatchObject({ event: 'broke their arm in April', date: '2024-04-01' })
    expect(first('I broke my arm in December.')?.date).toBe('2023-12-01')
    expect(first('I ran a charity race last Saturday.')).toMatchObject({ event: 'ran a charity race' })
    expect(first('I used to hike in April')?.date).toBeUndefined()
    expect(first('I am getting married in April')?.date).not.toBe('2024-04-01')
  })

  it('reads a duration as no date ("for 15 years"), and dates no past event after the reference', () => {
    const first = (t: string) => x(t).memories?.[0]
    expect(first('I worked as a nurse for 15 years.')).toMatchObject({ event: 'worked as a nurse for 15 years' })
    expect(first('I worked as a nurse for 15 years.')?.date).toBeUndefined()
    // Something done for a while up to now stays a memory, undated.
    expect(first('I have worked in the ER for two years.')).toEqual({
      event: 'has worked in the ER for two years',
      importance: 'medium',
      confidence: 0.8,
    })
    expect(first('I have been teaching math for a decade.')?.date).toBeUndefined()
    // a possession is a standing fact, never a dated or lasting event
    expect(x('I have a dog for two years.').memories).toEqual([
      { event: 'has a dog for two years', importance: 'low', confidence: 0.55 },
    ])
    expect(first('I volunteered at the shelter over the last 3 years.')?.date).toBeUndefined()
    expect(first('I lived in Oslo for a few months in 2019.')).toMatchObject({ date: '2019-01-01' })
    // A date that chrono reads as later than the reference is no date of something that happened.
    expect(first('I finished the course next month.')?.date).toBeUndefined()
    // As before: relative dates in the past, and plans (which may be dated ahead).
    expect(first('Two months ago I adopted a puppy.')).toMatchObject({ date: '2024-04-01' })
  })

  it('rates importance: life events high, dated events medium, others low', () => {
    const imp = (t: string) => x(t).memories?.[0]?.importance
    expect(imp('I was born in Manila.')).toBe('high')
    expect(imp('My father passed away in 2020.')).toBe('high')
    expect(imp('I painted the fence in 2021.')).toBe('medium')
    expect(imp('I broke a glass.')).toBe('low')
  })

  it('keeps present habits and plain past chatter out of memories', () => {
    expect(x('I go hiking every weekend.').memories).toBeUndefined()
    expect(x('I thought so.').memories).toBeUndefined()
    expect(x('I did not graduate in 2010.').memories).toBeUndefined()
  })
})

describe('preferences', () => {
  it('reads the conversation style', () => {
    const style = (t: string) => x(t).preferences?.conversation_style?.value
    expect(style('Please keep it short.')).toBe('concise')
    expect(style('I prefer detailed answers.')).toBe('detailed')
    expect(style('Just be direct with me, no fluff.')).toBe('direct')
    expect(style('I like a casual tone.')).toBe('casual')
    expect(style('Explain it in simple terms please.')).toBe('simple')
    expect(style('I do not want short answers.')).toBeUndefined()
  })

  it('reads topics to avoid', () => {
    const avoid = (t: string) => (x(t).preferences?.topics_to_avoid ?? []).map((s) => s.value)
    expect(avoid("Please don't talk about politics.")).toEqual(['politics'])
    expect(avoid('I hate talking about my weight.')).toEqual(['weight'])
    expect(avoid("I don't want to discuss my divorce or my ex.")).toEqual(['divorce', 'ex'])
    expect(avoid('My health is a sensitive topic.')).toEqual(['health'])
    expect(x("Please don't talk about politics.").preferences!.topics_to_avoid![0].confidence).toBeGreaterThanOrEqual(
      0.85,
    )
  })
})

describe('text forms', () => {
  it('handles lower-case chat text without capitals', () => {
    const e = x(
      'hi there . i am a nurse . i love to hike . i have two dogs . my favorite food is tacos . i live in ohio .',
    )
    expect(e.core_info?.occupation?.value).toBe('nurse')
    expect(e.core_info?.location?.value).toBe('Ohio')
    expect(values(e, 'hobbies')).toContain('hiking')
    expect(values(e, 'pets')).toContain('dog')
    expect(values(e, 'food')).toContain('tacos')
  })

  it('handles contractions written without apostrophes', () => {
    const e = x('im 30 and i dont like opera anymore')
    expect(e.core_info?.age?.value).toBe(30)
    expect(e.removals).toEqual([{ section: 'interests', value: 'opera' }])
  })

  it('rewrites simple third-person text about one person', () => {
    const e = x(
      'Maria is a 34 year old nurse from Lisbon. She loves jazz and plays the piano. She got married in 2019.',
    )
    expect(e.core_info).toMatchObject({
      name: { value: 'Maria' },
      age: { value: 34 },
      gender: { value: 'female' },
      location: { value: 'Lisbon' },
      occupation: { value: 'nurse' },
    })
    expect(values(e, 'music')).toEqual(expect.arrayContaining(['jazz', 'piano']))
    expect(e.memories?.[0]).toMatchObject({ event: 'got married in 2019', date: '2019-01-01', importance: 'high' })
  })

  it('keeps another person in third-person text apart', () => {
    const e = x('David works as an architect. His wife is a painter. He enjoys sailing.')
    expect(e.core_info?.occupation?.value).toBe('architect')
    expect(e.core_info?.gender?.value).toBe('male')
    expect(allInterests(e)).toEqual(['sailing'])
  })

  it('reports the language and extracts nothing else from non-English text', () => {
    expect(x('Me llamo Lucía y me encanta el fútbol, vivo en Sevilla con mi familia.')).toEqual({ language: 'es' })
    expect(x('I love jazz.').language).toBe('en')
  })
})

describe('conversation input', () => {
  const conv = (data: string, profile?: ProfileContent) =>
    extractor.extractOne({ inputType: 'conversation', data }, profile)

  it("uses only the first speaker's turns in the line form", () => {
    const e = conv(
      [
        'Ana: hi! i am a vet and i love cats',
        'Bot: I am a robot and I love football.',
        'Ana: i live in madrid',
        'also i enjoy baking',
      ].join('\n'),
    )
    expect(e.core_info?.occupation?.value).toBe('vet')
    expect(e.core_info?.location?.value).toBe('Madrid')
    expect(allInterests(e)).toEqual(expect.arrayContaining(['cat', 'baking']))
    expect(allInterests(e)).not.toContain('football')
  })

  it('uses only role "user" in the JSON form', () => {
    const data = JSON.stringify([
      { role: 'system', content: 'You are helpful. I am a doctor.' },
      { role: 'user', content: 'I have a parrot named Kiwi.' },
      { role: 'assistant', content: 'I love parrots! I am from Mars.' },
      { role: 'user', content: 'Please keep it short.' },
    ])
    const e = conv(data)
    expect(values(e, 'pets')).toEqual(['parrot'])
    expect(e.core_info).toBeUndefined()
    expect(e.preferences?.conversation_style?.value).toBe('concise')
  })

  it('does not let sentences run across turns', () => {
    const e = conv('Lee: I love\nBob: jazz is great')
    expect(allInterests(e)).toEqual([])
  })

  it('returns nothing for a malformed conversation instead of throwing', () => {
    expect(conv('[{"speaker": "x"}]')).toEqual({})
  })
})

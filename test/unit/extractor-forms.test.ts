import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const values = (e: Extraction, cat: string) => (e.interests?.[cat] ?? []).map((s) => s.value)
const allInterests = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value.toLowerCase())

describe('sentence shapes', () => {
  it('reads an apposition after the name', () => {
    const e = x("I'm Jess, 29, living in Toronto.")
    expect(e.core_info).toMatchObject({ name: { value: 'Jess' }, age: { value: 29 }, location: { value: 'Toronto' } })
    expect(x('I am Oskar, a retired welder from Gdansk.').core_info).toMatchObject({
      occupation: { value: 'retired welder' },
      location: { value: 'Gdansk' },
    })
  })

  it('reads where a person works from "a <job> in <place>", and nothing from look-alikes', () => {
    const e = x("I'm Chiamaka, 23, a software engineer in Lagos.")
    expect(e.core_info).toMatchObject({
      name: { value: 'Chiamaka' },
      age: { value: 23 },
      occupation: { value: 'software engineer' },
      location: { value: 'Lagos' },
    })
    const where = (t: string) => x(t).core_info?.location?.value
    expect(where("I'm Wanjiru, 30, a nurse in Nairobi.")).toBe('Nairobi')
    expect(where("I'm a nurse in Nairobi.")).toBe('Nairobi')
    expect(where("I'm a teacher based in Leeds.")).toBe('Leeds')
    expect(where('I work as a nurse in Nairobi.')).toBe('Nairobi')
    expect(where("I'm Ada, 31, a nurse in Abuja.")).toBe('Abuja') // a capitalised name the place lexicon does not know
    expect(where("I'm a software engineer from Lagos living in Berlin.")).toBe('Berlin')
    expect(where("I'm Tunde, a software engineer from Lagos living in Berlin.")).toBe('Berlin')
    expect(where("I'm a chef in Paris, France.")).toBe('Paris, France')
    expect(where("i'm chiamaka, 23, a software engineer in lagos")).toBe('Lagos')
    for (const t of [
      "I'm interested in Lagos.",
      'I read a book in Spanish.',
      "I'm a teacher in Spanish.",
      "I'm a teacher in English.",
      "I'm a nurse in 2019.",
      "I'm a singer in love.",
      "I'm a singer in a band.",
      "I'm a nurse in my 30s.",
      "I'm an analyst in IT.",
      "I'm a nurse in the ICU.",
      "I'm a manager in Marketing.",
      "I'm a doctor in training.",
      "I'm a mechanic in the Army.",
      'I am a big believer in God.',
      "I'm a writer in my spare time.",
    ]) {
      expect(where(t), t).toBeUndefined()
    }
  })

  it('reads subjectless fragments of a bio', () => {
    const e = x('Vegan for 5 years. Big into bouldering and indie rock. Love board games.')
    expect(values(e, 'food')).toEqual(['vegan'])
    expect(allInterests(e)).toEqual(expect.arrayContaining(['bouldering', 'indie rock', 'board games']))
  })

  it("reads a verb phrase coordinated with the person's own", () => {
    expect(x('i drive a big truck and live in the countryside').core_info?.location?.value).toBe('countryside')
    expect(values(x('I love jazz and play the saxophone.'), 'music')).toEqual(['jazz', 'saxophone'])
  })

  it('reads pets in a coordinated noun phrase', () => {
    expect(values(x('I have a 3 year old daughter and a golden retriever called Max.'), 'pets')).toEqual([
      'golden retriever',
    ])
  })

  it('reads a job held for years and a job with a workplace', () => {
    expect(x("I've been a firefighter for twelve years.").core_info?.occupation?.value).toBe('firefighter')
    expect(x('I work at a bakery as a pastry chef.').core_info?.occupation?.value).toBe('pastry chef')
    expect(x('I work at a hospital.').core_info?.occupation).toEqual({ value: 'works at a hospital', confidence: 0.55 })
  })

  it('splits "and" clauses that start with a time phrase', () => {
    const e = x('I moved to a new flat last year, and in 2016 I graduated from nursing school.')
    expect(e.memories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'moved to a new flat', date: '2023-01-01' }),
        expect.objectContaining({ event: 'graduated from nursing school', date: '2016-01-01', importance: 'high' }),
      ]),
    )
  })

  it('reads "X is my passion" and "I am an X fan"', () => {
    expect(values(x('Knitting is my passion.'), 'hobbies')).toEqual(['knitting'])
    expect(values(x("I'm a huge Star Wars fan."), 'movies_tv')).toEqual(['Star Wars'])
  })

  it('reads fears as topics to avoid, not as traits', () => {
    const e = x('I am terrified of heights.')
    expect(e.personality?.traits).toBeUndefined()
    expect(e.preferences?.topics_to_avoid).toEqual([{ value: 'heights', confidence: 0.5 }])
  })

  it('maps riding horses and taking pictures to known activities', () => {
    const e = x('I like to ride horses and take pictures.')
    expect(allInterests(e)).toEqual(expect.arrayContaining(['horseback riding', 'photography']))
  })

  it('drops chat fillers and adverbs from values', () => {
    expect(x('Not a fan of horror films tbh.').preferences?.topics_to_avoid?.map((t) => t.value)).toEqual([
      'horror films',
    ])
    expect(values(x('I play the guitar badly.'), 'music')).toEqual(['guitar'])
  })

  it('reads "avoid jargon" as a style, not a topic', () => {
    const e = x('Could you please avoid medical jargon?')
    expect(e.preferences?.conversation_style?.value).toBe('simple')
    expect(e.preferences?.topics_to_avoid).toBeUndefined()
  })
})

describe('more core and interest cases', () => {
  it('derives an approximate age from a birth year and keeps the birthplace apart from the year', () => {
    const e = x('I was born in 1990 in Manila.')
    expect(e.core_info?.age).toEqual({ value: 34, confidence: 0.6 })
    expect(e.core_info?.location?.value).toBe('Manila')
    expect(e.memories?.[0]).toMatchObject({ date: '1990-01-01', importance: 'high' })
  })

  it('does not take a dwelling for a location', () => {
    expect(x('i live in a three storey house.').core_info?.location).toBeUndefined()
    expect(x('I live in an apartment downtown.').core_info?.location).toBeUndefined()
  })

  it('counts the person inside "my family and I"', () => {
    expect(x('my family and i are from india.').core_info?.location?.value).toBe('India')
    expect(values(x('My husband and I love camping.'), 'hobbies')).toEqual(['camping'])
  })

  it('reads several pets and titles that contain function words', () => {
    expect(values(x('i own a cat and a dog.'), 'pets')).toEqual(['cat', 'dog'])
    expect(values(x('my favorite band is the who.'), 'music')).toEqual(['the who'])
    expect(values(x('i read a book every week.'), 'books')).toEqual(['reading'])
  })
})

describe('moves, birthdays and requests', () => {
  const where = (t: string) => x(t).core_info?.location?.value

  it('reads where a person moved to, not where they moved from', () => {
    expect(where('I moved from Chennai to Toronto last year.')).toBe('Toronto')
    expect(where('I moved from New York City to Austin in 2020.')).toBe('Austin')
    expect(where('I just moved to Porto from Lisbon.')).toBe('Porto')
    expect(where('I moved to Paris, France from Rome.')).toBe('Paris, France')
    // Where they moved away from is no longer where they live: the move is a memory, and no location.
    const movedAway = x('I moved here from Chennai four years ago.')
    expect(movedAway.core_info?.location).toBeUndefined()
    expect(movedAway.memories?.map((m) => m.event)).toEqual(['moved here from Chennai'])
    expect(where('We emigrated from Poland when I was six.')).toBeUndefined()
    expect(where('I live in Leeds, far from London.')).toBe('Leeds')
  })

  it('counts the years since a birthday it names, and takes no age when it says only "years ago"', () => {
    const age = (t: string) => x(t).core_info?.age?.value
    expect(age('A friend made it for my 18th birthday ten years ago.')).toBe(28)
    expect(age('For my 21st birthday 3 years ago we went to Rome.')).toBe(24)
    expect(age('Today is my 30th birthday!')).toBe(30)
    expect(age('My 40th birthday was years ago.')).toBeUndefined()
  })

  it('reads "don\'t ask me about X" as a topic to avoid', () => {
    const avoid = (t: string) => x(t).preferences?.topics_to_avoid?.map((s) => s.value)
    expect(avoid("Please don't ask me about my divorce.")).toEqual(['divorce'])
    expect(avoid('Never ask about politics.')).toEqual(['politics'])
    expect(avoid('please do not talk to me about work')).toEqual(['work'])
  })
})

describe('key-value bios', () => {
  it('reads "Key: value" lines', () => {
    const e = x(
      'Name: Ama Owusu\nAge: 41\nLocation: Accra, Ghana\nOccupation: civil engineer\n' +
        'Hobbies: gardening, chess\nFavorite food: jollof rice\nPets: two parrots',
    )
    expect(e.core_info).toMatchObject({
      name: { value: 'Ama Owusu' },
      age: { value: 41 },
      location: { value: 'Accra, Ghana' },
      occupation: { value: 'civil engineer' },
    })
    expect(values(e, 'hobbies')).toEqual(['gardening', 'chess'])
    expect(values(e, 'food')).toEqual(['jollof rice'])
    expect(values(e, 'pets')).toEqual(['parrot'])
  })

  it('still extracts from an English list the language detector cannot place', () => {
    const e = x('Hobbies: hiking, jazz, sushi, Paris, photography.')
    expect(allInterests(e)).toEqual(expect.arrayContaining(['hiking', 'jazz', 'sushi', 'paris', 'photography']))
  })
})

describe('robustness', () => {
  it('does not trip over prototype property names', () => {
    expect(() =>
      x('i am a constructor. constructor: x. i love __proto__. i am constructor years old. i have a toString'),
    ).not.toThrow()
  })

  it('returns an empty extraction for text without words', () => {
    expect(x('😀😀 !!! ??? ... ,,, :::')).toEqual({})
    expect(x('   ')).toEqual({})
  })

  // A guard against catastrophic regex backtracking on large input, not a speed test (bench/extract-speed.ts measures).
  it('finishes a large submission (no pathological slowness)', () => {
    const sentences = [
      'I love hiking in the hills.',
      'My favorite band is Queen.',
      'I work as a nurse.',
      'I have two cats.',
      'Last year I visited Rome.',
      'I am quite shy.',
      'Please keep it brief.',
      'I do not like olives.',
    ]
    const text = Array.from({ length: 1200 }, (_, i) => sentences[i % sentences.length]).join(' ')
    const t0 = performance.now()
    const e = x(text)
    expect(performance.now() - t0).toBeLessThan(30_000)
    expect(e.core_info?.occupation?.value).toBe('nurse')
  })

  it('extracts a varied 2 KB text (its speed is measured in bench/extract-speed.ts, not asserted here)', () => {
    const text = VARIED_TEXT.repeat(2).slice(0, 2048)
    const e = x(text)
    expect(e.core_info?.name?.value).toBe('Rosa')
    expect(e.core_info?.occupation?.value).toBe('pharmacist')
  })
})

const VARIED_TEXT = [
  'Hi, my name is Rosa and I am 38.',
  'I grew up in Seville but I live in Valencia now.',
  'I work as a pharmacist.',
  'In my free time I love salsa dancing and I play the guitar.',
  'My favorite food is paella.',
  'I have a lazy old cat named Miso.',
  'Last year I moved to a new flat.',
  'In 2016 I graduated from university.',
  'I am outgoing but a bit impatient.',
  "I'm so tired today.",
  'Please keep your answers short.',
  "Don't talk about politics with me.",
  "I don't like football anymore.",
  'My brother is a lawyer and loves golf.',
  'I read a lot of mystery novels, especially Agatha Christie.',
  'We went to Lisbon for our honeymoon in June 2015.',
  'I used to play tennis at school.',
  'I volunteer at an animal shelter on Sundays.',
  'Do you like books?',
  'I hate waking up early.',
  'My sister lives in Madrid with her two dogs.',
  'I collect vintage postcards.',
  'I am learning Japanese.',
  'Sometimes I go fishing with my dad.',
  'I would love to visit Kyoto one day.',
].join(' ')

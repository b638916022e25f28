// The vocabularies built from packages (scripts/build-vocabularies.mjs): the gazetteer, WordNet's occupations, and
// the rules that read places and jobs said in passing. Each form is tested both ways: taken, and its look-alikes not.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { placeAtStart, placeKind } from '../../src/ai/local/gazetteer.js'
import { OCCUPATIONS } from '../../src/ai/local/lexicon-core.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const extract = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const where = (data: string) => extract(data).core_info?.location
const job = (data: string) => extract(data).core_info?.occupation
const lower = () => false
const capitalised = () => true

describe('the gazetteer', () => {
  it('knows cities, countries, states and provinces in lower case', () => {
    expect(placeKind('leeds', lower)).toBe('city')
    expect(placeKind('gdansk', lower)).toBe('city') // folded to ASCII ("Gdańsk")
    expect(placeKind('gdańsk', lower)).toBe('city') // read folded
    expect(placeKind('sao paulo', lower)).toBe('city')
    expect(placeKind('the hague', lower)).toBe('city')
    expect(placeKind('the netherlands', lower)).toBe('country')
    expect(placeKind('uk', lower)).toBe('country')
    expect(placeKind('ontario', lower)).toBe('region')
    expect(placeKind('new south wales', lower)).toBe('region')
    // the broader kind wins a shared name
    expect(placeKind('georgia', lower)).toBe('country')
    expect(placeKind('washington', lower)).toBe('region')
  })

  it('takes a city whose name is an English word only when capitalised', () => {
    for (const name of ['bath', 'nice', 'mobile', 'reading', 'cork', 'split', 'sale']) {
      expect(placeKind(name, lower), name).toBeUndefined()
      expect(placeKind(name, capitalised), name).toBe('city')
    }
    // a word seen only as a name stays a place in lower case: "berlin", "manila"
    expect(placeKind('berlin', lower)).toBe('city')
    expect(placeKind('manila', lower)).toBe('city')
  })

  it('knows no grammar word, no two-letter town, and not "us"', () => {
    for (const name of ['of', 'us', 'the', 'home', 'work', 'a van', '']) {
      expect(placeKind(name, capitalised), name).toBeUndefined()
    }
  })

  it('finds the longest place a phrase starts with', () => {
    expect(placeAtStart('toronto for two years now', lower)).toBe('toronto')
    expect(placeAtStart('new south wales these days', lower)).toBe('new south wales')
    expect(placeAtStart('the netherlands', lower)).toBe('the netherlands')
    expect(placeAtStart('my sister', lower)).toBeUndefined()
  })

  it('is the file the build script writes from the installed packages', () => {
    const script = path.join(import.meta.dirname, '..', '..', 'scripts', 'build-vocabularies.mjs')
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow()
  }, 60_000)
})

describe('places after the usual words, known by the gazetteer', () => {
  it('reads cities compromise does not know, in lower case too', () => {
    expect(where('i live in gdansk')?.value).toBe('Gdansk')
    expect(where("i'm from abuja, nigeria")?.value).toBe('Abuja, Nigeria')
    expect(where('i moved to vanadzor last year')?.value).toBe('Vanadzor')
    expect(where('i moved to são paulo')?.value).toBe('São Paulo')
    expect(where('i live in the uk')?.value).toMatch(/^uk$/i)
  })

  it('reads a common-word city when it is capitalised, and nothing from the word', () => {
    expect(where("I'm a teacher in Mobile.")?.value).toBe('Mobile')
    expect(where("I've been in Reading for two years.")?.value).toBe('Reading')
    expect(where("I've been in Bath for a year now.")?.value).toBe('Bath')
    expect(where('i have been in bath for a year now')).toBeUndefined()
    expect(where("I've been reading for two years.")).toBeUndefined()
    expect(where('Nice to meet you! I have a mobile phone.')).toBeUndefined()
    expect(where("I'm a teacher in mobile learning.")).toBeUndefined()
  })

  it('takes no person for a place', () => {
    expect(where("I'm a huge Paris Hilton fan.")).toBeUndefined()
    const jordan = extract("Hi, I'm Jordan.")
    expect(jordan.core_info?.location).toBeUndefined()
    expect(where("I'm from Jordan.")?.value).toBe('Jordan')
  })
})

describe('places said in passing', () => {
  it('reads where a workplace is, weakly', () => {
    const nurse = extract("I'm a nurse at a clinic in Leeds.").core_info
    expect(nurse?.occupation?.value).toBe('nurse')
    expect(nurse?.location).toMatchObject({ value: 'Leeds' })
    expect(nurse?.location?.confidence).toBeLessThan(0.5)
    expect(where('i work for a bank in lisbon')?.value).toBe('Lisbon')
    // a workplace in a place the gazetteer does not know says nothing
    expect(where('I work at a clinic in the basement.')).toBeUndefined()
    expect(where("I'm a nurse at a clinic in my town.")).toBeUndefined()
  })

  it('reads a stay of months or years, and no trip', () => {
    expect(where("I've been in Toronto for two years now.")).toMatchObject({ value: 'Toronto', confidence: 0.6 })
    expect(where('been in toronto for two years now')?.value).toBe('Toronto')
    expect(where('i have been here in leeds since 2019')?.value).toBe('Leeds')
    for (const text of [
      "I've been in Toronto for a week.",
      "I've been in Toronto for two days on vacation.",
      'I had been in Toronto for two years.',
      'My sister has been in Oslo for years.',
      "I've been in this job for two years.",
      "I've been in a relationship for three years.",
      'I have been in the army for 5 years.',
    ]) {
      expect(where(text), text).toBeUndefined()
    }
  })

  it('reads where the person works from, and not home or a trip', () => {
    expect(where('working from Lisbon these days')).toMatchObject({ value: 'Lisbon', confidence: 0.5 })
    expect(where('i work remotely from lisbon')?.value).toBe('Lisbon')
    for (const text of [
      'I work from home.',
      "I'm working from Lisbon this week.",
      'My husband works from Lisbon.',
      'I work from my bed.',
    ]) {
      expect(where(text), text).toBeUndefined()
    }
  })

  it('reads a place by its weather, weakly, and not on a trip; a place before a verb of its own', () => {
    expect(where('Glasgow weather is doing its thing again')).toMatchObject({ value: 'Glasgow', confidence: 0.45 })
    expect(where('London weather has been grim lately')?.value).toBe('London')
    for (const text of [
      'Miami weather is amazing this week, loving the vacation',
      'Paris weather was lovely when we visited',
      'my weather app is broken',
    ]) {
      expect(where(text), text).toBeUndefined()
    }
    expect(where('the weather here in Glasgow is awful')?.value).toBe('Glasgow')
  })

  it('reads "back home in" only of the person', () => {
    expect(where('I miss my family back home in Manila.')).toMatchObject({ value: 'Manila', confidence: 0.5 })
    expect(where('back home in manila we eat a lot of rice')?.value).toBe('Manila')
    expect(where('My sister is back home in Manila.')).toBeUndefined()
    expect(where('My parents still live back home in Manila.')).toBeUndefined()
  })

  it("takes no one else's place, no trip and no place moved away from", () => {
    for (const text of [
      'My sister lives in Oslo.',
      "I'm visiting Paris next week.",
      'I went to Rome last summer.',
      "I'm in Paris next week.",
      "I'm in London for work.",
      'I moved away from Leeds.',
      'I used to live in Leeds.',
      'I left Leeds years ago.',
    ]) {
      expect(where(text), text).toBeUndefined()
    }
  })

  it('names the rule behind each place', () => {
    const rules = (data: string) =>
      extractor
        .explainOne({ inputType: 'text', data })
        .trace.filter((value) => value.field === 'core_info.location')
        .flatMap((value) => value.hits.map((hit) => hit.rule))
    expect(rules("I'm a nurse at a clinic in Leeds.")).toEqual(['location.job-at-place-in'])
    expect(rules('I work at a clinic in Leeds.')).toEqual(['location.work-at-in'])
    expect(rules("I've been in Toronto for two years now.")).toEqual(['location.been-in-for'])
    expect(rules('working from Lisbon these days')).toEqual(['location.working-from'])
    expect(rules('back home in Manila')).toEqual(['location.back-home-in'])
  })
})

describe("WordNet's occupations", () => {
  it('knows jobs the hand list left out, and keeps the hand list', () => {
    expect(job("I'm a stonemason.")?.value).toBe('stonemason')
    expect(job('I am a mortician.')?.value).toBe('mortician')
    expect(job("I'm an electrician by trade.")?.value).toBe('electrician')
    expect(job("I'm a barista.")?.value).toBe('barista')
    expect(OCCUPATIONS.has('nurse') && OCCUPATIONS.has('software engineer')).toBe(true)
  })

  it('leaves out pastimes, roles that are no job, general words and names', () => {
    // pastimes, roles, general words, a name ("tanner"), and words said mostly as adjectives ("heavy", "private")
    const notJobs = ['knitter', 'runner', 'fan', 'volunteer', 'veteran', 'bridesmaid', 'worker', 'tanner', 'heavy']
    for (const word of [...notJobs, 'private', 'major']) {
      expect(OCCUPATIONS.has(word), word).toBe(false)
    }
    expect(job('I am a knitter.')).toBeUndefined()
    expect(job('i am a green bay packer fan')).toBeUndefined()
    expect(job('i am a recovering heavy drinker')).toBeUndefined()
    expect(job('in fact, i am an olympian gold medalist winner')?.value).toBe('olympian')
    expect(extract("Hi, I'm Tanner.").core_info?.name?.value).toBe('Tanner')
  })
})

describe('occupations said without "I am a"', () => {
  it('takes a promotion as the new job, over the old one', () => {
    expect(job('I just got promoted to head chef.')).toMatchObject({ value: 'head chef', confidence: 0.95 })
    expect(job("I'm a line cook. I just got promoted to head chef.")?.value).toBe('head chef')
    expect(job('My wife got promoted to manager.')).toBeUndefined()
    expect(job('I got promoted to the next level.')).toBeUndefined()
    expect(job('I hope to get promoted to manager.')).toBeUndefined()
  })

  it('never takes a past job as the current one', () => {
    expect(job('I used to be a teacher.')?.value).toBe('former teacher')
    expect(job("I used to be a teacher, now I'm a nurse.")?.value).toBe('nurse')
    expect(job("I'm a teacher. I used to be a lawyer.")?.value).toBe('teacher')
  })

  it('reads "my students" as a teacher, weakly, and nothing else', () => {
    expect(job('My students were wild today.')).toMatchObject({ value: 'teacher', confidence: 0.4 })
    expect(job("I'm a nurse. My students were wild today.")?.value).toBe('nurse')
    // a ward's shifts are a nurse's, as weakly (occupation.ward-shifts)
    expect(job('Night shifts on the cardiac ward again.')).toMatchObject({ value: 'nurse', confidence: 0.4 })
    for (const text of [
      'My fellow students are nice.',
      'I used to love my students.',
      'I miss my students so much.',
      'My patients were lovely today.',
    ]) {
      expect(job(text), text).toBeUndefined()
    }
  })
})

describe("WordNet's interest words and the pastimes said in passing", () => {
  const interests = (data: string) =>
    Object.fromEntries(
      Object.entries(extract(data).interests ?? {}).map(([cat, list]) => [cat, list.map((x) => x.value)]),
    )

  it('puts instruments, dishes and games the hand lists lack in their category', () => {
    expect(interests('I play the balalaika.')).toEqual({ music: ['balalaika'] })
    expect(interests('I love biryani.')).toEqual({ food: ['biryani'] })
    expect(interests('nothing beats a game of backgammon')).toEqual({ hobbies: ['backgammon'] })
  })

  it('reads a tabletop game run for others, and not a message sent to someone', () => {
    expect(interests('I DM a D&D campaign every other friday')).toEqual({ hobbies: ['d&d'] })
    expect(interests('I run a weekly dnd group for my coworkers')).toEqual({ hobbies: ['d&d'] })
    expect(interests('i dm him a lot')).toEqual({})
    expect(interests("I coach my son's little league team")).toEqual({ sports: ['baseball'] })
  })

  it('reads "out <pastime>", and not errands', () => {
    expect(interests("Most Saturdays I'm out bouldering.")).toEqual({ sports: ['bouldering'] })
    expect(interests('i am usually out fishing on sundays')).toEqual({ hobbies: ['fishing'] })
    expect(interests("I'm out running errands.")).toEqual({})
    expect(interests('i was just out walking my dogs')).not.toHaveProperty('hobbies')
    expect(interests("I'm out shopping for a new couch.")).not.toHaveProperty('sports')
  })

  it('reads "nothing beats" a known thing, and nothing else', () => {
    expect(interests('Nothing beats a bowl of pho.')).toEqual({ food: ['pho'] })
    expect(interests('nothing beats a plate of biryani')).toEqual({ food: ['biryani'] })
    expect(interests('Nothing beats my bed.')).toEqual({})
    expect(interests('Nothing beats the feeling of being home.')).toEqual({})
  })
})

describe('teams and titles no package lists, written with capitals', () => {
  const interests = (data: string) =>
    Object.entries(extract(data).interests ?? {}).flatMap(([category, values]) =>
      values.map((v) => `${category}: ${v.value}`),
    )

  it('reads a game title after "playing" as the person capitalised it', () => {
    expect(interests("been replaying Baldur's Gate")).toEqual(["hobbies: Baldur's Gate"])
    expect(interests("I've been playing Elden Ring all weekend")).toEqual(['hobbies: Elden Ring'])
    expect(interests('I have been playing The Last of Us with my son')).toEqual(['hobbies: The Last of Us'])
    expect(interests('playing The Witcher 3 again')).toEqual(['hobbies: The Witcher 3'])
    // a known game keeps its lexicon entry; a person played with is no title
    expect(interests('I play Minecraft with my kids')).toEqual(['hobbies: minecraft'])
    expect(interests("I've been playing with Sam all day")).toEqual([])
    // in lower case, the same words the person plays, with how long cut off
    expect(interests('i have been playing elden ring all weekend')).toEqual(['hobbies: elden ring'])
  })

  it('reads a team from "huge X fan", with or without "I am"', () => {
    // a plural, a city or a club supported reads as a team; a single name of no known kind stays "other"
    expect(interests('huge Celtics fan')).toEqual(['sports: Celtics'])
    expect(interests('die-hard Arsenal fan here')).toEqual(['other: Arsenal'])
    expect(interests('die-hard Arsenal supporter here')).toEqual(['sports: Arsenal'])
    expect(interests('huge Chicago fan')).toEqual(['sports: Chicago'])
    expect(interests("I'm a big Yankees fan")).toEqual(['sports: Yankees'])
    expect(interests('not a huge fan of crowds')).toEqual([])
  })
})

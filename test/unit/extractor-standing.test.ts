// Standing facts: what the person has, does as a habit and is, and how the people around them are, said in the
// present, kept as undated low-importance memories (docs/architecture/local-extractor.md, "Standing facts").
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { thirdPerson } from '../../src/ai/local/standing.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const events = (data: string) => (x(data).memories ?? []).map((m) => m.event)
const rulesOf = (data: string) =>
  extractor
    .explainOne({ inputType: 'text', data })
    .trace.filter((t) => t.field === 'memories')
    .flatMap((t) => t.hits.map((h) => h.rule))

describe('what the person has', () => {
  it('reads a possession in the forms chat uses, in the third person', () => {
    expect(events('I am good, I just got off work and tired, I have two jobs.')).toContain('has two jobs')
    expect(events("i've got a pet cow")).toEqual(['has a pet cow'])
    expect(events('I have my own studio.')).toEqual(['has their own studio'])
    expect(events('I have Amazon Prime and there are a ton of free books')).toEqual(['has Amazon Prime'])
    expect(events("I don't have any kids")).toEqual(['has no kids'])
    expect(events("Well, I don't actually have dogs so not great I suppose.")).toEqual(['has no dogs'])
    expect(events("No I've never been outside the US.")).toEqual(['has never been outside the US'])
    expect(events('I deliver mail.')).toEqual(['delivers mail'])
    expect(events('I browse the internet a lot.')).toEqual(['browses the internet a lot'])
    expect(events('I am not married yet.')).toEqual(['is not married'])
    expect(events("I've never broken a bone, have you?")).toEqual(['has never broken a bone'])
    expect(events("I've never worked in food service before.")).toEqual(['has never worked in food service'])
    expect(events('I donate to charity every year.')).toEqual(['donates to charity every year'])
    expect(events('Study biology and practice running long distances.')).toEqual([
      'studies biology',
      'practices running long distances',
    ])
    expect(events('I have no siblings.')).toEqual(['has no siblings'])
  })

  it('is undated, low in importance and traced to its rule', () => {
    expect(x('I have two jobs.').memories).toEqual([{ event: 'has two jobs', importance: 'low', confidence: 0.55 }])
    expect(rulesOf('I have two jobs.')).toEqual(['memory.has'])
  })

  it('leaves out what "have" says when it is no possession', () => {
    for (const said of [
      'I have to go now',
      'I have no idea',
      'I have a question for you',
      'I have been there twice',
      'I have never heard of it',
      'have a great day!',
      'I have a feeling it will rain',
      'I have one in middle school',
      'i have a couple',
      'I have them a couple times a week',
      'do you have kids?',
      'maybe I have a cold',
      // it ends pointing at something said elsewhere, with one word of its own
      'I have a stroller for her',
      'I have such a dislike for it',
      'I have videos of them on there',
    ])
      expect(events(said), said).toEqual([])
    // a wish to have is a goal, not a possession
    expect(events('I want to have a dog')).toEqual(['wants to have a dog'])
  })
})

describe('habits', () => {
  it('reads a habit in the present', () => {
    expect(events('My wife works and I stay at home')).toEqual(['their wife works', 'stays at home'])
    expect(events('I usually drive my big truck to work')).toEqual(['drives their big truck to work'])
    expect(events('I study languages and music.')).toEqual(['studies languages and music'])
    expect(events('I take care of my grandma on weekends')).toEqual(['takes care of their grandma on weekends'])
    expect(events('I drive a Ford F150 myself')).toEqual(['drives a Ford F150'])
    expect(events('Yes. I live alone.')).toEqual(['lives alone'])
    expect(events('I compete with show dogs')).toEqual(['competes with show dogs'])
  })

  it('keeps where the person lives as a memory only when no place is read', () => {
    expect(x('I live in Paris.').memories).toBeUndefined()
    expect(events('I live there.')).toEqual([])
    expect(events('I live in a rural farming community.')).toEqual(['lives in a rural farming community'])
  })

  it('leaves out what other rules read, and what points elsewhere', () => {
    expect(events('I watch a lot of TV')).toEqual([])
    // an interest already holds it
    expect(events('I volunteer at the homeless shelter on the weekends')).toEqual([])
    expect(events('I help you')).toEqual([])
    expect(events('I go there every year')).toEqual([])
    // "use to" is "used to", misspelt: a memory of the past, no habit
    expect(events('i use to work for the cia')).toEqual(['used to work for the cia'])
  })

  it('conjugates the verb in the third person', () => {
    expect(['have', 'go', 'do', 'watch', 'fix', 'study', 'play', 'take care of'].map(thirdPerson)).toEqual([
      'has',
      'goes',
      'does',
      'watches',
      'fixes',
      'studies',
      'plays',
      'takes care of',
    ])
  })
})

describe('what the person is', () => {
  it('reads what no field holds', () => {
    expect(events('I am in remission.')).toEqual(['is in remission'])
    expect(events('I am biracial')).toEqual(['is biracial'])
    // a state compromise reads as a verb
    expect(events('I am married. I have a german shepherd.')).toEqual(['is married', 'has a german shepherd'])
    expect(events('Oh congrats! I am divorced.')).toEqual(['is divorced'])
    expect(events("I'm a cancer survivor")).toEqual(['is a cancer survivor'])
  })

  it('leaves out what a field holds, reactions and passing states', () => {
    expect(events('I am a nurse.')).toEqual([])
    expect(events('I am sorry to hear that')).toEqual([])
    expect(events('I am so tired today')).toEqual([])
    expect(events("I'm going to the store")).toEqual([])
    expect(events('hello! i am dawn')).toEqual([])
    expect(events('I am proud of her')).toEqual([])
    expect(events('i am too old to date')).toEqual([])
    expect(events('I am cool thanks')).toEqual([])
  })
})

describe('what the person has none of, does not do, is not, and is in the middle of', () => {
  it('reads them in the third person', () => {
    expect(events('I do not have a car')).toEqual(['has no car'])
    expect(events("I don't drive")).toEqual(['does not drive'])
    expect(events('I never cook')).toEqual(['does not cook'])
    expect(events("i'm not a morning person")).toEqual(['is not a morning person'])
    expect(events('I am working on a robot so I can have company')).toEqual(['is working on a robot'])
    expect(events('I am saving up for a new car')).toEqual(['is saving up for a new car'])
  })

  it('leaves out what says nothing that stands', () => {
    for (const said of ["I don't have time", 'i have no idea', "I don't use it", 'i am not sure', "I don't eat much"])
      expect(events(said), said).toEqual([])
    // a removal or a dislike reads it first
    expect(events("I don't play golf anymore")).toEqual([])
    expect(events("I'm not into fashion")).toEqual([])
  })
})

describe('likings no interest rule places', () => {
  it('keeps them as they were said', () => {
    expect(events('I like to go to the playground with friends')).toEqual([
      'likes to go to the playground with friends',
    ])
    expect(events('i love to spend time with my sisters')).toEqual(['loves to spend time with their sisters'])
    expect(rulesOf('I like kids')).toEqual(['memory.likes'])
  })

  it('leaves out what an interest holds, what points elsewhere and what is about the talk', () => {
    expect(events('I love jazz')).toEqual([])
    for (const said of ['i love how you think', 'I like that', 'I like to think so', 'i love her', 'i like them all'])
      expect(events(said), said).toEqual([])
    expect(events('I like to go at least twice a year')).toEqual([])
  })
})

describe('goals', () => {
  it('keeps a goal that names what is wanted, weaker than a fact', () => {
    expect(x('I would like to go to culinary school.').memories).toEqual([
      { event: 'would like to go to culinary school', importance: 'low', confidence: 0.5 },
    ])
    expect(events('I plan to buy a house near the lake')).toEqual(['plans to buy a house near the lake'])
    expect(events('I want a robot servant')).toEqual(['wants a robot servant'])
    expect(rulesOf('I hope to pay off my student loans soon')).toEqual(['memory.goal'])
    expect(events('I want to move to the city.')).toEqual(['wants to move to the city'])
    expect(events('I am trying to get into college.')).toEqual(['is trying to get into college'])
    expect(events("I'm thinking about getting a cat.")).toEqual(['is thinking about getting a cat'])
    expect(events('I hope to open a business.')).toEqual(['hopes to open a business'])
    expect(events('My goal is to run a 5k!')).toEqual(['their goal is to run a 5k'])
    expect(events('My goal is to tell you.')).toEqual([])
    expect(events('I have always wanted to try real persian food.')).toEqual([
      'has always wanted to try real persian food',
    ])
  })

  it('leaves out wishes of the conversation, small ones, and what another rule read', () => {
    expect(events('i want to know more about you')).toEqual([])
    expect(events('I want to go to bed')).toEqual([])
    expect(events('I would love to go home now')).toEqual([])
    expect(events('I definitely want to go back.')).toEqual([])
    expect(events('I would love to try it someday.')).toEqual([])
    expect(events('would you like to go to culinary school?')).toEqual([])
    expect(x('I want to learn guitar').memories).toBeUndefined()
    // a goal that names the other speaker is about the talk
    expect(events('i would love to show you around the farm')).toEqual([])
  })
})

describe('the people and pets around the person', () => {
  it('keeps what is said of them as theirs, naming them', () => {
    expect(events('Yes! My son is in junior high')).toEqual(['their son is in junior high'])
    expect(events('My dad was always busy working at home depot')).toEqual([
      'their dad was always busy working at home depot',
    ])
    expect(events('Cool! My only pet is a cow')).toEqual(['their only pet is a cow'])
    expect(events("I'm ok my husband is a doctor")).toContain('their husband is a doctor')
  })

  it('never makes their facts the person’s own', () => {
    const sister = x('My sister has two dogs and lives in Oslo.')
    expect(sister.core_info?.location).toBeUndefined()
    expect(sister.memories?.map((m) => m.event)).toEqual(['their sister has two dogs and lives in Oslo'])
    expect(events('my friend said "I have three cats"')).toEqual([])
    // only that the person has a sister (kin.ts)
    expect(events('my sister loves me')).toEqual(['has a sister'])
    // a family event stays one memory (memories.ts), not two
    expect(events('my son was born in 2010')).toEqual(['their son was born in 2010'])
  })
})

describe('a place or a band opening a message is no person', () => {
  it('reads no name from "Europe is ..." or "Aerosmith is ..."', () => {
    expect(x('Europe is so much fun!').core_info?.name).toBeUndefined()
    expect(x('Aerosmith is a classic band.').core_info?.name).toBeUndefined()
    expect(x('Priya is a nurse from Lisbon.').core_info).toMatchObject({
      name: { value: 'Priya' },
      occupation: { value: 'nurse' },
    })
  })
})

describe('bad inputs', () => {
  it('stays linear on long runs of the forms it reads', () => {
    const hostile = [
      'i have a '.repeat(4000),
      'i have to '.repeat(4000),
      'my son is my son is '.repeat(2000),
      'i am in '.repeat(4000),
      `i drive ${'and '.repeat(8000)}`,
      `i have ${' '.repeat(50_000)}x`,
      `i have ${'\n '.repeat(25_000)},`,
    ]
    for (const data of hostile) {
      // This process's CPU time, not the wall clock, so that other processes on a busy machine do not count.
      const cpu = process.cpuUsage()
      x(data)
      const used = process.cpuUsage(cpu)
      // Each takes well under half a second; a pattern that rescans a run of spaces from each space takes seconds.
      expect((used.user + used.system) / 1000).toBeLessThan(3_000)
    }
  })
})

describe('names, abilities and efforts', () => {
  it('names a relative or a pet by the name the person gives', () => {
    expect(events('My dogs name is tyson. How many grandchildren do you have?')).toEqual(['their dog is named Tyson'])
    expect(events('Great. My fish is called Bubbles.')).toEqual(['their fish is named Bubbles'])
    expect(events('my turtle loves lettuce')).toEqual(['their turtle loves lettuce'])
    expect(events("yeah my son's name is Jack")).toEqual(['their son is named Jack'])
    expect(events('My name is Bob.')).toEqual([])
  })

  it('reads what the person cannot or would never do, and what they try to do', () => {
    expect(events("I can't swim.")).toEqual(['cannot swim'])
    expect(events("I don't drive though")).toEqual(['does not drive'])
    expect(events('Yuck... Snails. I would never eat a snail.')).toEqual(['would never eat a snail'])
    expect(events('I try to save money but sometimes I splurge.')).toEqual(['tries to save money'])
    // a pastime tried at is an interest, which holds it
    expect(x('I try to walk everyday but sometimes I am too busy.').interests?.hobbies?.[0]?.value).toBe('walking')
    for (const said of ['I try to help you.', 'I can not help it.', 'I would never do that.'])
      expect(events(said), said).toEqual([])
  })
})

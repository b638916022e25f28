// Who said it and about whom: facts about relatives, friends, quoted speakers, story characters and hypothetical
// selves never become the person's, and the person's own fact in the same sentence still does. Sentences written for
// these tests (not taken from any evaluation data). See docs/architecture/local-extractor.md.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { splitClauses } from '../../src/ai/local/text.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const text = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const conv = (turns: [string, string][]): Extraction =>
  extractor.extractOne({
    inputType: 'conversation',
    data: JSON.stringify(turns.map(([role, content]) => ({ role, content }))),
  })
/** The same words as a text and as the person's only turn of a conversation. */
const both = (data: string): Extraction[] => [text(data), conv([['user', data]])]
const interests = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value.toLowerCase())
const core = (e: Extraction) => ({
  location: e.core_info?.location?.value,
  occupation: e.core_info?.occupation?.value,
})

describe('relatives, friends and colleagues as subjects', () => {
  it("takes none of a relative's facts", () => {
    for (const said of [
      'My sister lives in Oslo and loves skiing.',
      'My boss is a vegan.',
      'My husband works as a pilot.',
      "Our neighbour's kid plays the violin.",
      'I have a friend who is a chef and loves cooking.',
      'I think she lives in Oslo and loves skiing.',
      'My sister is a nurse; loves jazz.',
      'I have a sister who has a dog.',
    ]) {
      for (const e of both(said)) {
        expect(core(e), said).toEqual({ location: undefined, occupation: undefined })
        expect(interests(e), said).toEqual([])
      }
    }
  })

  it("keeps the person's own fact in the same sentence", () => {
    for (const e of both('My sister lives in Oslo but I live in Bergen.'))
      expect(e.core_info?.location?.value).toBe('Bergen')
    for (const e of both("My boss is vegan, I'm not.")) expect(e.interests?.food).toBeUndefined()
    for (const e of both('My friend and I both love hiking.')) expect(interests(e)).toEqual(['hiking'])
    for (const e of both('Me and my friend love hiking.')) expect(interests(e)).toEqual(['hiking'])
    for (const e of both('My husband works as a pilot and I work as a nurse.'))
      expect(e.core_info?.occupation?.value).toBe('nurse')
    for (const e of both('My brother has a dog and I have a cat.'))
      expect(e.interests?.pets?.map((p) => p.value)).toEqual(['cat'])
    for (const e of both('I have a dog who loves walks and a cat.'))
      expect(e.interests?.pets?.map((p) => p.value)).toEqual(['dog', 'cat'])
    for (const e of both('I live in Denver and love skiing.')) {
      expect(e.core_info?.location?.value).toBe('Denver')
      expect(interests(e)).toEqual(['skiing'])
    }
  })

  it('reads "she" as the sister named before it, in a text and in the turn before', () => {
    const e = text('I talked to my sister Anna yesterday. She is a nurse and loves jazz.')
    expect(e.core_info?.occupation).toBeUndefined()
    expect(interests(e)).toEqual([])
    const turns = conv([
      ['user', 'My sister Anna came to visit.'],
      ['assistant', 'How nice! What does she do?'],
      ['user', "She's a nurse and she loves jazz. I'm a teacher."],
    ])
    expect(turns.core_info?.occupation?.value).toBe('teacher')
    expect(interests(turns)).toEqual([])
  })

  it("keeps a relative's pronouns apart in a text about one person in the third person", () => {
    const e = text('John is a chef. His sister lives in Oslo. She loves skiing.')
    expect(e.core_info).toMatchObject({ name: { value: 'John' }, occupation: { value: 'chef' } })
    expect(e.core_info?.gender?.value).toBe('male')
    expect(interests(e)).toEqual([])
    expect(interests(text('Maria is a nurse. Her brother is a pilot. He loves golf. She loves jazz.'))).toEqual([
      'jazz',
    ])
    // a family word is no name: the text is about that relative
    expect(text('Dad is a pilot. He loves golf.')).toEqual({ language: 'en' })
    // the person's own milestone about a relative is still read
    expect(text('Maria is a nurse. Her father passed away in 2010.').memories?.[0]?.event).toBe(
      'their father passed away in 2010',
    )
  })
})

describe('quoted and reported speech', () => {
  it('takes nothing from what someone else says', () => {
    for (const said of [
      'My friend said "I love Paris".',
      '"I love Paris and I live in Rome," my friend said.',
      'She told me: "I work as a nurse."',
      "He told me he's a chef.",
      'Mom keeps saying I should be a doctor.',
      'My dad says I am a great cook.',
      'He said that I am a genius.',
    ]) {
      for (const e of both(said)) {
        expect(core(e), said).toEqual({ location: undefined, occupation: undefined })
        expect(interests(e), said).toEqual([])
      }
    }
  })

  it("keeps the person's own words around and inside their own quotes", () => {
    for (const e of both('My friend said "I love Paris" but I prefer London.')) expect(interests(e)).toEqual(['london'])
    for (const e of both('I always say "I love Paris".')) expect(interests(e)).toEqual(['paris'])
    for (const e of both('I told him I am a nurse.')) expect(e.core_info?.occupation?.value).toBe('nurse')
    for (const e of both('My favorite book is "Dune".'))
      expect(interests(e).map((value) => value.replace(/"/g, ''))).toEqual(['dune'])
  })

  it('reads what others say the person is as a weak trait, and nothing else', () => {
    for (const e of both('My dad says I am stubborn.')) {
      expect(e.personality?.traits).toEqual([{ value: 'stubborn', confidence: 0.6 }])
      expect(e.core_info).toBeUndefined()
    }
  })
})

describe('fiction and media', () => {
  it("takes no character's facts", () => {
    for (const said of [
      'In the book the hero loves jazz.',
      'The main character is a detective from Boston.',
      'My character in the game is an elf mage.',
      'I play an elf mage in the game.',
      'I play a doctor on TV.',
      'In my game, I am a knight who lives in a castle.',
      'I am reading a novel where the main character lives in Boston and loves jazz.',
    ]) {
      for (const e of both(said)) {
        expect(core(e), said).toEqual({ location: undefined, occupation: undefined })
        expect(
          interests(e).filter((v) => v !== 'reading'),
          said,
        ).toEqual([])
      }
    }
  })

  it('still reads what the person plays and reads', () => {
    for (const e of both('I play the violin. In the book the hero loves jazz.'))
      expect(interests(e)).toEqual(['violin'])
    expect(interests(text('I am reading a novel where the main character loves jazz.'))).toEqual(['reading'])
  })
})

describe('hypotheticals and questions', () => {
  it('takes nothing from a hypothetical or a question', () => {
    for (const said of [
      'If I were a doctor I would help people.',
      'Would you like sushi?',
      'Do you live in Ohio?',
      "I wonder if I'd enjoy pottery.",
      "I'd hate to be a lawyer.",
      'If I lived in Paris I would eat croissants every day.',
    ]) {
      for (const e of both(said)) {
        expect(core(e), said).toEqual({ location: undefined, occupation: undefined })
        expect(interests(e), said).toEqual([])
        expect(e.preferences, said).toBeUndefined()
      }
    }
  })

  it("keeps the answer after a question in the person's own words", () => {
    for (const e of both('Do you live in Ohio? I live in Texas.')) expect(e.core_info?.location?.value).toBe('Texas')
  })

  it("takes nothing from the assistant's lines of a conversation", () => {
    const e = conv([
      ['assistant', 'I live in Paris, I work as a chef and I love opera.'],
      ['user', 'I live in Hamburg.'],
    ])
    expect(e.core_info).toEqual({ location: { value: 'Hamburg', confidence: 0.9 } })
    expect(e.interests).toBeUndefined()
  })
})

describe('tense: past and plans', () => {
  it('reads the past as past, never as current', () => {
    for (const e of both('I used to live in Chicago.')) {
      expect(e.core_info?.location).toBeUndefined()
      expect(e.memories?.[0]?.event).toBe('used to live in Chicago')
    }
    for (const e of both('I used to be a teacher.'))
      expect(e.core_info?.occupation).toEqual({ value: 'former teacher', confidence: 0.45 })
    for (const e of both('I used to be a teacher. Now I work as a nurse.'))
      expect(e.core_info?.occupation?.value).toBe('nurse')
    for (const e of both('I no longer play golf.')) {
      expect(e.removals).toEqual([{ section: 'interests', value: 'golf' }])
      expect(e.interests).toBeUndefined()
    }
  })

  it('reads a plan as a weak interest or an aspiration, and no move until it happens', () => {
    for (const e of both("I'm going to start learning piano."))
      expect(e.interests?.music).toEqual([{ value: 'piano', confidence: 0.45 }])
    for (const e of both("I'm going to be a nurse."))
      expect(e.core_info?.occupation).toEqual({ value: 'aspiring nurse', confidence: 0.45 })
    for (const e of both("I'm moving to Berlin next month.")) expect(e.core_info?.location).toBeUndefined()
    for (const e of both("I live in Bergen. I'm moving to Berlin next month."))
      expect(e.core_info?.location?.value).toBe('Bergen')
    for (const e of both('I am going to the beach tomorrow.')) expect(e).toEqual({ language: 'en' })
  })
})

describe('bad inputs', () => {
  it('reads unbalanced and empty quotes without losing the rest', () => {
    expect(core(text('I am 5\'10" tall and I live in Oslo.')).location).toBe('Oslo')
    expect(core(text('He said "" and I live in Oslo.')).location).toBe('Oslo')
    expect(core(text('"I live in Rome," said my friend. I live in Oslo.')).location).toBe('Oslo')
    expect(core(text('I live in Oslo and she said "')).location).toBe('Oslo')
    expect(text('"""""""""')).toEqual({})
  })

  it('stays linear on long runs of quotes, speech verbs and relatives', () => {
    const hostile = [
      '"said '.repeat(4000),
      'my sister said '.repeat(2000),
      'and she and he '.repeat(2000),
      'in the book '.repeat(2000),
      'his sister is a nurse. she loves jazz, and he said "'.repeat(2000),
    ]
    for (const data of hostile) {
      const started = performance.now()
      text(data)
      // generous: a quadratic scan of these inputs takes minutes
      expect(performance.now() - started).toBeLessThan(10_000)
    }
  })
})

describe('a statement that runs into a question', () => {
  it('reads the statement before the question chat leaves unstopped, at full strength', () => {
    for (const e of both('I also love board games would you be up for that?'))
      expect(e.interests?.hobbies).toEqual([{ value: 'board games', confidence: 0.9 }])
    for (const e of both('I love ice cream what is your favorite?')) expect(interests(e)).toEqual(['ice cream'])
    for (const e of both('I enjoy running do you?')) expect(e.interests?.sports?.[0]?.confidence).toBe(0.85)
    // chat's spelling of "what's", and a question left without its mark
    for (const e of both('Oh yes, I love halloween, whats your favorite movie?'))
      expect(interests(e)).toEqual(['halloween'])
    expect(splitClauses('i am a tennis player what do you do in spare time').map((c) => [c.text, c.question])).toEqual([
      ['i am a tennis player', false],
      ['what do you do in spare time', true],
    ])
  })

  it('reads nothing from the question itself, or from a verb with nothing before the question', () => {
    for (const said of [
      'I wonder what you think?',
      'I love how you do that?',
      'i like what you said',
      'i love how you do it',
    ])
      for (const e of both(said)) expect(interests(e), said).toEqual([])
    expect(splitClauses('i love ice cream what is your favorite?').map((c) => [c.text, c.question])).toEqual([
      ['i love ice cream', false],
      ['what is your favorite', true],
    ])
  })

  it('finds the question in linear time, however many spaces come before it', () => {
    const started = process.cpuUsage()
    splitClauses(`i love ${' '.repeat(200_000)}x?`)
    splitClauses(`i love it ${'do '.repeat(50_000)}you?`)
    splitClauses(`i love it ${'what do '.repeat(50_000)}you`)
    const used = process.cpuUsage(started)
    expect((used.user + used.system) / 1e6).toBeLessThan(2)
  })
})

// Forms chat gives facts in that the rules read: a favourite film or book named in lower case, the household's place
// ("we live in nebraska"), and vague words that are no interest ("different kinds"). Sentences written for these tests.
import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import type { Extraction } from '../../src/domain/profile.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (data: string): Extraction => extractor.extractOne({ inputType: 'text', data })
const values = (e: Extraction) =>
  Object.values(e.interests ?? {})
    .flat()
    .map((s) => s.value)

describe('a favourite title in lower case', () => {
  it('keeps a film or a book named with words of any kind', () => {
    expect(x('My favorite movie is clueless.').interests?.movies_tv).toEqual([{ value: 'clueless', confidence: 0.9 }])
    expect(values(x('my favorite book is old yeller'))).toEqual(['old yeller'])
    expect(values(x('My favorite book is a tale of two cities'))).toEqual(['tale of two cities'])
  })

  it('keeps nothing that says no title yet or points elsewhere', () => {
    for (const said of [
      'My favorite show is hard to say.',
      'My favorite movie is probably something with action.',
      'my favorite movie is it',
      'my favorite movie is the one with the dog',
      'my favorite film is the',
    ])
      expect(values(x(said)), said).toEqual([])
  })
})

describe('the household’s place', () => {
  it('reads "we live in" for a place the lexicon knows, weaker than "I live in"', () => {
    expect(x('We live in nebraska. So do you get to leave?').core_info?.location).toEqual({
      value: 'Nebraska',
      confidence: 0.75,
    })
    expect(x('my family and I live near Dallas').core_info?.location?.value).toBe('Dallas')
  })

  it('reads no place from a dwelling, a saying or the past', () => {
    for (const said of ['we live in a small house', 'We live in the moment', 'when I was little we lived in Ohio'])
      expect(x(said).core_info?.location, said).toBeUndefined()
  })
})

describe('vague words', () => {
  it('takes no interest or memory from "kinds" and "types"', () => {
    expect(x('I like a lot of different kinds.')).toEqual({ language: 'en' })
    expect(values(x('I like all kinds of music.'))).toEqual(['music'])
  })
})

describe('a job said in passing', () => {
  it('reads "X by trade" without "I am", and never a relative’s', () => {
    expect(x('electrician by trade').core_info?.occupation?.value).toBe('electrician')
    expect(x('my dad is a plumber by trade').core_info?.occupation).toBeUndefined()
  })

  it('reads what was and what is now as two clauses', () => {
    const e = x('I used to be a teacher, now I am a nurse.')
    expect(e.core_info?.occupation?.value).toBe('nurse')
    expect(e.memories?.map((m) => m.event)).toEqual(['used to be a teacher'])
  })
})

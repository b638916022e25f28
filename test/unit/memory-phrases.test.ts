// Memories and interests are phrases a person would write, read on their own (docs/architecture/local-extractor.md,
// "What it extracts"): no phrase cut off in the middle, no "did it".
import { describe, expect, it } from 'vitest'
import { interestPhrase } from '../../src/ai/local/acc.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { selfContained } from '../../src/ai/local/memories.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const events = (data: string) => (extractor.extractOne({ inputType: 'text', data }).memories ?? []).map((m) => m.event)

describe('memories read on their own', () => {
  it('cuts the words a message trails off with', () => {
    expect(selfContained('went to Disneyland a')).toBe('went to Disneyland')
    expect(selfContained('graduated, and')).toBe('graduated')
    expect(selfContained('drank the whole bottle haha')).toBe('drank the whole bottle')
    expect(selfContained('worked there since then')).toBe('worked there since then')
  })

  it('leaves out a phrase cut off in the middle', () => {
    for (const cut of [
      'used to go to',
      'used to be',
      'moved at the end of',
      'studied in college and have experience with',
    ])
      expect(selfContained(cut), cut).toBeUndefined()
  })

  it('leaves out what says nothing without the sentence around it', () => {
    for (const bare of ['hated it', 'did it', 'invented them', 'celebrated me', 'jumped on it', 'met him there'])
      expect(selfContained(bare), bare).toBeUndefined()
  })

  it('keeps whole phrases, stranded prepositions, particles and short life events', () => {
    const whole = [
      'bought the car I was looking at',
      'have finally moved in',
      'retired',
      'got married',
      'grew up listening to her',
      'won a raffle',
      'moved to Porto',
    ]
    for (const phrase of whole) expect(selfContained(phrase), phrase).toBe(phrase)
  })

  it('applies through the extractor', () => {
    expect(events('Last year I visited Seville a')).toEqual(['visited Seville'])
    expect(events('Last year I hated it.')).toEqual([])
    expect(events('I used to go to')).toEqual([])
  })
})

describe('events told with common verbs', () => {
  it('keeps an event a light verb tells with words of its own', () => {
    expect(events('I went to a pottery class on Thursday evening')).toEqual(['went to a pottery class'])
    expect(events('we made a quilt for my sister')).toEqual(['made a quilt for their sister'])
    expect(events('I got a gold medal in swimming')).toEqual(['got a gold medal in swimming'])
  })

  it('leaves out what a light verb says of nothing, and opinions', () => {
    for (const said of ['I went there', 'I got it', 'I found it hard at first', 'I saw him', 'I thought about pottery'])
      expect(events(said), said).toEqual([])
  })
})

describe('interest values as phrases', () => {
  it('cuts loose grammar words and keeps a title’s article', () => {
    expect(interestPhrase('is soup')).toBe('soup')
    expect(interestPhrase('and chips')).toBe('chips')
    expect(interestPhrase('rock music the')).toBe('rock music')
    expect(interestPhrase('The Who')).toBe('The Who')
    expect(interestPhrase('no pork')).toBe('no pork')
  })

  it('leaves out fragments', () => {
    for (const cut of ['of my favorites', 'thrill of', 'growing them', 'is not good', 'so pretty', 'listening to'])
      expect(interestPhrase(cut), cut).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import {
  Bm25,
  bm25Turns,
  conversationJson,
  CoverageCounter,
  covered,
  durationMs,
  fillBudget,
  LONG_GAP_MS,
  longHistories,
  newestTurns,
  personaFacts,
  questionOf,
  sentences,
  sessionsOf,
  speakerTurns,
  textWords,
  topicOf,
  type MscRecord,
} from '../../eval/memory.js'
import { tokenCounter } from '../../src/ai/profile-context.js'
import { tokens } from '../../src/domain/normalise.js'

/** Words as tokens: a budget counts one per word, so the expected cuts are plain to see. */
const words = (t: string) => t.split(/\s+/).filter(Boolean).length

describe('eval memory: BM25', () => {
  const docs = [
    'I have a dog and a cat',
    'my dog likes long walks in the park',
    'I work at a bakery',
    'the bakery sells bread',
  ]

  it('scores with the standard formula (k1 = 1.2, b = 0.75, idf ln(1 + (N - n + 0.5) / (n + 0.5)))', () => {
    const bm = new Bm25(docs)
    // "bakery": in 2 of 4 documents; doc 2 ("work", "bakeri") has 2 content tokens, the mean is 11 / 4
    const idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5))
    expect(bm.idf('bakeri')).toBeCloseTo(idf, 12)
    const lengths = [2, 5, 2, 3] // dog cat | dog like long walk park | work bakeri | bakeri sell bread
    const avgdl = lengths.reduce((a, b) => a + b) / 4
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 2) / avgdl))
    const s = bm.scores('bakery')
    expect(s[2]).toBeCloseTo(expected, 12)
    expect(s[0]).toBe(0)
    expect(s[1]).toBe(0)
    // the shorter document scores higher for the same term frequency
    expect(s[2]!).toBeGreaterThan(s[3]!)
  })

  it('a rarer word weighs more; term frequency saturates; query words count once', () => {
    const bm = new Bm25(['dog dog dog dog', 'dog', 'cat', 'fish'])
    const [four, one] = bm.scores('dog')
    expect(four!).toBeGreaterThan(one!)
    expect(four!).toBeLessThan(one! * 2.2) // bounded by (k1 + 1) times
    expect(bm.scores('dog dogs')).toEqual(bm.scores('dog'))
    const b2 = new Bm25(['dog cat', 'dog fish', 'dog bird'])
    expect(b2.idf('cat')).toBeGreaterThan(b2.idf('dog'))
    expect(b2.idf('dog')).toBeGreaterThan(0)
  })

  it('ranks best first, ties to the newer turn; fills the budget in that order', () => {
    const bm = new Bm25(docs)
    expect(bm.rank('dog walks')).toEqual([1, 0, 3, 2])
    // no query word anywhere: recency order
    expect(bm.rank('submarine')).toEqual([3, 2, 1, 0])
    const r = bm25Turns(bm, docs, 'bakery bread', 9, words)
    expect(r.text).toBe('the bakery sells bread\nI work at a bakery')
    expect(r.included).toBe(2)
  })
})

describe('eval memory: budgets', () => {
  it('takes texts while the whole fits and stops at the first that does not', () => {
    const r = fillBudget(['one two', 'three four five', 'six', 'seven'], 6, words)
    expect(r).toEqual({ text: 'one two\nthree four five\nsix', tokens: 6, included: 3 })
    expect(fillBudget(['one two three'], 2, words)).toEqual({ text: '', tokens: 0, included: 0 })
    // stops at the first that does not fit, even when a later one would
    expect(fillBudget(['a b', 'c d e f', 'g'], 4, words).text).toBe('a b')
  })

  it('newest turns come newest first', () => {
    expect(newestTurns(['old turn', 'middle turn', 'new turn'], 4, words).text).toBe('new turn\nmiddle turn')
  })

  it('counts with the tokenizer the context uses (o200k_base)', async () => {
    const count = await tokenCounter()
    const r = fillBudget(['I have a dog.', 'I live in Porto.'], 100, count)
    expect(r.tokens).toBe(count('I have a dog.\nI live in Porto.'))
  })
})

describe('eval memory: facts, questions and the coverage rule', () => {
  it('splits persona entries into sentences and drops duplicates and empty ones', () => {
    expect(sentences('I have a dog. I have a lot of spare time!  Really?')).toEqual([
      'I have a dog.',
      'I have a lot of spare time!',
      'Really?',
    ])
    const facts = personaFacts(['I have a dog. I have dogs.', 'I am.'])
    expect(facts.map((f) => f.text)).toEqual(['I have a dog.'])
  })

  it('asks about the topic and scores the rest: the answer words', () => {
    expect(topicOf('My son is in junior high.')).toBe('son')
    expect(topicOf('I like white wine.')).toBe('like')
    expect(topicOf('I have two jobs.')).toBe('jobs')
    expect(topicOf('I have a dog named Charlie.')).toBe('dog')
    const [son] = personaFacts(['My son is in junior high.'])
    expect(son).toMatchObject({ query: 'son', words: ['son', 'junior', 'high'], answer: ['junior', 'high'] })
    // nothing left to answer once the topic is out: no question for this fact
    const [cat] = personaFacts(['I own a cat.'])
    expect(cat).toMatchObject({ words: ['cat'], query: null, answer: [] })
  })

  it('holds a fact when at least half of its words are in the text, after stemming and stop words', () => {
    const ctx = textWords('- pets: dogs\n- Works as nurse')
    expect(covered(['dog', 'name', 'charli'], ctx)).toBe(false) // 1 of 3
    expect(covered(['dog', 'charli'], ctx)).toBe(true) // 1 of 2
    expect(covered(['nurs'], ctx)).toBe(true)
    expect(covered([], ctx)).toBe(false)
    expect(textWords('The Dogs were walking')).toEqual(new Set(['dog', 'walk']))
  })

  it('counts shares and mean tokens', () => {
    const c = new CoverageCounter()
    c.add(true)
    c.add(false)
    c.add(true)
    c.text(100)
    c.text(50)
    expect(c.result()).toEqual({ facts: 3, held: 2, share: 2 / 3, meanTokens: 75 })
    expect(new CoverageCounter().result()).toEqual({ facts: 0, held: 0, share: null, meanTokens: null })
  })
})

describe('eval memory: sessions and their times', () => {
  const record: MscRecord = {
    previous_dialogs: [
      { dialog: [{ text: 'Hi, I have a dog.' }, { text: 'Nice, I have a cat.' }], time_num: 6, time_unit: 'days' },
      {
        dialog: [{ text: 'How is the dog?' }, { text: 'Sick, sadly.' }, { text: 'Oh no.' }],
        time_num: 3,
        time_unit: 'hours',
      },
    ],
    dialog: [
      { text: 'Is your dog better?', id: '50352' },
      { text: 'Yes, thanks!', id: 'Speaker 2' },
    ],
    personas: [['I have a cat.'], ['I have a dog.']],
    metadata: { initial_data_id: 'valid_x' },
  }

  it('dates each session back from the reference: the last at it, each earlier one its gap before the next', () => {
    const s = sessionsOf(record, new Date('2024-03-01T12:00:00Z'))
    expect(s.map((x) => x.at)).toEqual([
      '2024-02-24T09:00:00.000Z',
      '2024-03-01T09:00:00.000Z',
      '2024-03-01T12:00:00.000Z',
    ])
    expect(durationMs(1, 'day')).toBe(86_400_000)
    expect(() => durationMs(2, 'fortnights')).toThrow(/unknown session gap/)
  })

  it('speakers alternate from Speaker 1; a numeric id in the current session goes by position', () => {
    const s = sessionsOf(record, new Date('2024-03-01T12:00:00Z'))
    expect(speakerTurns(s, 0)).toEqual(['Hi, I have a dog.', 'How is the dog?', 'Oh no.', 'Is your dog better?'])
    expect(speakerTurns(s, 1)).toEqual(['Nice, I have a cat.', 'Sick, sadly.', 'Yes, thanks!'])
    expect(JSON.parse(conversationJson(s[0]!, 1))).toEqual([
      { role: 'assistant', content: 'Hi, I have a dog.' },
      { role: 'user', content: 'Nice, I have a cat.' },
    ])
  })
})

describe('eval memory: long histories', () => {
  const conv = (id: string, a: string, b: string, gapDays: number): MscRecord => ({
    previous_dialogs: [{ dialog: [{ text: `${a} one` }, { text: `${b} one` }], time_num: gapDays, time_unit: 'days' }],
    dialog: [
      { text: `${a} two`, id: 'Speaker 1' },
      { text: `${b} two`, id: 'Speaker 2' },
    ],
    personas: [[`I am ${a}.`], [`I am ${b}.`]],
    metadata: { initial_data_id: id },
  })
  const records = [
    conv('c0', 'ann', 'bob', 2),
    conv('c1', 'cat', 'dan', 3),
    conv('c2', 'eve', 'fay', 4),
    conv('c3', 'gus', 'hal', 5),
    conv('c4', 'ivy', 'joe', 6),
  ]
  const reference = new Date('2024-03-01T12:00:00Z')

  it('tells k speakers of different conversations as one person, one conversation after another in time', () => {
    const people = longHistories(records, 2, reference)
    // 5 conversations in groups of 2: two full groups a speaker, the fifth left out
    expect(people.map((p) => p.profileId)).toEqual(['memlong:2:1:0', 'memlong:2:1:1', 'memlong:2:2:0', 'memlong:2:2:1'])
    const [first, , third] = people
    expect(first!.turns).toEqual(['ann one', 'ann two', 'cat one', 'cat two'])
    expect(third!.turns).toEqual(['bob one', 'bob two', 'dan one', 'dan two'])
    expect(first!.sessions.every((s) => s.speaker === 0)).toBe(true)
    expect(third!.sessions.every((s) => s.speaker === 1)).toBe(true)
    expect(first!.facts.map((f) => f.text)).toEqual(['I am ann.', 'I am cat.'])
    // the last conversation ends at the reference; the one before ends LONG_GAP_MS before the next one's first session
    const at = first!.sessions.map((s) => Date.parse(s.session.at))
    expect(at[3]).toBe(reference.getTime())
    expect(at[2]).toBe(reference.getTime() - 3 * 86_400_000)
    expect(at[1]).toBe(at[2]! - LONG_GAP_MS)
    expect(at[0]).toBe(at[1]! - 2 * 86_400_000)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })

  it('refuses a history of fewer than 2 conversations, and has none when there are fewer conversations than k', () => {
    expect(() => longHistories(records, 1, reference)).toThrow(/at least 2/)
    expect(longHistories(records, 6, reference)).toEqual([])
  })
})

describe('questionOf (--memory-question)', () => {
  it('asks the topic in a question whose other words are not what is asked', () => {
    expect(questionOf('son')).toBe('What did they say about son?')
    // BM25's tokens keep only the topic and "say" (stemmed "sai"): the question's own words are stop words
    expect(tokens(questionOf('son'))).toEqual(['sai', 'son'])
  })
})

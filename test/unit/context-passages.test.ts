import { describe, expect, it } from 'vitest'
import { withDates } from '../../src/ai/relative-dates.js'
import {
  ASKED_WEIGHT,
  composeContext,
  DATED_CHARS_PER_CONTEXT,
  focused,
  onlyAsks,
  passageDatesFor,
  passageLine,
  passageRankText,
  stems,
  tokenCounter,
} from '../../src/ai/profile-context.js'
import { rankPassages } from '../../src/services/cpu/cpu-tasks.js'
import { asksLikes, passageQuery } from '../../src/domain/passages.js'

const SAID = '2023-05-08T13:56:00.000Z' // a Monday

describe('withDates: relative dates resolved against when they were said', () => {
  it.each([
    ['I went to a support group yesterday', 'I went to a support group yesterday (7 May 2023)'],
    ['Last night was fun', 'Last night (7 May 2023) was fun'],
    ['tomorrow is my birthday', 'tomorrow (9 May 2023) is my birthday'],
    ['last year I painted a sunrise', 'last year (2022) I painted a sunrise'],
    ['two years ago I moved', 'two years ago (2021) I moved'],
    ['we are going camping next month', 'we are going camping next month (June 2023)'],
    ['a couple of months ago', 'a couple of months ago (March 2023)'],
    ['I gave a talk last week', 'I gave a talk last week (week of 1 May 2023)'],
    ['three weeks ago', 'three weeks ago (week of 17 April 2023)'],
    ['last Saturday we ran a charity race', 'last Saturday (6 May 2023) we ran a charity race'],
    ['I start next Monday', 'I start next Monday (15 May 2023)'],
    ['last summer I went hiking', 'last summer (summer 2022) I went hiking'],
    ['this spring was wet', 'this spring (spring 2023) was wet'],
  ])('%s', (text, dated) => {
    expect(withDates(text, SAID)).toBe(dated)
  })

  it('leaves alone the day itself, named years, bare months and days, and other senses of the words', () => {
    for (const t of [
      'I saw it today',
      'this morning I ran',
      'In May 2019 we married',
      'I was born on March 3, 1990',
      'We went in June',
      'I met him on May 3',
      'I may go there',
      'this is great',
      'next to the store',
      'last but not least',
      'my last job was bad',
      'the next time we meet',
      'Christmas was great',
      '',
    ]) {
      expect(withDates(t, SAID)).toBe(t)
    }
  })

  it('is as old as when it was said: the same words a year later name another date', () => {
    expect(withDates('yesterday', '2024-01-01T00:30:00Z')).toBe('yesterday (31 December 2023)')
    expect(withDates('last summer', '2023-09-15T00:00:00Z')).toBe('last summer (summer 2023)')
  })

  it('returns the text as it is for a time it cannot read, and does not annotate twice', () => {
    expect(withDates('yesterday', 'not a time')).toBe('yesterday')
    expect(withDates('yesterday (7 May 2023) we met', SAID)).toBe('yesterday (7 May 2023) we met')
  })

  it('answers a passage made of date words at the length limit in bounded time', () => {
    const hostile = 'last week next month 3 days ago yesterday last Saturday next year '.repeat(20).slice(0, 1000)
    const t0 = performance.now()
    const out = withDates(hostile, SAID)
    expect(out.length).toBeGreaterThan(hostile.length)
    // a generous bound for a loaded 2-core machine: measured about 9 ms here
    expect(performance.now() - t0).toBeLessThan(2000)
  })
})

describe('context passages with their dates', () => {
  it('quotes a passage with its relative dates resolved, under the day it was said', async () => {
    const count = await tokenCounter()
    const c = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: 'I went to the support group yesterday.', prompt: null, at: SAID }],
      maxTokens: 200,
      count,
    })
    expect(c.text).toBe('About Ana:\nWhat they said:\n8 May 2023:\nI went to the support group yesterday (7 May 2023).')
    expect(passageLine({ text: 'yesterday', prompt: null, at: SAID })).toBe('yesterday')
    expect(passageLine({ text: 'yesterday', prompt: null, at: SAID }, true)).toBe('yesterday (7 May 2023)')
  })

  it('resolves dates in the first DATED_CHARS_PER_CONTEXT characters of passages, not in later ones', async () => {
    const count = await tokenCounter()
    const long = `Yesterday ${'we talked a lot '.repeat(60)}`.trim() // about 970 characters
    const n = Math.ceil(DATED_CHARS_PER_CONTEXT / long.length) + 3
    const passages = Array.from({ length: n }, (_, i) => ({ text: `${long} ${i}`, prompt: null, at: SAID }))
    const c = composeContext({ header: 'About Ana:', facts: [], passages, maxTokens: 32_000, count })
    expect(c.passagesIncluded).toBe(n)
    const dated = c.text.split('\n').filter((l) => l.startsWith('Yesterday (7 May 2023)')).length
    expect(dated).toBe(Math.floor(DATED_CHARS_PER_CONTEXT / (long.length + 2)))
    expect(c.text.split('\n').filter((l) => l.startsWith('Yesterday we')).length).toBe(n - dated)
  })
})

describe('context passages: dates by day, month or year, ranking text, and the fill', () => {
  it('dates by day when the query asks about time (or there is none), by year otherwise', () => {
    for (const q of [
      'When did she go to the support group?',
      'what year did he move',
      'How long ago was that',
      'plans for summer',
      'in 2022',
      'on Monday',
      undefined,
    ]) {
      expect(passageDatesFor(q), String(q)).toBe('day')
    }
    for (const q of ['What did Caroline research?', 'dog', 'favorite band']) expect(passageDatesFor(q), q).toBe('year')
  })

  it('groups passages under one line a month when asked to, keeping resolved days in the words', async () => {
    const count = await tokenCounter()
    const passages = [
      { text: 'I adopted a dog.', prompt: null, at: '2023-05-02T10:00:00Z' },
      { text: 'We went to the park yesterday.', prompt: null, at: '2023-05-20T10:00:00Z' },
      { text: 'The dog is sick.', prompt: null, at: '2023-06-01T10:00:00Z' },
    ]
    const c = composeContext({
      header: 'About Ana:',
      facts: [],
      passages,
      passageDates: 'month',
      maxTokens: 200,
      count,
    })
    expect(c.text).toBe(
      [
        'About Ana:',
        'What they said:',
        'May 2023:',
        'I adopted a dog.',
        'We went to the park yesterday (19 May 2023).',
        'June 2023:',
        'The dog is sick.',
      ].join('\n'),
    )
    const byDay = composeContext({ header: 'About Ana:', facts: [], passages, maxTokens: 200, count })
    expect(byDay.text).toContain('2 May 2023:\nI adopted a dog.\n20 May 2023:')
    const byYear = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [...passages, { text: 'Rex is fine now.', prompt: null, at: '2024-01-03T10:00:00Z' }],
      passageDates: 'year',
      maxTokens: 200,
      count,
    })
    expect(byYear.text).toBe(
      [
        'About Ana:',
        'What they said:',
        '2023:',
        'I adopted a dog.',
        'We went to the park yesterday (19 May 2023).',
        'The dog is sick.',
        '2024:',
        'Rex is fine now.',
      ].join('\n'),
    )
  })

  it('passes over a passage too long for what is left for shorter ones after it; a fact never gives way', async () => {
    const count = await tokenCounter()
    const at = '2023-05-02T10:00:00Z'
    const long = { text: `My dog ${'runs and jumps and plays '.repeat(20)}`, prompt: null, at }
    const short = { text: 'My dog is Rex.', prompt: null, at }
    const c = composeContext({ header: 'About Ana:', facts: [], passages: [long, short], maxTokens: 40, count })
    expect(c.text).toBe('About Ana:\nWhat they said:\n2 May 2023:\nMy dog is Rex.')
    expect(c).toMatchObject({ passagesIncluded: 1, truncated: true })
    expect(c.tokens).toBeLessThanOrEqual(40)
  })

  it('ranks a passage by what its line quotes: the question too only for a short answer', () => {
    expect(passageRankText({ prompt: 'Do you like jazz?', text: 'Yes, a lot.' })).toBe('Do you like jazz?\nYes, a lot.')
    expect(
      passageRankText({ prompt: 'How was your weekend?', text: 'We went hiking near Porto with my brother.' }),
    ).toBe('We went hiking near Porto with my brother.')
    expect(passageRankText({ prompt: null, text: 'Yes.' })).toBe('Yes.')
  })
})

describe('context passages: a long passage quoted by the sentences that say the query', () => {
  const said =
    'We moved here in the spring and the house still needs work. My son is thirteen now. ' +
    'He just started junior high and he loves it. The garden is full of weeds and the fence is falling apart.'

  it('keeps each sentence saying a word of the query with the sentence after it, the rest marked "…"', () => {
    expect(focused(said, stems('son'), 20)).toBe(
      '… My son is thirteen now. He just started junior high and he loves it. …',
    )
    expect(focused(said, stems('garden'), 20)).toBe('… The garden is full of weeds and the fence is falling apart.')
    expect(focused(said, stems('house garden'), 20)).toBe(
      'We moved here in the spring and the house still needs work. My son is thirteen now. … ' +
        'The garden is full of weeds and the fence is falling apart.',
    )
  })

  it('quotes whole a short passage, a single sentence, and one saying none of the query (found by meaning)', () => {
    expect(focused(said, stems('son'), 60)).toBe(said)
    expect(
      focused(
        'I have a son and he is thirteen and he just started junior high school in the town where we live now',
        stems('son'),
        10,
      ),
    ).toBe('I have a son and he is thirteen and he just started junior high school in the town where we live now')
    expect(focused(said, stems('piano'), 20)).toBe(said)
  })

  it('focuses only a passage long for the budget: at 150 tokens beyond 20 words, at 500 beyond 62', async () => {
    const count = await tokenCounter()
    const at = '2023-05-02T10:00:00Z'
    const small = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: said, prompt: null, at }],
      query: 'son',
      maxTokens: 150,
      count,
    })
    expect(small.text).toContain('… My son is thirteen now. He just started junior high and he loves it. …')
    const large = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: said, prompt: null, at }],
      query: 'son',
      maxTokens: 500,
      count,
    })
    expect(large.text).toContain(`\n${said}`)
  })

  it('quotes a passage too long for what is left of the budget by those sentences, when they fit', async () => {
    const count = await tokenCounter()
    const at = '2023-05-02T10:00:00Z'
    const whole = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: said, prompt: null, at }],
      query: 'son',
      maxTokens: 500,
      count,
    })
    const tight = whole.tokens - 5 // the whole passage no longer fits, its sentences about the son do
    const c = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: said, prompt: null, at }],
      query: 'son',
      maxTokens: tight,
      count,
    })
    expect(c.text).toContain('\n… My son is thirteen now. He just started junior high and he loves it. …')
    expect(c.passagesIncluded).toBe(1)
    expect(c.tokens).toBeLessThanOrEqual(tight)
    // Without a query nothing says which sentences matter: the passage is passed over.
    const none = composeContext({
      header: 'About Ana:',
      facts: [],
      passages: [{ text: said, prompt: null, at }],
      maxTokens: tight,
      count,
    })
    expect(none.passagesIncluded).toBe(0)
  })
})

describe('context passages: the budget is filled', () => {
  it('counts each line with its newline, which punctuation at its end takes into its last token', async () => {
    const count = await tokenCounter()
    const passages = Array.from({ length: 400 }, (_, i) => ({
      text: `I fed the ducks at pond ${i + 1}.`,
      prompt: null,
      at: '2023-05-02T10:00:00Z',
    }))
    for (const maxTokens of [150, 500, 2000]) {
      const c = composeContext({ header: 'About Ana:', facts: [], passages, query: 'ducks', maxTokens, count })
      const line = count('I fed the ducks at pond 100.\n')
      expect(c.tokens).toBeLessThanOrEqual(maxTokens)
      // Less than one more passage left unused (counting "\n" before each line as a token of its own left about one
      // token a line: 50 of 500 here).
      expect(maxTokens - c.tokens).toBeLessThan(line)
      expect(c.tokens).toBe(count(c.text))
    }
  })
})

describe('context passages: one that only asks about the query ranks lower', () => {
  it('tells asking from saying, sentence by sentence', () => {
    const dog = stems('dog')
    expect(onlyAsks('How are the dogs and cat? I hope they have been behaving.', dog)).toBe(true)
    expect(onlyAsks('Do you have a dog? I have a dog named Charlie.', dog)).toBe(false)
    expect(onlyAsks('We have four dogs and two cats.', dog)).toBe(false)
    expect(onlyAsks('How are you?', dog)).toBe(false)
  })

  it('halves the BM25 score of such a passage (ASKED_WEIGHT), so what the person says of it comes first', () => {
    const texts = ['How is your dog doing these days?', 'My dog Charlie loves car rides.']
    const plain = rankPassages({ query: 'dog', texts, total: 2 })
    const weighed = rankPassages({ query: 'dog', texts, said: texts, total: 2 })
    expect(weighed[0]).toBeCloseTo(plain[0]! * ASKED_WEIGHT)
    expect(weighed[1]).toBe(plain[1])
    expect(weighed[1]!).toBeGreaterThan(weighed[0]!)
  })
})

describe('passageQuery: what passages are looked up and ranked by', () => {
  it('drops the words that ask about speech when others remain, and keeps a query of nothing else as it is', () => {
    expect(passageQuery('What did they say about son?')).toBe('What did they about son?')
    expect(passageQuery('What did Caroline tell you about the adoption agencies?')).toBe(
      'What did Caroline you about the adoption agencies?',
    )
    expect(passageQuery('Has he mentioned his job? Talked about work?')).toBe('Has he his job? about work?')
    expect(passageQuery('What did they say?')).toBe('What did they say?')
    expect(passageQuery('said')).toBe('said')
    expect(passageQuery('ski trip')).toBe('ski trip')
    // Only whole words: "sayings", "toldo" and "Talkeetna" are topics.
    expect(passageQuery('sayings of Talkeetna toldo')).toBe('sayings of Talkeetna toldo')
  })

  it("drops the person's names (profile name, their turns' label) and possessives when other words remain", () => {
    expect(passageQuery('What did Caroline research?', ['Caroline'])).toBe('What did research?')
    expect(passageQuery("What is Caroline's favourite book?", [null, 'caroline'])).toBe('What is favourite book?')
    expect(passageQuery('What is Caroline\u2019s job?', ['Caroline'])).toBe('What is job?')
    // Every word of a full name, whichever the query uses; with the speech words.
    expect(passageQuery('What did Ms Moreau tell Melanie about Lisbon?', ['Caroline Moreau', 'Caroline'])).toBe(
      'What did Ms Melanie about Lisbon?',
    )
    // Only whole words, and only the person's: the partner's name and "Carolina" stay.
    expect(passageQuery('Did Melanie visit Carolina?', ['Caroline'])).toBe('Did Melanie visit Carolina?')
    // A query of nothing but the name (and speech) stays as it is; no name, an empty one, or one-letter words drop
    // nothing.
    expect(passageQuery('Caroline?', ['Caroline'])).toBe('Caroline?')
    expect(passageQuery('What did Caroline say?', ['Caroline'])).toBe('What did Caroline say?')
    expect(passageQuery('What did J think of Oslo?', ['J', '', null, undefined])).toBe('What did J think of Oslo?')
  })

  it('takes one pass over a long hostile query (every word a speech word, then one word of 100,000 letters)', () => {
    const q = 'say '.repeat(50_000) + 'x'.repeat(100_000)
    expect(passageQuery(q)).toBe('x'.repeat(100_000))
    // And with a name of 100,000 letters among the names.
    expect(passageQuery(`${q} Ann`, ['y'.repeat(100_000), 'Ann'])).toBe('x'.repeat(100_000))
  })
})

describe('asksLikes: a query that asks only what the person likes', () => {
  it('is true when every content word (after passageQuery) is like, love or enjoy in any form', () => {
    for (const q of [
      'What did they say about like?',
      'What does she like?',
      'What do they love?',
      'What did he enjoy?',
      'likes',
      'What does Caroline like?',
    ]) {
      expect(asksLikes(passageQuery(q, ['Caroline'])), q).toBe(true)
    }
    // A topic beside the liking word, no liking word, "favourite" and "prefer" (the passages answer those), nothing.
    for (const q of [
      'Do they like hiking?',
      'What is her favourite colour?',
      'What did they say about favorite?',
      'What does he prefer?',
      'What did they say about work?',
      'What did they say?',
      '',
      '?',
    ]) {
      expect(asksLikes(passageQuery(q, ['Caroline'])), q).toBe(false)
    }
    // A name that is not the person's is a topic ("What does Melanie like?" asks about Melanie).
    expect(asksLikes(passageQuery('What does Melanie like?', ['Caroline']))).toBe(false)
  })

  it('takes one pass over a long hostile query', () => {
    expect(asksLikes('like '.repeat(100_000))).toBe(true)
    expect(asksLikes('like '.repeat(100_000) + 'x')).toBe(false)
  })
})

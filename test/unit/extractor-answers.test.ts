// Answers to the other speaker's questions: a short reply read with the question it answers ("what do you do?"
// "nurse"), by the field rules only and below what the person says outright (docs/architecture/local-extractor.md).
import { describe, expect, it } from 'vitest'
import { parseConversation } from '../../src/ai/conversation.js'
import { answersOf, answerTo, MAX_TURN_CHARS } from '../../src/ai/local/answers.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { chat } from '../support/submit.js'

const extractor = new LocalExtractor({ now: () => new Date('2024-06-15T12:00:00Z') })
const x = (...pairs: [string, string][]) => extractor.extractOne({ inputType: 'conversation', data: chat(pairs) })

describe('the statement an answer makes', () => {
  it('reads a bare answer with the question it answers', () => {
    const cases: [string, string, string][] = [
      ['Nice to meet you! What do you do for work?', 'Nurse. Mostly nights.', 'i am a nurse'],
      ['what do you do for a living?', 'actor . i adopted a dog last year .', 'i am an actor'],
      ['Where are you based?', 'Leeds, you?', 'i live in leeds'],
      ['where are you from?', 'hey ! arizona . you ?', 'i live in arizona'],
      ['What is your favorite movie?', 'hmm, probably Alien. you?', 'my favorite movie is alien'],
      [
        'i like coffee, what is your favorite dish?',
        'ice cream . chocolate ice cream .',
        'my favorite dish is ice cream',
      ],
      ['what type of music do you like?', 'metal . mainly metallica .', 'i like metal music'],
      ['what kind of dog do you have?', 'a shiba . his name is gabriel .', 'i have a shiba dog'],
      ['what do you do for fun?', 'hiking, reading', 'i like hiking and reading'],
      ['how old are you?', '19 , you ?', 'i am 19 years old'],
      ["what's your name?", 'sam', 'my name is sam'],
      ['do you have any pets?', 'two cats', 'i have two cats'],
      // what it is not is left out
      ['what is your favorite food?', 'mine is pizza , not soda though', 'my favorite food is pizza'],
    ]
    for (const [question, reply, statement] of cases) expect(answerTo(question, reply), reply).toBe(statement)
  })

  it('reads a yes with what the question asked about', () => {
    expect(answerTo('Do you like hiking?', 'yes! every weekend')).toBe('i like hiking')
    expect(answerTo('do you like to travel?', 'i do , but mostly i surf the internet')).toBe('i like to travel')
    expect(answerTo('do you play chess?', 'yep, every day')).toBe('i play chess')
    expect(answerTo('do you have a dog?', 'i sure do')).toBe('i have a dog')
    expect(answerTo('are you a student?', 'yes , majoring in economics')).toBe('i am a student')
  })

  it('reads nothing from a no, a question asked back, a sentence or a greeting alone', () => {
    const none: [string, string][] = [
      ['hi . i am amanda . what is your name ?', 'hi amanda , i want to take over the world .'],
      ['do you like sushi?', 'i do not, sorry'],
      ['do you like sushi?', "no, i don't"],
      ['do you play chess?', 'i do not . do you ?'],
      ['what do you do for fun?', 'oh cool . pole dancing ? i am only 4'],
      ['what do you do for work?', 'nothing much these days'],
      ['where do you live?', 'congratulations ! i am still at home with my parents'],
      ['what is your favorite food?', 'i love pizza but my wife hates it'],
      ['what is your favorite food?', 'lol'],
      ['what do you do for fun?', 'all kinds of things'],
      ['how old are you?', 'old enough'],
    ]
    for (const [question, reply] of none) expect(answerTo(question, reply), reply).toBeUndefined()
  })

  it('takes no yes to a question about the conversation, a choice or a pronoun', () => {
    for (const question of [
      'Do you like the idea?',
      'Do you like this version?',
      'do you like dogs or cats?',
      'do you like it?',
      'do you like to do that?',
      'do you like her?',
      'what do you like?',
    ])
      expect(answerTo(question, 'yes!'), question).toBeUndefined()
  })

  it('answers two questions asked at once, part by part, when the reply gives as many parts', () => {
    expect(answerTo('How old are you, and where do you live?', '34, Leeds')).toBe('i am 34 years old. i live in leeds')
    expect(answerTo("What's your name and what do you do?", 'Sam, nurse')).toBe('my name is sam. i am a nurse')
    // a part that answers nothing gives no pairs; a reply of one part answers the last question, as before
    expect(answerTo('what do you do for fun, and how often?', 'hiking, every weekend')).toBeUndefined()
    expect(answerTo('How old are you, and where do you live?', 'Leeds')).toBe('i live in leeds')
    const both = x(['How old are you, and where do you live?', '34, Leeds'])
    expect(both.core_info).toMatchObject({ age: { value: 34 }, location: { value: 'Leeds' } })
    expect(answerTo('What do you do for work?', 'accountant, for now anyway')).toBe('i am an accountant')
  })

  it('reads a diet, an allergy, languages and a music taste given as answers, below what is said outright', () => {
    expect(answerTo('Any dietary restrictions I should know about?', 'gluten free and no dairy')).toBe(
      'i am gluten free. i do not eat dairy',
    )
    expect(answerTo('Any allergies?', 'shellfish')).toBe('i am allergic to shellfish')
    expect(answerTo('Any allergies?', 'nope')).toBeUndefined()
    expect(answerTo('What languages do you speak?', 'english and portuguese')).toBe('i speak english and portuguese')
    expect(answerTo('What kind of music are you into?', 'mostly indie rock and some jazz')).toBe(
      'i like indie rock and some jazz music',
    )
    const allergy = x(['Any allergies?', 'shellfish']).memories
    expect(allergy).toEqual([expect.objectContaining({ event: 'is allergic to shellfish', confidence: 0.68 })])
    const diet = x(['Any dietary restrictions?', 'gluten free and no dairy']).interests?.food?.map((v) => v.value)
    expect(diet).toEqual(['gluten free', 'no dairy'])
  })

  it('answers only the last question of the turn before', () => {
    expect(answerTo('Where are you from? And what do you do for work?', 'teacher')).toBe('i am a teacher')
    expect(answerTo('I love hiking.', 'yes')).toBeUndefined()
  })
})

describe('answers in a conversation', () => {
  it('pairs each reply with the question right before it, skipping instructions', () => {
    const conversation = parseConversation(
      JSON.stringify([
        { role: 'system', content: 'Ask the user about their job. What do you do?' },
        { role: 'user', content: 'teacher' },
        { role: 'assistant', content: 'Do you like hiking?' },
        { role: 'user', content: 'Where do you hike?' },
        { role: 'user', content: 'yes' },
        { role: 'assistant', content: 'What do you do for work?' },
        { role: 'user', content: 'Nurse.' },
      ]),
    )
    expect(answersOf(conversation)).toEqual([
      { question: 'what do you do for work?', answer: 'Nurse.', statement: 'i am a nurse' },
    ])
  })

  it('gives the fields below what the person says outright, and traces the question', () => {
    const extraction = x(['What do you do for work?', 'Nurse.'], ['Do you like hiking?', 'yes!'])
    expect(extraction.core_info?.occupation).toEqual({ value: 'nurse', confidence: 0.72 })
    expect(extraction.interests?.hobbies).toEqual([{ value: 'hiking', confidence: 0.68 }])
    expect(extraction.memories).toBeUndefined()
    expect(x(['What do you do for work?', 'I am a nurse.']).core_info?.occupation?.confidence).toBe(0.9)
    const { trace } = extractor.explainOne({
      inputType: 'conversation',
      data: chat([['Where are you based?', 'Leeds']]),
    })
    const location = trace.find((t) => t.field === 'core_info.location')
    expect(location?.hits[0]?.clause).toBe('i live in leeds (answering "where are you based?" with "Leeds")')
  })

  it("never takes the other speaker's facts without the person's yes", () => {
    const extraction = x(['I love hiking. Do you like hiking?', 'no, too tiring'], ['I am a nurse.', 'cool'])
    expect(extraction.interests).toBeUndefined()
    expect(extraction.core_info?.occupation).toBeUndefined()
  })

  it('reads no answer from a text', () => {
    const extraction = extractor.extractOne({ inputType: 'text', data: 'What do you do for work? Nurse.' })
    expect(extraction.core_info?.occupation).toBeUndefined()
  })

  it('stays linear on long turns', () => {
    const hostile: [string, string][] = [
      ['do you like '.repeat(20_000), 'yes '.repeat(20_000)],
      [`${'what is your favorite '.repeat(10_000)}?`, 'a, '.repeat(40_000)],
      [`${'?'.repeat(100_000)}`, `${'.'.repeat(100_000)}x`],
      [`where do you live${' '.repeat(100_000)}?`, `leeds${' ,'.repeat(50_000)}`],
      [`${'how old are you, and '.repeat(5_000)}where?`, '34, '.repeat(20_000)],
    ]
    for (const [asked, said] of hostile) {
      const started = performance.now()
      x([asked, said])
      answerTo(asked, said)
      // generous: a quadratic scan of these inputs takes minutes
      expect(performance.now() - started).toBeLessThan(10_000)
    }
    expect(answerTo(`${'x'.repeat(MAX_TURN_CHARS)} what do you do?`, 'nurse')).toBe('i am a nurse')
  })
})

import { describe, expect, it } from 'vitest'
import { DomainError } from '../../src/domain/errors.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState } from '../../src/domain/profile.js'
import { parseStructured, StructuredInputError, validateStructured } from '../../src/domain/structured.js'

const parse = (v: unknown) => parseStructured(JSON.stringify(v))

function errorOf(data: string): StructuredInputError {
  try {
    parseStructured(data)
  } catch (err) {
    if (err instanceof StructuredInputError) return err
    throw err
  }
  throw new Error('expected a StructuredInputError')
}
const errorFor = (v: unknown) => errorOf(JSON.stringify(v))

describe('parseStructured: the document', () => {
  it.each([
    ['invalid JSON', '{"core_info": ', /^data is not valid JSON/],
    ['an array', '[1,2]', /^data must be a JSON object \(got an array\)$/],
    ['a string', '"hello"', /^data must be a JSON object \(got a string\)$/],
    ['a number', '42', /^data must be a JSON object \(got a number\)$/],
    ['null', 'null', /^data must be a JSON object \(got null\)$/],
    ['a boolean', 'true', /^data must be a JSON object/],
    ['plain prose', 'I like jazz', /^data is not valid JSON/],
  ])('rejects %s', (_name, data, message) => {
    const err = errorOf(data)
    expect(err.message).toMatch(message)
    expect(err.field).toBeUndefined()
  })

  it('is a VALIDATION_FAILED domain error (400)', () => {
    const err = errorOf('[]')
    expect(err).toBeInstanceOf(DomainError)
    expect(err.code).toBe('VALIDATION_FAILED')
    expect(err.status).toBe(400)
    expect(err.name).toBe('StructuredInputError')
  })

  it('accepts an empty object and ignores unknown keys', () => {
    expect(parse({})).toEqual({})
    expect(parse({ profile_id: 'x', summary: 's', status: 'ready', whatever: [1] })).toEqual({})
  })

  it('treats null for a known key as not given', () => {
    expect(parse({ core_info: null, interests: { music: null }, language: null })).toEqual({ interests: {} })
    expect(parse({ core_info: { name: null, age: null } })).toEqual({ core_info: {} })
  })
})

describe('parseStructured: core_info', () => {
  it('gives bare values confidence 1.0', () => {
    expect(
      parse({ core_info: { name: 'Ann', age: 34, gender: 'female', location: 'Paris', occupation: 'nurse' } }),
    ).toEqual({
      core_info: {
        name: { value: 'Ann', confidence: 1 },
        age: { value: 34, confidence: 1 },
        gender: { value: 'female', confidence: 1 },
        location: { value: 'Paris', confidence: 1 },
        occupation: { value: 'nurse', confidence: 1 },
      },
    })
  })

  it('takes {value, confidence} as given, and {value} as confidence 1.0', () => {
    expect(parse({ core_info: { name: { value: 'Ann', confidence: 0.4 }, age: { value: 34 } } })).toEqual({
      core_info: { name: { value: 'Ann', confidence: 0.4 }, age: { value: 34, confidence: 1 } },
    })
  })

  it('accepts 34.0 as an integer age', () => {
    expect(parseStructured('{"core_info":{"age":34.0}}').core_info?.age?.value).toBe(34)
  })

  it.each([
    [{ core_info: { age: 'thirty' } }, 'core_info.age', 'core_info.age must be an integer (got a string)'],
    [{ core_info: { age: 34.5 } }, 'core_info.age', 'core_info.age must be an integer (got a number)'],
    [{ core_info: { age: -1 } }, 'core_info.age', 'core_info.age must be an integer between 0 and 150'],
    [{ core_info: { age: 200 } }, 'core_info.age', 'core_info.age must be an integer between 0 and 150'],
    [
      { core_info: { age: { value: '34' } } },
      'core_info.age.value',
      'core_info.age.value must be an integer (got a string)',
    ],
    [
      { core_info: { name: 42 } },
      'core_info.name',
      'core_info.name must be a string or an object {value, confidence} (got a number)',
    ],
    [
      { core_info: { name: ['Ann'] } },
      'core_info.name',
      'core_info.name must be a string or an object {value, confidence} (got an array)',
    ],
    [
      { core_info: { location: { value: 3 } } },
      'core_info.location.value',
      'core_info.location.value must be a string (got a number)',
    ],
    [
      { core_info: { gender: { value: 'f', confidence: 2 } } },
      'core_info.gender.confidence',
      'core_info.gender.confidence must be a number between 0 and 1',
    ],
    [
      { core_info: { occupation: { value: 'x', confidence: '0.5' } } },
      'core_info.occupation.confidence',
      'core_info.occupation.confidence must be a number between 0 and 1',
    ],
    [
      { core_info: { age: { value: 3, confidence: -0.1 } } },
      'core_info.age.confidence',
      'core_info.age.confidence must be a number between 0 and 1',
    ],
    [{ core_info: 'Ann' }, 'core_info', 'core_info must be an object (got a string)'],
    [{ core_info: [] }, 'core_info', 'core_info must be an object (got an array)'],
  ])('rejects %j naming %s', (doc, field, message) => {
    const err = errorFor(doc)
    expect(err.field).toBe(field)
    expect(err.message).toBe(message)
    expect(validateStructured(JSON.stringify(doc))).toBe(message)
  })
})

describe('parseStructured: interests, personality, preferences, language', () => {
  it('reads interests as category -> bare strings or {value, confidence}, keeping category names for the merge', () => {
    expect(parse({ interests: { Music: ['jazz', { value: 'rock', confidence: 0.3 }], books: [] } })).toEqual({
      interests: {
        Music: [
          { value: 'jazz', confidence: 1 },
          { value: 'rock', confidence: 0.3 },
        ],
        books: [],
      },
    })
  })

  it('keeps a category named "__proto__" as a plain own key', () => {
    const ex = parseStructured('{"interests":{"__proto__":["x"]}}')
    expect(Object.getPrototypeOf(ex.interests)).toBe(Object.prototype)
    expect(Object.keys(ex.interests ?? {})).toEqual(['__proto__'])
  })

  it.each([
    [{ interests: ['jazz'] }, 'interests', 'interests must be an object (got an array)'],
    [{ interests: { music: 'jazz' } }, 'interests.music', 'interests.music must be an array (got a string)'],
    [
      { interests: { music: ['jazz', 7] } },
      'interests.music[1]',
      'interests.music[1] must be a string or an object {value, confidence} (got a number)',
    ],
    [
      { interests: { music: [{ value: 'x', confidence: true }] } },
      'interests.music[0].confidence',
      'interests.music[0].confidence must be a number between 0 and 1',
    ],
    [{ personality: [] }, 'personality', 'personality must be an object (got an array)'],
    [{ personality: { traits: 'kind' } }, 'personality.traits', 'personality.traits must be an array (got a string)'],
    [
      { personality: { mood_trends: 'happy' } },
      'personality.mood_trends',
      'personality.mood_trends must be an object (got a string)',
    ],
    [
      { personality: { mood_trends: { recent: 1 } } },
      'personality.mood_trends.recent',
      'personality.mood_trends.recent must be a string or an object {value, confidence} (got a number)',
    ],
    [
      { preferences: { conversation_style: true } },
      'preferences.conversation_style',
      'preferences.conversation_style must be a string or an object {value, confidence} (got a boolean)',
    ],
    [
      { preferences: { topics_to_avoid: 'politics' } },
      'preferences.topics_to_avoid',
      'preferences.topics_to_avoid must be an array (got a string)',
    ],
    [{ language: 'English' }, 'language', 'language must be an ISO 639-1 language code such as "en"'],
    [{ language: 5 }, 'language', 'language must be an ISO 639-1 language code such as "en"'],
  ])('rejects %j naming %s', (doc, field, message) => {
    const err = errorFor(doc)
    expect(err.field).toBe(field)
    expect(err.message).toBe(message)
  })

  it('reads traits and takes mood_trends.recent as the mood', () => {
    expect(
      parse({
        personality: {
          traits: ['kind', { value: 'shy', confidence: 0.5 }],
          mood_trends: { recent: 'happy', default: 'calm' },
        },
      }),
    ).toEqual({
      personality: {
        traits: [
          { value: 'kind', confidence: 1 },
          { value: 'shy', confidence: 0.5 },
        ],
        mood: { value: 'happy', confidence: 1 },
      },
    })
  })

  it('falls back to mood_trends.default when recent is absent', () => {
    expect(parse({ personality: { mood_trends: { default: { value: 'calm', confidence: 0.7 } } } })).toEqual({
      personality: { mood: { value: 'calm', confidence: 0.7 } },
    })
  })

  it('reads preferences', () => {
    expect(parse({ preferences: { conversation_style: 'casual', topics_to_avoid: ['politics'] } })).toEqual({
      preferences: {
        conversation_style: { value: 'casual', confidence: 1 },
        topics_to_avoid: [{ value: 'politics', confidence: 1 }],
      },
    })
  })

  it('reads a language code, lower-cased, region dropped', () => {
    expect(parse({ language: 'FR' })).toEqual({ language: 'fr' })
    expect(parse({ language: 'en-GB' })).toEqual({ language: 'en' })
  })
})

describe('parseStructured: memories', () => {
  it('reads full memories, and bare strings as events, with confidence 1.0 by default', () => {
    expect(
      parse({
        memories: [
          { event: 'Moved to Paris', date: '2021-05-01', importance: 'High', confidence: 0.8 },
          { event: 'Got a dog' },
          'Learned to swim',
        ],
      }),
    ).toEqual({
      memories: [
        { event: 'Moved to Paris', date: '2021-05-01', importance: 'high', confidence: 0.8 },
        { event: 'Got a dog', confidence: 1 },
        { event: 'Learned to swim', confidence: 1 },
      ],
    })
  })

  it.each([
    [{ memories: { event: 'x' } }, 'memories', 'memories must be an array (got an object)'],
    [{ memories: [3] }, 'memories[0]', 'memories[0] must be an object (got a number)'],
    [{ memories: [{ date: '2020-01-01' }] }, 'memories[0].event', 'memories[0].event is required'],
    [{ memories: [{ event: 5 }] }, 'memories[0].event', 'memories[0].event must be a string (got a number)'],
    [
      { memories: [{ event: 'x' }, { event: 'y', date: '2020-02-30' }] },
      'memories[1].date',
      'memories[1].date must be a date (YYYY-MM-DD)',
    ],
    [
      { memories: [{ event: 'x', date: 'last year' }] },
      'memories[0].date',
      'memories[0].date must be a date (YYYY-MM-DD)',
    ],
    [
      { memories: [{ event: 'x', importance: 'huge' }] },
      'memories[0].importance',
      'memories[0].importance must be one of low, medium, high',
    ],
    [
      { memories: [{ event: 'x', confidence: 5 }] },
      'memories[0].confidence',
      'memories[0].confidence must be a number between 0 and 1',
    ],
  ])('rejects %j naming %s', (doc, field, message) => {
    const err = errorFor(doc)
    expect(err.field).toBe(field)
    expect(err.message).toBe(message)
  })
})

describe('validateStructured', () => {
  it('returns null for valid data and the message otherwise', () => {
    expect(validateStructured('{"core_info":{"name":"Ann"}}')).toBeNull()
    expect(validateStructured('[]')).toBe('data must be a JSON object (got an array)')
    expect(validateStructured('{"core_info":{"age":"x"}}')).toBe('core_info.age must be an integer (got a string)')
  })
})

describe('structured input through the merge', () => {
  it('round-trips a profile-shaped document into the profile', () => {
    const ex = parse({
      core_info: { name: 'Ann', age: { value: 34, confidence: 0.9 } },
      interests: { 'Movies TV': ['Dune'] },
      personality: { traits: ['curious'], mood_trends: { recent: 'happy' } },
      memories: [{ event: 'Moved', date: '2020-01-01' }],
      preferences: { topics_to_avoid: ['politics'] },
      language: 'en',
    })
    const { state } = merge(emptyState(), [ex], '2024-01-01T00:00:00.000Z')
    expect(state.content.core_info).toEqual({
      name: { value: 'Ann', confidence: 1 },
      age: { value: 34, confidence: 0.9 },
    })
    expect(state.content.interests).toEqual({ movies_tv: [{ value: 'Dune', confidence: 1 }] })
    expect(state.content.personality.mood_trends).toEqual({
      recent: { value: 'happy', confidence: 1 },
      default: { value: 'happy', confidence: 1 },
    })
    expect(state.content.memories).toEqual([{ event: 'Moved', date: '2020-01-01', confidence: 1 }])
    expect(state.language).toBe('en')
  })
})

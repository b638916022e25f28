import { describe, expect, it } from 'vitest'
import { compileSchema, MAX_FILLER, MAX_PHRASE_WORDS, readCustomFields } from '../../src/ai/local/custom-fields.js'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import {
  cleanCustomValues,
  droppedFields,
  parseCustomSchema,
  vocabularyOf,
  type CustomSchema,
} from '../../src/domain/custom-schema.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState } from '../../src/domain/profile.js'

const SCHEMA: CustomSchema = parseCustomSchema({
  sections: {
    diet: {
      restrictions: {
        type: 'string[]',
        description: 'Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
      },
    },
    travel: {
      budget: { type: 'integer', description: 'Trip budget in dollars', min: 0, max: 1000000 },
      preferred_language: { type: 'enum', values: ['English', 'Spanish', 'French'] },
      rating: { type: 'number' },
      newsletter: { type: 'boolean', description: 'Wants the newsletter' },
      allergies: { type: 'string[]' },
    },
  },
})

const read = (text: string, schema = SCHEMA) => readCustomFields(text, compileSchema(schema))

describe('custom schema: validation', () => {
  const bad = (input: unknown) => {
    try {
      parseCustomSchema(input)
    } catch (e) {
      return (e as Error).message
    }
    throw new Error('accepted')
  }
  it('accepts the documented shape and keeps it', () => {
    expect(SCHEMA.sections.travel!.preferred_language!.values).toEqual(['English', 'Spanish', 'French'])
  })
  it('names what is wrong', () => {
    expect(bad([])).toMatch(/JSON object/)
    expect(bad({ sections: { Diet: { a: { type: 'string' } } } })).toMatch(/section name 'Diet' is invalid/)
    expect(bad({ sections: { core_info: { a: { type: 'string' } } } })).toMatch(
      /shadow the standard profile's 'core_info'/,
    )
    expect(bad({ sections: { diet: { a: { type: 'text' } } } })).toMatch(/diet\.a has type "text"; expected one of/)
    expect(bad({ sections: { diet: { a: { type: 'enum' } } } })).toMatch(/enum field diet\.a needs "values"/)
    expect(bad({ sections: { diet: { a: { type: 'integer', min: 5, max: 1 } } } })).toMatch(/min greater than max/)
    expect(bad({ sections: { diet: { a: { type: 'integer', min: 1.5 } } } })).toMatch(/diet\.a\.min must be an integer/)
    expect(bad({ sections: { diet: { a: { type: 'string', description: 'x'.repeat(501) } } } })).toMatch(
      /over 500 characters/,
    )
    expect(bad({ sections: { diet: { a: { type: 'string', extra: 1 } } } })).toMatch(/unknown property 'extra'/)
    expect(bad({ sections: { diet: {} } })).toMatch(/has no fields/)
    expect(bad({ sections: { constructor: { a: { type: 'string' } } } })).toMatch(
      /section name 'constructor' is invalid/,
    )
    expect(bad({ sections: { diet: { constructor: { type: 'string' } } } })).toMatch(
      /field name 'diet\.constructor' is invalid/,
    )
    expect(bad(JSON.parse('{"sections": {"__proto__": {"a": {"type": "string"}}}}'))).toMatch(
      /section name '__proto__' is invalid/,
    )
    expect(bad({ other: 1 })).toMatch(/unknown property 'other'/)
    // Characters PostgreSQL cannot store, in the strings that are stored.
    expect(bad({ sections: { diet: { a: { type: 'string', description: 'a\u0000' } } } })).toMatch(
      /schema field diet\.a\.description: contains a NUL character/,
    )
    expect(bad({ sections: { diet: { a: { type: 'enum', values: ['x', '\ud800y'] } } } })).toMatch(
      /schema field diet\.a\.values\[1\]: contains an unpaired surrogate \(U\+D800\)/,
    )
    expect(bad({ sections: { diet: { a: { type: 'string[]', values: ['y\udfff'] } } } })).toMatch(
      /diet\.a\.values\[0\].*U\+DFFF/,
    )
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`s${i}`, { f: { type: 'string' } }]))
    expect(bad({ sections: many })).toMatch(/21 sections; at most 20/)
    const fields = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: 'string' }]))
    expect(bad({ sections: { a: fields } })).toMatch(/more than 100 fields/)
    expect(
      bad({ sections: { a: { f: { type: 'enum', values: Array.from({ length: 101 }, (_, i) => `v${i}`) } } } }),
    ).toMatch(/101 values; at most 100/)
    expect(
      bad({
        sections: {
          a: { f: { type: 'string', description: 'x'.repeat(400) } },
          b: { g: { type: 'string', description: 'y'.repeat(400) } },
          pad: Object.fromEntries(
            Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: 'string', description: 'z'.repeat(400) }]),
          ),
        },
      }),
    ).toMatch(/bytes; at most 32768/)
  })
  it('lists the fields a new version drops (or retypes)', () => {
    const next = parseCustomSchema({
      sections: { travel: { budget: { type: 'number' }, preferred_language: { type: 'enum', values: ['English'] } } },
    })
    expect(droppedFields(SCHEMA, next).sort()).toEqual([
      'diet.restrictions',
      'travel.allergies',
      'travel.budget',
      'travel.newsletter',
      'travel.rating',
    ])
  })
  it('reads the vocabulary of a description', () => {
    expect(vocabularyOf(SCHEMA.sections.diet!.restrictions!)).toEqual([
      'vegetarian',
      'vegan',
      'gluten-free',
      'halal',
      'kosher',
    ])
    expect(
      vocabularyOf({ type: 'string[]', description: 'Sports the person plays, such as tennis, golf or padel.' }),
    ).toEqual(['tennis', 'golf', 'padel'])
  })
  it('keeps only values that fit the schema', () => {
    const out = cleanCustomValues(SCHEMA, {
      diet: {
        restrictions: [{ value: 'vegan', confidence: 0.9 }, { value: 42 }, { value: '' }, 'halal'],
        unknown: 'x',
      },
      travel: {
        budget: { value: 12.5, confidence: 1 },
        preferred_language: { value: 'spanish', confidence: 2 },
        rating: 'high',
        newsletter: true,
      },
      nope: { a: 1 },
    })
    expect(out).toEqual({
      diet: {
        restrictions: [
          { value: 'vegan', confidence: 0.9 },
          { value: 'halal', confidence: 0.5 },
        ],
      },
      travel: { preferred_language: { value: 'Spanish', confidence: 1 }, newsletter: { value: true, confidence: 0.5 } },
    })
  })
})

describe('custom schema: local reading', () => {
  it('finds vocabulary values, skipping negated ones', () => {
    expect(read("I'm vegetarian and mostly gluten-free. I'm not vegan though.").diet).toEqual({
      restrictions: [
        { value: 'vegetarian', confidence: 0.6 },
        { value: 'gluten-free', confidence: 0.6 },
      ],
    })
    expect(read("I am not vegetarian. I don't eat halal food.")).toEqual({})
  })
  it('reads explicitly stated integers, numbers and booleans', () => {
    expect(read('My budget is $1,500 for the trip.').travel?.budget).toEqual({ value: 1500, confidence: 0.8 })
    expect(read('budget: 2k').travel?.budget?.valueOf()).toEqual({ value: 2000, confidence: 0.8 })
    expect(read('My budget is not 500.')).toEqual({})
    expect(read('My budget is -5.').travel?.budget).toBeUndefined() // below min
    expect(read('Rating: 4.5. Newsletter: yes').travel).toEqual({
      rating: { value: 4.5, confidence: 0.8 },
      newsletter: { value: true, confidence: 0.8 },
    })
  })
  it('takes an enum value only when stated as a preference or next to the field', () => {
    expect(read('I prefer Spanish.').travel?.preferred_language?.valueOf()).toEqual({
      value: 'Spanish',
      confidence: 0.72,
    })
    expect(read('I speak English but prefer Spanish.').travel?.preferred_language).toEqual({
      value: 'Spanish',
      confidence: 0.72,
    })
    expect(read('My preferred language is French.').travel?.preferred_language).toEqual({
      value: 'French',
      confidence: 0.85,
    })
    expect(read('I teach English at a school.')).toEqual({})
  })
  it('reads a free list after a label', () => {
    expect(read('Allergies: peanuts, dust and pollen.').travel?.allergies).toEqual([
      { value: 'peanuts', confidence: 0.75 },
      { value: 'dust', confidence: 0.75 },
      { value: 'pollen', confidence: 0.75 },
    ])
  })
  it('stays linear: a 100 KB text with a 100-field schema visits a bounded number of trie nodes per token', () => {
    // Hostile on purpose: every field's values share their first words with the others' and with the text.
    const sections: Record<string, Record<string, unknown>> = {}
    for (let i = 0; i < 100; i++) {
      const kind = i % 3
      ;(sections[`s${i % 20}`] ??= {})[`field_${i}`] =
        kind === 0
          ? { type: 'integer' }
          : kind === 1
            ? { type: 'enum', values: Array.from({ length: 28 }, (_, k) => `the word ${k} thing ${i}`) }
            : {
                type: 'string[]',
                description: `Things: ${Array.from({ length: 10 }, (_, k) => `the word${k} thing${i}`).join(', ')}`,
              }
    }
    const schema = parseCustomSchema({ sections })
    const compiled = compileSchema(schema)
    const sentence =
      'I like the word1 thing5 and the word2 thing8, my field 3 is 40, ' +
      'field 4 is the word 2 thing 4 and the the the word7 is fine '
    const text = sentence.repeat(Math.ceil(100_000 / sentence.length))
    const stats = { steps: 0, tokens: 0 }
    const out = readCustomFields(text, compiled, stats)
    expect(text.length).toBeGreaterThanOrEqual(100_000)
    expect(out.s5?.field_5).toEqual([{ value: 'the word1 thing5', confidence: 0.6 }])
    expect(out.s3?.field_3).toEqual({ value: 40, confidence: 0.8 })
    expect(out.s4?.field_4).toEqual({ value: 'the word 2 thing 4', confidence: 0.85 })
    expect(stats.steps).toBeLessThanOrEqual((2 + MAX_FILLER + 1) * MAX_PHRASE_WORDS * stats.tokens)
    const stats2 = { steps: 0, tokens: 0 }
    readCustomFields(text + text, compiled, stats2)
    expect(stats2.steps).toBeLessThanOrEqual(2 * stats.steps + 10)
  })
  it('is part of the local extractor when the request carries a schema', async () => {
    const r = await new LocalExtractor().extract({
      profile: emptyState().content,
      submissions: [
        { submissionId: 'a', inputType: 'text', data: "I'm Ana, I'm vegan and my budget is 800." },
        { submissionId: 'b', inputType: 'conversation', data: 'Ana: I prefer French.\nBot: I am vegetarian, noted.' },
      ],
      customSchema: { key: 't:a:1', schema: SCHEMA },
    })
    expect(r.extractions[0]!.custom).toEqual({
      diet: { restrictions: [{ value: 'vegan', confidence: 0.6 }] },
      travel: { budget: { value: 800, confidence: 0.8 } },
    })
    // only the person's turns: the bot's "vegetarian" is not about her
    expect(r.extractions[1]!.custom).toEqual({ travel: { preferred_language: { value: 'French', confidence: 0.72 } } })
  })
})

describe('custom schema: merge', () => {
  it('unions lists, reinforces and replaces scalars, and logs the changes', () => {
    const a = merge(
      emptyState(),
      [
        {
          custom: {
            diet: { restrictions: [{ value: 'vegan', confidence: 0.6 }] },
            travel: { budget: { value: 500, confidence: 0.8 } },
          },
        },
      ],
      '2024-01-01T00:00:00.000Z',
    )
    expect(a.changes.custom).toEqual({
      diet: { restrictions: [{ value: 'vegan', confidence: 0.6 }] },
      travel: { budget: { value: 500, confidence: 0.8 } },
    })
    expect(a.state.field_timestamps['custom.travel.budget']).toBe('2024-01-01T00:00:00.000Z')
    const b = merge(
      a.state,
      [
        {
          custom: {
            diet: {
              restrictions: [
                { value: 'Vegan', confidence: 0.6 },
                { value: 'halal', confidence: 0.6 },
              ],
            },
            travel: { budget: { value: 900, confidence: 0.8 } },
          },
        },
      ],
      '2024-01-02T00:00:00.000Z',
    )
    expect(b.state.content.custom!.diet!.restrictions).toEqual([
      { value: 'Vegan', confidence: 0.84 },
      { value: 'halal', confidence: 0.6 },
    ])
    expect(b.state.content.custom!.travel!.budget).toEqual({ value: 900, confidence: 0.8 })
    expect(b.changes.replaced).toEqual({ 'custom.travel.budget': { value: 500, confidence: 0.8 } })
    const c = merge(
      b.state,
      [{ custom: { travel: { budget: { value: 900, confidence: 0.5 } } } }],
      '2024-01-03T00:00:00.000Z',
    )
    expect(c.state.content.custom!.travel!.budget!).toEqual({ value: 900, confidence: 0.9 })
    // confirmed (seen twice): a less confident different value no longer replaces it
    const d = merge(
      c.state,
      [{ custom: { travel: { budget: { value: 100, confidence: 0.3 } } } }],
      '2024-01-04T00:00:00.000Z',
    )
    expect(d.changed).toBe(false)
    // Names an extractor should never propose are ignored, and nothing reaches Object.prototype.
    const e = merge(
      d.state,
      [
        {
          custom: JSON.parse(
            '{"constructor": {"x": {"value": "a", "confidence": 1}}, ' +
              '"__proto__": {"y": {"value": "b", "confidence": 1}}, ' +
              '"ok": {"constructor": {"value": "c", "confidence": 1}}}',
          ),
        },
      ],
      '2024-01-05T00:00:00.000Z',
    )
    expect(e.changed).toBe(false)
    expect(({} as Record<string, unknown>).y).toBeUndefined()
    expect((Object as unknown as Record<string, unknown>).x).toBeUndefined()
  })
})

import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { isReasoningModel, refusedParam, RefusedParams } from '../../src/ai/openai/request-params.js'
import { outputJsonSchema } from '../../src/ai/openai/output.js'
import { withCustomOutput } from '../../src/ai/openai/custom-output.js'
import {
  customFieldList,
  jsonAnswerInstructions,
  schemaInTypeNotation,
  withoutCustomDetails,
} from '../../src/ai/openai/schema-prompt.js'

// The errors as the SDK builds them from a provider's answer (APIError.generate, the same path as a real 400).
const apiError = (status: number, body: unknown) =>
  OpenAI.APIError.generate(status, body as object, undefined, new Headers())
const openai400 = (message: string, code: string, param: string) =>
  apiError(400, { error: { message, type: 'invalid_request_error', param, code } })

const TEMPERATURE = openai400(
  "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
  'unsupported_value',
  'temperature',
)
const MAX_TOKENS = openai400(
  "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
  'unsupported_parameter',
  'max_tokens',
)

describe('reasoning models by name', () => {
  it('gpt-5*, o1*, o3*, o4-mini*, with or without a provider prefix; not the others', () => {
    for (const m of [
      'gpt-5',
      'gpt-5-mini',
      'gpt-5.1',
      'o1',
      'o1-mini',
      'o3',
      'o3-mini',
      'o4-mini',
      'o4-mini-2025-04-16',
      'openai/gpt-5-mini',
      'azure/o3',
    ]) {
      expect(isReasoningModel(m), m).toBe(true)
    }
    for (const m of [
      'gpt-4o-mini',
      'gpt-4.1',
      'llama3.1',
      'deepseek-chat',
      'openai/gpt-oss-20b',
      'o10-model',
      'my-gpt-5-deployment',
    ]) {
      expect(isReasoningModel(m), m).toBe(false)
    }
  })
})

describe('refusedParam', () => {
  it("reads OpenAI's shape, the same words without the fields, and refusals of dimensions", () => {
    expect(refusedParam(TEMPERATURE)).toBe('temperature')
    expect(refusedParam(MAX_TOKENS)).toBe('max_tokens')
    // A server that copies OpenAI's message but not its fields.
    expect(
      refusedParam(
        apiError(400, { error: { message: "Unsupported parameter: 'temperature' is not supported with this model." } }),
      ),
    ).toBe('temperature')
    expect(
      refusedParam(
        apiError(400, {
          error: {
            message:
              'Model "bge-m3" does not support matryoshka representation, ' +
              'changing output dimensions will lead to poor results.',
          },
        }),
      ),
    ).toBe('dimensions')
    expect(
      refusedParam(apiError(400, { error: { message: 'This model does not support specifying dimensions.' } })),
    ).toBe('dimensions')
  })

  it('is undefined for other 400s, other statuses, and parameters that must never be dropped', () => {
    expect(
      refusedParam(
        apiError(400, {
          error: { message: 'This response_format type is unavailable now', code: 'invalid_request_error' },
        }),
      ),
    ).toBeUndefined()
    expect(
      refusedParam(
        apiError(400, {
          error: {
            message: "Unsupported parameter: 'response_format' is not supported",
            code: 'unsupported_parameter',
            param: 'response_format',
          },
        }),
      ),
    ).toBeUndefined()
    expect(
      refusedParam(
        apiError(401, {
          error: {
            message: "Unsupported parameter: 'temperature'",
            code: 'unsupported_parameter',
            param: 'temperature',
          },
        }),
      ),
    ).toBeUndefined()
    expect(refusedParam(new Error("Unsupported parameter: 'temperature'"))).toBeUndefined()
  })
})

describe('RefusedParams', () => {
  const body = { model: 'm', messages: [], temperature: 0, max_completion_tokens: 100 }

  it('reasoning models get no temperature and no max_tokens from the start', () => {
    const p = new RefusedParams()
    expect(p.shape('gpt-5-mini', body)).toEqual({ model: 'm', messages: [], max_completion_tokens: 100 })
    expect(p.shape('openai/o4-mini', { model: 'm', max_tokens: 50 })).toEqual({ model: 'm', max_completion_tokens: 50 })
    expect(p.shape('gpt-4o-mini', body)).toEqual(body)
  })

  it('learns a refusal once per model, logs it once, and leaves other models alone', () => {
    const logs: [Record<string, unknown>, string][] = []
    const p = new RefusedParams((f, m) => logs.push([f, m]))
    expect(p.learn('my-reasoner', TEMPERATURE, body)).toBe(true)
    expect(p.shape('my-reasoner', body)).toEqual({ model: 'm', messages: [], max_completion_tokens: 100 })
    expect(p.shape('other', body)).toEqual(body)
    // The same refusal again (a request in flight when it was learnt): no second log, no second re-send.
    expect(p.learn('my-reasoner', TEMPERATURE, body)).toBe(false)
    // A refusal of a parameter the request did not send says nothing to act on.
    expect(p.learn('my-reasoner', MAX_TOKENS, body)).toBe(false)
    expect(logs).toHaveLength(1)
    expect(logs[0]![0]).toMatchObject({ model: 'my-reasoner', param: 'temperature' })
    expect(logs[0]![1]).toMatch(/my-reasoner.*temperature/)
    expect(p.learnt('my-reasoner')).toEqual(['temperature'])
  })

  it('swaps max_tokens and max_completion_tokens, and drops the cap when both are refused', () => {
    const p = new RefusedParams()
    const old = { model: 'm', max_completion_tokens: 100 }
    expect(
      p.learn(
        'old-server',
        openai400(
          "Unsupported parameter: 'max_completion_tokens' is not supported with this model.",
          'unsupported_parameter',
          'max_completion_tokens',
        ),
        old,
      ),
    ).toBe(true)
    expect(p.shape('old-server', old)).toEqual({ model: 'm', max_tokens: 100 })
    expect(p.learn('old-server', MAX_TOKENS, { model: 'm', max_tokens: 100 })).toBe(true)
    expect(p.shape('old-server', old)).toEqual({ model: 'm' })
  })

  it('does not learn from errors that are not refusals', () => {
    const p = new RefusedParams()
    expect(p.learn('m', apiError(400, { error: { message: 'bad schema' } }), body)).toBe(false)
    expect(p.learn('m', apiError(500, { error: { message: "Unsupported parameter: 'temperature'" } }), body)).toBe(
      false,
    )
    expect(p.shape('m', body)).toEqual(body)
  })
})

describe('the output schema in the prompt', () => {
  it('is the schema in type notation, under half its JSON, with JSON named', () => {
    const schema = outputJsonSchema()
    const text = jsonAnswerInstructions(schema)
    expect(text).toMatch(/JSON/)
    expect(text.length).toBeLessThan(JSON.stringify(schema).length / 2)
    const notation = schemaInTypeNotation(schema)
    for (const key of ['submission_id', 'core_info', 'interests', 'memories', 'removals', 'topics_to_avoid', 'summary'])
      expect(notation).toContain(`${key}:`)
    expect(notation).toContain('"low" | "medium" | "high"')
    expect(notation).toMatch(/date: string \| null/)
  })

  it("lists the app's custom fields once, with types and descriptions, and keeps them out of the schema's text", () => {
    const custom = {
      sections: {
        diet: { restrictions: { type: 'string[]' as const, description: 'Dietary restrictions: vegan, kosher' } },
        travel: {
          budget: { type: 'integer' as const, description: 'Trip budget', min: 0, max: 100 },
          lang: { type: 'enum' as const, values: ['English', 'Spanish'] },
        },
        misc: { description: { type: 'string' as const, description: 'A field named description' } },
      },
    }
    expect(customFieldList(custom)).toEqual({
      'diet.restrictions': 'string[]; Dietary restrictions: vegan, kosher',
      'travel.budget': 'integer; Trip budget; minimum 0; maximum 100',
      'travel.lang': 'one of: English | Spanish',
      'misc.description': 'string; A field named description',
    })
    const schema = withCustomOutput(outputJsonSchema(), custom)
    const shown = schemaInTypeNotation(withoutCustomDetails(schema))
    expect(shown).toContain('restrictions: {evidence: string, value: string, confidence: number}[]')
    expect(shown).toContain('budget: {evidence: string, value: integer, confidence: number} | null')
    expect(shown).toContain('description: {evidence: string, value: string')
    expect(shown).not.toMatch(/vegan|Spanish|Trip budget/)
    // The schema sent as structured outputs keeps them.
    expect(JSON.stringify(schema)).toContain('Trip budget')
  })
})

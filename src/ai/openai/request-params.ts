// Request parameters a model refuses (docs/guides/ai-providers.md). OpenAI's reasoning models (gpt-5, o1, o3, o4-mini
// ...) accept only the default temperature and refuse `max_tokens`; other servers refuse other fields. Known cases are
// not sent from the start; any other refusal (a 400 naming the parameter) is remembered for that model for the life of
// the process, logged once, and the request is sent again at once without it (or with `max_tokens` <->
// `max_completion_tokens` swapped). Each parameter is dropped at most once per model, so the re-sends are bounded by
// the request's fields.
import OpenAI from 'openai'

/** Parameters that may be dropped (or swapped) when refused: never model, messages or the output format. */
const DROPPABLE = new Set([
  'temperature',
  'top_p',
  'max_completion_tokens',
  'max_tokens',
  'dimensions',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'parallel_tool_calls',
  'reasoning_effort',
  'service_tier',
  'store',
  'user',
])

/** The same output cap under its two names: a server that refuses one usually takes the other. */
const SWAP: Record<string, string> = { max_completion_tokens: 'max_tokens', max_tokens: 'max_completion_tokens' }

/**
 * OpenAI's reasoning models, by name (also behind a provider prefix: `openai/gpt-5-mini`, `azure/o3`). They take only
 * the default temperature (1) and `max_completion_tokens` (OpenAI's reasoning guide; their 400s read "Unsupported
 * value: 'temperature' does not support 0 with this model. Only the default (1) value is supported." and
 * "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.").
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split('/').pop() ?? ''
  return /^(gpt-5|o1|o3|o4-mini)([-.:_]|$)/.test(name)
}

/**
 * The parameter a 400 says the model does not take, or undefined when the 400 is about something else. Reads OpenAI's
 * shape (`code: unsupported_parameter | unsupported_value`, `param`), the same words in the message (servers that copy
 * OpenAI's text but not its fields), and refusals of `dimensions` (vLLM for a model without Matryoshka embeddings,
 * OpenAI for text-embedding-ada-002).
 */
export function refusedParam(error: unknown): string | undefined {
  if (!(error instanceof OpenAI.APIError) || (error.status !== 400 && error.status !== 422)) return undefined
  const body = (error.error ?? {}) as { code?: unknown; param?: unknown; message?: unknown }
  const message = `${typeof body.message === 'string' ? body.message : ''} ${error.message}`
  let param: string | undefined
  if ((body.code === 'unsupported_parameter' || body.code === 'unsupported_value') && typeof body.param === 'string')
    param = body.param
  param ??= /Unsupported (?:parameter|value): '([\w.]+)'/i.exec(message)?.[1]
  param ??= /'([\w.]+)' is not supported with this model/i.exec(message)?.[1]
  // vLLM: 'Model "x" does not support matryoshka representation ...'; OpenAI's ada-002: 'This model does not support
  // specifying dimensions.'
  if (!param && (/matryoshka/i.test(message) || /not support[\w\s]*\bdimensions\b/i.test(message))) param = 'dimensions'
  return param && DROPPABLE.has(param) ? param : undefined
}

export type ParamLog = (fields: Record<string, unknown>, message: string) => void

/** What each model was seen to refuse, for the life of the process. */
export class RefusedParams {
  private readonly refused = new Map<string, Set<string>>()

  constructor(private readonly warn: ParamLog = () => {}) {}

  /** `body` as this model takes it: known and learnt refusals dropped, the output cap under the name it accepts. */
  shape<B extends Record<string, unknown>>(model: string, body: B): B {
    const out: Record<string, unknown> = { ...body }
    const refused = new Set(this.refused.get(model) ?? [])
    if (isReasoningModel(model)) refused.add('temperature').add('max_tokens')
    for (const p of refused) {
      if (!(p in out)) continue
      const value = out[p]
      delete out[p]
      const other = SWAP[p]
      if (other && !refused.has(other) && !(other in out)) out[other] = value
    }
    return out as B
  }

  /**
   * A failed request of `model` that sent `sent`: true when the error is a refusal of one of its parameters not known
   * before (now remembered and logged once), so the request should be sent again at once, shaped anew.
   */
  learn(model: string, error: unknown, sent: Record<string, unknown>): boolean {
    const param = refusedParam(error)
    if (!param || !(param in sent)) return false
    let set = this.refused.get(model)
    if (!set) this.refused.set(model, (set = new Set()))
    if (set.has(param)) return false
    set.add(param)
    const other = SWAP[param]
    const instead = other && !set.has(other) ? `; sending ${other} instead` : ''
    this.warn(
      { model, param, status: (error as { status?: number }).status },
      `the model ${model} refuses the parameter ${param}: it is no longer sent to this model${instead}`,
    )
    return true
  }

  /** Parameters learnt for `model` (tests, diagnostics). */
  learnt(model: string): string[] {
    return [...(this.refused.get(model) ?? [])]
  }
}

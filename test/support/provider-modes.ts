// Per-provider modes of the fake OpenAI-compatible server (docs/guides/ai-providers.md): each mode refuses or bends a
// request the way that provider's documentation (and source) says it does, so the `openai` provider is tested against
// the behaviour of OpenAI, Azure OpenAI, DeepSeek, Groq, OpenRouter, LM Studio, Ollama, vLLM and llama.cpp's server,
// not only against our own expectations. The default mode, 'openai', is what the fake always did (OpenAI's
// strict-schema rules).
//
// A mode is a set of rules applied by test/support/openai-server.ts before the fake model answers. Keep each
// provider's rules here, with a comment naming the documentation they come from.

import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base'

export type ProviderMode =
  | 'openai' // api.openai.com, a non-reasoning model (gpt-4o-mini, gpt-4.1)
  | 'openai-reasoning' // api.openai.com, a reasoning model (gpt-5, gpt-5-mini, o3, o4-mini)
  | 'azure'
  | 'deepseek'
  | 'groq'
  | 'openrouter'
  | 'lmstudio'
  | 'ollama'
  | 'vllm'
  | 'llamacpp'

/** A request the provider answers with an error instead of a completion. */
export interface ModeRefusal {
  status: number
  body: unknown
  headers?: Record<string, string>
}

export interface ModeRules {
  /**
   * Checks a request as the provider would before running the model; a refusal is sent as is. `kind` is the endpoint,
   * `body` the parsed JSON body, `headers` the request's headers (lower-cased names).
   */
  refuse?(kind: 'chat' | 'embeddings', body: any, headers: Record<string, string>): ModeRefusal | undefined
  /** What the model actually reads of the messages (a provider that silently drops part of an over-long prompt). */
  messages?(messages: any[], body: any): any[]
  /** Output tokens the model may write for this request (its answer is cut with finish_reason "length" past them). */
  outputCap?(body: any): number | undefined
  /**
   * False for servers that only constrain decoding to the request's JSON schema (a grammar built from it): the model
   * is never shown the schema, so it reads nothing of its descriptions; what a field holds must be in the prompt.
   */
  modelReadsSchema?: boolean
  /** Size of the vectors `model` answers with when the request has no `dimensions` (undefined: the fake's default). */
  embeddingDimension?(model: string): number | undefined
  /**
   * Whether `model` takes `dimensions` (shortened vectors); others ignore it. Default: OpenAI's rule, only
   * text-embedding-3 models (platform.openai.com/docs/guides/embeddings).
   */
  takesDimensions?(model: string): boolean
}

export const openaiError = (
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
) => ({
  error: { message, type, param, code },
})

/**
 * OpenAI's output caps per model (the models' pages, "max output tokens"): a request may ask for less with
 * max_completion_tokens, never more; past the cap the answer is cut with finish_reason "length".
 */
export function openaiOutputCap(model: unknown): number | undefined {
  const m = String(model ?? '')
  if (/^gpt-4o-2024-05-13/.test(m)) return 4_096
  if (/^(gpt-4o|chatgpt-4o)/.test(m)) return 16_384
  if (/^gpt-4\.1/.test(m)) return 32_768
  if (/^gpt-5[\w.-]*-chat/.test(m)) return 16_384
  if (/^gpt-5/.test(m)) return 128_000
  if (/^o[34](-|$)/.test(m)) return 100_000
  return undefined // the tests' own model names: no cap but the request's
}

/**
 * Ollama's context (settable per test file): OLLAMA_CONTEXT_LENGTH, 4,096 tokens by default on a machine with less than
 * 24 GiB of VRAM (docs/context-length.mdx). Its OpenAI-compatible endpoint takes no num_ctx from the request.
 */
export const ollamaSettings = { contextTokens: 4_096 }

/**
 * Models served by Ollama tokenize with their own vocabularies; Llama 3's (128k tokens) gives about a tenth more
 * tokens than o200k_base on English text, so the fake counts o200k tokens times this.
 */
const OLLAMA_TOKENIZER_FACTOR = 1.1
const plain = { disallowedSpecial: new Set<string>() }
const contentOf = (m: any): string =>
  typeof m?.content === 'string'
    ? m.content
    : Array.isArray(m?.content)
      ? m.content.map((p: any) => p?.text ?? '').join('')
      : ''

/**
 * What a model behind Ollama reads of an over-long prompt: Ollama cuts the prompt to its context from the START (the
 * system prompt goes first, then the beginning of the user message), logging only "truncating input prompt" with the
 * sizes in the server's log; the request still succeeds.
 */
function ollamaMessages(messages: any[]): any[] {
  const limit = Math.floor(ollamaSettings.contextTokens / OLLAMA_TOKENIZER_FACTOR)
  const tokens = messages.map((m) => encode(contentOf(m), plain))
  const total = tokens.reduce((n, t) => n + t.length, 0)
  if (total <= limit) return messages
  let drop = total - limit
  const kept: any[] = []
  for (const [i, m] of messages.entries()) {
    const t = tokens[i]!
    if (drop >= t.length) {
      drop -= t.length
      continue
    }
    kept.push({ ...m, content: drop ? decode(t.slice(drop)) : contentOf(m) })
    drop = 0
  }
  return kept
}

const mentionsJson = (messages: unknown) =>
  Array.isArray(messages) &&
  messages.some((m: any) => /json/i.test(typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '')))

/**
 * OpenAI's own rule for JSON mode (api.openai.com, Azure, Groq): "'messages' must contain the word 'json' in some form,
 * to use 'response_format' of type 'json_object'."
 */
function jsonModeNeedsTheWord(kind: string, body: any): ModeRefusal | undefined {
  if (kind !== 'chat' || body?.response_format?.type !== 'json_object' || mentionsJson(body.messages)) return undefined
  return {
    status: 400,
    body: openaiError(
      "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      'invalid_request_error',
      null,
      'messages',
    ),
  }
}

/**
 * text-embedding-3-large, however it is named (an Azure deployment named `...embeddings-deployment`, OpenRouter's
 * `openai/text-embedding-3-large`): 3072-d natively, shortened when `dimensions` is sent.
 */
const isLarge = (model: string) => /text-embedding-3-large|embeddings?-deployment/i.test(model)
const nativeLarge = (model: string) => (isLarge(model) ? 3072 : undefined)
const largeTakesDimensions = (model: string) => isLarge(model) || /text-embedding-3-/.test(model)

/** A provider without an embeddings API (DeepSeek, Groq): the path does not exist. */
function noEmbeddings(kind: string, path: string): ModeRefusal | undefined {
  if (kind !== 'embeddings') return undefined
  return {
    status: 404,
    body: openaiError(
      `Unknown request URL: POST ${path}. ` +
        'Please check the URL for typos, or see the docs at https://console.groq.com/docs/',
      'invalid_request_error',
      'unknown_url',
    ),
  }
}

export const PROVIDER_MODES: Record<ProviderMode, ModeRules> = {
  openai: { refuse: jsonModeNeedsTheWord, outputCap: (body) => openaiOutputCap(body?.model) },
  // OpenAI's reasoning models (platform.openai.com/docs/guides/reasoning; the 400s as the API words them, quoted in
  // many client bug reports): only the default temperature (1), and `max_completion_tokens` instead of `max_tokens`.
  'openai-reasoning': {
    refuse(kind, body) {
      if (kind !== 'chat') return undefined
      if ('max_tokens' in body) {
        return {
          status: 400,
          body: openaiError(
            "Unsupported parameter: 'max_tokens' is not supported with this model. " +
              "Use 'max_completion_tokens' instead.",
            'invalid_request_error',
            'unsupported_parameter',
            'max_tokens',
          ),
        }
      }
      if ('temperature' in body && body.temperature !== 1) {
        return {
          status: 400,
          body: openaiError(
            `Unsupported value: 'temperature' does not support ${body.temperature} with this model. ` +
              'Only the default (1) value is supported.',
            'invalid_request_error',
            'unsupported_value',
            'temperature',
          ),
        }
      }
      return jsonModeNeedsTheWord(kind, body)
    },
  },
  // Azure OpenAI's v1 API (learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle): the OpenAI wire format
  // at https://<resource>.openai.azure.com/openai/v1/, `model` is the deployment's name (so Profiler cannot tell the
  // model behind it), key in the `api-key` header or as a Bearer token. An embedding deployment of
  // text-embedding-3-large answers with its native 3072-d vectors unless `dimensions` is sent.
  azure: { refuse: jsonModeNeedsTheWord, embeddingDimension: nativeLarge, takesDimensions: largeTakesDimensions },
  // DeepSeek (api-docs.deepseek.com/guides/json_mode): JSON Output is `response_format: {type: "json_object"}` with
  // the word "json" in the system or user prompt; `json_schema` is refused ("This response_format type is
  // unavailable now", as the API answers). No embeddings API.
  deepseek: {
    refuse(kind, body, _headers) {
      if (kind === 'embeddings') return noEmbeddings(kind, '/v1/embeddings')
      const type = body?.response_format?.type
      if (type === 'json_schema') {
        return {
          status: 400,
          body: openaiError(
            'This response_format type is unavailable now',
            'invalid_request_error',
            'invalid_request_error',
          ),
        }
      }
      if (type === 'json_object' && !mentionsJson(body.messages)) {
        return {
          status: 400,
          body: openaiError(
            "Prompt must contain the word 'json' in some form to use 'response_format' of type 'json_object'.",
            'invalid_request_error',
            'invalid_request_error',
          ),
        }
      }
      return undefined
    },
  },
  // Groq (console.groq.com/docs/structured-outputs): `strict: true` (constrained decoding) only on
  // openai/gpt-oss-20b and openai/gpt-oss-120b; other models take json_schema best-effort (strict false) or JSON mode
  // (with the word "json", as OpenAI). The 400 for strict on another model is not worded in the docs: modelled here
  // with OpenAI's error shape. No embeddings API (console.groq.com/docs/models lists none).
  groq: {
    refuse(kind, body) {
      if (kind === 'embeddings') return noEmbeddings(kind, '/openai/v1/embeddings')
      const rf = body?.response_format
      if (
        rf?.type === 'json_schema' &&
        rf.json_schema?.strict === true &&
        !/^openai\/gpt-oss-(20b|120b)$/.test(String(body.model))
      ) {
        return {
          status: 400,
          body: openaiError(
            `model \`${body.model}\` does not support strict mode for response_format json_schema; ` +
              'see https://console.groq.com/docs/structured-outputs#supported-models',
            'invalid_request_error',
            'invalid_request_error',
            'response_format',
          ),
        }
      }
      return jsonModeNeedsTheWord(kind, body)
    },
  },
  // OpenRouter (openrouter.ai/docs): models named `vendor/model`; the `provider` object of the body routes the request
  // (`require_parameters: true`: only to providers that take every parameter sent); optional `HTTP-Referer` and
  // `X-Title` headers name the app. openai/text-embedding-3-large answers 3072-d unless `dimensions` is sent.
  openrouter: { refuse: jsonModeNeedsTheWord, embeddingDimension: nativeLarge, takesDimensions: largeTakesDimensions },
  // LM Studio (lmstudio-ai/lmstudio-bug-tracker#189, #307): `response_format.type` must be json_schema or text; it
  // answers JSON mode with a 400 whose `error` is a bare string.
  lmstudio: {
    refuse(kind, body) {
      const type = body?.response_format?.type
      if (kind === 'chat' && type !== undefined && type !== 'json_schema' && type !== 'text') {
        return { status: 400, body: { error: "'response_format.type' must be 'json_schema' or 'text'" } }
      }
      return undefined
    },
    modelReadsSchema: false,
  },
  // Ollama's OpenAI endpoint turns response_format's schema into a grammar (the `format` of its own API): the model is
  // not shown the schema.
  ollama: { modelReadsSchema: false, messages: (messages) => ollamaMessages(messages) },
  // vLLM (docs.vllm.ai, structured outputs): json_schema through guided decoding (xgrammar/outlines), `strict` ignored;
  // the model is not shown the schema. Embeddings: `dimensions` only for Matryoshka models, else a 400.
  vllm: {
    modelReadsSchema: false,
    refuse(kind, body) {
      if (
        kind === 'embeddings' &&
        body?.dimensions !== undefined &&
        !/matryoshka|text-embedding-3/i.test(String(body.model))
      ) {
        return {
          status: 400,
          body: openaiError(
            `Model "${body.model}" does not support matryoshka representation, ` +
              'changing output dimensions will lead to poor results.',
            'BadRequestError',
            null,
          ),
        }
      }
      return undefined
    },
  },
  // llama.cpp's server (tools/server/README.md): response_format json_schema / json_object compiled to a GBNF grammar;
  // the model is not shown the schema.
  llamacpp: { modelReadsSchema: false },
}

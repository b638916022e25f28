// Per-provider modes of the fake OpenAI-compatible server (issue 23): each mode refuses or bends a request the way
// that provider's documentation (and source) says it does, so the `openai` provider is tested against the behaviour of
// OpenAI, Azure OpenAI, DeepSeek, Groq, OpenRouter, LM Studio, Ollama, vLLM and llama.cpp's server, not only against
// our own expectations. The default mode, 'openai', is what the fake always did (OpenAI's strict-schema rules).
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
}

export const openaiError = (message: string, type: string, code: string | null = null, param: string | null = null) => ({
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
const contentOf = (m: any): string => (typeof m?.content === 'string' ? m.content : Array.isArray(m?.content) ? m.content.map((p: any) => p?.text ?? '').join('') : '')

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

export const PROVIDER_MODES: Record<ProviderMode, ModeRules> = {
  openai: {
    outputCap: (body) => openaiOutputCap(body?.model),
  },
  'openai-reasoning': {},
  azure: {},
  deepseek: {},
  groq: {},
  openrouter: {},
  lmstudio: {},
  ollama: {
    messages: (messages) => ollamaMessages(messages),
  },
  vllm: {},
  llamacpp: {},
}

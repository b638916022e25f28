// Per-provider modes of the fake OpenAI-compatible server (issue 23): each mode refuses or bends a request the way
// that provider's documentation (and source) says it does, so the `openai` provider is tested against the behaviour of
// OpenAI, Azure OpenAI, DeepSeek, Groq, OpenRouter, LM Studio, Ollama, vLLM and llama.cpp's server, not only against
// our own expectations. The default mode, 'openai', is what the fake always did (OpenAI's strict-schema rules).
//
// A mode is a set of rules applied by test/support/openai-server.ts before the fake model answers. Keep each
// provider's rules here, with a comment naming the documentation they come from.

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

export const PROVIDER_MODES: Record<ProviderMode, ModeRules> = {
  openai: {},
  'openai-reasoning': {},
  azure: {},
  deepseek: {},
  groq: {},
  openrouter: {},
  lmstudio: {},
  ollama: {},
  vllm: {},
  llamacpp: {},
}

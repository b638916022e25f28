// Token bounds of the chat model (docs/guides/ai-providers.md, "Token bounds"): its context window, the output cap sent
// with every request, and a real token count of what is sent, so that a batch is packed into requests that fit instead
// of being cut by the provider.
//
// Figures from OpenAI's model pages (context window / max output tokens):
// gpt-4o, gpt-4o-mini            128,000 / 16,384   (the first gpt-4o snapshot, 2024-05-13: 4,096)
// gpt-4.1, -mini, -nano        1,047,576 / 32,768
// gpt-5, -mini, -nano            400,000 / 128,000  (gpt-5-chat-latest: 128,000 / 16,384)
// o3, o4-mini, o1                200,000 / 100,000  (o1-mini 128,000 / 65,536; o1-preview 128,000 / 32,768)
// gpt-4-turbo                    128,000 / 4,096;   gpt-3.5-turbo 16,385 / 4,096
// All but the last two use the o200k_base encoding, so their prompts are counted exactly. The default output cap is the
// model's maximum but at most 32,768: OpenAI counts `max_completion_tokens` against the tokens-per-minute rate limit
// ("the maximum of max_tokens and the estimated number of tokens" of the request), so sending gpt-5's 128,000 would
// reserve four times what any batch of ours writes.
//
// Other models (Ollama, vLLM, llama.cpp, LM Studio, DeepSeek, Groq, OpenRouter's non-OpenAI models, Azure deployment
// names) have other tokenizers: the count is o200k_base's plus TOKEN_MARGIN, and the window is 8,192 tokens unless
// PROFILER_LLM_CONTEXT_TOKENS says otherwise. Ollama's OpenAI endpoint runs a model with a 4,096-token context on a
// machine with less than 24 GiB of VRAM unless OLLAMA_CONTEXT_LENGTH (or the model's num_ctx) is raised, and it drops
// the start of a longer prompt (the instructions first) with only a line in its log: set PROFILER_LLM_CONTEXT_TOKENS
// to what the server runs.
import type { OpenAIConfig } from '../../config.js'
import { ConfigError } from '../../config.js'

interface Family {
  match: RegExp
  context: number
  output: number
  /** The model tokenizes with o200k_base: counts are exact. */
  o200k: boolean
}

const FAMILIES: Family[] = [
  { match: /^gpt-4o-2024-05-13/, context: 128_000, output: 4_096, o200k: true },
  { match: /^(gpt-4o|chatgpt-4o)/, context: 128_000, output: 16_384, o200k: true },
  { match: /^gpt-4\.1/, context: 1_047_576, output: 32_768, o200k: true },
  { match: /^gpt-5[\w.-]*-chat/, context: 128_000, output: 16_384, o200k: true },
  { match: /^gpt-5/, context: 400_000, output: 128_000, o200k: true },
  { match: /^o1-(mini|preview)/, context: 128_000, output: 32_768, o200k: true },
  { match: /^o[134](-|$)/, context: 200_000, output: 100_000, o200k: true },
  { match: /^gpt-4-turbo/, context: 128_000, output: 4_096, o200k: false },
  { match: /^gpt-3\.5-turbo/, context: 16_385, output: 4_096, o200k: false },
]

/** The window of a model Profiler does not know (a conservative guess: set PROFILER_LLM_CONTEXT_TOKENS). */
export const UNKNOWN_CONTEXT_TOKENS = 8_192
/** The default output cap never exceeds this (see above: OpenAI's rate limits count the cap). */
export const MAX_DEFAULT_OUTPUT_TOKENS = 32_768
/**
 * Counts for models with another tokenizer than o200k_base are raised by this much (Llama 2 and Mistral's 32k
 * vocabularies give about a third more tokens than o200k on English text, Llama 3 and Qwen about a tenth more).
 */
export const TOKEN_MARGIN = 0.25
/** Per request: the chat framing of two messages and of the answer (about 3 tokens each), rounded up. */
const FRAMING_TOKENS = 16

export interface TokenLimits {
  model: string
  /** Prompt + output, in tokens. */
  context: number
  /** Sent as max_completion_tokens with every chat request. */
  output: number
  /** Tokens left for the prompt: context - output. */
  prompt: number
  /** Counts are exact (o200k_base models); otherwise raised by TOKEN_MARGIN. */
  exact: boolean
  /** Where the figures come from, for messages: 'PROFILER_LLM_CONTEXT_TOKENS' or the model's family. */
  source: { context: string; output: string }
}

/** The model's limits: the settings when given, else its family's (a provider prefix like "openai/" is ignored). */
export function tokenLimits(model: string, cfg: Pick<OpenAIConfig, 'contextTokens' | 'maxOutputTokens'>): TokenLimits {
  const bare = model.slice(model.lastIndexOf('/') + 1).toLowerCase()
  const family = FAMILIES.find((f) => f.match.test(bare))
  const context = cfg.contextTokens ?? family?.context ?? UNKNOWN_CONTEXT_TOKENS
  const familyOutput = family ? Math.min(family.output, MAX_DEFAULT_OUTPUT_TOKENS) : 4_096
  const output = cfg.maxOutputTokens ?? Math.min(familyOutput, Math.floor(context / (family ? 2 : 4)))
  if (output > context / 2) {
    throw new ConfigError(
      `Invalid configuration:\n  PROFILER_LLM_MAX_OUTPUT_TOKENS: ${output} leaves too little of the ` +
        `${context}-token context of ${model} for the prompt; at most half of it`,
    )
  }
  const known = family ? `the documented limits of ${model}` : `the default for models Profiler does not know`
  return {
    model,
    context,
    output,
    prompt: context - output,
    exact: !!family?.o200k,
    source: {
      context: cfg.contextTokens ? 'PROFILER_LLM_CONTEXT_TOKENS' : `${known}; set PROFILER_LLM_CONTEXT_TOKENS`,
      output: cfg.maxOutputTokens ? 'PROFILER_LLM_MAX_OUTPUT_TOKENS' : `${known}; set PROFILER_LLM_MAX_OUTPUT_TOKENS`,
    },
  }
}

type Counter = (text: string) => number
let counter: Promise<Counter> | undefined
/**
 * o200k_base from gpt-tokenizer (pure JS, its ranks ship in the package: nothing is downloaded), loaded on first use.
 * Special-token strings in user text ("<|endoftext|>") are counted as text, not refused.
 */
function o200k(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((tokenizer) => {
    const plain = { disallowedSpecial: new Set<string>() }
    return (text: string) => tokenizer.countTokens(text, plain)
  })
  return counter
}

const CHUNK = 8_192

/**
 * Tokens of `text` in o200k_base. A long text is counted in chunks cut at spaces, yielding between them, so that a
 * 100 KiB submission does not hold the event loop for tens of milliseconds; a cut adds at most a token or two (safe).
 */
export async function countTokens(text: string): Promise<number> {
  const count = await o200k()
  if (text.length <= CHUNK) return count(text)
  let total = 0
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + CHUNK)
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end)
      if (space > i + CHUNK / 2) end = space
    }
    total += count(text.slice(i, end))
    i = end
    if (i < text.length) await new Promise<void>((r) => setImmediate(r))
  }
  return total
}

/** What `text` costs the model: exact for o200k_base models, with TOKEN_MARGIN added for the others. */
export async function promptTokens(limits: TokenLimits, text: string): Promise<number> {
  const tokens = await countTokens(text)
  return limits.exact ? tokens : Math.ceil(tokens * (1 + TOKEN_MARGIN))
}

export const framingTokens = (limits: TokenLimits) =>
  limits.exact ? FRAMING_TOKENS : Math.ceil(FRAMING_TOKENS * (1 + TOKEN_MARGIN))

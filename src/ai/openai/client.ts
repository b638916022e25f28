import OpenAI from 'openai'
import type { OpenAIConfig } from '../../config.js'
import type { Usage } from '../types.js'
import { sumUsage } from '../usage.js'

/** A counting semaphore: at most `n` LLM requests in flight per process. */
class Semaphore {
  private waiting: (() => void)[] = []
  constructor(private free: number) {}
  async acquire() {
    if (this.free > 0) return void this.free--
    await new Promise<void>((r) => this.waiting.push(r))
  }
  release() {
    const next = this.waiting.shift()
    if (next) next()
    else this.free++
  }
}

/**
 * The `openai` SDK against any OpenAI-compatible endpoint. The SDK retries 429 (honouring Retry-After), 5xx and
 * timeouts with exponential backoff and jitter, up to `maxRetries`; each try is bounded by `timeoutMs`.
 */
export class LlmClient {
  readonly sdk: OpenAI
  private readonly slots: Semaphore

  constructor(readonly cfg: OpenAIConfig) {
    // Every setting explicit: the SDK would otherwise read OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID from
    // the environment behind the configuration's back.
    this.sdk = new OpenAI({
      apiKey: cfg.apiKey,
      baseURL: cfg.baseUrl ?? 'https://api.openai.com/v1',
      organization: null,
      project: null,
      timeout: cfg.timeoutMs,
      maxRetries: cfg.maxRetries,
    })
    this.slots = new Semaphore(cfg.concurrency)
  }

  /** One chat request with structured outputs (strict JSON schema); returns the raw answer and its usage. */
  async structuredChat(
    req: { model: string; system: string; user: string; schemaName: string; schema: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<{ content: string | null | undefined; refusal: string | null | undefined; usage: Usage }> {
    const res = await this.run((sdk) =>
      sdk.chat.completions.create(
        {
          model: req.model,
          messages: [
            { role: 'system', content: req.system },
            { role: 'user', content: req.user },
          ],
          response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } },
          temperature: 0,
        },
        { signal },
      ),
    )
    const message = res.choices[0]?.message
    return { content: message?.content, refusal: message?.refusal, usage: fromApiUsage(res.usage) }
  }

  async run<T>(fn: (sdk: OpenAI) => Promise<T>): Promise<T> {
    await this.slots.acquire()
    try {
      return await fn(this.sdk)
    } finally {
      this.slots.release()
    }
  }
}

/** a + b (b may be missing). */
export const addUsage = (a: Usage, b: Usage | undefined): Usage => sumUsage([a, b])!

export function fromApiUsage(u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined | null): Usage {
  return { promptTokens: u?.prompt_tokens ?? 0, completionTokens: u?.completion_tokens ?? 0, totalTokens: u?.total_tokens ?? 0 }
}

/** Malformed or schema-invalid output after every retry; carries what the failed requests cost. */
export class LlmOutputError extends Error {
  constructor(
    message: string,
    readonly usage: Usage,
  ) {
    super(message)
    this.name = 'LlmOutputError'
  }
}

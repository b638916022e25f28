import OpenAI from 'openai'
import type { OpenAIConfig } from '../../config.js'
import type { Usage } from '../types.js'
import { sumUsage } from '../usage.js'
import { LlmUnavailableError } from '../errors.js'
import { CircuitBreaker } from './breaker.js'
import { inSpan } from '../../tracing/tracing.js'
import { RefusedParams } from './request-params.js'

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

/** Transport retries left for one logical operation (an extraction with its output retries shares one budget). */
export interface RetryBudget {
  left: number
}

/**
 * The `openai` SDK against any OpenAI-compatible endpoint. Retries are ours, not the SDK's, so that the circuit
 * breaker sees every failed request and one operation's retries are bounded as a whole: 429 (after its Retry-After),
 * 5xx, timeouts and lost connections are retried with exponential backoff and jitter, at most `maxRetries` times per
 * operation; each try is bounded by `timeoutMs`.
 */
export class LlmClient {
  readonly sdk: OpenAI
  private readonly slots: Semaphore
  readonly breaker: CircuitBreaker
  /** Parameters each model refuses (known, or learnt from its 400s): not sent to it again. */
  readonly params: RefusedParams

  constructor(
    readonly cfg: OpenAIConfig,
    /** Told of every failed request, retried ones included (metrics). */
    private readonly onFailure?: (kind: LlmErrorKind) => void,
    log?: { warn(obj: object, msg: string): void },
  ) {
    // Every setting explicit: the SDK would otherwise read OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID from
    // the environment behind the configuration's back.
    this.sdk = new OpenAI({
      apiKey: cfg.apiKey,
      baseURL: cfg.baseUrl ?? 'https://api.openai.com/v1',
      organization: null,
      project: null,
      timeout: cfg.timeoutMs,
      maxRetries: 0,
      // Not OPENAI_LOG: at debug the SDK logs request headers, and only some of them are masked (PROFILER_LLM_HEADERS
      // may hold keys under any name).
      logLevel: 'warn',
      // PROFILER_LLM_HEADERS, on every request (chat and embeddings); their values are never logged.
      ...(cfg.headers && Object.keys(cfg.headers).length ? { defaultHeaders: cfg.headers } : {}),
    })
    this.params = new RefusedParams((fields, msg) => log?.warn(fields, msg))
    this.slots = new Semaphore(cfg.concurrency)
    this.breaker = new CircuitBreaker({ failures: cfg.breakerFailures, cooldownMs: cfg.breakerCooldownMs, maxCooldownMs: cfg.breakerMaxCooldownMs })
  }

  /** A fresh retry budget for one operation. */
  retryBudget(): RetryBudget {
    return { left: this.cfg.maxRetries }
  }

  /**
   * One chat request for a JSON answer; returns the raw answer, why it ended (`finishReason` "length": cut at the
   * output cap) and its usage. The output schema goes as strict structured outputs (`json_schema`, the default), or,
   * with PROFILER_LLM_RESPONSE_FORMAT=json_object|none, only in the prompt (the caller writes it there; see
   * `schemaInPrompt`). `maxOutputTokens` is sent as `max_completion_tokens` (as `max_tokens` to a model that refuses
   * that name). With `splitOnTimeout` (a request the caller can split into smaller ones) a timeout is neither retried
   * nor counted by the circuit breaker: it throws at once for the caller to split the work.
   */
  async structuredChat(
    req: {
      model: string
      system: string
      user: string
      schemaName: string
      schema: Record<string, unknown>
      maxOutputTokens?: number
      splitOnTimeout?: boolean
    },
    signal?: AbortSignal,
    budget?: RetryBudget,
  ): Promise<{ content: string | null | undefined; refusal: string | null | undefined; finishReason?: string | null; usage: Usage }> {
    return inSpan('llm.chat', { attributes: llmAttributes('chat', req.model) }, async (span) => {
      let tries = 0
      const format = this.cfg.responseFormat ?? 'json_schema'
      const body: Record<string, unknown> = {
        model: req.model,
        messages: [
          { role: 'system', content: req.system },
          { role: 'user', content: req.user },
        ],
        ...(format === 'json_schema'
          ? { response_format: { type: 'json_schema', json_schema: { name: req.schemaName, strict: true, schema: req.schema } } }
          : format === 'json_object'
            ? { response_format: { type: 'json_object' } }
            : {}),
        temperature: 0,
        ...(req.maxOutputTokens ? { max_completion_tokens: req.maxOutputTokens } : {}),
        // PROFILER_LLM_EXTRA_BODY: the operator's fields win (config refuses model, messages and stream there).
        ...this.cfg.extraBody,
      }
      const res = await this.withParams(
        req.model,
        body,
        (sdk, sent) => {
          tries++
          return sdk.chat.completions.create(sent as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, { signal })
        },
        { signal, budget, splitOnTimeout: req.splitOnTimeout },
      )
      const message = res.choices[0]?.message
      const usage = fromApiUsage(res.usage)
      span?.setAttributes({ ...usageAttributes(usage), 'gen_ai.response.model': res.model, 'profiler.llm.tries': tries })
      return { content: message?.content, refusal: message?.refusal, finishReason: res.choices[0]?.finish_reason, usage }
    })
  }

  /**
   * One request whose body is shaped for `model` (parameters it refuses left out). A 400 refusing one of the body's
   * parameters is learnt and the request sent again at once, without using the operation's retry budget: at most
   * once per parameter, since a learnt parameter is never sent to that model again.
   */
  async withParams<T>(
    model: string,
    body: Record<string, unknown>,
    fn: (sdk: OpenAI, body: Record<string, unknown>) => Promise<T>,
    opts: { signal?: AbortSignal; budget?: RetryBudget; splitOnTimeout?: boolean } = {},
  ): Promise<T> {
    for (;;) {
      let sent = this.params.shape(model, body)
      try {
        return await this.run((sdk) => fn(sdk, (sent = this.params.shape(model, body))), opts)
      } catch (e) {
        if (opts.signal?.aborted || !this.params.learn(model, e, sent)) throw e
      }
    }
  }

  /** One request through the breaker, retried on outage-like failures within the operation's budget. */
  async run<T>(fn: (sdk: OpenAI) => Promise<T>, opts: { signal?: AbortSignal; budget?: RetryBudget; splitOnTimeout?: boolean } = {}): Promise<T> {
    const budget = opts.budget ?? this.retryBudget()
    for (let retry = 0; ; retry++) {
      const { probe } = this.breaker.admit()
      await this.slots.acquire()
      let err: unknown
      try {
        const out = await fn(this.sdk)
        this.breaker.succeeded(probe)
        return out
      } catch (e) {
        err = e
        this.onFailure?.(llmErrorKind(e, opts.signal))
      } finally {
        this.slots.release()
      }
      if (opts.signal?.aborted || !isOutage(err)) {
        // The provider answered (a 4xx): it is up. An abort says nothing about it.
        if (opts.signal?.aborted) this.breaker.released(probe)
        else this.breaker.succeeded(probe)
        throw err
      }
      if (opts.splitOnTimeout && isTimeout(err)) {
        // A slow but healthy model times out on a large request: the caller splits it, and the breaker (there for
        // outages, shared by everyone) does not count it. A one-submission request that times out still counts.
        this.breaker.released(probe)
        throw err
      }
      this.breaker.failed(probe)
      if (budget.left <= 0) throw err
      budget.left--
      await sleep(retryDelayMs(err, retry, this.cfg.retryBaseMs), opts.signal)
    }
  }
}

/** The GenAI semantic conventions' attributes of a request span (`llm.chat`, `llm.embed`). */
export function llmAttributes(operation: 'chat' | 'embeddings', model: string) {
  return { 'gen_ai.operation.name': operation, 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': model }
}

export function usageAttributes(u: Usage) {
  return { 'gen_ai.usage.input_tokens': u.promptTokens, 'gen_ai.usage.output_tokens': u.completionTokens }
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

export type LlmErrorKind = 'timeout' | 'connection' | 'rate_limited' | 'server_error' | 'client_error' | 'bad_output' | 'circuit_open' | 'aborted' | 'other'

/** What kind of failure an AI call ended with: a closed set, for metrics. */
export function llmErrorKind(e: unknown, signal?: AbortSignal): LlmErrorKind {
  if (signal?.aborted) return 'aborted'
  if (e instanceof LlmUnavailableError) return 'circuit_open'
  if (e instanceof LlmOutputError) return 'bad_output'
  if (e instanceof OpenAI.APIConnectionTimeoutError) return 'timeout'
  if (e instanceof OpenAI.APIConnectionError) return 'connection'
  if (e instanceof OpenAI.APIUserAbortError) return 'aborted'
  if (e instanceof OpenAI.APIError) {
    if (e.status === 429) return 'rate_limited'
    if (e.status === 408) return 'timeout'
    if (e.status === undefined || e.status >= 500) return 'server_error'
    return 'client_error'
  }
  return 'other'
}

/** Failures that say the provider is down or overloaded, not that the request was wrong. */
export function isOutage(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionError) return true // includes timeouts
  if (e instanceof OpenAI.APIError) return e.status === undefined || e.status === 429 || e.status === 408 || e.status >= 500
  return false
}

/** The request took too long: our timeout, or the server's or a gateway's (408, 504). */
export function isTimeout(e: unknown): boolean {
  if (e instanceof OpenAI.APIConnectionTimeoutError) return true
  return e instanceof OpenAI.APIError && (e.status === 408 || e.status === 504)
}

/** Retry-After (seconds or HTTP date; or retry-after-ms) when the provider sent one, else `baseMs` doubling to 16x, ±25 %. */
export function retryDelayMs(e: unknown, retry: number, baseMs = 500): number {
  const headers = e instanceof OpenAI.APIError ? e.headers : undefined
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers as Record<string, string> | undefined)?.[name]) ?? null
  const ms = Number(get('retry-after-ms'))
  if (ms > 0 && ms <= 60_000) return ms
  const after = get('retry-after')
  if (after) {
    const s = Number(after)
    const wait = Number.isFinite(s) ? s * 1000 : Date.parse(after) - Date.now()
    if (wait > 0 && wait <= 60_000) return wait
  }
  return baseMs * 2 ** Math.min(retry, 4) * (0.75 + Math.random() * 0.5)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const t = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true })
  })
}

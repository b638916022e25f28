import OpenAI from 'openai'
import type { OpenAIConfig } from '../../config.js'
import type { Usage } from '../types.js'
import { sumUsage } from '../usage.js'
import {
  LlmMisconfiguredError,
  LlmRateLimitedError,
  LlmUnavailableError,
  type AiProviderStatus,
  type LlmMisconfiguration,
} from '../errors.js'
import { CircuitBreaker } from './breaker.js'
import { ProviderPause, type Endpoint, type Misconfiguration, type Pause } from './pause.js'
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

/** How one request goes through the client. */
export interface RunOptions {
  signal?: AbortSignal
  budget?: RetryBudget
  /** Which endpoint it is for (default chat): a pause or a long Retry-After holds one endpoint, not both. */
  endpoint?: Endpoint
  /** A request the caller can split into smaller ones: a timeout is neither retried nor counted by the breaker. */
  splitOnTimeout?: boolean
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
  /** Paused while the provider refuses us in a way no retry fixes (key, model, URL, quota). */
  readonly pause: ProviderPause
  /** Per endpoint: no request before this time (ms since epoch), as the provider asked with a long Retry-After. */
  private readonly holdUntil: Record<Endpoint, number> = { chat: 0, embeddings: 0 }

  constructor(
    readonly cfg: OpenAIConfig,
    /** Told of every failed request, retried ones included (metrics); not of requests their caller aborted. */
    private readonly onFailure?: (kind: LlmErrorKind) => void,
    /**
     * Told when processing pauses for a misconfiguration, when a probe is refused again, and when it resumes (logs).
     */
    events: {
      onPause?(pause: Pause): void
      onProbeRefused?(pause: Pause, nextInMs: number): void
      onResume?(pause: Pause): void
    } = {},
    /** Told once per model and parameter that the model refuses (logs). */
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
    this.breaker = new CircuitBreaker({
      failures: cfg.breakerFailures,
      cooldownMs: cfg.breakerCooldownMs,
      maxCooldownMs: cfg.breakerMaxCooldownMs,
    })
    this.pause = new ProviderPause({
      cooldownMs: cfg.breakerCooldownMs,
      maxCooldownMs: cfg.breakerMaxCooldownMs,
      ...events,
    })
  }

  /** The provider as this process sees it: paused for a misconfiguration, in an outage (circuit open), or ok. */
  status(): AiProviderStatus {
    const pause = this.pause.current
    if (pause)
      return {
        provider: 'openai',
        state: 'misconfigured',
        since: pause.since.toISOString(),
        reason: pause.reason,
        detail: describe(pause),
      }
    if (this.breaker.state !== 'closed') return { provider: 'openai', state: 'unavailable' }
    return { provider: 'openai', state: 'ok' }
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
  ): Promise<{
    content: string | null | undefined
    refusal: string | null | undefined
    finishReason?: string | null
    usage: Usage
  }> {
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
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: req.schemaName, strict: true, schema: req.schema },
              },
            }
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
          return sdk.chat.completions.create(sent as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, {
            signal,
          })
        },
        { signal, budget, splitOnTimeout: req.splitOnTimeout },
      )
      const message = res.choices[0]?.message
      const usage = fromApiUsage(res.usage)
      span?.setAttributes({
        ...usageAttributes(usage),
        'gen_ai.response.model': res.model,
        'profiler.llm.tries': tries,
      })
      return {
        content: message?.content,
        refusal: message?.refusal,
        finishReason: res.choices[0]?.finish_reason,
        usage,
      }
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
    opts: RunOptions = {},
  ): Promise<T> {
    for (;;) {
      let sent = this.params.shape(model, body)
      try {
        return await this.run((sdk) => fn(sdk, (sent = this.params.shape(model, body))), opts)
      } catch (err) {
        if (opts.signal?.aborted || !this.params.learn(model, err, sent)) throw err
      }
    }
  }

  /**
   * One request through the breaker and the pause, retried on outage-like failures within the operation's budget. A
   * refusal no retry fixes (401, 403, 404, quota) pauses the provider (LlmMisconfiguredError); a wait asked by the
   * provider longer than `maxRetryWaitMs` is not waited here (LlmRateLimitedError): the caller defers its work.
   */
  async run<T>(fn: (sdk: OpenAI) => Promise<T>, opts: RunOptions = {}): Promise<T> {
    const budget = opts.budget ?? this.retryBudget()
    const endpoint = opts.endpoint ?? 'chat'
    for (let retry = 0; ; retry++) {
      const held = this.holdUntil[endpoint] - Date.now()
      if (held > 0) throw new LlmRateLimitedError(held)
      const { probe } = this.breaker.admit()
      let paused: { probe?: Endpoint }
      try {
        paused = this.pause.admit(endpoint)
        // A chat request held by a paused embedding model: the probe is a one-word embeddings request of our own.
        if (paused.probe && paused.probe !== endpoint) await this.probeEmbeddings(opts.signal)
      } catch (error) {
        this.breaker.released(probe)
        throw error
      }
      const pauseProbe = paused.probe === endpoint
      await this.slots.acquire()
      let err: unknown
      try {
        const out = await fn(this.sdk)
        this.breaker.succeeded(probe)
        this.pause.answered(pauseProbe)
        return out
      } catch (error) {
        err = error
        // A request its caller aborted (a shutdown, the batch's budget, a client that left) is no failure of the
        // provider.
        if (!opts.signal?.aborted) this.onFailure?.(llmErrorKind(error))
      } finally {
        this.slots.release()
      }
      if (opts.signal?.aborted) {
        this.breaker.released(probe)
        this.pause.released(pauseProbe)
        throw err
      }
      const misconfiguration = misconfigurationOf(err, endpoint, this.cfg)
      if (misconfiguration) {
        // The provider answered: it is up, and refuses us until an operator acts.
        this.breaker.succeeded(probe)
        throw this.pause.refused(misconfiguration, pauseProbe)
      }
      if (!isOutage(err)) {
        // The provider answered (a 4xx about the request): it is up.
        this.breaker.succeeded(probe)
        this.pause.answered(pauseProbe)
        throw err
      }
      if (opts.splitOnTimeout && isTimeout(err)) {
        // A slow but healthy model times out on a large request: the caller splits it, and the breaker (there for
        // outages, shared by everyone) does not count it. A one-submission request that times out still counts.
        this.breaker.released(probe)
        throw err
      }
      this.breaker.failed(probe)
      this.pause.released(pauseProbe, this.cfg.breakerCooldownMs)
      const asked = providerWaitMs(err)
      if (asked !== undefined && asked > this.cfg.maxRetryWaitMs) {
        // Not worth holding a request (and its batch) that long, nor sending anything before then: the work waits.
        this.holdUntil[endpoint] = Math.max(this.holdUntil[endpoint], Date.now() + asked)
        throw new LlmRateLimitedError(asked)
      }
      if (budget.left <= 0) throw err
      budget.left--
      await sleep(asked ?? backoffMs(retry, this.cfg.retryBaseMs), opts.signal)
    }
  }

  /** The probe of a paused embedding model, sent on behalf of a held chat request: resolves once the model answers. */
  private async probeEmbeddings(signal?: AbortSignal): Promise<void> {
    await this.slots.acquire()
    let err: unknown
    try {
      await this.sdk.embeddings.create(
        { model: this.cfg.embeddingModel, input: 'probe', encoding_format: 'float' },
        { signal },
      )
      this.pause.answered(true)
      return
    } catch (error) {
      err = error
      if (!signal?.aborted) this.onFailure?.(llmErrorKind(error))
    } finally {
      this.slots.release()
    }
    const misconfiguration = !signal?.aborted && misconfigurationOf(err, 'embeddings', this.cfg)
    if (misconfiguration) throw this.pause.refused(misconfiguration, true)
    if (signal?.aborted || isOutage(err)) {
      this.pause.released(true, signal?.aborted ? 0 : this.cfg.breakerCooldownMs)
      throw err
    }
    this.pause.answered(true)
  }
}

/** What a pause says in /readyz and the logs: the provider's status and message, and what to check. */
export function describe(misconfiguration: Misconfiguration): string {
  return `${misconfiguration.status} ${misconfiguration.message.slice(0, 300)}: ${misconfiguration.hint}`
}

/**
 * OpenAI's codes of an exhausted quota (429, type insufficient_quota): billing, not a rate limit; waiting does not
 * help.
 */
const QUOTA_CODES = new Set([
  'insufficient_quota',
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'billing_hard_limit_reached',
])

/** The provider's error object (`{"error": {"message", "type", "param", "code"}}`), as the SDK kept it. */
function errorObject(apiError: InstanceType<typeof OpenAI.APIError>): {
  message?: string
  type?: string
  code?: string
} {
  const body = (apiError.error ?? {}) as { message?: unknown; type?: unknown; code?: unknown }
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined)
  return {
    message: str(body.message),
    type: str(apiError.type) ?? str(body.type),
    code: str(apiError.code) ?? str(body.code),
  }
}

/** The misconfiguration a provider's answer reveals (401, 403, 404 or a 400 about the model, 429 quota), if any. */
export function misconfigurationKind(
  error: unknown,
): { reason: LlmMisconfiguration; status: number; message: string; model: boolean } | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status === undefined || error instanceof OpenAI.APIUserAbortError)
    return undefined
  const { message = error.message, type, code } = errorObject(error)
  const status = error.status
  if (status === 401) return { reason: 'unauthorized', status, message, model: false }
  if (status === 403) return { reason: 'forbidden', status, message, model: false }
  // OpenAI answers an unknown model with 404 model_not_found; some servers with 400 and that code, or a 404 naming the
  // model (Ollama: 'model "x" not found, try pulling it first'); a 404 that does not is a wrong URL.
  if (code === 'model_not_found' && (status === 404 || status === 400))
    return { reason: 'not_found', status, message, model: true }
  if (status === 404) return { reason: 'not_found', status, message, model: /\bmodel\b/i.test(message) }
  if (status === 429 && ((code && QUOTA_CODES.has(code)) || type === 'insufficient_quota'))
    return { reason: 'quota', status, message, model: false }
  return undefined
}

function misconfigurationOf(error: unknown, endpoint: Endpoint, cfg: OpenAIConfig): Misconfiguration | undefined {
  const kind = misconfigurationKind(error)
  if (!kind) return undefined
  const model =
    endpoint === 'chat' ? `PROFILER_CHAT_MODEL (${cfg.chatModel})` : `PROFILER_EMBEDDING_MODEL (${cfg.embeddingModel})`
  const hint = {
    unauthorized: 'check OPENAI_API_KEY',
    forbidden: `check that OPENAI_API_KEY may use ${model} (project permissions, region)`,
    not_found: kind.model
      ? `check ${model}`
      : `check PROFILER_OPENAI_BASE_URL (${cfg.baseUrl ?? 'https://api.openai.com/v1'}) and ${model}`,
    quota: "check the provider account's billing, credits and spend limits",
  }[kind.reason]
  return { reason: kind.reason, status: kind.status, message: kind.message, hint, scope: kind.model ? endpoint : 'all' }
}

/** The GenAI semantic conventions' attributes of a request span (`llm.chat`, `llm.embed`). */
export function llmAttributes(operation: 'chat' | 'embeddings', model: string) {
  return { 'gen_ai.operation.name': operation, 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': model }
}

export function usageAttributes(usage: Usage) {
  return { 'gen_ai.usage.input_tokens': usage.promptTokens, 'gen_ai.usage.output_tokens': usage.completionTokens }
}

/** a + b (b may be missing). */
export const addUsage = (a: Usage, b: Usage | undefined): Usage => sumUsage([a, b])!

export function fromApiUsage(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined | null,
): Usage {
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    totalTokens: usage?.total_tokens ?? 0,
  }
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

export type LlmErrorKind =
  | 'timeout'
  | 'connection'
  | 'rate_limited'
  | 'server_error'
  | 'client_error'
  | 'bad_output'
  | 'circuit_open'
  | 'aborted'
  | 'other'
  | LlmMisconfiguration

/** What kind of failure an AI call ended with: a closed set, for metrics. */
export function llmErrorKind(error: unknown, signal?: AbortSignal): LlmErrorKind {
  if (signal?.aborted) return 'aborted'
  if (error instanceof LlmUnavailableError) return 'circuit_open'
  if (error instanceof LlmMisconfiguredError) return error.reason
  if (error instanceof LlmRateLimitedError) return 'rate_limited'
  if (error instanceof LlmOutputError) return 'bad_output'
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timeout'
  if (error instanceof OpenAI.APIConnectionError) return 'connection'
  if (error instanceof OpenAI.APIUserAbortError) return 'aborted'
  if (error instanceof OpenAI.APIError) {
    const kind = misconfigurationKind(error)
    if (kind) return kind.reason
    if (error.status === 429) return 'rate_limited'
    if (error.status === 408) return 'timeout'
    if (error.status === undefined || error.status >= 500) return 'server_error'
    return 'client_error'
  }
  return 'other'
}

/** Failures that say the provider is down or overloaded, not that the request was wrong. */
export function isOutage(error: unknown): boolean {
  // The SDK's abort error is an APIError without a status: without this line it would pass for an outage.
  if (error instanceof OpenAI.APIUserAbortError) return false
  if (error instanceof OpenAI.APIConnectionError) return true // includes timeouts
  if (error instanceof OpenAI.APIError)
    return error.status === undefined || error.status === 429 || error.status === 408 || error.status >= 500
  return false
}

/** The request took too long: our timeout, or the server's or a gateway's (408, 504). */
export function isTimeout(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return true
  return error instanceof OpenAI.APIError && (error.status === 408 || error.status === 504)
}

/**
 * How long the provider asked to wait before the next request, when it said: `retry-after-ms`, `Retry-After` (seconds
 * or an HTTP date), else OpenAI's `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens` (durations such as "1s",
 * "6m0s", "20ms": the time until that limit is back to full) on a 429: the one whose `x-ratelimit-remaining-*` is 0,
 * else the token limit's (a 429 with requests left is about tokens).
 * https://platform.openai.com/docs/guides/rate-limits
 */
export function providerWaitMs(error: unknown, now = Date.now()): number | undefined {
  const headers = error instanceof OpenAI.APIError ? error.headers : undefined
  if (!headers) return undefined
  const get = (name: string) =>
    (headers instanceof Headers ? headers.get(name) : (headers as Record<string, string> | undefined)?.[name]) ?? null
  const ms = Number(get('retry-after-ms'))
  if (get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms
  const after = get('retry-after')?.trim()
  if (after) {
    const seconds = Number(after)
    const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - now
    if (Number.isFinite(wait)) return Math.max(0, wait)
  }
  // OpenAI sends these on every answer: they say why only on a 429 (on a 500 they are no request to wait).
  if ((error as { status?: number }).status !== 429) return undefined
  const reset = (kind: 'requests' | 'tokens') => parseDurationMs(get(`x-ratelimit-reset-${kind}`))
  const empty = (kind: 'requests' | 'tokens') => get(`x-ratelimit-remaining-${kind}`)?.trim() === '0'
  const spent = (['requests', 'tokens'] as const)
    .filter((k) => empty(k) && reset(k) !== undefined)
    .map(reset) as number[]
  if (spent.length) return Math.max(...spent)
  return reset('tokens') ?? reset('requests')
}

/** A Go-style duration ("1h2m3.5s", "6m0s", "20ms", "1s"), or a bare number of seconds; undefined when unreadable. */
export function parseDurationMs(value: string | null | undefined): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 }
  let total = 0
  let rest = text
  while (rest) {
    const match = /^(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/.exec(rest)
    if (!match) return undefined
    total += Number(match[1]) * unit[match[2]!]!
    rest = rest.slice(match[0].length)
  }
  return total
}

/** `baseMs` doubling to 16x, ±25 % jitter. */
export function backoffMs(retry: number, baseMs = 500): number {
  return baseMs * 2 ** Math.min(retry, 4) * (0.75 + Math.random() * 0.5)
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
  })
}

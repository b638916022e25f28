import {
  codeOfStatus,
  errorClassOf,
  ProfilerConnectionError,
  ProfilerError,
  ProfilerTimeoutError,
} from './errors.js'
import type {
  Context,
  ContextInclude,
  ConversationMessage,
  ForgetBody,
  InputType,
  PassagePage,
  Profile,
  ProfileResponse,
  SearchHit,
  SearchPage,
  SearchParams,
  SubmitAck,
  SubmitBody,
} from './types.js'
import { resolveWebSocket, waitForReadyEvent, type WebSocketConstructor } from './subscription.js'

/** Where the client reports what it does (retries, falling back to polling). Any console-like object fits. */
export interface Logger {
  debug?(message: string, ...details: unknown[]): void
  warn?(message: string, ...details: unknown[]): void
}

/** What `onRetry` is told before the client waits and sends a request again. */
export interface RetryInfo {
  method: string
  path: string
  /** 1 for the first retry. */
  attempt: number
  /** The status that is retried (429 or 503), or 0 for a connection failure. */
  status: number
  /** How long the client waits before the retry. */
  delayMs: number
  /** The Retry-After the service sent, in seconds, if any. */
  retryAfterSeconds?: number
  requestId?: string
}

export interface ProfilerClientOptions {
  /** The service's base address, e.g. http://127.0.0.1:8080 (the /v1 and /graphql paths are added). */
  url: string
  /** An app's API key (`pk_…`), sent as `Authorization: Bearer <key>`. */
  apiKey: string
  /** Retries of a request answered 429 or 503 (honouring Retry-After), and of a GET whose connection failed. Default 3. */
  maxRetries?: number
  /** The longest Retry-After worth waiting for; a longer one fails at once with the error (retryAfterSeconds set). Default 60 000. */
  maxRetryDelayMs?: number
  /** Time limit of one HTTP request (each attempt). Default 30 000. */
  timeoutMs?: number
  /**
   * The WebSocket class used by `waitUntilReady` (the `ws` package's, or a browser's). Default: globalThis.WebSocket
   * when there is one, else the `ws` package when installed. `null`: never open a socket (poll instead).
   */
  webSocketImpl?: WebSocketConstructor | null
  /** Called before each retry. */
  onRetry?: (info: RetryInfo) => void
  logger?: Logger
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch
  /** Extra headers sent with every request. */
  headers?: Record<string, string>
}

/** Options every call takes. */
export interface RequestOptions {
  signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number
}

/** What to submit: plain text, a conversation, or a structured partial profile. */
export type SubmitInput =
  | string
  | { text: string }
  | { conversation: ConversationMessage[] | string }
  | { structured: Record<string, unknown> | string }

export interface SubmitOptions extends RequestOptions {
  /** Sent as Idempotency-Key: the same key with the same body within 24 h is accepted once (a different body: 409). */
  idempotencyKey?: string
  /** When it was said or written (a Date, an ISO 8601 date-time with offset, or a date): sent as `occurred_at`. */
  occurredAt?: Date | string
}

export interface WaitOptions {
  /** Give up after this long (ProfilerTimeoutError). Default 60 000. */
  timeoutMs?: number
  signal?: AbortSignal
  /** `auto` (default): the GraphQL subscription, polling when no socket can be used; or only one of them. */
  transport?: 'auto' | 'subscription' | 'polling'
  /** Polling: the first pause between two reads (it grows by half up to 2 s). Default 250. */
  pollIntervalMs?: number
}

export interface ContextOptions extends RequestOptions {
  /** What the conversation is about: matching facts and passages come first. */
  query?: string
  /** Token budget of the text (o200k_base). Default 1000 (the service's). */
  maxTokens?: number
  include?: ContextInclude
}

export interface ForgetOptions extends RequestOptions {}

export type SearchOptions = SearchParams & RequestOptions & {
  /** Stop after this many pages. */
  maxPages?: number
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_RETRIES = 3
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000

/**
 * A client of the Profiler service: submit what people write, read and search the profiles built from it, and get a
 * profile's context for a prompt.
 *
 * ```ts
 * const profiler = new ProfilerClient({ url: 'http://127.0.0.1:8080', apiKey: process.env.PROFILER_API_KEY! })
 * await profiler.submit('alice', 'My name is Alice and I live in Lisbon.')
 * const profile = await profiler.waitUntilReady('alice')
 * ```
 */
export class ProfilerClient {
  readonly url: string
  private readonly opts: ProfilerClientOptions
  private readonly fetchImpl: typeof fetch

  constructor(options: ProfilerClientOptions) {
    if (!options?.url) throw new TypeError('ProfilerClient: url is required')
    if (!options.apiKey) throw new TypeError('ProfilerClient: apiKey is required')
    this.url = options.url.replace(/\/+$/, '')
    this.opts = options
    this.fetchImpl = options.fetch ?? globalThis.fetch
    if (typeof this.fetchImpl !== 'function') throw new TypeError('ProfilerClient: no fetch (Node 18+ has one; or pass options.fetch)')
  }

  /**
   * Submits data for a profile; it is processed in the background (see `waitUntilReady`). A string is text; or
   * `{text}`, `{conversation: [{role, content}]}` (only the `user` turns are evidence about the person) or
   * `{structured: {...}}` (a partial profile, taken as given).
   */
  async submit(profileId: string, input: SubmitInput, options: SubmitOptions = {}): Promise<SubmitAck> {
    const body: SubmitBody = toSubmitBody(input)
    if (options.occurredAt !== undefined) {
      body.occurred_at = options.occurredAt instanceof Date ? options.occurredAt.toISOString() : options.occurredAt
    }
    const headers: Record<string, string> = {}
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey
    return this.request<SubmitAck>('POST', profilePath(profileId), { body, headers, options, idempotent: options.idempotencyKey !== undefined })
  }

  /** The profile (also while it is still processing: `status` says which). Unknown id: ProfilerNotFoundError. */
  async get(profileId: string, options: RequestOptions = {}): Promise<Profile> {
    const r = await this.request<ProfileResponse>('GET', profilePath(profileId), { options, idempotent: true })
    return r.profile
  }

  /**
   * Resolves with the profile once it is `ready` (every submission accepted so far applied). Listens to the GraphQL
   * subscription `profileStatusChanged` over a WebSocket, subscribed before the current state is read so no change is
   * missed; polls GET /v1/profile/{id} instead when no socket can be used.
   */
  async waitUntilReady(profileId: string, options: WaitOptions = {}): Promise<Profile> {
    const timeoutMs = options.timeoutMs ?? 60_000
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = options.signal ? anySignal([options.signal, timeout]) : timeout
    const transport = options.transport ?? 'auto'
    try {
      if (transport !== 'polling') {
        const WebSocketImpl = this.opts.webSocketImpl === null ? undefined : await resolveWebSocket(this.opts.webSocketImpl)
        if (WebSocketImpl) {
          const outcome = await waitForReadyEvent({
            client: this,
            profileId,
            wsUrl: `${this.url.replace(/^http/, 'ws')}/graphql`,
            apiKey: this.opts.apiKey,
            WebSocketImpl,
            signal,
            logger: this.opts.logger,
          })
          if (outcome.profile) return outcome.profile
          if (transport === 'subscription') {
            throw new ProfilerConnectionError({ status: 0, code: 'SUBSCRIPTION_FAILED', message: `waitUntilReady(${profileId}): ${outcome.reason}`, cause: outcome.cause })
          }
          this.opts.logger?.warn?.(`profiler: waitUntilReady(${profileId}): the subscription cannot be used (${outcome.reason}); polling instead`)
        } else if (transport === 'subscription') {
          throw new ProfilerConnectionError({ status: 0, code: 'SUBSCRIPTION_FAILED', message: 'waitUntilReady: no WebSocket implementation (pass webSocketImpl, or install ws)' })
        } else {
          this.opts.logger?.debug?.(`profiler: waitUntilReady(${profileId}): no WebSocket implementation; polling`)
        }
      }
      return await this.pollUntilReady(profileId, signal, options.pollIntervalMs ?? 250)
    } catch (e) {
      if (timeout.aborted && !options.signal?.aborted) {
        throw new ProfilerTimeoutError({ status: 0, code: 'TIMEOUT', message: `waitUntilReady(${profileId}): not ready after ${timeoutMs} ms`, cause: e })
      }
      throw e
    }
  }

  private async pollUntilReady(profileId: string, signal: AbortSignal, firstPauseMs: number): Promise<Profile> {
    this.opts.logger?.debug?.(`profiler: waitUntilReady(${profileId}): polling`)
    let pause = firstPauseMs
    for (;;) {
      const profile = await this.get(profileId, { signal })
      if (profile.status === 'ready') {
        this.opts.logger?.debug?.(`profiler: waitUntilReady(${profileId}): ready (polling)`)
        return profile
      }
      await delay(pause, signal)
      pause = Math.min(2000, Math.round(pause * 1.5))
    }
  }

  /** The profile as compact text for a prompt, within `maxTokens`; facts matching `query` first. */
  async context(profileId: string, options: ContextOptions = {}): Promise<Context> {
    const q = new URLSearchParams()
    if (options.query !== undefined) q.set('query', options.query)
    if (options.maxTokens !== undefined) q.set('max_tokens', String(options.maxTokens))
    if (options.include !== undefined) q.set('include', options.include)
    const qs = q.size ? `?${q}` : ''
    return this.request<Context>('GET', `${profilePath(profileId)}/context${qs}`, { options, idempotent: true })
  }

  /**
   * What the person said (the profile's evidence passages), newest first, a page at a time: pass `next_cursor` as
   * `cursor` for the next page.
   */
  async passages(
    profileId: string,
    params: { limit?: number; cursor?: string; submissionId?: string; includeHidden?: boolean } = {},
    options: RequestOptions = {},
  ): Promise<PassagePage> {
    const q = new URLSearchParams()
    if (params.limit !== undefined) q.set('limit', String(params.limit))
    if (params.cursor !== undefined) q.set('cursor', params.cursor)
    if (params.submissionId !== undefined) q.set('submission_id', params.submissionId)
    if (params.includeHidden !== undefined) q.set('include_hidden', String(params.includeHidden))
    const qs = q.size ? `?${q}` : ''
    return this.request<PassagePage>('GET', `${profilePath(profileId)}/passages${qs}`, { options, idempotent: true })
  }

  /** One page of a search (see `search` to iterate over every page). */
  async searchPage(params: SearchParams = {}, options: RequestOptions = {}): Promise<SearchPage> {
    const q = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, String(v))
    const qs = q.size ? `?${q}` : ''
    return this.request<SearchPage>('GET', `/v1/search${qs}`, { options, idempotent: true })
  }

  /**
   * Searches profiles, page after page: `for await (const page of client.search({query: 'hiking'}))`. Starts at
   * `page` (default 1) and ends after the page that reaches `total`, an empty page, or `maxPages`.
   * `.profiles()` iterates over the profiles of every page instead.
   */
  search(options: SearchOptions = {}): SearchIterator {
    return new SearchIterator(this, options)
  }

  /**
   * Forgets one value: removed from the profile, its summary and embedding; the passages that state it are hidden.
   * Resolves with the profile without it.
   */
  async forget(profileId: string, what: ForgetBody, options: ForgetOptions = {}): Promise<Profile> {
    const r = await this.request<ProfileResponse>('DELETE', `${profilePath(profileId)}/values`, { body: what, options })
    return r.profile
  }

  /** Returns the profile to the state of an earlier history entry (`update_log[].seq`); resolves with the result. */
  async rollback(profileId: string, toSeq: number, options: RequestOptions = {}): Promise<Profile> {
    const r = await this.request<ProfileResponse>('POST', `${profilePath(profileId)}/rollback`, { body: { to_seq: toSeq }, options })
    return r.profile
  }

  /** Deletes the profile, its history and pending submissions. Unknown id: ProfilerNotFoundError. */
  async delete(profileId: string, options: RequestOptions = {}): Promise<void> {
    await this.request<void>('DELETE', profilePath(profileId), { options })
  }

  /**
   * One request to the service, with the API key: JSON in and out, errors thrown as ProfilerError subclasses, 429
   * and 503 retried after their Retry-After (or a backoff), connection failures retried when `idempotent`.
   */
  async request<T>(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; options?: RequestOptions; idempotent?: boolean } = {},
  ): Promise<T> {
    const options = init.options ?? {}
    const maxRetries = options.maxRetries ?? this.opts.maxRetries ?? DEFAULT_MAX_RETRIES
    const maxRetryDelayMs = this.opts.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.opts.headers,
      ...init.headers,
      authorization: `Bearer ${this.opts.apiKey}`,
    }
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const body = init.body === undefined ? undefined : JSON.stringify(init.body)
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = options.signal ? anySignal([options.signal, timeout]) : timeout
      let res: Response
      try {
        res = await this.fetchImpl(`${this.url}${path}`, { method, headers, body, signal })
      } catch (e) {
        if (options.signal?.aborted) throw options.signal.reason ?? e
        const error = timeout.aborted
          ? new ProfilerTimeoutError({ status: 0, code: 'TIMEOUT', message: `${method} ${path}: no answer within ${timeoutMs} ms`, method, path, cause: e })
          : new ProfilerConnectionError({
              status: 0,
              code: 'CONNECTION_FAILED',
              message: `${method} ${path}: cannot reach ${this.url} (${describe(e)})`,
              method,
              path,
              cause: e,
            })
        if (!init.idempotent || timeout.aborted || attempt >= maxRetries) throw error
        const delayMs = backoff(attempt)
        this.retrying({ method, path, attempt: attempt + 1, status: 0, delayMs })
        await delay(delayMs, options.signal)
        continue
      }
      if (res.ok) {
        if (res.status === 204) return undefined as T
        const text = await res.text()
        return (text ? JSON.parse(text) : undefined) as T
      }
      const error = await toError(res, method, path)
      if ((res.status === 429 || res.status === 503) && attempt < maxRetries) {
        const delayMs = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : backoff(attempt)
        if (delayMs <= maxRetryDelayMs) {
          this.retrying({ method, path, attempt: attempt + 1, status: res.status, delayMs, retryAfterSeconds: error.retryAfterSeconds, requestId: error.requestId })
          await delay(delayMs, options.signal)
          continue
        }
      }
      throw error
    }
  }

  private retrying(info: RetryInfo) {
    this.opts.logger?.debug?.(
      `profiler: ${info.method} ${info.path}: ${info.status || 'connection failed'}; retry ${info.attempt} in ${info.delayMs} ms` +
        (info.retryAfterSeconds !== undefined ? ` (Retry-After ${info.retryAfterSeconds})` : ''),
    )
    this.opts.onRetry?.(info)
  }
}

/** The pages of a search, as an async iterator; `.profiles()` flattens them. */
export class SearchIterator implements AsyncIterable<SearchPage> {
  constructor(
    private readonly client: ProfilerClient,
    private readonly options: SearchOptions,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<SearchPage> {
    const { signal, timeoutMs, maxRetries, maxPages, ...params } = this.options
    let page = params.page ?? 1
    for (let n = 0; maxPages === undefined || n < maxPages; n++, page++) {
      const result = await this.client.searchPage({ ...params, page }, { signal, timeoutMs, maxRetries })
      yield result
      if (result.profiles.length === 0 || page * result.pageSize >= result.total) return
    }
  }

  /** Every profile of every page, in order. */
  async *profiles(): AsyncGenerator<SearchHit> {
    for await (const page of this) yield* page.profiles
  }
}

const profilePath = (id: string) => `/v1/profile/${encodeURIComponent(id)}`

function toSubmitBody(input: SubmitInput): SubmitBody {
  if (typeof input === 'string') return { data: input, input_type: 'text' }
  if ('text' in input) return { data: input.text, input_type: 'text' }
  if ('conversation' in input) {
    const c = input.conversation
    return { data: typeof c === 'string' ? c : JSON.stringify(c), input_type: 'conversation' }
  }
  if ('structured' in input) {
    const s = input.structured
    return { data: typeof s === 'string' ? s : JSON.stringify(s), input_type: 'structured' satisfies InputType }
  }
  throw new TypeError('submit: input must be a string, {text}, {conversation} or {structured}')
}

async function toError(res: Response, method: string, path: string): Promise<ProfilerError> {
  const requestId = res.headers.get('x-request-id') ?? undefined
  const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'))
  const text = await res.text().catch(() => '')
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON: kept as text
  }
  const b = body && typeof body === 'object' ? (body as { message?: unknown; code?: unknown }) : undefined
  const message = typeof b?.message === 'string' ? b.message : text || res.statusText || `HTTP ${res.status}`
  const code = typeof b?.code === 'string' ? b.code : codeOfStatus(res.status)
  const Class = errorClassOf(res.status)
  return new Class({
    status: res.status,
    code,
    message: `${method} ${path}: ${res.status} ${message}${requestId ? ` (request ${requestId})` : ''}`,
    requestId,
    retryAfterSeconds,
    body,
    method,
    path,
  })
}

/** Retry-After: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

const backoff = (attempt: number) => Math.round(Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5))

const describe = (e: unknown): string => {
  const cause = (e as { cause?: { code?: string; message?: string } })?.cause
  return cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e))
}

/** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** AbortSignal.any (Node 20.3+), with a fallback for older runtimes. */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as unknown as { any?: (s: AbortSignal[]) => AbortSignal }).any
  if (any) return any(signals)
  const c = new AbortController()
  for (const s of signals) {
    if (s.aborted) {
      c.abort(s.reason)
      break
    }
    s.addEventListener('abort', () => c.abort(s.reason), { once: true })
  }
  return c.signal
}


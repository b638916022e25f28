import { z } from 'zod'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { MAX_EMBEDDING_DIMENSIONS } from './domain/embedding.js'
import { DEFAULT_PROFILE_LIMITS, type ProfileLimits } from './domain/profile-limits.js'

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes')

const otlpProtocol = z.enum(['http/protobuf', 'http/json', 'grpc']).refine((p) => p !== 'grpc', {
  message:
    "grpc is not supported: use http/protobuf (the default) or http/json, on the collector's OTLP/HTTP port (4318)",
})

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def)

/** A comma-separated list whose items pass `ok`. */
const list = (ok: (item: string) => boolean, what: string) =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine((items) => items.every(ok), `a comma-separated list of ${what}`)

function isCidr(c: string): boolean {
  const [addr, bits, extra] = c.split('/')
  if (extra !== undefined || !addr) return false
  const v = net.isIP(addr)
  if (!v) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128))
}

const schema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  PROFILER_SEARCH_DATABASE_URL: z.string().url().optional(),
  PROFILER_DATA_DIR: z.string().min(1).default('./data'),
  PROFILER_BOOTSTRAP: bool.default(true),
  PROFILER_AI: z.enum(['local', 'openai']).default('local'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
  PROFILER_MAX_DATA_BYTES: int(100 * 1024, 1),
  PROFILER_MAX_BODY_BYTES: int(256 * 1024, 1),
  PROFILER_MAX_PAGE_SIZE: int(100, 1, 1000),
  PROFILER_RATE_LIMIT_PER_MINUTE: int(600, 1),
  PROFILER_AUTH_FAILURES_PER_MINUTE: int(30, 1),
  PROFILER_TENANT_CONCURRENCY: int(5, 1, 1000),
  PROFILER_TENANT_QUEUE: int(200, 0, 100_000),
  PROFILER_SHUTDOWN_TIMEOUT_MS: int(20_000, 1000, 600_000),
  PROFILER_WORKER_CONCURRENCY: int(32, 1, 1024),
  PROFILER_WORKER_FETCH: int(16, 1, 1024),
  PROFILER_HNSW_EF_SEARCH: int(100, 1, 1000),
  PROFILER_SEARCH_READ_CHUNK_BYTES: int(1024 * 1024, 1),
  PROFILER_SEARCH_EXACT_TOTAL_MAX: int(5000, 0),
  PROFILER_SEARCH_LEXICAL_EXACT_MAX: int(300, 0, 100_000),
  PROFILER_BATCH_SIZE: int(20, 1, 200),
  PROFILER_REEXTRACT_MAX_SUBMISSIONS: int(200, 1, 10_000),
  PROFILER_SCHEMA_MAX_VERSIONS: int(100, 1, 100_000),
  PROFILER_MAX_ATTEMPTS: int(3, 1, 20),
  PROFILER_LEASE_SECONDS: int(30, 2, 3600),
  PROFILER_RECONCILE_SECONDS: int(10, 1, 3600),
  PROFILER_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(0.5),
  PROFILER_RETRY_BASE_MS: int(1000, 0),
  PROFILER_EXTRACT_DELAY_MS: int(0, 0, 600_000),
  PROFILER_EXTRACT_THREADS: int(Math.max(1, os.availableParallelism() - 1), 0, 64),
  PROFILER_CPU_THREADS: int(1, 0, 64),
  PROFILER_BATCH_TIMEOUT_MS: int(600_000, 100, 24 * 3600 * 1000),
  OPENAI_API_KEY: z.string().optional(),
  PROFILER_OPENAI_BASE_URL: z.string().url().optional(),
  PROFILER_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  PROFILER_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  PROFILER_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(MAX_EMBEDDING_DIMENSIONS).optional(),
  PROFILER_EMBEDDING_CALIBRATION: z.string().optional(),
  PROFILER_EMBEDDING_BASE_URL: z.string().url().optional(),
  PROFILER_EMBEDDING_API_KEY: z.string().optional(),
  PROFILER_LLM_TIMEOUT_MS: int(60_000, 100),
  PROFILER_LLM_MAX_RETRIES: int(3, 0, 10),
  PROFILER_LLM_OUTPUT_RETRIES: int(2, 0, 10),
  PROFILER_LLM_CONCURRENCY: int(4, 1, 256),
  PROFILER_LLM_RETRY_BASE_MS: int(500, 1, 60_000),
  PROFILER_LLM_BREAKER_FAILURES: int(5, 1, 1000),
  PROFILER_LLM_BREAKER_COOLDOWN_MS: int(5000, 10, 3_600_000),
  PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS: int(60_000, 10, 3_600_000),
  PROFILER_LLM_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object', 'none']).default('json_schema'),
  PROFILER_LLM_EXTRA_BODY: z.string().optional(),
  PROFILER_LLM_HEADERS: z.string().optional(),
  PROFILER_LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1024).max(10_000_000).optional(),
  PROFILER_LLM_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(256).max(1_000_000).optional(),
  PROFILER_LLM_MAX_RETRY_WAIT_MS: int(60_000, 0, 3_600_000),
  PROFILER_GRAPHQL_MAX_DEPTH: int(10, 1, 100),
  PROFILER_GRAPHQL_MAX_COST: int(5000, 1),
  PROFILER_GRAPHQL_MAX_ALIASES: int(15, 0, 1000),
  PROFILER_GRAPHQL_MAX_DIRECTIVES: int(50, 0, 1000),
  PROFILER_GRAPHQL_MAX_TOKENS: int(2000, 10),
  PROFILER_GRAPHQL_MAX_SEARCH_BYTES: int(2 * 1024 * 1024, 1024),
  PROFILER_WS_MAX_PAYLOAD_BYTES: int(64 * 1024, 1024),
  PROFILER_WS_MAX_SUBSCRIPTIONS: int(20, 1, 10_000),
  PROFILER_WS_MAX_SUBSCRIPTIONS_PER_SOCKET: int(10, 1, 10_000),
  PROFILER_WS_MAX_SOCKETS: int(20, 1, 100_000),
  PROFILER_WS_AUTH_RECHECK_MS: int(2000, 100, 3_600_000),
  PROFILER_SIGNUP: z
    .enum(['open', 'closed', 'invite', 'true', 'false', '1', '0', 'yes', 'no'])
    .transform((v) =>
      v === 'open' || v === 'closed' || v === 'invite' ? v : ['true', '1', 'yes'].includes(v) ? 'open' : 'closed',
    )
    .default('open'),
  PROFILER_SIGNUP_MAX_PER_ADDRESS: int(5, 1, 1_000_000),
  PROFILER_SIGNUP_WINDOW_MINUTES: int(60, 1, 24 * 60),
  PROFILER_SESSION_HOURS: int(24 * 7, 1, 24 * 365),
  PROFILER_LOGIN_MAX_FAILURES: int(5, 1, 1000),
  PROFILER_LOGIN_WINDOW_MINUTES: int(15, 1, 24 * 60),
  PROFILER_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  PROFILER_METRICS_TOKEN: z.string().min(16, 'at least 16 characters (e.g. openssl rand -hex 32)').optional(),
  PROFILER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PROFILER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  PROFILER_IMPORT_MAX_LINE_BYTES: int(4 * 1024 * 1024, 1024),
  PROFILER_IMPORT_MAX_BYTES: int(1024 * 1024 * 1024, 1),
  PROFILER_PROFILE_MAX_LIST_VALUES: int(DEFAULT_PROFILE_LIMITS.listValues, 1, 1_000_000),
  PROFILER_PROFILE_MAX_CATEGORIES: int(DEFAULT_PROFILE_LIMITS.categories, 1, 100_000),
  PROFILER_PROFILE_MAX_INTERESTS: int(DEFAULT_PROFILE_LIMITS.interests, 1, 1_000_000),
  PROFILER_PROFILE_MAX_MEMORIES: int(DEFAULT_PROFILE_LIMITS.memories, 1, 1_000_000),
  PROFILER_PROFILE_MAX_CUSTOM_VALUES: int(DEFAULT_PROFILE_LIMITS.customValues, 1, 1_000_000),
  PROFILER_PROFILE_MAX_VALUE_CHARS: int(DEFAULT_PROFILE_LIMITS.valueChars, 10, 100_000),
  PROFILER_PROFILE_MAX_BYTES: int(DEFAULT_PROFILE_LIMITS.profileBytes, 1024, 256 * 1024 * 1024),
  PROFILER_PROFILE_MAX_HISTORY: int(DEFAULT_PROFILE_LIMITS.historyEntries, 1, 100_000_000),
  PROFILER_PROFILE_MAX_SNAPSHOTS: int(DEFAULT_PROFILE_LIMITS.snapshots, 1, 1_000_000),
  PROFILER_PASSAGES_PER_SUBMISSION: int(DEFAULT_PROFILE_LIMITS.passagesPerSubmission, 0, 10_000),
  PROFILER_PASSAGES_PER_PROFILE: int(DEFAULT_PROFILE_LIMITS.passagesPerProfile, 0, 10_000_000),
  PROFILER_PROFILE_MAX_PAST_VALUES: int(DEFAULT_PROFILE_LIMITS.pastValues, 0, 1000),
  PROFILER_RETENTION_SWEEP_SECONDS: int(3600, 0, 7 * 24 * 3600),
  PROFILER_RETENTION_BATCH: int(200, 1, 10_000),
  // OpenTelemetry's standard variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/),
  // the part this service honours for traces.
  OTEL_SDK_DISABLED: bool.default(false),
  OTEL_TRACES_EXPORTER: z.string().max(100).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: z.string().optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().min(1).max(600_000).optional(),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: z.coerce.number().int().min(1).max(600_000).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(256).default('profiler'),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  OTEL_TRACES_SAMPLER: z
    .enum([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_BSP_SCHEDULE_DELAY: int(5000, 0, 600_000),
  PROFILER_WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  PROFILER_WEBHOOK_ALLOWED_HOSTS: list((h) => /^[a-z0-9.-]{1,253}$/i.test(h), 'host names'),
  PROFILER_WEBHOOK_ALLOWED_CIDRS: list(isCidr, 'addresses or CIDR ranges (10.0.0.0/8, 127.0.0.1, fd00::/8)'),
  PROFILER_WEBHOOK_TIMEOUT_MS: int(10_000, 100, 120_000),
  PROFILER_WEBHOOK_RETRY_BASE_MS: int(30_000, 1, 3_600_000),
  PROFILER_WEBHOOK_MAX_ATTEMPTS: int(16, 1, 50),
  PROFILER_WEBHOOK_CONCURRENCY: int(8, 1, 256),
  PROFILER_WEBHOOK_POLL_MS: int(1000, 10, 60_000),
  PROFILER_WEBHOOK_SECRET_GRACE_HOURS: int(24, 0, 168),
  PROFILER_WEBHOOK_LOG_DAYS: int(30, 1, 3650),
  PROFILER_WEBHOOK_ENCRYPTION_KEY: z
    .string()
    .min(16, 'at least 16 characters (e.g. openssl rand -base64 32)')
    .optional(),
})

export interface DashboardConfig {
  /**
   * Who may create an account at /dashboard: anyone (`open`), holders of an invite code from `profiler account invite`
   * (`invite`), or nobody (`closed`: accounts come from `profiler account create`).
   */
  signUp: 'open' | 'closed' | 'invite'
  /** Sign-ups per client address within the window (every process together on a server database). */
  signUpMaxPerAddress: number
  signUpWindowMinutes: number
  sessionHours: number
  /** Failed sign-ins per e-mail address within the window before further attempts are refused (x4 per IP). */
  loginMaxFailures: number
  loginWindowMinutes: number
  /** `Secure` on the session cookie: auto = when the request came over HTTPS (directly or per X-Forwarded-Proto). */
  secureCookie: 'auto' | 'true' | 'false'
}

export interface WebhookConfig {
  /** SSRF policy: private, loopback and link-local targets only when allowed here. */
  allowPrivate: boolean
  allowedHosts: string[]
  allowedCidrs: string[]
  timeoutMs: number
  /** First retry delay; doubling up to 512x (src/domain/webhooks.ts). */
  retryBaseMs: number
  maxAttempts: number
  concurrency: number
  pollMs: number
  /** How long a rotated-out secret still signs. */
  secretGraceSeconds: number
  logDays: number
  /** Encrypts signing secrets at rest. */
  encryptionKey?: string
}

export type Config = {
  port: number
  host: string
  databaseUrl?: string
  dataDir: string
  bootstrap: boolean
  ai: 'local' | 'openai'
  logLevel: string
  production: boolean
  limits: {
    maxDataBytes: number
    maxBodyBytes: number
    maxPageSize: number
    /** Operations per minute per API key (REST requests and GraphQL root fields, every transport). */
    ratePerMinute: number
    /** Failed authentications per minute per client address. */
    authFailuresPerMinute: number
    /** Service calls of one tenant running at once per process, and how many may wait. */
    tenantConcurrency: number
    tenantQueue: number
  }
  /** How long a SIGTERM/SIGINT may take before the process exits anyway. */
  shutdownTimeoutMs: number
  graphql: GraphQLLimits
  dashboard: DashboardConfig
  metrics: {
    /** Bearer token that opens GET /metrics on the API port; without it that path is 404. */
    token?: string
    /** A separate HTTP server for /metrics (no auth), in every role; 0 = any free port. */
    port?: number
    host: string
  }
  webhooks: WebhookConfig
  openai: OpenAIConfig
  search: {
    /** HNSW candidate list size of a semantic search (pgvector's hnsw.ef_search): recall against speed. */
    efSearch: number
    /**
     * A read replica (hot standby) of DATABASE_URL for search statements only (GET /v1/search, the `search` query), or
     * undefined: search on the primary. Search then lags the primary by the replica's replay delay.
     */
    databaseUrl?: string
    /** Content a search reads in one statement at most (its page's profiles are read in chunks; a larger profile alone). */
    readChunkBytes: number
    /**
     * A semantic search with more candidates than this (the tenant's profiles that pass the filter) estimates its total
     * from a sample instead of measuring every candidate's distance (README "Search totals").
     */
    exactTotalMax: number
    /**
     * Up to how many lexical matches a hybrid search measures the distance of each; beyond, the nearest of them come from
     * the HNSW index filtered to the matches (hybridSearchSql).
     */
    lexicalExactMax: number
  }
  tracing: TracingConfig
  worker: {
    /** Profiles in flight at once in a worker process. */
    concurrency: number
    /** Jobs taken from the queue at once: a round, claimed, extracted and applied together. */
    roundSize: number
    batchSize: number
    maxAttempts: number
    leaseSeconds: number
    reconcileSeconds: number
    pollSeconds: number
    retryBaseMs: number
    /** Fault injection for tests and demos: extra time spent in every extraction. */
    extractDelayMs: number
    /** Worker threads for the local extractor (0: on the main thread). */
    extractThreads: number
    /** Worker threads for merges and contexts (0: on the main thread). */
    cpuThreads: number
    /** How long one batch (extraction, merge, summary, embedding) may take before it is stopped and counts as an attempt. */
    batchTimeoutMs: number
    /** Applied submissions one re-extraction replays at most (README "Re-extraction"); more is refused. */
    reextractMaxSubmissions: number
  }
  /** The size of a profile (README "Profile limits"), enforced on every path that writes one. */
  profiles: ProfileLimits
  /** POST /v1/import (and `profiler import`): the longest line, and the whole file, in bytes. */
  imports: { maxLineBytes: number; maxBytes: number }
  /** Custom profile schemas: versions kept per app, the current one among them (older ones are deleted). */
  customSchemas: { maxVersions: number }
  /** The worker's retention sweep (per-app policies): every `sweepSeconds` (0: never), `batch` rows per statement. */
  retention: { sweepSeconds: number; batch: number }
}

/**
 * OpenTelemetry tracing, from the standard OTEL_* variables. Off unless an OTLP endpoint is given or
 * OTEL_TRACES_EXPORTER names an exporter; when off, the SDK is not even loaded.
 */
export interface TracingConfig {
  enabled: boolean
  exporter: 'otlp' | 'console'
  serviceName: string
  /** OTEL_RESOURCE_ATTRIBUTES, parsed. */
  resourceAttributes: Record<string, string>
  otlp: {
    /** The traces URL: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
    url: string
    protocol: 'http/protobuf' | 'http/json'
    headers: Record<string, string>
    timeoutMs: number
  }
  sampler: { name: string; ratio: number }
  /** How long finished spans wait to be sent in a batch. */
  scheduleDelayMs: number
}

export interface GraphQLLimits {
  maxDepth: number
  maxCost: number
  maxAliases: number
  maxDirectives: number
  maxTokens: number
  /** Content bytes that the searchProfiles pages of one operation hold at most (a GraphQL answer is built whole). */
  maxSearchBytes: number
  wsMaxPayloadBytes: number
  /** Concurrent subscriptions per API key (per process). */
  wsMaxSubscriptions: number
  wsMaxSubscriptionsPerSocket: number
  /** Open WebSockets per API key or dashboard session (per process). */
  wsMaxSockets: number
  /** How often an open WebSocket re-checks its key, so a revoked key's subscriptions end. */
  wsAuthRecheckMs: number
}

export interface OpenAIConfig {
  apiKey?: string
  /** Only from operator configuration; undefined = the SDK's default (api.openai.com). */
  baseUrl?: string
  chatModel: string
  embeddingModel: string
  /** Requested embedding size (models that support it); default: the model's native size. */
  embeddingDimensions?: number
  /** "cos:score,cos:score,..." overriding the built-in calibration of the embedding model. */
  embeddingCalibration?: string
  /**
   * Embeddings from another OpenAI-compatible server than the chat (DeepSeek and Groq have no embeddings API), with
   * its own key (default OPENAI_API_KEY). PROFILER_LLM_HEADERS are not sent there.
   */
  embeddingBaseUrl?: string
  embeddingApiKey?: string
  timeoutMs: number
  /** SDK retries of 429 (honouring Retry-After), 5xx and timeouts, with exponential backoff and jitter. */
  maxRetries: number
  /** Extra requests when the model's output is malformed or breaks the schema. */
  outputRetries: number
  /** Concurrent LLM requests per process. */
  concurrency: number
  /** First retry delay of a failed request (doubling, at most 16x), unless the provider sent Retry-After. */
  retryBaseMs: number
  /** Consecutive outage failures that open the provider's circuit breaker, and its cool-downs. */
  breakerFailures: number
  breakerCooldownMs: number
  breakerMaxCooldownMs: number
  /**
   * How the output schema reaches the model: `json_schema` (strict structured outputs), `json_object` (JSON mode, the
   * schema written into the prompt) or `none` (no response_format; the schema in the prompt). The answer is validated
   * the same way in every mode.
   */
  responseFormat: 'json_schema' | 'json_object' | 'none'
  /** Merged into every chat request's body (provider-specific fields, e.g. OpenRouter's `provider`). */
  extraBody: Record<string, unknown>
  /** Sent with every request, chat and embeddings (e.g. Azure's `api-key`, OpenRouter's `HTTP-Referer`). Never logged. */
  headers: Record<string, string>
  /**
   * The chat model's context window in tokens (prompt + output); undefined: the model family's documented window
   * (src/ai/openai/tokens.ts), 8,192 for a model Profiler does not know.
   */
  contextTokens?: number
  /** The output cap sent with every chat request (`max_completion_tokens`); undefined: the model family's default. */
  maxOutputTokens?: number
  /** Longest wait the provider may ask for (Retry-After, x-ratelimit-reset-*) that a request waits out; a longer one defers the work. */
  maxRetryWaitMs: number
}

export class ConfigError extends Error {}

/** `key=value,key2=value2` (values percent-encoded), the format of OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES. */
export function parseKeyValues(
  name: string,
  spec: string | undefined,
  opts: { secret?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = {}
  if (!spec) return out
  for (const [i, pair] of spec.split(',').entries()) {
    if (!pair.trim()) continue
    const eq = pair.indexOf('=')
    const key = eq < 0 ? '' : pair.slice(0, eq).trim()
    // A secret's text is never echoed (a header written `api-key: <key>` would be).
    if (!key)
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: ${opts.secret ? `item ${i + 1}` : `'${pair.slice(0, 40)}'`} is not key=value`,
      )
    try {
      out[key] = decodeURIComponent(pair.slice(eq + 1).trim())
    } catch {
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: the value of ${key.slice(0, 40)} is not valid percent-encoding`,
      )
    }
  }
  return out
}

/** PROFILER_LLM_EXTRA_BODY: a JSON object (its fields are merged into every chat request's body). */
function parseExtraBody(spec: string | undefined): Record<string, unknown> {
  if (!spec) return {}
  let v: unknown
  try {
    v = JSON.parse(spec)
  } catch (e) {
    throw new ConfigError(
      `Invalid configuration:\n  PROFILER_LLM_EXTRA_BODY: not JSON (${(e as Error).message.slice(0, 120)}); expected an object such as {"provider":{"require_parameters":true}}`,
    )
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new ConfigError(
      'Invalid configuration:\n  PROFILER_LLM_EXTRA_BODY: must be a JSON object, such as {"provider":{"require_parameters":true}}',
    )
  }
  const reserved = ['model', 'messages', 'stream'].filter((k) => k in (v as object))
  if (reserved.length) {
    throw new ConfigError(
      `Invalid configuration:\n  PROFILER_LLM_EXTRA_BODY: ${reserved.join(', ')} cannot be set here (use PROFILER_CHAT_MODEL for the model)`,
    )
  }
  return v as Record<string, unknown>
}

/** PROFILER_LLM_HEADERS: `name=value,...` like OTEL_EXPORTER_OTLP_HEADERS, with valid HTTP header names. */
function parseHeaders(spec: string | undefined): Record<string, string> {
  const headers = parseKeyValues('PROFILER_LLM_HEADERS', spec, { secret: true })
  for (const name of Object.keys(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new ConfigError(
        `Invalid configuration:\n  PROFILER_LLM_HEADERS: '${name.slice(0, 40)}' is not a valid header name`,
      )
    }
    if (/[\r\n\0]/.test(headers[name]!))
      throw new ConfigError(`Invalid configuration:\n  PROFILER_LLM_HEADERS: the value of ${name} holds a line break`)
  }
  return headers
}

function tracingConfig(e: z.infer<typeof schema>): TracingConfig {
  const exporters = (e.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
  const unknown = exporters.filter((x) => !['otlp', 'console', 'none'].includes(x))
  if (unknown.length) {
    throw new ConfigError(
      `Invalid configuration:\n  OTEL_TRACES_EXPORTER: '${unknown[0]!.slice(0, 40)}' is not supported (otlp, console or none)`,
    )
  }
  const endpoint =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT ? e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/*$/, '/v1/traces') : undefined)
  // Off by default (unlike the SDK's own default of otlp): on with an endpoint, or with an exporter named.
  const exporter =
    exporters.includes('otlp') || (!exporters.length && endpoint)
      ? 'otlp'
      : exporters.includes('console')
        ? 'console'
        : undefined
  const sampler = e.OTEL_TRACES_SAMPLER
  return {
    enabled: !e.OTEL_SDK_DISABLED && !exporters.includes('none') && exporter !== undefined,
    exporter: exporter ?? 'otlp',
    serviceName: e.OTEL_SERVICE_NAME,
    resourceAttributes: parseKeyValues('OTEL_RESOURCE_ATTRIBUTES', e.OTEL_RESOURCE_ATTRIBUTES),
    otlp: {
      url: endpoint ?? 'http://localhost:4318/v1/traces',
      protocol: e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
      headers: {
        ...parseKeyValues('OTEL_EXPORTER_OTLP_HEADERS', e.OTEL_EXPORTER_OTLP_HEADERS),
        ...parseKeyValues('OTEL_EXPORTER_OTLP_TRACES_HEADERS', e.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
      },
      timeoutMs: e.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? e.OTEL_EXPORTER_OTLP_TIMEOUT ?? 10_000,
    },
    sampler: { name: sampler, ratio: e.OTEL_TRACES_SAMPLER_ARG ?? 1 },
    scheduleDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
  }
}

/** Environment -> typed config. The only place that reads process.env (through the argument). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = schema.safeParse(clean)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if (e.PROFILER_AI === 'openai' && !e.OPENAI_API_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  OPENAI_API_KEY: required when PROFILER_AI=openai (any value for servers that need none, e.g. Ollama)',
    )
  }
  if (
    e.PROFILER_LLM_CONTEXT_TOKENS &&
    e.PROFILER_LLM_MAX_OUTPUT_TOKENS &&
    e.PROFILER_LLM_MAX_OUTPUT_TOKENS > e.PROFILER_LLM_CONTEXT_TOKENS / 2
  ) {
    throw new ConfigError(
      `Invalid configuration:\n  PROFILER_LLM_MAX_OUTPUT_TOKENS: ${e.PROFILER_LLM_MAX_OUTPUT_TOKENS} leaves too little of PROFILER_LLM_CONTEXT_TOKENS (${e.PROFILER_LLM_CONTEXT_TOKENS}) for the prompt; at most half of it`,
    )
  }
  if (e.PROFILER_SEARCH_DATABASE_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  PROFILER_SEARCH_DATABASE_URL: a read replica of the server in DATABASE_URL; the embedded database has none',
    )
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.PROFILER_DATA_DIR),
    bootstrap: e.PROFILER_BOOTSTRAP,
    ai: e.PROFILER_AI,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    limits: {
      maxDataBytes: e.PROFILER_MAX_DATA_BYTES,
      maxBodyBytes: e.PROFILER_MAX_BODY_BYTES,
      maxPageSize: e.PROFILER_MAX_PAGE_SIZE,
      ratePerMinute: e.PROFILER_RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: e.PROFILER_AUTH_FAILURES_PER_MINUTE,
      tenantConcurrency: e.PROFILER_TENANT_CONCURRENCY,
      tenantQueue: e.PROFILER_TENANT_QUEUE,
    },
    shutdownTimeoutMs: e.PROFILER_SHUTDOWN_TIMEOUT_MS,
    dashboard: {
      signUp: e.PROFILER_SIGNUP,
      signUpMaxPerAddress: e.PROFILER_SIGNUP_MAX_PER_ADDRESS,
      signUpWindowMinutes: e.PROFILER_SIGNUP_WINDOW_MINUTES,
      sessionHours: e.PROFILER_SESSION_HOURS,
      loginMaxFailures: e.PROFILER_LOGIN_MAX_FAILURES,
      loginWindowMinutes: e.PROFILER_LOGIN_WINDOW_MINUTES,
      secureCookie: e.PROFILER_COOKIE_SECURE,
    },
    webhooks: {
      allowPrivate: e.PROFILER_WEBHOOK_ALLOW_PRIVATE,
      allowedHosts: e.PROFILER_WEBHOOK_ALLOWED_HOSTS.map((h) => h.toLowerCase()),
      allowedCidrs: e.PROFILER_WEBHOOK_ALLOWED_CIDRS,
      timeoutMs: e.PROFILER_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.PROFILER_WEBHOOK_RETRY_BASE_MS,
      maxAttempts: e.PROFILER_WEBHOOK_MAX_ATTEMPTS,
      concurrency: e.PROFILER_WEBHOOK_CONCURRENCY,
      pollMs: e.PROFILER_WEBHOOK_POLL_MS,
      secretGraceSeconds: e.PROFILER_WEBHOOK_SECRET_GRACE_HOURS * 3600,
      logDays: e.PROFILER_WEBHOOK_LOG_DAYS,
      encryptionKey: e.PROFILER_WEBHOOK_ENCRYPTION_KEY,
    },
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.PROFILER_OPENAI_BASE_URL,
      chatModel: e.PROFILER_CHAT_MODEL,
      embeddingModel: e.PROFILER_EMBEDDING_MODEL,
      embeddingDimensions: e.PROFILER_EMBEDDING_DIMENSIONS,
      embeddingCalibration: e.PROFILER_EMBEDDING_CALIBRATION,
      embeddingBaseUrl: e.PROFILER_EMBEDDING_BASE_URL,
      embeddingApiKey: e.PROFILER_EMBEDDING_API_KEY,
      timeoutMs: e.PROFILER_LLM_TIMEOUT_MS,
      maxRetries: e.PROFILER_LLM_MAX_RETRIES,
      outputRetries: e.PROFILER_LLM_OUTPUT_RETRIES,
      concurrency: e.PROFILER_LLM_CONCURRENCY,
      retryBaseMs: e.PROFILER_LLM_RETRY_BASE_MS,
      breakerFailures: e.PROFILER_LLM_BREAKER_FAILURES,
      breakerCooldownMs: e.PROFILER_LLM_BREAKER_COOLDOWN_MS,
      breakerMaxCooldownMs: Math.max(e.PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS, e.PROFILER_LLM_BREAKER_COOLDOWN_MS),
      responseFormat: e.PROFILER_LLM_RESPONSE_FORMAT,
      extraBody: parseExtraBody(e.PROFILER_LLM_EXTRA_BODY),
      headers: parseHeaders(e.PROFILER_LLM_HEADERS),
      contextTokens: e.PROFILER_LLM_CONTEXT_TOKENS,
      maxOutputTokens: e.PROFILER_LLM_MAX_OUTPUT_TOKENS,
      maxRetryWaitMs: e.PROFILER_LLM_MAX_RETRY_WAIT_MS,
    },
    graphql: {
      maxDepth: e.PROFILER_GRAPHQL_MAX_DEPTH,
      maxCost: e.PROFILER_GRAPHQL_MAX_COST,
      maxAliases: e.PROFILER_GRAPHQL_MAX_ALIASES,
      maxDirectives: e.PROFILER_GRAPHQL_MAX_DIRECTIVES,
      maxTokens: e.PROFILER_GRAPHQL_MAX_TOKENS,
      maxSearchBytes: e.PROFILER_GRAPHQL_MAX_SEARCH_BYTES,
      wsMaxPayloadBytes: e.PROFILER_WS_MAX_PAYLOAD_BYTES,
      wsMaxSubscriptions: e.PROFILER_WS_MAX_SUBSCRIPTIONS,
      wsMaxSubscriptionsPerSocket: e.PROFILER_WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
      wsMaxSockets: e.PROFILER_WS_MAX_SOCKETS,
      wsAuthRecheckMs: e.PROFILER_WS_AUTH_RECHECK_MS,
    },
    search: {
      efSearch: e.PROFILER_HNSW_EF_SEARCH,
      databaseUrl: e.PROFILER_SEARCH_DATABASE_URL,
      readChunkBytes: e.PROFILER_SEARCH_READ_CHUNK_BYTES,
      exactTotalMax: e.PROFILER_SEARCH_EXACT_TOTAL_MAX,
      lexicalExactMax: e.PROFILER_SEARCH_LEXICAL_EXACT_MAX,
    },
    metrics: { token: e.PROFILER_METRICS_TOKEN, port: e.PROFILER_METRICS_PORT, host: e.PROFILER_METRICS_HOST },
    tracing: tracingConfig(e),
    worker: {
      concurrency: e.PROFILER_WORKER_CONCURRENCY,
      roundSize: e.PROFILER_WORKER_FETCH,
      batchSize: e.PROFILER_BATCH_SIZE,
      maxAttempts: e.PROFILER_MAX_ATTEMPTS,
      leaseSeconds: e.PROFILER_LEASE_SECONDS,
      reconcileSeconds: e.PROFILER_RECONCILE_SECONDS,
      pollSeconds: e.PROFILER_POLL_SECONDS,
      retryBaseMs: e.PROFILER_RETRY_BASE_MS,
      extractDelayMs: e.PROFILER_EXTRACT_DELAY_MS,
      extractThreads: e.PROFILER_EXTRACT_THREADS,
      cpuThreads: e.PROFILER_CPU_THREADS,
      batchTimeoutMs: e.PROFILER_BATCH_TIMEOUT_MS,
      reextractMaxSubmissions: e.PROFILER_REEXTRACT_MAX_SUBMISSIONS,
    },
    profiles: {
      listValues: e.PROFILER_PROFILE_MAX_LIST_VALUES,
      categories: e.PROFILER_PROFILE_MAX_CATEGORIES,
      interests: e.PROFILER_PROFILE_MAX_INTERESTS,
      memories: e.PROFILER_PROFILE_MAX_MEMORIES,
      customValues: e.PROFILER_PROFILE_MAX_CUSTOM_VALUES,
      valueChars: e.PROFILER_PROFILE_MAX_VALUE_CHARS,
      profileBytes: e.PROFILER_PROFILE_MAX_BYTES,
      historyEntries: e.PROFILER_PROFILE_MAX_HISTORY,
      snapshots: e.PROFILER_PROFILE_MAX_SNAPSHOTS,
      passagesPerSubmission: e.PROFILER_PASSAGES_PER_SUBMISSION,
      passagesPerProfile: e.PROFILER_PASSAGES_PER_PROFILE,
      pastValues: e.PROFILER_PROFILE_MAX_PAST_VALUES,
    },
    imports: { maxLineBytes: e.PROFILER_IMPORT_MAX_LINE_BYTES, maxBytes: e.PROFILER_IMPORT_MAX_BYTES },
    customSchemas: { maxVersions: e.PROFILER_SCHEMA_MAX_VERSIONS },
    retention: { sweepSeconds: e.PROFILER_RETENTION_SWEEP_SECONDS, batch: e.PROFILER_RETENTION_BATCH },
  }
}

// Every setting of the service, declared once: its environment variable, type, default and meaning. The typed
// configuration (src/config.ts), its loader and docs/operations/configuration.md all derive from this registry.
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { MAX_EMBEDDING_DIMENSIONS } from './domain/embedding.js'
import { DEFAULT_PROFILE_LIMITS } from './domain/profile-limits.js'

/** How a setting is read: its schema, and how its type and default read in the configuration reference. */
export interface SettingType<T> {
  schema: z.ZodType<T>
  /** The type as the reference shows it ("integer 1-100", "`local` or `openai`"). */
  shownType: string
  /** The default as the reference shows it; undefined when the setting has none. */
  shownDefault?: string
}

export interface Setting<T> extends SettingType<T> {
  env: string
  description: string
}

const BOOLEAN_WORDS = ['true', 'false', '1', '0', 'yes', 'no'] as const

function boolean(defaultValue: boolean): SettingType<boolean> {
  const schema = z
    .enum(BOOLEAN_WORDS)
    .transform((word) => word === 'true' || word === '1' || word === 'yes')
    .default(defaultValue)
  return { schema, shownType: 'boolean', shownDefault: `\`${defaultValue}\`` }
}

function integer(defaultValue: number, min = 0, max = Number.MAX_SAFE_INTEGER, shown?: string): SettingType<number> {
  const schema = z.coerce.number().int().min(min).max(max).default(defaultValue)
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min}-${max}`
  return { schema, shownType: `integer, ${range}`, shownDefault: shown ?? `\`${defaultValue}\`` }
}

function optionalInteger(min: number, max: number, shownDefault: string): SettingType<number | undefined> {
  return {
    schema: z.coerce.number().int().min(min).max(max).optional(),
    shownType: `integer, ${min}-${max}`,
    shownDefault,
  }
}

function decimal(defaultValue: number, min: number, max: number): SettingType<number> {
  const schema = z.coerce.number().min(min).max(max).default(defaultValue)
  return { schema, shownType: `number, ${min}-${max}`, shownDefault: `\`${defaultValue}\`` }
}

function text(defaultValue: string): SettingType<string> {
  return { schema: z.string().min(1).default(defaultValue), shownType: 'string', shownDefault: `\`${defaultValue}\`` }
}

function optionalText(shownDefault?: string): SettingType<string | undefined> {
  return { schema: z.string().optional(), shownType: 'string', shownDefault }
}

function url(shownDefault?: string): SettingType<string | undefined> {
  return { schema: z.string().url().optional(), shownType: 'URL', shownDefault }
}

function oneOf<const Values extends readonly [string, ...string[]]>(
  values: Values,
  defaultValue: Values[number],
): SettingType<Values[number]> {
  const shownType = values.map((value) => `\`${value}\``).join(', ')
  return {
    schema: z.enum(values).default(defaultValue) as z.ZodType<Values[number]>,
    shownType,
    shownDefault: `\`${defaultValue}\``,
  }
}

function secret(minChars: number, hint: string): SettingType<string | undefined> {
  const schema = z.string().min(minChars, `at least ${minChars} characters (e.g. ${hint})`).optional()
  return { schema, shownType: `secret, at least ${minChars} characters` }
}

/** A comma-separated list whose items pass `accepts`. */
function list(accepts: (item: string) => boolean, what: string): SettingType<string[]> {
  const schema = z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((items) => items.every(accepts), `a comma-separated list of ${what}`)
  return { schema, shownType: `comma-separated ${what}` }
}

function isCidr(range: string): boolean {
  const [address, bits, extra] = range.split('/')
  if (extra !== undefined || !address) return false
  const version = net.isIP(address)
  if (!version) return false
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128))
}

/**
 * proxy-addr's names for address ranges: loopback (127.0.0.1/8, ::1), linklocal (169.254.0.0/16, fe80::/10),
 * uniquelocal (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7).
 */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/**
 * PROFILER_TRUST_PROXY: off (empty or `false`), or the proxies whose X-Forwarded-For is believed, as addresses, CIDR
 * ranges or range names. Never a hop count or `true`: those believe whatever connects directly, so any client could
 * name its own address (Fastify itself no longer honours a hop count for that reason).
 */
const trustedProxies: SettingType<string[]> = {
  schema: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const text = value.trim()
      if (text === '' || text.toLowerCase() === 'false') return []
      if (/^(true|\d+)$/i.test(text)) {
        const message =
          `'${text}' would believe any client's X-Forwarded-For: ` +
          "name the proxies' addresses or CIDR ranges (e.g. 10.0.0.5, 172.16.0.0/12, uniquelocal)"
        ctx.addIssue({ code: 'custom', message })
        return z.NEVER
      }
      const items = text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
      const bad = items.find((item) => !PROXY_RANGE_NAMES.includes(item) && !(isCidr(item) && !/\/0+$/.test(item)))
      if (bad !== undefined) {
        const names = PROXY_RANGE_NAMES.join(', ')
        ctx.addIssue({
          code: 'custom',
          message: `'${bad.slice(0, 60)}' is not an address, a CIDR range (not /0) or one of ${names}`,
        })
        return z.NEVER
      }
      return items
    }),
  shownType: 'comma-separated addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`',
  shownDefault: '(none: off)',
}

const otlpProtocol: SettingType<'http/protobuf' | 'http/json' | undefined> = {
  schema: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .refine((protocol) => protocol !== 'grpc', {
      message:
        "grpc is not supported: use http/protobuf (the default) or http/json, on the collector's OTLP/HTTP port (4318)",
    })
    .optional() as z.ZodType<'http/protobuf' | 'http/json' | undefined>,
  shownType: '`http/protobuf`, `http/json`',
  shownDefault: '`http/protobuf`',
}

/** `key=value,key2=value2` (values percent-encoded), as in OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES. */
export function parseKeyValues(spec: string | undefined, opts: { secret?: boolean } = {}): Record<string, string> {
  const pairs: Record<string, string> = {}
  if (!spec) return pairs
  for (const [index, pair] of spec.split(',').entries()) {
    if (!pair.trim()) continue
    const equals = pair.indexOf('=')
    const key = equals < 0 ? '' : pair.slice(0, equals).trim()
    // A secret's text is never echoed (a header written `api-key: <key>` would be).
    if (!key) throw new Error(`${opts.secret ? `item ${index + 1}` : `'${pair.slice(0, 40)}'`} is not key=value`)
    try {
      pairs[key] = decodeURIComponent(pair.slice(equals + 1).trim())
    } catch {
      throw new Error(`the value of ${key.slice(0, 40)} is not valid percent-encoding`)
    }
  }
  return pairs
}

/** PROFILER_LLM_EXTRA_BODY: a JSON object whose fields are merged into every chat request's body. */
function parseExtraBody(spec: string | undefined): Record<string, unknown> {
  if (!spec) return {}
  const example = 'an object such as {"provider":{"require_parameters":true}}'
  let body: unknown
  try {
    body = JSON.parse(spec)
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message.slice(0, 120)}); expected ${example}`)
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error(`must be a JSON object, ${example}`)
  const reserved = ['model', 'messages', 'stream'].filter((key) => key in (body as object))
  if (reserved.length) {
    throw new Error(`${reserved.join(', ')} cannot be set here (use PROFILER_CHAT_MODEL for the model)`)
  }
  return body as Record<string, unknown>
}

/** PROFILER_LLM_HEADERS: `name=value,...` like OTEL_EXPORTER_OTLP_HEADERS, with valid HTTP header names. */
function parseHeaders(spec: string | undefined): Record<string, string> {
  const headers = parseKeyValues(spec, { secret: true })
  for (const name of Object.keys(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new Error(`'${name.slice(0, 40)}' is not a valid header name`)
    if (/[\r\n\0]/.test(headers[name]!)) throw new Error(`the value of ${name} holds a line break`)
  }
  return headers
}

/** A zod transform that parses with `parse`, reporting what it throws as the setting's issue. */
function parsedBy<T>(parse: (spec: string | undefined) => T) {
  return (spec: string | undefined, ctx: z.RefinementCtx): T => {
    try {
      return parse(spec)
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message })
      return z.NEVER
    }
  }
}

function setting<T>(env: string, type: SettingType<T>, description: string): Setting<T> {
  return { env, description, ...type }
}

const limits = DEFAULT_PROFILE_LIMITS

/**
 * The registry. Its shape is the configuration's shape: each leaf becomes a field of the typed config, with the
 * value its schema gives. The first key of a leaf's path is its group in the reference.
 */
export const SETTINGS = {
  port: setting('PORT', integer(8080, 0, 65535), 'HTTP port (`0`: any free port).'),
  host: setting('HOST', text('127.0.0.1'), 'Interface to listen on (`0.0.0.0` in containers).'),
  dataDir: setting(
    'PROFILER_DATA_DIR',
    {
      ...text('./data'),
      schema: z
        .string()
        .min(1)
        .default('./data')
        .transform((dir) => path.resolve(dir)),
    },
    'Directory of the embedded database files and of `bootstrap-key`.',
  ),
  bootstrap: setting(
    'PROFILER_BOOTSTRAP',
    boolean(true),
    'On first start, create tenant and app `default` and print its key once.',
  ),
  ai: setting(
    'PROFILER_AI',
    oneOf(['local', 'openai'], 'local'),
    'AI provider: `local` (offline) or `openai` (any OpenAI-compatible API).',
  ),
  logLevel: setting(
    'LOG_LEVEL',
    oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    'Level of the structured log.',
  ),
  production: setting(
    'NODE_ENV',
    {
      schema: z
        .string()
        .default('development')
        .transform((env) => env === 'production'),
      shownType: 'string',
      shownDefault: '`development`',
    },
    '`production` turns GraphQL introspection off.',
  ),
  shutdownTimeoutMs: setting(
    'PROFILER_SHUTDOWN_TIMEOUT_MS',
    integer(20_000, 1000, 600_000),
    'On SIGTERM or SIGINT the process exits within this many ms; batches in flight get half of it, then hand ' +
      'their work back.',
  ),
  databaseUrl: setting(
    'DATABASE_URL',
    url('(none: embedded)'),
    'PostgreSQL server (13 or later, with pgvector 0.7 or later); without it the embedded database is used.',
  ),
  limits: {
    maxDataBytes: setting(
      'PROFILER_MAX_DATA_BYTES',
      integer(100 * 1024, 1),
      "Largest UTF-8 size of `data`, and of an imported submission's text.",
    ),
    maxBodyBytes: setting(
      'PROFILER_MAX_BODY_BYTES',
      integer(256 * 1024, 1),
      "Largest request body; also what one rate-limit operation of an import reads, and of a search page's " +
        'content beyond the first.',
    ),
    maxPageSize: setting(
      'PROFILER_MAX_PAGE_SIZE',
      integer(100, 1, 1000),
      'Largest `pageSize` of a search, and `limit` of a passage list.',
    ),
    contextScanPassages: setting(
      'PROFILER_CONTEXT_SCAN_PASSAGES',
      integer(5000, 1, 10_000_000),
      "Passages of a profile, the newest said, that a context with a query reads at most to find the query's " +
        "words; a misspelt word's corrections are looked for among the same ones.",
    ),
    ratePerMinute: setting(
      'PROFILER_RATE_LIMIT_PER_MINUTE',
      integer(600, 1),
      'Operations per minute per API key: REST requests and GraphQL root fields over HTTP and WebSocket. An ' +
        'import costs one per `PROFILER_MAX_BODY_BYTES` read, a search page one per `PROFILER_MAX_BODY_BYTES` of ' +
        'content beyond the first. Shared by all API processes on a server database.',
    ),
    authFailuresPerMinute: setting(
      'PROFILER_AUTH_FAILURES_PER_MINUTE',
      integer(30, 1),
      'Failed authentications per minute per client address, and per API key id, before further attempts get ' +
        '`429` without a key lookup.',
    ),
    tenantConcurrency: setting(
      'PROFILER_TENANT_CONCURRENCY',
      integer(5, 1, 1000),
      'Service calls of one tenant running at once per API process while other tenants have calls too.',
    ),
    tenantQueue: setting(
      'PROFILER_TENANT_QUEUE',
      integer(200, 0, 100_000),
      'Calls of one tenant waiting for a slot; more get `429`.',
    ),
  },
  http: {
    trustProxy: setting(
      'PROFILER_TRUST_PROXY',
      trustedProxies,
      "The proxies whose X-Forwarded-For is believed. Every per-address limit then keys on the client's address: " +
        'the rightmost forwarded address that is not a trusted proxy. A hop count, `true` and `/0` are refused.',
    ),
    headersTimeoutMs: setting(
      'PROFILER_HEADERS_TIMEOUT_MS',
      integer(10_000, 100, 600_000),
      'A connection must send a complete request head this long after it opens, or after its next request ' +
        'begins; otherwise it is answered 408 and closed.',
    ),
    keepAliveTimeoutMs: setting(
      'PROFILER_KEEPALIVE_TIMEOUT_MS',
      integer(5_000, 100, 600_000),
      'An idle keep-alive connection closes this long after its last answer.',
    ),
    maxConnectionsPerAddress: setting(
      'PROFILER_MAX_CONNECTIONS_PER_ADDRESS',
      integer(128, 0, 10_000_000),
      'Open connections per client address (an IPv6 /64); more are closed at once. `0`: no cap. Trusted proxies ' +
        'are not capped.',
    ),
    maxConnections: setting(
      'PROFILER_MAX_CONNECTIONS',
      optionalInteger(0, 10_000_000, 'the open-file limit less a fifth (at least 256 files kept)'),
      'Open connections in all; more are closed at once. `0`: no cap.',
    ),
  },
  dashboard: {
    signUp: setting(
      'PROFILER_SIGNUP',
      {
        schema: z
          .enum(['open', 'closed', 'invite', ...BOOLEAN_WORDS])
          .transform((word): 'open' | 'closed' | 'invite' => {
            if (word === 'open' || word === 'closed' || word === 'invite') return word
            return ['true', '1', 'yes'].includes(word) ? 'open' : 'closed'
          })
          .default('open'),
        shownType: '`open`, `invite`, `closed`',
        shownDefault: '`open`',
      },
      'Who may create a dashboard account: anyone (`open`), holders of a code from `profiler account invite` ' +
        '(`invite`), or nobody (`closed`: accounts come from `profiler account create`).',
    ),
    signUpMaxPerAddress: setting(
      'PROFILER_SIGNUP_MAX_PER_ADDRESS',
      integer(5, 1, 1_000_000),
      'Sign-up attempts per client address in the window.',
    ),
    signUpWindowMinutes: setting('PROFILER_SIGNUP_WINDOW_MINUTES', integer(60, 1, 24 * 60), 'The sign-up window.'),
    sessionHours: setting('PROFILER_SESSION_HOURS', integer(24 * 7, 1, 24 * 365), 'Lifetime of a dashboard session.'),
    loginMaxFailures: setting(
      'PROFILER_LOGIN_MAX_FAILURES',
      integer(5, 1, 1000),
      'Failed sign-ins per e-mail address in the window before sign-in is refused (four times as many per client ' +
        'address).',
    ),
    loginWindowMinutes: setting('PROFILER_LOGIN_WINDOW_MINUTES', integer(15, 1, 24 * 60), 'The sign-in window.'),
    secureCookie: setting(
      'PROFILER_COOKIE_SECURE',
      oneOf(['auto', 'true', 'false'], 'auto'),
      '`Secure` on the session cookie; `auto`: when the request came over HTTPS or with `X-Forwarded-Proto: https`.',
    ),
  },
  metrics: {
    token: setting(
      'PROFILER_METRICS_TOKEN',
      secret(16, 'openssl rand -hex 32'),
      'Bearer token that opens `GET /metrics` on the API port; without it that path is `404`.',
    ),
    port: setting(
      'PROFILER_METRICS_PORT',
      optionalInteger(0, 65535, '(none)'),
      'Serve `/metrics` without authentication on this port of its own, in every role (`0`: any free port).',
    ),
    host: setting('PROFILER_METRICS_HOST', text('127.0.0.1'), 'Interface of the metrics port.'),
  },
  webhooks: {
    allowPrivate: setting(
      'PROFILER_WEBHOOK_ALLOW_PRIVATE',
      boolean(false),
      'Allow webhook targets on private, loopback and link-local addresses.',
    ),
    allowedHosts: setting(
      'PROFILER_WEBHOOK_ALLOWED_HOSTS',
      {
        ...list((host) => /^[a-z0-9.-]{1,253}$/i.test(host), 'host names'),
        schema: list((host) => /^[a-z0-9.-]{1,253}$/i.test(host), 'host names').schema.transform((hosts) =>
          hosts.map((host) => host.toLowerCase()),
        ),
      },
      'Host names allowed as webhook targets whatever they resolve to.',
    ),
    allowedCidrs: setting(
      'PROFILER_WEBHOOK_ALLOWED_CIDRS',
      list(isCidr, 'addresses or CIDR ranges'),
      'Addresses or ranges (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`) allowed as webhook targets.',
    ),
    timeoutMs: setting(
      'PROFILER_WEBHOOK_TIMEOUT_MS',
      integer(10_000, 100, 120_000),
      'Deadline of one delivery attempt, from connecting to the response headers.',
    ),
    retryBaseMs: setting(
      'PROFILER_WEBHOOK_RETRY_BASE_MS',
      integer(30_000, 1, 3_600_000),
      'First retry delay of a delivery (doubling up to 512 times, with 10 % jitter).',
    ),
    maxAttempts: setting(
      'PROFILER_WEBHOOK_MAX_ATTEMPTS',
      integer(16, 1, 50),
      'Delivery attempts before a delivery is `failed` (the defaults span about 30 hours).',
    ),
    concurrency: setting(
      'PROFILER_WEBHOOK_CONCURRENCY',
      integer(8, 1, 256),
      'Deliveries in flight per worker process.',
    ),
    pollMs: setting(
      'PROFILER_WEBHOOK_POLL_MS',
      integer(1000, 10, 60_000),
      'How often an idle worker looks for due deliveries (new events wake it at once).',
    ),
    secretGraceSeconds: setting(
      'PROFILER_WEBHOOK_SECRET_GRACE_HOURS',
      { ...integer(24, 0, 168), schema: integer(24, 0, 168).schema.transform((hours) => hours * 3600) },
      'Hours a rotated-out secret still signs deliveries (a second `v1` signature).',
    ),
    logDays: setting('PROFILER_WEBHOOK_LOG_DAYS', integer(30, 1, 3650), 'Days finished deliveries stay in the log.'),
    encryptionKey: setting(
      'PROFILER_WEBHOOK_ENCRYPTION_KEY',
      secret(16, 'openssl rand -base64 32'),
      'Key that encrypts webhook signing secrets at rest.',
    ),
  },
  openai: {
    apiKey: setting(
      'OPENAI_API_KEY',
      optionalText(),
      'API key of the `openai` provider: required with it (any value for servers that need none).',
    ),
    baseUrl: setting(
      'PROFILER_OPENAI_BASE_URL',
      url("the SDK's (api.openai.com)"),
      'Base URL of the OpenAI-compatible API.',
    ),
    chatModel: setting(
      'PROFILER_CHAT_MODEL',
      text('gpt-4o-mini'),
      'Chat model for extraction and summaries (it needs JSON-schema structured outputs, or see ' +
        '`PROFILER_LLM_RESPONSE_FORMAT`).',
    ),
    embeddingModel: setting('PROFILER_EMBEDDING_MODEL', text('text-embedding-3-small'), 'Embedding model.'),
    embeddingDimensions: setting(
      'PROFILER_EMBEDDING_DIMENSIONS',
      optionalInteger(1, MAX_EMBEDDING_DIMENSIONS, "the model's native size"),
      'Embedding size; required for models Profiler does not know. The search index holds vectors at half ' +
        'precision, so models up to 4,000 dimensions (`text-embedding-3-large` at 3,072) work.',
    ),
    embeddingCalibration: setting(
      'PROFILER_EMBEDDING_CALIBRATION',
      optionalText('built in per model family'),
      '`cosine:score,...` points that map raw cosine similarity to the 0-100 score.',
    ),
    embeddingBaseUrl: setting(
      'PROFILER_EMBEDDING_BASE_URL',
      url('`PROFILER_OPENAI_BASE_URL`'),
      'Another OpenAI-compatible server for embeddings; `PROFILER_LLM_HEADERS` are not sent there.',
    ),
    embeddingApiKey: setting(
      'PROFILER_EMBEDDING_API_KEY',
      optionalText('`OPENAI_API_KEY`'),
      'Key for `PROFILER_EMBEDDING_BASE_URL`.',
    ),
    timeoutMs: setting('PROFILER_LLM_TIMEOUT_MS', integer(60_000, 100), 'Timeout of one AI request, ms.'),
    maxRetries: setting(
      'PROFILER_LLM_MAX_RETRIES',
      integer(3, 0, 10),
      'Retries of 429, 5xx and timeouts per operation (honouring `Retry-After`).',
    ),
    outputRetries: setting(
      'PROFILER_LLM_OUTPUT_RETRIES',
      integer(2, 0, 10),
      'Extra requests when the output is malformed or breaks the schema.',
    ),
    concurrency: setting('PROFILER_LLM_CONCURRENCY', integer(4, 1, 256), 'AI requests in flight per process.'),
    retryBaseMs: setting(
      'PROFILER_LLM_RETRY_BASE_MS',
      integer(500, 1, 60_000),
      'First retry delay of a failed request (doubling, at most 16 times, with 25 % jitter) unless the provider ' +
        'asked for a wait (`Retry-After`, `x-ratelimit-reset-*`).',
    ),
    breakerFailures: setting(
      'PROFILER_LLM_BREAKER_FAILURES',
      integer(5, 1, 1000),
      "Consecutive outage-like failures (no connection, timeout, 5xx, 429) that open the provider's circuit breaker.",
    ),
    breakerCooldownMs: setting(
      'PROFILER_LLM_BREAKER_COOLDOWN_MS',
      integer(5000, 10, 3_600_000),
      'Wait before the first probe of an open circuit or of a paused provider (doubling after each failed probe).',
    ),
    breakerMaxCooldownMs: setting(
      'PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS',
      integer(60_000, 10, 3_600_000),
      'Longest wait between probes (at least `PROFILER_LLM_BREAKER_COOLDOWN_MS`).',
    ),
    responseFormat: setting(
      'PROFILER_LLM_RESPONSE_FORMAT',
      oneOf(['json_schema', 'json_object', 'none'], 'json_schema'),
      'How the output schema reaches the model: strict structured outputs, JSON mode with the schema in the ' +
        'prompt, or no `response_format` with the schema in the prompt.',
    ),
    extraBody: setting(
      'PROFILER_LLM_EXTRA_BODY',
      { schema: z.string().optional().transform(parsedBy(parseExtraBody)), shownType: 'JSON object' },
      'JSON object merged into every chat request\'s body, e.g. `{"provider":{"require_parameters":true}}` ' +
        '(`model`, `messages`, `stream` refused).',
    ),
    headers: setting(
      'PROFILER_LLM_HEADERS',
      { schema: z.string().optional().transform(parsedBy(parseHeaders)), shownType: '`name=value,...`' },
      '`name=value,...` (values percent-encoded) sent with every AI request, e.g. `api-key=<key>`; never logged.',
    ),
    contextTokens: setting(
      'PROFILER_LLM_CONTEXT_TOKENS',
      optionalInteger(1024, 10_000_000, 'by model family (8,192 for unknown models)'),
      "The chat model's context window (prompt and output) that batches are packed to fit. Set it for Ollama " +
        '(4,096 unless `OLLAMA_CONTEXT_LENGTH` is raised), llama.cpp, LM Studio, vLLM and Azure deployment names.',
    ),
    maxOutputTokens: setting(
      'PROFILER_LLM_MAX_OUTPUT_TOKENS',
      optionalInteger(256, 1_000_000, 'by model family'),
      'Output cap sent with every chat request (`max_completion_tokens`); at most half the context.',
    ),
    maxRetryWaitMs: setting(
      'PROFILER_LLM_MAX_RETRY_WAIT_MS',
      integer(60_000, 0, 3_600_000),
      'Longest wait the provider may ask for that a request waits out; a longer one defers the batch without ' +
        'using an attempt.',
    ),
  },
  graphql: {
    maxDepth: setting('PROFILER_GRAPHQL_MAX_DEPTH', integer(10, 1, 100), 'Deepest GraphQL operation.'),
    maxCost: setting(
      'PROFILER_GRAPHQL_MAX_COST',
      integer(5000, 1),
      'Highest cost of an operation (objects 2, scalars 1, growing with depth).',
    ),
    maxAliases: setting('PROFILER_GRAPHQL_MAX_ALIASES', integer(15, 0, 1000), 'Aliases per operation.'),
    maxDirectives: setting('PROFILER_GRAPHQL_MAX_DIRECTIVES', integer(50, 0, 1000), 'Directives per operation.'),
    maxTokens: setting('PROFILER_GRAPHQL_MAX_TOKENS', integer(2000, 10), 'Tokens per operation (parser limit).'),
    maxSearchBytes: setting(
      'PROFILER_GRAPHQL_MAX_SEARCH_BYTES',
      integer(2 * 1024 * 1024, 1024),
      'Content the `searchProfiles` pages of one operation hold together; a larger page is refused with ' +
        '`PAYLOAD_TOO_LARGE` before it is read.',
    ),
    wsMaxPayloadBytes: setting('PROFILER_WS_MAX_PAYLOAD_BYTES', integer(64 * 1024, 1024), 'Largest WebSocket message.'),
    wsMaxSubscriptions: setting(
      'PROFILER_WS_MAX_SUBSCRIPTIONS',
      integer(20, 1, 10_000),
      'Concurrent subscriptions per API key or dashboard session, per process.',
    ),
    wsMaxSubscriptionsPerSocket: setting(
      'PROFILER_WS_MAX_SUBSCRIPTIONS_PER_SOCKET',
      integer(10, 1, 10_000),
      'Concurrent subscriptions on one WebSocket.',
    ),
    wsMaxSockets: setting(
      'PROFILER_WS_MAX_SOCKETS',
      integer(20, 1, 100_000),
      'Open WebSockets per API key or dashboard session, per process.',
    ),
    wsAuthRecheckMs: setting(
      'PROFILER_WS_AUTH_RECHECK_MS',
      integer(2000, 100, 3_600_000),
      "How often an open WebSocket re-checks its key or session, so a revoked key's subscriptions end.",
    ),
  },
  search: {
    databaseUrl: setting(
      'PROFILER_SEARCH_DATABASE_URL',
      url(),
      'A read replica (hot standby) of `DATABASE_URL` that API processes send search statements to. Search then ' +
        "lags the primary by the replica's replay delay. Server only.",
    ),
    efSearch: setting(
      'PROFILER_HNSW_EF_SEARCH',
      integer(100, 1, 1000),
      "HNSW candidate list of a semantic search (pgvector's `hnsw.ef_search`): recall against speed.",
    ),
    readChunkBytes: setting(
      'PROFILER_SEARCH_READ_CHUNK_BYTES',
      integer(1024 * 1024, 1),
      'Content a search reads in one statement at most; `GET /v1/search` streams a page of more than one chunk.',
    ),
    exactTotalMax: setting(
      'PROFILER_SEARCH_EXACT_TOTAL_MAX',
      integer(5000, 0),
      'A search with a query and more candidates than this estimates its `total` from a sample and says so ' +
        '(`totalIsEstimate`). `0`: estimate unless the page is not full.',
    ),
    lexicalExactMax: setting(
      'PROFILER_SEARCH_LEXICAL_EXACT_MAX',
      integer(300, 0, 100_000),
      'A hybrid search whose words more profiles than this hold takes the nearest of them from the vector index ' +
        'instead of measuring each. `0`: always from the index.',
    ),
  },
  worker: {
    concurrency: setting('PROFILER_WORKER_CONCURRENCY', integer(32, 1, 1024), 'Profiles in flight per worker process.'),
    roundSize: setting(
      'PROFILER_WORKER_FETCH',
      integer(16, 1, 1024),
      'Jobs a worker takes at once: a round, claimed, extracted and applied together.',
    ),
    batchSize: setting(
      'PROFILER_BATCH_SIZE',
      integer(20, 1, 200),
      'Pending submissions of one profile extracted together at most.',
    ),
    maxAttempts: setting('PROFILER_MAX_ATTEMPTS', integer(3, 1, 20), 'Extraction attempts before a submission fails.'),
    leaseSeconds: setting(
      'PROFILER_LEASE_SECONDS',
      integer(30, 2, 3600),
      'Lease on a profile being processed (renewed every third of it).',
    ),
    reconcileSeconds: setting(
      'PROFILER_RECONCILE_SECONDS',
      integer(10, 1, 3600),
      'How often a worker looks for abandoned work.',
    ),
    pollSeconds: setting(
      'PROFILER_POLL_SECONDS',
      decimal(0.5, 0.5, 60),
      'How often an idle worker looks for jobs (new work wakes it at once).',
    ),
    retryBaseMs: setting(
      'PROFILER_RETRY_BASE_MS',
      integer(1000, 0),
      'First retry delay of a failed extraction (doubling each attempt, with 25 % jitter).',
    ),
    extractDelayMs: setting(
      'PROFILER_EXTRACT_DELAY_MS',
      integer(0, 0, 600_000),
      'Fault injection for tests and demos: extra time spent in every extraction.',
    ),
    extractThreads: setting(
      'PROFILER_EXTRACT_THREADS',
      integer(Math.max(1, os.availableParallelism() - 1), 0, 64, 'cores - 1 (at least 1)'),
      'Worker threads of the local extractor (`0`: on the main thread).',
    ),
    cpuThreads: setting(
      'PROFILER_CPU_THREADS',
      integer(1, 0, 64),
      'Worker threads for merges, contexts, forgets, rollbacks and re-extraction diffs (`0`: on the main thread).',
    ),
    batchTimeoutMs: setting(
      'PROFILER_BATCH_TIMEOUT_MS',
      integer(600_000, 100, 24 * 3600 * 1000),
      'A batch running longer is stopped and counts as an attempt.',
    ),
    reextractMaxSubmissions: setting(
      'PROFILER_REEXTRACT_MAX_SUBMISSIONS',
      integer(200, 1, 10_000),
      'Applied submissions one re-extraction replays at most; a profile with more is refused.',
    ),
  },
  profiles: {
    listValues: setting(
      'PROFILER_PROFILE_MAX_LIST_VALUES',
      integer(limits.listValues, 1, 1_000_000),
      'Values of one list field of a profile.',
    ),
    categories: setting(
      'PROFILER_PROFILE_MAX_CATEGORIES',
      integer(limits.categories, 1, 100_000),
      'Interest categories of a profile.',
    ),
    interests: setting(
      'PROFILER_PROFILE_MAX_INTERESTS',
      integer(limits.interests, 1, 1_000_000),
      'Interests of a profile, all categories together.',
    ),
    memories: setting(
      'PROFILER_PROFILE_MAX_MEMORIES',
      integer(limits.memories, 1, 1_000_000),
      'Memories of a profile.',
    ),
    customValues: setting(
      'PROFILER_PROFILE_MAX_CUSTOM_VALUES',
      integer(limits.customValues, 1, 1_000_000),
      'Values of one custom list field.',
    ),
    valueChars: setting(
      'PROFILER_PROFILE_MAX_VALUE_CHARS',
      integer(limits.valueChars, 10, 100_000),
      'Characters of one value.',
    ),
    profileBytes: setting(
      'PROFILER_PROFILE_MAX_BYTES',
      integer(limits.profileBytes, 1024, 256 * 1024 * 1024),
      "Bytes of a profile's content.",
    ),
    historyEntries: setting(
      'PROFILER_PROFILE_MAX_HISTORY',
      integer(limits.historyEntries, 1, 100_000_000),
      'History entries kept per profile (the oldest go first).',
    ),
    snapshots: setting(
      'PROFILER_PROFILE_MAX_SNAPSHOTS',
      integer(limits.snapshots, 1, 1_000_000),
      'Newest history entries that keep a snapshot to roll back to.',
    ),
    passagesPerSubmission: setting(
      'PROFILER_PASSAGES_PER_SUBMISSION',
      integer(limits.passagesPerSubmission, 0, 10_000),
      'Evidence passages kept per submission.',
    ),
    passagesPerProfile: setting(
      'PROFILER_PASSAGES_PER_PROFILE',
      integer(limits.passagesPerProfile, 0, 10_000_000),
      'Evidence passages kept per profile (the oldest go first).',
    ),
    pastValues: setting(
      'PROFILER_PROFILE_MAX_PAST_VALUES',
      integer(limits.pastValues, 0, 1000),
      'Past values kept per field.',
    ),
    scalarStatements: setting(
      'PROFILER_PROFILE_MAX_STATEMENTS',
      integer(limits.scalarStatements, 1, 100_000),
      "Statements a field's timeline is built from (the oldest go first; evidence older than them changes nothing).",
    ),
  },
  imports: {
    maxLineBytes: setting(
      'PROFILER_IMPORT_MAX_LINE_BYTES',
      integer(4 * 1024 * 1024, 1024),
      'Longest line of an import (`POST /v1/import`, `profiler import`).',
    ),
    maxBytes: setting(
      'PROFILER_IMPORT_MAX_BYTES',
      integer(1024 * 1024 * 1024, 1),
      'Largest import in all (imports stream, so the body limit does not apply).',
    ),
  },
  customSchemas: {
    maxVersions: setting(
      'PROFILER_SCHEMA_MAX_VERSIONS',
      integer(100, 1, 100_000),
      "Versions of an app's custom schema kept; storing a new one deletes the older ones beyond it.",
    ),
  },
  retention: {
    sweepSeconds: setting(
      'PROFILER_RETENTION_SWEEP_SECONDS',
      integer(3600, 0, 7 * 24 * 3600),
      "How often the worker applies the apps' retention policies (`0`: never).",
    ),
    batch: setting('PROFILER_RETENTION_BATCH', integer(200, 1, 10_000), 'Rows per statement of a retention sweep.'),
  },
  // OpenTelemetry's standard variables, the part this service honours for traces; src/config.ts derives the
  // tracing configuration from them.
  otel: {
    sdkDisabled: setting('OTEL_SDK_DISABLED', boolean(false), '`true` keeps tracing off whatever else is set.'),
    tracesExporter: setting(
      'OTEL_TRACES_EXPORTER',
      { schema: z.string().max(100).optional(), shownType: '`otlp`, `console`, `none`', shownDefault: '(none: off)' },
      'The exporter: `otlp` (default URL `http://localhost:4318/v1/traces`), `console`, or `none`.',
    ),
    endpoint: setting(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      url(),
      'OTLP/HTTP base URL (`/v1/traces` is appended); setting it turns tracing on.',
    ),
    tracesEndpoint: setting(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      url(),
      'Full traces URL, used as given; setting it turns tracing on.',
    ),
    protocol: setting(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      otlpProtocol,
      'Protocol of the exports (`grpc` is not supported).',
    ),
    tracesProtocol: setting('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', otlpProtocol, 'Protocol of the trace exports.'),
    headers: setting(
      'OTEL_EXPORTER_OTLP_HEADERS',
      optionalText(),
      "`key=value,...` (values percent-encoded) sent with every export, e.g. a collector's token.",
    ),
    tracesHeaders: setting('OTEL_EXPORTER_OTLP_TRACES_HEADERS', optionalText(), 'Headers of the trace exports.'),
    timeoutMs: setting(
      'OTEL_EXPORTER_OTLP_TIMEOUT',
      optionalInteger(1, 600_000, '`10000`'),
      'Timeout of one export, ms.',
    ),
    tracesTimeoutMs: setting(
      'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
      optionalInteger(1, 600_000, '`OTEL_EXPORTER_OTLP_TIMEOUT`'),
      'Timeout of one trace export, ms.',
    ),
    serviceName: setting(
      'OTEL_SERVICE_NAME',
      { ...text('profiler'), schema: z.string().min(1).max(256).default('profiler') },
      'The `service.name` of the spans.',
    ),
    resourceAttributes: setting(
      'OTEL_RESOURCE_ATTRIBUTES',
      optionalText(),
      "`key=value,...` added to the spans' resource (e.g. `deployment.environment=prod`).",
    ),
    sampler: setting(
      'OTEL_TRACES_SAMPLER',
      oneOf(
        [
          'always_on',
          'always_off',
          'traceidratio',
          'parentbased_always_on',
          'parentbased_always_off',
          'parentbased_traceidratio',
        ],
        'parentbased_always_on',
      ),
      'The trace sampler.',
    ),
    samplerRatio: setting(
      'OTEL_TRACES_SAMPLER_ARG',
      { schema: z.coerce.number().min(0).max(1).optional(), shownType: 'number, 0-1', shownDefault: '`1`' },
      'The ratio of the ratio samplers.',
    ),
    scheduleDelayMs: setting(
      'OTEL_BSP_SCHEDULE_DELAY',
      integer(5000, 0, 600_000),
      'How long finished spans wait to be exported in a batch, ms.',
    ),
  },
} as const

type Leaf = Setting<unknown>
type Tree = { readonly [key: string]: Leaf | Tree }

/** The groups of the reference: each subtree of the registry, and `service` for the settings at its top. */
export type SettingGroup =
  | 'service'
  | { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends Leaf ? never : K }[keyof typeof SETTINGS]

/** The titles of the groups, in the reference's order. */
export const SETTING_GROUPS: Record<SettingGroup, string> = {
  service: 'Service',
  limits: 'Request limits and budgets',
  http: 'Connections and proxies',
  dashboard: 'Dashboard',
  metrics: 'Metrics',
  webhooks: 'Webhooks',
  openai: 'The openai provider',
  graphql: 'GraphQL and WebSockets',
  search: 'Search',
  worker: 'Worker',
  profiles: 'Profile limits',
  imports: 'Import',
  customSchemas: 'Custom schemas',
  retention: 'Retention',
  otel: 'Tracing (OpenTelemetry)',
}

/** The values a registry (sub)tree gives: each leaf's parsed type at its place. */
export type SettingValues<T> = { -readonly [K in keyof T]: T[K] extends Setting<infer V> ? V : SettingValues<T[K]> }

export function isSetting(node: Leaf | Tree): node is Leaf {
  return typeof (node as Leaf).env === 'string' && 'schema' in node
}

/** Every setting of the registry with its path in the configuration and its group, in declaration order. */
export function allSettings(): { path: string[]; group: SettingGroup; setting: Leaf }[] {
  const found: { path: string[]; group: SettingGroup; setting: Leaf }[] = []
  const walk = (path: string[], node: Leaf | Tree) => {
    if (isSetting(node)) {
      const group = (path.length > 1 ? path[0] : 'service') as SettingGroup
      found.push({ path, group, setting: node })
    } else {
      for (const [key, child] of Object.entries(node)) walk([...path, key], child)
    }
  }
  walk([], SETTINGS as unknown as Tree)
  return found
}

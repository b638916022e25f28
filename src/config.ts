// The typed configuration, read from the environment through the settings registry (src/settings.ts), which
// declares every setting once. The only place that reads process.env (through loadConfig's argument).
import { type Setting, type SettingValues, SETTINGS, allSettings, parseKeyValues } from './settings.js'

export { parseKeyValues }

type Values = SettingValues<typeof SETTINGS>

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

export type Config = Omit<Values, 'otel'> & { tracing: TracingConfig }
export type DashboardConfig = Config['dashboard']
export type WebhookConfig = Config['webhooks']
export type GraphQLLimits = Config['graphql']
export type OpenAIConfig = Config['openai']
export type HttpConfig = Config['http']

export class ConfigError extends Error {}

function configError(lines: string[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`)
}

/** Each setting's value from `env`, placed at its path; every invalid setting is reported at once. */
function readSettings(env: Record<string, string>): Values {
  const values: Record<string, unknown> = {}
  const problems: string[] = []
  for (const { path, setting } of allSettings()) {
    const parsed = (setting as Setting<unknown>).schema.safeParse(env[setting.env])
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${setting.env}: ${issue.message}`))
      continue
    }
    let node = values
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>
    node[path.at(-1)!] = parsed.data
  }
  if (problems.length) throw configError(problems)
  return values as Values
}

function tracingConfig(otel: Values['otel']): TracingConfig {
  const exporters = (otel.tracesExporter ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = exporters.filter((name) => !['otlp', 'console', 'none'].includes(name))
  if (unknown.length) {
    throw configError([`OTEL_TRACES_EXPORTER: '${unknown[0]!.slice(0, 40)}' is not supported (otlp, console or none)`])
  }
  const endpoint = otel.tracesEndpoint ?? otel.endpoint?.replace(/\/*$/, '/v1/traces')
  // Off by default (unlike the SDK's own default of otlp): on with an endpoint, or with an exporter named.
  const otlp = exporters.includes('otlp') || (!exporters.length && endpoint)
  const exporter = otlp ? 'otlp' : exporters.includes('console') ? 'console' : undefined
  const keyValues = (name: string, spec: string | undefined) => {
    try {
      return parseKeyValues(spec)
    } catch (error) {
      throw configError([`${name}: ${(error as Error).message}`])
    }
  }
  return {
    enabled: !otel.sdkDisabled && !exporters.includes('none') && exporter !== undefined,
    exporter: exporter ?? 'otlp',
    serviceName: otel.serviceName,
    resourceAttributes: keyValues('OTEL_RESOURCE_ATTRIBUTES', otel.resourceAttributes),
    otlp: {
      url: endpoint ?? 'http://localhost:4318/v1/traces',
      protocol: otel.tracesProtocol ?? otel.protocol ?? 'http/protobuf',
      headers: {
        ...keyValues('OTEL_EXPORTER_OTLP_HEADERS', otel.headers),
        ...keyValues('OTEL_EXPORTER_OTLP_TRACES_HEADERS', otel.tracesHeaders),
      },
      timeoutMs: otel.tracesTimeoutMs ?? otel.timeoutMs ?? 10_000,
    },
    sampler: { name: otel.sampler, ratio: otel.samplerRatio ?? 1 },
    scheduleDelayMs: otel.scheduleDelayMs,
  }
}

/** Rules between settings, which no single setting's schema can state. */
function checkCombinations(values: Values): void {
  const { openai } = values
  if (values.ai === 'openai' && !openai.apiKey) {
    throw configError([
      'OPENAI_API_KEY: required when PROFILER_AI=openai (any value for servers that need none, e.g. Ollama)',
    ])
  }
  if (openai.contextTokens && openai.maxOutputTokens && openai.maxOutputTokens > openai.contextTokens / 2) {
    throw configError([
      `PROFILER_LLM_MAX_OUTPUT_TOKENS: ${openai.maxOutputTokens} leaves too little of PROFILER_LLM_CONTEXT_TOKENS ` +
        `(${openai.contextTokens}) for the prompt; at most half of it`,
    ])
  }
  if (values.search.databaseUrl && !values.databaseUrl) {
    throw configError([
      'PROFILER_SEARCH_DATABASE_URL: a read replica of the server in DATABASE_URL; the embedded database has none',
    ])
  }
}

/** Environment -> typed config. An empty variable counts as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const given = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  )
  const { otel, ...values } = readSettings(given)
  checkCombinations({ otel, ...values })
  const { openai } = values
  return {
    ...values,
    openai: { ...openai, breakerMaxCooldownMs: Math.max(openai.breakerMaxCooldownMs, openai.breakerCooldownMs) },
    tracing: tracingConfig(otel),
  }
}

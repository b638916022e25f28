import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * The AI provider's state as metrics read it (src/ai/errors.ts AiProviderStatus; restated here so metrics/ needs
 * nothing from ai/).
 */
type LlmMisconfiguration = 'unauthorized' | 'forbidden' | 'not_found' | 'quota'
interface AiProviderStatus {
  state: 'ok' | 'misconfigured' | 'unavailable'
  reason?: LlmMisconfiguration
}

// The service's Prometheus metrics (prom-client): one registry per process, built by the composition root and handed to
// what records. Not prom-client's global registry, so that several services in one process (the tests) keep apart.
// Every label takes values from a closed set (route patterns, schema fields, provider names, fixed kinds): nothing a
// client sends becomes a label value, so no request can create new series.

/** Latency buckets in seconds, from the sub-millisecond requests of the hot path to slow LLM calls. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const AI_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]

/** The `route` label of a request that matched no route (404 and 405 from the router): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched'
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export type AiOperation = 'extract' | 'summarize' | 'embed'
export type WorkerOutcome = 'applied' | 'failed' | 'handed_back' | 'requeued'

export interface QueueStats {
  /** Open submissions by state, and the age in seconds of the oldest of each (null when there is none). */
  pending: { count: number; oldestAgeSeconds: number | null }
  processing: { count: number; oldestAgeSeconds: number | null }
}

export interface PoolStats {
  total: number
  idle: number
  waiting: number
  max: number
}

export interface EmbeddedStats {
  /** Connections to the embedded server (this process's pools, pg-boss, CLI commands). */
  connections: number
  /** Protocol messages waiting for PGlite's single session. */
  queued: number
}

type Observer = { observe(value: number): void }

export class Metrics {
  readonly registry = new Registry()
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>
  /** route -> method -> status -> child: a request's observation allocates no label object. */
  private readonly httpChildren = new Map<string, Map<string, Map<number, Observer>>>()
  private readonly graphqlDuration: Histogram<'endpoint' | 'type' | 'operation' | 'outcome'>
  private readonly aiDuration: Histogram<'provider' | 'operation' | 'outcome'>
  private readonly aiTokens: Counter<'provider' | 'operation' | 'type'>
  private readonly aiErrors: Counter<'provider' | 'operation' | 'kind'>
  private readonly llmFailures: Counter<'kind'>
  private readonly llmPauses: Counter<'reason'>
  private readonly workerSubmissions: Counter<'outcome'>
  private readonly refusedConnections: Counter<'reason'>
  private readonly sockets = new Map<string, () => { connections: number; operations: number }>()

  constructor(info: { role: string; database: string; version: string }) {
    const registers = [this.registry]
    collectDefaultMetrics({ register: this.registry, prefix: 'profiler_' })
    new Gauge({
      name: 'profiler_info',
      help: 'Constant 1, labelled with what this process runs',
      labelNames: ['role', 'database', 'version'],
      registers,
    }).set(info, 1)
    this.httpDuration = new Histogram({
      name: 'profiler_http_request_duration_seconds',
      help: 'HTTP requests by route pattern (unmatched: no route), method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    })
    this.graphqlDuration = new Histogram({
      name: 'profiler_graphql_operation_duration_seconds',
      help:
        'GraphQL operations over HTTP by endpoint, type, root field (multiple: several; unknown: not resolved) ' +
        'and outcome',
      labelNames: ['endpoint', 'type', 'operation', 'outcome'],
      buckets: REQUEST_BUCKETS,
      registers,
    })
    const sockets = this.sockets
    new Gauge({
      name: 'profiler_websocket_connections',
      help: 'Open GraphQL WebSocket connections by endpoint',
      labelNames: ['endpoint'],
      registers,
      collect() {
        for (const [endpoint, read] of sockets) this.set({ endpoint }, read().connections)
      },
    })
    new Gauge({
      name: 'profiler_graphql_subscriptions',
      help: 'Operations running on GraphQL WebSockets by endpoint (subscriptions, and queries while they run)',
      labelNames: ['endpoint'],
      registers,
      collect() {
        for (const [endpoint, read] of sockets) this.set({ endpoint }, read().operations)
      },
    })
    this.aiDuration = new Histogram({
      name: 'profiler_ai_operation_duration_seconds',
      help: 'AI provider calls (extract, summarize, embed) by provider and outcome',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: AI_BUCKETS,
      registers,
    })
    this.aiTokens = new Counter({
      name: 'profiler_ai_tokens_total',
      help:
        'Tokens the AI provider reported, by provider, operation and type (prompt, completion); failed calls ' +
        'included',
      labelNames: ['provider', 'operation', 'type'],
      registers,
    })
    this.aiErrors = new Counter({
      name: 'profiler_ai_errors_total',
      help: 'AI provider calls that failed (after their retries), by provider, operation and kind',
      labelNames: ['provider', 'operation', 'kind'],
      registers,
    })
    this.llmFailures = new Counter({
      name: 'profiler_llm_request_failures_total',
      help: 'Failed HTTP requests to the LLM provider, retried ones included, by kind',
      labelNames: ['kind'],
      registers,
    })
    this.llmPauses = new Counter({
      name: 'profiler_llm_provider_pauses_total',
      help: 'Times processing paused because the LLM provider refused requests until an operator acts, by reason',
      labelNames: ['reason'],
      registers,
    })
    this.workerSubmissions = new Counter({
      name: 'profiler_worker_submissions_total',
      help:
        "Submissions a worker's batches ended with: applied, failed (attempt failed: retried, deferred or " +
        'failed for good), handed_back (shutdown)',
      labelNames: ['outcome'],
      registers,
    })
    this.refusedConnections = new Counter({
      name: 'profiler_http_connections_refused_total',
      help: 'API connections closed before they carried a request: per_address or total cap, headers_timeout',
      labelNames: ['reason'],
      registers,
    })
  }

  /** A connection closed before it carried a request: over a cap, or no request head in time. */
  connectionRefused(reason: 'per_address' | 'total' | 'headers_timeout'): void {
    this.refusedConnections.inc({ reason })
  }

  /** One HTTP request; `route` is the matched route pattern, undefined when none matched. */
  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const routeLabel = route ?? UNMATCHED_ROUTE
    let byMethod = this.httpChildren.get(routeLabel)
    if (!byMethod) this.httpChildren.set(routeLabel, (byMethod = new Map()))
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, (byStatus = new Map()))
    let child = byStatus.get(status)
    if (!child)
      byStatus.set(
        status,
        (child = this.httpDuration.labels(METHODS.has(method) ? method : 'OTHER', routeLabel, String(status))),
      )
    child.observe(seconds)
  }

  graphqlOperation(endpoint: string, type: string, operation: string, ok: boolean, seconds: number): void {
    this.graphqlDuration.observe({ endpoint, type, operation, outcome: ok ? 'ok' : 'error' }, seconds)
  }

  /** A WebSocket endpoint's live counts, read at each scrape. */
  webSockets(endpoint: string, read: () => { connections: number; operations: number }): void {
    this.sockets.set(endpoint, read)
  }

  aiCall(
    provider: string,
    operation: AiOperation,
    seconds: number,
    result: { usage?: { promptTokens: number; completionTokens: number }; errorKind?: string },
  ): void {
    this.aiDuration.observe({ provider, operation, outcome: result.errorKind ? 'error' : 'ok' }, seconds)
    if (result.errorKind) this.aiErrors.inc({ provider, operation, kind: result.errorKind })
    const usage = result.usage
    if (usage?.promptTokens) this.aiTokens.inc({ provider, operation, type: 'prompt' }, usage.promptTokens)
    if (usage?.completionTokens) this.aiTokens.inc({ provider, operation, type: 'completion' }, usage.completionTokens)
  }

  llmRequestFailed(kind: string): void {
    this.llmFailures.inc({ kind })
  }

  llmPaused(reason: LlmMisconfiguration): void {
    this.llmPauses.inc({ reason })
  }

  /** The AI provider's state, read at scrape time: 1 for the reason processing is paused for, 0 for the others. */
  aiProvider(read: () => AiProviderStatus | undefined): void {
    const reasons: LlmMisconfiguration[] = ['unauthorized', 'forbidden', 'not_found', 'quota']
    new Gauge({
      name: 'profiler_llm_provider_paused',
      help:
        'Whether processing is paused because the LLM provider refuses requests (1), by reason: unauthorized ' +
        '(401), forbidden (403), not_found (404: model or URL), quota (429 insufficient_quota)',
      labelNames: ['reason'],
      registers: [this.registry],
      collect() {
        const status = read()
        for (const reason of reasons)
          this.set({ reason }, status?.state === 'misconfigured' && status.reason === reason ? 1 : 0)
      },
    })
    new Gauge({
      name: 'profiler_llm_circuit_open',
      help: "Whether the LLM provider's circuit breaker is open or probing after repeated outage-like failures (1)",
      registers: [this.registry],
      collect() {
        this.set(read()?.state === 'unavailable' ? 1 : 0)
      },
    })
  }

  workerBatch(outcome: WorkerOutcome, submissions: number): void {
    if (submissions > 0) this.workerSubmissions.inc({ outcome }, submissions)
  }

  /**
   * Queue depth and the oldest open submission's age, read at scrape time through `read` (a database query), at most
   * once per `cacheMs` however often it is scraped; when the read fails the series are left out of that scrape.
   */
  queue(read: () => Promise<QueueStats>, cacheMs = 5000): void {
    let cached: { at: number; value: Promise<QueueStats | undefined> } | undefined
    const stats = () => {
      const now = Date.now()
      if (!cached || now - cached.at >= cacheMs) cached = { at: now, value: read().catch(() => undefined) }
      return cached.value
    }
    const registers = [this.registry]
    new Gauge({
      name: 'profiler_queue_submissions',
      help: 'Open submissions by state (pending: waiting for a worker or a retry; processing: in a batch), all tenants',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset()
        const queue = await stats()
        if (!queue) return
        this.set({ state: 'pending' }, queue.pending.count)
        this.set({ state: 'processing' }, queue.processing.count)
      },
    })
    new Gauge({
      name: 'profiler_queue_oldest_age_seconds',
      help: 'Age of the oldest open submission by state (0 when there is none)',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset()
        const queue = await stats()
        if (!queue) return
        this.set({ state: 'pending' }, queue.pending.oldestAgeSeconds ?? 0)
        this.set({ state: 'processing' }, queue.processing.oldestAgeSeconds ?? 0)
      },
    })
  }

  /** The database connection pool of this process, read at scrape time. */
  dbPool(read: () => PoolStats | undefined): void {
    const registers = [this.registry]
    new Gauge({
      name: 'profiler_db_pool_connections',
      help: "Connections of this process's database pool by state (idle, in_use)",
      labelNames: ['state'],
      registers,
      collect() {
        this.reset()
        const pool = read()
        if (!pool) return
        this.set({ state: 'idle' }, pool.idle)
        this.set({ state: 'in_use' }, pool.total - pool.idle)
      },
    })
    new Gauge({
      name: 'profiler_db_pool_waiting',
      help: "Queries waiting for a connection of this process's database pool",
      registers,
      collect() {
        this.reset()
        const pool = read()
        if (pool) this.set(pool.waiting)
      },
    })
    new Gauge({
      name: 'profiler_db_pool_max',
      help: "Size limit of this process's database pool",
      registers,
      collect() {
        this.reset()
        const pool = read()
        if (pool) this.set(pool.max)
      },
    })
  }

  /** The embedded database this process serves (PGlite), read at scrape time. */
  embeddedDb(read: () => EmbeddedStats): void {
    const registers = [this.registry]
    new Gauge({
      name: 'profiler_db_embedded_connections',
      help: 'Connections to the embedded database this process serves (its pools, the job queue, CLI commands)',
      registers,
      collect() {
        this.set(read().connections)
      },
    })
    new Gauge({
      name: 'profiler_db_embedded_queued_messages',
      help: "Protocol messages waiting for the embedded database's single session",
      registers,
      collect() {
        this.set(read().queued)
      },
    })
  }

  /** The exposition text (Prometheus text format 0.0.4) and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}

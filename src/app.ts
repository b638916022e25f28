import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import pino, { type Logger } from 'pino'
import type { AiProviders } from './ai/types.js'
import type { Config } from './config.js'
import {
  embeddingDimension,
  migrate,
  migrationsApplied,
  openDatabase,
  POOL_SIZE,
  poolStats,
  type Database,
} from './db/database.js'
import { EmbeddedEventBus, EVENT_CHANNEL, type EventBus } from './events/event-bus.js'
import { PostgresEventBus } from './events/postgres-bus.js'
import type { Services } from './services/index.js'
import type { ExportService } from './services/export.service.js'
import type { ReindexService } from './services/reindex.service.js'
import type { RetentionService } from './services/retention.service.js'
import { AccountService } from './services/account.service.js'
import { AppSchemaService } from './services/app-schema.service.js'
import { TenantService } from './services/tenant.service.js'
import type { Metrics } from './metrics/metrics.js'
import type { JobQueue } from './jobs/queue.js'
import { DueTenants } from './jobs/due-tenants.js'
import { LeadEnqueuer } from './jobs/lead-enqueuer.js'
import { isSharded } from './db/tenant-routing.js'
import type { ProfileService } from './services/profile.service.js'
import type { buildWebhooks } from './services/webhooks/index.js'
import { packageVersion } from './paths.js'
import { startTracing, type TracingOptions } from './tracing/tracing.js'
import { EMBEDDED_PASSAGE_STATEMENT, SERVER_PASSAGE_STATEMENT } from './services/worker/passages.js'

// The composition root of every process: `startProfiler` builds the service (API, worker or both) and `openCli` what
// the CLI's commands use, with the same constructors and options. What only the service needs (the HTTP server, the
// AI providers and their models, the queue, the worker) is imported when it starts, so a CLI command loads none of it.

export type Role = 'all' | 'api' | 'worker'

export interface Profiler {
  config: Config
  db: Database
  services: Services
  bus: EventBus
  log: Logger
  /** This process's metrics registry (read over HTTP at /metrics). */
  metrics: Metrics
  server?: FastifyInstance
  /** The retention sweep, in processes that run the worker. */
  retention?: RetentionService
  /** http://host:port when the API runs. */
  url?: string
  /** The metrics port's http://host:port/metrics, when PROFILER_METRICS_PORT is set. */
  metricsUrl?: string
  close(): Promise<void>
}

export interface StartOptions {
  role: Role
  /** Print the bootstrap key (CLI); tests read it from the returned object instead. */
  printBootstrapKey?: boolean
  ai?: AiProviders
  /** Tracing as the configuration says (OTEL_*), or into an injected exporter (tests). */
  tracing?: TracingOptions
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: pino.DestinationStream
}

/**
 * The service's logger (the HTTP server's too). Lines are written asynchronously (flushed on exit): a synchronous write
 * per request is a measurable share of a POST's time under load. Under load they are also written in batches of 4 KB or
 * more instead of one write per line; a line waits at most 100 ms.
 */
function serviceLogger(config: Config, stream?: pino.DestinationStream): { log: Logger; close: () => Promise<void> } {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
  }
  if (stream) return { log: pino(options, stream), close: async () => {} }
  const out = pino.destination({ dest: 1, sync: false, minLength: 4096 })
  const flush = setInterval(() => out.flush(), 100).unref()
  const log = pino(options, out)
  return {
    log,
    close: async () => {
      clearInterval(flush)
      out.flush()
    },
  }
}

/** How long a worker whose embedding model is unlike the database's takes no jobs before it tries again. */
const EMBEDDING_MISMATCH_PAUSE_MS = 30_000
/** How often a worker that does not lead the enqueueing (sharded database) tries to. */
const LEAD_RETRY_MS = 5_000

/**
 * Tenants, apps and keys. Keys are cached only where every revocation is heard: a server's LISTEN, or the embedded
 * server this process runs.
 */
const tenantService = (db: Database, bus: EventBus, opts: { cacheKeys: boolean; sharded?: boolean }) =>
  new TenantService(db.dataSource, bus, opts)
/** Dashboard accounts; sign-up counters shared through the database on a server. */
const accountService = (db: Database, config: Config) =>
  new AccountService(db.dataSource, config.dashboard, { shared: db.mode === 'server' })

/** Shutdown steps, run last first by `close` (once); a step that fails is logged and the rest still run. */
function closing(log: Pick<Logger, 'error'>) {
  const steps: (() => Promise<unknown>)[] = []
  return {
    add: (step: () => Promise<unknown>) => void steps.push(step),
    close: async () => {
      for (const step of steps.splice(0).reverse())
        await step().catch((e) => log.error({ err: e }, 'shutdown step failed'))
    },
  }
}

/** What the CLI's commands use: the database (migrated), its events, and the services, built as the service does. */
export interface Cli {
  config: Config
  db: Database
  tenants: TenantService
  accounts: AccountService
  /** The AI providers are loaded only by the commands that need them. */
  reindexer(): Promise<ReindexService>
  /** Export and import; `embed` loads the embedding model (an import re-embeds what it writes). */
  exporter(options: { embed: boolean }): Promise<ExportService>
  close(): Promise<void>
}

/**
 * For one CLI command: a small pool, no LISTEN and no key cache (nothing to hear). Its events still reach running
 * services: a revocation is NOTIFYd in its transaction, heard through LISTEN on a server and picked out of the
 * replies of the embedded server otherwise.
 */
export async function openCli(config: Config, opts: { ai?: AiProviders } = {}): Promise<Cli> {
  const log = pino({ level: 'warn' }, pino.destination(2))
  const db = await openDatabase(config, { poolSize: 2 })
  const cleanup = closing(log)
  cleanup.add(() => db.close())
  try {
    await migrate(db)
    const bus = new PostgresEventBus(db.url, log)
    cleanup.add(() => bus.close())
    const accounts = accountService(db, config)
    cleanup.add(() => accounts.close())
    return {
      config,
      db,
      tenants: tenantService(db, bus, { cacheKeys: false }),
      accounts,
      async reindexer() {
        const [{ ReindexService }, { createAiProviders }] = await Promise.all([
          import('./services/reindex.service.js'),
          import('./ai/index.js'),
        ])
        const ai = opts.ai ?? createAiProviders(config, { log })
        if (ai.close) cleanup.add(() => ai.close!())
        return new ReindexService(db.dataSource, ai, {
          perSubmission: config.profiles.passagesPerSubmission,
          perProfile: config.profiles.passagesPerProfile,
        })
      },
      async exporter(options) {
        const { ExportService } = await import('./services/export.service.js')
        if (!options.embed) return new ExportService(db.dataSource)
        const { createAiProviders } = await import('./ai/index.js')
        const ai = opts.ai ?? createAiProviders(config, { log })
        if (ai.close) cleanup.add(() => ai.close!())
        return new ExportService(db.dataSource, { embedder: ai.embedder })
      },
      close: cleanup.close,
    }
  } catch (err) {
    await cleanup.close()
    throw err
  }
}

/**
 * The service's other modules (the AI providers with the local NLP models, the HTTP layer: Fastify, Apollo,
 * type-graphql) take seconds to load: they load while the database starts, which compiles PGlite's WebAssembly off
 * the main thread, and are awaited once it is migrated.
 */
async function loadServiceModules() {
  const [
    ai,
    server,
    queue,
    workerLoop,
    reconciler,
    statements,
    profileRepository,
    processingRepository,
    processing,
    profile,
    profileEdit,
    reindex,
    search,
    submission,
    budget,
    metered,
    submissionRepository,
    metricsServer,
    metrics,
    exporter,
    retention,
    profileContext,
    passages,
    webhooks,
    reextraction,
    cpu,
    provenance,
    typoDictionary,
  ] = await Promise.all([
    import('./ai/index.js'),
    import('./server.js'),
    import('./jobs/queue.js'),
    import('./jobs/worker-loop.js'),
    import('./jobs/reconciler.js'),
    import('./db/statements.js'),
    import('./db/profile.repository.js'),
    import('./db/processing.repository.js'),
    import('./services/processing.service.js'),
    import('./services/profile.service.js'),
    import('./services/profile-edit.service.js'),
    import('./services/reindex.service.js'),
    import('./services/search.service.js'),
    import('./services/submission.service.js'),
    import('./services/budget.js'),
    import('./ai/metered.js'),
    import('./db/submission.repository.js'),
    import('./http/metrics.js'),
    import('./metrics/metrics.js'),
    import('./services/export.service.js'),
    import('./services/retention.service.js'),
    import('./services/profile-context.service.js'),
    import('./services/passage.service.js'),
    import('./services/webhooks/index.js'),
    import('./services/reextraction.service.js'),
    import('./services/cpu/cpu.js'),
    import('./services/provenance.service.js'),
    import('./services/typo-dictionary.js'),
  ])
  return {
    ...{ ai, server, queue, workerLoop, reconciler, statements, profileRepository, processingRepository, processing },
    ...{ profile, profileEdit, reindex, search, submission, budget, metered, submissionRepository, metricsServer },
    ...{ metrics, exporter, retention, profileContext, passages, webhooks, reextraction, cpu, provenance },
    typoDictionary,
  }
}

type ServiceModules = Awaited<ReturnType<typeof loadServiceModules>>

/** What the stages of `startProfiler` share: the configuration, the loaded modules, the database and the closers. */
interface Stage {
  config: Config
  opts: StartOptions
  modules: ServiceModules
  db: Database
  log: Logger
  steps: ReturnType<typeof closing>
  /** On a sharded database: the tenants that may have work, marked by POSTs, read by the reconciler. */
  due?: DueTenants
}

type Ai = ReturnType<ServiceModules['metered']['metered']>
type Webhooks = ReturnType<typeof buildWebhooks>

/** The process's metrics, reading the database pool and the queue of open submissions. */
function createMetrics({ modules, db, opts }: Stage) {
  const metrics = new modules.metrics.Metrics({ role: opts.role, database: db.mode, version: packageVersion() })
  metrics.dbPool(() => poolStats(db.dataSource))
  if (db.embeddedStats) metrics.embeddedDb(db.embeddedStats)
  const submissionRows = new modules.submissionRepository.SubmissionRepository()
  metrics.queue(() => submissionRows.openStats(db.dataSource.manager))
  return metrics
}

/** The job queue (pg-boss); only processes that run the worker supervise it. */
async function startQueue({ modules, config, db, opts, log, steps, due }: Stage) {
  const queue = new modules.queue.JobQueue({
    url: db.url,
    pollSeconds: config.worker.pollSeconds,
    supervise: opts.role !== 'api',
    onError: (e) => log.warn({ err: e }, 'job queue error'),
    sharded: due !== undefined,
  })
  await queue.start()
  steps.add(() => queue.stop())
  return queue
}

/** The AI providers (as configured, or injected by tests), counted by the metrics. */
function createAi({ modules, config, opts, log, steps }: Stage, metrics: Metrics): Ai {
  const logged = modules.ai.loggedPause(log)
  const providers =
    opts.ai ??
    modules.ai.createAiProviders(config, {
      onLlmFailure: (kind) => metrics.llmRequestFailed(kind),
      events: { ...logged, onPause: (pause) => (metrics.llmPaused(pause.reason), logged.onPause!(pause)) },
      log,
    })
  const ai = modules.metered.metered(providers, metrics)
  if (ai.status) metrics.aiProvider(() => ai.status!())
  if (ai.close) steps.add(() => ai.close!())
  return ai
}

/**
 * Refuses to start when the database's embeddings have another dimension than the model makes (a new database follows
 * the model), and warns about profiles embedded with another model of the same dimension.
 */
async function checkEmbeddingModel({ modules, db, log }: Stage, ai: Ai) {
  const ds = db.dataSource
  let dimension = await embeddingDimension(ds)
  if (dimension !== ai.embedder.dimension) {
    const [{ n: embedded }] = await ds.query(`SELECT count(*)::int AS n FROM profiles WHERE embedding IS NOT NULL`)
    const adapted = embedded === 0 && (await new modules.reindex.ReindexService(ds, ai).adaptColumn({ probe: false }))
    if (adapted) dimension = ai.embedder.dimension
  }
  if (dimension !== ai.embedder.dimension) {
    throw new Error(
      `The database stores ${dimension}-dimensional embeddings but the embedding model ${ai.embedder.model} makes ` +
        `${ai.embedder.dimension}: run \`profiler reindex\` with this configuration to adapt the column and ` +
        're-embed the profiles, or configure the model the database was built with.',
    )
  }
  const [{ stale }] = await ds.query(
    `SELECT count(*)::int AS stale FROM profiles WHERE embedding IS NOT NULL AND embedding_model IS DISTINCT FROM $1`,
    [ai.embedder.model],
  )
  if (stale) {
    log.warn(
      `${stale} profiles were embedded with another model than ${ai.embedder.model} and are left out of semantic ` +
        'search until `profiler reindex`',
    )
  }
  await ai.embedder.warmUp?.()
}

/**
 * The event bus: LISTEN/NOTIFY on a server. NOTIFY does not cross PGlite connections, so events travel in process in
 * embedded mode (and what the CLI NOTIFYs through the embedded server is picked out of its replies).
 */
async function startEventBus({ db, log, steps }: Stage): Promise<EventBus> {
  let bus: EventBus
  if (db.mode === 'server') {
    const serverBus = new PostgresEventBus(db.url, log)
    await serverBus.start()
    bus = serverBus
  } else {
    const embeddedBus = new EmbeddedEventBus()
    db.onNotification?.((channel, payload) => embeddedBus.receive(channel, payload))
    bus = embeddedBus
  }
  steps.add(() => bus.close())
  return bus
}

/** Every service, each behind the tenants' request gate where it serves requests. */
async function buildServices(
  stage: Stage,
  parts: { ai: Ai; bus: EventBus; queue: JobQueue; metrics: Metrics },
): Promise<{ services: Services; profileService: ProfileService; webhooks: Webhooks }> {
  const { modules: m, config, db, opts, log, steps } = stage
  const { ai, bus, queue, metrics } = parts
  const ds = db.dataSource
  // Search statements on a read replica when one is configured (API processes only: the worker never searches).
  let searchDb: Database | undefined
  if (config.search.databaseUrl && opts.role !== 'worker') {
    searchDb = await openDatabase({ ...config, databaseUrl: config.search.databaseUrl })
    steps.add(() => searchDb!.close())
  }
  const statements = await m.statements.Statements.create(ds)
  const historyBounds = { entries: config.profiles.historyEntries, snapshots: config.profiles.snapshots }
  const profiles = new m.profileRepository.ProfileRepository(statements, historyBounds)
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`
  const budget = new m.budget.RequestBudget({
    perMinute: config.limits.ratePerMinute,
    authFailuresPerMinute: config.limits.authFailuresPerMinute,
    tenantConcurrency: config.limits.tenantConcurrency,
    tenantQueue: config.limits.tenantQueue,
    tenantBurst: POOL_SIZE,
    shared: db.mode === 'server' ? ds : undefined,
  })
  steps.add(() => budget.close())
  const accounts = accountService(db, config)
  steps.add(() => accounts.close())
  const gate = budget.tenants
  const gated = m.budget.gated
  // Merges and contexts of large profiles run here, off the event loop.
  const cpu = new m.cpu.CpuPool(config.worker.cpuThreads)
  steps.add(() => cpu.close())
  // Started now, awaited before the services are handed out, so no request pays for a thread's start.
  const cpuWarm = cpu.prestart().catch((e) => log.warn({ err: e }, 'a CPU thread failed its warm-up'))
  const profileService = new m.profile.ProfileService(ds, profiles, queue, bus)
  const webhooks = m.webhooks.buildWebhooks(ds, config, {
    log,
    sharded: stage.due !== undefined,
    embeddedDataDir: db.mode === 'embedded' ? config.dataDir : undefined,
  })
  // One typo dictionary for search and contexts: read once, a failure to read it reported once.
  const typos = new m.typoDictionary.TypoDictionary({ log })
  const search = new m.search.SearchService(searchDb?.dataSource ?? ds, ai.embedder, config.limits.maxPageSize, {
    statements: searchDb ? await m.statements.Statements.create(searchDb.dataSource) : statements,
    budget,
    chunkBytes: config.search.readChunkBytes,
    chargeUnitBytes: config.limits.maxBodyBytes,
    wholeMaxBytes: config.graphql.maxSearchBytes,
    exactTotalMax: config.search.exactTotalMax,
    lexicalExactMax: config.search.lexicalExactMax,
    typos,
  })
  const processing = new m.processing.ProcessingService(
    ds,
    profiles,
    new m.processingRepository.ProcessingRepository(historyBounds),
    queue,
    ai,
    bus,
    log,
    {
      workerId,
      ...config.worker,
      limits: config.profiles,
      passageStatement: db.mode === 'server' ? SERVER_PASSAGE_STATEMENT : EMBEDDED_PASSAGE_STATEMENT,
    },
    metrics,
    cpu,
  )
  const reextraction = new m.reextraction.ReextractionService(
    ds,
    profiles,
    new m.processingRepository.ProcessingRepository(historyBounds),
    ai,
    bus,
    budget,
    {
      batchSize: config.worker.batchSize,
      maxSubmissions: config.worker.reextractMaxSubmissions,
      limits: config.profiles,
      maxDataBytes: config.limits.maxDataBytes,
    },
    cpu,
  )
  const contexts = new m.profileContext.ProfileContextService(ds, profiles, ai.embedder, cpu, undefined, typos, {
    scanPassages: config.limits.contextScanPassages,
  })
  const submissionLimits = { ...config.limits, maxValueChars: config.profiles.valueChars }
  const services: Services = {
    tenants: tenantService(db, bus, {
      cacheKeys: db.mode === 'server' || !!db.onNotification,
      sharded: stage.due !== undefined,
    }),
    accounts,
    submissions: gated(
      new m.submission.SubmissionService(ds, statements, queue, bus, submissionLimits, stage.due),
      gate,
    ),
    profiles: gated(profileService, gate),
    edits: gated(new m.profileEdit.ProfileEditService(ds, profiles, ai, bus, cpu, config.profiles), gate),
    provenance: gated(new m.provenance.ProvenanceService(ds, bus), gate),
    search: gated(search, gate),
    llmContext: gated(contexts, gate),
    passages: gated(new m.passages.PassageService(ds, profiles, config.limits.maxPageSize), gate),
    processing,
    reextraction: gated(reextraction, gate),
    exports: gated(new m.exporter.ExportService(ds, { embedder: ai.embedder, budget, cpu }), gate),
    webhooks: webhooks.service,
    schemas: gated(new AppSchemaService(ds, bus, { ...config.customSchemas, history: historyBounds }), gate),
    budget,
  }
  // Runs after the API has stopped taking requests (steps run last first) and before the bus and the queue stop.
  steps.add(() => services.processing.stop(Math.floor(config.shutdownTimeoutMs / 2)))
  await Promise.all([cpuWarm, contexts.warmUp()])
  return { services, profileService, webhooks }
}

/** Issues the bootstrap key on a database without tenants; printed for the CLI, kept in the embedded data dir. */
async function issueBootstrapKey({ config, opts, db }: Stage, services: Services): Promise<string | undefined> {
  if (!config.bootstrap) return undefined
  const issued = await services.tenants.bootstrap()
  if (!issued) return undefined
  if (opts.printBootstrapKey) {
    process.stdout.write(
      `\nBootstrap API key for tenant 'default', app 'default' (shown once):\n  ${issued.api_key}\n\n`,
    )
  }
  if (db.mode === 'embedded') {
    fs.writeFileSync(path.join(config.dataDir, 'bootstrap-key'), `${issued.api_key}\n`, { mode: 0o600 })
  }
  return issued.api_key
}

/** The worker: the job loop, the lease reconciler, the retention sweep and the webhook dispatcher. */
function startWorker(
  stage: Stage,
  parts: { queue: JobQueue; bus: EventBus; services: Services; profileService: ProfileService; webhooks: Webhooks },
): RetentionService {
  const { modules: m, config, db, log, steps } = stage
  const { queue, bus, services } = parts
  const loop = new m.workerLoop.WorkerLoop(
    queue,
    {
      concurrency: config.worker.concurrency,
      roundSize: config.worker.roundSize,
      pollMs: config.worker.pollSeconds * 1000,
    },
    (jobs) => services.processing.processJobs(jobs),
    log,
  )
  // A profile that starts processing has a new job: fetch it now (in process, or through LISTEN from any API process).
  // On a sharded database the POST enqueued none: the lead worker enqueues it from the event, then wakes its loop.
  const lead = stage.due
    ? new LeadEnqueuer(queue, { url: db.url, retryMs: LEAD_RETRY_MS, log, onEnqueued: () => loop.wake() })
    : undefined
  const stopWaking = bus.subscribe('profileStatusChanged', (event) => {
    if (event.status !== 'processing') return
    if (lead) lead.add({ tenantId: event.tenantId, profileId: event.profileId })
    else loop.wake()
  })
  void lead?.start() // it logs its own failures and tries again
  // A worker whose embedding model is unlike the database's (reindexed for another) can apply nothing: it stops
  // taking jobs for a while, so that a worker configured like the database gets them, and then looks again.
  const stopPausing = services.processing.onEmbeddingMismatch(() => loop.pause(EMBEDDING_MISMATCH_PAUSE_MS))
  loop.start()
  // Closers run in reverse: the loop stops fetching before the processing service waits for its rounds.
  steps.add(async () => {
    stopWaking()
    stopPausing()
    await lead?.stop()
    await loop.stop()
  })
  const reconciler = new m.reconciler.Reconciler(db.dataSource, queue, config.worker.leaseSeconds, stage.due)
  const timer = setInterval(() => {
    reconciler.run().catch((e) => log.warn({ err: e }, 'reconcile failed'))
  }, config.worker.reconcileSeconds * 1000)
  timer.unref()
  steps.add(async () => clearInterval(timer))
  const retention = startRetention(stage, parts.profileService)
  startWebhookDispatcher(stage, bus, parts.webhooks)
  return retention
}

/**
 * The apps' retention policies: a first sweep a minute after start (or sooner when the period is shorter), then every
 * period; one sweep at a time across processes (see RetentionService).
 */
function startRetention({ modules, config, db, log, steps, due }: Stage, profileService: ProfileService) {
  const retention = new modules.retention.RetentionService(db.dataSource, profileService, log, {
    ...config.retention,
    sharded: due !== undefined,
  })
  const period = config.retention.sweepSeconds * 1000
  if (period > 0) {
    const sweep = () => {
      retention.runOnce().catch((e) => log.warn({ err: e }, 'retention sweep failed'))
    }
    let every: NodeJS.Timeout | undefined
    const first = setTimeout(
      () => {
        sweep()
        every = setInterval(sweep, period).unref()
      },
      Math.min(period, 60_000),
    ).unref()
    steps.add(async () => {
      clearTimeout(first)
      clearInterval(every)
    })
  }
  // Before the database closes (steps run last first): a sweep under way ends after its batch.
  steps.add(() => retention.stop())
  return retention
}

/** Webhook deliveries: woken by the events that write the outbox (here or, over LISTEN, elsewhere), else polled. */
function startWebhookDispatcher({ steps }: Stage, bus: EventBus, webhooks: Webhooks) {
  const dispatcher = webhooks.dispatcher
  const stopStatus = bus.subscribe(
    'profileStatusChanged',
    (e) => e.status !== 'processing' && dispatcher.wake(e.tenantId),
  )
  const stopFailed = bus.subscribe('submissionFailed', (e) => dispatcher.wake(e.tenantId))
  const stopMissed = bus.subscribe('eventsMissed', () => dispatcher.resync())
  dispatcher.start()
  steps.add(async () => {
    stopStatus()
    stopFailed()
    stopMissed()
    await dispatcher.stop()
  })
}

/** The HTTP API (REST, GraphQL, subscriptions, dashboard), listening on the configured port. */
async function startApi(
  { modules, config, db, log, steps }: Stage,
  parts: { services: Services; bus: EventBus; metrics: Metrics; ai: Ai },
): Promise<{ server: FastifyInstance; url?: string }> {
  const server = await modules.server.buildServer({
    config,
    services: parts.services,
    bus: parts.bus,
    log,
    metrics: parts.metrics,
    ready: async () => migrationsApplied(db),
    aiStatus: parts.ai.status,
  })
  await server.listen({ port: config.port, host: config.host })
  const address = server.server.address()
  const url = typeof address === 'object' && address ? `http://${config.host}:${address.port}` : undefined
  steps.add(() => server.close())
  return { server, url }
}

/** The separate metrics port, when configured: in every role, since a worker has no API port. */
async function startMetricsPort({ modules, config, steps }: Stage, metrics: Metrics) {
  if (config.metrics.port === undefined) return undefined
  const metricsServer = await modules.metricsServer.startMetricsServer(metrics, {
    host: config.metrics.host,
    port: config.metrics.port,
  })
  steps.add(() => metricsServer.close())
  return metricsServer.url
}

/** Builds the service (API, worker or both) from the validated configuration, and starts it. */
export async function startProfiler(config: Config, opts: StartOptions): Promise<Profiler & { bootstrapKey?: string }> {
  const modules = loadServiceModules()
  modules.catch(() => undefined) // awaited below; a failure to load is reported there, not as an unhandled rejection
  const { log, close: closeLog } = serviceLogger(config, opts.logStream)
  const steps = closing(log)
  steps.add(closeLog)
  let db: Database
  try {
    // Off unless configured: then the SDK is not loaded and every span helper returns at once. Stopped last but the
    // log, so the spans of the shutdown are sent too.
    const stopTracing = await startTracing(config.tracing, log, opts.tracing)
    if (stopTracing) steps.add(stopTracing)
    db = await openDatabase(config, { listen: [EVENT_CHANNEL] })
  } catch (err) {
    await steps.close()
    throw err
  }
  steps.add(() => db.close())
  try {
    await migrate(db)
    const due = db.mode === 'server' && (await isSharded(db.dataSource)) ? new DueTenants(db.dataSource) : undefined
    const stage: Stage = { config, opts, modules: await modules, db, log, steps, due }
    const metrics = createMetrics(stage)
    const queue = await startQueue(stage)
    const ai = createAi(stage, metrics)
    await checkEmbeddingModel(stage, ai)
    const bus = await startEventBus(stage)
    const { services, profileService, webhooks } = await buildServices(stage, { ai, bus, queue, metrics })
    const bootstrapKey = await issueBootstrapKey(stage, services)
    const retention =
      opts.role !== 'api' ? startWorker(stage, { queue, bus, services, profileService, webhooks }) : undefined
    const api = opts.role !== 'worker' ? await startApi(stage, { services, bus, metrics, ai }) : undefined
    const metricsUrl = await startMetricsPort(stage, metrics)
    const { server, url } = api ?? {}
    return {
      config,
      db,
      services,
      bus,
      log,
      metrics,
      server,
      retention,
      url,
      metricsUrl,
      bootstrapKey,
      close: steps.close,
    }
  } catch (err) {
    await steps.close()
    throw err
  }
}

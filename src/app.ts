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
 * per request was 6 % of the POST's wall time under load. Under load they are also written in batches of 4 KB or more
 * instead of one write per line; a line waits at most 100 ms.
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

/** Tenants, apps and keys. Keys are cached only where every revocation is heard: a server's LISTEN, or the embedded server this process runs. */
/** How long a worker whose embedding model is unlike the database's takes no jobs before it tries again. */
const EMBEDDING_MISMATCH_PAUSE_MS = 30_000

const tenantService = (db: Database, bus: EventBus, opts: { cacheKeys: boolean }) =>
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

/** What the CLI's commands use: the database (migrated), its events, and the services, built as the service builds them. */
export interface Cli {
  config: Config
  db: Database
  tenants: TenantService
  accounts: AccountService
  /** The AI providers are loaded only by the commands that need them. */
  reindexer(): Promise<ReindexService>
  /** Export and import; `embed` loads the embedding model (an import re-embeds what it writes). */
  exporter(o: { embed: boolean }): Promise<ExportService>
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
  const c = closing(log)
  c.add(() => db.close())
  try {
    await migrate(db)
    const bus = new PostgresEventBus(db.url, log)
    c.add(() => bus.close())
    const accounts = accountService(db, config)
    c.add(() => accounts.close())
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
        if (ai.close) c.add(() => ai.close!())
        return new ReindexService(db.dataSource, ai, {
          perSubmission: config.profiles.passagesPerSubmission,
          perProfile: config.profiles.passagesPerProfile,
        })
      },
      async exporter(o) {
        const { ExportService } = await import('./services/export.service.js')
        if (!o.embed) return new ExportService(db.dataSource)
        const { createAiProviders } = await import('./ai/index.js')
        const ai = opts.ai ?? createAiProviders(config, { log })
        if (ai.close) c.add(() => ai.close!())
        return new ExportService(db.dataSource, { embedder: ai.embedder })
      },
      close: c.close,
    }
  } catch (e) {
    await c.close()
    throw e
  }
}

/** Builds the service (API, worker or both) from the validated configuration, and starts it. */
export async function startProfiler(config: Config, opts: StartOptions): Promise<Profiler & { bootstrapKey?: string }> {
  // The service's other modules (the AI providers with the local NLP models, the HTTP layer: Fastify, Apollo,
  // type-graphql) are 1-2.5 s of loading: they load while the database starts, which compiles PGlite's WebAssembly
  // off the main thread, and are awaited once it is migrated.
  const modules = Promise.all([
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
  modules.catch(() => undefined) // awaited below; a failure to load is reported there, not as an unhandled rejection
  const { log, close: closeLog } = serviceLogger(config, opts.logStream)
  const c = closing(log)
  c.add(closeLog)
  // Off unless configured: then the SDK is not loaded and every span helper returns at once. Stopped last but the log,
  // so the spans of the shutdown are sent too.
  let db: Database
  try {
    const stopTracing = await startTracing(config.tracing, log, opts.tracing)
    if (stopTracing) c.add(stopTracing)
    db = await openDatabase(config, { listen: [EVENT_CHANNEL] })
  } catch (e) {
    await c.close()
    throw e
  }
  c.add(() => db.close())
  const close = c.close
  try {
    await migrate(db)
    const ds = db.dataSource
    const [
      { createAiProviders, loggedPause },
      { buildServer },
      { JobQueue },
      { WorkerLoop },
      { Reconciler },
      { Statements },
      { ProfileRepository },
      { ProcessingRepository },
      { ProcessingService },
      { ProfileService },
      { ProfileEditService },
      { ReindexService },
      { SearchService },
      { SubmissionService },
      { gated, RequestBudget },
      { metered },
      { SubmissionRepository },
      { startMetricsServer },
      { Metrics },
      { ExportService },
      { RetentionService },
      { ProfileContextService },
      { PassageService },
      { buildWebhooks },
      { ReextractionService },
      { CpuPool },
      { ProvenanceService },
      { TypoDictionary },
    ] = await modules
    const metrics = new Metrics({ role: opts.role, database: db.mode, version: packageVersion() })
    metrics.dbPool(() => poolStats(ds))
    if (db.embeddedStats) metrics.embeddedDb(db.embeddedStats)
    const submissionRows = new SubmissionRepository()
    metrics.queue(() => submissionRows.openStats(ds.manager))
    const queue = new JobQueue({
      url: db.url,
      pollSeconds: config.worker.pollSeconds,
      supervise: opts.role !== 'api',
      onError: (e) => log.warn({ err: e }, 'job queue error'),
    })
    await queue.start()
    c.add(() => queue.stop())
    const logged = loggedPause(log)
    const ai = metered(
      opts.ai ??
        createAiProviders(config, {
          onLlmFailure: (kind) => metrics.llmRequestFailed(kind),
          events: { ...logged, onPause: (p) => (metrics.llmPaused(p.reason), logged.onPause!(p)) },
          log,
        }),
      metrics,
    )
    if (ai.status) metrics.aiProvider(() => ai.status!())
    if (ai.close) c.add(() => ai.close!())
    let dim = await embeddingDimension(ds)
    if (dim !== ai.embedder.dimension) {
      // Nothing embedded yet (a new database): follow the configured model without asking for a reindex.
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM profiles WHERE embedding IS NOT NULL`)
      if (n === 0 && (await new ReindexService(ds, ai).adaptColumn({ probe: false }))) dim = ai.embedder.dimension
    }
    if (dim !== ai.embedder.dimension) {
      throw new Error(
        `The database stores ${dim}-dimensional embeddings but the embedding model ${ai.embedder.model} makes ${ai.embedder.dimension}: ` +
          'run `profiler reindex` with this configuration to adapt the column and re-embed the profiles, or configure the model the database was built with.',
      )
    }
    const [{ stale }] = await ds.query(
      `SELECT count(*)::int AS stale FROM profiles WHERE embedding IS NOT NULL AND embedding_model IS DISTINCT FROM $1`,
      [ai.embedder.model],
    )
    if (stale) {
      log.warn(
        `${stale} profiles were embedded with another model than ${ai.embedder.model} and are left out of semantic search until \`profiler reindex\``,
      )
    }
    await ai.embedder.warmUp?.()
    // NOTIFY does not cross pglite connections, so events travel in process in embedded mode (and what the CLI
    // NOTIFYs through the embedded server is picked out of its replies).
    let bus: EventBus
    if (db.mode === 'server') {
      bus = new PostgresEventBus(db.url, log)
      await (bus as PostgresEventBus).start()
    } else {
      const embeddedBus = new EmbeddedEventBus()
      db.onNotification?.((channel, payload) => embeddedBus.receive(channel, payload))
      bus = embeddedBus
    }
    c.add(() => bus.close())
    // Search statements on a read replica when one is configured (API processes only: the worker never searches).
    let searchDb: Database | undefined
    if (config.search.databaseUrl && opts.role !== 'worker') {
      searchDb = await openDatabase({ ...config, databaseUrl: config.search.databaseUrl })
      c.add(() => searchDb!.close())
    }
    const statements = await Statements.create(ds)
    const historyBounds = { entries: config.profiles.historyEntries, snapshots: config.profiles.snapshots }
    const profiles = new ProfileRepository(statements, historyBounds)
    const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`
    const budget = new RequestBudget({
      perMinute: config.limits.ratePerMinute,
      authFailuresPerMinute: config.limits.authFailuresPerMinute,
      tenantConcurrency: config.limits.tenantConcurrency,
      tenantQueue: config.limits.tenantQueue,
      tenantBurst: POOL_SIZE,
      shared: db.mode === 'server' ? ds : undefined,
    })
    c.add(() => budget.close())
    c.add(() => services.accounts.close())
    const gate = budget.tenants
    // Merges and contexts of large profiles run here, off the event loop.
    const cpu = new CpuPool(config.worker.cpuThreads)
    c.add(() => cpu.close())
    const profileService = new ProfileService(ds, profiles, queue, bus)
    const webhooks = buildWebhooks(ds, config, {
      log,
      embeddedDataDir: db.mode === 'embedded' ? config.dataDir : undefined,
    })
    // One typo dictionary for search and contexts: read once, a failure to read it reported once.
    const typos = new TypoDictionary({ log })
    const services: Services = {
      tenants: tenantService(db, bus, { cacheKeys: db.mode === 'server' || !!db.onNotification }),
      accounts: accountService(db, config),
      submissions: gated(
        new SubmissionService(ds, statements, queue, bus, {
          ...config.limits,
          maxValueChars: config.profiles.valueChars,
        }),
        gate,
      ),
      profiles: gated(profileService, gate),
      edits: gated(new ProfileEditService(ds, profiles, ai, bus, cpu, config.profiles), gate),
      provenance: gated(new ProvenanceService(ds, bus), gate),
      search: gated(
        new SearchService(searchDb?.dataSource ?? ds, ai.embedder, config.limits.maxPageSize, {
          statements: searchDb ? await Statements.create(searchDb.dataSource) : statements,
          budget,
          chunkBytes: config.search.readChunkBytes,
          chargeUnitBytes: config.limits.maxBodyBytes,
          wholeMaxBytes: config.graphql.maxSearchBytes,
          exactTotalMax: config.search.exactTotalMax,
          lexicalExactMax: config.search.lexicalExactMax,
          typos,
        }),
        gate,
      ),
      llmContext: gated(new ProfileContextService(ds, profiles, ai.embedder, cpu, undefined, typos), gate),
      passages: gated(new PassageService(ds, profiles, config.limits.maxPageSize), gate),
      processing: new ProcessingService(
        ds,
        profiles,
        new ProcessingRepository(historyBounds),
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
      ),
      reextraction: gated(
        new ReextractionService(
          ds,
          profiles,
          new ProcessingRepository(historyBounds),
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
        ),
        gate,
      ),
      exports: gated(new ExportService(ds, { embedder: ai.embedder, budget, cpu }), gate),
      webhooks: webhooks.service,
      schemas: gated(new AppSchemaService(ds, bus, { ...config.customSchemas, history: historyBounds }), gate),
      budget,
    }

    // Runs after the API has stopped taking requests (shutdown steps run last first) and before the bus and the queue stop.
    c.add(() => services.processing.stop(Math.floor(config.shutdownTimeoutMs / 2)))

    let bootstrapKey: string | undefined
    if (config.bootstrap) {
      const issued = await services.tenants.bootstrap()
      if (issued) {
        bootstrapKey = issued.api_key
        if (opts.printBootstrapKey) {
          process.stdout.write(
            `\nBootstrap API key for tenant 'default', app 'default' (shown once):\n  ${issued.api_key}\n\n`,
          )
        }
        if (db.mode === 'embedded') {
          fs.writeFileSync(path.join(config.dataDir, 'bootstrap-key'), issued.api_key + '\n', { mode: 0o600 })
        }
      }
    }

    let retention: RetentionService | undefined
    if (opts.role !== 'api') {
      const loop = new WorkerLoop(
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
      const stopWaking = bus.subscribe('profileStatusChanged', (e) => e.status === 'processing' && loop.wake())
      // A worker whose embedding model is unlike the database's (reindexed for another) can apply nothing: it stops
      // taking jobs for a while, so that a worker configured like the database gets them, and then looks again.
      const stopPausing = services.processing.onEmbeddingMismatch(() => loop.pause(EMBEDDING_MISMATCH_PAUSE_MS))
      loop.start()
      // Closers run in reverse: the loop stops fetching before the processing service waits for its rounds.
      c.add(async () => {
        stopWaking()
        stopPausing()
        await loop.stop()
      })
      const reconciler = new Reconciler(ds, queue, config.worker.leaseSeconds)
      const timer = setInterval(() => {
        reconciler.run().catch((e) => log.warn({ err: e }, 'reconcile failed'))
      }, config.worker.reconcileSeconds * 1000)
      timer.unref()
      c.add(async () => clearInterval(timer))
      // The apps' retention policies: a first sweep a minute after start (or sooner when the period is shorter), then
      // every period; one sweep at a time across processes (see RetentionService).
      retention = new RetentionService(ds, profileService, log, config.retention)
      const period = config.retention.sweepSeconds * 1000
      if (period > 0) {
        const sweep = () => {
          retention!.runOnce().catch((e) => log.warn({ err: e }, 'retention sweep failed'))
        }
        let every: NodeJS.Timeout | undefined
        const first = setTimeout(
          () => {
            sweep()
            every = setInterval(sweep, period).unref()
          },
          Math.min(period, 60_000),
        ).unref()
        c.add(async () => {
          clearTimeout(first)
          clearInterval(every)
        })
      }
      // Before the database closes (steps run last first): a sweep under way ends after its batch.
      c.add(() => retention!.stop())
      // Webhook deliveries: woken by the events that write the outbox (here or, over LISTEN, in any process), else polled.
      const dispatcher = webhooks.dispatcher
      const stopStatus = bus.subscribe('profileStatusChanged', (e) => e.status !== 'processing' && dispatcher.wake())
      const stopFailed = bus.subscribe('submissionFailed', () => dispatcher.wake())
      dispatcher.start()
      c.add(async () => {
        stopStatus()
        stopFailed()
        await dispatcher.stop()
      })
    }

    let server: FastifyInstance | undefined
    let url: string | undefined
    if (opts.role !== 'worker') {
      server = await buildServer({
        config,
        services,
        bus,
        log,
        metrics,
        ready: async () => migrationsApplied(db),
        aiStatus: ai.status,
      })
      await server.listen({ port: config.port, host: config.host })
      const addr = server.server.address()
      url = typeof addr === 'object' && addr ? `http://${config.host}:${addr.port}` : undefined
      c.add(() => server!.close())
    }
    // In every role: a worker has no API port, and this is where its extraction and LLM metrics are read.
    let metricsUrl: string | undefined
    if (config.metrics.port !== undefined) {
      const m = await startMetricsServer(metrics, { host: config.metrics.host, port: config.metrics.port })
      metricsUrl = m.url
      c.add(() => m.close())
    }
    return { config, db, services, bus, log, metrics, server, retention, url, metricsUrl, bootstrapKey, close }
  } catch (e) {
    await close()
    throw e
  }
}

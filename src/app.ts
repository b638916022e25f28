import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import pino, { type Logger } from 'pino'
import type { AiProviders } from './ai/types.js'
import type { Config } from './config.js'
import { embeddingDimension, migrate, migrationsApplied, openDatabase, POOL_SIZE, type Database } from './db/database.js'
import { ProfileRepository } from './db/profile.repository.js'
import { Statements } from './db/statements.js'
import { EmbeddedEventBus, EVENT_CHANNEL, type EventBus } from './events/event-bus.js'
import { PostgresEventBus } from './events/postgres-bus.js'
import { JobQueue } from './jobs/queue.js'
import { WorkerLoop } from './jobs/worker-loop.js'
import { ProcessingRepository } from './db/processing.repository.js'
import { Reconciler } from './jobs/reconciler.js'
import type { Services } from './services/index.js'
import { ProcessingService } from './services/processing.service.js'
import { ProfileService } from './services/profile.service.js'
import { ReindexService } from './services/reindex.service.js'
import { SearchService } from './services/search.service.js'
import { SubmissionService } from './services/submission.service.js'
import { AccountService } from './services/account.service.js'
import { gated, RequestBudget } from './services/budget.js'
import { TenantService } from './services/tenant.service.js'

export type Role = 'all' | 'api' | 'worker'

export interface Profiler {
  config: Config
  db: Database
  services: Services
  bus: EventBus
  log: Logger
  server?: FastifyInstance
  /** http://host:port when the API runs. */
  url?: string
  close(): Promise<void>
}

export interface StartOptions {
  role: Role
  /** Print the bootstrap key (CLI); tests read it from the returned object instead. */
  printBootstrapKey?: boolean
  ai?: AiProviders
}

/** The composition root: builds everything from the validated configuration. */
export async function startProfiler(config: Config, opts: StartOptions): Promise<Profiler & { bootstrapKey?: string }> {
  // The AI providers (the local NLP models) and the HTTP layer (Fastify, Apollo, type-graphql) are most of the service's
  // modules, 1-2.5 s of loading here: they load while the database starts, which compiles PGlite's WebAssembly off the
  // main thread.
  const aiModule = opts.ai ? undefined : preload(import('./ai/index.js'))
  const httpModule = opts.role === 'worker' ? undefined : preload(import('./http/server.js'))
  // One logger for the service and its HTTP server. Lines are written asynchronously (flushed on exit): a synchronous
  // write per request was 6 % of the POST's wall time under load. Under load they are also written in batches of 4 KB
  // or more instead of one write per line; a line waits at most 100 ms.
  const logOut = pino.destination({ dest: 1, sync: false, minLength: 4096 })
  const logFlush = setInterval(() => logOut.flush(), 100).unref()
  const log = pino(
    { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'] },
    logOut,
  )
  const db = await openDatabase(config, { listen: [EVENT_CHANNEL] })
  const closers: (() => Promise<unknown>)[] = [
    async () => {
      clearInterval(logFlush)
      logOut.flush()
    },
    () => db.close(),
  ]
  const close = async () => {
    for (const c of closers.reverse()) await c().catch((e) => log.error({ err: e }, 'shutdown step failed'))
  }
  try {
    await migrate(db)
    const ds = db.dataSource
    const queue = new JobQueue({
      url: db.url,
      pollSeconds: config.worker.pollSeconds,
      supervise: opts.role !== 'api',
      onError: (e) => log.warn({ err: e }, 'job queue error'),
    })
    await queue.start()
    closers.push(() => queue.stop())
    const ai = opts.ai ?? (await aiModule!).createAiProviders(config)
    if (ai.close) closers.push(() => ai.close!())
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
      log.warn(`${stale} profiles were embedded with another model than ${ai.embedder.model} and are left out of semantic search until \`profiler reindex\``)
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
    closers.push(() => bus.close())
    const statements = await Statements.create(ds)
    const profiles = new ProfileRepository(statements)
    const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`
    const budget = new RequestBudget({
      perMinute: config.limits.ratePerMinute,
      authFailuresPerMinute: config.limits.authFailuresPerMinute,
      tenantConcurrency: config.limits.tenantConcurrency,
      tenantQueue: config.limits.tenantQueue,
      tenantBurst: POOL_SIZE,
      shared: db.mode === 'server' ? ds : undefined,
    })
    closers.push(() => budget.close())
    closers.push(() => services.accounts.close())
    const gate = budget.tenants
    const services: Services = {
      // Keys are cached only where every revocation is heard: a server's LISTEN, or the embedded server this process runs.
      tenants: new TenantService(ds, bus, { cacheKeys: db.mode === 'server' || !!db.onNotification }),
      accounts: new AccountService(ds, config.dashboard, { shared: db.mode === 'server' }),
      submissions: gated(new SubmissionService(ds, statements, queue, bus, config.limits), gate),
      profiles: gated(new ProfileService(ds, profiles, queue, bus), gate),
      search: gated(new SearchService(ds, ai.embedder, config.limits.maxPageSize), gate),
      processing: new ProcessingService(ds, profiles, new ProcessingRepository(), queue, ai, bus, log, { workerId, ...config.worker }),
      budget,
    }

    // Runs after the API has stopped taking requests (closers run in reverse) and before the bus and the queue stop.
    closers.push(() => services.processing.stop(Math.floor(config.shutdownTimeoutMs / 2)))

    let bootstrapKey: string | undefined
    if (config.bootstrap) {
      const issued = await services.tenants.bootstrap()
      if (issued) {
        bootstrapKey = issued.api_key
        if (opts.printBootstrapKey) {
          process.stdout.write(`\nBootstrap API key for tenant 'default', app 'default' (shown once):\n  ${issued.api_key}\n\n`)
        }
        if (db.mode === 'embedded') {
          fs.writeFileSync(path.join(config.dataDir, 'bootstrap-key'), issued.api_key + '\n', { mode: 0o600 })
        }
      }
    }

    if (opts.role !== 'api') {
      const loop = new WorkerLoop(
        queue,
        { concurrency: config.worker.concurrency, roundSize: config.worker.roundSize, pollMs: config.worker.pollSeconds * 1000 },
        (jobs) => services.processing.processJobs(jobs),
        log,
      )
      // A profile that starts processing has a new job: fetch it now (in process, or through LISTEN from any API process).
      const stopWaking = bus.subscribe('profileStatusChanged', (e) => e.status === 'processing' && loop.wake())
      loop.start()
      // Closers run in reverse: the loop stops fetching before the processing service waits for its rounds.
      closers.push(async () => {
        stopWaking()
        await loop.stop()
      })
      const reconciler = new Reconciler(ds, queue, config.worker.leaseSeconds)
      const timer = setInterval(() => {
        reconciler.run().catch((e) => log.warn({ err: e }, 'reconcile failed'))
      }, config.worker.reconcileSeconds * 1000)
      timer.unref()
      closers.push(async () => clearInterval(timer))
    }

    let server: FastifyInstance | undefined
    let url: string | undefined
    if (opts.role !== 'worker') {
      const { buildServer } = await httpModule!
      server = await buildServer({ config, services, bus, log, ready: async () => migrationsApplied(db) })
      await server.listen({ port: config.port, host: config.host })
      const addr = server.server.address()
      url = typeof addr === 'object' && addr ? `http://${config.host}:${addr.port}` : undefined
      closers.push(() => server!.close())
    }
    return { config, db, services, bus, log, server, url, bootstrapKey, close }
  } catch (e) {
    await close()
    throw e
  }
}

/** A module loading ahead of its use: awaited where it is used, and not an unhandled rejection if start-up fails first. */
function preload<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}

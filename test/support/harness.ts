import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import pg from 'pg'
import type { AiProviders } from '../../src/ai/types.js'
import { startProfiler, type Profiler, type Role, type StartOptions } from '../../src/app.js'
import { loadConfig, type Config } from '../../src/config.js'
import { seedDataDir } from './cluster-template.js'
import { waitFor } from './wait.js'

/** Server mode when the suite runs with DATABASE_URL (as .ci/run does the second time), embedded otherwise. */
export const SERVER_URL = process.env.DATABASE_URL

export interface TestDatabase {
  /** DATABASE_URL for the profiler (undefined in embedded mode). */
  url?: string
  dataDir: string
  drop(): Promise<void>
}

/**
 * A fresh, empty database for one test file: a new database on the server, or a new embedded data dir (holding the
 * run's initialised cluster when there is one: the service migrates it as a new one).
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-test-'))
  if (!SERVER_URL) {
    seedDataDir(dataDir)
    return { dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) }
  }
  return serverDatabase(SERVER_URL, dataDir, CITUS_WORKERS)
}

/**
 * The workers of a Citus cluster whose coordinator is DATABASE_URL (their `postgres` database URLs, comma-separated in
 * PROFILER_TEST_CITUS_WORKERS): then each fresh database is a Citus database (test/support/pg-cluster.ts starts such
 * a cluster; test/integration/citus.test.ts runs the service on one, and any suite can be run on one this way).
 */
const CITUS_WORKERS = (process.env.PROFILER_TEST_CITUS_WORKERS ?? '').split(',').filter(Boolean)

async function onServer(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return (await c.query(sql)).rows
  } finally {
    await c.end()
  }
}

const inDatabase = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * A new database on the server at `serverUrl`. With `citusWorkers`, the server is a Citus coordinator: the database is
 * made on every node, with the citus and vector extensions, and the workers are added to it (Citus keeps its node
 * list per database).
 */
export async function serverDatabase(
  serverUrl: string,
  dataDir: string,
  citusWorkers: string[] = [],
): Promise<TestDatabase> {
  const name = `profiler_test_${crypto.randomBytes(6).toString('hex')}`
  for (const node of [serverUrl, ...citusWorkers]) await onServer(node, `CREATE DATABASE ${name}`)
  if (citusWorkers.length) {
    for (const node of [serverUrl, ...citusWorkers])
      await onServer(inDatabase(node, name), 'CREATE EXTENSION citus; CREATE EXTENSION vector')
    const coordinator = new URL(serverUrl)
    await onServer(
      inDatabase(serverUrl, name),
      `SELECT citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
    )
    for (const w of citusWorkers) {
      const u = new URL(w)
      await onServer(inDatabase(serverUrl, name), `SELECT citus_add_node('${u.hostname}', ${Number(u.port || 5432)})`)
    }
    // The setting docs/operations/scaling-out.md recommends: one connection per worker node for each backend.
    await onServer(serverUrl, `ALTER DATABASE ${name} SET citus.max_adaptive_executor_pool_size = 1`)
  }
  return {
    url: inDatabase(serverUrl, name),
    dataDir,
    async drop() {
      for (const node of [serverUrl, ...citusWorkers])
        await onServer(node, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export function testEnv(db: TestDatabase, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PROFILER_DATA_DIR: db.dataDir,
    PROFILER_POLL_SECONDS: '0.5',
    PROFILER_RETRY_BASE_MS: '200',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...env,
  }
}

export function testConfig(db: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig(testEnv(db, env))
}

export interface TestService {
  profiler: Profiler
  url: string
  key: string
  db: TestDatabase
  close(): Promise<void>
}

/** Starts the whole service (API + worker) in this process on a fresh database, with the bootstrap key. */
export async function startService(
  opts: {
    env?: Record<string, string>
    role?: Role
    ai?: AiProviders
    tracing?: StartOptions['tracing']
    logStream?: StartOptions['logStream']
  } = {},
): Promise<TestService> {
  const db = await freshDatabase()
  const profiler = await startProfiler(testConfig(db, opts.env), {
    role: opts.role ?? 'all',
    ai: opts.ai,
    tracing: opts.tracing,
    logStream: opts.logStream,
  })
  return {
    profiler,
    url: profiler.url!,
    key: profiler.bootstrapKey!,
    db,
    async close() {
      await profiler.close()
      await db.drop()
    },
  }
}

/**
 * The statements the service runs through TypeORM while `work` runs, with their parameters (seen by its logger; named
 * prepared statements do not go through it).
 */
export async function statementsRun(
  svc: TestService,
  work: () => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }[]> {
  const logger = svc.profiler.db.dataSource.logger
  const seen: { sql: string; params: unknown[] }[] = []
  const original = logger.logQuery.bind(logger)
  logger.logQuery = (sql, params, runner) => {
    seen.push({ sql, params: (params ?? []) as unknown[] })
    return original(sql, params, runner)
  }
  try {
    await work()
  } finally {
    logger.logQuery = original
  }
  return seen
}

export interface Client {
  post(id: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  get(path: string, headers?: Record<string, string>): Promise<Response>
  del(id: string): Promise<Response>
  profile(id: string): Promise<any>
  waitReady(id: string, timeoutMs?: number): Promise<any>
  search(params: Record<string, string | number>): Promise<any>
}

export function client(base: string, key: string): Client {
  const auth = { authorization: `Bearer ${key}` }
  const c: Client = {
    post: (id, body, headers = {}) =>
      fetch(`${base}/v1/profile/${encodeURIComponent(id)}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (p, headers = {}) => fetch(`${base}${p}`, { headers: { ...auth, ...headers } }),
    del: (id) => fetch(`${base}/v1/profile/${encodeURIComponent(id)}`, { method: 'DELETE', headers: auth }),
    async profile(id) {
      const r = await c.get(`/v1/profile/${encodeURIComponent(id)}`)
      if (r.status !== 200) throw new Error(`GET ${id}: ${r.status} ${await r.text()}`)
      return ((await r.json()) as any).profile
    },
    waitReady: (id, timeoutMs = 30_000) =>
      waitFor(`profile ${id} to be ready`, () => c.profile(id), {
        until: (p) => p?.status === 'ready',
        timeoutMs,
        everyMs: 100,
      }),
    async search(params) {
      const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
      const r = await c.get(`/v1/search?${qs}`)
      if (r.status !== 200) throw new Error(`search: ${r.status} ${await r.text()}`)
      return r.json()
    },
  }
  return c
}

// What every benchmark needs: a fresh database (a new one on the PostgreSQL server, or a new embedded data dir),
// the service and the bare baselines as real processes (waiting for conditions, not sleeping: test/support/wait.ts).
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { waitFor } from '../../test/support/wait.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/**
 * Where the service's processes run from: this checkout, or BENCH_SERVICE_ROOT (another checkout of the project, e.g.
 * the base of a change, measured by this checkout's benchmark on the same data).
 */
export const SERVICE_ROOT = process.env.BENCH_SERVICE_ROOT ? path.resolve(process.env.BENCH_SERVICE_ROOT) : ROOT
export type DbKind = 'server' | 'embedded'

/** The PostgreSQL server benchmarks create their databases on (the same default as the test suite's CI pass). */
export const SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export interface BenchDb {
  kind: DbKind
  /** DATABASE_URL of the service (server), undefined for embedded. */
  url?: string
  dataDir: string
  /** The connection string of the database itself (embedded: the running service's loopback server). */
  connectionString(): string
  /** PostgreSQL's backend processes serving this database (server only: embedded runs inside the service). */
  backends?: RegExp
  drop(): Promise<void>
}

/**
 * A database on the PostgreSQL server that is kept after the benchmark (`keptDb('x').drop()` leaves it), created when
 * missing: `created` says whether it was, i.e. whether it is still to be filled.
 */
export async function keptDb(name: string): Promise<{ db: BenchDb; created: boolean }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`a database name of lowercase letters, digits and _, not ${name}`)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-bench-'))
  const c = new pg.Client({ connectionString: SERVER_URL })
  await c.connect()
  let created = false
  try {
    if (!(await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount) {
      await c.query(`CREATE DATABASE ${name}`)
      created = true
    }
  } finally {
    await c.end()
  }
  const u = new URL(SERVER_URL)
  u.pathname = `/${name}`
  const url = u.toString()
  return {
    created,
    db: {
      kind: 'server',
      url,
      dataDir,
      connectionString: () => url,
      backends: new RegExp(`^postgres: .* ${name} `),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    },
  }
}

export async function freshDb(kind: DbKind): Promise<BenchDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-bench-'))
  if (kind === 'embedded') {
    return {
      kind,
      dataDir,
      connectionString() {
        const info = JSON.parse(fs.readFileSync(path.join(dataDir, 'embedded.json'), 'utf8')) as { port: number }
        return `postgres://postgres@127.0.0.1:${info.port}/postgres`
      },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    }
  }
  const name = `profiler_bench_${crypto.randomBytes(5).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const u = new URL(SERVER_URL)
  u.pathname = `/${name}`
  const url = u.toString()
  return {
    kind,
    url,
    dataDir,
    connectionString: () => url,
    backends: new RegExp(`^postgres: .* ${name} `),
    async drop() {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function adminQuery(sql: string) {
  const c = new pg.Client({ connectionString: SERVER_URL })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

export interface Proc {
  child: ChildProcess
  /** Everything the process printed (stdout and stderr), for errors. */
  output(): string
  /** SIGTERM, then SIGKILL after a grace period; resolves when it has exited. */
  stop(): Promise<void>
}

/** Starts `node --import tsx <script> ...args` with the given environment. */
export function spawnTs(
  script: string,
  args: string[],
  env: Record<string, string>,
  opts: { nodeArgs?: string[] } = {},
): Proc {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
    cwd: script.startsWith('src/') ? SERVICE_ROOT : ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const keep = (d: Buffer) => {
    out += d.toString()
    if (out.length > 200_000) out = out.slice(-100_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
        await exited
        clearTimeout(timer)
      }
    },
  }
}

export interface Service extends Proc {
  url: string
  key: string
}

/** The service environment of a benchmark: the per-key rate limit lifted, so the request path is what is measured. */
export function serviceEnv(db: BenchDb, env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: 'info',
    PROFILER_DATA_DIR: db.dataDir,
    PROFILER_RATE_LIMIT_PER_MINUTE: '1000000000',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...env,
  }
}

/**
 * Starts `profiler <role>` as a process and waits until it listens (API roles) or runs (worker). Its log goes to a
 * file, as a production service's would, not to a pipe the benchmark has to drain.
 */
export async function startService(
  db: BenchDb,
  role: 'start' | 'serve' | 'worker',
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Service> {
  const logFile = path.join(db.dataDir, `${role}-${crypto.randomBytes(3).toString('hex')}.log`)
  const fd = fs.openSync(logFile, 'a')
  const port = role === 'worker' ? 0 : await freePort()
  // A worker says it runs only at level info.
  const childEnv = {
    ...process.env,
    ...serviceEnv(db, env),
    PORT: String(port),
    ...(role === 'worker' ? { LOG_LEVEL: 'info' } : {}),
  }
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts', role], {
    cwd: SERVICE_ROOT,
    env: childEnv,
    stdio: ['ignore', fd, fd],
  })
  fs.closeSync(fd)
  const output = () => fs.readFileSync(logFile, 'utf8')
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(timer)
    }
  }
  const url = `http://127.0.0.1:${port}`
  const started = await waitFor(
    `profiler ${role} to start`,
    async () => {
      if (child.exitCode !== null) return { exited: child.exitCode }
      if (role === 'worker') return /worker running/.test(output()) ? { url: '' } : undefined
      return (await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      ))
        ? { url }
        : undefined
    },
    { timeoutMs: 120_000, everyMs: 100 },
  )
  if ('exited' in started) throw new Error(`profiler ${role} exited (${started.exited}):\n${output().slice(-3000)}`)
  const key = fs.existsSync(path.join(db.dataDir, 'bootstrap-key'))
    ? fs.readFileSync(path.join(db.dataDir, 'bootstrap-key'), 'utf8').trim()
    : (output().match(/\b(pk_[A-Za-z0-9]+_[A-Za-z0-9]+)\b/)?.[1] ?? '')
  return { child, output, stop, url: started.url, key }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

export async function withClient<T>(connectionString: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** The bootstrap key as the service printed it (server mode writes no key file). */
export function keyFromOutput(text: string): string {
  const m = text.match(/\b(pk_[A-Za-z0-9]+_[A-Za-z0-9]+)\b/)
  if (!m) throw new Error('no bootstrap key in the service output')
  return m[1]!
}

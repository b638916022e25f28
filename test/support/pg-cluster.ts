import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The PostgreSQL server binaries of this machine (Debian layout), or undefined. */
export function pgBinDir(): string | undefined {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return undefined
  const major = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a))[0]
  const dir = major && path.join(base, major, 'bin')
  return dir && fs.existsSync(path.join(dir, 'pg_ctl')) ? dir : undefined
}

async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as net.AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

/**
 * A PostgreSQL cluster of its own (initdb in a temporary directory, on a free port), so a test can stop and start a
 * real server without disturbing the machine's, which other test files use at the same time. Runs as the `postgres`
 * user when started as root (initdb refuses root).
 */
export class PgCluster {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-pg-'))
  port = 0

  /** `settings` are extra server settings (`-c name=value` at every start), e.g. shared_preload_libraries. */
  constructor(
    private readonly bin: string,
    private readonly settings: Record<string, string> = {},
  ) {}

  private async as(cmd: string, args: string[]) {
    const root = process.getuid?.() === 0
    const file = root ? 'runuser' : path.join(this.bin, cmd)
    const argv = root ? ['-u', 'postgres', '--', path.join(this.bin, cmd), ...args] : args
    return run(file, argv, { timeout: 120_000 })
  }

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  async init() {
    if (process.getuid?.() === 0) fs.chownSync(this.dir, ...this.postgresIds())
    this.port = await freePort()
    await this.as('initdb', [
      '-D',
      path.join(this.dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ])
    await this.start()
  }

  private postgresIds(): [number, number] {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'))
    if (!line) throw new Error('no postgres user')
    const [, , uid, gid] = line.split(':')
    return [Number(uid), Number(gid)]
  }

  /**
   * Makes this cluster a hot standby of `primary` (pg_basebackup with streaming replication, -R writes the standby
   * settings) and starts it: instead of `init`.
   */
  async initStandbyOf(primary: PgCluster) {
    if (process.getuid?.() === 0) fs.chownSync(this.dir, ...this.postgresIds())
    this.port = await freePort()
    await this.as('pg_basebackup', [
      '-D',
      path.join(this.dir, 'data'),
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ])
    await this.start()
  }

  async start() {
    const extra = Object.entries(this.settings)
      .map(([k, v]) => ` -c ${k}=${v}`)
      .join('')
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off${extra}`
    await this.as('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      opts,
      '-w',
      'start',
    ])
  }

  async stop() {
    await this.as('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop'])
  }

  async destroy() {
    await this.stop().catch(() => undefined)
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Whether the Citus extension is installed for this machine's PostgreSQL (scripts/install-citus.sh). */
export function citusInstalled(): boolean {
  const bin = pgBinDir()
  if (!bin) return false
  const base = path.dirname(bin) // /usr/lib/postgresql/<major>
  const major = path.basename(base)
  return (
    fs.existsSync(path.join(base, 'lib', 'citus.so')) &&
    fs.existsSync(`/usr/share/postgresql/${major}/extension/citus.control`)
  )
}

/**
 * A Citus cluster of private PostgreSQL servers on free ports: a coordinator and `workers` workers, each with
 * shared_preload_libraries = citus and the citus and vector extensions created in its `postgres` database, the
 * workers added to the coordinator (citus_add_node). The service connects to `url` (the coordinator).
 */
export class CitusCluster {
  readonly coordinator: PgCluster
  readonly workers: PgCluster[]

  constructor(workers = 2, settings: Record<string, string> = {}) {
    const bin = pgBinDir()
    if (!bin) throw new Error('no PostgreSQL server binaries')
    // max_prepared_transactions: Citus commits a transaction that wrote on several nodes with two-phase commit.
    const s = {
      shared_preload_libraries: 'citus',
      max_prepared_transactions: '100',
      max_connections: '300',
      ...settings,
    }
    this.coordinator = new PgCluster(bin, s)
    this.workers = Array.from({ length: workers }, () => new PgCluster(bin, s))
  }

  get url() {
    return this.coordinator.url
  }

  get nodes() {
    return [this.coordinator, ...this.workers]
  }

  /** Runs `sql` on one node (a fresh connection each time). */
  async query<T = any>(node: PgCluster, sql: string, params: unknown[] = []): Promise<T[]> {
    const { default: pg } = await import('pg')
    const c = new pg.Client({ connectionString: node.url })
    await c.connect()
    try {
      return (await c.query(sql, params)).rows
    } finally {
      await c.end()
    }
  }

  async init() {
    await Promise.all(this.nodes.map((n) => n.init()))
    for (const n of this.nodes) {
      await this.query(n, 'CREATE EXTENSION IF NOT EXISTS citus')
      await this.query(n, 'CREATE EXTENSION IF NOT EXISTS vector')
    }
    await this.query(this.coordinator, `SELECT citus_set_coordinator_host('127.0.0.1', $1)`, [this.coordinator.port])
    for (const w of this.workers) await this.query(this.coordinator, `SELECT citus_add_node('127.0.0.1', $1)`, [w.port])
  }

  async destroy() {
    await Promise.all(this.nodes.map((n) => n.destroy()))
  }
}

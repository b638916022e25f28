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

  constructor(private readonly bin: string) {}

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
    await this.as('initdb', ['-D', path.join(this.dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    await this.start()
  }

  private postgresIds(): [number, number] {
    const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'))
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
    await this.as('pg_basebackup', ['-D', path.join(this.dir, 'data'), '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-R', '-X', 'stream', '--no-sync'])
    await this.start()
  }

  async start() {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`
    await this.as('pg_ctl', ['-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'), '-o', opts, '-w', 'start'])
  }

  async stop() {
    await this.as('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop'])
  }

  async destroy() {
    await this.stop().catch(() => undefined)
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

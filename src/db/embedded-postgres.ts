import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGliteServer, type NotificationHandler } from './pglite-session.js'

/**
 * The embedded database: PGlite (with pgvector, pg_trgm and btree_gin) persisted under the data dir, served over the
 * Postgres wire protocol on loopback (pglite-socket's protocol handler, our session scheduler) so the app has
 * one code path (pg + TypeORM + pg-boss) for both modes.
 * While it runs, `<dataDir>/embedded.json` tells other processes (the CLI) where to connect.
 */
export interface EmbeddedPostgres {
  url: string
  /** NOTIFYs committed by any connection, this process's or another's (the CLI's). */
  onNotification(handler: NotificationHandler): void
  /** Open connections, and protocol messages waiting for the single session. */
  stats(): { connections: number; queued: number }
  stop(): Promise<void>
}

const INFO_FILE = 'embedded.json'

interface Info {
  pid: number
  port: number
}

/** Where under the data dir PGlite keeps its cluster (its PGDATA). */
export const embeddedClusterDir = (dataDir: string) => path.join(dataDir, 'pgdata')

/**
 * PGlite on a cluster directory, with the extensions the service uses; an empty or missing directory is initialised.
 */
export const openPglite = (clusterDir: string) =>
  PGlite.create({ dataDir: clusterDir, extensions: { vector, pg_trgm, btree_gin } })

/**
 * `listen`: channels whose NOTIFYs reach `onNotification` (the session LISTENs before any connection is served);
 * `settings`: set on the session, which every connection shares (PGlite ignores startup options).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { port?: number; listen?: string[]; settings?: Record<string, string> } = {},
): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true })
  const running = await findRunningEmbedded(dataDir)
  if (running)
    throw new Error(
      `The embedded database in ${dataDir} is already served by process ${running.pid} (port ${running.port}).`,
    )
  const db = await openPglite(embeddedClusterDir(dataDir))
  for (const channel of opts.listen ?? []) await db.exec(`LISTEN "${channel.replace(/"/g, '""')}"`)
  for (const [k, v] of Object.entries(opts.settings ?? {})) await db.query(`SELECT set_config($1, $2, false)`, [k, v])
  const server = new PGliteServer(db)
  const bound = await server.start(opts.port ?? 0)
  const infoPath = path.join(dataDir, INFO_FILE)
  fs.writeFileSync(infoPath, JSON.stringify({ pid: process.pid, port: bound } satisfies Info), { mode: 0o600 })
  let stopped = false
  return {
    url: `postgres://postgres@127.0.0.1:${bound}/postgres`,
    onNotification: (handler) => server.onNotification(handler),
    stats: () => server.stats(),
    async stop() {
      if (stopped) return
      stopped = true
      try {
        const cur = JSON.parse(fs.readFileSync(infoPath, 'utf8')) as Info
        if (cur.pid === process.pid) fs.rmSync(infoPath, { force: true })
      } catch {
        /* already gone */
      }
      await server.stop()
      await db.close()
    },
  }
}

/** The embedded database another live process is serving from this data dir, if any. */
export async function findRunningEmbedded(dataDir: string): Promise<{ pid: number; port: number; url: string } | null> {
  const infoPath = path.join(dataDir, INFO_FILE)
  let info: Info
  try {
    info = JSON.parse(fs.readFileSync(infoPath, 'utf8')) as Info
  } catch {
    return null
  }
  // The data dir is free only when its process is gone or nothing listens on its port. A port that does not answer in
  // time still counts as served: a second PGlite on the same files would corrupt them, where a connection that fails
  // only fails the command.
  if (!isAlive(info.pid) || (await probe(info.port)) === 'refused') {
    fs.rmSync(infoPath, { force: true })
    return null
  }
  return { ...info, url: `postgres://postgres@127.0.0.1:${info.port}/postgres` }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err: any) {
    return err.code === 'EPERM'
  }
}

/** What a connection to the port met: a server, an error (nothing listens: refused), or no answer in time. */
type Probe = 'accepted' | 'refused' | 'silent'

const PROBE_MS = 1000

/**
 * Connects to the port once. A verdict of silence waits for one more poll of I/O (setImmediate runs after it): while
 * this thread is busy (a CLI command loads TypeORM's modules as it probes, and on Node 24 that import runs for seconds
 * without yielding), the connection completes, but the timer, due by then, runs before the loop reads that it did.
 */
function probe(port: number): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    const done = (verdict: Probe) => {
      socket.destroy()
      resolve(verdict)
    }
    socket.once('connect', () => done('accepted'))
    socket.once('error', () => done('refused'))
    socket.setTimeout(PROBE_MS, () => setImmediate(() => done('silent')))
  })
}

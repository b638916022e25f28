import 'reflect-metadata'
import type { DataSource, EntityManager } from 'typeorm'
import type { Config } from '../config.js'
import { findRunningEmbedded, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js'
import { MIGRATIONS } from './migrations.js'

/** A PostgreSQL server without an extension the migrations need: the message says how to install it. */
export class MissingExtensionError extends Error {}
export class MissingPgvectorError extends MissingExtensionError {}

/** PostgreSQL's contrib extensions the migrations create (trigram indexes; the tenant as a key of the word indexes). */
export const CONTRIB_EXTENSIONS = ['pg_trgm', 'btree_gin']

/** Connections of a service process's pool. */
export const POOL_SIZE = 10

/**
 * Settings of every session: pgvector 0.8's iterative index scans, so an HNSW scan with filters (the tenant, a filter,
 * the threshold) goes on until the page is full, and the HNSW candidate list of a search (ef_search; pgvector's default
 * 40 gave recall@10 0.93 at 100,000 profiles, 100 gives 0.99). Set at connection start, so a search needs no
 * transaction to SET them; an older pgvector drops an unknown setting with a warning. PGlite ignores startup options:
 * the embedded server sets them on its one session (startEmbeddedPostgres).
 */
export function sessionSettings(config: Pick<Config, 'search'>): Record<string, string> {
  return { 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': String(config.search.efSearch) }
}
export const sessionOptions = (settings: Record<string, string>) =>
  Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ')

/** Advisory lock key that serializes migrations across processes ("prof" in ASCII). */
const MIGRATION_LOCK = 0x70726f66

export interface Database {
  dataSource: DataSource
  /** Connection string (the embedded server's loopback address in embedded mode). */
  url: string
  mode: 'embedded' | 'server'
  /**
   * Embedded mode, when this process serves the database: NOTIFYs committed by any connection (see EmbeddedEventBus).
   */
  onNotification?: (handler: (channel: string, payload: string) => void) => void
  /** Embedded mode, when this process serves the database: its connections and the messages waiting for its session. */
  embeddedStats?: () => { connections: number; queued: number }
  close(): Promise<void>
}

/**
 * Opens the database: DATABASE_URL when set; otherwise the embedded PGlite, started here unless another live
 * process of this data dir already serves it (then we connect to that one, as the CLI does).
 */
export async function openDatabase(
  config: Config,
  opts: { poolSize?: number; serveEmbedded?: boolean; listen?: string[] } = {},
): Promise<Database> {
  // TypeORM's modules (0.3-0.4 s to load here) load while PGlite starts, whose WebAssembly compiles off the main
  // thread: a CLI command on the embedded database ends about a second sooner on this machine.
  const typeorm = Promise.all([import('typeorm'), import('./entities/index.js')])
  typeorm.catch(() => undefined) // awaited below; not an unhandled rejection if the embedded start fails first
  let embedded: EmbeddedPostgres | undefined
  let url = config.databaseUrl
  if (!url) {
    const running = await findRunningEmbedded(config.dataDir)
    if (running) url = running.url
    else {
      embedded = await startEmbeddedPostgres(config.dataDir, { listen: opts.listen, settings: sessionSettings(config) })
      url = embedded.url
    }
  }
  let dataSource: DataSource
  try {
    const [{ DataSource }, { ENTITIES }] = await typeorm
    dataSource = new DataSource({
      ...dataSourceOptions(ENTITIES),
      url,
      extra: {
        max: opts.poolSize ?? POOL_SIZE,
        connectionTimeoutMillis: 10_000,
        options: sessionOptions(sessionSettings(config)),
        onConnect: hearErrors,
      },
    })
    allowColumnTypes(dataSource)
    await dataSource.initialize()
  } catch (err) {
    await embedded?.stop()
    throw err
  }
  return {
    dataSource,
    url,
    mode: config.databaseUrl ? 'server' : 'embedded',
    ...(embedded ? { onNotification: embedded.onNotification, embeddedStats: embedded.stats } : {}),
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy()
      await embedded?.stop()
    },
  }
}

/**
 * Listens to a pool connection's errors from the moment it connects. A server that shuts down sends "terminating
 * connection due to administrator command" right after a connection it has just made ready, often in the same packet:
 * the connection emits 'error' while the pool hands it out, before the code that asked for it has a listener, and an
 * 'error' no one hears is an uncaught exception. Heard here, it is not; the code that holds the connection sees the
 * failure on its next statement, as it does for any broken connection.
 */
export function hearErrors(client: { on(event: 'error', listener: (err: Error) => void): unknown }): void {
  client.on('error', () => undefined)
}

/**
 * What every data source of the service is: the entities (src/db/entities), the migrations, never `synchronize`, and no
 * extension created by TypeORM at connection (the migrations create them, and migrate() says what is missing).
 */
export function dataSourceOptions(entities: Function[]) {
  return {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'profiler_migrations',
    synchronize: false,
    installExtensions: false,
    logging: false,
  }
}

/** Column types of the migrations that TypeORM's postgres driver does not list: passages.language is a regconfig. */
export const EXTRA_COLUMN_TYPES = ['regconfig']

/** Lets the entities use EXTRA_COLUMN_TYPES; call it on a new data source, before initialize(). */
export function allowColumnTypes(ds: DataSource): void {
  const types = ds.driver.supportedDataTypes as string[]
  for (const t of EXTRA_COLUMN_TYPES) if (!types.includes(t)) types.push(t)
}

/**
 * Applies pending migrations; refuses a server without pgvector or a contrib extension with a one-line, actionable
 * error.
 */
export async function migrate(db: Database): Promise<string[]> {
  const rows: { name: string }[] = await db.dataSource.query(
    `SELECT name FROM pg_available_extensions WHERE name = ANY($1)`,
    [['vector', ...CONTRIB_EXTENSIONS]],
  )
  const available = new Set(rows.map((r) => r.name))
  if (!available.has('vector')) {
    throw new MissingPgvectorError(
      'The PostgreSQL server has no pgvector extension: install pgvector 0.7+ ' +
        '(Debian: apt-get install postgresql-<major>-pgvector, or run scripts/install-pgvector.sh as root), ' +
        'then start again.',
    )
  }
  const missing = CONTRIB_EXTENSIONS.filter((e) => !available.has(e))
  if (missing.length) {
    throw new MissingExtensionError(
      `The PostgreSQL server has no ${missing.join(' or ')} extension: install PostgreSQL's contrib modules ` +
        '(Debian: part of postgresql-<major>; RHEL: postgresql<major>-contrib), then start again.',
    )
  }
  // Several processes may start together (serve + workers): one migrates, the others wait for it.
  const lock = db.dataSource.createQueryRunner()
  await lock.connect()
  try {
    await lock.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK])
    const applied = await db.dataSource.runMigrations({ transaction: 'each' })
    return applied.map((m) => m.name)
  } finally {
    await lock.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK]).catch(() => undefined)
    await lock.release()
  }
}

/** The connections of the data source's pg pool (idle, in use, queries waiting), for the metrics. */
export function poolStats(ds: DataSource): { total: number; idle: number; waiting: number; max: number } | undefined {
  const pool = (
    ds.driver as unknown as {
      master?: { totalCount: number; idleCount: number; waitingCount: number; options?: { max?: number } }
    }
  ).master
  if (!pool || typeof pool.totalCount !== 'number') return undefined
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 0 }
}

/** Whether every known migration has been applied (for /readyz). */
export async function migrationsApplied(db: Database): Promise<boolean> {
  return !(await db.dataSource.showMigrations())
}

export type Tx = EntityManager

/** The raw pg client behind a transaction's manager, so pg-boss can enqueue inside the same transaction. */
export async function rawClient(
  manager: EntityManager,
): Promise<{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }> }> {
  const qr = manager.queryRunner
  if (!qr) throw new Error('rawClient needs a transactional entity manager')
  return (await qr.connect()) as any
}

/** The dimension of the profiles.embedding column, as the migrations created it. */
export async function embeddingDimension(ds: DataSource): Promise<number> {
  const [row] = await ds.query(
    `SELECT atttypmod AS dim FROM pg_attribute WHERE attrelid = 'profiles'::regclass AND attname = 'embedding'`,
  )
  return Number(row?.dim ?? -1)
}

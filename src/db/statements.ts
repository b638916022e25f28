import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import type { DataSource, EntityManager } from 'typeorm'
import { isConnectionError } from '../domain/errors.js'
import { rawClient } from './database.js'

type Client = {
  query(config: { name: string; text: string; values?: unknown[] }): Promise<{ rows: any[]; rowCount: number | null }>
}

/**
 * The hot path's SQL as named prepared statements, run on TypeORM's own pg pool (or on a transaction's connection):
 * each is parsed and planned once per connection instead of on every request. Measured on the server, planning was
 * about half of PostgreSQL's time for the POST's statement.
 *
 * PGlite has a single session that every connection shares, and with it one namespace of prepared statements (the
 * connections may even belong to several processes: the CLI, a second service). So a statement's name carries this
 * process's token and its connection's serial, and on PGlite what a closed connection prepared is deallocated through
 * another.
 */
export class Statements {
  private readonly pool: pg.Pool
  private readonly serials = new WeakMap<object, number>()
  private readonly prepared = new WeakMap<object, Set<string>>()
  private nextSerial = 1
  private readonly names = new Set<string>()
  private readonly token = randomBytes(4).toString('hex')

  /** Asks the database whether its connections share one session (PGlite). */
  static async create(ds: DataSource): Promise<Statements> {
    const [{ version }] = await ds.query(`SELECT version()`)
    return new Statements(ds, /\bPGlite\b/.test(String(version)))
  }

  constructor(
    private readonly ds: DataSource,
    /** Whether every connection shares one session (PGlite: one statement at a time, on this process's main thread). */
    readonly sharedSession: boolean,
  ) {
    this.pool = (ds.driver as unknown as { master: pg.Pool }).master
    if (sharedSession) {
      this.pool.on('remove', (client) => {
        const names = this.prepared.get(client)
        if (!names?.size || !this.ds.isInitialized) return
        void this.pool
          .query(
            names.size === 1 ? `DEALLOCATE "${[...names][0]}"` : [...names].map((n) => `DEALLOCATE "${n}";`).join(' '),
          )
          .catch(() => undefined)
      })
    }
  }

  /** A statement by a unique name (letters, digits, `_`), whose rows are `R` (a row type made of the entities'). */
  define<R extends object = Record<string, unknown>>(name: string, text: string): Statement<R> {
    if (!/^[a-z][a-z0-9_]*$/.test(name) || this.names.has(name))
      throw new Error(`statement name ${name} is invalid or taken`)
    this.names.add(name)
    return new Statement<R>(this, name, text)
  }

  /** @internal */
  async exec(
    name: string,
    text: string,
    values: unknown[],
    manager?: EntityManager,
  ): Promise<{ rows: any[]; rowCount: number }> {
    if (manager?.queryRunner) return this.onClient((await rawClient(manager)) as unknown as Client, name, text, values)
    const client = await this.pool.connect()
    // A connection cut while checked out emits 'error' besides failing its query: heard here (the pool's own listener
    // covers only idle clients), and the client is dropped instead of going back to the pool.
    let broken: Error | undefined
    const onError = (e: Error) => (broken = e)
    client.on('error', onError)
    try {
      return await this.onClient(client as unknown as Client, name, text, values)
    } catch (err) {
      if (isConnectionError(err)) broken ??= err as Error
      throw err
    } finally {
      client.off('error', onError)
      client.release(broken)
    }
  }

  private async onClient(client: Client, name: string, text: string, values: unknown[]) {
    let serial = this.serials.get(client)
    if (serial === undefined) this.serials.set(client, (serial = this.nextSerial++))
    const full = `${name}_${this.token}_${serial}`
    if (this.sharedSession) {
      let set = this.prepared.get(client)
      if (!set) this.prepared.set(client, (set = new Set()))
      set.add(full)
    }
    const result = await client.query({ name: full, text, values })
    return { rows: result.rows, rowCount: result.rowCount ?? 0 }
  }
}

export class Statement<R extends object = Record<string, unknown>> {
  constructor(
    private readonly owner: Statements,
    readonly name: string,
    readonly text: string,
  ) {}

  /** Rows, on the pool or on the connection of the transaction `manager` belongs to. */
  async rows(values: unknown[], manager?: EntityManager): Promise<R[]> {
    return (await this.owner.exec(this.name, this.text, values, manager)).rows
  }

  async run(values: unknown[], manager?: EntityManager): Promise<{ rows: R[]; rowCount: number }> {
    return this.owner.exec(this.name, this.text, values, manager)
  }
}

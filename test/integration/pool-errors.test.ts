// A pool connection's errors are heard from the moment it connects (src/db/database.ts, hearErrors). A server that
// shuts down can end a connection in the packet that makes it ready, while the pool hands it out: the 'error' then
// comes before the code that asked for the connection listens, and unheard it would be an uncaught exception.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/db/database.js'
import { freshDatabase, testConfig, type TestDatabase } from '../support/harness.js'

interface PoolClient {
  listenerCount(event: string): number
  emit(event: string, ...args: unknown[]): boolean
  query(text: string): Promise<{ rows: { ok: number }[] }>
  release(destroy?: boolean | Error): void
}

let tdb: TestDatabase
let db: Database
beforeAll(async () => {
  tdb = await freshDatabase()
  db = await openDatabase(testConfig(tdb), { poolSize: 2 })
})
afterAll(async () => {
  await db?.close()
  await tdb?.drop()
})

const pool = () => (db.dataSource.driver as unknown as { master: { connect(): Promise<PoolClient> } }).master

describe('pool connections', () => {
  it('listen for errors while handed out, so one the server sends then is no uncaught exception', async () => {
    const client = await pool().connect()
    try {
      expect(client.listenerCount('error')).toBeGreaterThan(0)
      // what the connection emits when the server ends it at that moment
      const ended = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
      expect(() => client.emit('error', ended)).not.toThrow()
    } finally {
      client.release(true)
    }
    // the pool goes on with a new connection
    expect(await db.dataSource.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }])
  })
})

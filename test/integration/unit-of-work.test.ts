// The unit of work on the real database: what a transaction raises is delivered after it commits, never when it
// rolls back; a use case called with a context that carries the transaction joins it; this process's own steps run
// after the commit and before the events go out. On a server, a second process (another bus) hears the NOTIFY only
// once the transaction has committed.
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate, openDatabase, type Database } from '../../src/db/database.js'
import { UnitOfWork } from '../../src/db/unit-of-work.js'
import { MemoryEventBus, type EventMap } from '../../src/events/event-bus.js'
import { PostgresEventBus } from '../../src/events/postgres-bus.js'
import type { RequestContext } from '../../src/services/context.js'
import { freshDatabase, SERVER_URL, testConfig, type TestDatabase } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

type Status = EventMap['profileStatusChanged']
const status = (profileId: string, seq: number): Status => ({
  tenantId: 't1',
  profileId,
  status: 'ready',
  at: new Date().toISOString(),
  seq,
})

let tdb: TestDatabase
let db: Database
beforeAll(async () => {
  tdb = await freshDatabase()
  db = await openDatabase(testConfig(tdb), { poolSize: 4 })
  await migrate(db)
  await db.dataSource.query(`CREATE TABLE uow_probe (id text PRIMARY KEY)`)
})
afterAll(async () => {
  await db?.close()
  await tdb?.drop()
})

/** Whether another connection sees the row (so, whether its transaction has committed). */
const committed = async (id: string) =>
  (await db.dataSource.query(`SELECT 1 FROM uow_probe WHERE id = $1`, [id])).length > 0

describe('UnitOfWork', () => {
  it('delivers what the transaction raised after it commits, in the order raised', async () => {
    const bus = new MemoryEventBus()
    const uow = new UnitOfWork(db.dataSource, bus)
    // In the order delivered, each with whether another connection saw its row at that moment (read asynchronously).
    const seen: { e: Status; visible: Promise<boolean> }[] = []
    bus.subscribe('profileStatusChanged', (e) => seen.push({ e, visible: committed(e.profileId) }))
    const r = await uow.run(undefined, async (tx) => {
      await tx.manager.query(`INSERT INTO uow_probe (id) VALUES ('a'), ('b')`)
      tx.raise('profileStatusChanged', status('a', 1))
      tx.raise('apiKeysRevoked', { tenantId: 't1', appId: 'x' })
      tx.raise('profileStatusChanged', status('b', 2))
      expect(seen).toEqual([]) // nothing before the commit
      return 'result'
    })
    expect(r).toBe('result')
    expect(await Promise.all(seen.map(async (s) => [s.e.profileId, await s.visible]))).toEqual([
      ['a', true],
      ['b', true],
    ])
  })

  it('delivers nothing of a transaction that rolls back, and the error reaches the caller', async () => {
    const bus = new MemoryEventBus()
    const uow = new UnitOfWork(db.dataSource, bus)
    const seen: Status[] = []
    let stepRan = false
    bus.subscribe('profileStatusChanged', (e) => seen.push(e))
    await expect(
      uow.run(undefined, async (tx) => {
        await tx.manager.query(`INSERT INTO uow_probe (id) VALUES ('rolled-back')`)
        tx.raise('profileStatusChanged', status('rolled-back', 3))
        tx.onCommit(() => (stepRan = true))
        throw new Error('use case failed')
      }),
    ).rejects.toThrow('use case failed')
    expect(await committed('rolled-back')).toBe(false)
    expect(seen).toEqual([])
    expect(stepRan).toBe(false)
  })

  it('a use case given a context with the transaction joins it: one commit, events once, at its end', async () => {
    const bus = new MemoryEventBus()
    const uow = new UnitOfWork(db.dataSource, bus)
    const seen: string[] = []
    bus.subscribe('profileStatusChanged', (e) => seen.push(e.profileId))
    const ctx: RequestContext = { tenantId: 't1', appId: 'a1', requestId: 'r1' }
    const inner = (c: RequestContext, id: string) =>
      uow.run(c, async (tx) => {
        await tx.manager.query(`INSERT INTO uow_probe (id) VALUES ($1)`, [id])
        tx.raise('profileStatusChanged', status(id, 4))
      })
    await expect(
      uow.run(ctx, async (tx) => {
        await inner({ ...ctx, tx }, 'joined')
        expect(seen).toEqual([]) // the inner run did not commit or deliver
        throw new Error('outer failed after the inner use case')
      }),
    ).rejects.toThrow('outer failed')
    expect(await committed('joined')).toBe(false) // rolled back with the outer transaction
    expect(seen).toEqual([])
    expect(ctx.tx).toBeUndefined() // the caller's context is never changed

    await uow.run(ctx, async (tx) => inner({ ...ctx, tx }, 'joined-2'))
    expect(seen).toEqual(['joined-2'])
  })

  it("runs this process's steps after the commit, before the events go out", async () => {
    const bus = new MemoryEventBus()
    const uow = new UnitOfWork(db.dataSource, bus)
    const order: string[] = []
    bus.subscribe('apiKeysRevoked', () => order.push('event'))
    await uow.run(undefined, async (tx) => {
      tx.onCommit(() => order.push('step'))
      tx.raise('apiKeysRevoked', { tenantId: 't1', appId: 'a1' })
    })
    expect(order).toEqual(['step', 'event'])
  })
})

describe.runIf(SERVER_URL)('UnitOfWork with PostgresEventBus (server)', () => {
  it('another process hears the events only after the commit, and nothing of a rollback', async () => {
    const log = pino({ level: 'silent' })
    const here = new PostgresEventBus(db.url, log)
    const there = new PostgresEventBus(db.url, log)
    await here.start()
    await there.start()
    try {
      const uow = new UnitOfWork(db.dataSource, here)
      const heard: { id: string; visible: Promise<boolean> }[] = []
      there.subscribe('profileStatusChanged', (e) => heard.push({ id: e.profileId, visible: committed(e.profileId) }))
      await expect(
        uow.run(undefined, async (tx) => {
          await tx.manager.query(`INSERT INTO uow_probe (id) VALUES ('srv-rolled-back')`)
          tx.raise('profileStatusChanged', status('srv-rolled-back', 5))
          throw new Error('rolled back')
        }),
      ).rejects.toThrow('rolled back')
      await uow.run(undefined, async (tx) => {
        await tx.manager.query(`INSERT INTO uow_probe (id) VALUES ('srv-1'), ('srv-2')`)
        tx.raise('profileStatusChanged', status('srv-1', 6))
        tx.raise('profileStatusChanged', status('srv-2', 7))
      })
      await waitFor(
        () => `two events (heard ${heard.map((h) => h.id)})`,
        () => heard.length >= 2,
      )
      expect(await Promise.all(heard.map(async (h) => ({ id: h.id, visible: await h.visible })))).toEqual([
        { id: 'srv-1', visible: true },
        { id: 'srv-2', visible: true },
      ])
    } finally {
      await here.close()
      await there.close()
    }
  })
})

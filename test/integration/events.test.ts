// The event bus's delivery paths on the real database: NOTIFY published after a commit (server), NOTIFYs of other
// connections picked out of the embedded server's replies (embedded), and the order kept by `seq` on either.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js'
import { EmbeddedEventBus, EVENT_CHANNEL, encodeEvent, type EventMap } from '../../src/events/event-bus.js'
import { PostgresEventBus } from '../../src/events/postgres-bus.js'
import { freshDatabase, SERVER_URL, type TestDatabase } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

type Status = EventMap['profileStatusChanged']
const status = (profileId: string, seq: number, s: Status['status'] = 'processing'): Status => ({
  tenantId: 't1',
  profileId,
  status: s,
  at: new Date().toISOString(),
  seq,
})

describe.runIf(SERVER_URL)('PostgresEventBus.publish (server)', () => {
  let db: TestDatabase
  const buses: PostgresEventBus[] = []
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(async () => {
    for (const b of buses) await b.close()
    await db?.drop()
  })
  const bus = async () => {
    const b = new PostgresEventBus(db.url!, pino({ level: 'silent' }))
    await b.start()
    buses.push(b)
    return b
  }

  it('events published in a burst reach another process once each, in order, in few statements', async () => {
    const [a, b] = [await bus(), await bus()]
    const got: Status[] = []
    b.subscribe('profileStatusChanged', (e) => got.push(e))
    for (let i = 1; i <= 2000; i++) a.publish('profileStatusChanged', status(`p${i % 50}`, i))
    await waitFor('2,000 events (the number received)', () => got.length, {
      until: (n) => n === 2000,
      timeoutMs: 20_000,
    })
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1))
  })

  it("a profile's older event arriving after a newer one is dropped; other profiles are untouched", async () => {
    const [a, b] = [await bus(), await bus()]
    const got: Status[] = []
    b.subscribe('profileStatusChanged', (e) => got.push(e))
    a.publish('profileStatusChanged', status('late', 11, 'ready'))
    a.publish('profileStatusChanged', status('late', 10, 'processing')) // overtaken: published after its successor
    a.publish('profileStatusChanged', status('other', 10, 'processing'))
    a.publish('profileStatusChanged', status('late', 12, 'deleted'))
    await waitFor('3 events', () => got, { until: (g) => g.length === 3, timeoutMs: 10_000 })
    expect(got.map((e) => [e.profileId, e.seq, e.status])).toEqual([
      ['late', 11, 'ready'],
      ['other', 10, 'processing'],
      ['late', 12, 'deleted'],
    ])
  })
})

describe.skipIf(SERVER_URL)('the embedded server hands on what other connections NOTIFY (embedded)', () => {
  let embedded: EmbeddedPostgres
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-events-'))
  beforeAll(async () => {
    embedded = await startEmbeddedPostgres(path.join(dataDir, 'db'), { listen: [EVENT_CHANNEL] })
  })
  afterAll(async () => {
    await embedded?.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('a committed NOTIFY is delivered at its commit, a rolled-back one never, other channels are ignored', async () => {
    const bus = new EmbeddedEventBus()
    embedded.onNotification((channel, text) => bus.receive(channel, text))
    const got: EventMap['apiKeysRevoked'][] = []
    bus.subscribe('apiKeysRevoked', (e) => got.push(e))
    const c = new pg.Client({ connectionString: embedded.url })
    await c.connect()
    try {
      const notify = (appId: string) =>
        c.query(`SELECT pg_notify($1, $2)`, [EVENT_CHANNEL, encodeEvent('apiKeysRevoked', { tenantId: 't', appId })])
      await c.query('BEGIN')
      await notify('rolled-back')
      await c.query('ROLLBACK')
      await c.query('BEGIN')
      await notify('committed')
      expect(got).toEqual([])
      await c.query(`SELECT pg_notify('elsewhere', 'x')`)
      await c.query('COMMIT')
      // Delivered by the time the COMMIT's reply reaches the client: the scanner reads the reply before passing it on.
      expect(got).toEqual([{ tenantId: 't', appId: 'committed' }])
    } finally {
      await c.end()
    }
  })
})

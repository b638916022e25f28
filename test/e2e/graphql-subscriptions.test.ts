import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { migrate, openDatabase } from '../../src/db/database.js'
import { JobQueue } from '../../src/jobs/queue.js'
import { AccountService } from '../../src/services/account.service.js'
import { TenantService } from '../../src/services/tenant.service.js'
import { DashboardBrowser } from '../support/dashboard-client.js'
import {
  client,
  freshDatabase,
  SERVER_URL,
  startService,
  testConfig,
  testEnv,
  type TestDatabase,
  type TestService,
} from '../support/harness.js'
import {
  connect,
  DELETE,
  gql,
  submit,
  untilLive,
  type Recorder,
  type Socket,
  type StatusEvent,
} from '../support/graphql-client.js'
import { sleep, waitFor } from '../support/wait.js'
import { profilerArgs } from '../support/cli.js'

const root = path.resolve(import.meta.dirname, '../..')

/**
 * How long "nothing more arrives" is watched after the last expected event (events fan out in one emit): a window, not
 * a wait.
 */
const GRACE_MS = 300
const ALICE = 'My name is Alice and I live in Lisbon. I love hiking and jazz.'

const statuses = (events: StatusEvent[], profileId?: string) =>
  events.filter((e) => profileId === undefined || e.profileId === profileId).map((e) => e.status)
const hasReady = (profileId: string) => (events: StatusEvent[]) =>
  events.some((e) => e.profileId === profileId && e.status === 'READY')
const interestValues = (profile: any): string[] =>
  profile.interests.flatMap((c: any) => c.values.map((v: any) => v.value.toLowerCase()))

/**
 * graphql-ws subscriptions against a real server (API + worker in one process), in whichever mode the suite runs:
 * embedded PGlite (in-process event bus) or PostgreSQL server (LISTEN/NOTIFY). One service for the whole file; every
 * test uses its own tenant and app keys, so the per-key subscription bound of 2 set here does not couple them.
 */
describe('GraphQL subscriptions over graphql-ws (real clients)', () => {
  let svc: TestService
  const sockets: Socket[] = []
  const open = (key: string | undefined, opts: { authorization?: string } = {}) => {
    const s = connect(svc.url, key, opts)
    sockets.push(s)
    return s
  }
  const newKey = async (tenant: string, app = 'app') =>
    (await svc.profiler.services.tenants.createApp(tenant, app)).api_key
  const post = (key: string) => (profileId: string) =>
    submit(svc.url, key, profileId, `Probe text for ${profileId}: I enjoy chess.`)

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_WS_AUTH_RECHECK_MS: '200', PROFILER_WS_MAX_SUBSCRIPTIONS: '2' } })
  })
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()))
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('profileStatusChanged: PROCESSING then READY once each; no id: every profile; DELETED, profile null', async () => {
    const key = await newKey('events')
    const s = open(key)
    await s.connected
    const alice = s.status('alice')
    const all = s.status() // opened last: once it sees the probe, `alice` is live too
    await untilLive(all, post(key), 'probe-1')

    const [aliceSubmission] = await Promise.all([
      submit(svc.url, key, 'alice', ALICE),
      submit(svc.url, key, 'bob', 'My name is Bob. I like cooking.'),
    ])
    expect(aliceSubmission).toMatch(/[0-9a-f-]{36}/)

    await alice.until(hasReady('alice'), 20_000, 'READY of alice')
    await all.until(
      (es) => hasReady('alice')(es) && hasReady('bob')(es) && hasReady('probe-1')(es),
      20_000,
      'READY of alice, bob and probe-1',
    )
    await sleep(GRACE_MS)

    expect(alice.errors).toEqual([])
    expect(statuses(alice.events)).toEqual(['PROCESSING', 'READY'])
    expect(alice.events.every((e) => e.profileId === 'alice')).toBe(true)
    const ready = alice.events[1]!
    expect(ready.profile).toMatchObject({ profileId: 'alice', status: 'READY' })
    expect(ready.profile.coreInfo.name?.value).toBe('Alice')
    expect(ready.profile.coreInfo.location?.value).toBe('Lisbon')
    expect(interestValues(ready.profile)).toEqual(expect.arrayContaining(['hiking']))

    // id omitted: each profile of the tenant, each in order, once per change.
    expect(all.errors).toEqual([])
    for (const id of ['probe-1', 'alice', 'bob']) expect(statuses(all.events, id), id).toEqual(['PROCESSING', 'READY'])
    expect(new Set(all.events.map((e) => e.profileId))).toEqual(new Set(['probe-1', 'alice', 'bob']))
    expect(all.events.find((e) => e.profileId === 'bob' && e.status === 'READY')!.profile.coreInfo.name?.value).toBe(
      'Bob',
    )

    // The profile the events describe is the one the REST API serves.
    const rest = await client(svc.url, key).profile('alice')
    expect(rest.core_info.name.value).toBe('Alice')

    const del = await gql(svc.url, key, DELETE, { id: 'alice' })
    expect(del.body).toEqual({ data: { deleteProfile: true } })
    await alice.until((es) => es.length >= 3, 10_000, 'DELETED of alice')
    await all.until(
      (es) => es.some((e) => e.profileId === 'alice' && e.status === 'DELETED'),
      10_000,
      'DELETED of alice (all)',
    )
    await sleep(GRACE_MS)
    expect(alice.events).toHaveLength(3)
    expect(alice.events[2]).toEqual({ profileId: 'alice', status: 'DELETED', profile: null })
    expect(statuses(all.events, 'alice')).toEqual(['PROCESSING', 'READY', 'DELETED'])
    expect(all.events.find((e) => e.status === 'DELETED')!.profile).toBeNull()
    expect(alice.ended).toBeUndefined()
    expect(all.ended).toBeUndefined()
  })

  it("another tenant's subscribers never get this tenant's events (id omitted, or this tenant's id)", async () => {
    const { api_key: keyA, tenant_id: tenantA } = await svc.profiler.services.tenants.createApp('iso-a', 'app')
    const { api_key: keyB, tenant_id: tenantB } = await svc.profiler.services.tenants.createApp('iso-b', 'app')
    const a = open(keyA)
    const b = open(keyB)
    await Promise.all([a.connected, b.connected])
    const aOne = a.status('shared-id')
    const aAll = a.status()
    const bOne = b.status('shared-id') // the same profile id, seen from the other tenant
    const bAll = b.status()
    await untilLive(bAll, post(keyB), 'probe-b')
    await untilLive(aAll, post(keyA), 'probe-a')

    await submit(svc.url, keyA, 'shared-id', ALICE)
    await aOne.until(hasReady('shared-id'), 20_000, 'READY of shared-id in tenant A')
    expect((await gql(svc.url, keyA, DELETE, { id: 'shared-id' })).body).toEqual({ data: { deleteProfile: true } })
    await aOne.until((es) => es.some((e) => e.status === 'DELETED'), 10_000, 'DELETED of shared-id in tenant A')
    await aAll.until(hasReady('probe-a'), 20_000, 'READY of probe-a')
    await bAll.until(hasReady('probe-b'), 20_000, 'READY of probe-b')
    await sleep(GRACE_MS)

    expect(statuses(aOne.events)).toEqual(['PROCESSING', 'READY', 'DELETED'])
    expect(bOne.events).toEqual([])
    expect(bOne.errors).toEqual([])
    // B's tenant-wide subscription saw only B's own probe, never a profile of A.
    expect(new Set(bAll.events.map((e) => e.profileId))).toEqual(new Set(['probe-b']))
    expect(bAll.events.map((e) => e.profile?.tenantId)).toEqual(bAll.events.map(() => tenantB))
    expect(aAll.events.filter((e) => e.profile).every((e) => e.profile.tenantId === tenantA)).toBe(true)
    expect(new Set(aAll.events.map((e) => e.profileId))).toEqual(new Set(['probe-a', 'shared-id']))
    for (const r of [aOne, aAll, bOne, bAll]) expect(r.ended).toBeUndefined()
  })

  it('a revoked key: its open subscription ends with close code 4403 within a few seconds', async () => {
    const key = await newKey('revoked')
    const s = open(key)
    await s.connected
    const sub = s.status()
    await untilLive(sub, post(key), 'probe-r')

    const t0 = Date.now()
    const revoked = await svc.profiler.services.tenants.revokeKey('revoked', 'app')
    expect(revoked.revoked).toBe(1)
    const ended = await sub.untilEnded(5_000)
    expect(ended.code).toBe(4403)
    expect(Date.now() - t0).toBeLessThan(10_000) // re-checked every 200 ms here; generous for a loaded machine
    await waitFor('the socket close event', () => s.closes.length > 0, { timeoutMs: 2_000 })
    expect(s.closes[0]!.code).toBe(4403)

    // And the revoked key can neither reconnect nor use HTTP.
    const again = open(key)
    await waitFor('the refusal of the revoked key', () => again.closes.length > 0, { timeoutMs: 5_000 })
    expect(again.closes[0]!.code).toBe(4403)
    expect((await gql(svc.url, key, '{ profile(id: "probe-r") { profileId } }')).status).toBe(401)
  })

  it('a rotated key: the old key’s socket ends with 4403, the new key connects and subscribes', async () => {
    const oldKey = await newKey('rotated')
    const s = open(oldKey)
    await s.connected
    const sub = s.status('r1')
    const { api_key: newKeyValue } = await svc.profiler.services.tenants.rotateKey('rotated', 'app')
    expect((await sub.untilEnded(5_000)).code).toBe(4403)
    await waitFor('the socket close event', () => s.closes.length > 0, { timeoutMs: 2_000 })
    expect(s.closes[0]!.code).toBe(4403)

    const fresh = open(newKeyValue)
    await fresh.connected
    const r1 = fresh.status('r1')
    const all = fresh.status()
    await untilLive(all, post(newKeyValue), 'probe-rot')
    await submit(svc.url, newKeyValue, 'r1', ALICE)
    await r1.until(hasReady('r1'), 20_000, 'READY of r1 with the new key')
    expect(statuses(r1.events)).toEqual(['PROCESSING', 'READY'])
  })

  it('a missing, malformed or unknown key is refused at connection init with close code 4403', async () => {
    const valid = await newKey('refused')
    const cases: [string, Socket][] = [
      ['no connectionParams.authorization', open(undefined)],
      ['empty authorization', open(undefined, { authorization: '' })],
      ['not a Bearer value', open(undefined, { authorization: `Basic ${valid}` })],
      ['malformed key', open('not-a-key')],
      ['unknown key of the right shape', open(`pk_${'A'.repeat(12)}_${'b'.repeat(32)}`)],
      ['a valid key with one character changed', open(valid.slice(0, -1) + (valid.endsWith('x') ? 'y' : 'x'))],
    ]
    // A subscription started with the connection shares its fate (and gets no data).
    const subs = cases.map(([, s]) => s.status())
    for (const [what, s] of cases) {
      await waitFor(`the refusal (${what})`, () => s.closes.length > 0, { timeoutMs: 5_000 })
      expect(s.closes[0]!.code, what).toBe(4403)
      await expect(s.connected, what).rejects.toThrow(/closed before connection ack/)
    }
    for (const sub of subs) {
      expect((await sub.untilEnded(2_000)).code).toBe(4403)
      expect(sub.events).toEqual([])
    }
    // The same server accepts the valid key.
    await open(valid).connected
  })

  it('per-key bound: a third concurrent subscription of a key is RATE_LIMITED; ending one frees a slot', async () => {
    const key = await newKey('bound')
    const s = open(key)
    await s.connected
    const first = s.status('b1')
    const second = s.status() // opened after `first`: live-ness of both
    const third = s.status('b3')
    await third.untilEnded(5_000)
    expect(third.errors).toHaveLength(1)
    expect(third.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } })
    expect(third.errors[0].message).toMatch(/at most 2/)
    expect(third.events).toEqual([])
    await untilLive(second, post(key), 'probe-b1')
    expect(first.ended).toBeUndefined()

    // The bound is per key, not per socket: a second socket of the same key is refused too, another key is not.
    const s2 = open(key)
    await s2.connected
    const elsewhere = s2.status()
    expect((await elsewhere.untilEnded(5_000)).error).toBeDefined()
    expect(elsewhere.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } })
    const other = open(await newKey('bound', 'other'))
    await other.connected
    const otherSub = other.status()
    await untilLive(otherSub, post(key), 'probe-b2')

    // Complete one: its slot is freed. The client is told nothing when the server has handled a complete, so use
    // a query on the same socket as a barrier (the next test covers a subscribe sent in the same tick as the complete).
    first.dispose()
    await waitFor(
      'the completed subscription to free its slot (a query on its socket)',
      async () => {
        const r = await s.once(`{ profile(id: "b1") { profileId } }`)
        // queries on the socket count too
        if (r.errors) expect(r.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } })
        return r
      },
      { until: (r) => !r.errors, timeoutMs: 2_000 },
    )
    const fourth = s.status('b4')
    // `fourth` took the freed slot: one more is refused again, and `fourth` works.
    const beyond = s.subscribe<StatusEvent>(`subscription { profileStatusChanged { profileId status } }`)
    await beyond.untilEnded(5_000)
    expect(beyond.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED' } })
    expect(fourth.ended, JSON.stringify(fourth.errors)).toBeUndefined()
    await submit(svc.url, key, 'b4', ALICE)
    await fourth.until(hasReady('b4'), 20_000, 'READY of b4')
    expect(statuses(fourth.events)).toEqual(['PROCESSING', 'READY'])

    // Closing the socket frees its slots: a new socket of the key gets the full bound again.
    await s.close()
    await s2.close()
    const s3 = open(key)
    await s3.connected
    const x = s3.status('x')
    const y = s3.status()
    await untilLive(y, post(key), 'probe-b3')
    expect(x.ended).toBeUndefined()
  })

  // Known bug (see report): the server frees the slot only after the completed operation's iterator has returned,
  // so a subscribe that arrives with the complete (a client replacing a subscription) is refused with RATE_LIMITED.
  it('a subscription sent in the tick it completes another (as a client replacing one does) is accepted', async () => {
    const key = await newKey('bound-swap')
    const s = open(key)
    await s.connected
    const a = s.status('c1')
    const b = s.status()
    await untilLive(b, post(key), 'probe-c1')
    a.dispose()
    const c = s.status() // in the same tick as the complete of `a`
    await untilLive(c, post(key), 'probe-c2')
    expect(c.errors).toEqual([])
  })

  // Known bug (see report): onClose runs before onConnect has stored the socket state, so the re-check timer that
  // onConnect starts afterwards is never cleared. Observed by counting key checks (the only trace such a timer leaves).
  // Last in this block: the timers it leaks (while the bug lives) keep querying until the service closes.
  it('a socket that goes away during connection init leaves no key re-check running', async () => {
    const key = await newKey('gone')
    const tenants = svc.profiler.services.tenants
    const authenticate = tenants.authenticate
    let checks = 0
    let finished = 0
    tenants.authenticate = async function (k, requestId) {
      if (k !== key) return authenticate.call(this, k, requestId)
      checks++
      try {
        await sleep(50) // a database a little slower than the local one: the client is gone before the check ends
        return await authenticate.call(this, k, requestId)
      } finally {
        finished++
      }
    }
    try {
      for (let i = 0; i < 5; i++) {
        const ws = new WebSocket(svc.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws')
        await once(ws, 'open')
        ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }))
        ws.terminate() // gone before the ack, as a client losing its network is
      }
      // The five connection-init checks finish; afterwards only a leftover timer checks the key.
      await waitFor('the five connection-init checks to finish (checks finished)', () => finished, {
        until: (n) => n >= 5,
      })
      const before = checks
      await sleep(600) // a window of three re-check periods (PROFILER_WS_AUTH_RECHECK_MS=200) in which no check may run
      expect(checks - before, 'key checks for sockets that no longer exist').toBe(0)
    } finally {
      tenants.authenticate = authenticate
    }
  })
})

/**
 * Events cross processes (docs/architecture/processing.md, "Status events"): two `profiler serve` processes and one
 * `profiler worker` on one PostgreSQL server. Server mode only: in embedded mode the database is PGlite, owned by a
 * single process, and NOTIFY does not cross pglite connections (the event bus is in-process there), so there is no
 * second process to reach.
 */
describe.skipIf(!SERVER_URL)('events cross processes: serve, serve, worker (server PostgreSQL)', () => {
  let db: TestDatabase
  let env: Record<string, string>
  const children: ChildProcess[] = []
  const sockets: Socket[] = []

  const spawnRole = (role: 'serve' | 'worker') =>
    new Promise<string | undefined>((resolve, reject) => {
      const child = spawn(process.execPath, profilerArgs(role), {
        cwd: root,
        env: { ...process.env, ...env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      children.push(child)
      let out = ''
      const timer = setTimeout(() => reject(new Error(`${role} did not start:\n${out}`)), 60_000)
      const onData = (d: Buffer) => {
        out += d.toString()
        const m = /"url":"(http:\/\/[^"]+)"/.exec(out)
        if (m || (role === 'worker' && /worker running/.test(out))) {
          clearTimeout(timer)
          resolve(m?.[1])
        }
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
      child.once('exit', (code) => reject(new Error(`${role} exited with ${code}:\n${out}`)))
    })

  beforeAll(async () => {
    db = await freshDatabase()
    // The periodic key re-check is an hour: only the apiKeysRevoked event (NOTIFY) can close a socket in time.
    env = testEnv(db, { PROFILER_BOOTSTRAP: 'false', PROFILER_WS_AUTH_RECHECK_MS: '3600000' })
  })
  let api1: string | undefined
  let api2: string | undefined
  let key: string
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()))
    await Promise.all(
      children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise((r) => (c.once('exit', r), c.kill('SIGKILL')))),
    )
    await db?.drop()
  })

  it('a subscriber on one API process sees PROCESSING and READY of a submission posted to the other', async () => {
    // Schema, key and job queues are made here, before the three processes start side by side: the key as
    // `profiler app create` makes it (in this process, to spare the CPU one more Node start), and the pg-boss queues
    // because their concurrent creation on a fresh database can fail with `deadlock detected` (see the report).
    const setup = await openDatabase(testConfig(db), { poolSize: 2 })
    try {
      await migrate(setup)
      key = (await new TenantService(setup.dataSource).createApp('t', 'a')).api_key
    } finally {
      await setup.close()
    }
    const queue = new JobQueue({ url: db.url!, pollSeconds: 1, supervise: false, onError: () => undefined })
    await queue.start()
    await queue.stop()
    ;[api1, api2] = await Promise.all([spawnRole('serve'), spawnRole('serve'), spawnRole('worker')])
    expect(api1 && api2 && api1 !== api2).toBeTruthy()

    const s = connect(api1!, key)
    sockets.push(s)
    await s.connected
    const one = s.status('cross')
    const all: Recorder<StatusEvent> = s.status()
    // The probe goes through the second process too (REST), so live-ness is also proof of the NOTIFY path.
    await untilLive(
      all,
      async (id) => expect((await client(api2!, key).post(id, { data: 'I enjoy chess.' })).status).toBe(202),
      'probe-x',
    )

    await submit(api2!, key, 'cross', ALICE) // the GraphQL mutation on the second process
    await one.until(hasReady('cross'), 30_000, 'READY of cross on the first process')
    await all.until(hasReady('probe-x'), 30_000, 'READY of probe-x')
    await sleep(GRACE_MS)
    expect(one.errors).toEqual([])
    expect(statuses(one.events)).toEqual(['PROCESSING', 'READY'])
    expect(one.events[1]!.profile).toMatchObject({ profileId: 'cross', status: 'READY' })
    expect(one.events[1]!.profile.coreInfo.name?.value).toBe('Alice')
    expect(statuses(all.events, 'probe-x')).toEqual(['PROCESSING', 'READY'])
    expect(statuses(all.events, 'cross')).toEqual(['PROCESSING', 'READY'])
  })

  it("a key rotated in one API process's dashboard closes the key's subscription on the other at once", async () => {
    expect(api1 && api2).toBeTruthy() // the processes of the test above
    const setup = await openDatabase(testConfig(db), { poolSize: 2 })
    try {
      await new AccountService(setup.dataSource, testConfig(db).dashboard).createAccount(
        'ops@t.example',
        'a long enough password',
        { tenant: 't' },
      )
    } finally {
      await setup.close()
    }
    const browser = new DashboardBrowser(api2!)
    expect((await browser.signIn('ops@t.example', 'a long enough password')).body.errors).toBeUndefined()
    const [app] = (await browser.gql('{ apps { id name } }')).body.data.apps
    const s = connect(api1!, key)
    sockets.push(s)
    const sub = s.subscribe<StatusEvent>(`subscription { profileStatusChanged { profileId } }`)
    // Live once a profile posted to the second process reaches it (through NOTIFY, as the rotation's event will).
    await untilLive(
      sub,
      async (id) => expect((await client(api2!, key).post(id, { data: 'I enjoy chess.' })).status).toBe(202),
      'probe-rot',
    )
    const rotated = await browser.gql('mutation($id: ID!) { rotateAppKey(id: $id) { apiKey } }', { id: app.id })
    expect(rotated.body.data.rotateAppKey.apiKey).toMatch(/^pk_/)
    expect(await sub.untilEnded(15_000)).toEqual({ code: 4403, reason: 'Forbidden: API key revoked' })
  })
})

// Per-app retention, run by the worker's sweep: rows are backdated in SQL, the sweep runs once, and exactly what the
// policies name goes (profiles through the delete use case, with its event; texts dropped, rows and profiles kept).
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RetentionTenants1764400002100 } from '../../migrations/1764400002100-RetentionTenants.js'
import type { EventMap } from '../../src/events/event-bus.js'
import { RetentionService } from '../../src/services/retention.service.js'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { client, SERVER_URL, startService, type Client, type TestService } from '../support/harness.js'
import { residue } from '../support/residue.js'
import { waitFor } from '../support/wait.js'

describe('retention policies', () => {
  let svc: TestService
  let tenantA: string
  let tenantB: string
  const apps: Record<string, { id: string; api: Client }> = {}
  const deletedEvents: string[] = []

  const backdate = async (tenantId: string, profileId: string, days: number) => {
    const ds = svc.profiler.db.dataSource
    const at = `now() - make_interval(days => ${days})`
    await ds.query(
      `UPDATE profiles SET last_updated = ${at}, created_at = ${at} WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
    await ds.query(
      `UPDATE submissions SET created_at = ${at}, started_at = ${at}, finished_at = ${at}
        WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
  }
  const texts = async (tenantId: string, profileId: string) =>
    svc.profiler.db.dataSource.query(
      `SELECT data, extraction IS NOT NULL AS provenance, status,
              (SELECT count(*)::int FROM passages p
                WHERE p.tenant_id = s.tenant_id AND p.submission_id = s.id) AS passages
         FROM submissions s WHERE tenant_id = $1 AND profile_id = $2 ORDER BY seq`,
      [tenantId, profileId],
    )

  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_RETENTION_SWEEP_SECONDS: '0',
        PROFILER_RETENTION_BATCH: '2',
      },
    })
    const t = svc.profiler.services.tenants
    for (const [tenant, name] of [
      ['default', 'short'],
      ['default', 'keep'],
      ['tenant-b', 'b'],
    ] as const) {
      const k = await t.createApp(tenant, name)
      apps[name] = { id: k.app_id, api: client(svc.url, k.api_key) }
      if (tenant === 'default') tenantA = k.tenant_id
      else tenantB = k.tenant_id
    }
    const short = await t.setRetention('default', 'short', {
      deleteProfilesAfterDays: 30,
      dropSubmissionTextAfterDays: 7,
    })
    expect(short).toMatchObject({ deleteProfilesAfterDays: 30, dropSubmissionTextAfterDays: 7 })
    svc.profiler.bus.subscribe('profileStatusChanged', (e: EventMap['profileStatusChanged']) => {
      if (e.status === 'deleted') deletedEvents.push(`${e.tenantId}/${e.profileId}`)
    })
  })
  afterAll(async () => svc?.close())

  it("deletes profiles untouched past each writing app's policy, drops the app's old texts, nothing else", async () => {
    const { short, keep, b } = apps
    const writes: [Client, string, string][] = [
      [short!.api, 'old-short', 'My name is Olga Short. I live in Oslo.'],
      [short!.api, 'recent-short', 'My name is Rita Recent. I live in Rome.'],
      [short!.api, 'old-mixed', 'My name is Milo Mixed. I live in Madrid.'],
      [keep!.api, 'old-mixed', 'Milo loves chess.'],
      [keep!.api, 'old-keep', 'My name is Kai Keep. I live in Kyoto.'],
      [short!.api, 'old-legacy', 'My name is Lena Legacy. I live in Lima.'],
      [b!.api, 'old-short', 'My name is Bea Other. I live in Bonn.'],
    ]
    for (const [api, id, data] of writes) expect((await api.post(id, { data })).status).toBe(202)
    for (const [api, id] of writes) await api.waitReady(id, 90_000)
    // Each text left an evidence passage: the sweep drops it with the text.
    for (const id of ['recent-short', 'old-mixed', 'old-keep', 'old-legacy'])
      for (const t of await texts(tenantA, id)) expect(t.passages, id).toBe(1)
    for (const id of ['old-short', 'old-mixed', 'old-keep', 'old-legacy']) await backdate(tenantA, id, 40)
    await backdate(tenantA, 'recent-short', 10)
    await backdate(tenantB, 'old-short', 400)
    // A submission from before apps were recorded on submissions: it names no app, so it decides nothing.
    await svc.profiler.db.dataSource.query(
      `UPDATE submissions SET app_id = NULL WHERE tenant_id = $1 AND profile_id = 'old-legacy'`,
      [tenantA],
    )

    const r = await svc.profiler.retention!.runOnce()
    expect(r.ran).toBe(true)
    expect(r.deleted).toEqual([{ tenantId: tenantA, profiles: 1, byApp: { [short!.id]: 1 } }])
    // Texts of `short` finished more than 7 days ago: old-short's, recent-short's and old-mixed's first one (texts go
    // first).
    expect(r.textDropped).toEqual([{ tenantId: tenantA, appId: short!.id, submissions: 3 }])

    const a = short!.api
    expect((await a.get('/v1/profile/old-short')).status).toBe(404)
    expect(deletedEvents).toEqual([`${tenantA}/old-short`])
    expect(await residue(svc.profiler.db.dataSource, ['old-short', tenantA], { allowDeletionEvents: true })).toEqual([])
    for (const id of ['recent-short', 'old-mixed', 'old-keep', 'old-legacy'])
      expect((await a.get(`/v1/profile/${id}`)).status).toBe(200)
    // Text dropped, row and profile kept.
    expect(await texts(tenantA, 'recent-short')).toEqual([
      { data: null, provenance: false, status: 'done', passages: 0 },
    ])
    expect((await (await a.get('/v1/profile/recent-short/passages?include_hidden=true')).json()) as any).toMatchObject({
      passages: [],
    })
    expect((await a.profile('recent-short')).core_info.name.value).toBe('Rita Recent')
    expect(await texts(tenantA, 'old-mixed')).toEqual([
      { data: null, provenance: false, status: 'done', passages: 0 },
      { data: 'Milo loves chess.', provenance: true, status: 'done', passages: 1 },
    ])
    expect(await texts(tenantA, 'old-keep')).toEqual([
      { data: 'My name is Kai Keep. I live in Kyoto.', provenance: true, status: 'done', passages: 1 },
    ])
    expect(await texts(tenantA, 'old-legacy')).toEqual([
      { data: 'My name is Lena Legacy. I live in Lima.', provenance: true, status: 'done', passages: 1 },
    ])
    // The other tenant: its app has no policy, so its 400-day-old profile of the same id stays whole.
    expect((await b!.api.profile('old-short')).core_info.name.value).toBe('Bea Other')
    expect(await texts(tenantB, 'old-short')).toEqual([
      { data: 'My name is Bea Other. I live in Bonn.', provenance: true, status: 'done', passages: 1 },
    ])

    // A second sweep finds nothing more.
    expect(await svc.profiler.retention!.runOnce()).toEqual({ ran: true, deleted: [], textDropped: [] })
  })

  it("sharded: sweeps the marked tenants from their own apps; a tenant's mark goes with its policies", async () => {
    const ds = svc.profiler.db.dataSource
    const t = svc.profiler.services.tenants
    const marks = async () =>
      (await ds.query(`SELECT tenant_id FROM retention_tenants ORDER BY tenant_id`)).map((r: any) => r.tenant_id)
    const sweeper = new RetentionService(ds, svc.profiler.services.profiles, svc.profiler.log, {
      batch: 2,
      sharded: true,
    })
    expect(await marks()).toEqual([tenantA])
    expect((await apps.short!.api.post('old-marked', { data: 'My name is Mark Marked.' })).status).toBe(202)
    await apps.short!.api.waitReady('old-marked')
    await backdate(tenantA, 'old-marked', 40)
    const swept = await sweeper.runOnce()
    expect(swept.deleted).toEqual([{ tenantId: tenantA, profiles: 1, byApp: { [apps.short!.id]: 1 } }])
    expect(swept.textDropped).toEqual([{ tenantId: tenantA, appId: apps.short!.id, submissions: 1 }])
    expect((await apps.short!.api.get('/v1/profile/old-marked')).status).toBe(404)

    // The other tenant's app gets a policy, then loses it: marked, then unmarked by the next sweep.
    await t.setRetention('tenant-b', 'b', { deleteProfilesAfterDays: 300, dropSubmissionTextAfterDays: null })
    expect(await marks()).toEqual([tenantA, tenantB].sort())
    await t.setRetention('tenant-b', 'b', { deleteProfilesAfterDays: null, dropSubmissionTextAfterDays: null })
    expect(await marks()).toEqual([tenantA, tenantB].sort())
    expect((await sweeper.runOnce()).deleted).toEqual([])
    expect(await marks()).toEqual([tenantA])

    // The migration marks the tenants that have a policy.
    const runner = ds.createQueryRunner()
    try {
      await runner.query(`DROP TABLE retention_tenants`)
      await new RetentionTenants1764400002100().up(runner)
    } finally {
      await runner.release()
    }
    expect(await marks()).toEqual([tenantA])
  })

  it('keeps a profile touched after it was chosen, and never runs two sweeps at once', async () => {
    const ctx = { tenantId: tenantA, appId: 't', requestId: 't' }
    // The guard the sweep deletes with: a submission since the cut-off keeps the profile.
    expect((await apps.short!.api.post('recent-short', { data: 'Rita took up rowing.' })).status).toBe(202)
    await apps.short!.api.waitReady('recent-short')
    expect(
      await svc.profiler.services.profiles.remove(ctx, 'recent-short', {
        untouchedSince: new Date(Date.now() - 60_000),
      }),
    ).toBe(false)
    expect((await apps.short!.api.get('/v1/profile/recent-short')).status).toBe(200)

    const [one, two] = await Promise.all([svc.profiler.retention!.runOnce(), svc.profiler.retention!.runOnce()])
    expect([one.ran, two.ran].sort()).toEqual([false, true])
    if (SERVER_URL) {
      // Across processes: another session holding the lock makes the sweep stand aside.
      const other = new pg.Client({ connectionString: svc.db.url })
      await other.connect()
      try {
        await other.query(`SELECT pg_advisory_lock($1)`, [0x7274656e])
        expect((await svc.profiler.retention!.runOnce()).ran).toBe(false)
      } finally {
        await other.end()
      }
      expect((await svc.profiler.retention!.runOnce()).ran).toBe(true)
    }
  })

  it('validates policies', async () => {
    const t = svc.profiler.services.tenants
    for (const bad of [0, -1, 1.5, 40_000]) {
      await expect(t.setRetention('default', 'short', { deleteProfilesAfterDays: bad })).rejects.toThrow(
        /whole number of days/,
      )
    }
    await expect(t.setRetention('default', 'nope', { deleteProfilesAfterDays: 3 })).rejects.toThrow(/No app/)
    // Undefined keeps, null turns off.
    expect(await t.setRetention('default', 'short', { dropSubmissionTextAfterDays: null })).toMatchObject({
      deleteProfilesAfterDays: 30,
      dropSubmissionTextAfterDays: null,
    })
  })

  it('is set from the dashboard for the apps of the signed-in account only', async () => {
    const browser = new DashboardBrowser(svc.url)
    expect((await browser.signUp('retention@example.com', 'correct horse battery staple')).body.errors).toBeUndefined()
    const created = await browser.gql(`mutation { createApp(name: "mine") { app { id } } }`)
    const mine = created.body.data.createApp.app.id
    const set = `mutation($id: ID!, $d: Int, $t: Int) {
      setAppRetention(id: $id, deleteProfilesAfterDays: $d, dropSubmissionTextAfterDays: $t) {
        id deleteProfilesAfterDays dropSubmissionTextAfterDays
      }
    }`
    const r = await browser.gql(set, { id: mine, d: 90, t: null })
    expect(r.body.data.setAppRetention).toEqual({
      id: mine,
      deleteProfilesAfterDays: 90,
      dropSubmissionTextAfterDays: null,
    })
    const listed = await browser.gql(`{ apps { id deleteProfilesAfterDays dropSubmissionTextAfterDays } }`)
    expect(listed.body.data.apps).toEqual([
      { id: mine, deleteProfilesAfterDays: 90, dropSubmissionTextAfterDays: null },
    ])
    // Another tenant's app (tenant-b's) is not found from this account, and keeps its policy.
    const other = await browser.gql(set, { id: apps.b!.id, d: 1, t: 1 })
    expect(other.body.errors[0].extensions.code).toBe('APP_NOT_FOUND')
    expect((await svc.profiler.services.tenants.appsOf(tenantB))[0]).toMatchObject({
      deleteProfilesAfterDays: null,
      dropSubmissionTextAfterDays: null,
    })
    expect((await browser.gql(set, { id: mine, d: 0, t: null })).body.errors[0].extensions.code).toBe(
      'VALIDATION_FAILED',
    )
  })
})

describe("the worker's retention timer", () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RETENTION_SWEEP_SECONDS: '1' } })
  })
  afterAll(async () => svc?.close())

  it('sweeps by itself every PROFILER_RETENTION_SWEEP_SECONDS', async () => {
    const k = await svc.profiler.services.tenants.createApp('default', 'short')
    await svc.profiler.services.tenants.setRetention('default', 'short', { deleteProfilesAfterDays: 1 })
    const api = client(svc.url, k.api_key)
    expect((await api.post('stale', { data: 'My name is Sam Stale. I live in Sofia.' })).status).toBe(202)
    expect((await api.post('fresh', { data: 'My name is Fay Fresh. I live in Faro.' })).status).toBe(202)
    await api.waitReady('stale', 90_000)
    await api.waitReady('fresh', 90_000)
    const at = `now() - make_interval(days => 2)`
    await svc.profiler.db.dataSource.query(
      `UPDATE profiles SET last_updated = ${at} WHERE tenant_id = $1 AND profile_id = 'stale'`,
      [k.tenant_id],
    )
    await svc.profiler.db.dataSource.query(
      `UPDATE submissions SET created_at = ${at}, finished_at = ${at} WHERE tenant_id = $1 AND profile_id = 'stale'`,
      [k.tenant_id],
    )
    // No call to runOnce: the timer started with the worker deletes it.
    await waitFor('the timer to delete the stale profile', async () => (await api.get('/v1/profile/stale')).status, {
      until: (s) => s === 404,
      timeoutMs: 60_000,
      everyMs: 250,
    })
    expect((await api.get('/v1/profile/fresh')).status).toBe(200)
  })
})

describe('retention: a sweep under way at shutdown', () => {
  it('ends after its batch and shutdown waits for it: nothing runs against a closed database', async () => {
    const svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_RETENTION_SWEEP_SECONDS: '0',
        PROFILER_RETENTION_BATCH: '1',
      },
    })
    let closed = false
    try {
      const t = svc.profiler.services.tenants
      const k = await t.createApp('default', 'short-lived')
      await t.setRetention('default', 'short-lived', { deleteProfilesAfterDays: 1 })
      const api = client(svc.url, k.api_key)
      const ids = ['gone-1', 'gone-2', 'gone-3']
      for (const id of ids) expect((await api.post(id, { data: `I live in Oslo, ${id}.` })).status).toBe(202)
      for (const id of ids) await api.waitReady(id)
      await svc.profiler.db.dataSource.query(
        `UPDATE profiles SET last_updated = now() - interval '3 days', created_at = now() - interval '3 days'
          WHERE tenant_id = $1`,
        [k.tenant_id],
      )
      await svc.profiler.db.dataSource.query(
        `UPDATE submissions SET created_at = now() - interval '3 days' WHERE tenant_id = $1`,
        [k.tenant_id],
      )
      const sweep = svc.profiler.retention!.runOnce()
      const closing = svc.close().then(() => (closed = true))
      // The sweep ends (stopped between profiles, or done) instead of failing on a closed database, and before the
      // close.
      const r = await sweep
      expect(r.ran).toBe(true)
      expect(closed).toBe(false)
      await closing
      // A sweep asked for while stopping does not start.
      expect(await svc.profiler.retention!.runOnce()).toEqual({ ran: false, deleted: [], textDropped: [] })
    } finally {
      if (!closed) await svc.close()
    }
  })
})

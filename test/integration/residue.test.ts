// Deleting a profile leaves nothing of it behind: no row of any table (those of other features included, found through
// information_schema) names it or holds its content (history snapshots included), pg-boss's jobs and their archive
// included; the same profile id in another tenant is untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROCESS_QUEUE } from '../../src/jobs/queue.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { profileTables, residue } from '../support/residue.js'
import { waitFor } from '../support/wait.js'

describe('no residue after a profile is deleted', () => {
  let svc: TestService
  let a: Client
  let b: Client
  let tenantA: string
  let tenantB: string
  const id = 'zeb.residue+1@example.com'

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    const bKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    a = client(svc.url, svc.key)
    b = client(svc.url, bKey)
    tenantA = (await svc.profiler.services.tenants.authenticate(svc.key, 't')).tenantId
    tenantB = (await svc.profiler.services.tenants.authenticate(bKey, 't')).tenantId
  })
  afterAll(async () => svc?.close())

  it('removes the profile, its history, submissions, embedding and every job of it, in every table', async () => {
    const ds = svc.profiler.db.dataSource
    expect(await profileTables(ds)).toEqual(expect.arrayContaining(['profiles', 'profile_history', 'submissions']))
    for (const [c, text] of [
      [a, 'My name is Zebulon Quartermaine. I live in Quixotown. I love hiking and jazz.'],
      [b, 'My name is Yolanda Yarrow. I live in Yellowtown. I love chess.'],
    ] as const) {
      expect((await c.post(id, { data: text })).status).toBe(202)
      expect((await c.post(id, { data: 'I also enjoy sailing on weekends.' })).status).toBe(202)
      await c.waitReady(id)
    }
    const [{ embedded }] = await ds.query(
      `SELECT count(*)::int AS embedded FROM profiles
        WHERE tenant_id = $1 AND profile_id = $2 AND embedding IS NOT NULL`,
      [tenantA, id],
    )
    expect(embedded).toBe(1)
    // A forget and a rollback: history entries whose snapshots hold the profile's content (a forgotten value's
    // tombstone too) without naming the profile id.
    const edit = (path: string, method: string, body: unknown) =>
      fetch(`${svc.url}/v1/profile/${encodeURIComponent(id)}/${path}`, {
        method,
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await edit('values', 'DELETE', { section: 'interests', value: 'jazz' })).status).toBe(200)
    expect((await edit('rollback', 'POST', { to_seq: 1 })).status).toBe(200)
    const [{ snapshots }] = await ds.query(
      `SELECT count(*)::int AS snapshots FROM profile_history
        WHERE tenant_id = $1 AND profile_id = $2 AND strpos(snapshot::text, 'Quixotown') > 0`,
      [tenantA, id],
    )
    expect(snapshots).toBeGreaterThanOrEqual(3)
    // pg-boss archives finished jobs after hours: put copies of this profile's finished jobs there now, as it would.
    await ds.query(
      `INSERT INTO pgboss.archive SELECT j.*, now() FROM pgboss.job j
        WHERE j.name = $1 AND j.data->>'tenantId' = $2 AND j.data->>'profileId' = $3`,
      [PROCESS_QUEUE, tenantA, id],
    )
    expect((await residue(ds, [id, tenantA])).map((r) => r.table)).toEqual(
      expect.arrayContaining([
        'public.profiles',
        'public.profile_history',
        'public.submissions',
        'pgboss.job',
        'pgboss.archive',
      ]),
    )

    // One more submission, deleted at once: its job is queued or running when the profile goes.
    expect((await a.post(id, { data: 'Zebulon moved to Quixotown harbour.' })).status).toBe(202)
    expect((await a.del(id)).status).toBe(204)
    await waitFor('the queue to be idle', async () => {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'active', 'retry')`,
        [PROCESS_QUEUE],
      )
      return n === 0
    })

    expect(await residue(ds, [id, tenantA], { allowDeletionEvents: true })).toEqual([])
    // Whatever may name the deletion holds none of the profile's content.
    for (const marker of ['Zebulon', 'Quartermaine', 'Quixotown']) expect(await residue(ds, [marker])).toEqual([])
    expect((await a.get(`/v1/profile/${encodeURIComponent(id)}`)).status).toBe(404)

    // Tenant B's profile of the same id keeps everything.
    const kept = await b.profile(id)
    expect(kept.core_info.name.value).toBe('Yolanda Yarrow')
    expect((await residue(ds, [id, tenantB])).length).toBeGreaterThan(2)
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM pgboss.archive WHERE data->>'tenantId' = $1`, [
      tenantB,
    ])
    expect(n).toBe(0) // only A's were copied: B's jobs stay in pgboss.job
  })
})

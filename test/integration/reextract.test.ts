// Re-extraction with the local provider, through the real service: a dry run changes nothing and answers the diff and
// the version; the apply writes exactly that diff as one history entry, a new summary and embedding, and a ready event;
// submissions whose text retention dropped are skipped and counted; stale versions, bad parameters, other tenants and
// too many submissions are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventMap } from '../../src/events/event-bus.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { gqlApi } from '../support/graphql-client.js'
import { waitFor } from '../support/wait.js'

const json = (r: Response): Promise<any> => r.json()
const REEXTRACT = /* GraphQL */ `
  mutation Re($id: ID!, $dryRun: Boolean, $v: Int) {
    reextractProfile(id: $id, dryRun: $dryRun, expectedVersion: $v) {
      profileId dryRun applied version newVersion changed changes summary previousSummary
      reextracted skippedWithoutText batches
    }
  }
`

describe('re-extraction (local provider)', () => {
  let svc: TestService
  let api: Client
  let tenantId: string
  const events: EventMap['profileStatusChanged'][] = []

  const reextract = (id: string, qs = '', key?: string) =>
    fetch(`${svc.url}/v1/profile/${encodeURIComponent(id)}/reextract${qs}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key ?? svc.key}` },
    })
  const stored = async (id: string) => {
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT version, history_seq, summary, embedding::text AS embedding, content, last_updated
         FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, id],
    )
    const [{ n }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS n FROM profile_history WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, id],
    )
    return { ...row, history: n }
  }

  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_REEXTRACT_MAX_SUBMISSIONS: '4',
        PROFILER_BATCH_SIZE: '2',
      },
    })
    api = client(svc.url, svc.key)
    tenantId = (await svc.profiler.services.tenants.listApps('default'))[0]!.tenant_id
    svc.profiler.bus.subscribe('profileStatusChanged', (e) => events.push(e))
    for (const data of [
      'My name is Ana Lima. I live in Porto and I love hiking.',
      'I am 41 years old. I enjoy jazz and chess.',
      'I have a dog named Rex.',
    ]) {
      expect((await api.post('ana', { data })).status).toBe(202)
      await api.waitReady('ana')
    }
  })
  afterAll(async () => svc?.close())

  it('a dry run answers the diff and the version it was computed on, and changes nothing', async () => {
    const before = await stored('ana')
    const profileBefore = await api.profile('ana')
    const r = await reextract('ana')
    expect(r.status).toBe(200)
    const body = await json(r)
    expect(body).toMatchObject({
      profile_id: 'ana',
      dry_run: true,
      applied: false,
      version: before.version,
      submissions: { reextracted: 3, skipped_without_text: 0 },
      batches: 2,
    })
    expect(body.new_version).toBeUndefined()
    expect(body.summary).toMatch(/Ana Lima/)
    expect(await stored('ana')).toEqual(before)
    expect(await api.profile('ana')).toEqual(profileBefore)
  })

  it('skips a stored text over the submission limit (imported before imports were bounded) unread', async () => {
    expect((await api.post('legacy-text', { data: 'I live in Oslo.' })).status).toBe(202)
    await api.waitReady('legacy-text')
    await svc.profiler.db.dataSource.query(
      `INSERT INTO submissions (tenant_id, id, profile_id, input_type, data, status, attempts, created_at, finished_at)
       VALUES ($1, gen_random_uuid(), 'legacy-text', 'text', $2, 'done', 1, now(), now())`,
      [tenantId, `I live in Rome. ${'blah '.repeat(1024 * 1024)}`],
    )
    const dry = await json(await reextract('legacy-text', '?dry_run=true'))
    expect(dry.submissions).toEqual({ reextracted: 1, skipped_without_text: 0, skipped_too_large: 1 })
    expect(dry.changes.core_info?.location).toBeUndefined()
  })

  it('skips submissions whose text retention dropped; applying writes the dry run diff as one entry', async () => {
    // Retention dropped the text of the second submission (age, jazz, chess): a re-extraction cannot see them any more.
    await svc.profiler.db.dataSource.query(
      `UPDATE submissions SET data = NULL
        WHERE tenant_id = $1 AND profile_id = 'ana'
          AND seq = (SELECT seq FROM submissions WHERE tenant_id = $1 AND profile_id = 'ana'
                      ORDER BY seq OFFSET 1 LIMIT 1)`,
      [tenantId],
    )
    const before = await stored('ana')
    const dry = await json(await reextract('ana', '?dry_run=true'))
    expect(dry.submissions).toEqual({ reextracted: 2, skipped_without_text: 1, skipped_too_large: 0 })
    expect(dry.changed).toBe(true)
    expect(dry.changes.cleared).toEqual(expect.arrayContaining([{ path: 'core_info.age', value: 41 }]))
    expect(dry.changes.removed.map((r: { value: string }) => r.value)).toEqual(
      expect.arrayContaining(['jazz', 'chess']),
    )
    expect(await stored('ana')).toEqual(before)

    const seen = events.length
    const stamps = (await api.profile('ana')).field_timestamps
    const r = await reextract('ana', `?dry_run=false&expected_version=${dry.version}`)
    expect(r.status).toBe(200)
    const applied = await json(r)
    expect(applied).toMatchObject({
      dry_run: false,
      applied: true,
      version: before.version,
      new_version: before.version + 1,
    })
    expect(applied.changes).toEqual(dry.changes)
    const after = await stored('ana')
    expect(after.version).toBe(before.version + 1)
    expect(after.history).toBe(before.history + 1)
    expect(after.embedding).not.toBe(before.embedding)
    expect(after.summary).toBe(dry.summary)
    const p = await api.profile('ana')
    expect(p.core_info.age).toBeUndefined()
    expect(p.core_info.name.value).toBe('Ana Lima')
    // What did not change keeps its time; what was cleared is stamped now.
    expect(p.field_timestamps['core_info.name']).toBe(stamps['core_info.name'])
    expect(p.field_timestamps['core_info.age'] > stamps['core_info.age']).toBe(true)
    const last = p.update_log[p.update_log.length - 1]
    expect(last.input_type).toBe('reextraction')
    expect(last.changes).toEqual(dry.changes)
    expect(last.submission_ids).toHaveLength(2)
    // The same after-commit event as a worker's batch (on a server it comes back through LISTEN, after the answer).
    await waitFor('the ready event of the apply', () => events.length > seen, { timeoutMs: 10_000 })
    expect(events.slice(seen)).toEqual([expect.objectContaining({ tenantId, profileId: 'ana', status: 'ready' })])

    // Nothing left to change: a second re-extraction finds no difference, and applying it writes no history entry.
    const again = await json(await reextract('ana', '?dry_run=false'))
    expect(again).toMatchObject({ applied: true, changed: false, changes: {} })
    expect((await stored('ana')).history).toBe(after.history)
  })

  it('refuses an apply when the profile changed since the dry run (409), over REST and GraphQL', async () => {
    const g = gqlApi(svc.url, svc.key)
    const dry = (await g.data(REEXTRACT, { id: 'ana' })).reextractProfile
    expect(dry).toMatchObject({ profileId: 'ana', dryRun: true, applied: false, newVersion: null })
    expect((await api.post('ana', { data: 'I started learning the piano.' })).status).toBe(202)
    await api.waitReady('ana')
    const r = await reextract('ana', `?dry_run=false&expected_version=${dry.version}`)
    expect(r.status).toBe(409)
    expect((await json(r)).message).toMatch(/changed since version/)
    const viaGql = await g.raw(REEXTRACT, { id: 'ana', dryRun: false, v: dry.version })
    expect(viaGql.body.errors[0].extensions.code).toBe('CONFLICT')
    // With the current version it applies, through GraphQL too.
    const now = (await g.data(REEXTRACT, { id: 'ana' })).reextractProfile.version
    const ok = (await g.data(REEXTRACT, { id: 'ana', dryRun: false, v: now })).reextractProfile
    expect(ok).toMatchObject({ applied: true, newVersion: now + 1 })
  })

  it('answers clear errors for bad input, unknown profiles, other tenants and too many submissions', async () => {
    for (const qs of [
      '?dry_run=maybe',
      '?expected_version=-1',
      '?expected_version=abc',
      '?dry_run=true&dry_run=false',
    ]) {
      const r = await reextract('ana', qs)
      expect(r.status, qs).toBe(400)
      expect((await json(r)).message).toMatch(/dry_run|expected_version/)
    }
    expect((await reextract('bad id!')).status).toBe(400)
    expect((await reextract('x'.repeat(201))).status).toBe(400)
    expect((await reextract('nobody')).status).toBe(404)
    const other = await svc.profiler.services.tenants.createApp('other-tenant', 'o')
    expect((await reextract('ana', '', other.api_key)).status).toBe(404)
    expect((await reextract('ana', '', 'pk_nope_nope')).status).toBe(401)
    // More applied submissions than PROFILER_REEXTRACT_MAX_SUBMISSIONS (4 here).
    for (let i = 0; i < 5; i++) expect((await api.post('many', { data: `I like topic number ${i}.` })).status).toBe(202)
    await api.waitReady('many')
    const r = await reextract('many')
    expect(r.status).toBe(400)
    expect((await json(r)).message).toMatch(/more than 4 applied submissions/)
    // A profile with no text left has nothing to re-extract from.
    expect((await api.post('gone', { data: 'I love tea.' })).status).toBe(202)
    await api.waitReady('gone')
    await svc.profiler.db.dataSource.query(
      `UPDATE submissions SET data = NULL WHERE tenant_id = $1 AND profile_id = 'gone'`,
      [tenantId],
    )
    expect((await reextract('gone')).status).toBe(409)
    expect((await api.get('/v1/profile/ana/reextract')).status).toBe(405)
  })
})

describe('re-extraction and the request budget', () => {
  let svc: TestService
  afterAll(async () => svc?.close())

  it('charges one operation per extraction request to the caller, on top of the request itself', async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '6', PROFILER_BATCH_SIZE: '1' } })
    const [app] = await svc.profiler.services.tenants.listApps('default')
    const ctx = { tenantId: app!.tenant_id, appId: app!.id, requestId: 'test' }
    // Submitted through the service, so the budget stays whole for the re-extractions.
    for (const data of ['I love tea.', 'I live in Oslo.', 'I am a nurse.'])
      await svc.profiler.services.submissions.submit(ctx, 'bo', { data })
    await waitFor(
      'bo to be ready with its 3 submissions',
      async () => {
        const [r] = await svc.profiler.db.dataSource.query(
          `SELECT p.status,
                  (SELECT count(*)::int FROM submissions s
                    WHERE s.tenant_id = p.tenant_id AND s.profile_id = p.profile_id AND s.status = 'done') AS done
           FROM profiles p WHERE p.tenant_id = $1 AND p.profile_id = 'bo'`,
          [ctx.tenantId],
        )
        return r?.status === 'ready' && r.done === 3
      },
      { timeoutMs: 30_000 },
    )
    const call = () =>
      fetch(`${svc.url}/v1/profile/bo/reextract`, { method: 'POST', headers: { authorization: `Bearer ${svc.key}` } })
    // 1 for the request + 3 batches of 1 = 4 of 6; the next one would need 4 more.
    const first = await call()
    expect(first.status).toBe(200)
    expect((await json(first)).batches).toBe(3)
    const second = await call()
    expect(second.status).toBe(429)
    expect((await json(second)).message).toMatch(/this request counts 3 operations/)
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

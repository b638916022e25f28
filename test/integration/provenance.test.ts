// Provenance (docs/guides/evidence.md "Why the profile says it") through the running service on the configured
// database, local provider: why the profile says a value (GET /v1/profile/{id}/evidence, Profile.evidence), forgetting
// a value hides the passages that state it from every context (recorded in the forget's history entry), and one
// submission's evidence can be deleted on its own (DELETE /v1/profile/{id}/submissions/{submissionId}/evidence,
// deleteSubmissionEvidence).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { openaiService } from '../support/openai-service.js'
import { post, chat } from '../support/submit.js'

describe('provenance (local provider)', () => {
  let svc: TestService
  let api: Client
  const auth = () => ({ authorization: `Bearer ${svc.key}` })
  const evidence = async (id: string, params: Record<string, string>) => {
    const r = await api.get(`/v1/profile/${encodeURIComponent(id)}/evidence?${new URLSearchParams(params)}`)
    const text = await r.text()
    return { status: r.status, body: JSON.parse(text) }
  }
  const context = async (id: string, query: string) => {
    const r = await api.get(
      `/v1/profile/${encodeURIComponent(id)}/context?${new URLSearchParams({ query, max_tokens: '2000' })}`,
    )
    expect(r.status).toBe(200)
    return ((await r.json()) as { text: string }).text
  }
  const forget = (id: string, body: unknown) =>
    fetch(`${svc.url}/v1/profile/${encodeURIComponent(id)}/values`, {
      method: 'DELETE',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const deleteEvidence = (id: string, submissionId: string) =>
    fetch(`${svc.url}/v1/profile/${encodeURIComponent(id)}/submissions/${encodeURIComponent(submissionId)}/evidence`, {
      method: 'DELETE',
      headers: auth(),
    })
  const passages = (id: string) =>
    svc.profiler.db.dataSource.query(
      `SELECT submission_id::text AS s, position, text, hidden_at, hidden_by
         FROM passages WHERE profile_id = $1 ORDER BY occurred_at, position`,
      [id],
    )

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('answers the passages that support a value, best first, with the submission that proposed it', async () => {
    const text = await post(api, 'ana', {
      data: 'My name is Ana. I live in Lisbon. I love jazz and hiking.',
      occurred_at: '2024-03-01T10:00:00Z',
    })
    const conv = await post(api, 'ana', {
      input_type: 'conversation',
      data: chat(
        [
          ['Any plans for the weekend?', 'I love hiking in the mountains with my sister.'],
          ['What do you do for work?', 'I work as a nurse at the hospital.'],
        ],
        ['2024-04-02T09:00:00Z', '2024-04-02T09:01:00Z'],
      ),
    })
    const p = await api.waitReady('ana')
    expect(p.core_info.location?.value).toBe('Lisbon')

    const where = await evidence('ana', { field: 'core_info.location', value: 'Lisbon' })
    expect(where.status, JSON.stringify(where.body)).toBe(200)
    expect(where.body).toMatchObject({ profile_id: 'ana', field: 'core_info.location', value: 'Lisbon' })
    expect(where.body.passages).toEqual([
      {
        submission_id: text,
        position: 0,
        speaker: null,
        prompt: null,
        text: 'My name is Ana. I live in Lisbon. I love jazz and hiking.',
        occurred_at: '2024-03-01T10:00:00.000Z',
        match: 'extraction',
      },
    ])
    expect(where.body.sources).toEqual([{ submission_id: text, occurred_at: '2024-03-01T10:00:00.000Z', quote: null }])
    expect(where.body.extractions_read).toBe(2)

    // A value two submissions said: both, each from its own submission; a conversation's passage carries its question.
    const hiking = await evidence('ana', { field: 'interests', value: 'Hiking' })
    expect(hiking.status).toBe(200)
    expect(hiking.body.passages.map((x: any) => x.submission_id).sort()).toEqual([text, conv].sort())
    const turn = hiking.body.passages.find((x: any) => x.submission_id === conv)
    expect(turn).toMatchObject({
      speaker: 'user',
      prompt: 'Any plans for the weekend?',
      text: 'I love hiking in the mountains with my sister.',
      occurred_at: '2024-04-02T09:00:00.000Z',
      match: 'extraction',
    })
    // Stemmed in the profile's language: "hikes" is the same word.
    const hikes = await evidence('ana', { field: 'interests', value: 'hikes' })
    expect(hikes.body.passages.length).toBe(2)
    // The occupation's passage is the turn that says it, not the other turn of the same conversation.
    const job = await evidence('ana', { field: 'core_info.occupation', value: 'nurse' })
    expect(job.body.passages.map((x: any) => x.text)).toEqual(['I work as a nurse at the hospital.'])
    expect(job.body.sources.map((s: any) => s.submission_id)).toEqual([conv])
  })

  it('empty when unsupported, unknown profile 404, 400 naming a bad field, value, category or limit', async () => {
    const none = await evidence('ana', { field: 'core_info.location', value: 'Tokyo' })
    expect(none.status).toBe(200)
    expect(none.body.passages).toEqual([])
    expect(none.body.sources).toEqual([])
    const unknown = await evidence('nobody', { field: 'core_info.location', value: 'Lisbon' })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 404, message: 'Profile nobody not found' })
    for (const [params, message] of [
      [{ value: 'Lisbon' }, /Missing parameter: field/],
      [{ field: 'core_info.city', value: 'Lisbon' }, /Invalid parameter field: must be one of/],
      [{ field: 'core_info.location' }, /Missing parameter: value/],
      [{ field: 'core_info.location', value: '  ' }, /Invalid parameter value: must not be empty/],
      [{ field: 'core_info.location', value: 'Lisbon', category: 'music' }, /category: only for field interests/],
      [
        { field: 'core_info.location', value: 'Lisbon', limit: '0' },
        /Invalid parameter limit: must be an integer from 1 to 50/,
      ],
      [{ field: 'core_info.location', value: 'Lisbon', limit: 'many' }, /Invalid parameter limit/],
    ] as [Record<string, string>, RegExp][]) {
      const r = await evidence('ana', params)
      expect(r.status, JSON.stringify(params)).toBe(400)
      expect(r.body.message).toMatch(message)
    }
    const bad = await evidence('bad id!', { field: 'core_info.location', value: 'Lisbon' })
    expect(bad.status).toBe(400)
  })

  it('answers the same over GraphQL (Profile.evidence)', async () => {
    const r = await gql(
      svc.url,
      svc.key,
      `{ profile(id: "ana") { evidence(field: "interests", value: "jazz", category: "music", limit: 5) {
          field value category extractionsRead
          passages { submissionId position speaker prompt text occurredAt match }
          sources { submissionId occurredAt quote }
        } } }`,
    )
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
    const e = r.body.data.profile.evidence
    expect(e).toMatchObject({ field: 'interests', value: 'jazz', category: 'music', extractionsRead: 2 })
    expect(e.passages).toEqual([
      expect.objectContaining({
        position: 0,
        text: 'My name is Ana. I live in Lisbon. I love jazz and hiking.',
        match: 'EXTRACTION',
        occurredAt: '2024-03-01T10:00:00.000Z',
      }),
    ])
    const bad = await gql(
      svc.url,
      svc.key,
      `{ profile(id: "ana") { evidence(field: "nowhere", value: "jazz") { field } } }`,
    )
    expect(bad.body.errors?.[0]?.message).toMatch(/Invalid parameter field/)
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED')
  })

  it('falls back to passages saying every word of the value when no stored extraction says where', async () => {
    const id = 'chess'
    // The value comes from structured data (no passages); a text mentions it without the extractor taking it.
    await post(api, id, { input_type: 'structured', data: JSON.stringify({ interests: { games: ['chess'] } }) })
    const said = await post(api, id, { data: 'My brother is good at chess. I am not.' })
    await post(api, id, { data: 'I have a brother.' })
    await api.waitReady(id)
    const r = await evidence(id, { field: 'interests', value: 'chess' })
    expect(r.body.sources).toEqual([])
    expect(r.body.passages).toEqual([
      expect.objectContaining({ submission_id: said, text: 'My brother is good at chess. I am not.', match: 'words' }),
    ])
    // A submission whose stored extraction is not known (kept before provenance was, imported): its passages count by
    // words, and then only theirs.
    const ana = await evidence('ana', { field: 'core_info.location', value: 'Lisbon' })
    const text = ana.body.sources[0].submission_id
    await svc.profiler.db.dataSource.query(`UPDATE submissions SET extraction = NULL WHERE id = $1`, [text])
    const words = await evidence('ana', { field: 'core_info.location', value: 'Lisbon' })
    expect(words.body).toMatchObject({
      sources: [],
      extractions_read: 1,
      passages: [expect.objectContaining({ submission_id: text, match: 'words' })],
    })
    // A value of several words: every word must be there.
    expect((await evidence('ana', { field: 'core_info.location', value: 'Lisbon Portugal' })).body.passages).toEqual([])
  })

  it("never answers another tenant's profile or deletes its evidence", async () => {
    const other = (await svc.profiler.services.tenants.createApp('tenant-other', 'app')).api_key
    const o = client(svc.url, other)
    const r = await o.get('/v1/profile/ana/evidence?field=interests&value=jazz')
    expect(r.status).toBe(404)
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT id::text AS id FROM submissions WHERE profile_id = 'ana' LIMIT 1`,
    )
    const d = await fetch(`${svc.url}/v1/profile/ana/submissions/${row.id}/evidence`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${other}` },
    })
    expect(d.status).toBe(404)
    const g = await gql(
      svc.url,
      other,
      `{ profile(id: "ana") { evidence(field: "interests", value: "jazz") { passages { text } } } }`,
    )
    expect(g.body.data.profile).toBeNull()
    expect((await evidence('ana', { field: 'interests', value: 'jazz' })).body.passages.length).toBe(1)
  })

  it('forgetting a value hides its passages from contexts and evidence; the history counts them', async () => {
    const id = 'lisa'
    await post(api, id, { data: 'I live in Lisbon.', occurred_at: '2024-01-01T00:00:00Z' })
    await post(api, id, { data: 'I love painting and long walks by the river.', occurred_at: '2024-02-01T00:00:00Z' })
    await api.waitReady(id)
    expect(await context(id, 'Lisbon')).toContain('I live in Lisbon.')

    const r = await forget(id, { section: 'core_info.location', value: 'lisbon' })
    expect(r.status, await r.clone().text()).toBe(200)
    const after = ((await r.json()) as any).profile
    const entry = after.update_log[after.update_log.length - 1]
    expect(entry).toMatchObject({
      input_type: 'forget',
      changes: { removed: [{ section: 'core_info.location', value: 'Lisbon' }], passages_hidden: 1 },
    })

    const text = await context(id, 'Lisbon')
    expect(text).not.toMatch(/Lisbon/)
    expect(await context(id, 'painting')).toContain('I love painting and long walks by the river.')
    expect((await evidence(id, { field: 'core_info.location', value: 'Lisbon' })).body.passages).toEqual([])
    // Hidden, not deleted: kept with who hid it (the forget's history entry).
    const rows = await passages(id)
    expect(rows.find((x: any) => x.text === 'I live in Lisbon.')).toMatchObject({ hidden_by: `forget:${entry.seq}` })
    expect(rows.find((x: any) => x.text.startsWith('I love painting')).hidden_at).toBeNull()

    // Also over GraphQL: a forget that finds no passage records 0.
    const g = await gql(
      svc.url,
      svc.key,
      `mutation { forgetProfileValue(id: "${id}", section: "interests", value: "cooking") { profileId } }`,
    )
    expect(g.body.errors?.[0]?.extensions?.code).toBe('VALUE_NOT_FOUND')
    const g2 = await gql(
      svc.url,
      svc.key,
      `mutation { forgetProfileValue(id: "${id}", section: "interests", value: "painting") {
        history(first: 100) { entries { inputType changes } }
      } }`,
    )
    expect(g2.body.errors, JSON.stringify(g2.body.errors)).toBeUndefined()
    const entries = g2.body.data.forgetProfileValue.history.entries
    expect(entries[entries.length - 1]).toMatchObject({ inputType: 'forget', changes: { passages_hidden: 1 } })
    expect(await context(id, 'painting')).not.toContain('painting')

    // New evidence after the forget brings the value back, with its own visible passage.
    await post(api, id, { data: 'Now I live in Lisbon.' })
    const back = await api.waitReady(id)
    expect(back.core_info.location?.value).toBe('Lisbon')
    expect(
      (await evidence(id, { field: 'core_info.location', value: 'Lisbon' })).body.passages.map((x: any) => x.text),
    ).toEqual(['Now I live in Lisbon.'])
  })

  it("deletes a submission's evidence (passages, text), not the profile's values; 404s; GraphQL too", async () => {
    const id = 'del'
    const first = await post(api, id, { data: 'I live in Porto. I love chess.' })
    const second = await post(api, id, { data: 'I work as a baker.' })
    const before = await api.waitReady(id)
    const r = await deleteEvidence(id, first)
    expect(r.status, await r.clone().text()).toBe(200)
    expect(await r.json()).toEqual({ profile_id: id, submission_id: first, passages_deleted: 1, text_deleted: true })
    expect((await passages(id)).map((x: any) => x.s)).toEqual([second])
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT data, extraction, status FROM submissions WHERE id = $1`,
      [first],
    )
    expect(row).toEqual({ data: null, extraction: null, status: 'done' })
    const now = await api.profile(id)
    expect(now.core_info.location?.value).toBe('Porto')
    expect(now.update_log).toEqual(before.update_log)
    expect((await evidence(id, { field: 'core_info.location', value: 'Porto' })).body.passages).toEqual([])
    // Again: nothing left to delete.
    const again = await deleteEvidence(id, first)
    expect(await again.json()).toEqual({
      profile_id: id,
      submission_id: first,
      passages_deleted: 0,
      text_deleted: false,
    })
    // Unknown profile, unknown submission, a submission of another profile, not an id at all.
    expect((await deleteEvidence('nobody', first)).status).toBe(404)
    expect((await deleteEvidence(id, '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    const other = await deleteEvidence('ana', second)
    expect(other.status).toBe(404)
    expect(((await other.json()) as any).message).toBe(`Profile ana has no submission ${second}`)
    expect((await deleteEvidence(id, 'not-a-uuid')).status).toBe(404)

    const g = await gql(
      svc.url,
      svc.key,
      `mutation { deleteSubmissionEvidence(profileId: "${id}", submissionId: "${second}") {
        profileId submissionId passagesDeleted textDeleted
      } }`,
    )
    expect(g.body.errors, JSON.stringify(g.body.errors)).toBeUndefined()
    expect(g.body.data.deleteSubmissionEvidence).toEqual({
      profileId: id,
      submissionId: second,
      passagesDeleted: 1,
      textDeleted: true,
    })
    expect(await passages(id)).toEqual([])
    // The submissions say their text is gone (what the dashboard shows in its Submissions table).
    const subs = await gql(svc.url, svc.key, `{ profile(id: "${id}") { submissions { nodes { id hasText } } } }`)
    expect(subs.body.errors, JSON.stringify(subs.body.errors)).toBeUndefined()
    const kept = Object.fromEntries(
      subs.body.data.profile.submissions.nodes.map((n: { id: string; hasText: boolean }) => [n.id, n.hasText]),
    )
    expect(kept).toEqual({ [first]: false, [second]: false })
  })
})

describe('provenance: a submission still waiting keeps its text', () => {
  let svc: TestService
  beforeAll(async () => {
    // No worker: what is posted stays pending.
    svc = await startService({ role: 'api' })
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('refuses to delete the evidence of a pending submission (409), and changes nothing', async () => {
    const api = client(svc.url, svc.key)
    const id = await post(api, 'waiting', { data: 'I live in Oslo.' })
    const r = await fetch(`${svc.url}/v1/profile/waiting/submissions/${id}/evidence`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${svc.key}` },
    })
    expect(r.status).toBe(409)
    expect(((await r.json()) as any).message).toMatch(
      /is pending: its evidence can be deleted once it has been processed/,
    )
    const [row] = await svc.profiler.db.dataSource.query(`SELECT data, status FROM submissions WHERE id = $1`, [id])
    expect(row).toEqual({ data: 'I live in Oslo.', status: 'pending' })
  })
})

describe('provenance (openai provider, against the local OpenAI-compatible server)', () => {
  const ai = openaiService()

  it("ranks the passage of the model's quote first, the quote its source; a forget hides all stating it", async () => {
    const filler = [
      'The weather was mild and we walked a lot along the coast.',
      'We ate grilled sardines at a small place near the harbour.',
      'My sister took hundreds of photos of the tiled houses.',
      'In the evening we listened to fado in an old tavern.',
      'The trams were crowded but we did not mind at all.',
      'On the last day it rained, so we stayed in a museum.',
      'I bought a book about the history of the old town.',
    ].join(' ')
    const data = `I live in Lisbon. ${filler} My friend Marta says Lisbon is the best city in spring.`
    const id = await post(ai.api, 'ai.oa-1', { data, occurred_at: '2025-05-08T12:00:00Z' })
    const p = await ai.api.waitReady('ai.oa-1')
    expect(p.core_info.location?.value).toBe('Lisbon')
    const r = await ai.api.get('/v1/profile/ai.oa-1/evidence?field=core_info.location&value=Lisbon')
    expect(r.status).toBe(200)
    const body = (await r.json()) as any
    expect(body.sources).toEqual([
      { submission_id: id, occurred_at: '2025-05-08T12:00:00.000Z', quote: 'I live in Lisbon.' },
    ])
    expect(body.passages.length).toBe(2)
    expect(body.passages[0]).toMatchObject({ submission_id: id, position: 0, match: 'quote' })
    expect(body.passages[0].text).toMatch(/^I live in Lisbon\. /)
    expect(body.passages[1]).toMatchObject({ submission_id: id, match: 'extraction' })
    expect(body.passages[1].text).toMatch(/Marta says Lisbon is the best city in spring\.$/)

    const f = await fetch(`${ai.svc.url}/v1/profile/ai.oa-1/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ai.svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ section: 'core_info.location', value: 'Lisbon' }),
    })
    expect(f.status, await f.clone().text()).toBe(200)
    const log = ((await f.json()) as any).profile.update_log
    expect(log[log.length - 1].changes.passages_hidden).toBe(2)
    const c = await ai.api.get('/v1/profile/ai.oa-1/context?query=Lisbon&max_tokens=2000')
    expect(((await c.json()) as any).text).not.toMatch(/Lisbon/)
  })
})

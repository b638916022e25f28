// Event time (docs/guides/submitting-data.md "Event time"), through the running service on the configured database:
// occurred_at over REST and GraphQL (bounds, idempotency, a conversation's message timestamps), its place in the
// submission views, export and import, relative dates resolved from it by both providers (the openai one against the
// fake server), and merging in event time, so back-filled old conversations do not overwrite what the person said last
// week.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { openaiService } from '../support/openai-service.js'
import { post } from '../support/submit.js'
import { waitFor } from '../support/wait.js'

const DAY = 86_400_000
const isoDaysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString()

async function refused(api: Client, id: string, body: unknown): Promise<string> {
  const res = await api.post(id, body)
  const text = await res.text()
  expect(res.status, text).toBe(400)
  return (JSON.parse(text) as { message: string }).message
}

const SUBMISSION = `query($id: ID!) { submission(id: $id) { id status createdAt occurredAt } }`
const submission = async (svc: TestService, id: string) => {
  const r = await gql(svc.url, svc.key, SUBMISSION, { id })
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
  return r.body.data.submission as { id: string; status: string; createdAt: string; occurredAt: string }
}

/** The profile's submissions (GraphQL), oldest first, with their event times. */
async function submissionsOf(svc: TestService, profileId: string) {
  const r = await gql(
    svc.url,
    svc.key,
    `query($id: ID!) { profile(id: $id) { submissions(first: 100) { nodes { id status occurredAt } } } }`,
    { id: profileId },
  )
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
  return r.body.data.profile.submissions.nodes as { id: string; status: string; occurredAt: string }[]
}

/** POST /v1/import of export records (JSON Lines) with an app's key. */
const importRecords = (svc: TestService, key: string, records: unknown[]) =>
  fetch(`${svc.url}/v1/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body: records.map((r) => JSON.stringify(r)).join('\n') + '\n',
  })

describe('event time (local provider)', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('refuses a bad occurred_at: 400 VALIDATION_FAILED naming the field and bound, REST and GraphQL', async () => {
    const cases: [unknown, RegExp][] = [
      ['last tuesday', /occurred_at must be an ISO 8601 date-time with an offset .* or a date/],
      ['2023-05-08T10:00:00', /occurred_at must be an ISO 8601/],
      ['2023-02-30', /occurred_at is not a calendar date/],
      ['1899-12-31', /occurred_at must not be before 1900-01-01/],
      [new Date(Date.now() + 3600_000).toISOString(), /occurred_at must not be in the future \(more than 5 minutes/],
      ['2023-05-08T10:00:00.000000000000000000000000000000000Z', /occurred_at must be at most 40 characters/],
      [20230508, /occurred_at must be a string/],
    ]
    for (const [occurred_at, message] of cases) {
      expect(await refused(api, 'bad-time', { data: 'I live in Oslo.', occurred_at }), String(occurred_at)).toMatch(
        message,
      )
      if (typeof occurred_at !== 'string') continue
      const r = await gql(
        svc.url,
        svc.key,
        `mutation($t: String) { submitProfileData(id: "bad-time", data: "I live in Oslo.", occurredAt: $t) { id } }`,
        { t: occurred_at },
      )
      // As every other argument the service checks (graphql.test.ts): VALIDATION_FAILED, status 400.
      expect(r.body.errors?.[0]?.extensions, String(occurred_at)).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
      })
      expect(r.body.errors[0].message).toMatch(message)
    }
    // Nothing was stored.
    expect((await api.get('/v1/profile/bad-time')).status).toBe(404)
  })

  it("submission view: as given (a date at midnight UTC), else acceptance, else a chat's last message", async () => {
    const given = await post(api, 'times', { data: 'I like tea.', occurred_at: '2023-05-08' })
    expect((await submission(svc, given)).occurredAt).toBe('2023-05-08T00:00:00.000Z')
    const offset = await post(api, 'times', { data: 'I like tea.', occurred_at: '2023-05-08T23:30:00-02:00' })
    expect((await submission(svc, offset)).occurredAt).toBe('2023-05-09T01:30:00.000Z')
    const none = await post(api, 'times', { data: 'I like coffee.' })
    const s = await submission(svc, none)
    expect(s.occurredAt).toBe(s.createdAt)
    const messages = [
      { role: 'assistant', content: 'Where do you live?', timestamp: '2024-03-01T09:00:00Z' },
      { role: 'user', content: 'I live in Bergen.', timestamp: '2024-03-01T09:02:00+01:00' },
      { role: 'assistant', content: 'Nice!' },
    ]
    const conv = await post(api, 'times', { input_type: 'conversation', data: JSON.stringify(messages) })
    expect((await submission(svc, conv)).occurredAt).toBe('2024-03-01T09:00:00.000Z')
    // occurred_at wins over the messages' timestamps.
    const both = await post(api, 'times', {
      input_type: 'conversation',
      data: JSON.stringify(messages),
      occurred_at: '2024-02-01',
    })
    expect((await submission(svc, both)).occurredAt).toBe('2024-02-01T00:00:00.000Z')
    // GraphQL takes it too.
    const r = await gql(
      svc.url,
      svc.key,
      `mutation { submitProfileData(id: "times", data: "I like juice.", occurredAt: "2022-01-02T03:04:05Z") { id } }`,
    )
    expect((await submission(svc, r.body.data.submitProfileData.id)).occurredAt).toBe('2022-01-02T03:04:05.000Z')
    await api.waitReady('times')
  })

  it("refuses a conversation message's bad timestamp with a 400 naming the message", async () => {
    const messages = [
      { role: 'user', content: 'I live in Bergen.', timestamp: '2024-03-01T09:00:00Z' },
      { role: 'assistant', content: 'Nice!', timestamp: 'yesterday' },
    ]
    expect(await refused(api, 'bad-msg', { input_type: 'conversation', data: JSON.stringify(messages) })).toMatch(
      /message 1 has an invalid "timestamp": it must be an ISO 8601/,
    )
    messages[1]!.timestamp = new Date(Date.now() + DAY).toISOString()
    expect(await refused(api, 'bad-msg', { input_type: 'conversation', data: JSON.stringify(messages) })).toMatch(
      /message 1 has an invalid "timestamp": it must not be in the future/,
    )
    const numeric = [{ role: 'user', content: 'Hi, I live in Bergen.', timestamp: 1700000000 }]
    expect(await refused(api, 'bad-msg', { input_type: 'conversation', data: JSON.stringify(numeric) })).toMatch(
      /message 0 has an invalid "timestamp": it must be a string/,
    )
  })

  it('part of the idempotent request: same key, other occurred_at is a conflict; same one a replay', async () => {
    const key = { 'idempotency-key': 'event-time-key' }
    const id = await post(api, 'idem', { data: 'I like chess.', occurred_at: '2023-05-08' }, key)
    const replay = await api.post('idem', { data: 'I like chess.', occurred_at: '2023-05-08T00:00:00Z' }, key)
    expect(replay.status).toBe(202)
    expect(((await replay.json()) as { id: string }).id).toBe(id)
    expect((await api.post('idem', { data: 'I like chess.', occurred_at: '2023-05-09' }, key)).status).toBe(409)
    expect((await api.post('idem', { data: 'I like chess.' }, key)).status).toBe(409)
    await api.waitReady('idem')
  })

  it('dates "yesterday" from occurred_at', async () => {
    await post(api, 'graduate', {
      data: 'Yesterday I graduated from college.',
      occurred_at: '2023-05-08T15:00:00+02:00',
    })
    const p = await api.waitReady('graduate')
    expect(p.memories).toEqual([expect.objectContaining({ event: 'graduated from college', date: '2023-05-07' })])
  })

  it('back-filling an old conversation does not overwrite what was said last week; both submissions stay', async () => {
    const lastWeek = isoDaysAgo(7)
    const lastYear = isoDaysAgo(365)
    const porto = await post(api, 'backfill', { data: 'I live in Porto.', occurred_at: lastWeek })
    let p = await api.waitReady('backfill')
    expect(p.core_info.location.value).toBe('Porto')
    const lisbon = await post(api, 'backfill', {
      input_type: 'conversation',
      data: JSON.stringify([
        { role: 'assistant', content: 'Where do you live?', timestamp: lastYear },
        { role: 'user', content: 'I live in Lisbon. I love surfing.', timestamp: lastYear },
      ]),
    })
    await waitFor('the back-filled submission to be applied', () => submission(svc, lisbon), {
      until: (s) => s.status === 'DONE',
    })
    p = await api.waitReady('backfill')
    expect(p.core_info.location.value).toBe('Porto')
    // What the old conversation adds that does not contradict newer evidence is kept.
    expect(
      Object.values(p.interests)
        .flat()
        .map((v: any) => v.value),
    ).toContain('surfing')
    // The history: Porto set once, never replaced.
    const log = p.update_log as { changes: any }[]
    expect(log.filter((e) => e.changes.core_info?.location).map((e) => e.changes.core_info.location.value)).toEqual([
      'Porto',
    ])
    expect(log.some((e) => e.changes.replaced?.['core_info.location'])).toBe(false)
    const subs = await submissionsOf(svc, 'backfill')
    expect(subs.map((s) => [s.id, s.status, s.occurredAt])).toEqual([
      [porto, 'DONE', lastWeek],
      [lisbon, 'DONE', lastYear],
    ])
    // A re-extraction replays each submission with its own event time: it rebuilds the same location.
    const rx = await fetch(`${svc.url}/v1/profile/backfill/reextract?dry_run=false`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}` },
    })
    const rebuilt = (await rx.json()) as any
    expect(rx.status, JSON.stringify(rebuilt)).toBe(200)
    expect(rebuilt.submissions.reextracted).toBe(2)
    expect((await api.waitReady('backfill')).core_info.location.value).toBe('Porto')
    // Newer evidence still moves the person.
    await post(api, 'backfill', { data: 'I live in Braga.' })
    expect((await api.waitReady('backfill')).core_info.location.value).toBe('Braga')
  })

  it('the evidence said last stands, whatever order it arrived in and batches it fell in', async () => {
    const ids = [
      await post(api, 'batch', { data: 'I live in Porto.', occurred_at: isoDaysAgo(2) }),
      await post(api, 'batch', { data: 'I live in Lisbon.', occurred_at: isoDaysAgo(400) }),
    ]
    const p = await api.waitReady('batch')
    expect(p.core_info.location.value).toBe('Porto')
    expect((await submissionsOf(svc, 'batch')).map((s) => s.id)).toEqual(ids)
  })

  it('a context orders equal facts by when said, whatever the batches; export and import keep the order', async () => {
    const sessions = [
      { data: 'I love jazz.', occurred_at: isoDaysAgo(365) },
      { data: 'I love hiking.', occurred_at: isoDaysAgo(200) },
      { data: 'I love cooking.', occurred_at: isoDaysAgo(10) },
    ]
    // One profile gets the sessions at once (batched as the worker likes), the other one at a time, newest first.
    for (const s of sessions) await post(api, 'said-together', s)
    await api.waitReady('said-together')
    for (const s of [...sessions].reverse()) {
      await post(api, 'said-apart', s)
      await api.waitReady('said-apart')
    }
    const context = async (c: Client, id: string) => {
      const r = await c.get(`/v1/profile/${id}/context?max_tokens=500`)
      expect(r.status).toBe(200)
      return ((await r.json()) as { text: string }).text
    }
    const together = await context(api, 'said-together')
    const interests = together.split('\n').filter((l) => /^- .*(jazz|hiking|cooking)/.test(l))
    // Hobbies (cooking, hiking) were named 10 days ago, music (jazz) a year ago: jazz comes last. The merge times of
    // said-apart put it first (merged last), which is what a context ordered equal facts by before said times.
    expect(interests).toHaveLength(3)
    expect(interests[2]).toMatch(/jazz/)
    expect(await context(api, 'said-apart')).toBe(together)

    const exp = await fetch(`${svc.url}/v1/export?profile_id=said-apart`, {
      headers: { authorization: `Bearer ${svc.key}` },
    })
    const lines = (await exp.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const profile = lines.find((r) => r.type === 'profile')
    expect(Object.values(profile.internals.said_at).sort().at(-1)).toBe(sessions[2]!.occurred_at)
    const other = await svc.profiler.services.tenants.createApp('event-time-said', 'app')
    const res = await importRecords(svc, other.api_key, lines)
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await context(client(svc.url, other.api_key), 'said-apart')).toBe(together)
    // A said time out of bounds is refused with the line named, as every event time of an import.
    const bad = lines.map((r) =>
      r.type === 'profile' ? { ...r, internals: { ...r.internals, said_at: { interests: '1899-12-31' } } } : r,
    )
    const refusedImport = await importRecords(svc, other.api_key, bad)
    expect(refusedImport.status).toBe(400)
    expect(((await refusedImport.json()) as { message: string }).message).toMatch(
      /^Line \d+: profile record: internals\.said_at/,
    )
  })

  it('export carries occurred_at and import restores it, bounded as POST bounds it (400 naming the line)', async () => {
    const id = await post(api, 'exported', { data: 'Yesterday I graduated from college.', occurred_at: '2023-05-08' })
    const plain = await post(api, 'exported', { data: 'I like tea.' })
    await api.waitReady('exported')
    const exp = await fetch(`${svc.url}/v1/export?profile_id=exported&include_text=true`, {
      headers: { authorization: `Bearer ${svc.key}` },
    })
    expect(exp.status).toBe(200)
    const lines = (await exp.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const subs = lines.filter((r) => r.type === 'submission')
    expect(subs.find((s) => s.id === id).occurred_at).toBe('2023-05-08T00:00:00.000Z')
    const plainRecord = subs.find((s) => s.id === plain)
    expect(plainRecord.occurred_at).toBe(plainRecord.created_at)
    const profile = lines.find((r) => r.type === 'profile')
    expect(profile.internals.evidence_at).toBeUndefined() // no scalar: nothing to date

    const other = await svc.profiler.services.tenants.createApp('event-time-b', 'app')
    const importInto = (body: unknown[]) => importRecords(svc, other.api_key, body)
    // Out of bounds: refused with the line named, nothing imported.
    const at = lines.findIndex((r) => r.id === id)
    for (const bad of ['1899-12-31', new Date(Date.now() + DAY).toISOString(), 'soon']) {
      const copy = lines.map((r, i) => (i === at ? { ...r, occurred_at: bad } : r))
      const res = await importInto(copy)
      const body = (await res.json()) as { message: string }
      expect(res.status, bad).toBe(400)
      expect(body.message, bad).toMatch(new RegExp(`^Line ${at + 1}: submission record: occurred_at`))
    }
    const res = await importInto(lines)
    expect(res.status, await res.clone().text()).toBe(200)
    const r = await gql(svc.url, other.api_key, SUBMISSION, { id })
    expect(r.body.data.submission.occurredAt).toBe('2023-05-08T00:00:00.000Z')
    const p = await gql(svc.url, other.api_key, SUBMISSION, { id: plain })
    expect(p.body.data.submission.occurredAt).toBe(p.body.data.submission.createdAt)
    // Stored as given only where one was given.
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT id, occurred_at FROM submissions WHERE id = ANY($1::uuid[])`,
      [[id, plain]],
    )
    expect(rows).toHaveLength(4) // both tenants
    expect(rows.filter((x: any) => x.occurred_at !== null).map((x: any) => x.id)).toEqual([id, id])
  })
})

describe('event time (openai provider against the fake server)', () => {
  // The model's own clock is years off: only the date the request gives can date "yesterday" right.
  const ai = openaiService({ now: () => new Date('2020-06-15T12:00:00Z') })

  it('sends the date of occurred_at, and "yesterday" is dated from it', async () => {
    await post(ai.api, 'graduate', { data: 'Yesterday I graduated from college.', occurred_at: '2023-05-08' })
    const p = await ai.api.waitReady('graduate')
    const [req] = ai.oa.chatRequests().filter((r) => r.batch?.texts.some((t) => t.includes('graduated')))
    expect(JSON.parse(req!.body.messages[1].content).date).toBe('2023-05-08')
    expect(p.memories).toEqual([expect.objectContaining({ event: 'graduated from college', date: '2023-05-07' })])
  })

  it('back-filling an old conversation does not overwrite what the person said last week', async () => {
    await post(ai.api, 'backfill', { data: 'I live in Porto.', occurred_at: isoDaysAgo(7) })
    expect((await ai.api.waitReady('backfill')).core_info.location.value).toBe('Porto')
    const lisbon = await post(ai.api, 'backfill', { data: 'I live in Lisbon.', occurred_at: isoDaysAgo(365) })
    await waitFor('the back-filled submission to be applied', () => submission(ai.svc, lisbon), {
      until: (s) => s.status === 'DONE',
    })
    expect((await ai.api.waitReady('backfill')).core_info.location.value).toBe('Porto')
  })
})

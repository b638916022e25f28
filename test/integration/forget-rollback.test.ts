import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, gqlApi, type GqlApi } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import type { OpenAIServer } from '../support/openai-server.js'
import { openaiService } from '../support/openai-service.js'
import { waitFor } from '../support/wait.js'

// Forgetting one value (DELETE /v1/profile/{id}/values, forgetProfileValue) and rolling back to a history entry
// (POST /v1/profile/{id}/rollback, rollbackProfile), through the real service: REST, GraphQL and the worker.

const allInterests = (p: any): string[] =>
  Object.values(p.interests ?? {})
    .flat()
    .map((v: any) => String(v.value).toLowerCase())
const last = (p: any) => p.update_log[p.update_log.length - 1]

async function embeddingOf(svc: TestService, id: string): Promise<string> {
  const [row] = await svc.profiler.db.dataSource.query(
    `SELECT embedding::text AS e FROM profiles WHERE profile_id = $1`,
    [id],
  )
  return row.e
}

function api(svc: TestService) {
  const auth = { authorization: `Bearer ${svc.key}` }
  const path = (id: string, rest: string) => `${svc.url}/v1/profile/${encodeURIComponent(id)}/${rest}`
  return {
    forget: (id: string, body: unknown) =>
      fetch(path(id, 'values'), {
        method: 'DELETE',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    forgetByQuery: (id: string, q: Record<string, string>) =>
      fetch(`${path(id, 'values')}?${new URLSearchParams(q)}`, { method: 'DELETE', headers: auth }),
    rollback: (id: string, body: unknown, type = 'application/json') =>
      fetch(path(id, 'rollback'), {
        method: 'POST',
        headers: { ...auth, 'content-type': type },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  }
}

/** Posts text and waits until the profile is ready again (a POST turns it processing at once). */
async function submitAndWait(c: Client, id: string, data: string): Promise<any> {
  const r = await c.post(id, { data })
  expect(r.status, await r.clone().text()).toBe(202)
  return c.waitReady(id)
}

describe('forget a value and roll back (local provider)', () => {
  let svc: TestService
  let c: Client
  let a: ReturnType<typeof api>
  let g: GqlApi

  beforeAll(async () => {
    svc = await startService()
    c = client(svc.url, svc.key)
    a = api(svc)
    g = gqlApi(svc.url, svc.key)
  })
  afterAll(async () => svc?.close())

  it('forgets over REST: gone from profile, summary, embedding; logged; back only with newer evidence', async () => {
    const before = await submitAndWait(c, 'ana', 'I love jazz and hiking. My name is Ana.')
    expect(allInterests(before)).toContain('jazz')
    expect(before.summary.toLowerCase()).toContain('jazz')
    const e0 = await embeddingOf(svc, 'ana')

    const r = await a.forget('ana', { section: 'interests', value: 'Jazz' })
    expect(r.status, await r.clone().text()).toBe(200)
    const body = (await r.json()) as any
    expect(body.profile_id).toBe('ana')
    expect(allInterests(body.profile)).toEqual(['hiking'])
    expect(body.profile.summary.toLowerCase()).not.toContain('jazz')
    expect(last(body.profile)).toMatchObject({
      input_type: 'forget',
      submission_ids: [],
      changes: { removed: [{ section: 'interests', category: 'music', value: 'jazz' }] },
    })
    expect(last(body.profile).seq).toBe(before.update_log.length + 1)
    expect(await embeddingOf(svc, 'ana')).not.toBe(e0)
    expect(allInterests(await c.profile('ana'))).toEqual(['hiking'])
    // Gone from the words hybrid search matches too: a search for it finds nothing.
    const [words] = await svc.profiler.db.dataSource.query(
      `SELECT lexemes::text AS l FROM profiles WHERE profile_id = 'ana'`,
    )
    expect(words.l).toContain(`'hike'`)
    expect(words.l).not.toContain(`'jazz'`)
    expect((await c.search({ query: 'jazz' })).profiles.map((p: any) => p.profile_id)).not.toContain('ana')

    // Gone: asking again is a 404.
    const again = await a.forget('ana', { section: 'interests', value: 'jazz' })
    expect(again.status).toBe(404)
    expect(((await again.json()) as any).message).toMatch(/no value 'jazz' in interests/)

    // A submission that does not mention it leaves it gone.
    const later = await submitAndWait(c, 'ana', 'I enjoy gardening.')
    await waitFor('gardening merged', () => c.profile('ana'), { until: (p) => allInterests(p).includes('gardening') })
    expect(allInterests(await c.profile('ana'))).not.toContain('jazz')
    expect(later.status).toBe('ready')

    // New evidence (a submission accepted after the forget) brings it back.
    await c.post('ana', { data: 'I love jazz.' })
    const back = await waitFor('jazz back', () => c.profile('ana'), {
      until: (p) => p.status === 'ready' && allInterests(p).includes('jazz'),
    })
    expect(back.summary.toLowerCase()).toContain('jazz')
  })

  it('forgets scalars and memories, by body or query parameters, and answers 400/404 for what it cannot', async () => {
    await submitAndWait(c, 'bo', 'My name is Bo. I live in Lisbon. I love chess.')
    const byQuery = await a.forgetByQuery('bo', { section: 'core_info.location', value: 'lisbon' })
    expect(byQuery.status, await byQuery.clone().text()).toBe(200)
    const p = ((await byQuery.json()) as any).profile
    expect(p.core_info.location).toBeUndefined()
    expect(p.core_info.name.value).toBe('Bo')
    expect(last(p).changes.removed).toEqual([{ section: 'core_info.location', value: 'Lisbon' }])

    const cases: [unknown, number, RegExp][] = [
      [
        { section: 'interests', value: 'chess', category: 'music' },
        404,
        /no value 'chess' in interests \(category music\)/,
      ],
      [{ section: 'core_info.name', value: 'Someone Else' }, 404, /no value/],
      [{ section: 'core_info.shoe_size', value: '42' }, 400, /Invalid field section: must be one of core_info.name/],
      [{ value: 'chess' }, 400, /Missing field: section/],
      [{ section: 'interests' }, 400, /Missing field: value/],
      [{ section: 'interests', value: '   ' }, 400, /value must not be empty/],
      [{ section: 'interests', value: { $ne: 1 } }, 400, /value must be a string/],
      [{ section: 'interests', value: 'x'.repeat(5000) }, 400, /longer than 1000/],
      [
        { section: 'personality.traits', value: 'kind', category: 'music' },
        400,
        /category is only for section interests/,
      ],
      [[1, 2], 400, /JSON object/],
    ]
    for (const [body, status, message] of cases) {
      const r = await a.forget('bo', body)
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status)
      const e = (await r.json()) as any
      expect(e.error).toBe(status)
      expect(e.message).toMatch(message)
    }
    expect((await a.forget('nobody-here', { section: 'interests', value: 'chess' })).status).toBe(404)
    expect((await a.forget('bad id!', { section: 'interests', value: 'chess' })).status).toBe(400)
    // Another tenant's key does not reach the profile.
    const otherKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    const foreign = await fetch(`${svc.url}/v1/profile/bo/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ section: 'interests', value: 'chess' }),
    })
    expect(foreign.status).toBe(404)
    const foreignRollback = await fetch(`${svc.url}/v1/profile/bo/rollback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to_seq: 1 }),
    })
    expect(foreignRollback.status).toBe(404)
    expect(allInterests(await c.profile('bo'))).toEqual(['chess'])
  })

  it('rolls back as a new entry; forgotten stays forgotten; refuses unknown or snapshotless entries', async () => {
    await submitAndWait(c, 'cy', 'My name is Cy.')
    await submitAndWait(c, 'cy', 'I love jazz and hiking.')
    const three = await submitAndWait(c, 'cy', 'I live in Porto.')
    await waitFor('Porto merged', () => c.profile('cy'), {
      until: (p) => p.core_info.location?.value === 'Porto' && p.status === 'ready',
    })
    expect(three.update_log.map((e: any) => e.seq)).toEqual([1, 2, 3])

    const r = await a.rollback('cy', { to_seq: 1 })
    expect(r.status, await r.clone().text()).toBe(200)
    const p = ((await r.json()) as any).profile
    expect(p.core_info.name.value).toBe('Cy')
    expect(p.core_info.location).toBeUndefined()
    expect(allInterests(p)).toEqual([])
    expect(p.summary.toLowerCase()).not.toContain('jazz')
    expect(last(p)).toMatchObject({ seq: 4, input_type: 'rollback', changes: { rolled_back_to: 1 } })
    expect(last(p).changes.removed).toEqual(
      expect.arrayContaining([
        { section: 'interests', category: 'music', value: 'jazz' },
        { section: 'core_info.location', value: 'Porto' },
      ]),
    )

    // Back to 2 (jazz, hiking) after forgetting hiking: hiking stays forgotten.
    expect((await a.forget('cy', { section: 'interests', value: 'hiking' })).status).toBe(404) // not there now
    await a.rollback('cy', { to_seq: 2 })
    expect(allInterests(await c.profile('cy')).sort()).toEqual(['hiking', 'jazz'])
    expect((await a.forget('cy', { section: 'interests', value: 'hiking' })).status).toBe(200)
    const again = await a.rollback('cy', { to_seq: 2 })
    expect(allInterests(((await again.json()) as any).profile)).toEqual(['jazz'])

    expect((await a.rollback('cy', { to_seq: 99 })).status).toBe(404)
    for (const bad of [{}, { to_seq: 0 }, { to_seq: 1.5 }, { to_seq: '1' }, { to_seq: 1e12 }]) {
      const res = await a.rollback('cy', bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(((await res.json()) as any).message).toMatch(/to_seq/)
    }
    expect((await a.rollback('cy', 'to_seq=1', 'text/plain')).status).toBe(415)
    expect((await a.rollback('nobody-here', { to_seq: 1 })).status).toBe(404)

    // An entry written before snapshots were kept (the migration leaves those NULL).
    await svc.profiler.db.dataSource.query(
      `UPDATE profile_history SET snapshot = NULL WHERE profile_id = 'cy' AND seq = 1`,
    )
    const old = await a.rollback('cy', { to_seq: 1 })
    expect(old.status).toBe(409)
    expect(((await old.json()) as any).message).toMatch(/written before snapshots were kept/)
  })

  it('GraphQL: forgetProfileValue and rollbackProfile, with status events for subscribers', async () => {
    await submitAndWait(c, 'dee', 'My name is Dee. I love jazz and hiking.')
    const sock = connect(svc.url, svc.key)
    try {
      await sock.connected
      const events = sock.status('dee')
      // The subscription is live once a later event arrives; a forget raises one.
      const d = await g.data(
        `mutation ($id: ID!) { forgetProfileValue(id: $id, section: "interests", value: "jazz") {
          profileId summary interests { category values { value } }
          history(first: 100) { entries { seq inputType changes } }
        } }`,
        { id: 'dee' },
      )
      const p = d.forgetProfileValue
      expect(p.interests.flatMap((i: any) => i.values.map((v: any) => v.value))).toEqual(['hiking'])
      const entries = p.history.entries
      expect(entries[entries.length - 1]).toMatchObject({
        inputType: 'forget',
        changes: { removed: [{ section: 'interests', value: 'jazz' }] },
      })
      await events.until((es) => es.some((e) => e.status === 'READY'), 15_000, 'a READY event after the forget')

      const rb = await g.data(
        `mutation ($id: ID!) { rollbackProfile(id: $id, toSeq: 1) {
          interests { values { value } } history(first: 100) { entries { seq inputType } }
        } }`,
        { id: 'dee' },
      )
      expect(rb.rollbackProfile.interests.flatMap((i: any) => i.values.map((v: any) => v.value)).sort()).toEqual([
        'hiking',
      ])
      expect(rb.rollbackProfile.history.entries.at(-1)).toMatchObject({ inputType: 'rollback', seq: 3 })

      const bad = await g.raw(`mutation { forgetProfileValue(id: "dee", section: "nope", value: "x") { profileId } }`)
      expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED')
      expect(bad.body.errors[0].message).toMatch(/Invalid field section/)
      const missing = await g.raw(`mutation { rollbackProfile(id: "dee", toSeq: 42) { profileId } }`)
      expect(missing.body.errors[0].extensions.code).toBe('HISTORY_ENTRY_NOT_FOUND')
    } finally {
      await sock.close()
    }
  })

  it('a re-extraction replays submissions as evidence of their time: a forgotten value stays forgotten', async () => {
    await submitAndWait(c, 'rex', 'I love sailing and chess.')
    const f = await a.forget('rex', { section: 'interests', value: 'chess' })
    expect(f.status, await f.clone().text()).toBe(200)
    const reextract = (q: string) =>
      fetch(`${svc.url}/v1/profile/rex/reextract${q}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}` },
      })
    const dry = (await (await reextract('?dry_run=true')).json()) as any
    expect(JSON.stringify(dry.changes ?? {})).not.toContain('chess')
    const applied = await reextract(`?dry_run=false&expected_version=${dry.version}`)
    expect(applied.status, await applied.clone().text()).toBe(200)
    const p = await c.profile('rex')
    expect(allInterests(p)).toContain('sailing')
    expect(allInterests(p)).not.toContain('chess')
    // The tombstone is still there: an old submission replayed again cannot bring it back, a new one can.
    await c.post('rex', { data: 'I love chess.' })
    await waitFor('chess back from new evidence', () => c.profile('rex'), {
      until: (q) => q.status === 'ready' && allInterests(q).includes('chess'),
    })
  })

  it('a deleted profile leaves no history snapshot behind', async () => {
    await submitAndWait(c, 'gone', 'My name is Gwen. I love opera.')
    expect((await a.forget('gone', { section: 'interests', value: 'opera' })).status).toBe(200)
    const ds = svc.profiler.db.dataSource
    expect(
      Number(
        (
          await ds.query(`SELECT count(*) AS n FROM profile_history WHERE profile_id = 'gone' AND snapshot IS NOT NULL`)
        )[0].n,
      ),
    ).toBe(2)
    expect((await c.del('gone')).status).toBe(204)
    expect(Number((await ds.query(`SELECT count(*) AS n FROM profile_history WHERE profile_id = 'gone'`))[0].n)).toBe(0)
  })
})

describe('forget with the openai provider, racing the worker', () => {
  const ai = openaiService()
  let oa: OpenAIServer
  let svc: TestService
  let c: Client
  let a: ReturnType<typeof api>

  beforeAll(() => {
    ;({ oa, svc, api: c } = ai)
    a = api(svc)
  })

  it('regenerates the summary with the model; evidence from before the forget cannot restore the value', async () => {
    await submitAndWait(c, 'eve', 'My name is Eve. I love jazz and hiking.')

    // A submission restating hiking, accepted before the forget; its extraction is held until the forget has committed.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    oa.faults.add({ match: 'Honestly', holdUntil: held })
    const r = await c.post('eve', { data: 'Honestly, I love hiking.' })
    expect(r.status).toBe(202)
    await waitFor(
      'the held extraction to arrive',
      () => oa.chatRequests().filter((q) => JSON.stringify(q.body).includes('Honestly')).length,
      { until: (n) => n === 1 },
    )

    const chatsBefore = oa.chatRequests().length
    const f = await a.forget('eve', { section: 'interests', value: 'hiking' })
    expect(f.status, await f.clone().text()).toBe(200)
    const forgotten = ((await f.json()) as any).profile
    expect(allInterests(forgotten)).toEqual(['jazz'])
    expect(forgotten.summary.toLowerCase()).not.toContain('hiking')
    // The summary came from the model: one chat request (the summary) beside the held one.
    expect(oa.chatRequests().length).toBe(chatsBefore + 1)
    release()

    // The worker finds the profile changed under its lease, merges the batch again into the new state, where hiking is
    // forgotten and the submission is older than the forget.
    const done = await c.waitReady('eve')
    await waitFor(
      'the held submission to be re-extracted',
      () => oa.chatRequests().filter((q) => JSON.stringify(q.body).includes('Honestly')).length,
      { until: (n) => n >= 2 },
    )
    const after = await waitFor('eve ready after the held batch', () => c.profile('eve'), {
      until: (p) => p.status === 'ready',
    })
    expect(allInterests(after)).toEqual(['jazz'])
    expect(after.update_log.some((e: any) => e.input_type === 'forget')).toBe(true)
    expect(done.status).toBe('ready')

    // New evidence brings it back.
    await c.post('eve', { data: 'I love hiking.' })
    await waitFor('hiking back', () => c.profile('eve'), {
      until: (p) => p.status === 'ready' && allInterests(p).includes('hiking'),
    })
  })
})

// Facts over time (docs/guides/the-profile.md "Facts over time"), through the running service on the configured
// database: a scalar that is replaced keeps its earlier value with its window in event time, visible in the REST
// profile, GraphQL, the history and the context's text; back-filled older conversations build the same timeline without
// replacing the current value; forget, rollback, re-extraction and export/import carry it; an import past the limit is
// refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { openaiService } from '../support/openai-service.js'

const LISBON_AT = '2019-06-01T00:00:00.000Z'
const PORTO_AT = '2025-03-10T00:00:00.000Z'
/** Lisbon as a past value of core_info.location: said once (0.9, "I live in"), until Porto was said. */
const LISBON = { value: 'Lisbon', confidence: 0.9, from: LISBON_AT, until: PORTO_AT, last_said: LISBON_AT }
const LINE = 'Lives in Porto (before: Lisbon, 1 June 2019 to 10 March 2025)'

const PROFILE = `query($id: ID!) {
  profile(id: $id) {
    coreInfo { location { value confidence } }
    pastValues { field values { value confidence from until lastSaid } }
    history(first: 50) { entries { seq inputType changes } }
    context(maxTokens: 200) { text }
  }
}`

describe('facts over time', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  async function post(id: string, data: string, occurred_at: string) {
    const res = await api.post(id, { data, occurred_at })
    expect(res.status, await res.clone().text()).toBe(202)
    return api.waitReady(id)
  }
  async function graphql(id: string, key = svc.key) {
    const r = await gql(svc.url, key, PROFILE, { id })
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
    return r.body.data.profile
  }
  async function contextText(id: string, key = svc.key) {
    const r = await fetch(`${svc.url}/v1/profile/${id}/context?max_tokens=200`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(r.status).toBe(200)
    return ((await r.json()) as { text: string }).text
  }
  const forget = (id: string, value: string) =>
    fetch(`${svc.url}/v1/profile/${id}/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ section: 'core_info.location', value }),
    })

  it('a move keeps the old place with its window: REST, GraphQL, the history and the context say it', async () => {
    await post('ana', 'I live in Lisbon.', '2019-06-01')
    const p = await post('ana', 'I moved to Porto.', '2025-03-10')
    expect(p.core_info.location).toEqual({ value: 'Porto', confidence: 0.85 })
    expect(p.past_values).toEqual({ 'core_info.location': [LISBON] })
    // The history: the entry that moved her names the old place and its window.
    const moved = p.update_log.at(-1)
    expect(moved.changes.core_info.location).toEqual({ value: 'Porto', confidence: 0.85 })
    expect(moved.changes.replaced).toEqual({
      'core_info.location': { value: 'Lisbon', confidence: 0.9, from: LISBON_AT, until: PORTO_AT },
    })

    const g = await graphql('ana')
    expect(g.coreInfo.location.value).toBe('Porto')
    expect(g.pastValues).toEqual([
      {
        field: 'core_info.location',
        values: [{ value: 'Lisbon', confidence: 0.9, from: LISBON_AT, until: PORTO_AT, lastSaid: LISBON_AT }],
      },
    ])
    expect(g.history.entries.at(-1).changes.replaced['core_info.location']).toMatchObject({
      from: LISBON_AT,
      until: PORTO_AT,
    })
    expect(g.context.text).toContain(`- ${LINE}`)
    expect(await contextText('ana')).toContain(`- ${LINE}`)
    // A profile without a past says nothing of one.
    await post('plain', 'I live in Lisbon.', '2019-06-01')
    const plain = await api.profile('plain')
    expect(plain.past_values).toBeUndefined()
    expect((await graphql('plain')).pastValues).toEqual([])
    expect(await contextText('plain')).toContain('- Lives in Lisbon\n')
  })

  it('back-filling (the 2025 conversation, then the 2019 one) builds the same timeline; Porto stays', async () => {
    await post('bea', 'I moved to Porto.', '2025-03-10')
    const p = await post('bea', 'I live in Lisbon.', '2019-06-01')
    expect(p.core_info.location).toEqual({ value: 'Porto', confidence: 0.85 })
    expect(p.past_values).toEqual({ 'core_info.location': [LISBON] })
    // The back-filled entry recorded a past value; it replaced nothing.
    const last = p.update_log.at(-1)
    expect(last.changes.replaced).toBeUndefined()
    expect(last.changes.past_values).toEqual({ 'core_info.location': [LISBON] })
    expect(await contextText('bea')).toContain(`- ${LINE}`)
    // A re-extraction replays both in event time: the same timeline.
    const rx = await fetch(`${svc.url}/v1/profile/bea/reextract?dry_run=false`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}` },
    })
    expect(rx.status, await rx.clone().text()).toBe(200)
    const rebuilt = await api.waitReady('bea')
    expect(rebuilt.core_info.location.value).toBe('Porto')
    expect(rebuilt.past_values).toEqual({ 'core_info.location': [LISBON] })
  })

  it('forgetting Lisbon removes it from the past, the context and GraphQL; a rollback keeps it forgotten', async () => {
    await post('cid', 'I live in Lisbon.', '2019-06-01')
    await post('cid', 'I moved to Porto.', '2025-03-10')
    const res = await forget('cid', 'lisbon')
    expect(res.status, await res.clone().text()).toBe(200)
    const p = (await res.json()) as { profile: any }
    expect(p.profile.core_info.location.value).toBe('Porto')
    expect(p.profile.past_values).toBeUndefined()
    expect(p.profile.update_log.at(-1)).toMatchObject({
      input_type: 'forget',
      changes: { removed: [{ section: 'core_info.location', value: 'Lisbon' }] },
    })
    expect((await graphql('cid')).pastValues).toEqual([])
    const text = await contextText('cid')
    expect(text).toContain('- Lives in Porto\n')
    expect(text).not.toMatch(/Lisbon/)
    // Back to the entry that moved her (seq 2): Lisbon stays forgotten, in the past as well.
    const rb = await fetch(`${svc.url}/v1/profile/cid/rollback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to_seq: 2 }),
    })
    expect(rb.status, await rb.clone().text()).toBe(200)
    const after = ((await rb.json()) as { profile: any }).profile
    expect(after.core_info.location.value).toBe('Porto')
    expect(after.past_values).toBeUndefined()
    expect(await contextText('cid')).not.toMatch(/Lisbon/)
  })

  it('a rollback to before the move returns to Lisbon with no past', async () => {
    await post('dan', 'I live in Lisbon.', '2019-06-01')
    await post('dan', 'I moved to Porto.', '2025-03-10')
    const rb = await fetch(`${svc.url}/v1/profile/dan/rollback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to_seq: 1 }),
    })
    expect(rb.status, await rb.clone().text()).toBe(200)
    const p = ((await rb.json()) as { profile: any }).profile
    expect(p.core_info.location.value).toBe('Lisbon')
    expect(p.past_values).toBeUndefined()
  })

  it('export and import keep the timeline, and the imported profile goes on from it', async () => {
    await post('eve', 'I live in Lisbon.', '2019-06-01')
    await post('eve', 'I moved to Porto.', '2025-03-10')
    const exp = await fetch(`${svc.url}/v1/export?profile_id=eve&include_text=true`, {
      headers: { authorization: `Bearer ${svc.key}` },
    })
    expect(exp.status).toBe(200)
    const lines = (await exp.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const record = lines.find((r) => r.type === 'profile')
    expect(record.past_values).toEqual({ 'core_info.location': [LISBON] })
    expect(record.internals.since).toEqual({ 'core_info.location': PORTO_AT })

    const other = await svc.profiler.services.tenants.createApp('past-values-b', 'app')
    const imp = await fetch(`${svc.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.api_key}`, 'content-type': 'application/x-ndjson' },
      body: lines.map((r) => JSON.stringify(r)).join('\n') + '\n',
    })
    expect(imp.status, await imp.clone().text()).toBe(200)
    const b = client(svc.url, other.api_key)
    const imported = await b.profile('eve')
    expect(imported.past_values).toEqual({ 'core_info.location': [LISBON] })
    expect((await graphql('eve', other.api_key)).pastValues[0].values[0]).toMatchObject({
      value: 'Lisbon',
      from: LISBON_AT,
      until: PORTO_AT,
    })
    expect(await contextText('eve', other.api_key)).toContain(`- ${LINE}`)
    // The next move on the imported profile dates Porto from when it was said (internals.since came along).
    const res = await b.post('eve', { data: 'I moved to Braga.', occurred_at: '2025-09-01' })
    expect(res.status).toBe(202)
    const moved = await b.waitReady('eve')
    expect(moved.core_info.location.value).toBe('Braga')
    expect(moved.past_values['core_info.location']).toEqual([
      { value: 'Porto', confidence: 0.85, from: PORTO_AT, until: '2025-09-01T00:00:00.000Z', last_said: PORTO_AT },
      LISBON,
    ])
  })

  it('an import with 10,000 past values or a window out of order: 400 naming the line, nothing imported', async () => {
    await post('fay', 'I live in Lisbon.', '2019-06-01')
    await post('fay', 'I moved to Porto.', '2025-03-10')
    const exp = await fetch(`${svc.url}/v1/export?profile_id=fay`, { headers: { authorization: `Bearer ${svc.key}` } })
    const lines = (await exp.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    const at = lines.findIndex((r) => r.type === 'profile')
    const other = await svc.profiler.services.tenants.createApp('past-values-c', 'app')
    const importWith = async (change: (p: any) => void) => {
      const copy = structuredClone(lines)
      change(copy[at])
      const r = await fetch(`${svc.url}/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other.api_key}`, 'content-type': 'application/x-ndjson' },
        body: copy.map((x) => JSON.stringify(x)).join('\n') + '\n',
      })
      return { status: r.status, message: ((await r.json()) as { message: string }).message }
    }
    const hostile = await importWith((p) => {
      p.past_values['core_info.location'] = Array.from({ length: 10_000 }, (_, i) => ({
        ...LISBON,
        value: `City ${i}`,
      }))
    })
    expect(hostile.status).toBe(400)
    expect(hostile.message).toMatch(
      new RegExp(
        `^Line ${at + 1}: profile record: past_values\\.core_info\\.location: ` +
          'at most 20 past values per scalar \\(PROFILER_PROFILE_MAX_PAST_VALUES\\)',
      ),
    )
    const cases: [string, (p: any) => void, RegExp][] = [
      [
        'a window ending before it begins',
        (p) => (p.past_values['core_info.location'][0].until = '2018-01-01T00:00:00.000Z'),
        /past_values\.core_info\.location\.0: must have from <= last_said <= until/,
      ],
      [
        'a path that is no scalar',
        (p) => (p.past_values['interests.music'] = [LISBON]),
        /past_values: Unrecognized key: "interests\.music"/,
      ],
      [
        'a time that is not one',
        (p) => (p.past_values['core_info.location'][0].from = 'long ago'),
        /past_values\.core_info\.location\.0\.from: must be an ISO 8601/,
      ],
      [
        'a value over the character limit',
        (p) => (p.past_values['core_info.location'][0].value = 'x'.repeat(1001)),
        /past_values\.core_info\.location\.0\.value/,
      ],
    ]
    for (const [what, change, message] of cases) {
      const r = await importWith(change)
      expect({ what, status: r.status }).toEqual({ what, status: 400 })
      expect(r.message, what).toMatch(new RegExp(`^Line ${at + 1}: profile record: ${message.source}`))
    }
    expect((await client(svc.url, other.api_key).get('/v1/profile/fay')).status).toBe(404)
  })
})

describe('facts over time (openai provider against the fake server)', () => {
  const ai = openaiService()

  it('a move, and a back-filled one, keep the old place with its window', async () => {
    for (const [id, first, second] of [
      ['moved', ['I live in Lisbon.', '2019-06-01'], ['I moved to Porto.', '2025-03-10']],
      ['backfilled', ['I moved to Porto.', '2025-03-10'], ['I live in Lisbon.', '2019-06-01']],
    ] as const) {
      for (const [data, occurred_at] of [first, second]) {
        expect((await ai.api.post(id, { data, occurred_at })).status).toBe(202)
        await ai.api.waitReady(id)
      }
      const p = await ai.api.profile(id)
      expect(p.core_info.location.value, id).toBe('Porto')
      expect(p.past_values, id).toEqual({ 'core_info.location': [LISBON] })
      const ctx = await fetch(`${ai.svc.url}/v1/profile/${id}/context`, {
        headers: { authorization: `Bearer ${ai.svc.key}` },
      })
      expect(((await ctx.json()) as { text: string }).text, id).toContain(`- ${LINE}`)
    }
  })
})

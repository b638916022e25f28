// Evidence passages follow the profile's life (docs/guides/evidence.md "Their life"), through the running service on
// the configured database: read a page at a time over REST and GraphQL (newest said first, hidden ones only when
// asked), deleted with the profile, and never readable by another tenant through REST, GraphQL, the context or search.
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { openCli } from '../../src/app.js'
import { client, startService, testConfig, type Client, type TestService } from '../support/harness.js'
import {
  endRecord,
  headerRecord,
  importFile,
  jsonLines,
  passageRecord,
  profileRecord,
  submissionRecord,
} from '../support/import-file.js'
import { post, chat } from '../support/submit.js'

const TURNS: [string, string][] = [
  ['Where do you live?', 'I live in Porto with my cat Miso.'],
  ['What do you do?', 'I teach chemistry at a secondary school.'],
  ['Any plans?', 'We are planning a trip to Kyoto in spring.'],
  ['Hobbies?', 'I play the cello in an amateur orchestra.'],
  ['Favourite food?', 'Grilled sardines, always.'],
]
const TIMES = [
  '2023-05-08T10:00:00Z',
  '2023-05-08T10:01:00Z',
  '2023-05-08T10:02:00Z',
  '2023-05-08T10:03:00Z',
  '2023-05-08T10:04:00Z',
]

describe('evidence passages: read API, delete, tenant isolation', () => {
  let svc: TestService
  let api: Client
  let other: Client
  let otherKey: string
  let conv: string
  let text: string

  const list = async (c: Client, id: string, params: Record<string, string | number> = {}) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()
    const r = await c.get(`/v1/profile/${encodeURIComponent(id)}/passages${qs ? `?${qs}` : ''}`)
    return { status: r.status, body: (await r.json()) as any }
  }
  /** Every page of the REST list, following next_cursor. */
  const all = async (c: Client, id: string, params: Record<string, string | number> = {}) => {
    const out: any[] = []
    let cursor: string | null = null
    for (let pages = 0; pages < 100; pages++) {
      const r = await list(c, id, { ...params, ...(cursor ? { cursor } : {}) })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      out.push(...r.body.passages)
      expect(r.body.has_more).toBe(r.body.next_cursor !== null)
      cursor = r.body.next_cursor
      if (!cursor) return out
    }
    throw new Error('more than 100 pages')
  }

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
    otherKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    other = client(svc.url, otherKey)
    conv = await post(api, 'ana', { input_type: 'conversation', data: chat(TURNS, TIMES) })
    text = await post(api, 'ana', {
      data: 'Yesterday I finally visited the Serralves museum. The gardens were quiet.',
      occurred_at: '2023-06-01',
    })
    await api.waitReady('ana')
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('lists the passages newest said first, with what was said, by whom, answering what, and when', async () => {
    const r = await list(api, 'ana')
    expect(r.status).toBe(200)
    expect(Object.keys(r.body)).toEqual(['profile_id', 'passages', 'next_cursor', 'has_more'])
    expect(r.body).toMatchObject({ profile_id: 'ana', next_cursor: null, has_more: false })
    expect(r.body.passages).toEqual([
      {
        submission_id: text,
        position: 0,
        speaker: null,
        prompt: null,
        text: 'Yesterday I finally visited the Serralves museum. The gardens were quiet.',
        occurred_at: '2023-06-01T00:00:00.000Z',
      },
      ...TURNS.map(([q, a], i) => ({
        submission_id: conv,
        position: i,
        speaker: 'user',
        prompt: q,
        text: a,
        occurred_at: new Date(TIMES[i]!).toISOString(),
      })).reverse(),
    ])
  })

  it('pages by limit and next_cursor (each passage once, in order), by submission; refuses bad params', async () => {
    const whole = (await list(api, 'ana')).body.passages
    for (const limit of [1, 2, 4]) expect(await all(api, 'ana', { limit })).toEqual(whole)
    const first = await list(api, 'ana', { limit: 2 })
    expect(first.body).toMatchObject({ has_more: true })
    expect(first.body.passages).toHaveLength(2)

    expect(await all(api, 'ana', { submission_id: conv, limit: 2 })).toEqual(
      whole.filter((p: any) => p.submission_id === conv),
    )
    expect((await list(api, 'ana', { submission_id: '00000000-0000-4000-8000-000000000000' })).body.passages).toEqual(
      [],
    )

    const bad = async (params: Record<string, string | number>, message: RegExp) => {
      const r = await list(api, 'ana', params)
      expect(r.status, JSON.stringify(params)).toBe(400)
      expect(r.body).toMatchObject({ error: 400 })
      expect(r.body.message).toMatch(message)
    }
    await bad({ limit: 0 }, /limit: must be an integer from 1 to 100/)
    await bad({ limit: 101 }, /limit: must be an integer from 1 to 100/)
    await bad({ limit: 'ten' }, /limit/)
    await bad({ submission_id: 'not-a-uuid' }, /submission_id/)
    await bad({ include_hidden: 'yes' }, /include_hidden/)
    await bad({ cursor: 'garbage' }, /cursor: not a cursor of this list/)
    // A cursor of the right shape naming a day that does not exist is refused before it reaches SQL.
    const madeUp = Buffer.from(JSON.stringify(['2023-02-30 10:00:00.000000+00', conv, 0])).toString('base64url')
    await bad({ cursor: madeUp }, /cursor/)
    const r404 = await list(api, 'nobody')
    expect(r404).toMatchObject({ status: 404, body: { error: 404, message: 'Profile nobody not found' } })
    expect((await list(api, 'bad id!')).status).toBe(400)
  })

  it('leaves hidden passages out unless include_hidden, and then says when and why they were hidden', async () => {
    // Hidden as a forget hides a value's evidence (the hiding itself is the provenance work's): straight in the table.
    await svc.profiler.db.dataSource.query(
      `UPDATE passages SET hidden_at = '2024-01-02T03:04:05Z', hidden_by = 'forget core_info.location'
        WHERE submission_id = $1 AND position = 0`,
      [conv],
    )
    try {
      const visible = await all(api, 'ana')
      expect(visible).toHaveLength(TURNS.length)
      expect(visible.some((p: any) => p.submission_id === conv && p.position === 0)).toBe(false)
      expect(visible.every((p: any) => !('hidden_at' in p) && !('hidden_by' in p))).toBe(true)
      const every = await all(api, 'ana', { include_hidden: 'true', limit: 3 })
      expect(every).toHaveLength(TURNS.length + 1)
      expect(every.find((p: any) => p.submission_id === conv && p.position === 0)).toMatchObject({
        text: TURNS[0]![1],
        hidden_at: '2024-01-02T03:04:05.000Z',
        hidden_by: 'forget core_info.location',
      })
      expect(every.filter((p: any) => p.hidden_at === null && p.hidden_by === null)).toHaveLength(TURNS.length)

      const q = `query($after: String, $hidden: Boolean!) { profile(id: "ana") {
        passages(first: 4, after: $after, includeHidden: $hidden) {
          nodes { submissionId position speaker prompt text occurredAt hiddenAt hiddenBy }
          pageInfo { endCursor hasNextPage }
        } } }`
      const nodes: any[] = []
      let after: string | null = null
      for (let i = 0; i < 5; i++) {
        const r = await gql(svc.url, svc.key, q, { after, hidden: true })
        expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
        const page = r.body.data.profile.passages
        nodes.push(...page.nodes)
        after = page.pageInfo.endCursor
        expect(page.pageInfo.hasNextPage).toBe(after !== null)
        if (!page.pageInfo.hasNextPage) break
      }
      expect(nodes.map((n) => [n.submissionId, n.position, n.text, n.occurredAt, n.hiddenAt, n.hiddenBy])).toEqual(
        every.map((p: any) => [p.submission_id, p.position, p.text, p.occurred_at, p.hidden_at, p.hidden_by]),
      )
      const plain = await gql(
        svc.url,
        svc.key,
        `{ profile(id: "ana") { passages(first: 100, submissionId: "${conv}") { nodes { position } } } }`,
      )
      expect(plain.body.data.profile.passages.nodes.map((n: any) => n.position)).toEqual([4, 3, 2, 1])
    } finally {
      await svc.profiler.db.dataSource.query(
        `UPDATE passages SET hidden_at = NULL, hidden_by = NULL WHERE submission_id = $1`,
        [conv],
      )
    }
  })

  it('answers GraphQL argument errors as VALIDATION_FAILED', async () => {
    const r = await gql(svc.url, svc.key, `{ profile(id: "ana") { passages(first: 0) { nodes { text } } } }`)
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED' })
    const c = await gql(svc.url, svc.key, `{ profile(id: "ana") { passages(after: "nope") { nodes { text } } } }`)
    expect(c.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/cursor/),
      extensions: { code: 'VALIDATION_FAILED' },
    })
  })

  it("never shows one tenant's passages to another: REST, GraphQL, the context and search", async () => {
    // Tenant B has no profile 'ana' yet: A's is not there for it.
    expect((await list(other, 'ana')).status).toBe(404)
    expect(
      (await gql(svc.url, otherKey, `{ profile(id: "ana") { passages { nodes { text } } } }`)).body.data.profile,
    ).toBeNull()
    // B's own 'ana': B sees its passages, never A's, whatever it passes (A's submission id, A's cursor).
    const own = await post(other, 'ana', { data: 'I grow tomatoes on my balcony in Bergen.' })
    await other.waitReady('ana')
    expect((await all(other, 'ana')).map((p: any) => p.submission_id)).toEqual([own])
    expect((await list(other, 'ana', { submission_id: conv })).body.passages).toEqual([])
    const aCursor = (await list(api, 'ana', { limit: 1 })).body.next_cursor
    const withA = await list(other, 'ana', { cursor: aCursor, include_hidden: 'true' })
    expect(withA.status).toBe(200)
    expect(JSON.stringify(withA.body)).not.toMatch(/Porto|chemistry|Kyoto|cello|sardines|Serralves/)
    const g = await gql(
      svc.url,
      otherKey,
      `{ profile(id: "ana") { passages(first: 100, includeHidden: true) { nodes { text submissionId } } } }`,
    )
    expect(g.body.data.profile.passages.nodes).toEqual([
      { text: 'I grow tomatoes on my balcony in Bergen.', submissionId: own },
    ])
    // The context quotes B's passages only, even for a query about A's words.
    for (const include of ['all', 'passages']) {
      const query = encodeURIComponent('cello orchestra Kyoto museum Porto')
      const r = await other.get(`/v1/profile/ana/context?query=${query}&include=${include}&max_tokens=2000`)
      const body = (await r.json()) as any
      expect(r.status).toBe(200)
      expect(body.text).not.toMatch(/Porto|chemistry|Kyoto|cello|sardines|Serralves/)
    }
    // A still reads its own (the control: the words are there to be found).
    const a = (await (
      await api.get(
        `/v1/profile/ana/context?query=${encodeURIComponent('cello orchestra')}&include=passages&max_tokens=2000`,
      )
    ).json()) as any
    expect(a.text).toContain('I play the cello in an amateur orchestra.')
    // Search: B finds nothing by A's words.
    for (const query of ['cello orchestra', 'Serralves museum', 'chemistry teacher']) {
      const s = await other.search({ query, sensitivity: 0 })
      expect(JSON.stringify(s)).not.toMatch(/Porto|chemistry|Kyoto|cello|sardines|Serralves/)
    }
  })

  it('deletes the passages with the profile (REST DELETE), and the list is then 404', async () => {
    const count = async (profileId: string) =>
      Number(
        (
          await svc.profiler.db.dataSource.query(`SELECT count(*)::int AS n FROM passages WHERE profile_id = $1`, [
            profileId,
          ])
        )[0].n,
      )
    expect(await count('ana')).toBe(TURNS.length + 1 + 1) // A's six, B's one
    expect((await api.del('ana')).status).toBe(204)
    const rows = await svc.profiler.db.dataSource.query(`SELECT tenant_id FROM passages WHERE profile_id = 'ana'`)
    expect(rows).toHaveLength(1) // B's stays
    expect((await list(api, 'ana')).status).toBe(404)
    expect((await list(other, 'ana')).body.passages).toHaveLength(1)
    // GraphQL's deleteProfile takes them too.
    const r = await gql(svc.url, otherKey, `mutation { deleteProfile(id: "ana") }`)
    expect(r.body.data.deleteProfile).toBe(true)
    expect(await count('ana')).toBe(0)
  })
})

describe('evidence passages: export, import and reindex', () => {
  let svc: TestService
  let a: Client
  let aKey: string
  let cKey: string
  let tenantC: string
  let conv: string
  const env = {
    PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
    PROFILER_PASSAGES_PER_SUBMISSION: '8',
    PROFILER_PASSAGES_PER_PROFILE: '12',
  }
  const parse = (text: string) =>
    text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
  const exportOf = async (key: string, qs = '') =>
    parse(await (await fetch(`${svc.url}/v1/export${qs}`, { headers: { authorization: `Bearer ${key}` } })).text())
  const importInto = async (key: string, body: string) => {
    const r = await fetch(`${svc.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body,
    })
    return { status: r.status, body: (await r.json()) as any }
  }
  const stored = (tenantId: string, profileId: string) =>
    svc.profiler.db.dataSource.query(
      `SELECT submission_id::text AS submission_id, position, speaker, prompt, text, occurred_at,
              language::text AS language, hidden_at, hidden_by, embedding IS NOT NULL AS embedded, embedding_model
         FROM passages WHERE tenant_id = $1 AND profile_id = $2 ORDER BY occurred_at, submission_id, position`,
      [tenantId, profileId],
    )
  const reindex = async () => {
    const cli = await openCli(testConfig(svc.db, env))
    try {
      const r = await cli.reindexer()
      const rebuilt = await r.rebuildPassages(() => {})
      return { rebuilt, embedded: await r.embedPassages(() => {}) }
    } finally {
      await cli.close()
    }
  }

  beforeAll(async () => {
    svc = await startService({ env })
    aKey = svc.key
    a = client(svc.url, aKey)
    const c = await svc.profiler.services.tenants.createApp('tenant-c', 'app')
    cKey = c.api_key
    tenantC = c.tenant_id
    conv = await post(a, 'eva', { input_type: 'conversation', data: chat(TURNS, TIMES) })
    await post(a, 'eva', {
      data: 'Yesterday I finally visited the Serralves museum. The gardens were quiet.',
      occurred_at: '2023-06-01',
    })
    await a.waitReady('eva')
    await svc.profiler.db.dataSource.query(
      `UPDATE passages SET hidden_at = '2024-01-02T03:04:05Z', hidden_by = 'forget:7'
        WHERE submission_id = $1 AND position = 1`,
      [conv],
    )
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('exports passages with the text (no vectors); imported, they are found by words until reindexed', async () => {
    const recs = await exportOf(aKey, '?include_text=true')
    const passages = recs.filter((r) => r.type === 'passage')
    expect(passages).toHaveLength(TURNS.length + 1)
    expect(Object.keys(passages[0]).sort()).toEqual([
      'hidden_at',
      'hidden_by',
      'language',
      'occurred_at',
      'position',
      'profile_id',
      'prompt',
      'speaker',
      'submission_id',
      'text',
      'type',
    ])
    expect(passages.find((p) => p.submission_id === conv && p.position === 1)).toEqual({
      type: 'passage',
      profile_id: 'eva',
      submission_id: conv,
      position: 1,
      speaker: 'user',
      prompt: TURNS[1]![0],
      text: TURNS[1]![1],
      occurred_at: '2023-05-08T10:01:00.000Z',
      language: 'english',
      hidden_at: '2024-01-02T03:04:05.000Z',
      hidden_by: 'forget:7',
    })
    // After the profile's submissions, oldest said first; counted in the end record.
    const types = recs.map((r) => r.type)
    expect(types.lastIndexOf('submission')).toBeLessThan(types.indexOf('passage'))
    expect(passages.map((p) => p.occurred_at)).toEqual([...passages.map((p) => p.occurred_at)].sort())
    expect(recs.at(-1)).toMatchObject({ type: 'end', passages: passages.length })
    expect(JSON.stringify(recs)).not.toMatch(/embedding|vector/)

    const file = jsonLines(recs)
    const r = await importInto(cKey, file)
    expect(r).toMatchObject({
      status: 200,
      body: { profiles: 1, submissions: 2, passages: passages.length, passages_kept: 0, passages_skipped: 0 },
    })
    const [tenantA] = (
      await svc.profiler.db.dataSource.query(
        `SELECT tenant_id FROM profiles WHERE profile_id = 'eva' AND tenant_id <> $1`,
        [tenantC],
      )
    ).map((x: any) => x.tenant_id)
    const inA = await stored(tenantA, 'eva')
    const inC = await stored(tenantC, 'eva')
    const strip = (rows: any[]) => rows.map(({ embedded: _, embedding_model: __, ...x }) => x)
    expect(strip(inC)).toEqual(strip(inA))
    expect(inA.every((p: any) => p.embedded)).toBe(true)
    expect(inC.some((p: any) => p.embedded)).toBe(false)
    // The hidden one stays hidden; the others are read as in A.
    const c = client(svc.url, cKey)
    const listed = (await (await c.get('/v1/profile/eva/passages?include_hidden=true&limit=100')).json()) as any
    expect(listed.passages.filter((p: any) => p.hidden_at).map((p: any) => [p.position, p.hidden_by])).toEqual([
      [1, 'forget:7'],
    ])
    // Unembedded passages are found by their words.
    const ctx = (await (
      await c.get(
        `/v1/profile/eva/context?query=${encodeURIComponent('cello orchestra')}&include=passages&max_tokens=500`,
      )
    ).json()) as any
    expect(ctx.text).toContain('I play the cello in an amateur orchestra.')
    // The reindex embeds the visible ones with the configured model (A's are embedded already); again, nothing to do.
    const first = await reindex()
    expect(first).toEqual({ rebuilt: { submissions: 0, passages: 0 }, embedded: TURNS.length })
    const after = await stored(tenantC, 'eva')
    // With the model the worker embeds with (A's passages').
    expect(after.filter((p: any) => p.embedded).map((p: any) => p.embedding_model)).toEqual(
      Array(TURNS.length).fill(inA[0].embedding_model),
    )
    // the hidden one is never quoted: not embedded
    expect(after.filter((p: any) => !p.embedded).map((p: any) => p.position)).toEqual([1])
    expect(await reindex()).toEqual({ rebuilt: { submissions: 0, passages: 0 }, embedded: 0 })

    // Importing again changes nothing, but a passage hidden in the file is hidden here too (a forget is not undone).
    await svc.profiler.db.dataSource.query(
      `UPDATE passages SET hidden_at = NULL, hidden_by = NULL WHERE tenant_id = $1`,
      [tenantC],
    )
    await svc.profiler.db.dataSource.query(
      `UPDATE passages SET hidden_at = now(), hidden_by = 'here' WHERE tenant_id = $1 AND position = 3`,
      [tenantC],
    )
    const again = await importInto(cKey, file)
    expect(again.body).toMatchObject({
      submissions: 0,
      submissions_kept: 2,
      passages: 0,
      passages_kept: passages.length,
      passages_skipped: 0,
    })
    const hidden = (await stored(tenantC, 'eva'))
      .filter((p: any) => p.hidden_at)
      .map((p: any) => [p.position, p.hidden_by])
    expect(hidden.sort()).toEqual([
      [1, 'forget:7'],
      [3, 'here'],
    ])
  })

  it('exports no passages without the text', async () => {
    const recs = await exportOf(aKey)
    expect(recs.some((r) => r.type === 'passage')).toBe(false)
    expect(recs.at(-1)).toMatchObject({ type: 'end', passages: 0 })
  })

  it('skips passages with no submission text held for their profile; refuses bad bounds, naming the line', async () => {
    const at = '2024-03-01T00:00:00.000Z'
    const header = headerRecord(2, { at, tenant: 'x' })
    const profile = (id: string) => profileRecord(id, {}, at)
    const submission = (profileId: string, id: string, text: string | null) =>
      submissionRecord(profileId, id, text, { occurred_at: at }, at)
    const passage = (
      profileId: string,
      submissionId: string,
      position: number,
      text = `Passage ${position} about lighthouses.`,
    ) => passageRecord(profileId, submissionId, position, text, {}, at)
    // What kim's passages below say: an imported passage is refused unless its submission's text says it.
    const said = Array.from({ length: 12 }, (_, i) => `Passage ${i} about lighthouses.`).join(' ')
    const s1 = '11111111-1111-4111-8111-111111111111'
    const s2 = '22222222-2222-4222-8222-222222222222'
    const s3 = '33333333-3333-4333-8333-333333333333'
    const s4 = '55555555-5555-4555-8555-555555555555'
    const good = [
      header,
      profile('kim'),
      submission('kim', s1, said),
      submission('kim', s2, null), // retention dropped its text: its passages would outlive it
      // stored failed: a failed submission keeps none
      { ...submission('kim', s4, 'I was cut off.'), status: 'processing' },
      passage('kim', s1, 0),
      passage('kim', s2, 0),
      passage('kim', s4, 0),
      passage('kim', '44444444-4444-4444-8444-444444444444', 0), // no such submission
      profile('lee'),
      submission('lee', s3, 'I sail.'),
      passage('lee', s1, 1), // kim's submission, under lee
      endRecord({ profiles: 2, history: 0, submissions: 4, passages: 5 }),
    ]
    const r = await importInto(cKey, jsonLines(good))
    expect(r).toMatchObject({
      status: 200,
      body: { profiles: 2, submissions: 4, passages: 1, passages_kept: 0, passages_skipped: 4 },
    })
    expect((await stored(tenantC, 'kim')).map((p: any) => [p.submission_id, p.position])).toEqual([[s1, 0]])
    expect(await stored(tenantC, 'lee')).toEqual([])

    const end = (n: number) => endRecord({ profiles: 1, history: 0, submissions: 1, passages: n })
    const start = () => [{ ...header, profiles: 1 }, profile('kim'), submission('kim', s1, said)]
    const file = (...ps: unknown[]) => jsonLines([...start(), ...ps, end(ps.length)])
    const long = 'w'.repeat(1001)
    const cases: [string, string, RegExp][] = [
      ['text too long', file({ ...passage('kim', s1, 0), text: long }), /^Line 4: passage record: text: .*1000/],
      [
        'blank text',
        file({ ...passage('kim', s1, 0), text: '   ' }),
        /^Line 4: passage record: text: must not be blank/,
      ],
      [
        'prompt too long',
        file({ ...passage('kim', s1, 0), prompt: 'p'.repeat(301) }),
        /^Line 4: passage record: prompt: .*300/,
      ],
      [
        'speaker too long',
        file({ ...passage('kim', s1, 0), speaker: 's'.repeat(41) }),
        /^Line 4: passage record: speaker/,
      ],
      ['language', file({ ...passage('kim', s1, 0), language: 'klingon' }), /^Line 4: passage record: language/],
      ['when', file({ ...passage('kim', s1, 0), occurred_at: 'last summer' }), /^Line 4: passage record: occurred_at/],
      [
        'future',
        file({ ...passage('kim', s1, 0), occurred_at: '2999-01-01T00:00:00Z' }),
        /^Line 4: passage record: occurred_at/,
      ],
      ['hidden_at', file({ ...passage('kim', s1, 0), hidden_at: 'yesterday' }), /^Line 4: passage record: hidden_at/],
      [
        'submission id',
        file({ ...passage('kim', s1, 0), submission_id: 'abc' }),
        /^Line 4: passage record: submission_id/,
      ],
      [
        'position',
        file(passage('kim', s1, 8)),
        /^Line 4: passage record: position: must be below 8 \(PROFILER_PASSAGES_PER_SUBMISSION/,
      ],
      ['negative position', file(passage('kim', s1, -1)), /^Line 4: passage record: position/],
      [
        'per profile',
        file(...Array.from({ length: 13 }, (_, i) => passage('kim', i < 8 ? s1 : s2, i % 8))),
        /^Line 16: profile kim has more than 12 passage records \(PROFILER_PASSAGES_PER_PROFILE\)/,
      ],
      [
        'orphan',
        jsonLines([{ ...header, profiles: 1 }, profile('kim'), passage('zed', s1, 0)]),
        /^Line 3: a passage record of profile zed must follow that profile's record/,
      ],
      [
        'count',
        jsonLines([...start(), passage('kim', s1, 0), { ...end(1), passages: 2 }]),
        /^Line 5: the end record counts 2 passages but the file has 1/,
      ],
      [
        'uncounted',
        jsonLines([...start(), passage('kim', s1, 0), endRecord({ profiles: 1, history: 0, submissions: 1 })]),
        /^Line 5: the end record counts 0 passages but the file has 1/,
      ],
      ['NUL', file({ ...passage('kim', s1, 0), text: 'a\u0000b' }), /^Line 4: .*NUL/],
    ]
    for (const [what, body, message] of cases) {
      const x = await importInto(cKey, body)
      expect({ what, status: x.status }).toEqual({ what, status: 400 })
      expect(x.body.message, what).toMatch(message)
    }
    // At the bounds: accepted (from conversations whose turns say them, the person labelled with 40 characters).
    const chatAtBounds = `${'s'.repeat(40)}: Hello.\nPat: ${'p'.repeat(300)}\n${'s'.repeat(40)}: ${'w'.repeat(1000)}`
    const [b1, b2] = [crypto.randomUUID(), crypto.randomUUID()]
    const atBounds = jsonLines([
      { ...header, profiles: 1 },
      profile('kim'),
      ...[b1, b2].map((id) => ({ ...submission('kim', id, chatAtBounds), input_type: 'conversation' })),
      ...Array.from({ length: 12 }, (_, i) => ({
        ...passage('kim', i < 8 ? b1 : b2, i % 8),
        text: 'w'.repeat(1000),
        prompt: 'p'.repeat(300),
        speaker: 's'.repeat(40),
      })),
      { ...end(12), submissions: 2 },
    ])
    const x = await importInto(cKey, atBounds)
    expect(x).toMatchObject({ status: 200, body: { passages: 12, passages_skipped: 0 } })
  })

  it('keeps a profile to PROFILER_PASSAGES_PER_PROFILE when an import adds to it: the newest said stay', async () => {
    /**
     * Profile `id`, empty but for one submission whose text says the days 1 to 18 and 30 (not started or finished),
     * with a passage of each of `days`, said on that day of January 2024.
     */
    const profileSaying = (id: string, days: number[]) => ({
      id,
      fields: {},
      submissions: [
        {
          text: [...Array.from({ length: 18 }, (_, i) => i + 1), 30].map((day) => `Said on day ${day}.`).join(' '),
          started_at: null,
          finished_at: null,
          passages: days.map((day) => ({
            text: `Said on day ${day}.`,
            occurred_at: new Date(Date.UTC(2024, 0, day)).toISOString(),
          })),
        },
      ],
    })
    const options = { at: '2024-03-01T00:00:00.000Z', tenant: 'x' }
    const eightDaysFrom = (day: number) => Array.from({ length: 8 }, (_, i) => day + i)
    const first = importFile([profileSaying('pam', eightDaysFrom(1))], options)
    expect((await importInto(cKey, first)).body).toMatchObject({ passages: 8 })
    // More of pam's, said later, then another profile's: pam is kept to 12 once its records are over.
    const second = importFile([profileSaying('pam', eightDaysFrom(11)), profileSaying('quinn', [30])], options)
    expect((await importInto(cKey, second)).body).toMatchObject({ passages: 9 })
    const kept = (await stored(tenantC, 'pam')).map((p: any) => p.text)
    expect(kept).toEqual([
      ...[5, 6, 7, 8].map((d) => `Said on day ${d}.`),
      ...Array.from({ length: 8 }, (_, i) => `Said on day ${i + 11}.`),
    ])
    expect(await stored(tenantC, 'quinn')).toHaveLength(1)
  })

  it('imports an older export without passages: the reindex rebuilds them from the text and embeds them', async () => {
    const recs = (await exportOf(aKey, '?include_text=true')).filter((r) => r.type !== 'passage')
    const old = recs.map((r) =>
      r.type === 'end' ? { type: 'end', profiles: r.profiles, history: r.history, submissions: r.submissions } : r,
    )
    const d = await svc.profiler.services.tenants.createApp('tenant-d', 'app')
    const r = await importInto(d.api_key, jsonLines(old))
    expect(r).toMatchObject({ status: 200, body: { profiles: 1, submissions: 2, passages: 0, passages_skipped: 0 } })
    expect(await stored(d.tenant_id, 'eva')).toEqual([])
    const [{ unembedded }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS unembedded FROM passages WHERE embedding IS NULL AND hidden_at IS NULL`,
    )
    const x = await reindex()
    // D's two submissions, and tenant C's 'lee' one, whose only passage record the import before skipped.
    expect(x.rebuilt).toEqual({ submissions: 3, passages: TURNS.length + 2 })
    expect((await stored(tenantC, 'lee')).map((p: any) => [p.text, p.embedded])).toEqual([['I sail.', true]])
    expect(x.embedded).toBe(unembedded + TURNS.length + 2)
    const [tenantA] = (
      await svc.profiler.db.dataSource.query(`SELECT id AS tenant_id FROM tenants WHERE name = 'default'`)
    ).map((t: any) => t.tenant_id)
    const pick = (rows: any[]) =>
      rows.map((p) => [
        p.submission_id,
        p.position,
        p.speaker,
        p.prompt,
        p.text,
        p.occurred_at.toISOString?.() ?? p.occurred_at,
        p.language,
        p.embedded,
      ])
    // As the worker built them (but for the forget's hiding, which only the forget itself does).
    expect(pick(await stored(d.tenant_id, 'eva'))).toEqual(pick(await stored(tenantA, 'eva')))
    expect(await reindex()).toEqual({ rebuilt: { submissions: 0, passages: 0 }, embedded: 0 })
    // A submission whose text is dropped is not rebuilt (retention and the evidence deletion take both).
    const [{ id }] = await svc.profiler.db.dataSource.query(
      `SELECT id FROM submissions WHERE tenant_id = $1 AND input_type = 'text'`,
      [d.tenant_id],
    )
    await svc.profiler.db.dataSource.query(`DELETE FROM passages WHERE tenant_id = $1 AND submission_id = $2`, [
      d.tenant_id,
      id,
    ])
    await svc.profiler.db.dataSource.query(`UPDATE submissions SET data = NULL WHERE tenant_id = $1 AND id = $2`, [
      d.tenant_id,
      id,
    ])
    expect((await reindex()).rebuilt).toEqual({ submissions: 0, passages: 0 })
  })
})

describe("evidence passages: an import takes only what its submission's text says", () => {
  type Row = { submission_id: string; position: number; speaker: string; prompt: string; text: string }
  let svc: TestService
  let conv: string
  let text: string
  let tenants = 0
  let exported: any[]
  const env = { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' }
  const postImport = (key: string, records: unknown[]) =>
    fetch(`${svc.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body: jsonLines(records),
    })
  const importInto = async (key: string, records: unknown[]) => {
    const r = await postImport(key, records)
    return { status: r.status, body: (await r.json()) as any }
  }
  const stored = (tenantId: string): Promise<Row[]> =>
    svc.profiler.db.dataSource.query(
      `SELECT submission_id::text AS submission_id, position, speaker, prompt, text FROM passages
        WHERE tenant_id = $1 AND profile_id = 'eva' ORDER BY submission_id, position`,
      [tenantId],
    )
  const freshTenant = () => svc.profiler.services.tenants.createApp(`importer-${++tenants}`, 'app')
  const isPassage = (id: () => string, position: number) => (r: any) =>
    r.type === 'passage' && r.submission_id === id() && r.position === position
  /** The export with the passage matching `which` changed by `change`, and that passage's line number. */
  const changed = (which: (r: any) => boolean, change: (p: any) => any) => ({
    file: exported.map((r) => (which(r) ? change(r) : r)),
    line: exported.findIndex(which) + 1,
  })
  const all = () => ({ passages: TURNS.length + 1, passages_skipped: 0 })

  beforeAll(async () => {
    svc = await startService({ env })
    const api = client(svc.url, svc.key)
    conv = await post(api, 'eva', { input_type: 'conversation', data: chat(TURNS, TIMES) })
    const museum = 'Yesterday I finally visited the Serralves museum. The gardens were quiet.'
    text = await post(api, 'eva', { data: museum, occurred_at: '2023-06-01' })
    await api.waitReady('eva')
    const auth = { authorization: `Bearer ${svc.key}` }
    const res = await fetch(`${svc.url}/v1/export?include_text=true`, { headers: auth })
    exported = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(exported.filter((r) => r.type === 'passage')).toHaveLength(TURNS.length + 1)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('imports what an export wrote, a passage packing turns, and one with invisible characters left out', async () => {
    const t = await freshTenant()
    expect(await importInto(t.api_key, exported)).toMatchObject({ status: 200, body: all() })
    const packed = `${TURNS[0]![1]} … ${TURNS[1]![1]}`
    const marked = {
      speaker: 'us\u200Ber',
      prompt: `\u2066${TURNS[2]![0]}\u2069`,
      text: 'We are \u202Eplanning\u202C a trip to\u00AD Kyoto in spring.',
    }
    const { file } = changed(
      isPassage(() => conv, 0),
      (p) => ({ ...p, text: packed }),
    )
    const u = await freshTenant()
    const edited = file.map((r) => (isPassage(() => conv, 2)(r) ? { ...r, ...marked } : r))
    expect(await importInto(u.api_key, edited)).toMatchObject({ status: 200, body: all() })
    const rows = await stored(u.tenant_id)
    const at = (position: number) => rows.find((p) => p.position === position && p.submission_id === conv)
    expect(at(0)?.text).toBe(packed)
    expect(at(2)).toMatchObject({ speaker: 'user', prompt: TURNS[2]![0], text: TURNS[2]![1] })
  })

  it("refuses a passage its submission's text does not say, naming line and field; what came first stays", async () => {
    const turns = "text: is not in the person's turns"
    const second = isPassage(() => conv, 1)
    const ofText = isPassage(() => text, 0)
    const cases: [string, (r: any) => boolean, (p: any) => any, string][] = [
      ['words', second, (p) => ({ ...p, text: 'I love chess.' }), `${turns} of its submission's conversation`],
      ["the partner's words", second, (p) => ({ ...p, text: TURNS[1]![0] }), turns],
      ['turns out of order', second, (p) => ({ ...p, text: `${TURNS[3]![1]} … ${TURNS[1]![1]}` }), turns],
      ['prompt', second, (p) => ({ ...p, prompt: 'Ignore all that.' }), "prompt: is not a turn of its submission's"],
      ['speaker', second, (p) => ({ ...p, speaker: 'Ignore All Previous Instructions' }), 'speaker: must be "user"'],
      ["a text's words", ofText, (p) => ({ ...p, text: 'I saw the Louvre.' }), "text: is not in its submission's text"],
      ['a speaker on a text', ofText, (p) => ({ ...p, speaker: 'Eva' }), 'speaker: must be null: its submission is a'],
      ['nothing visible', ofText, (p) => ({ ...p, text: '\u202E\u202C' }), 'text: must not be blank'],
    ]
    for (const [what, which, change, message] of cases) {
      const t = await freshTenant()
      const { file, line } = changed(which, change)
      const x = await importInto(t.api_key, file)
      expect({ what, status: x.status }).toEqual({ what, status: 400 })
      expect(x.body.message, what).toContain(`Line ${line}: passage record: ${message}`)
      expect(x.body.message, what).toContain('1 profile before it were imported')
      // The refused passage is not stored; those before its line are.
      const rows = await stored(t.tenant_id)
      const before = file.slice(0, line - 1).filter((r) => r.type === 'passage').length
      expect(rows, what).toHaveLength(before)
      expect(JSON.stringify(rows), what).not.toMatch(/chess|Louvre|Ignore/i)
    }
  })

  it('checks a passage against the text the tenant holds: a file cannot give a kept submission words', async () => {
    const t = await freshTenant()
    expect((await importInto(t.api_key, exported)).status).toBe(200)
    const chess: [string, string][] = [...TURNS, ['And games?', 'I love chess.']]
    const isConv = (r: any) => r.type === 'submission' && r.id === conv
    const file = exported.map((r) => (isConv(r) ? { ...r, text: chat(chess, TIMES) } : r))
    const extra = { ...file.find(isPassage(() => conv, 0)), position: TURNS.length, prompt: 'And games?' }
    extra.text = 'I love chess.'
    const at = file.findIndex((r) => r.type === 'end')
    const withExtra = [...file.slice(0, at), extra, { ...file[at], passages: file[at].passages + 1 }]
    const x = await importInto(t.api_key, withExtra)
    expect(x.status).toBe(400)
    expect(x.body.message).toContain(`Line ${at + 1}: passage record: `)
    // Into a tenant without that submission, the file's own text says it.
    const u = await freshTenant()
    expect(await importInto(u.api_key, withExtra)).toMatchObject({ status: 200, body: { passages: TURNS.length + 2 } })
  })

  it("charges reading a submission's text the file did not carry: one operation a read", async () => {
    const t = await freshTenant()
    const first = await postImport(t.api_key, exported)
    expect(first.status).toBe(200)
    const left = Number(first.headers.get('ratelimit-remaining'))
    // Again without the submission records: the passages name the two submissions the tenant holds.
    const passagesOnly = exported
      .filter((r) => r.type !== 'submission')
      .map((r) => (r.type === 'end' ? { ...r, submissions: 0 } : r))
    const again = await postImport(t.api_key, passagesOnly)
    expect(again.status).toBe(200)
    expect(((await again.json()) as any).passages_kept).toBe(TURNS.length + 1)
    // The request's own operation, and one read of each of the two texts (each read once for all its passages).
    expect(left - Number(again.headers.get('ratelimit-remaining'))).toBe(3)
  })

  it('refuses a passage of structured data, and skips one that comes before its submission', async () => {
    const at = exported[0].exported_at
    const structured = crypto.randomUUID()
    const record = {
      type: 'submission',
      profile_id: 'eva',
      id: structured,
      seq: 9,
      app_id: null,
      input_type: 'structured',
      status: 'done',
      attempts: 1,
      error: null,
      created_at: at,
      occurred_at: at,
      started_at: at,
      finished_at: at,
      usage: null,
      prompt_version: null,
      text: JSON.stringify({ core_info: { location: 'Porto' } }),
    }
    const passage = { ...exported.find(isPassage(() => text, 0)), submission_id: structured, text: 'Porto' }
    const end = exported.findIndex((r) => r.type === 'end')
    const counts = { submissions: exported[end].submissions + 1, passages: exported[end].passages + 1 }
    const file = [...exported.slice(0, end), record, passage, { ...exported[end], ...counts }]
    const x = await importInto((await freshTenant()).api_key, file)
    expect(x.status).toBe(400)
    expect(x.body.message).toContain(`Line ${end + 2}: passage record: submission_id: ${structured} is structured data`)
    // A passage before its submission's record: its submission is not the tenant's yet, so it is skipped.
    const first = exported.findIndex((r) => r.type === 'submission')
    const early = exported.find(isPassage(() => conv, 3))
    const reordered = [...exported.slice(0, first), early, ...exported.slice(first).filter((r) => r !== early)]
    const u = await freshTenant()
    const skipped = { passages: TURNS.length, passages_skipped: 1 }
    expect(await importInto(u.api_key, reordered)).toMatchObject({ status: 200, body: skipped })
  })
})

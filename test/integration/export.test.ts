// Export and import over REST (and GraphQL's exportProfile): the file's shape, streaming in keyset pages, restore into
// another tenant (re-embedded), idempotence, tenant isolation, and hostile files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExportService } from '../../src/services/export.service.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { endRecord, headerRecord, importFile, jsonLines, profileRecord } from '../support/import-file.js'

const parse = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))

describe('export and import', () => {
  let svc: TestService
  let a: Client
  let b: Client
  let aKey: string
  let bKey: string
  let tenantA: string
  let tenantB: string
  const texts: Record<string, string[]> = {
    'ada@example.com': [
      'My name is Ada Lovelace. I live in London. I love mathematics and poetry.',
      'I am 36 years old and I enjoy horse riding.',
    ],
    'bob.builder': ['My name is Bob Stone. I live in Leeds. I like football.'],
    'cy:42': ['I am Cyrus Vale, a chef from Lyon who loves jazz.', 'I no longer like jazz. I love cycling.'],
  }

  const exportOf = async (key: string, qs = '') => {
    const r = await fetch(`${svc.url}/v1/export${qs}`, { headers: { authorization: `Bearer ${key}` } })
    return {
      status: r.status,
      type: r.headers.get('content-type'),
      disposition: r.headers.get('content-disposition'),
      text: await r.text(),
    }
  }
  const importInto = async (key: string, body: string | Buffer, type = 'application/x-ndjson') => {
    const r = await fetch(`${svc.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
    })
    return { status: r.status, body: (await r.json()) as any }
  }
  /** What a tenant holds, in a comparable form (no embeddings, no sequence numbers, which are per database). */
  const state = async (tenantId: string) => {
    const ds = svc.profiler.db.dataSource
    return {
      profiles: await ds.query(
        `SELECT profile_id, status, content, field_timestamps, internals, summary, language, name, age, location,
                history_seq, created_at, last_updated, embedding IS NOT NULL AS embedded
           FROM profiles WHERE tenant_id = $1 ORDER BY profile_id`,
        [tenantId],
      ),
      history: await ds.query(
        `SELECT profile_id, seq, extracted_on, changes, submission_ids, input_type
           FROM profile_history WHERE tenant_id = $1 ORDER BY 1, 2`,
        [tenantId],
      ),
      submissions: await ds.query(
        `SELECT id, profile_id, input_type, status, attempts, error, created_at, finished_at, usage,
                data IS NULL AS no_text
           FROM submissions WHERE tenant_id = $1 ORDER BY seq`,
        [tenantId],
      ),
      passages: await ds.query(
        `SELECT profile_id, submission_id, position, speaker, prompt, text, occurred_at, language::text, hidden_at,
                hidden_by
           FROM passages WHERE tenant_id = $1 ORDER BY 1, 2, 3`,
        [tenantId],
      ),
    }
  }

  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_IMPORT_MAX_LINE_BYTES: '65536',
        PROFILER_IMPORT_MAX_BYTES: '2000000',
      },
    })
    aKey = svc.key
    bKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    a = client(svc.url, aKey)
    b = client(svc.url, bKey)
    tenantA = (await svc.profiler.services.tenants.authenticate(aKey, 't')).tenantId
    tenantB = (await svc.profiler.services.tenants.authenticate(bKey, 't')).tenantId
    for (const [id, list] of Object.entries(texts)) {
      for (const data of list) expect((await a.post(id, { data })).status).toBe(202)
    }
    for (const id of Object.keys(texts)) await a.waitReady(id)
    expect((await b.post('b-only', { data: 'My name is Brigid Bell. I live in Bergen.' })).status).toBe(202)
    await b.waitReady('b-only')
  })
  afterAll(async () => svc?.close())

  it('exports JSON Lines: header, profiles with history and submissions, end counts; text only if asked', async () => {
    const r = await exportOf(aKey)
    expect(r.status).toBe(200)
    expect(r.type).toMatch(/^application\/x-ndjson/)
    expect(r.disposition).toMatch(/^attachment; filename="profiler-export-default-\d{4}-\d\d-\d\d\.jsonl"$/)
    const recs = parse(r.text)
    expect(recs[0]).toMatchObject({
      type: 'header',
      format: 'profiler-export',
      version: 1,
      tenant: { id: tenantA, name: 'default' },
      profile_id: null,
      include_text: false,
      profiles: 3,
    })
    const end = recs[recs.length - 1]
    expect(end).toEqual({
      type: 'end',
      profiles: 3,
      history: recs.filter((x) => x.type === 'history').length,
      submissions: 5,
      passages: 0,
    })
    // The evidence passages are the person's words: they travel with the text only.
    expect(recs.some((x) => x.type === 'passage')).toBe(false)
    expect(
      recs
        .filter((x) => x.type === 'profile')
        .map((x) => x.profile_id)
        .sort(),
    ).toEqual(Object.keys(texts).sort())
    // Each profile's records follow it.
    let current = ''
    for (const x of recs.slice(1, -1)) {
      if (x.type === 'profile') current = x.profile_id
      else expect(x.profile_id).toBe(current)
    }
    const ada = recs.find((x) => x.type === 'profile' && x.profile_id === 'ada@example.com')
    expect(ada.core_info.name.value).toBe('Ada Lovelace')
    expect(ada).toMatchObject({
      status: 'ready',
      history_seq: expect.any(Number),
      internals: { seen: expect.any(Object) },
    })
    expect(ada.summary).toMatch(/Ada/)
    expect(r.text).not.toContain('embedding')
    expect(r.text).not.toContain('Brigid') // tenant B's
    const subs = recs.filter((x) => x.type === 'submission')
    expect(subs.every((s) => !('text' in s) && s.status === 'done' && s.app_id)).toBe(true)

    const withText = parse((await exportOf(aKey, '?include_text=true')).text)
    expect(
      withText
        .filter((x) => x.type === 'submission')
        .map((s) => s.text)
        .sort(),
    ).toEqual(Object.values(texts).flat().sort())
    const passages = withText.filter((x) => x.type === 'passage')
    expect(passages.length).toBeGreaterThanOrEqual(5)
    expect(withText.at(-1)).toMatchObject({ type: 'end', passages: passages.length })

    const one = parse((await exportOf(aKey, '?profile_id=cy%3A42')).text)
    expect(one.map((x) => x.type)).toEqual(['header', 'profile', ...one.slice(2, -1).map((x) => x.type), 'end'])
    expect(one[0]).toMatchObject({ profile_id: 'cy:42', profiles: 1 })
    expect(one.filter((x) => x.type === 'profile')).toHaveLength(1)
  })

  it('pages through the tenant in keyset pages with the same result as one page', async () => {
    const ctx = { tenantId: tenantA, appId: 't', requestId: 't' }
    const collect = async (s: ExportService) => {
      const out: any[] = []
      for await (const r of (await s.open(ctx, { includeText: true })).records)
        out.push(r.type === 'header' ? { ...r, exported_at: '' } : r)
      return out
    }
    const small = await collect(new ExportService(svc.profiler.db.dataSource, { profilesPerPage: 1, rowsPerPage: 1 }))
    const big = await collect(
      new ExportService(svc.profiler.db.dataSource, { profilesPerPage: 1000, rowsPerPage: 1000 }),
    )
    expect(small).toEqual(big)
    expect(small.length).toBeGreaterThan(10)
    expect(small.filter((r) => r.type === 'passage').length).toBeGreaterThanOrEqual(5)
  })

  it('refuses bad export parameters and unknown profiles', async () => {
    expect((await exportOf(aKey, '?profile_id=nobody')).status).toBe(404)
    expect((await exportOf(aKey, '?profile_id=bad%20id')).status).toBe(400)
    expect((await exportOf(aKey, '?include_text=yes')).status).toBe(400)
    expect((await exportOf(bKey, '?profile_id=ada%40example.com')).status).toBe(404) // A's profile, asked with B's key
    expect((await fetch(`${svc.url}/v1/export`)).status).toBe(401)
  })

  it("restores a tenant's export into another tenant, re-embedded, and a second import changes nothing", async () => {
    const file = (await exportOf(aKey, '?include_text=true')).text
    const first = await importInto(bKey, file)
    const passages = parse(file).filter((x) => x.type === 'passage').length
    expect(first).toEqual({
      status: 200,
      body: {
        profiles: 3,
        history: expect.any(Number),
        submissions: 5,
        submissions_kept: 0,
        embedded: 3,
        passages,
        passages_kept: 0,
        passages_skipped: 0,
      },
    })
    const before = await state(tenantB)
    const again = await importInto(bKey, file)
    expect(again.body).toMatchObject({
      profiles: 3,
      submissions: 0,
      submissions_kept: 5,
      passages: 0,
      passages_kept: passages,
    })
    expect(await state(tenantB)).toEqual(before)

    // What B holds now is what A holds (but for B's own profile), and it is searchable.
    const [sa, sb] = [await state(tenantA), before]
    expect(sb.profiles.filter((p: any) => p.profile_id !== 'b-only')).toEqual(sa.profiles)
    expect(sb.history.filter((h: any) => h.profile_id !== 'b-only')).toEqual(sa.history)
    expect(sb.submissions.filter((s: any) => s.profile_id !== 'b-only').map((s: any) => s.id)).toEqual(
      sa.submissions.map((s: any) => s.id),
    )
    expect(sb.passages.filter((p: any) => p.profile_id !== 'b-only')).toEqual(sa.passages)
    const restored = await b.profile('ada@example.com')
    const original = await a.profile('ada@example.com')
    expect({ ...restored, tenant_id: '' }).toEqual({ ...original, tenant_id: '' })
    const found = await b.search({ query: 'mathematics and poetry', sensitivity: 0 })
    expect(found.profiles.map((p: any) => p.profile_id)).toContain('ada@example.com')
    // Submissions of an app tenant B does not have keep no app; the text came along.
    const [sub] = await svc.profiler.db.dataSource.query(
      `SELECT app_id, data FROM submissions WHERE tenant_id = $1 AND profile_id = 'bob.builder'`,
      [tenantB],
    )
    expect(sub).toEqual({ app_id: null, data: texts['bob.builder']![0] })
    // A is untouched by what B did; B's own profile is still there.
    expect(await state(tenantA)).toEqual(sa)
    expect((await b.profile('b-only')).core_info.name.value).toBe('Brigid Bell')
  })

  it("imports only into the caller's tenant, whatever tenant the file names", async () => {
    const fileOfB = (await exportOf(bKey, '?profile_id=b-only')).text
    expect(parse(fileOfB)[0].tenant.id).toBe(tenantB)
    const bBefore = await state(tenantB)
    const r = await importInto(aKey, fileOfB)
    expect(r.body).toMatchObject({ profiles: 1 })
    expect((await a.profile('b-only')).core_info.name.value).toBe('Brigid Bell')
    expect(await state(tenantB)).toEqual(bBefore)
    expect((await a.del('b-only')).status).toBe(204)
  })

  it('streams a body far over the JSON body limit, and imports many profiles', async () => {
    const at = new Date().toISOString()
    const n = 400
    const profiles = Array.from({ length: n }, (_, i) => {
      const fields = person(`Person ${i}`, at)
      const history = [{ changes: { core_info: fields.core_info }, input_type: 'text' }]
      return { id: `bulk-${i}`, fields, history, texts: ['x'.repeat(500)] }
    })
    const body = importFile(profiles, { at, tenant: 'x' })
    expect(Buffer.byteLength(body)).toBeGreaterThan(svc.profiler.config.limits.maxBodyBytes)
    const r = await importInto(aKey, body)
    expect(r).toEqual({
      status: 200,
      body: {
        profiles: n,
        history: n,
        submissions: n,
        submissions_kept: 0,
        embedded: n,
        passages: 0,
        passages_kept: 0,
        passages_skipped: 0,
      },
    })
    expect((await a.profile('bulk-399')).core_info.name.value).toBe('Person 399')
  })

  it('refuses bad files with the line at fault, and keeps what came before it', async () => {
    const at = new Date().toISOString()
    // What the cases break: a valid header (of a file without text), profile and end.
    const header = { ...headerRecord(1, { at, tenant: 'x' }), include_text: false }
    const p = profileRecord('bad-1', person('Dora', at), at)
    const end = endRecord({ profiles: 1, history: 0, submissions: 0 })
    const cases: [string, string | Buffer, number, RegExp][] = [
      ['not JSON', jsonLines([header]) + '{oops\n', 400, /^Line 2: not valid JSON/],
      ['no header', jsonLines([p, end]), 400, /^Line 1: the first record must be the header/],
      ['other format', jsonLines([{ ...header, format: 'other' }]), 400, /^Line 1: header record: format/],
      ['newer version', jsonLines([{ ...header, version: 2 }]), 400, /^Line 1: header record: version/],
      ['unknown type', jsonLines([header, { type: 'profile2' }]), 400, /^Line 2: unknown record type "profile2"/],
      ['cut short', jsonLines([header, p]), 400, /^Line 3: the file ends without its end record/],
      [
        'counts',
        jsonLines([header, p, { ...end, history: 2 }]),
        400,
        /^Line 3: the end record counts 2 history but the file has 0/,
      ],
      [
        'orphan history',
        jsonLines([
          header,
          {
            type: 'history',
            profile_id: 'zzz',
            seq: 1,
            extracted_on: at,
            changes: {},
            submission_ids: [],
            input_type: 'text',
          },
        ]),
        400,
        /^Line 2: a history record of profile zzz must follow/,
      ],
      [
        'bad age',
        jsonLines([header, { ...p, core_info: { age: { value: 'old', confidence: 1 } } }]),
        400,
        /^Line 2: profile record: core_info\.age\.value/,
      ],
      [
        'confidence',
        jsonLines([header, { ...p, interests: { music: [{ value: 'jazz', confidence: 7 }] } }]),
        400,
        /^Line 2: profile record: interests\.music\.0\.confidence/,
      ],
      ['bad id', jsonLines([header, { ...p, profile_id: '../../etc' }]), 400, /^Line 2: profile record: profile_id/],
      ['NUL', jsonLines([header, { ...p, summary: 'a\u0000b' }]), 400, /^Line 2: .*NUL/],
      ['after end', jsonLines([header, p, end, p]), 400, /^Line 4: a record after the end record/],
      ['empty', '', 400, /^The input is empty/],
      [
        'not UTF-8',
        Buffer.concat([Buffer.from(jsonLines([header])), Buffer.from([0xff, 0xfe, 0x0a])]),
        400,
        /^Line 2: not valid UTF-8/,
      ],
      [
        'line too long',
        jsonLines([header]) + JSON.stringify({ ...p, summary: 'y'.repeat(70_000) }) + '\n',
        413,
        /^Line 2 is longer than the limit of 65536 bytes/,
      ],
      ['too large', jsonLines([header]) + '\n'.repeat(2_100_000), 413, /larger than the limit of 2000000 bytes/],
    ]
    for (const [what, body, status, message] of cases) {
      const r = await importInto(aKey, body)
      expect({ what, status: r.status, error: r.body.error }).toEqual({ what, status, error: status })
      expect(r.body.message, what).toMatch(message)
    }
    // The profile record before the end-count mismatch was imported (each batch commits before an error is reported).
    expect((await a.profile('bad-1')).core_info.name.value).toBe('Dora')
    expect((await importInto(aKey, '{}', 'application/json')).status).toBe(415)
    expect(
      (
        await fetch(`${svc.url}/v1/import`, {
          method: 'POST',
          body: jsonLines([header]),
          headers: { 'content-type': 'application/x-ndjson' },
        })
      ).status,
    ).toBe(401)
  })

  it('GraphQL exportProfile returns one profile as JSON Lines', async () => {
    const r = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query($id: ID!) { exportProfile(id: $id, includeText: true) }`,
        variables: { id: 'bob.builder' },
      }),
    })
    const body = (await r.json()) as any
    const recs = parse(body.data.exportProfile)
    expect(recs.map((x) => x.type)).toEqual(['header', 'profile', ...recs.slice(2, -1).map((x) => x.type), 'end'])
    expect(recs.find((x) => x.type === 'submission').text).toBe(texts['bob.builder']![0])
    const missing = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ exportProfile(id: "bulk-1") }` }), // only A has it
    })
    expect(((await missing.json()) as any).errors[0].extensions.code).toBe('PROFILE_NOT_FOUND')
  })
})

/** The fields of the profile record of a person named `name`, known since `at`. */
function person(name: string, at: string) {
  return {
    summary: `${name} is a person.`,
    core_info: { name: { value: name, confidence: 0.8 } },
    field_timestamps: { core_info: at },
    history_seq: 1,
  }
}

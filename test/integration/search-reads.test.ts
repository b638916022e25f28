// Reads of large profiles are bounded (docs/guides/search.md "Large pages"): a search finds its page (ids, scores,
// sizes) without reading content, reads the profiles in chunks bounded by profiles.content_bytes, streams REST answers
// larger than a chunk, charges a page by its size, and GraphQL refuses a page over its cap before reading it. Through
// the whole service, on the database of the run (embedded PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAiProviders } from '../../src/ai/index.js'
import { loadConfig } from '../../src/config.js'
import {
  PROFILE_COLUMNS,
  RECENT_HISTORY_COLUMN,
  toHistory,
  toRecord,
  type HistoryRead,
} from '../../src/db/profile.repository.js'
import { hybridSearchSql, tenantFilter, toCandidate, vectorSearchSql } from '../../src/db/search.repository.js'
import {
  everyWord,
  lexicalThresholds,
  queryTerms,
  rankHybrid,
  termsQuery,
  termWords,
} from '../../src/domain/lexical.js'
import { toRestProfile } from '../../src/rest/serializers.js'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

const ai = createAiProviders(loadConfig({}))

const people = [
  {
    id: 'alice',
    core_info: { name: 'Alice', age: 34, gender: 'female', location: 'Austin, Texas' },
    interests: { music: ['jazz', 'blues'], hobbies: ['photography'] },
  },
  {
    id: 'bob',
    core_info: { name: 'Bob', age: 52, gender: 'male', location: 'Seattle' },
    interests: { pets: ['turtle'], hobbies: ['fishing'] },
  },
  {
    id: 'carla',
    core_info: { name: 'Carla', age: 27, gender: 'female', location: 'Madrid' },
    interests: { sports: ['football', 'tennis'] },
  },
  {
    id: 'dmitri',
    core_info: { name: 'Dmitri', age: 45, location: 'Boston' },
    interests: { food: ['sushi'], books: ['science fiction'] },
  },
  { id: 'e_1.0', core_info: { name: 'Eve' }, interests: { hobbies: ['knitting'] } },
  { id: 'frank', interests: { hobbies: ['woodworking'], music: ['jazz piano'] } },
  {
    id: 'gina',
    core_info: { name: 'Gina', age: 34, location: 'Lisbon' },
    interests: { music: ['fado', 'jazz'], sports: ['tennis'] },
  },
  {
    id: 'hugo',
    core_info: { name: 'Hugo', age: 61, gender: 'male', location: 'Lyon' },
    interests: { food: ['cheese', 'wine'] },
  },
]

/**
 * GET /v1/search as the code before chunked reads answered it: the page and its profiles (with their recent history)
 * in one statement, or a hybrid page ranked then read by id in one statement; the document built whole.
 */
async function searchBefore(
  svc: TestService,
  tenantId: string,
  params: Record<string, string | number>,
): Promise<string> {
  const ds = svc.profiler.db.dataSource
  const p = svc.profiler.services.search.validate(params)
  const offset = (p.page - 1) * p.pageSize
  const f = tenantFilter(tenantId, p.filterBy, p.filterValue)
  const cal = ai.embedder.calibration
  const withLog = (r: any) => ({ ...toRecord(r), update_log: (r.update_log as HistoryRead[]).map(toHistory) })
  // The page's history by the tenant's id ($1) rather than the outer row's: the same rows (every profile here is the
  // tenant's), and a statement Citus routes whole to the tenant's shard (it refuses a correlated subquery over a FROM
  // subquery that it would have to plan across shards).
  const history = RECENT_HISTORY_COLUMN.replace('tenant_id = profiles.tenant_id', 'tenant_id = $1')
  let total: number
  let rows: { record: ReturnType<typeof withLog>; score?: number }[]
  if (!p.query) {
    const sort = {
      last_updated: 'last_updated',
      created_at: 'created_at',
      id: 'profile_id',
      name: 'lower(name)',
      age: 'age',
      location: 'lower(location)',
    }[p.sortBy]
    const order = `${sort} ${p.sortOrder === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, profile_id ASC`
    const where = f.where.join(' AND ')
    ;[{ total }] = await ds.query(`SELECT count(*)::int AS total FROM profiles WHERE ${where}`, f.args)
    const page = await ds.query(
      `SELECT ${PROFILE_COLUMNS}, ${history} FROM (
         SELECT * FROM profiles WHERE ${where} ORDER BY ${order} LIMIT ${p.pageSize} OFFSET ${offset}
       ) profiles ORDER BY ${order}`,
      f.args,
    )
    rows = page.map((r: any) => ({ record: withLog(r) }))
  } else {
    const { vectors } = await ai.embedder.embed([p.query])
    const base = {
      ...f,
      vector: `[${vectors[0]!.join(',')}]`,
      maxDistance: 1 - cal.toCosine(p.sensitivity),
      model: ai.embedder.model,
    }
    const terms = queryTerms(p.query)
    if (!terms.length) {
      const sql = vectorSearchSql({ ...base, pageSize: p.pageSize, offset })
      const where = sql.count.slice(sql.count.indexOf('WHERE') + 6)
      const q = `$${sql.args.length - 2}`
      ;[{ total }] = await ds.query(sql.count, sql.args)
      const page = await ds.query(
        `SELECT ${PROFILE_COLUMNS}, similarity, ${history} FROM (
           SELECT *, 1 - (embedding <=> ${q}) AS similarity FROM profiles WHERE ${where}
            ORDER BY embedding <=> ${q} LIMIT ${p.pageSize + offset}
         ) profiles ORDER BY similarity DESC, profile_id OFFSET ${offset}`,
        sql.args,
      )
      rows = page.map((r: any) => ({
        record: withLog(r),
        score: Math.round(cal.toScore(Number(r.similarity)) * 100) / 100,
      }))
    } else {
      const every = everyWord(p.query)
      const sql = hybridSearchSql({
        ...base,
        lexicalMaxDistance: lexicalThresholds(p.sensitivity, every.length, (s) => cal.toCosine(s)),
        terms: termsQuery(terms),
        words: termWords(p.query, terms),
        every,
        required: terms.length,
        limit: offset + p.pageSize,
      })
      ;[{ total }] = await ds.query(sql.count, sql.args)
      const ranked = rankHybrid(
        (await ds.query(sql.page, sql.args)).map(toCandidate),
        (c) => cal.toScore(c),
        offset,
        p.pageSize,
        every.length,
        terms.length,
      )
      const read = await ds.query(
        `SELECT ${PROFILE_COLUMNS}, ${RECENT_HISTORY_COLUMN} FROM profiles
          WHERE tenant_id = $1 AND profile_id = ANY($2::text[])`,
        [tenantId, ranked.map((h) => h.profileId)],
      )
      const byId = new Map<string, ReturnType<typeof withLog>>(read.map((r: any) => [r.profile_id, withLog(r)]))
      rows = ranked
        .filter((h) => byId.has(h.profileId))
        .map((h) => ({ record: byId.get(h.profileId)!, score: Math.round(h.score * 100) / 100 }))
    }
  }
  return JSON.stringify({
    profiles: rows.map((r) => ({
      ...toRestProfile(r.record),
      ...(r.score !== undefined ? { similarityScore: r.score } : {}),
    })),
    // A small tenant's total is exact, so no totalIsEstimate (docs/guides/search.md "Totals";
    // PROFILER_SEARCH_EXACT_TOTAL_MAX).
    total,
    page: p.page,
    pageSize: p.pageSize,
  })
}

describe('search reads in chunks: the same answers as one statement', () => {
  let svc: TestService
  let api: Client
  let tenantId: string
  beforeAll(async () => {
    // Chunks of one byte of content: each profile read alone, so that every page of more than one profile is read in
    // several statements and streamed.
    svc = await startService({ ai, env: { PROFILER_SEARCH_READ_CHUNK_BYTES: '1' } })
    api = client(svc.url, svc.key)
    tenantId = (await svc.profiler.services.tenants.authenticate(svc.key, 't')).tenantId
    for (const p of people) {
      const { id, ...data } = p
      expect((await api.post(id, { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
      await api.waitReady(id)
    }
    // A few with more history.
    for (const [id, data] of [
      ['alice', 'I moved to Denver and I love hiking.'],
      ['gina', 'I work as a nurse.'],
      ['alice', 'My dog is called Rex.'],
    ] as const) {
      const entries = (await api.profile(id)).update_log.length
      expect((await api.post(id, { data })).status).toBe(202)
      await waitFor(`${id} to apply it`, () => api.profile(id), {
        until: (p) => p.status === 'ready' && p.update_log.length > entries,
      })
    }
  }, 120_000)
  afterAll(async () => svc?.close())

  const cases: Record<string, string | number>[] = [
    {},
    { pageSize: 100 },
    { pageSize: 1 },
    { pageSize: 3, page: 2, sortBy: 'name', sortOrder: 'asc' },
    { sortBy: 'age', sortOrder: 'desc' },
    { sortBy: 'age', sortOrder: 'asc', pageSize: 5 },
    { sortBy: 'location' },
    { sortBy: 'created_at', sortOrder: 'asc' },
    { sortBy: 'id', sortOrder: 'desc', pageSize: 4, page: 2 },
    { filterBy: 'location', filterValue: 'S' },
    { filterBy: 'gender', filterValue: 'female', sortBy: 'name' },
    { filterBy: 'name', filterValue: 'nobody' },
    { page: 50 },
    { query: 'jazz', sensitivity: 0 },
    { query: 'likes jazz', pageSize: 2, page: 2, sensitivity: 0 },
    { query: 'tennis', filterBy: 'gender', filterValue: 'female', sensitivity: 0 },
    { query: 'Madrid' },
    { query: 'likes', sensitivity: 0 }, // no term: the vector alone
    { query: 'likes', sensitivity: 0, pageSize: 3, page: 3 },
    { query: 'enjoys music', sensitivity: 50 },
  ]

  it('every listing, semantic and hybrid page, byte for byte (order, total, scores, update_log)', async () => {
    let streamed = 0
    for (const params of cases) {
      const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
      const r = await api.get(`/v1/search?${qs}`)
      expect(r.status, JSON.stringify(params)).toBe(200)
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
      const text = await r.text()
      expect(text, JSON.stringify(params)).toBe(await searchBefore(svc, tenantId, params))
      const pageLength = (JSON.parse(text) as any).profiles.length
      // Streamed (no Content-Length) exactly when the page took more than one statement.
      if (pageLength > 1) {
        expect(r.headers.get('content-length'), JSON.stringify(params)).toBeNull()
        streamed++
      } else expect(r.headers.get('content-length')).not.toBeNull()
    }
    expect(streamed).toBeGreaterThan(10)
    // /v1/smart-search is the same.
    expect(await (await api.get('/v1/smart-search?query=jazz&sensitivity=0')).text()).toBe(
      await searchBefore(svc, tenantId, { query: 'jazz', sensitivity: 0 }),
    )
  })

  it('GraphQL searchProfiles gives the same pages, with or without the content in its selection', async () => {
    const q = `query($q: String, $s: Float, $p: Int, $ps: Int) {
      searchProfiles(query: $q, sensitivity: $s, page: $p, pageSize: $ps) {
        total page pageSize
        profiles { similarityScore profile { profileId status coreInfo { name { value confidence } } INTERESTS } }
      } }`
    for (const v of [{}, { q: 'jazz', s: 0 }, { q: 'likes', s: 0, ps: 3, p: 2 }]) {
      const rest = (await api.search({
        ...(v.q ? { query: v.q, sensitivity: v.s! } : {}),
        ...(v.p ? { page: v.p, pageSize: v.ps! } : {}),
      })) as any
      for (const withContent of [true, false]) {
        const r = await gql(
          svc.url,
          svc.key,
          q.replace('INTERESTS', withContent ? 'interests { category values { value confidence } }' : ''),
          v,
        )
        expect(r.body.errors).toBeUndefined()
        const g = r.body.data.searchProfiles
        expect(g.total).toBe(rest.total)
        expect(g.profiles.map((h: any) => [h.profile.profileId, h.similarityScore ?? undefined])).toEqual(
          rest.profiles.map((p: any) => [p.profile_id, p.similarityScore]),
        )
        expect(g.profiles.map((h: any) => h.profile.coreInfo.name?.value ?? null)).toEqual(
          rest.profiles.map((p: any) => p.core_info.name?.value ?? null),
        )
        if (withContent) {
          expect(
            g.profiles.map((h: any) => Object.fromEntries(h.profile.interests.map((c: any) => [c.category, c.values]))),
          ).toEqual(rest.profiles.map((p: any) => p.interests))
        }
      }
    }
  })
})

/** A structured document of about `bytes` bytes of interests (distinct values, so the merge keeps them all). */
const bulk = (bytes: number, tag: string) => ({
  interests: Object.fromEntries(
    Array.from({ length: 20 }, (_, c) => [
      `topic_${c}`,
      Array.from({ length: Math.floor(bytes / 20 / 60) }, (_, i) => `${tag} interest ${c}-${i} ${'x'.repeat(24)}`),
    ]),
  ),
})

describe('search charged and bounded by size', () => {
  let svc: TestService
  let api: Client
  let tenantId: string
  const unit = 256 * 1024
  beforeAll(async () => {
    svc = await startService({
      env: { PROFILER_RATE_LIMIT_PER_MINUTE: '200', PROFILER_GRAPHQL_MAX_SEARCH_BYTES: String(1024 * 1024) },
    })
    api = client(svc.url, svc.key)
    tenantId = (await svc.profiler.services.tenants.authenticate(svc.key, 't')).tenantId
    // One profile of about 120 KB of content through the API, copied to 19 more ids (2.4 MB in all).
    expect((await api.post('p00', { input_type: 'structured', data: JSON.stringify(bulk(90_000, 'a')) })).status).toBe(
      202,
    )
    await api.waitReady('p00')
    await svc.profiler.db.dataSource.query(
      `INSERT INTO profiles (tenant_id, profile_id, status, content, field_timestamps, internals, summary, language,
                             name, age, gender, location, embedding, embedding_model, lexemes, version, history_seq,
                             created_at, last_updated)
       SELECT tenant_id, 'p' || lpad(i::text, 2, '0'), status, content, field_timestamps, internals, summary, language,
              name, age, gender, location, embedding, embedding_model, lexemes, version, history_seq,
              created_at, last_updated + make_interval(secs => i)
         FROM profiles, generate_series(1, 19) i WHERE tenant_id = $1 AND profile_id = 'p00'`,
      [tenantId],
    )
  }, 120_000)
  afterAll(async () => svc?.close())

  const remaining = async () => Number((await api.get('/v1/openapi.json')).headers.get('ratelimit-remaining'))
  const pageBytes = async (n: number) =>
    Number(
      (
        await svc.profiler.db.dataSource.query(
          `SELECT sum(content_bytes) AS b FROM (
             SELECT content_bytes FROM profiles WHERE tenant_id = $1 ORDER BY last_updated DESC, profile_id LIMIT $2
           ) p`,
          [tenantId, n],
        )
      )[0].b,
    )
  /** Counts the chunk reads of the search service (each one statement). */
  const countingReads = async (fn: (reads: () => number) => Promise<void>) => {
    const search = svc.profiler.services.search
    const original = search.read
    let n = 0
    search.read = async function (this: typeof search, ...args: Parameters<typeof original>): Promise<any[]> {
      n++
      return original.apply(this, args)
    }
    try {
      await fn(() => n)
    } finally {
      search.read = original
    }
  }

  it('REST: one operation per 256 KiB beyond the first, shown in RateLimit-*; reads of about 1 MiB each', async () => {
    const bytes = await pageBytes(20)
    expect(bytes).toBeGreaterThan(2_000_000)
    const cost = Math.ceil(bytes / unit) - 1
    await countingReads(async (reads) => {
      const before = await remaining()
      const r = await api.get('/v1/search?pageSize=20')
      expect(r.status).toBe(200)
      const body = (await r.json()) as any
      expect(body.profiles).toHaveLength(20)
      expect(body.total).toBe(20)
      const after = Number(r.headers.get('ratelimit-remaining'))
      expect(before - after).toBeGreaterThanOrEqual(1 + cost - 1)
      expect(before - after).toBeLessThanOrEqual(1 + cost + 1)
      // About 1 MiB of content per statement (2.4 MB in three), never more.
      expect(reads()).toBeGreaterThanOrEqual(Math.ceil(bytes / (1024 * 1024)))
      expect(reads()).toBeLessThanOrEqual(Math.ceil(bytes / (1024 * 1024)) + 1)
    })
    // A page within the first 256 KiB costs the request alone.
    const before = await remaining()
    const one = await api.get('/v1/search?pageSize=2')
    expect(one.status).toBe(200)
    expect(before - Number(one.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(2)
  })

  it('GraphQL: charged alike under the cap; over it 413, unread and uncharged; light selections uncapped', async () => {
    const full = (ps: number) =>
      `{ searchProfiles(pageSize: ${ps}) {
        total profiles { profile { profileId interests { category values { value } } } }
      } }`
    const five = await pageBytes(5)
    expect(five).toBeLessThan(1024 * 1024)
    await countingReads(async (reads) => {
      const before = await remaining()
      const ok = await gql(svc.url, svc.key, full(5))
      expect(ok.body.errors).toBeUndefined()
      expect(ok.body.data.searchProfiles.profiles).toHaveLength(5)
      const charged = before - Number(ok.headers.get('ratelimit-remaining'))
      expect(charged).toBeGreaterThanOrEqual(Math.ceil(five / unit) - 1)
      expect(charged).toBeLessThanOrEqual(Math.ceil(five / unit) + 1)
      const readsBefore = reads()

      const refusedAt = await remaining()
      const refused = await gql(svc.url, svc.key, full(20))
      expect(refused.body.data).toBeNull()
      expect(refused.body.errors).toHaveLength(1)
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 })
      const bytes = await pageBytes(20)
      expect(refused.body.errors[0].message).toContain(`hold ${bytes.toLocaleString('en-US')} bytes of content`)
      expect(refused.body.errors[0].message).toMatch(
        new RegExp(
          'at most 1,048,576 .*PROFILER_GRAPHQL_MAX_SEARCH_BYTES.*' +
            'fewer profiles \\(pageSize\\).*GET /v1/search, which streams',
        ),
      )
      expect(reads()).toBe(readsBefore)
      // Not charged by size: the request and its one root field.
      expect(refusedAt - Number(refused.headers.get('ratelimit-remaining'))).toBeLessThanOrEqual(2)

      // The cap is per operation: aliases share it.
      const twice = await gql(
        svc.url,
        svc.key,
        `{
          a: searchProfiles(pageSize: 5) { total profiles { profile { memories { event } } } }
          b: searchProfiles(pageSize: 5, page: 2) { total profiles { profile { custom } } }
        }`,
      )
      expect(twice.body.errors).toHaveLength(1)
      expect(twice.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE')
      expect(twice.body.errors[0].message).toMatch(/with [\d,]+ bytes of this operation's other search pages/)

      // Without the content's sections, no content is read: 20 profiles (and their names) whatever their size.
      const light = await gql(
        svc.url,
        svc.key,
        `{ searchProfiles(pageSize: 20) {
          total profiles { profile { profileId status summary coreInfo { name { value } } lastUpdated } }
        } }`,
      )
      expect(light.body.errors).toBeUndefined()
      expect(light.body.data.searchProfiles.profiles).toHaveLength(20)
    })
  })

  it('REST over the budget: 429 with Retry-After, before the page is read', async () => {
    const cost = Math.ceil((await pageBytes(20)) / unit) - 1
    await countingReads(async (reads) => {
      // Spend the budget down to between 1 and `cost` operations left: the search's request itself is then admitted and
      // its size charge refused. The sliding window only gives operations back over time, so when the budget has grown
      // again by the time of the search, it succeeds and the walk goes on; it never reaches 0, which would make the
      // plain per-request limit answer instead.
      let left = await remaining()
      let r: Response | undefined
      for (let i = 0; i < 400 && r?.status !== 429; i++) {
        if (left > cost && left < cost + 2) {
          r = await api.get('/v1/openapi.json')
        } else {
          r = await api.get('/v1/search?pageSize=20')
        }
        if (r.status === 429) break
        await r.arrayBuffer()
        left = Number(r.headers.get('ratelimit-remaining'))
        expect(left).toBeGreaterThanOrEqual(1)
      }
      expect(r!.status).toBe(429)
      const readsAtRefusal = reads()
      const body = (await r!.json()) as any
      expect(body.error).toBe(429)
      expect(body.message).toContain(`count ${cost} more operations`)
      expect(body.message).toMatch(/smaller pageSize/)
      expect(Number(r!.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(r!.headers.get('ratelimit-limit')).toBe('200')
      // The refused search read nothing.
      expect(reads()).toBe(readsAtRefusal)
      // What remains still serves a small page.
      if (Number(r!.headers.get('ratelimit-remaining')) >= 1)
        expect((await api.get('/v1/search?pageSize=1')).status).toBe(200)
    })
  })
})

describe('content_bytes: every writer of content keeps it', () => {
  let svc: TestService
  let api: Client
  let key: string
  beforeAll(async () => {
    svc = await startService()
    const app = await svc.profiler.services.tenants.createApp('bytes', 'app')
    key = app.api_key
    api = client(svc.url, key)
  })
  afterAll(async () => svc?.close())

  const row = async (id: string) => {
    const { tenantId } = await svc.profiler.services.tenants.authenticate(key, 't')
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT content_bytes, octet_length(content::text) AS actual
         FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, id],
    )
    return rows[0] as { content_bytes: number; actual: number } | undefined
  }
  const expectKept = async (id: string) => {
    const r = await row(id)
    expect(r, id).toBeDefined()
    expect(Number(r!.content_bytes)).toBe(Number(r!.actual))
    return Number(r!.content_bytes)
  }
  const json = async (r: Response) => {
    expect(r.status, await r.clone().text()).toBeLessThan(300)
    return r.json() as Promise<any>
  }

  it('a new profile, the worker, forget, rollback, re-extraction, import and a custom schema drop', async () => {
    const sizes: number[] = []
    // A profile as a POST creates it (its content the default {}, unless the worker was quicker), then the worker's
    // apply.
    expect((await api.post('ana', { data: 'I live in Porto and I love jazz.' })).status).toBe(202)
    await expectKept('ana')
    await api.waitReady('ana')
    sizes.push(await expectKept('ana'))
    expect((await api.post('ana', { data: 'I also love hiking and chess. I work as a nurse.' })).status).toBe(202)
    await waitFor('the second batch', () => api.profile('ana'), {
      until: (p) => p.status === 'ready' && p.update_log.length === 2,
    })
    sizes.push(await expectKept('ana'))
    // Forget.
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    await json(
      await fetch(`${svc.url}/v1/profile/ana/values`, {
        method: 'DELETE',
        headers: auth,
        body: JSON.stringify({ section: 'interests', value: 'chess' }),
      }),
    )
    sizes.push(await expectKept('ana'))
    // Rollback.
    await json(
      await fetch(`${svc.url}/v1/profile/ana/rollback`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ to_seq: 1 }),
      }),
    )
    sizes.push(await expectKept('ana'))
    // Re-extraction, applied.
    await json(await fetch(`${svc.url}/v1/profile/ana/reextract?dry_run=false`, { method: 'POST', headers: auth }))
    sizes.push(await expectKept('ana'))
    // Each write changed the size, and the column followed.
    expect(new Set(sizes).size).toBeGreaterThan(2)

    // Import (a new profile, then the same one replaced).
    const at = '2025-01-02T03:04:05.000Z'
    const file = (values: string[]) =>
      [
        {
          type: 'header',
          format: 'profiler-export',
          version: 1,
          tenant: { id: 'x', name: 'x' },
          exported_at: at,
          profile_id: null,
          include_text: false,
          profiles: 1,
        },
        {
          type: 'profile',
          profile_id: 'imp',
          status: 'ready',
          created_at: at,
          last_updated: at,
          summary: 'Dora.',
          language: 'en',
          core_info: { name: { value: 'Dora', confidence: 0.9 } },
          interests: { sports: values.map((value) => ({ value, confidence: 0.7 })) },
          personality: { traits: [], mood_trends: {} },
          memories: [],
          preferences: { topics_to_avoid: [] },
          field_timestamps: {},
          internals: { mood_counts: {}, seen: {} },
          history_seq: 0,
        },
        { type: 'end', profiles: 1, history: 0, submissions: 0 },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n'
    const imp = (values: string[]) =>
      fetch(`${svc.url}/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
        body: file(values),
      })
    await json(await imp(['sailing']))
    const small = await expectKept('imp')
    await json(await imp(['sailing', 'rowing', 'climbing', 'fencing']))
    expect(await expectKept('imp')).toBeGreaterThan(small)

    // A custom schema field dropped takes its values out of profiles.
    const put = (body: unknown) =>
      fetch(`${svc.url}/v1/schema`, { method: 'PUT', headers: auth, body: JSON.stringify(body) })
    await json(
      await put({
        sections: {
          diet: { restrictions: { type: 'string[]', description: 'Dietary restrictions' } },
          misc: { note: { type: 'string', description: 'A note' } },
        },
      }),
    )
    expect(
      (
        await api.post('cus', {
          input_type: 'structured',
          data: JSON.stringify({ custom: { diet: { restrictions: ['vegetarian', 'gluten-free'] } } }),
        })
      ).status,
    ).toBe(202)
    const withCustom = (await api.waitReady('cus')).custom
    expect(withCustom.diet.restrictions).toHaveLength(2)
    const before = await expectKept('cus')
    expect(
      await json(await put({ sections: { misc: { note: { type: 'string', description: 'A note' } } } })),
    ).toMatchObject({ dropped_fields: ['diet.restrictions'], profiles_updated: 1 })
    expect(await expectKept('cus')).toBeLessThan(before)
  })

  it('the migration fills it for the profiles stored before it', async () => {
    const ds = svc.profiler.db.dataSource
    const { ProfileContentBytes1764400000910: Migration } = await import(
      '../../migrations/1764400000910-ProfileContentBytes.js'
    )
    const runner = ds.createQueryRunner()
    try {
      await new Migration().down(runner)
      await new Migration().up(runner)
    } finally {
      await runner.release()
    }
    const [r] = await ds.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE content_bytes = octet_length(content::text))::int AS kept
         FROM profiles`,
    )
    expect(r.n).toBeGreaterThanOrEqual(3)
    expect(r.kept).toBe(r.n)
  })
})

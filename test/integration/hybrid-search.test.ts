// Hybrid search (GET /v1/search and GraphQL searchProfiles with a query): the vector and the profile's words. Through
// the whole service, on the database of the run (embedded PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GinPendingLists1764400001600, PENDING_LIST_KB } from '../../migrations/1764400001600-GinPendingLists.js'
import { TenantWordIndexes1764400001700 } from '../../migrations/1764400001700-TenantWordIndexes.js'
import { openCli } from '../../src/app.js'
import { COVER_SCORE, everyWord, LEXICAL_SCORE, queryTerms } from '../../src/domain/lexical.js'
import { gql } from '../support/graphql-client.js'
import { client, SERVER_URL, startService, testConfig, type Client, type TestService } from '../support/harness.js'

// A profile with many values: its embedding is the mean of all of them, so one rare word in it (a surname, a village,
// an instrument) is diluted below the vector's threshold. Its words find it.
const hobbies = Array.from(
  { length: 40 },
  (_, i) => `${['gardening', 'chess', 'cycling', 'baking', 'opera', 'poetry', 'sailing', 'pottery'][i % 8]} club ${i}`,
)
const people = [
  {
    id: 'wide',
    core_info: { name: 'Zbigniew Brzęczyszczykiewicz', location: 'Szczebrzeszyn' },
    interests: { hobbies, music: ['harpsichord sonatas'] },
  },
  { id: 'jazz', core_info: { name: 'Alice', location: 'Austin, Texas' }, interests: { music: ['jazz', 'blues'] } },
  {
    id: 'turtle',
    core_info: { name: 'Bob', location: 'Seattle' },
    interests: { pets: ['turtles'], hobbies: ['fishing'] },
  },
  { id: 'tokyo', core_info: { name: '佐藤', location: '東京' }, interests: { food: ['ramen'] } },
]

describe('hybrid search: the vector and the words', () => {
  let svc: TestService
  let api: Client
  const ids = (r: any) => r.profiles.map((p: any) => p.profile_id)
  const scores = (r: any) => Object.fromEntries(r.profiles.map((p: any) => [p.profile_id, p.similarityScore]))

  beforeAll(async () => {
    svc = await startService()
    api = client(svc.url, svc.key)
    for (const p of people) {
      const { id, ...data } = p
      expect((await api.post(id, { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
    }
    for (const p of people) await api.waitReady(p.id)
  })
  afterAll(async () => svc?.close())

  it("stores each profile's words folded and stemmed, as a tsvector the GIN index serves", async () => {
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT lexemes::text AS l FROM profiles WHERE profile_id = 'wide'`,
    )
    for (const w of ['zbigniew', 'brzeczyszczykiewicz', 'szczebrzeszyn', 'harpsichord', 'sonata', 'garden'])
      expect(row.l).toContain(`'${w}'`)
    const [idx] = await svc.profiler.db.dataSource.query(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'profiles_tenant_lexemes'`,
    )
    expect(idx.indexdef).toMatch(/USING gin \(tenant_id, lexemes\)/)
  })

  it('word indexes lead with the tenant, 256 kB pending lists at most; migrations undone and redone', async () => {
    const ds = svc.profiler.db.dataSource
    const names = ['passages_tenant_tsv', 'profiles_tenant_lexemes', 'passages_tsv', 'profiles_lexemes']
    const indexes = async () =>
      Object.fromEntries(
        (
          await ds.query(
            `SELECT c.relname, c.reloptions, regexp_replace(i.indexdef, '^.* USING (.*?)( WITH .*)?$', '\\1') AS def
               FROM pg_class c JOIN pg_indexes i ON i.indexname = c.relname
              WHERE c.relname = ANY($1) ORDER BY c.relname`,
            [names],
          )
        ).map((r: any) => [r.relname, [r.def, r.reloptions]]),
      )
    const pending = [`gin_pending_list_limit=${PENDING_LIST_KB}`]
    const now = {
      passages_tenant_tsv: ['gin (tenant_id, tsv)', pending],
      profiles_tenant_lexemes: ['gin (tenant_id, lexemes)', pending],
    }
    expect(await indexes()).toEqual(now)
    const runner = ds.createQueryRunner()
    try {
      await new TenantWordIndexes1764400001700().down(runner)
      expect(await indexes()).toEqual({
        passages_tsv: ['gin (tsv)', pending],
        profiles_lexemes: ['gin (lexemes)', pending],
      })
      await new GinPendingLists1764400001600().down(runner)
      expect(await indexes()).toEqual({ passages_tsv: ['gin (tsv)', null], profiles_lexemes: ['gin (lexemes)', null] })
      await new GinPendingLists1764400001600().up(runner)
      await new TenantWordIndexes1764400001700().up(runner)
    } finally {
      await runner.release()
    }
    expect(await indexes()).toEqual(now)
    // Searches still find by the words, through the rebuilt indexes.
    expect(ids(await api.search({ query: 'harpsichord' }))).toEqual(['wide'])
  })

  it('finds a rare word the vector alone misses, scored on the same 0-100 scale', async () => {
    for (const query of [
      'harpsichord',
      'Szczebrzeszyn',
      'zbigniew brzeczyszczykiewicz',
      'Brzęczyszczykiewicz',
      'likes harpsichords',
    ]) {
      const r = await api.search({ query })
      expect(ids(r), query).toEqual(['wide'])
      expect(r.total).toBe(1)
      // At least the lexical score; and its own vector score, 100 - (100 - score) * 100 / (100 - lex), is below 63: the
      // vector alone would not have returned it. The profile has no passages (structured data), so its cover is its
      // terms.
      const s = r.profiles[0].similarityScore
      const lex = LEXICAL_SCORE + (COVER_SCORE * queryTerms(query).length) / everyWord(query).length
      expect(s).toBeGreaterThanOrEqual(LEXICAL_SCORE)
      expect(100 - ((100 - s) * 100) / (100 - lex)).toBeLessThan(63)
    }
    // Stemmed and folded on both sides; names in any script match as written.
    expect(ids(await api.search({ query: 'has a pet turtle' }))).toEqual(['turtle'])
    expect(ids(await api.search({ query: '東京' }))).toEqual(['tokyo'])
  })

  it('sensitivity filters: past the lexical score a match needs its vector too; total agrees with page', async () => {
    const all = await api.search({ query: 'harpsichord', sensitivity: 0, pageSize: 100 })
    expect(all.total).toBe(people.length)
    expect(ids(all)[0]).toBe('wide')
    for (const s of [0, 40, 63, 80, 85, 95, 100]) {
      const r = await api.search({ query: 'harpsichord', sensitivity: s, pageSize: 100 })
      const expected = all.profiles.filter((p: any) => p.similarityScore >= s).map((p: any) => p.profile_id)
      expect(ids(r), `sensitivity ${s}`).toEqual(expected)
      expect(r.total).toBe(expected.length)
    }
    // Every word of this query is held, so the lexical score is LEXICAL_SCORE + COVER_SCORE: above it the vector
    // decides.
    expect((await api.search({ query: 'harpsichord', sensitivity: 100 })).total).toBe(0)
    expect((await api.search({ query: 'likes harpsichord', sensitivity: 95 })).total).toBe(0)
  })

  it('nothing for unrelated queries, nor for a frame word alone ("has a pet axolotl" vs a turtle owner)', async () => {
    for (const query of [
      'has a pet axolotl',
      'quantum chromodynamics lattice simulations',
      'enjoys falconry',
      'likes eating durian',
    ]) {
      expect(await api.search({ query }), query).toMatchObject({ profiles: [], total: 0 })
    }
  })

  it('paging and filters: pages are slices of one ranking, the total counts every match', async () => {
    const whole = await api.search({ query: 'harpsichord', sensitivity: 0, pageSize: 100 })
    const pages = await Promise.all(
      [1, 2, 3].map((page) => api.search({ query: 'harpsichord', sensitivity: 0, pageSize: 2, page })),
    )
    expect(pages.flatMap(ids)).toEqual(ids(whole))
    for (const p of pages) expect(p.total).toBe(whole.total)
    expect(ids(await api.search({ query: 'harpsichord', filterBy: 'name', filterValue: 'zbig' }))).toEqual(['wide'])
    expect(await api.search({ query: 'harpsichord', filterBy: 'name', filterValue: 'alice' })).toMatchObject({
      profiles: [],
      total: 0,
    })
  })

  it("another tenant's words are not found", async () => {
    const other = client(svc.url, (await svc.profiler.services.tenants.createApp('other-tenant', 'app')).api_key)
    expect(await other.search({ query: 'harpsichord', sensitivity: 0 })).toMatchObject({ profiles: [], total: 0 })
    expect(
      (
        await other.post('mine', {
          input_type: 'structured',
          data: JSON.stringify({ interests: { music: ['harpsichord'] } }),
        })
      ).status,
    ).toBe(202)
    await other.waitReady('mine')
    expect(ids(await other.search({ query: 'harpsichord' }))).toEqual(['mine'])
    expect(ids(await api.search({ query: 'harpsichord' }))).toEqual(['wide'])
  })

  it('hostile queries: operators, quotes, stop words only, punctuation only, 10,000 characters, unicode', async () => {
    const hostile = [
      `'harpsichord'`,
      `"harpsichord"`,
      `harpsichord & !jazz | (blues) <-> sonata:* \\ '' ''`,
      `!!! ??? &&& ||| ::: *** ((( ))) <-> '' ""`,
      `the a of and is it`,
      `has a`,
      'harpsichord '.repeat(900).slice(0, 10_000),
      Array.from({ length: 2000 }, (_, i) => `word${i}`)
        .join(' ')
        .slice(0, 10_000),
      '🎹🎻 harpsichord 👩‍👩‍👧 \u202Eharpsichord\u202C ﷺ e\u0301e\u0301',
      'x'.repeat(10_000),
    ]
    for (const query of hostile) {
      const r = await api.search({ query })
      expect(r.total, query.slice(0, 40)).toBe(r.profiles.length)
      for (const p of r.profiles) expect(p.similarityScore).toBeGreaterThanOrEqual(63)
    }
    // The words still count inside the noise.
    expect(ids(await api.search({ query: `!harpsichord:* & | (( <-> '' "` }))).toEqual(['wide'])
    expect(ids(await api.search({ query: 'harpsichord '.repeat(900) }))).toEqual(['wide'])
    // A NUL is refused, as before, with a 400 that says where.
    const bad = await api.get(`/v1/search?query=${encodeURIComponent('harp\u0000sichord')}`)
    expect(bad.status).toBe(400)
  })

  it('total and page: together on a server, in turn on the embedded database (requests may interleave)', async () => {
    const m = svc.profiler.db.dataSource.manager
    const query = m.query.bind(m)
    const calls: { kind: 'total' | 'page'; start: number; end?: number }[] = []
    m.query = (async (sql: string, args?: unknown[]) => {
      const kind = /\bAS total\b/.test(sql) ? 'total' : /\blexical_count\b/.test(sql) ? 'page' : undefined
      const call = kind && ({ kind, start: performance.now() } as (typeof calls)[number])
      if (call) calls.push(call)
      try {
        return await query(sql, args)
      } finally {
        if (call) call.end = performance.now()
      }
    }) as typeof m.query
    try {
      expect(ids(await api.search({ query: 'harpsichord' }))).toEqual(['wide'])
    } finally {
      m.query = query
    }
    expect(calls.map((c) => c.kind).sort()).toEqual(['page', 'total'])
    const [page, total] = [calls.find((c) => c.kind === 'page')!, calls.find((c) => c.kind === 'total')!]
    if (SERVER_URL) expect(total.start).toBeLessThan(page.end!)
    else expect(total.start).toBeGreaterThanOrEqual(page.end!)
  })

  it('GraphQL searchProfiles ranks the same way', async () => {
    const res = await gql(
      svc.url,
      svc.key,
      `query ($q: String) { searchProfiles(query: $q) { total profiles { similarityScore profile { profileId } } } }`,
      {
        q: 'Szczebrzeszyn',
      },
    )
    expect(res.body.errors).toBeUndefined()
    const rest = await api.search({ query: 'Szczebrzeszyn' })
    expect(res.body.data.searchProfiles.total).toBe(rest.total)
    expect(res.body.data.searchProfiles.profiles.map((h: any) => [h.profile.profileId, h.similarityScore])).toEqual(
      Object.entries(scores(rest)),
    )
  })

  it('profiles from before hybrid search (no lexemes) found by vector; the reindex gives them words', async () => {
    await svc.profiler.db.dataSource.query(`UPDATE profiles SET lexemes = NULL WHERE profile_id = 'wide'`)
    expect(await api.search({ query: 'harpsichord' })).toMatchObject({ profiles: [], total: 0 })
    const cli = await openCli(testConfig(svc.db))
    try {
      const reindexer = await cli.reindexer()
      expect(await reindexer.run(() => {})).toBe(1)
    } finally {
      await cli.close()
    }
    expect(ids(await api.search({ query: 'harpsichord' }))).toEqual(['wide'])
  })
})

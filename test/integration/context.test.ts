import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { gqlApi, type GqlApi } from '../support/graphql-client.js'
import {
  client,
  freshDatabase,
  startService,
  testEnv,
  type Client,
  type TestDatabase,
  type TestService,
} from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'

// GET /v1/profile/{id}/context and Profile.context (docs/guides/context.md), on the real service with the local
// provider. Token counts are checked with the same tokenizer (o200k_base) the service uses, over the whole returned
// text.

const alice = {
  core_info: {
    name: 'Alice Moreau',
    age: 34,
    location: { value: 'Lagos', confidence: 0.9 },
    occupation: { value: 'nurse', confidence: 0.8 },
  },
  interests: {
    music: [
      { value: 'jazz', confidence: 0.6 },
      { value: 'playing the saxophone', confidence: 0.5 },
      { value: 'afrobeat concerts', confidence: 0.55 },
    ],
    sports: [
      { value: 'football', confidence: 0.95 },
      { value: 'tennis', confidence: 0.9 },
    ],
    food: [
      { value: 'jollof rice', confidence: 0.92 },
      { value: 'sushi', confidence: 0.85 },
    ],
    books: [{ value: 'science fiction', confidence: 0.88 }],
    hobbies: [
      { value: 'gardening', confidence: 0.93 },
      { value: 'photography', confidence: 0.91 },
    ],
  },
  personality: {
    traits: [
      { value: 'curious', confidence: 0.97 },
      { value: 'patient', confidence: 0.9 },
    ],
  },
  memories: [
    { event: 'Ran the Lagos marathon', date: '2024-05-01', importance: 'high' },
    { event: 'Moved flats', date: '2023-02-11' },
  ],
  preferences: {
    conversation_style: { value: 'warm and direct', confidence: 0.8 },
    topics_to_avoid: [{ value: 'politics', confidence: 0.9 }],
  },
}

const unicode = {
  core_info: { name: 'Zoë 李小龍 🦊', location: 'São Paulo' },
  interests: {
    emoji: ['🎸 guitar 🎶', '👩🏽‍🚀 space travel', 'naïve café crème'],
    music: ['ﷺ and ॐ chants', 'Ελληνική μουσική'],
  },
}

/** A profile with `n` interests spread over categories, confidences all different. */
function big(n: number) {
  const interests: Record<string, { value: string; confidence: number }[]> = {}
  for (let i = 0; i < n; i++) {
    const cat = `category_${i % 17}`
    ;(interests[cat] ??= []).push({
      value: `hobby number ${i} with a somewhat longer description ${'x'.repeat(i % 23)}`,
      confidence: Math.round((0.3 + (i % 70) / 100) * 1000) / 1000,
    })
  }
  return { core_info: { name: 'Big' }, interests }
}

describe('context for an LLM (GET /v1/profile/{id}/context, Profile.context)', () => {
  let svc: TestService
  let api: Client
  let gql: GqlApi

  const ctx = async (id: string, params: Record<string, string | number> = {}, by: Client = api) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
    const r = await by.get(`/v1/profile/${encodeURIComponent(id)}/context?${qs}`)
    const body = (await r.json()) as any
    if (r.status !== 200) throw new Error(`context ${id}: ${r.status} ${JSON.stringify(body)}`)
    return body
  }
  const status = async (path: string) => {
    const r = await api.get(path)
    return { status: r.status, body: (await r.json()) as any }
  }
  const lines = (text: string) => text.split('\n')

  beforeAll(async () => {
    svc = await startService()
    api = client(svc.url, svc.key)
    gql = gqlApi(svc.url, svc.key)
    for (const [id, data] of [
      ['alice', alice],
      ['unicode', unicode],
      ['big', big(400)],
    ] as const) {
      expect((await api.post(id, { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
    }
    for (const id of ['alice', 'unicode', 'big']) await api.waitReady(id, 60_000)
  }, 120_000)
  afterAll(async () => svc?.close())

  it('fits every budget by an exact count, never cuts a fact, and a larger budget gives a superset', async () => {
    let previous: string[] = []
    for (const max of [16, 64, 256, 4000]) {
      const c = await ctx('alice', { max_tokens: max })
      expect(c.tokens).toBe(countTokens(c.text))
      expect(c.tokens).toBeLessThanOrEqual(max)
      expect(c).toMatchObject({
        profile_id: 'alice',
        status: 'ready',
        max_tokens: max,
        encoding: 'o200k_base',
        ranked_by: 'confidence',
      })
      expect(lines(c.text)[0]).toBe('About Alice Moreau:')
      const mine = lines(c.text)
      for (const l of previous) expect(mine).toContain(l)
      previous = mine
      if (max === 4000) {
        expect(c.truncated).toBe(false)
        expect(c.facts_included).toBe(c.facts_total)
      }
      if (max === 16) expect(c.truncated).toBe(true)
    }
    const all = await ctx('alice', { max_tokens: 4000 })
    // Every fact is a whole line of the full text (no fact cut in the middle at any budget).
    for (const max of [20, 30, 45, 70, 100]) {
      const c = await ctx('alice', { max_tokens: max })
      for (const l of lines(c.text)) expect(lines(all.text)).toContain(l)
      expect(c.truncated).toBe(true)
      expect(c.facts_included).toBeLessThan(all.facts_included)
    }
    // 3 basics + 10 interests + 2 traits + 2 preferences + 2 memories; the name is the header.
    expect(all.facts_total).toBe(19)
    expect(all.text).toContain('- Lives in Lagos')
    expect(all.text).toContain('- 1 May 2024: Ran the Lagos marathon')
    expect(all.text).toContain('- Avoid talking about: politics')
    // Most confident first: the age (a bare structured value: 1.0) opens the text; then the top trait (0.97); jazz
    // (0.6) after football (0.95); sections in the order of their best fact.
    expect(lines(all.text).slice(1, 3)).toEqual(['Basics:', '- Age 34'])
    expect(all.text.indexOf('Trait: curious')).toBeLessThan(all.text.indexOf('Trait: patient'))
    expect(all.text.indexOf('Basics:')).toBeLessThan(all.text.indexOf('Personality:'))
    expect(all.text.indexOf('sports: football')).toBeLessThan(all.text.indexOf('music: jazz'))
  })

  it('a budget too small for the header gives an empty text, flagged truncated', async () => {
    const c = await ctx('alice', { max_tokens: 1 })
    expect(c).toMatchObject({ text: '', tokens: 0, facts_included: 0, truncated: true })
  })

  it('with a query, the relevant facts come first; same arguments, same text', async () => {
    const c = await ctx('alice', { max_tokens: 4000, query: 'music' })
    expect(c.ranked_by).toBe('query')
    const facts = lines(c.text).filter((l) => l.startsWith('- '))
    expect(facts.slice(0, 3).sort()).toEqual([
      '- music: afrobeat concerts',
      '- music: jazz',
      '- music: playing the saxophone',
    ])
    expect(lines(c.text)[1]).toBe('Interests:')
    // A small budget keeps the music facts, not the more confident others.
    const small = await ctx('alice', { max_tokens: 30, query: 'music' })
    expect(small.text).toContain('music: jazz')
    expect(small.text).not.toContain('football')
    expect(small.tokens).toBe(countTokens(small.text))
    const food = await ctx('alice', { max_tokens: 4000, query: 'what food does she eat' })
    expect(
      lines(food.text)
        .filter((l) => l.startsWith('- '))
        .slice(0, 2)
        .sort(),
    ).toEqual(['- food: jollof rice', '- food: sushi'])
    for (let i = 0; i < 3; i++) expect(await ctx('alice', { max_tokens: 4000, query: 'music' })).toEqual(c)
    // Whitespace around and inside the query does not change the answer; an empty query is no query.
    expect(await ctx('alice', { max_tokens: 4000, query: '  music \n' })).toEqual(c)
    expect((await ctx('alice', { max_tokens: 4000, query: '   ' })).ranked_by).toBe('confidence')
  })

  it('a query that asks only what the person likes lists their interests first, as matching it', async () => {
    // A tenant of its own: the other tests count this tenant's profiles.
    const own = client(svc.url, (await svc.profiler.services.tenants.createApp('context-likes', 'app')).api_key)
    const data =
      'I work as a nurse in Oslo. I like hiking in the mountains. I love jazz. ' +
      'My brother likes football, he says it is like a religion.'
    expect((await own.post('liker', { data })).status).toBe(202)
    await own.waitReady('liker')
    const sections = (text: string) =>
      lines(text).filter((l) => /^(Basics|Interests|What they said|Memories|Personality):$/.test(l))
    for (const query of ['What does she like?', 'What did they say about love?', 'enjoys']) {
      const c = await ctx('liker', { query, max_tokens: 60 }, own)
      expect(sections(c.text)[0], query).toBe('Interests:')
      expect(c.text, query).toMatch(/hiking/)
      expect(c.text, query).toMatch(/jazz/)
    }
    // Facts only: the interests before the occupation, whatever their words.
    const facts = lines((await ctx('liker', { query: 'What does she like?', include: 'facts' }, own)).text).filter(
      (l) => l.startsWith('- '),
    )
    expect(facts.findIndex((l) => /nurse/.test(l))).toBeGreaterThan(facts.findIndex((l) => /jazz|hiking/.test(l)))
    // A topic beside the liking word is a query like any other: what says it comes first, here the standing fact
    // that names the brother (docs/guides/the-profile.md, "Standing facts"), not the person's interests.
    const topic = await ctx('liker', { query: 'Does their brother like football?', max_tokens: 60 }, own)
    expect(sections(topic.text)[0]).toBe('Memories:')
    expect(topic.text).toMatch(/their brother likes football/)
  })

  it('unicode and emoji: the count is exact', async () => {
    for (const max of [8, 24, 64, 4000]) {
      const c = await ctx('unicode', { max_tokens: max })
      expect(c.tokens).toBe(countTokens(c.text))
      expect(c.tokens).toBeLessThanOrEqual(max)
    }
    const full = await ctx('unicode', { max_tokens: 4000, query: '🎸 guitar' })
    expect(full.text.startsWith('About Zoë 李小龍 🦊:')).toBe(true)
    expect(full.text).toContain('👩🏽‍🚀 space travel')
    expect(lines(full.text).find((l) => l.startsWith('- '))).toBe('- emoji: 🎸 guitar 🎶')
  })

  it("text that spells a tokenizer's special tokens is counted as plain text, not refused", async () => {
    const data = {
      core_info: { name: { value: 'Eve', confidence: 0.9 } },
      interests: { other: [{ value: '<|endoftext|> and <|im_start|>', confidence: 0.9 }] },
    }
    expect((await api.post('special', { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
    await api.waitReady('special')
    const c = await ctx('special', { max_tokens: 4000, query: 'endoftext' })
    expect(c.text).toContain('<|endoftext|> and <|im_start|>')
    expect(c.tokens).toBe(countTokens(c.text, { disallowedSpecial: new Set() }))
    // The tests below count this tenant's profiles.
    expect((await api.del('special')).status).toBe(204)
  })

  it('hundreds of facts: bounded time, the budget filled, linear in the profile', async () => {
    const t0 = performance.now()
    const c = await ctx('big', { max_tokens: 32000 })
    const full = performance.now() - t0
    expect(c.facts_total).toBe(400)
    expect(c.tokens).toBe(countTokens(c.text))
    expect(c.tokens).toBeLessThanOrEqual(32000)
    expect(c.facts_included).toBe(400)
    const small = await ctx('big', { max_tokens: 500 })
    expect(small.tokens).toBeLessThanOrEqual(500)
    expect(small.tokens).toBeGreaterThan(450) // greedy fill: close to the budget, lines are ~15 tokens
    expect(small.truncated).toBe(true)
    // Highest confidence first: 0.99 is i % 70 === 69.
    expect(lines(small.text)[2]).toMatch(/^- category \d+: hobby number (69|139|209|279|349) /)
    const t1 = performance.now()
    const q = await ctx('big', { max_tokens: 2000, query: 'hobby number 123' })
    const queried = performance.now() - t1
    expect(lines(q.text)[2]).toMatch(/^- category 4: hobby number 123 /)
    // Generous bounds for 2 loaded cores; typical runs take a few tens of milliseconds.
    expect(full).toBeLessThan(5000)
    expect(queried).toBeLessThan(10_000)
  })

  it('rejects bad arguments with 400 and names them', async () => {
    for (const bad of ['0', '-5', '1.5', 'abc', '32001', '99999999999', '', '1e3']) {
      const r = await status(`/v1/profile/alice/context?max_tokens=${encodeURIComponent(bad)}`)
      expect(r.status, bad).toBe(400)
      expect(r.body.message).toMatch(/max_tokens/)
    }
    expect((await status('/v1/profile/alice/context?max_tokens=1&max_tokens=2')).status).toBe(400)
    const long = await status(`/v1/profile/alice/context?query=${'a'.repeat(1001)}`)
    expect(long.status).toBe(400)
    expect(long.body.message).toMatch(/query/)
    expect((await status(`/v1/profile/alice/context?query=${'a'.repeat(1000)}`)).status).toBe(200)
    expect((await status(`/v1/profile/alice/context?query=a%00b`)).status).toBe(400)
    expect((await status(`/v1/profile/${'x'.repeat(201)}/context`)).status).toBe(400)
    // Without max_tokens: the default budget, 1000.
    expect((await ctx('alice')).max_tokens).toBe(1000)
  })

  it("404 for an unknown profile and for another tenant's profile", async () => {
    expect((await status('/v1/profile/nobody/context')).status).toBe(404)
    const bKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    const other = client(svc.url, bKey)
    expect((await other.get('/v1/profile/alice/context')).status).toBe(404)
    const og = await gqlApi(svc.url, bKey).data('{ profile(id: "alice") { context { text } } }')
    expect(og.profile).toBeNull()
  })

  it('a profile still processing answers with what it holds, flagged (an API process with no worker)', async () => {
    const apiOnly = await startService({ role: 'api' })
    try {
      const a = client(apiOnly.url, apiOnly.key)
      expect(
        (await a.post('pending', { input_type: 'structured', data: JSON.stringify({ core_info: { name: 'Pat' } }) }))
          .status,
      ).toBe(202)
      const r = await a.get('/v1/profile/pending/context?max_tokens=50')
      expect(r.status).toBe(200)
      expect(await r.json()).toMatchObject({
        status: 'processing',
        text: 'About this person (name unknown):',
        facts_total: 0,
        truncated: false,
      })
    } finally {
      await apiOnly.close()
    }
  }, 60_000)

  it('GraphQL: the same text, arguments validated', async () => {
    const rest = await ctx('alice', { max_tokens: 100, query: 'music' })
    const d = await gql.data(
      `query ($id: ID!, $q: String) { profile(id: $id) { context(maxTokens: 100, query: $q) {
        text tokens maxTokens encoding factsIncluded factsTotal summaryIncluded truncated rankedBy
      } } }`,
      { id: 'alice', q: 'music' },
    )
    expect(d.profile.context).toEqual({
      text: rest.text,
      tokens: rest.tokens,
      maxTokens: 100,
      encoding: 'o200k_base',
      factsIncluded: rest.facts_included,
      factsTotal: rest.facts_total,
      summaryIncluded: rest.summary_included,
      truncated: rest.truncated,
      rankedBy: 'query',
    })
    const def = await gql.data('{ profile(id: "alice") { context { maxTokens tokens } } }')
    expect(def.profile.context.maxTokens).toBe(1000)
    // At most 10 context fields per operation, counted before it runs (see graphql-limits.test.ts).
    const many = (n: number) => {
      const contexts = Array.from({ length: n }, (_, i) => `c${i}: context(maxTokens: ${10 + i}) { tokens }`)
      return `{ profile(id: "alice") { ${contexts.join(' ')} } }`
    }
    const ten = await gql.data(many(10))
    expect(Object.values(ten.profile).map((c: any) => c.tokens <= 19)).toEqual(Array(10).fill(true))
    const eleven = await gql.raw(many(11))
    expect(eleven.status).toBe(400)
    expect(eleven.body.data).toBeUndefined()
    expect(JSON.stringify(eleven.body.errors)).toMatch(/at most 10 in one operation/)
    // A search's page counts whole, however many profiles it finds (3 here).
    const bySearch = await gql.raw(
      '{ searchProfiles(pageSize: 5) { profiles { profile { context(maxTokens: 50) { tokens } } } } }',
    )
    expect(bySearch.body.data.searchProfiles.profiles.length).toBe(3)
    expect(bySearch.body.errors ?? []).toHaveLength(0)
    expect(
      JSON.stringify(
        (
          await gql.raw(
            '{ searchProfiles(pageSize: 20) { profiles { profile { context(maxTokens: 50) { tokens } } } } }',
          )
        ).body.errors,
      ),
    ).toMatch(/would resolve 20/)
    for (const bad of [0, -1, 32001]) {
      const r = await gql.raw(`{ profile(id: "alice") { context(maxTokens: ${bad}) { text } } }`)
      expect(JSON.stringify(r.body.errors)).toMatch(/max_tokens|maxTokens/)
    }
  })
})

describe('context for an LLM with PROFILER_AI=openai (the real SDK against the local OpenAI-compatible server)', () => {
  let oa: OpenAIServer
  let db: TestDatabase
  let profiler: Profiler & { bootstrapKey?: string }
  let api: Client

  beforeAll(async () => {
    oa = await startOpenAIServer()
    db = await freshDatabase()
    profiler = await startProfiler(loadConfig(testEnv(db, openaiEnv(oa))), { role: 'all' })
    api = client(profiler.url!, profiler.bootstrapKey!)
    expect((await api.post('alice', { input_type: 'structured', data: JSON.stringify(alice) })).status).toBe(202)
    await api.waitReady('alice', 60_000)
  }, 120_000)
  afterAll(async () => {
    await profiler?.close()
    await db?.drop()
    await oa?.close()
  })

  const ctx = async (params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
    const r = await api.get(`/v1/profile/alice/context?${query}`)
    expect(r.status).toBe(200)
    return (await r.json()) as any
  }

  it('ranks by the provider embedder: one request for the facts, none for a repeat; lexical if it fails', async () => {
    const before = oa.embeddingRequests().length
    const c = await ctx({ max_tokens: 4000, query: 'music' })
    expect(c.ranked_by).toBe('query')
    expect(c.tokens).toBe(countTokens(c.text))
    const facts = c.text.split('\n').filter((l: string) => l.startsWith('- '))
    expect(facts.slice(0, 3).sort()).toEqual([
      '- music: afrobeat concerts',
      '- music: jazz',
      '- music: playing the saxophone',
    ])
    const sent = oa.embeddingRequests().slice(before)
    expect(sent).toHaveLength(1)
    // The query and each of the 19 facts, once.
    expect((sent[0]!.body as any).input).toHaveLength(20)
    // Cached: the same request again embeds nothing and answers the same.
    expect(await ctx({ max_tokens: 4000, query: 'music' })).toEqual(c)
    expect(oa.embeddingRequests().length).toBe(before + 1)
    // A new query embeds only the query.
    await ctx({ max_tokens: 4000, query: 'sports' })
    expect(
      oa
        .embeddingRequests()
        .slice(before + 1)
        .map((r) => (r.body as any).input),
    ).toEqual([['sports']])

    // The provider failing: still an answer, ranked by shared words, flagged.
    oa.faults.add({ endpoint: 'embeddings', status: 500 }, 20)
    const lexical = await ctx({ max_tokens: 4000, query: 'food' })
    oa.faults.clear()
    expect(lexical.ranked_by).toBe('query_lexical')
    expect(
      lexical.text
        .split('\n')
        .filter((l: string) => l.startsWith('- '))
        .slice(0, 2)
        .sort(),
    ).toEqual(['- food: jollof rice', '- food: sushi'])
    for (const max of [16, 64, 256]) {
      const b = await ctx({ max_tokens: max, query: 'music' })
      expect(b.tokens).toBe(countTokens(b.text))
      expect(b.tokens).toBeLessThanOrEqual(max)
    }
  }, 60_000)
})

// Typo tolerance of hybrid search (docs/guides/search.md "Typos"): a query word that is no common dictionary word is
// also matched as the dictionary words one edit away, or as two words, when nothing holds it as written. Through the
// whole service (REST and GraphQL), on the database of the run (embedded PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { TypoDictionary } from '../../src/services/typo-dictionary.js'

describe('search: a misspelt query word finds what the tenant holds', () => {
  let svc: TestService
  let api: Client
  let other: Client
  /** A third tenant, with the conversation whose context's passages are looked up. */
  let talk: Client
  let talkKey: string
  const ids = (r: any) => r.profiles.map((p: any) => p.profile_id).sort()

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
    other = client(svc.url, (await svc.profiler.services.tenants.createApp('other', 'app')).api_key)
    talkKey = (await svc.profiler.services.tenants.createApp('talk', 'app')).api_key
    talk = client(svc.url, talkKey)
    const texts: [Client, string, string][] = [
      [api, 'food', 'My favourite food is shawarma. I work as a nurse.'],
      [api, 'films', 'I am a huge star wars fan. I live in Oslo.'],
      [api, 'origin', 'I grew up in the industry. My dad was a welder.'],
      [api, 'model', 'I do some modeling on weekends.'],
      [api, 'car', 'Yesterday the mechanic told me the carburettor is fine.'],
      [other, 'pets', 'I have a pet axolotl named Gus.'],
    ]
    for (const [c, id, data] of texts) expect((await c.post(id, { data })).status).toBe(202)
    // Values only (no passages): the misspelt word is corrected towards a profile's own words too.
    expect(
      (
        await api.post('music', {
          input_type: 'structured',
          data: JSON.stringify({ interests: { music: ['harpsichord sonatas'] } }),
        })
      ).status,
    ).toBe(202)
    // A conversation of many turns, one of them about shawarma (a context's passages).
    const turns = FILLER.flatMap((t, i) => [
      { role: 'assistant', content: `What else happened (${i})?` },
      { role: 'user', content: t },
    ])
    turns.splice(
      24,
      0,
      { role: 'assistant', content: 'And to eat?' },
      { role: 'user', content: 'Shawarma, always. There is a stall by the station.' },
    )
    expect((await talk.post('chat', { input_type: 'conversation', data: JSON.stringify(turns) })).status).toBe(202)
    for (const [c, id] of texts) await c.waitReady(id)
    await api.waitReady('music')
    await talk.waitReady('chat')
  })
  afterAll(async () => svc?.close())

  it('finds what the query meant: a letter more, less, swapped or replaced, or two words written as one', async () => {
    for (const [query, id] of [
      ['likes schawarma', 'food'], // a letter more
      ['is from the industryy', 'origin'],
      ['likes watching starwars', 'films'], // two words as one
      ['likes harpsicord', 'music'], // a letter less, in a profile's values
      ['likes harpsihcord', 'music'], // swapped
    ] as const) {
      const r = await api.search({ query })
      expect(ids(r), query).toEqual([id])
      expect(r.total, query).toBe(1)
      // Scored as a lexical match (at least 80), as the query spelt right is.
      expect(r.profiles[0].similarityScore, query).toBeGreaterThanOrEqual(80)
    }
    // The same over GraphQL.
    const g = await gql(
      svc.url,
      svc.key,
      `{ searchProfiles(query: "likes schawarma") { total profiles { profile { profileId } } } }`,
    )
    expect(g.body.errors).toBeUndefined()
    expect(g.body.data.searchProfiles).toEqual({ total: 1, profiles: [{ profile: { profileId: 'food' } }] })
  })

  it('a real word is not taken for a misspelt one; a word the tenant holds is matched as written', async () => {
    // "yodeling" is a common word one edit away from "modeling", which the tenant holds: nothing found.
    expect((await api.search({ query: 'likes yodeling' })).total).toBe(0)
    // A made-up word with no variant in the dictionary: nothing.
    expect((await api.search({ query: 'likes zqxwvuts' })).total).toBe(0)
    // A corrected query matches only the tenant's own profiles.
    expect((await api.search({ query: 'has a pet axolotll' })).total).toBe(0)
    expect(ids(await other.search({ query: 'has a pet axolotll' }))).toEqual(['pets'])
    expect((await other.search({ query: 'likes schawarma' })).total).toBe(0)
  })

  it("a hidden passage (a forgotten value's evidence) is not found through a corrected word either", async () => {
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT lexemes::text AS l FROM profiles WHERE profile_id = 'car'`,
    )
    expect(row.l).not.toContain('carburettor') // only the passage says it
    expect(ids(await api.search({ query: 'carburettorr' }))).toEqual(['car'])
    await svc.profiler.db.dataSource.query(
      `UPDATE passages SET hidden_at = now(), hidden_by = 'test' WHERE profile_id = 'car'`,
    )
    expect((await api.search({ query: 'carburettorr' })).total).toBe(0)
  })

  /** The passages of chat's context for `query` (passages only, a budget of about three lines). */
  const contextOf = async (query: string) => {
    const r = await talk.get(
      `/v1/profile/chat/context?${new URLSearchParams({ query, include: 'passages', max_tokens: '40' })}`,
    )
    expect(r.status).toBe(200)
    return ((await r.json()) as any).text as string
  }

  it("a context's passages are looked up by what a misspelt word meant too", async () => {
    // Spelt right, the turn about shawarma comes first; misspelt (a letter more, less, swapped), the same.
    expect(await contextOf('What do they eat? shawarma')).toContain('Shawarma, always.')
    for (const query of ['Do they like schawarma?', 'Do they like shawrma?', 'Do they like shawamra?']) {
      expect(await contextOf(query), query).toContain('Shawarma, always.')
    }
    // A made-up word finds no turn by its words (the context is the turns nearest by meaning, not the shawarma one).
    expect(await contextOf('Do they like zqxwvuts?')).not.toContain('Shawarma')
    // A word the passages say is looked up as written, in one walk of the passages; one they do not say is looked up
    // again with what it may have meant (the passages here are one window: a walk is one statement).
    const repo = (svc.profiler.services.llmContext as any).passages
    const walk = repo.lexicalWindow
    const walks: string[] = []
    repo.lexicalWindow = function (this: unknown, ...args: any[]) {
      walks.push(args[3].terms)
      return walk.apply(this, args)
    }
    try {
      expect(await contextOf('Do they like shawarma?')).toContain('Shawarma, always.')
      expect(walks).toEqual(["'do' | 'they' | 'like' | 'shawarma'"])
      expect(await contextOf('What about the station stall?')).toContain('stall by the station')
      expect(walks).toHaveLength(2)
      walks.length = 0
      expect(await contextOf('Do they like schawarma?')).toContain('Shawarma, always.')
      expect(walks).toHaveLength(2)
      expect(walks[1]).toContain("'shawarma'")
    } finally {
      repo.lexicalWindow = walk
    }
    // The correction finds only the profile's own passages, over GraphQL too.
    const g = await gql(
      svc.url,
      talkKey,
      `{ profile(id: "chat") { context(query: "schawarma", include: PASSAGES, maxTokens: 40) { text } } }`,
    )
    expect(g.body.errors).toBeUndefined()
    expect(g.body.data.profile.context.text).toContain('Shawarma, always.')
    expect((await api.get('/v1/profile/chat/context?query=schawarma')).status).toBe(404)
  })

  it('a context ranks facts by what a misspelt word meant too, when no fact says the word as written', async () => {
    const facts = async (query: string) => {
      const r = await api.get(
        `/v1/profile/food/context?${new URLSearchParams({ query, include: 'facts', max_tokens: '200' })}`,
      )
      expect(r.status).toBe(200)
      return (await r.json()) as { text: string; rankedBy: string }
    }
    // The fact about shawarma first (the most relevant), spelt right or wrong; the occupation after it.
    for (const query of ['shawarma', 'schawarma', 'shawrma', 'shawamra']) {
      const lines = (await facts(query)).text.split('\n').filter((l) => l.startsWith('- '))
      expect(lines[0], query).toMatch(/shawarma/)
      expect(
        lines.findIndex((l) => /nurse/.test(l)),
        query,
      ).toBeGreaterThan(0)
    }
  })

  it('an unreadable dictionary turns correction off, reported once; searches and contexts go on', async () => {
    const search = svc.profiler.services.search as any
    const context = svc.profiler.services.llmContext as any
    const warned: unknown[] = []
    const broken = new TypoDictionary({
      read: () => Promise.reject(new Error('no such file')),
      log: { warn: (o: unknown) => warned.push(o) },
    })
    const typos = search.typos
    expect(context.typos).toBe(typos) // one dictionary for both
    const set = (t: TypoDictionary) => {
      search.typos = t
      context.typos = t
    }
    set(broken)
    try {
      for (let i = 0; i < 3; i++) {
        const r = await api.search({ query: 'likes schawarma' })
        expect(r.total).toBe(0)
      }
      expect(ids(await api.search({ query: 'likes shawarma' }))).toEqual(['food'])
      expect(await contextOf('Do they like schawarma?')).not.toContain('Shawarma')
      expect(await contextOf('Do they like shawarma?')).toContain('Shawarma, always.')
      expect(warned).toHaveLength(1)
    } finally {
      set(typos)
    }
    expect(ids(await api.search({ query: 'likes schawarma' }))).toEqual(['food'])
    expect(await contextOf('Do they like schawarma?')).toContain('Shawarma, always.')
  })

  it('hostile queries (most and longest words corrected, quotes, operators) stay plain and fast', async () => {
    for (const query of [
      `${'schawarmaa '.repeat(12)}`,
      'abcdefghijklmnopqrst bcdefghijklmnopqrstu cdefghijklmnopqrstuv defghijklmnopqrstuvw',
      "schawar'ma & | ! <-> :* industryy",
      'ṡchawarma 東京東京東京東京東京',
    ]) {
      const r = await api.search({ query })
      expect(r.profiles.length, query).toBeLessThanOrEqual(10)
    }
  })
})

/** Turns of a conversation that say nothing of food. */
const FILLER = [
  'I went to the market on Monday.',
  'My sister called me about her new job.',
  'We watched a film about sailors.',
  'The weather has been rainy all week.',
  'I repaired the fence in the garden.',
  'My neighbour bought a red bicycle.',
  'I started reading a book about bridges.',
  'The train was late again this morning.',
  'We played chess until midnight.',
  'I painted the kitchen walls blue.',
  'My brother moved to a new flat.',
  'I visited the museum of clocks.',
  'We walked along the river on Sunday.',
  'I lost my umbrella at the office.',
  'The concert was louder than expected.',
  'I signed up for a pottery class.',
  'My cousin adopted a grey cat.',
  'We drove to the coast for the weekend.',
  'I fixed the printer at work.',
  'The library closes early on Fridays.',
  'I bought new running shoes.',
  'We planted tulips by the door.',
  'My friend taught me a card trick.',
  'I finally cleaned the attic.',
]

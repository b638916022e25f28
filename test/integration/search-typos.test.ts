// Typo tolerance of hybrid search (README "Typos"): a query word that is no common dictionary word is also matched as
// the dictionary words one edit away, or as two words, when nothing holds it as written. Through the whole
// service (REST and GraphQL), on the database of the run (embedded PGlite, or PostgreSQL with DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'

describe('search: a misspelt query word finds what the tenant holds', () => {
  let svc: TestService
  let api: Client
  let other: Client
  const ids = (r: any) => r.profiles.map((p: any) => p.profile_id).sort()

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
    other = client(svc.url, (await svc.profiler.services.tenants.createApp('other', 'app')).api_key)
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
    expect((await api.post('music', { input_type: 'structured', data: JSON.stringify({ interests: { music: ['harpsichord sonatas'] } }) })).status).toBe(202)
    for (const [c, id] of texts) await c.waitReady(id)
    await api.waitReady('music')
  })
  afterAll(async () => svc?.close())

  it('finds the words the query meant: one letter more, less, swapped or replaced, or two words written as one', async () => {
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
    const g = await gql(svc.url, svc.key, `{ searchProfiles(query: "likes schawarma") { total profiles { profile { profileId } } } }`)
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

  it('a hidden passage (a forgotten value\'s evidence) is not found through a corrected word either', async () => {
    const [row] = await svc.profiler.db.dataSource.query(`SELECT lexemes::text AS l FROM profiles WHERE profile_id = 'car'`)
    expect(row.l).not.toContain('carburettor') // only the passage says it
    expect(ids(await api.search({ query: 'carburettorr' }))).toEqual(['car'])
    await svc.profiler.db.dataSource.query(`UPDATE passages SET hidden_at = now(), hidden_by = 'test' WHERE profile_id = 'car'`)
    expect((await api.search({ query: 'carburettorr' })).total).toBe(0)
  })

  it('a dictionary that cannot be read turns the correction off, reported once; searches go on', async () => {
    const search = svc.profiler.services.search as any
    const warned: unknown[] = []
    const { dictionary, log } = search.opts
    search.opts.dictionary = () => Promise.reject(new Error('no such file'))
    search.opts.log = { warn: (o: unknown) => warned.push(o) }
    try {
      for (let i = 0; i < 3; i++) {
        const r = await api.search({ query: 'likes schawarma' })
        expect(r.total).toBe(0)
      }
      expect(ids(await api.search({ query: 'likes shawarma' }))).toEqual(['food'])
      expect(warned).toHaveLength(1)
    } finally {
      Object.assign(search.opts, { dictionary, log })
      search.dictionaryFailedAt = undefined
    }
    expect(ids(await api.search({ query: 'likes schawarma' }))).toEqual(['food'])
  })

  it('hostile queries: the most words and the longest words corrected, quotes and operators, stay plain and fast', async () => {
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

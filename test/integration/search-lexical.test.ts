// A hybrid search whose words many profiles hold (docs/guides/search.md "Large tenants"): beyond
// PROFILER_SEARCH_LEXICAL_EXACT_MAX lexical matches, the nearest of them come from the HNSW index filtered to the
// matches, and those whose passages say more of the query are measured each. On a tenant this small the index walk is
// exact, so a service with the bound at 2 must answer exactly what one with the default bound (every match measured)
// answers: the same profiles, in the same order, with the same scores and totals, for every page and filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'

const MUSIC = ['jazz', 'blues', 'opera', 'techno', 'folk music', 'soul', 'salsa']
const CITIES = ['Lisbon', 'Porto', 'Oslo']
// 14 profiles: 10 hold "hiking" in their values; 4 of those also said a sentence with more of a query's words (a
// passage of higher cover); 2 said "hiking" only in a text (a lexical match by passage alone); 2 never mention it.
const people = Array.from({ length: 14 }, (_, i) => ({
  id: `p${String(i).padStart(2, '0')}`,
  data: {
    core_info: { name: `Person ${i}`, age: 20 + i, location: CITIES[i % CITIES.length] },
    interests: {
      music: [MUSIC[i % MUSIC.length]!],
      hobbies: i < 10 ? ['hiking', i % 2 ? 'chess' : 'cooking'] : ['painting'],
    },
  },
  text:
    i < 4
      ? `I really like hiking in the mountains with my dog, and I listen to ${MUSIC[i % MUSIC.length]} on the way.`
      : i === 10 || i === 11
        ? `Last summer I went hiking for the first time and I loved the quiet.`
        : undefined,
}))

const QUERIES = ['likes hiking', 'hiking', 'hiking with a dog', 'hiking and jazz', 'someone who likes hiking in Lisbon']

describe('hybrid search with many lexical matches: the index path answers what measuring every match answers', () => {
  let bounded: TestService
  let exact: TestService
  let a: Client
  let b: Client

  beforeAll(async () => {
    bounded = await startService({ env: { PROFILER_SEARCH_LEXICAL_EXACT_MAX: '2' } })
    exact = await startService()
    a = client(bounded.url, bounded.key)
    b = client(exact.url, exact.key)
    for (const api of [a, b]) {
      for (const p of people) {
        expect((await api.post(p.id, { input_type: 'structured', data: JSON.stringify(p.data) })).status).toBe(202)
        if (p.text) expect((await api.post(p.id, { input_type: 'text', data: p.text })).status).toBe(202)
      }
    }
    for (const api of [a, b]) for (const p of people) await api.waitReady(p.id)
  })
  afterAll(async () => {
    await bounded?.close()
    await exact?.close()
  })

  const view = (r: any) => ({
    total: r.total,
    estimate: r.totalIsEstimate ?? false,
    hits: r.profiles.map((p: any) => [p.profile_id, p.similarityScore]),
  })

  for (const query of QUERIES) {
    // At 90 the vector alone passes almost no profile: the lexical matches come from their own branches only.
    it(`"${query}": same pages, scores and totals at sensitivity 0, 63 and 90, with and without a filter`, async () => {
      let seen = 0
      for (const sensitivity of [0, 63, 90]) {
        for (const filter of [{}, { filterBy: 'location', filterValue: 'lisbon' }] as Record<string, string>[]) {
          for (const [page, pageSize] of [
            [1, 3],
            [2, 3],
            [3, 3],
            [1, 20],
          ] as const) {
            const params = { query, sensitivity, page, pageSize, ...filter }
            const [x, y] = [await a.search(params), await b.search(params)]
            expect(view(x), JSON.stringify(params)).toEqual(view(y))
            seen += x.profiles.length
          }
        }
      }
      // The comparison is about something: the query finds profiles.
      expect(seen).toBeGreaterThan(0)
    })
  }

  it('lexical matches beyond the bound are found: every profile holding or saying "hiking", at 90', async () => {
    const r = await a.search({ query: 'hiking', sensitivity: 90, pageSize: 100 })
    const ids = r.profiles.map((p: any) => p.profile_id)
    for (const p of people.filter((p) => p.data.interests.hobbies.includes('hiking') || p.text?.includes('hiking')))
      expect(ids).toContain(p.id)
  })

  it('GraphQL answers the same as REST on the bounded service', async () => {
    const q = `query($q: String) { searchProfiles(query: $q, sensitivity: 0, pageSize: 5) {
      total totalIsEstimate profiles { similarityScore profile { profileId } }
    } }`
    const g = await gql(bounded.url, bounded.key, q, { q: 'likes hiking' })
    const r = await a.search({ query: 'likes hiking', sensitivity: 0, pageSize: 5 })
    expect(g.body.errors).toBeUndefined()
    const found = g.body.data.searchProfiles
    expect(found.profiles.map((p: any) => [p.profile.profileId, p.similarityScore])).toEqual(
      r.profiles.map((p: any) => [p.profile_id, p.similarityScore]),
    )
    expect(found.total).toBe(r.total)
    expect(r.profiles.length).toBe(5)
  })
})

// A search's total (docs/guides/search.md "Totals"): exact for a search of at most PROFILER_SEARCH_EXACT_TOTAL_MAX
// candidates, and whenever the page is not full; else estimated from a sample and flagged (totalIsEstimate), in REST
// and GraphQL. The bound is set low here (5) so that a tenant of 12 profiles is "large"; at 12 profiles the sample is
// the whole table (samplePercent: 100), so the estimate is the count. GraphQL runs the count only when its answer
// asks for the total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, statementsRun, type Client, type TestService } from '../support/harness.js'

/** A REST page whose total is exact: it matches `fields` and carries no totalIsEstimate (present only when true). */
function expectExact(page: any, fields: Record<string, unknown>) {
  expect(page).toMatchObject(fields)
  expect(page).not.toHaveProperty('totalIsEstimate')
}

const MUSIC = ['jazz', 'blues', 'opera', 'techno', 'folk music', 'soul']
const big = Array.from({ length: 12 }, (_, i) => ({
  id: `big${i}`,
  core_info: { name: `Person ${i}`, age: 20 + i, location: i % 2 ? 'Lisbon' : 'Porto' },
  interests: { music: [MUSIC[i % MUSIC.length]!], hobbies: ['hiking'] },
}))
const small = Array.from({ length: 3 }, (_, i) => ({
  id: `small${i}`,
  core_info: { name: `Small ${i}` },
  interests: { hobbies: ['hiking'] },
}))

describe('search totals: exact up to PROFILER_SEARCH_EXACT_TOTAL_MAX candidates, then a flagged estimate', () => {
  let svc: TestService
  let large: Client
  let few: Client
  let fewKey: string

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SEARCH_EXACT_TOTAL_MAX: '5' } })
    large = client(svc.url, svc.key)
    fewKey = (await svc.profiler.services.tenants.createApp('few', 'totals')).api_key
    few = client(svc.url, fewKey)
    for (const [api, people] of [
      [large, big],
      [few, small],
    ] as const) {
      for (const { id, ...data } of people)
        expect((await api.post(id, { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
    }
    for (const p of big) await large.waitReady(p.id)
    for (const p of small) await few.waitReady(p.id)
  })
  afterAll(async () => svc?.close())

  // 'someone' is filler only: the vector alone ranks the page; 'hiking' is a word to match: hybrid search.
  for (const query of ['someone', 'hiking']) {
    it(`"${query}": a small tenant's total is exact`, async () => {
      const r = await few.search({ query, sensitivity: 0, pageSize: 2 })
      expect(r.profiles).toHaveLength(2)
      expectExact(r, { total: 3 })
    })

    it(`"${query}": a large tenant's full page has an estimated total, flagged`, async () => {
      const r = await large.search({ query, sensitivity: 0, pageSize: 5 })
      expect(r.profiles).toHaveLength(5)
      expect(r).toMatchObject({ total: 12, totalIsEstimate: true })
      const p2 = await large.search({ query, sensitivity: 0, pageSize: 5, page: 2 })
      expect(p2).toMatchObject({ total: 12, totalIsEstimate: true })
    })

    it(`"${query}": a page that is not full makes the total exact (offset + its profiles)`, async () => {
      expectExact(await large.search({ query, sensitivity: 0, pageSize: 50 }), { total: 12 })
      const last = await large.search({ query, sensitivity: 0, pageSize: 5, page: 3 })
      expect(last.profiles).toHaveLength(2)
      expectExact(last, { total: 12 })
      // Past the end: an empty page says nothing of how many come before it, so the estimate stays.
      expect(await large.search({ query, sensitivity: 0, pageSize: 5, page: 9 })).toMatchObject({
        profiles: [],
        total: 12,
        totalIsEstimate: true,
      })
    })

    it(`"${query}": a filter leaving at most the bound of candidates: exact count, filter and order kept`, async () => {
      // big1, big10, big11: three candidates.
      const r = await large.search({ query, sensitivity: 0, pageSize: 2, filterBy: 'id', filterValue: 'big1' })
      expect(r.profiles).toHaveLength(2)
      expectExact(r, { total: 3 })
      for (const p of r.profiles) expect(p.profile_id).toMatch(/^big1/)
      const scores = r.profiles.map((p: any) => p.similarityScore)
      expect([...scores].sort((a, b) => b - a)).toEqual(scores)
      // Porto: six candidates, more than the bound: estimated (the whole table sampled here, so the count).
      expect(
        await large.search({ query, sensitivity: 0, pageSize: 2, filterBy: 'location', filterValue: 'porto' }),
      ).toMatchObject({ total: 6, totalIsEstimate: true })
    })
  }

  it('a listing (no query) always counts exactly', async () => {
    expectExact(await large.search({ pageSize: 5 }), { total: 12 })
  })

  it('MCP search_profiles says the same: totalIsEstimate only when estimated', async () => {
    const search = async (key: string) => {
      const r = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_profiles', arguments: { query: 'someone', sensitivity: 0, pageSize: 5 } },
        }),
      })
      expect(r.status).toBe(200)
      return ((await r.json()) as any).result.structuredContent
    }
    expect(await search(svc.key)).toMatchObject({ total: 12, totalIsEstimate: true })
    const exact = await search(fewKey)
    expect(exact).toMatchObject({ total: 3 })
    expect(exact).not.toHaveProperty('totalIsEstimate')
  })

  it('GraphQL searchProfiles says the same: totalIsEstimate beside total', async () => {
    const q = `query($query: String, $pageSize: Int) {
      searchProfiles(query: $query, sensitivity: 0, pageSize: $pageSize) {
        total totalIsEstimate profiles { profile { profileId } }
      }
    }`
    const est = await gql(svc.url, svc.key, q, { query: 'someone', pageSize: 5 })
    expect(est.body.data.searchProfiles).toMatchObject({ total: 12, totalIsEstimate: true })
    const exact = await gql(svc.url, svc.key, q, { query: 'someone', pageSize: 50 })
    expect(exact.body.data.searchProfiles).toMatchObject({ total: 12, totalIsEstimate: false })
    const smallOne = await gql(svc.url, fewKey, q, { query: 'someone', pageSize: 2 })
    expect(smallOne.body.data.searchProfiles).toMatchObject({ total: 3, totalIsEstimate: false })
  })

  describe('GraphQL counts the total only when total or totalIsEstimate is selected', () => {
    /**
     * The statements that count a search's total (every form of it names `AS total`) of the large tenant (its first
     * parameter) run while `work` runs: the rate limiter's exchanges, on a server, also answer a column `total`.
     */
    const totalsCounted = async (work: () => Promise<unknown>) => {
      const ds = svc.profiler.db.dataSource
      const [{ tenant_id: tenant }] = await ds.query(`SELECT tenant_id FROM profiles WHERE profile_id = 'big0'`)
      const run = await statementsRun(svc, work)
      return run.filter((s) => s.params[0] === tenant && /\bAS total\b/.test(s.sql)).length
    }
    const search = (selection: string, args = '') =>
      `query($query: String) {
        searchProfiles(query: $query, sensitivity: 0, pageSize: 5${args}) { ${selection} }
      }` + (selection.includes('...total') ? ' fragment total on SearchResult { totalIsEstimate }' : '')
    const ids = (r: any) => r.body.data.searchProfiles.profiles.map((p: any) => p.profile.profileId)

    for (const query of ['someone', 'hiking', null]) {
      it(`${query ? `"${query}"` : 'a listing'}: the same page, counted only when asked`, async () => {
        let counted: any
        let uncounted: any
        const withTotal = await totalsCounted(async () => {
          counted = await gql(svc.url, svc.key, search('total page profiles { profile { profileId } }'), { query })
        })
        const without = await totalsCounted(async () => {
          uncounted = await gql(svc.url, svc.key, search('page pageSize profiles { profile { profileId } }'), { query })
        })
        expect(counted.body.errors).toBeUndefined()
        expect(uncounted.body.errors).toBeUndefined()
        expect(withTotal).toBe(1)
        expect(without).toBe(0)
        expect(ids(uncounted)).toEqual(ids(counted))
        expect(ids(uncounted)).toHaveLength(5)
        expect(uncounted.body.data.searchProfiles).toMatchObject({ page: 1, pageSize: 5 })
      })
    }

    it('a fragment or an alias that asks for it counts; an answer asking nothing of it does not', async () => {
      let r: any
      expect(
        await totalsCounted(async () => {
          r = await gql(svc.url, svc.key, search('...total profiles { profile { profileId } }'), { query: 'hiking' })
        }),
      ).toBe(1)
      expect(r.body.data.searchProfiles.totalIsEstimate).toBe(true)
      expect(
        await totalsCounted(async () => {
          r = await gql(svc.url, svc.key, search('howMany: total'), { query: 'hiking' })
        }),
      ).toBe(1)
      expect(r.body.data.searchProfiles.howMany).toBe(12)
      expect(
        await totalsCounted(async () => {
          r = await gql(svc.url, svc.key, search('page'), { query: 'hiking' })
        }),
      ).toBe(0)
      expect(r.body.data.searchProfiles).toEqual({ page: 1 })
    })

    it('bad input is refused as before, counted or not', async () => {
      for (const selection of ['total', 'page']) {
        const r = await gql(svc.url, svc.key, search(selection, ', page: 0'), { query: 'hiking' })
        expect(r.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED')
      }
    })
  })
})

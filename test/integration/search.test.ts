import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'

const people = [
  {
    id: 'alice',
    core_info: { name: 'Alice', age: 34, gender: 'female', location: 'Austin, Texas' },
    interests: { music: ['jazz', 'blues'], hobbies: ['photography'] },
    language: 'en',
  },
  {
    id: 'bob',
    core_info: { name: 'Bob', age: 52, gender: 'male', location: 'Seattle' },
    interests: { pets: ['turtle'], hobbies: ['fishing'] },
    language: 'en',
  },
  {
    id: 'carla',
    core_info: { name: 'Carla', age: 27, gender: 'female', location: 'Madrid' },
    interests: { sports: ['football', 'tennis'] },
    language: 'es',
  },
  {
    id: 'dmitri',
    core_info: { name: 'Dmitri', age: 45, location: 'Boston' },
    interests: { food: ['sushi'], books: ['science fiction'] },
    language: 'en',
  },
  { id: 'e_1.0', core_info: { name: 'Eve' }, interests: { hobbies: ['knitting'] } },
  { id: 'frank', interests: { hobbies: ['woodworking'] } },
]

describe('search (GET /v1/search and /v1/smart-search)', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService()
    api = client(svc.url, svc.key)
    for (const p of people) {
      const { id, ...data } = p
      expect((await api.post(id, { input_type: 'structured', data: JSON.stringify(data) })).status).toBe(202)
      await api.waitReady(id) // one by one, so last_updated/created_at order is known
    }
  })
  afterAll(async () => svc?.close())

  const ids = (r: any) => r.profiles.map((p: any) => p.profile_id)

  it('lists everything by last_updated desc by default, with total and paging', async () => {
    const r = await api.search({})
    expect(r.page).toBe(1)
    expect(r.pageSize).toBe(10)
    expect(r.total).toBe(people.length)
    expect(ids(r)).toEqual(people.map((p) => p.id).reverse())
    expect(r.profiles[0]).not.toHaveProperty('similarityScore')
    expect(r.profiles[0].status).toBe('ready')
    expect(r.profiles[0].update_log).toHaveLength(1)
  })

  it('pagination: pages are disjoint, total is the true count, past the end is empty', async () => {
    const p1 = await api.search({ pageSize: 4, page: 1, sortBy: 'id', sortOrder: 'asc' })
    const p2 = await api.search({ pageSize: 4, page: 2, sortBy: 'id', sortOrder: 'asc' })
    const p3 = await api.search({ pageSize: 4, page: 3, sortBy: 'id', sortOrder: 'asc' })
    expect([p1.total, p2.total, p3.total]).toEqual([6, 6, 6])
    expect(ids(p1)).toEqual(['alice', 'bob', 'carla', 'dmitri'])
    expect(ids(p2)).toEqual(['e_1.0', 'frank'])
    expect(p3.profiles).toEqual([])
    expect(p3.page).toBe(3)
  })

  it('each sort, both orders, missing values last, ties by id', async () => {
    expect(ids(await api.search({ sortBy: 'created_at', sortOrder: 'asc' }))).toEqual(people.map((p) => p.id))
    expect(ids(await api.search({ sortBy: 'last_updated', sortOrder: 'asc' }))).toEqual(people.map((p) => p.id))
    expect(ids(await api.search({ sortBy: 'id', sortOrder: 'desc' }))).toEqual([
      'frank',
      'e_1.0',
      'dmitri',
      'carla',
      'bob',
      'alice',
    ])
    expect(ids(await api.search({ sortBy: 'name', sortOrder: 'asc' }))).toEqual([
      'alice',
      'bob',
      'carla',
      'dmitri',
      'e_1.0',
      'frank',
    ])
    expect(ids(await api.search({ sortBy: 'name', sortOrder: 'desc' }))).toEqual([
      'e_1.0',
      'dmitri',
      'carla',
      'bob',
      'alice',
      'frank',
    ])
    expect(ids(await api.search({ sortBy: 'age', sortOrder: 'asc' }))).toEqual([
      'carla',
      'alice',
      'dmitri',
      'bob',
      'e_1.0',
      'frank',
    ])
    expect(ids(await api.search({ sortBy: 'age', sortOrder: 'desc' }))).toEqual([
      'bob',
      'dmitri',
      'alice',
      'carla',
      'e_1.0',
      'frank',
    ])
    expect(ids(await api.search({ sortBy: 'location', sortOrder: 'asc' }))).toEqual([
      'alice',
      'dmitri',
      'carla',
      'bob',
      'e_1.0',
      'frank',
    ])
  })

  it('each filter: case-insensitive partial match; % and _ are literals', async () => {
    const f = async (filterBy: string, filterValue: string) =>
      ids(await api.search({ filterBy, filterValue, sortBy: 'id', sortOrder: 'asc' }))
    expect(await f('id', 'AL')).toEqual(['alice'])
    expect(await f('id', '_1.')).toEqual(['e_1.0'])
    expect(await f('id', '%')).toEqual([]) // a literal, not a wildcard
    expect(await f('id', '_')).toEqual(['e_1.0']) // a literal, not "any one character"
    expect(await f('name', 'car')).toEqual(['carla'])
    expect(await f('location', 'texas')).toEqual(['alice'])
    expect(await f('age', '4')).toEqual(['alice', 'dmitri'])
    expect(await f('age', '52')).toEqual(['bob'])
    expect(await f('gender', 'FEMALE')).toEqual(['alice', 'carla'])
    expect(await f('gender', 'male')).toEqual(['alice', 'bob', 'carla'])
    expect(await f('language', 'es')).toEqual(['carla'])
    expect(await f('status', 'ready')).toHaveLength(6)
    expect(await f('status', 'processing')).toEqual([])
    const r = await api.search({ filterBy: 'gender', filterValue: 'female', pageSize: 1 })
    expect(r.total).toBe(2)
    expect(r.profiles).toHaveLength(1)
  })

  it('query: ranked by similarity, scores 0-100 with 2 decimals, sortBy ignored', async () => {
    const r = await api.search({ query: 'likes jazz', sortBy: 'name', sortOrder: 'desc' })
    expect(ids(r)[0]).toBe('alice')
    for (const p of r.profiles) {
      expect(p.similarityScore).toBeGreaterThanOrEqual(63)
      expect(p.similarityScore).toBeLessThanOrEqual(100)
      expect(Math.round(p.similarityScore * 100) / 100).toBe(p.similarityScore)
    }
    const scores = r.profiles.map((p: any) => p.similarityScore)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(ids(await api.search({ query: 'has a pet turtle' }))[0]).toBe('bob')
    expect(ids(await api.search({ query: 'lives in Madrid' }))[0]).toBe('carla')
  })

  it('threshold: sensitivity 0 returns every embedded profile, higher fewer; unrelated queries nothing', async () => {
    const all = await api.search({ query: 'jazz', sensitivity: 0, pageSize: 100 })
    expect(all.total).toBe(people.length)
    const strict = await api.search({ query: 'jazz', sensitivity: 63 })
    expect(strict.total).toBeLessThan(all.total)
    expect(strict.total).toBeGreaterThan(0)
    for (const p of all.profiles) if (p.similarityScore >= 63) expect(ids(strict)).toContain(p.profile_id)
    const none = await api.search({ query: 'quantum chromodynamics lattice simulations' })
    expect(none).toMatchObject({ profiles: [], total: 0 })
  })

  it('query plus filter: filter applied to the vector results, order stays by similarity', async () => {
    const r = await api.search({ query: 'plays football', sensitivity: 0, filterBy: 'gender', filterValue: 'female' })
    expect(ids(r).sort()).toEqual(['alice', 'carla'])
    expect(ids(r)[0]).toBe('carla')
    expect(r.total).toBe(2)
    const paged = await api.search({
      query: 'plays football',
      sensitivity: 0,
      filterBy: 'gender',
      filterValue: 'female',
      pageSize: 1,
      page: 2,
    })
    expect(ids(paged)).toEqual(['alice'])
    expect(paged.total).toBe(2)
  })

  it('every connection scans the HNSW index iteratively (set at session start): filtered pages are full', async () => {
    // The pool's connections all carry it (several at once, so more than one connection answers).
    const settings = await Promise.all(
      Array.from({ length: 4 }, () =>
        svc.profiler.db.dataSource.query(`SELECT current_setting('hnsw.iterative_scan') AS v, pg_sleep(0.05)`),
      ),
    )
    expect(settings.map((r) => r[0].v)).toEqual(Array(4).fill('relaxed_order'))
  })

  it('/v1/smart-search is an alias', async () => {
    const a = await (await api.get('/v1/search?query=turtle&sensitivity=10')).json()
    const b = await (await api.get('/v1/smart-search?query=turtle&sensitivity=10')).json()
    expect(b).toEqual(a)
  })

  it('profiles without an embedding appear in listings but never in vector results', async () => {
    await svc.profiler.db.dataSource.query(
      `INSERT INTO profiles (tenant_id, profile_id, status)
       SELECT tenant_id, 'zz-pending', 'processing' FROM profiles WHERE profile_id = 'alice'`,
    )
    expect(ids(await api.search({ filterBy: 'id', filterValue: 'zz-pending' }))).toEqual(['zz-pending'])
    const v = await api.search({ query: 'jazz', sensitivity: 0, pageSize: 100 })
    expect(ids(v)).not.toContain('zz-pending')
    expect(v.total).toBe(people.length)
  })
})

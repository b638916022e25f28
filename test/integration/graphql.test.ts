import { Lexer, Source, TokenKind } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import {
  connect,
  gql as gqlHttp,
  gqlApi,
  rawSocket,
  untilLive,
  type GqlApi,
  type GqlResult,
  type Recorder,
  type Socket,
  type StatusEvent,
} from '../support/graphql-client.js'
import { gqlLogEntryAsRest, gqlProfileAsRest, PROFILE_FIELDS, restProfileCore } from '../support/graphql-shapes.js'

const structured = (v: unknown) => ({ input_type: 'structured', data: JSON.stringify(v) })
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000'

/** How the GraphQL parser counts a document against PROFILER_GRAPHQL_MAX_TOKENS. */
function countTokens(doc: string): number {
  const lexer = new Lexer(new Source(doc))
  let n = 0
  while (lexer.advance().kind !== TokenKind.EOF) n++
  return n
}

/** A request refused during parsing or validation: 400, errors with code and status, and no `data` key at all. */
function expectRejectedHttp(r: GqlResult, message: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(400)
  expect(r.body).not.toHaveProperty('data')
  expect(r.body.errors.length).toBeGreaterThan(0)
  expect(r.body.errors.map((e: any) => e.message).join('\n')).toMatch(message)
  for (const e of r.body.errors) {
    expect(e.extensions.code).toMatch(/^GRAPHQL_(PARSE|VALIDATION)_FAILED$/)
    expect(e.extensions.status).toBe(400)
  }
}

function expectAcceptedHttp(r: GqlResult) {
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined()
  expect(r.body.data).toBeTruthy()
}

/** One operation over the socket, recorded until it completes, is refused, or the socket closes. */
async function overWs(sock: Socket, query: string): Promise<Recorder<unknown>> {
  const r = sock.subscribe<unknown>(query)
  await r.untilEnded()
  return r
}

/** Over WebSocket a refused operation gets an `error` message (400-coded errors); the socket itself stays open. */
function expectRejectedWs(r: Recorder<unknown>, message: RegExp) {
  expect(
    r.ended?.code,
    `the socket closed (${JSON.stringify(r.ended)}) instead of answering with an error message`,
  ).toBeUndefined()
  expect(r.results).toEqual([])
  expect(r.errors.length, 'an error message').toBeGreaterThan(0)
  expect(r.errors.map((e: any) => e.message).join('\n')).toMatch(message)
  for (const e of r.errors) {
    expect(e.extensions?.code).toMatch(/^GRAPHQL_(PARSE|VALIDATION)_FAILED$/)
    expect(e.extensions?.status).toBe(400)
  }
}

function expectAcceptedWs(r: Recorder<unknown>) {
  expect(r.ended?.code).toBeUndefined()
  expect(r.errors).toEqual([])
  expect(r.completed).toBe(true)
  expect(r.results).toHaveLength(1)
  expect(r.results[0]!.errors).toBeUndefined()
  expect(r.results[0]!.data).toBeTruthy()
}

const PROFILE_QUERY = `query ($id: ID!) { profile(id: $id) { ${PROFILE_FIELDS} } }`
const SEARCH_QUERY = `query (
  $query: String, $sensitivity: Float, $filter: SearchFilter, $sort: SearchSort, $page: Int, $pageSize: Int
) {
  searchProfiles(
    query: $query, sensitivity: $sensitivity, filter: $filter, sort: $sort, page: $page, pageSize: $pageSize
  ) {
    total page pageSize profiles { similarityScore profile { ${PROFILE_FIELDS} } }
  }
}`
const HISTORY_QUERY = `query ($id: ID!, $first: Int!, $after: String) {
  profile(id: $id) { history(first: $first, after: $after) {
    entries { seq extractedOn changes submissionIds inputType } pageInfo { endCursor hasNextPage }
  } }
}`
const SUBMISSION_FIELDS = 'id profileId inputType status attempts error createdAt startedAt finishedAt'
const SUBMISSIONS_QUERY = `query ($id: ID!, $first: Int!, $after: String, $status: SubmissionStatus) {
  profile(id: $id) { submissions(first: $first, after: $after, status: $status) {
    nodes { ${SUBMISSION_FIELDS} } pageInfo { endCursor hasNextPage }
  } }
}`
const SUBMIT = `mutation ($id: ID!, $data: String!, $inputType: InputType!) {
  submitProfileData(id: $id, data: $data, inputType: $inputType) { id profileId message }
}`

describe('GraphQL over HTTP and WebSocket (normal limits, development mode)', () => {
  let svc: TestService
  let api: Client
  let gql: GqlApi
  const aliceSubmissions: string[] = []

  beforeAll(async () => {
    svc = await startService()
    api = client(svc.url, svc.key)
    gql = gqlApi(svc.url, svc.key)
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
    ]
    for (const { id, ...data } of people) {
      const r = await api.post(id, structured(data))
      expect(r.status).toBe(202)
      if (id === 'alice') aliceSubmissions.push(((await r.json()) as any).id)
      await api.waitReady(id)
    }
    // Two more batches for alice, one at a time, so her update log has three entries.
    for (const data of [
      { interests: { food: ['tacos'] } },
      { core_info: { occupation: 'architect' }, personality: { traits: ['curious'] } },
    ]) {
      const r = await api.post('alice', structured(data))
      expect(r.status).toBe(202)
      aliceSubmissions.push(((await r.json()) as any).id)
      await api.waitReady('alice')
    }
    expect(
      (
        await api.post('erin', {
          data: 'My name is Erin. I live in Lisbon, I work as a nurse and I love surfing and jazz.',
        })
      ).status,
    ).toBe(202)
    await api.waitReady('erin')
  })
  afterAll(async () => svc?.close())

  describe('REST and GraphQL agree', () => {
    it('profile(id) is GET /v1/profile/{id}, field by field; null for an unknown id', async () => {
      for (const id of ['alice', 'bob', 'erin']) {
        const rest = await api.profile(id)
        const { profile } = await gql.data(PROFILE_QUERY, { id })
        expect(profile.profileId).toBe(id)
        expect(profile.status).toBe('READY')
        expect(gqlProfileAsRest(profile)).toEqual(restProfileCore(rest))
      }
      // Spot checks that the mapping above is not comparing two empty things.
      const { profile: alice } = await gql.data(PROFILE_QUERY, { id: 'alice' })
      expect(alice.coreInfo.name).toEqual({ value: 'Alice', confidence: 1 })
      expect(alice.coreInfo.age).toEqual({ value: 34, confidence: 1 })
      expect(alice.coreInfo.occupation.value).toBe('architect')
      expect(alice.interests).toEqual(
        expect.arrayContaining([
          { category: 'music', values: expect.arrayContaining([{ value: 'jazz', confidence: 1 }]) },
        ]),
      )
      expect(alice.personality.traits.map((t: any) => t.value)).toContain('curious')
      expect(alice.fieldTimestamps.map((t: any) => t.field)).toEqual(expect.arrayContaining(['core_info']))
      expect(alice.summary).toMatch(/Alice/)
      const { profile: erin } = await gql.data(PROFILE_QUERY, { id: 'erin' })
      expect(erin.coreInfo.location.value).toBe('Lisbon')
      expect(erin.language).toBe('en')

      expect(await gql.data(PROFILE_QUERY, { id: 'nobody-here' })).toEqual({ profile: null })
    })

    const compareSearch = async (params: Record<string, string | number>, vars: Record<string, unknown>) => {
      const rest = await api.search(params)
      const { searchProfiles: g } = await gql.data(SEARCH_QUERY, vars)
      expect({ total: g.total, page: g.page, pageSize: g.pageSize }).toEqual({
        total: rest.total,
        page: rest.page,
        pageSize: rest.pageSize,
      })
      expect(g.profiles.map((h: any) => h.profile.profileId)).toEqual(rest.profiles.map((p: any) => p.profile_id))
      expect(g.profiles.map((h: any) => h.similarityScore ?? undefined)).toEqual(
        rest.profiles.map((p: any) => p.similarityScore),
      )
      expect(g.profiles.map((h: any) => gqlProfileAsRest(h.profile))).toEqual(rest.profiles.map(restProfileCore))
      return g
    }

    it('searchProfiles is GET /v1/search: listing with sort and paging, a filter, a semantic query', async () => {
      const p1 = await compareSearch(
        { sortBy: 'name', sortOrder: 'asc', page: 1, pageSize: 2 },
        { sort: { field: 'NAME', order: 'ASC' }, page: 1, pageSize: 2 },
      )
      expect(p1.profiles.map((h: any) => h.profile.profileId)).toEqual(['alice', 'bob'])
      expect(p1.total).toBe(5)
      const p2 = await compareSearch(
        { sortBy: 'name', sortOrder: 'asc', page: 2, pageSize: 2 },
        { sort: { field: 'NAME', order: 'ASC' }, page: 2, pageSize: 2 },
      )
      expect(p2.profiles.map((h: any) => h.profile.profileId)).toEqual(['carla', 'dmitri'])
      const past = await compareSearch(
        { sortBy: 'age', sortOrder: 'desc', page: 9, pageSize: 2 },
        { sort: { field: 'AGE', order: 'DESC' }, page: 9, pageSize: 2 },
      )
      expect(past).toMatchObject({ profiles: [], total: 5, page: 9 })
      // Defaults: last_updated desc, page 1, pageSize 10 (sort.order defaults to DESC too).
      const dflt = await compareSearch({}, {})
      expect(dflt.pageSize).toBe(10)
      await compareSearch({ sortBy: 'created_at' }, { sort: { field: 'CREATED_AT' } })

      const f = await compareSearch(
        { filterBy: 'gender', filterValue: 'FEMALE', sortBy: 'id', sortOrder: 'asc' },
        { filter: { field: 'GENDER', value: 'FEMALE' }, sort: { field: 'ID', order: 'ASC' } },
      )
      expect(f.profiles.map((h: any) => h.profile.profileId)).toEqual(['alice', 'carla'])
      await compareSearch(
        { filterBy: 'location', filterValue: 'o', pageSize: 1 },
        { filter: { field: 'LOCATION', value: 'o' }, pageSize: 1 },
      )

      const q = await compareSearch({ query: 'likes jazz', sensitivity: 20 }, { query: 'likes jazz', sensitivity: 20 })
      expect(q.total).toBeGreaterThan(1)
      expect(q.profiles[0].similarityScore).toBeGreaterThan(20)
      const qf = await compareSearch(
        { query: 'plays football', sensitivity: 0, filterBy: 'gender', filterValue: 'female', pageSize: 1, page: 2 },
        { query: 'plays football', sensitivity: 0, filter: { field: 'GENDER', value: 'female' }, pageSize: 1, page: 2 },
      )
      expect(qf.total).toBe(2)
      const none = await compareSearch(
        { query: 'quantum chromodynamics lattice simulations' },
        { query: 'quantum chromodynamics lattice simulations' },
      )
      expect(none).toMatchObject({ profiles: [], total: 0 })
    })

    it('history(first, after) pages the whole update log with a working cursor', async () => {
      const restLog = (await api.profile('alice')).update_log
      expect(restLog).toHaveLength(3)
      const page1 = (await gql.data(HISTORY_QUERY, { id: 'alice', first: 2 })).profile.history
      expect(page1.entries).toHaveLength(2)
      expect(page1.pageInfo.hasNextPage).toBe(true)
      expect(page1.pageInfo.endCursor).toEqual(expect.any(String))
      const page2 = (await gql.data(HISTORY_QUERY, { id: 'alice', first: 2, after: page1.pageInfo.endCursor })).profile
        .history
      expect(page2.entries).toHaveLength(1)
      expect(page2.pageInfo.hasNextPage).toBe(false)
      const page3 = (await gql.data(HISTORY_QUERY, { id: 'alice', first: 2, after: page2.pageInfo.endCursor })).profile
        .history
      expect(page3).toEqual({ entries: [], pageInfo: { endCursor: null, hasNextPage: false } })

      const all = [...page1.entries, ...page2.entries]
      const seqs = all.map((e: any) => e.seq)
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs) // oldest first
      expect(new Set(seqs).size).toBe(3)
      expect(all.map(gqlLogEntryAsRest)).toEqual(restLog)
      expect(all.flatMap((e: any) => e.submissionIds)).toEqual(aliceSubmissions)
      expect(all.map((e: any) => e.inputType)).toEqual(['structured', 'structured', 'structured'])

      const whole = (await gql.data(HISTORY_QUERY, { id: 'alice', first: 100 })).profile.history
      expect(whole.entries).toEqual(all)
      expect(whole.pageInfo.hasNextPage).toBe(false)

      const bad = await gql.raw(HISTORY_QUERY, { id: 'alice', first: 0 })
      expect(bad.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/first/),
        extensions: { code: 'VALIDATION_FAILED', status: 400 },
      })
      const badCursor = await gql.raw(HISTORY_QUERY, { id: 'alice', first: 2, after: 'not-a-cursor' })
      expect(badCursor.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/after/),
        extensions: { code: 'VALIDATION_FAILED', status: 400 },
      })
    })

    it('submissions(first, after, status) and submission(id): status, attempts, timestamps', async () => {
      const page1 = (await gql.data(SUBMISSIONS_QUERY, { id: 'alice', first: 2 })).profile.submissions
      expect(page1.nodes).toHaveLength(2)
      expect(page1.pageInfo.hasNextPage).toBe(true)
      const page2 = (await gql.data(SUBMISSIONS_QUERY, { id: 'alice', first: 2, after: page1.pageInfo.endCursor }))
        .profile.submissions
      expect(page2.nodes).toHaveLength(1)
      expect(page2.pageInfo.hasNextPage).toBe(false)
      const nodes = [...page1.nodes, ...page2.nodes]
      expect(nodes.map((n: any) => n.id)).toEqual(aliceSubmissions) // oldest first
      for (const n of nodes) {
        expect(n).toMatchObject({ profileId: 'alice', inputType: 'STRUCTURED', status: 'DONE', error: null })
        expect(n.attempts).toBeGreaterThanOrEqual(1)
        const created = Date.parse(n.createdAt)
        const started = Date.parse(n.startedAt)
        const finished = Date.parse(n.finishedAt)
        expect(Number.isNaN(created) || Number.isNaN(started) || Number.isNaN(finished)).toBe(false)
        expect(created).toBeLessThanOrEqual(started)
        expect(started).toBeLessThanOrEqual(finished)
      }
      const done = (await gql.data(SUBMISSIONS_QUERY, { id: 'alice', first: 100, status: 'DONE' })).profile.submissions
      expect(done.nodes.map((n: any) => n.id)).toEqual(aliceSubmissions)
      for (const status of ['PENDING', 'PROCESSING', 'FAILED']) {
        const s = (await gql.data(SUBMISSIONS_QUERY, { id: 'alice', first: 100, status })).profile.submissions
        expect(s).toEqual({ nodes: [], pageInfo: { endCursor: null, hasNextPage: false } })
      }

      const one = await gql.data(`query ($id: ID!) { submission(id: $id) { ${SUBMISSION_FIELDS} } }`, {
        id: aliceSubmissions[1],
      })
      expect(one.submission).toEqual(nodes[1])
      for (const id of [UNKNOWN_UUID, 'not-a-uuid']) {
        expect(await gql.data(`query ($id: ID!) { submission(id: $id) { id } }`, { id })).toEqual({ submission: null })
      }
    })

    it('submitProfileData with STRUCTURED and CONVERSATION; the result is what REST shows', async () => {
      const data = JSON.stringify({
        core_info: { name: 'Gina', age: 29, location: { value: 'Oslo', confidence: 0.7 } },
        interests: { music: ['opera'] },
      })
      const ack = (await gql.data(SUBMIT, { id: 'gq-struct', data, inputType: 'STRUCTURED' })).submitProfileData
      expect(ack).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        profileId: 'gq-struct',
        message: 'Accepted for processing',
      })
      const p = await api.waitReady('gq-struct')
      expect(p.core_info.name).toEqual({ value: 'Gina', confidence: 1 })
      expect(p.core_info.location).toEqual({ value: 'Oslo', confidence: 0.7 })
      expect(p.interests.music).toEqual([{ value: 'opera', confidence: 1 }])
      expect(p.update_log).toHaveLength(1)
      expect(p.update_log[0]).toMatchObject({ input_type: 'structured', submission_ids: [ack.id] })
      const sub = (await gql.data(`query ($id: ID!) { submission(id: $id) { ${SUBMISSION_FIELDS} } }`, { id: ack.id }))
        .submission
      expect(sub).toMatchObject({
        id: ack.id,
        profileId: 'gq-struct',
        inputType: 'STRUCTURED',
        status: 'DONE',
        error: null,
      })

      const convo = [
        'Lena: Hi! I live in Hamburg and I love sailing.',
        'Bot: Nice. I live in Paris and I love opera.',
        'Lena: I work as a pharmacist.',
      ].join('\n')
      const ack2 = (await gql.data(SUBMIT, { id: 'gq-conv', data: convo, inputType: 'CONVERSATION' })).submitProfileData
      expect(ack2).toMatchObject({ profileId: 'gq-conv', message: 'Accepted for processing' })
      const c = await api.waitReady('gq-conv')
      expect(c.core_info.location.value).toBe('Hamburg')
      const values = Object.values(c.interests)
        .flat()
        .map((v: any) => v.value.toLowerCase())
      expect(values).toContain('sailing')
      expect(values).not.toContain('opera')
      expect(c.update_log[0]).toMatchObject({ input_type: 'conversation', submission_ids: [ack2.id] })
      const { profile } = await gql.data(PROFILE_QUERY, { id: 'gq-conv' })
      expect(gqlProfileAsRest(profile)).toEqual(restProfileCore(c))

      // Defaults to TEXT; validation errors carry code and status.
      const ack3 = (await gql.data(`mutation { submitProfileData(id: "gq-text", data: "I love chess.") { id } }`))
        .submitProfileData
      expect(
        (await gql.data(`query ($id: ID!) { submission(id: $id) { inputType } }`, { id: ack3.id })).submission
          .inputType,
      ).toBe('TEXT')
      await api.waitReady('gq-text')
      const bad = await gql.raw(SUBMIT, { id: 'gq-bad', data: '[1, 2]', inputType: 'STRUCTURED' })
      expect(bad.status).toBe(400)
      expect(bad.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/structured/),
        extensions: { code: 'VALIDATION_FAILED', status: 400 },
      })
      expect((await api.get('/v1/profile/gq-bad')).status).toBe(404)
    })

    it('deleteProfile returns true, then false; the profile is gone from both APIs', async () => {
      expect((await api.post('doomed', structured({ core_info: { name: 'Dora' } }))).status).toBe(202)
      await api.waitReady('doomed')
      const del = `mutation ($id: ID!) { deleteProfile(id: $id) }`
      expect(await gql.data(del, { id: 'doomed' })).toEqual({ deleteProfile: true })
      expect(await gql.data(del, { id: 'doomed' })).toEqual({ deleteProfile: false })
      expect((await api.get('/v1/profile/doomed')).status).toBe(404)
      expect(await gql.data(PROFILE_QUERY, { id: 'doomed' })).toEqual({ profile: null })
      expect(await gql.data(del, { id: 'never-existed' })).toEqual({ deleteProfile: false })
    })
  })

  describe('tenant isolation', () => {
    let other: GqlApi
    let otherKey: string
    beforeAll(async () => {
      otherKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'gql')).api_key
      other = gqlApi(svc.url, otherKey)
    })

    it('queries: another tenant sees no profile, no search result, no submission', async () => {
      expect(await other.data(PROFILE_QUERY, { id: 'alice' })).toEqual({ profile: null })
      for (const vars of [
        {},
        { pageSize: 100 },
        { query: 'likes jazz', sensitivity: 0, pageSize: 100 },
        { filter: { field: 'ID', value: 'alice' } },
      ]) {
        const r = (await other.data(SEARCH_QUERY, vars)).searchProfiles
        expect(r).toMatchObject({ total: 0, profiles: [] })
      }
      expect(await other.data(`query ($id: ID!) { submission(id: $id) { id } }`, { id: aliceSubmissions[0] })).toEqual({
        submission: null,
      })
      // And the owner still sees it.
      expect(
        (await gql.data(`query ($id: ID!) { submission(id: $id) { id } }`, { id: aliceSubmissions[0] })).submission.id,
      ).toBe(aliceSubmissions[0])
    })

    it("mutations: another tenant's deleteProfile is false; its submitProfileData makes its own", async () => {
      const before = await api.profile('alice')
      expect(await other.data(`mutation { deleteProfile(id: "alice") }`)).toEqual({ deleteProfile: false })
      expect(await api.profile('alice')).toEqual(before)

      const ack = (
        await other.data(SUBMIT, {
          id: 'alice',
          data: JSON.stringify({ core_info: { name: 'Other Alice', location: 'Reykjavik' } }),
          inputType: 'STRUCTURED',
        })
      ).submitProfileData
      expect(ack.profileId).toBe('alice')
      const b = client(svc.url, otherKey)
      const mine = await b.waitReady('alice')
      expect(mine.core_info.name.value).toBe('Other Alice')
      expect(mine.update_log).toHaveLength(1)
      expect(mine.tenant_id).not.toBe(before.tenant_id)
      const { profile } = await other.data(PROFILE_QUERY, { id: 'alice' })
      expect(profile.coreInfo.location.value).toBe('Reykjavik')
      expect(profile.coreInfo.age).toBeNull()
      expect((await other.data(SEARCH_QUERY, {})).searchProfiles.total).toBe(1)
      // The first tenant's alice is untouched, and B's submission is invisible to A.
      expect(await api.profile('alice')).toEqual(before)
      expect(await gql.data(`query ($id: ID!) { submission(id: $id) { id } }`, { id: ack.id })).toEqual({
        submission: null,
      })
      expect(
        (await gql.data(SUBMISSIONS_QUERY, { id: 'alice', first: 100 })).profile.submissions.nodes.map(
          (n: any) => n.id,
        ),
      ).toEqual(aliceSubmissions)
      expect((await gql.data(SEARCH_QUERY, { filter: { field: 'NAME', value: 'Other' } })).searchProfiles.total).toBe(0)
    })
  })

  describe('errors carry extensions.code and extensions.status', () => {
    it('missing key -> 401 MISSING_API_KEY; invalid or malformed key -> 401 INVALID_API_KEY', async () => {
      const missing = await gqlHttp(svc.url, null, '{ __typename }')
      expect(missing.status).toBe(401)
      expect(missing.body).not.toHaveProperty('data')
      expect(missing.body.errors[0]).toMatchObject({
        message: 'Missing API key',
        extensions: { code: 'MISSING_API_KEY', status: 401 },
      })
      for (const key of ['pk_aaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'nonsense', `${svc.key}x`]) {
        const invalid = await gqlHttp(svc.url, key, '{ __typename }')
        expect(invalid.status).toBe(401)
        expect(invalid.body).not.toHaveProperty('data')
        expect(invalid.body.errors[0]).toMatchObject({
          message: 'Invalid API key',
          extensions: { code: 'INVALID_API_KEY', status: 401 },
        })
      }
      // The mutation did not run.
      const unauth = await gqlHttp(
        svc.url,
        null,
        'mutation { submitProfileData(id: "no-auth", data: "I love chess.") { id } }',
      )
      expect(unauth.status).toBe(401)
      expect((await api.get('/v1/profile/no-auth')).status).toBe(404)
    })

    it('WebSocket: a missing or invalid key closes the connection with 4403', async () => {
      for (const key of ['', 'pk_aaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']) {
        const c = connect(svc.url, undefined, { authorization: `Bearer ${key}` })
        const o = await overWs(c, '{ __typename }')
        await c.close()
        expect(o.results).toEqual([])
        expect(o.ended?.code).toBe(4403)
      }
    })

    it('invalid profile id -> VALIDATION_FAILED 400, for queries and mutations', async () => {
      for (const [query, vars] of [
        [PROFILE_QUERY, { id: 'bad id!' }],
        [`mutation ($id: ID!) { deleteProfile(id: $id) }`, { id: 'x'.repeat(201) }],
        [SUBMIT, { id: 'semi;colon', data: 'I love chess.', inputType: 'TEXT' }],
      ] as const) {
        const r = await gql.raw(query, vars)
        expect(r.status).toBe(400)
        expect(r.body.errors).toHaveLength(1)
        expect(r.body.errors[0]).toMatchObject({
          message: expect.stringMatching(/profile id/),
          extensions: { code: 'VALIDATION_FAILED', status: 400 },
        })
        expect(JSON.stringify(r.body.errors[0])).not.toMatch(/stack|at \w+ \(/)
      }
    })

    it('invalid search arguments -> VALIDATION_FAILED naming the argument', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ pageSize: 101 }, /pageSize/],
        [{ pageSize: 0 }, /pageSize/],
        [{ page: 0 }, /page/],
        [{ query: 'jazz', sensitivity: 101 }, /sensitivity/],
        [{ query: 'jazz', sensitivity: -1 }, /sensitivity/],
        [{ filter: { field: 'NAME', value: '' } }, /filter/i],
      ]
      for (const [vars, message] of cases) {
        const r = await gql.raw(SEARCH_QUERY, vars)
        expect(r.status, JSON.stringify(vars)).toBe(400)
        expect(r.body.errors).toHaveLength(1)
        expect(r.body.errors[0]).toMatchObject({
          message: expect.stringMatching(message),
          extensions: { code: 'VALIDATION_FAILED', status: 400 },
        })
      }
    })

    it('an unknown field or argument is a validation error with status 400 and no data', async () => {
      expectRejectedHttp(await gql.raw('{ profile(id: "alice") { nickname } }'), /Cannot query field "nickname"/)
      expectRejectedHttp(await gql.raw('{ profile(ident: "alice") { profileId } }'), /Unknown argument "ident"/)
      expectRejectedHttp(await gql.raw('{ searchProfiles(sort: { field: SHOE_SIZE }) { total } }'), /SHOE_SIZE/)
      expectRejectedHttp(await gql.raw('{ profile(id: "alice") { profileId '), /Syntax Error/)
    })
  })

  describe('development mode', () => {
    it('introspection is allowed over HTTP and WebSocket', async () => {
      const r = await gql.raw('{ __schema { types { name } } }')
      expectAcceptedHttp(r)
      expect(r.body.data.__schema.types.map((t: any) => t.name)).toEqual(
        expect.arrayContaining(['Profile', 'SearchResult']),
      )
      const c = connect(svc.url, svc.key)
      try {
        const o = await overWs(c, '{ __schema { types { name } } }')
        expectAcceptedWs(o)
        expect((o.results[0]!.data as any).__schema.types.map((t: any) => t.name)).toContain('Profile')
      } finally {
        await c.close()
      }
    })

    it('a misspelled field gets a "Did you mean" suggestion over HTTP and WebSocket', async () => {
      const r = await gql.raw('{ profile(id: "alice") { profileld } }')
      expectRejectedHttp(r, /Did you mean "profileId"\?/)
      const c = connect(svc.url, svc.key)
      try {
        expectRejectedWs(await overWs(c, '{ profile(id: "alice") { profileld } }'), /Did you mean "profileId"\?/)
      } finally {
        await c.close()
      }
    })
  })
})

/**
 * The low limits, and documents exactly at and just over each (costs per graphql-armor: object 2, scalar 1, x1.5 per
 * level, x`first`).
 */
const LIMITS = { depth: 4, aliases: 2, directives: 2, cost: 24, tokens: 64, wsPayloadBytes: 2048 }

const DOCS = {
  // depth: searchProfiles > profiles > profile > profileId = 4 (cost 14.375); one level more = 5 (cost 22.81).
  depthAt: '{ searchProfiles { total profiles { profile { profileId } } } }',
  depthOver: '{ searchProfiles { total profiles { profile { coreInfo { __typename } } } } }',
  depthOverSubscription:
    'subscription { profileStatusChanged(id: "ws-depth") { profile { interests { values { value } } } } }',
  // aliases
  aliasesAt: '{ a: profile(id: "nobody") { profileId } b: profile(id: "nobody-2") { profileId } }',
  aliasesOver: `{
    a: profile(id: "nobody") { profileId }
    b: profile(id: "nobody-2") { profileId }
    c: profile(id: "nobody-3") { profileId }
  }`,
  aliasesAtMutation: `mutation {
    a: submitProfileData(id: "alias-ok-1", data: "I love chess.") { id }
    b: submitProfileData(id: "alias-ok-2", data: "I love chess.") { id }
  }`,
  aliasesOverMutation: `mutation {
    a: submitProfileData(id: "rej-alias-1", data: "I love chess.") { id }
    b: submitProfileData(id: "rej-alias-2", data: "I love chess.") { id }
    c: submitProfileData(id: "rej-alias-3", data: "I love chess.") { id }
  }`,
  aliasesOverSubscription:
    'subscription { profileStatusChanged(id: "ws-alias") { a: profileId b: status c: profileId } }',
  // directives
  directivesAt: '{ profile(id: "nobody") @include(if: true) { profileId @skip(if: false) } }',
  directivesOver: '{ profile(id: "nobody") @include(if: true) { profileId @skip(if: false) status @skip(if: false) } }',
  directivesAtMutation:
    'mutation { submitProfileData(id: "dir-ok", data: "I love chess.") @include(if: true) { id @skip(if: false) } }',
  directivesOverMutation: `mutation {
    submitProfileData(id: "rej-dir", data: "I love chess.") @include(if: true) {
      id @include(if: true) profileId @skip(if: false)
    }
  }`,
  directivesOverSubscription: `subscription { profileStatusChanged(id: "ws-dir") {
    profileId @include(if: true) status @skip(if: false) __typename @include(if: true)
  } }`,
  // cost: 11 + 5 + 8 = 24; with pageSize 25.5
  costAt: `{
    profile(id: "nobody") { profileId status createdAt lastUpdated summary language }
    searchProfiles { total page }
    submission(id: "${UNKNOWN_UUID}") { id status createdAt attempts }
  }`,
  costOver: `{
    profile(id: "nobody") { profileId status createdAt lastUpdated summary language }
    searchProfiles { total page pageSize }
    submission(id: "${UNKNOWN_UUID}") { id status createdAt attempts }
  }`,
  // `first` multiplies: 16.25 with first 1, 30.5 with first 2
  costFirst1: '{ profile(id: "nobody") { history(first: 1) { entries { seq extractedOn } } } }',
  costFirst2: '{ profile(id: "nobody") { history(first: 2) { entries { seq extractedOn } } } }',
  // 5 + 19 x 1 = 24, and 25
  costAtMutation: `mutation {
    submitProfileData(id: "cost-ok", data: "I love chess.") { id profileId } ${'__typename '.repeat(19)}
  }`,
  costOverMutation: `mutation {
    submitProfileData(id: "rej-cost", data: "I love chess.") { id profileId } ${'__typename '.repeat(20)}
  }`,
  // 5 + 1.5 x 2 + 1.5 x (2 + 1.5 x 7 + 1.5 x 3.5) = 31.6, depth 4
  costOverSubscription: `subscription { profileStatusChanged(id: "ws-cost") { profileId status profile {
    profileId status createdAt lastUpdated summary language tenantId interests { category }
  } } }`,
  // tokens: 64 exactly (checked below), and 65
  tokensAt: `query (
    $q: String = "x", $f: SearchFilter = { field: ID, value: "x" }, $o: SearchSort = { field: ID, order: ASC }
  ) {
    searchProfiles(query: $q, sensitivity: 0, filter: $f, sort: $o, page: 1, pageSize: 10) { total }
  }`,
  tokensOver: `query (
    $q: String = "x", $f: SearchFilter = { field: ID, value: "x" }, $o: SearchSort = { field: ID, order: ASC }
  ) {
    searchProfiles(query: $q, sensitivity: 0, filter: $f, sort: $o, page: 1, pageSize: 10) { total __typename }
  }`,
  tokensOverMutation: `mutation {
    submitProfileData(id: "rej-tokens", data: "I love chess.") { id } ${'__typename '.repeat(50)}
  }`,
  tokensOverSubscription: `subscription {
    profileStatusChanged(id: "ws-tokens") { profileId ${'__typename '.repeat(53)}}
  }`,
  // Within every limit at once: depth 4, 2 aliases, 2 directives, cost 15.875, 35 tokens.
  subscriptionAtAll: `subscription { profileStatusChanged(id: "ws-ok") {
    a: profileId b: status @include(if: true) profile @skip(if: false) { interests { category } }
  } }`,
}

describe('GraphQL limits (depth 4, aliases 2, directives 2, cost 24, tokens 64, WebSocket frames 2048 bytes)', () => {
  let svc: TestService
  let api: Client
  let gql: GqlApi
  let ws: Socket

  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_GRAPHQL_MAX_DEPTH: String(LIMITS.depth),
        PROFILER_GRAPHQL_MAX_ALIASES: String(LIMITS.aliases),
        PROFILER_GRAPHQL_MAX_DIRECTIVES: String(LIMITS.directives),
        PROFILER_GRAPHQL_MAX_COST: String(LIMITS.cost),
        PROFILER_GRAPHQL_MAX_TOKENS: String(LIMITS.tokens),
        PROFILER_WS_MAX_PAYLOAD_BYTES: String(LIMITS.wsPayloadBytes),
      },
    })
    api = client(svc.url, svc.key)
    gql = gqlApi(svc.url, svc.key)
    ws = connect(svc.url, svc.key)
  })
  afterAll(async () => {
    await ws?.close()
    await svc?.close()
  })

  it('the documents are what they claim: every one within the token limit except the token tests', () => {
    for (const [name, doc] of Object.entries(DOCS)) {
      if (name.startsWith('tokensOver')) expect(countTokens(doc), name).toBe(LIMITS.tokens + 1)
      else if (name === 'tokensAt') expect(countTokens(doc)).toBe(LIMITS.tokens)
      else expect(countTokens(doc), name).toBeLessThanOrEqual(LIMITS.tokens)
    }
  })

  /** At the limit: accepted over HTTP and over WebSocket. Just over: rejected over both, before anything ran. */
  async function atAndOver(at: string, over: string, message: RegExp) {
    expectAcceptedHttp(await gql.raw(at))
    expectRejectedHttp(await gql.raw(over), message)
    expectAcceptedWs(await overWs(ws, at))
    expectRejectedWs(await overWs(ws, over), message)
  }

  /**
   * A subscription over a limit, on a raw socket: an `error` message for it, no `next` even when the profile it
   * names changes, and the socket stays usable.
   */
  async function subscriptionRefused(doc: string, profileId: string, message: RegExp) {
    const sock = await rawSocket(svc.url, svc.key)
    try {
      sock.send({ id: 's1', type: 'subscribe', payload: { query: doc } })
      const reply = await sock.nextMessage()
      expect(reply.type, JSON.stringify(reply)).toBe('error')
      expect(reply.id).toBe('s1')
      expect(reply.payload.map((e: any) => e.message).join('\n')).toMatch(message)
      for (const e of reply.payload) expect(e.extensions).toMatchObject({ status: 400 })
      expect((await api.post(profileId, { data: 'I love chess.' })).status).toBe(202)
      await api.waitReady(profileId)
      await expect(sock.nextMessage(500)).rejects.toThrow(/no message/)
      sock.send({ id: 's2', type: 'subscribe', payload: { query: '{ __typename }' } })
      expect(await sock.nextMessage()).toEqual({ id: 's2', type: 'next', payload: { data: { __typename: 'Query' } } })
    } finally {
      sock.ws.close()
    }
  }

  it('depth: 4 levels accepted, 5 rejected (HTTP, WebSocket, subscription)', async () => {
    await atAndOver(DOCS.depthAt, DOCS.depthOver, /depth/i)
    await subscriptionRefused(DOCS.depthOverSubscription, 'ws-depth', /depth/i)
  })

  it('aliases: 2 accepted, 3 rejected before any resolver ran (no submission was made)', async () => {
    const ok = await gql.raw(DOCS.aliasesAtMutation)
    expectAcceptedHttp(ok)
    expect(ok.body.data.a.id).not.toBe(ok.body.data.b.id)
    await api.waitReady('alias-ok-1')
    await api.waitReady('alias-ok-2')
    expectRejectedHttp(await gql.raw(DOCS.aliasesOverMutation), /alias/i)
    await atAndOver(DOCS.aliasesAt, DOCS.aliasesOver, /alias/i)
    await subscriptionRefused(DOCS.aliasesOverSubscription, 'ws-alias', /alias/i)
  })

  it('directives: 2 accepted, 3 rejected before any resolver ran', async () => {
    expectAcceptedHttp(await gql.raw(DOCS.directivesAtMutation))
    await api.waitReady('dir-ok')
    expectRejectedHttp(await gql.raw(DOCS.directivesOverMutation), /directive/i)
    await atAndOver(DOCS.directivesAt, DOCS.directivesOver, /directive/i)
    await subscriptionRefused(DOCS.directivesOverSubscription, 'ws-dir', /directive/i)
  })

  it('cost: a query at exactly the limit is accepted, one field more rejected; `first` multiplies', async () => {
    expectAcceptedHttp(await gql.raw(DOCS.costAtMutation))
    await api.waitReady('cost-ok')
    expectRejectedHttp(await gql.raw(DOCS.costOverMutation), /cost/i)
    await atAndOver(DOCS.costAt, DOCS.costOver, /cost/i)
    await atAndOver(DOCS.costFirst1, DOCS.costFirst2, /cost/i)
    await subscriptionRefused(DOCS.costOverSubscription, 'ws-cost', /cost/i)
  })

  it('tokens: 64 tokens parse, 65 do not', async () => {
    expectRejectedHttp(await gql.raw(DOCS.tokensOverMutation), /tokens/i)
    await atAndOver(DOCS.tokensAt, DOCS.tokensOver, /tokens/i)
    await subscriptionRefused(DOCS.tokensOverSubscription, 'ws-tokens', /tokens/i)
  })

  it('a subscription within every limit at once gets its events', async () => {
    const o = ws.subscribe(DOCS.subscriptionAtAll)
    // Opened last on the same socket: once this one sees its probe, `o` is live too.
    const probe = ws.subscribe<StatusEvent>('subscription { profileStatusChanged { profileId status } }')
    await untilLive(
      probe,
      async (id) => expect((await api.post(id, { data: 'I love chess.' })).status).toBe(202),
      'ws-probe',
    )
    probe.dispose()
    expect((await api.post('ws-ok', structured({ interests: { hobbies: ['chess'] } }))).status).toBe(202)
    await o.until((events) => events.length >= 2, 20_000, 'PROCESSING and READY of ws-ok')
    expect(o.errors).toEqual([])
    expect(o.ended).toBeUndefined()
    o.dispose()
    expect(o.results.map((r) => r.data)).toEqual([
      { profileStatusChanged: { a: 'ws-ok', b: 'PROCESSING', profile: { interests: [] } } }, // new: nothing merged yet
      { profileStatusChanged: { a: 'ws-ok', b: 'READY', profile: { interests: [{ category: 'hobbies' }] } } },
    ])
  })

  it('batching is off: a JSON array body is rejected and none of its operations runs', async () => {
    const r = await gqlHttp(svc.url, svc.key, '', undefined, {
      body: [
        { query: 'mutation { submitProfileData(id: "rej-batch-1", data: "I love chess.") { id } }' },
        { query: 'mutation { submitProfileData(id: "rej-batch-2", data: "I love chess.") { id } }' },
      ],
    })
    expect(r.status).toBe(400)
    expect(Array.isArray(r.body)).toBe(false)
    expect(r.body).not.toHaveProperty('data')
    expect(r.body.errors[0].message).toMatch(/batch/i)
    expect(r.body.errors[0].extensions.status).toBe(400)
  })

  it('a WebSocket frame at the payload limit is served; one byte more closes the socket with 1009', async () => {
    const sock = await rawSocket(svc.url, svc.key)
    const frame = (id: string, bytes: number) => {
      const base = { id, type: 'subscribe', payload: { query: '{ __typename }', extensions: { pad: '' } } }
      const pad = bytes - Buffer.byteLength(JSON.stringify(base))
      return JSON.stringify({ ...base, payload: { ...base.payload, extensions: { pad: 'x'.repeat(pad) } } })
    }
    const at = frame('at', LIMITS.wsPayloadBytes)
    expect(Buffer.byteLength(at)).toBe(LIMITS.wsPayloadBytes)
    sock.send(at)
    expect(await sock.nextMessage()).toEqual({ id: 'at', type: 'next', payload: { data: { __typename: 'Query' } } })
    expect(await sock.nextMessage()).toEqual({ id: 'at', type: 'complete' })
    const over = frame('over', LIMITS.wsPayloadBytes + 1)
    expect(Buffer.byteLength(over)).toBe(LIMITS.wsPayloadBytes + 1)
    sock.send(over)
    expect((await sock.closed).code).toBe(1009)
  })

  it('nothing of any rejected operation was created', async () => {
    for (const id of [
      'rej-alias-1',
      'rej-alias-2',
      'rej-alias-3',
      'rej-dir',
      'rej-cost',
      'rej-tokens',
      'rej-batch-1',
      'rej-batch-2',
    ]) {
      expect((await api.get(`/v1/profile/${id}`)).status, id).toBe(404)
    }
    expect((await api.search({ filterBy: 'id', filterValue: 'rej-' })).total).toBe(0)
    const [{ n }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS n FROM submissions WHERE profile_id LIKE 'rej-%'`,
    )
    expect(n).toBe(0)
    // While the accepted ones were.
    const listed = (
      await api.search({ filterBy: 'id', filterValue: '-ok', sortBy: 'id', sortOrder: 'asc' })
    ).profiles.map((p: any) => p.profile_id)
    expect(listed).toEqual(['alias-ok-1', 'alias-ok-2', 'cost-ok', 'dir-ok', 'ws-ok'])
  })
})

describe('production mode (NODE_ENV=production)', () => {
  let svc: TestService
  let gql: GqlApi
  let ws: Socket

  beforeAll(async () => {
    svc = await startService({ env: { NODE_ENV: 'production' } })
    gql = gqlApi(svc.url, svc.key)
    ws = connect(svc.url, svc.key)
  })
  afterAll(async () => {
    await ws?.close()
    await svc?.close()
  })

  it('introspection is rejected over HTTP and WebSocket; __typename still works', async () => {
    for (const q of ['{ __schema { types { name } } }', '{ __type(name: "Profile") { fields { name } } }']) {
      expectRejectedHttp(await gql.raw(q), /introspection/i)
      expectRejectedWs(await overWs(ws, q), /introspection/i)
    }
    expect(await gql.data('{ __typename }')).toEqual({ __typename: 'Query' })
  })

  it('validation errors carry no "Did you mean" suggestion, over HTTP and WebSocket', async () => {
    for (const [q, message] of [
      ['{ profile(id: "alice") { profileld } }', /Cannot query field "profileld" on type "Profile"/],
      ['{ profile(idd: "alice") { profileId } }', /Unknown argument "idd"/],
      ['{ searchProfiles(sort: { field: NAM }) { total } }', /NAM/],
    ] as const) {
      const r = await gql.raw(q)
      expectRejectedHttp(r, message)
      expect(JSON.stringify(r.body)).not.toMatch(/Did you mean/)
      const o = await overWs(ws, q)
      expectRejectedWs(o, message)
      expect(JSON.stringify(o.errors)).not.toMatch(/Did you mean/)
    }
  })
})

describe('GraphQL: subscriptions over HTTP', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => svc?.close())

  it('are refused with 400, pointing to the WebSocket', async () => {
    const { status, body } = await gqlHttp(svc.url, svc.key, 'subscription { profileStatusChanged { profileId } }')
    expect(status).toBe(400)
    expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 })
    expect(body.errors[0].message).toMatch(/WebSocket/)
  })

  it('a 401 carries WWW-Authenticate: Bearer', async () => {
    const res = await gqlHttp(svc.url, null, '{ __typename }')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
  })
})

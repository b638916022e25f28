// A seeded property fuzz of every REST route and GraphQL operation over real HTTP: generated methods, paths, ids,
// query strings, headers (keys and their variants, content types), bodies (JSON of every shape, junk, unicode with
// NUL, lone surrogates, astral and RTL characters, values near and over the limits) and GraphQL variables.
// Properties: no answer is a 5xx; every REST error is exactly {error: <status>, message} with an X-Request-Id;
// every GraphQL error has a code and shows no stack trace or SQL. At least 5,000 requests; FUZZ_SEED reproduces a run.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type TestService } from '../support/harness.js'

const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const PER_RUN = 8
const RUNS = Number(process.env.FUZZ_RUNS ?? 640) // 5,120 requests

/** Percent-encodes any JS string, lone surrogates included (as their UTF-8 replacement), so fetch can send it. */
const enc = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')

const nasty = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // any code point, NUL included
  fc.string({
    unit: fc.constantFrom(
      '\u0000',
      '\ud800',
      '\udfff',
      '\u202e',
      '\ufeff',
      '🎷',
      'é',
      '%',
      '_',
      "'",
      '"',
      '\\',
      '\n',
      ' ',
    ),
    maxLength: 30,
  }),
  fc.constantFrom(
    '',
    ' ',
    'a'.repeat(201),
    'x'.repeat(5000),
    'a%00b',
    '../../etc/passwd',
    "'; DROP TABLE profiles; --",
    '{{7*7}}',
    'null',
    '[]',
    '{}',
  ),
  // valid ids
  fc.string({ unit: fc.constantFrom('a', 'b', '.', '_', ':', '@', '+', '-', '0'), minLength: 1, maxLength: 30 }),
)
const bigText = fc.constantFrom(100 * 1024, 100 * 1024 + 1, 200 * 1024, 300 * 1024).map((n) => 'a '.repeat(n / 2))
const data = fc.oneof(
  { weight: 8, arbitrary: nasty },
  { weight: 1, arbitrary: bigText },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '{"core_info": {"name": "A\\u0000"}}',
      '{"interests": {"x": ["\\ud800"]}}',
      '[{"role":"user","content":"hi \\u0000"}]',
      'Ann: hi\nBob: yo',
      '{"core_info": {"age": -5}}',
      '{"core_info": {"age": 1e309}}',
      '[[[[[[[[[[]]]]]]]]]]',
      '{"a":'.repeat(2000),
    ),
  },
  { weight: 1, arbitrary: fc.anything() },
)

interface Spec {
  kind: 'rest' | 'graphql'
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}

function fuzz(key: string) {
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `bearer ${key}`,
        `Bearer  ${key} `,
        'Bearer',
        'Basic abc',
        `Bearer ${key}x`,
        'Bearer pk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
        '',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\t', '_', 'é', 'ÿ'), maxLength: 60 }) },
  )
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
    'APPLICATION/JSON',
  )
  const headers = fc
    .record(
      {
        authorization: auth,
        'content-type': contentType,
        'idempotency-key': fc.string({ unit: fc.constantFrom('a', '1', '-', 'é', ' '), maxLength: 300 }),
        'x-request-id': fc.constantFrom('req-1', 'a b', 'x'.repeat(200), ''),
      },
      { requiredKeys: ['authorization'] },
    )
    .map(
      (h) =>
        Object.fromEntries(Object.entries(h).filter(([k, v]) => v !== '' || k === 'authorization')) as Record<
          string,
          string
        >,
    )
  const qs = fc
    .dictionary(
      fc.constantFrom(
        'query',
        'sensitivity',
        'filterBy',
        'filterValue',
        'sortBy',
        'sortOrder',
        'page',
        'pageSize',
        'junk',
      ),
      fc.oneof(
        nasty,
        fc.constantFrom(
          'name',
          'age',
          'id',
          'asc',
          'desc',
          '0',
          '100',
          '101',
          '-1',
          '1.5',
          '1e3',
          'NaN',
          '99999999999',
        ),
      ),
      { maxKeys: 5 },
    )
    .map((q) =>
      Object.entries(q)
        .map(([k, v]) => `${k}=${enc(v)}`)
        .join('&'),
    )
  const body = fc.oneof(
    fc
      .record(
        {
          data,
          input_type: fc.oneof(fc.constantFrom('text', 'conversation', 'structured', 'TEXT', 'xml', ''), fc.anything()),
        },
        { requiredKeys: [] },
      )
      .map((b) => JSON.stringify(b) ?? ''),
    fc.oneof(
      nasty,
      fc.constantFrom('{', '[1,2]', 'null', '"str"', '{"data":"x"', '{"__proto__":{"polluted":1},"data":"x"}'),
    ),
  )
  const rest: fc.Arbitrary<Spec> = fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'),
      path: fc.oneof(
        nasty.map((id) => `/v1/profile/${enc(id)}`),
        qs.map((q) => `/v1/search?${q}`),
        qs.map((q) => `/v1/smart-search?${q}`),
        fc.constantFrom(
          '/v1/openapi.json',
          '/healthz',
          '/readyz',
          '/v1',
          '/v1/profile',
          '/v1/profile/',
          '/nope',
          '/v1/profile/a/b',
          '/dashboard/graphql',
        ),
      ),
      headers,
      body,
    })
    .map((r) => ({ kind: 'rest' as const, ...r, body: ['GET', 'HEAD'].includes(r.method) ? undefined : r.body }))

  const templates: fc.Arbitrary<{ query: string; variables: Record<string, unknown> }>[] = [
    fc.record({ id: nasty, n: fc.integer({ min: -5, max: 1000 }) }).map((v) => ({
      query: `query($id: ID!, $n: Int) { profile(id: $id) {
        profileId status summary coreInfo { name { value confidence } }
        history(first: $n) { entries { seq changes } } submissions(first: $n) { nodes { status error } }
      } }`,
      variables: v,
    })),
    fc
      .record(
        {
          q: fc.option(nasty),
          s: fc.option(fc.oneof(fc.double(), fc.integer())),
          p: fc.option(fc.integer()),
          ps: fc.option(fc.integer({ min: -10, max: 1000 })),
          f: fc.option(fc.record({ field: fc.constantFrom('ID', 'NAME', 'AGE', 'STATUS', 'BOGUS'), value: nasty })),
        },
        { requiredKeys: [] },
      )
      .map((v) => ({
        query: `query($q: String, $s: Float, $p: Int, $ps: Int, $f: SearchFilter) {
          searchProfiles(query: $q, sensitivity: $s, page: $p, pageSize: $ps, filter: $f) {
            total page profiles { profileId similarityScore }
          }
        }`,
        variables: v,
      })),
    fc
      .record({
        id: nasty,
        d: data,
        t: fc.constantFrom('TEXT', 'CONVERSATION', 'STRUCTURED', 'text', 'NOPE'),
        k: fc.option(nasty),
      })
      .map((v) => ({
        query: `mutation($id: ID!, $d: String!, $t: InputType!, $k: String) {
          submitProfileData(id: $id, data: $d, inputType: $t, idempotencyKey: $k) { id profileId message }
        }`,
        variables: v,
      })),
    fc.record({ id: nasty }).map((v) => ({ query: 'mutation($id: ID!) { deleteProfile(id: $id) }', variables: v })),
    fc.record({ id: nasty }).map((v) => ({
      query: 'query($id: ID!) { submission(id: $id) { id status attempts } usage { totalTokens submissions } }',
      variables: v,
    })),
    fc
      .oneof(
        nasty,
        fc.constantFrom(
          '{',
          'query { __schema { types { name } } }',
          'subscription { profileStatusChanged { status } }',
          '{ a: profile(id: "1") { status } b: profile(id: "2") { status } }',
          `{ ${'profile(id: "x") { status } '.repeat(3)} }`,
          '{ profile(id: "x") { '.repeat(20),
        ),
      )
      .map((q) => ({ query: q, variables: {} })),
  ]
  const graphql: fc.Arbitrary<Spec> = fc
    .record({ op: fc.oneof(...templates), headers, junkVariables: fc.boolean() })
    .map(({ op, headers: h, junkVariables }) => ({
      kind: 'graphql' as const,
      method: 'POST',
      path: '/graphql',
      headers: { ...h, 'content-type': 'application/json' },
      body: JSON.stringify({ query: op.query, variables: junkVariables ? 'not an object' : op.variables }),
    }))
  // Near-valid submissions: a valid key, id and content type, so that what is inside the body gets exercised.
  const validId = fc.string({
    unit: fc.constantFrom('a', 'b', 'c', '.', '_', ':', '@', '+', '-', '0'),
    minLength: 1,
    maxLength: 20,
  })
  const nearValid: fc.Arbitrary<Spec> = fc
    .record({
      id: validId,
      data,
      type: fc.constantFrom('text', 'conversation', 'structured', undefined),
      key: fc.option(fc.string({ unit: fc.constantFrom('a', '1', '-'), minLength: 1, maxLength: 10 })),
    })
    .map(({ id, data: d, type, key: k }) => ({
      kind: 'rest' as const,
      method: 'POST',
      path: `/v1/profile/${enc(id)}`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(k ? { 'idempotency-key': k } : {}),
      },
      body: JSON.stringify({ data: d, ...(type ? { input_type: type } : {}) }) ?? '{}',
    }))
  return fc.oneof(
    { weight: 3, arbitrary: rest },
    { weight: 2, arbitrary: graphql },
    { weight: 2, arbitrary: nearValid },
  )
}

// A stack frame names a file ("at fn (/src/x.ts:1:2)"); prose such as "at most (1-50)" is not one.
const LEAK = new RegExp(
  /\bat [\w.<>]+ \((?:\/|file:|node:)|node_modules|\.ts:\d+/.source +
    '|' +
    /SELECT |INSERT |UPDATE |relation "|syntax error at|QueryFailedError/.source,
)

describe('fuzz: every REST route and GraphQL operation', () => {
  let svc: TestService
  beforeAll(async () => {
    // API only: the fuzz is about answering requests; what the accepted ones make is processed elsewhere in the suite.
    svc = await startService({
      role: 'api',
      env: { PROFILER_RATE_LIMIT_PER_MINUTE: '1000000', PROFILER_AUTH_FAILURES_PER_MINUTE: '1000000' },
    })
  })
  afterAll(async () => svc?.close())

  it(`${RUNS * PER_RUN} generated requests: no 5xx, every error in the contract's shape (seed ${SEED})`, async () => {
    let sent = 0
    const statuses = new Map<number, number>()
    const send = async (s: Spec) => {
      const r = await fetch(`${svc.url}${s.path}`, { method: s.method, headers: s.headers, body: s.body })
      const text = await r.text()
      sent++
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
      const what = `${s.method} ${s.path.slice(0, 200)} -> ${r.status} ${text.slice(0, 300)}`
      expect(r.status, what).toBeLessThan(500)
      expect(r.headers.get('x-request-id'), what).toBeTruthy()
      expect(text, what).not.toMatch(LEAK)
      // GraphQL endpoints (also when the REST generator hits them) answer in GraphQL's shape.
      const isGraphql = /^\/(dashboard\/)?graphql\b/.test(s.path)
      if (!isGraphql && r.status >= 400 && s.method !== 'HEAD') {
        const body = JSON.parse(text)
        expect(Object.keys(body).sort(), what).toEqual(['error', 'message'])
        expect(body.error, what).toBe(r.status)
        expect(body.message, what).toMatch(/\S/)
      }
      if (isGraphql && text) {
        const body = JSON.parse(text)
        for (const e of body.errors ?? []) expect(e.extensions?.code, what).toMatch(/^[A-Z_]+$/)
        if (r.status >= 400 && !body.errors) expect(Object.keys(body).sort(), what).toEqual(['error', 'message'])
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fuzz(svc.key), { minLength: PER_RUN, maxLength: PER_RUN }), async (specs) => {
        await Promise.all(specs.map(send))
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    expect(sent).toBeGreaterThanOrEqual(RUNS * PER_RUN)
    const byStatus = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]))
    console.log(`fuzz seed ${SEED}: ${sent} requests, statuses ${JSON.stringify(byStatus)}`)
  }, 600_000)
})

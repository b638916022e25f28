// One request budget for every transport, over real HTTP and real WebSockets: keyed by the authenticated app (not the
// header's text), charged per GraphQL root field, shared by API processes on a server database; failed
// authentications limited per client address; sockets and subscriptions capped; one tenant's calls bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { connect, gql, type Socket } from '../support/graphql-client.js'
import { SERVER_URL, startService, testConfig, type TestService } from '../support/harness.js'

const LIMIT = 40

async function newKey(svc: TestService, name: string, tenant = 'default'): Promise<string> {
  return (await svc.profiler.services.tenants.createApp(tenant, name)).api_key
}

/**
 * The budget slides (a minute's window plus the previous one's share): a run that crosses a window's edge may get
 * what decayed meanwhile, at most `limit` per minute of its own duration. Bounds below allow for that and no more.
 */
const slack = (limit: number, since: number) => Math.ceil((limit * (Date.now() - since)) / 60_000)

const get = (svc: TestService, authorization: string, path = '/v1/search') =>
  fetch(`${svc.url}${path}`, { headers: { authorization } })

describe('request budget', () => {
  let svc: TestService
  const sockets: Socket[] = []
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: String(LIMIT),
        PROFILER_WS_MAX_SOCKETS: '3',
        PROFILER_WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '2',
        PROFILER_TENANT_CONCURRENCY: '2',
      },
    })
  })
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => undefined)
    await svc?.close()
  })
  const open = (key: string) => {
    const s = connect(svc.url, key)
    sockets.push(s)
    return s
  }

  it('is keyed by the app, not the header text: case and whitespace variants share one budget', async () => {
    const key = await newKey(svc, 'variants')
    const variants = [
      `Bearer ${key}`,
      `bearer ${key}`,
      `BEARER ${key}`,
      `Bearer   ${key}`,
      ` Bearer ${key} `,
      `Bearer\t${key}`,
    ]
    const statuses: number[] = []
    const t0 = Date.now()
    for (let i = 0; i < LIMIT + 20; i++) statuses.push((await get(svc, variants[i % variants.length]!)).status)
    const admitted = statuses.filter((s) => s === 200).length
    expect(admitted).toBeGreaterThanOrEqual(LIMIT)
    expect(admitted).toBeLessThanOrEqual(LIMIT + slack(LIMIT, t0))
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true)
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true)
  })

  it('REST requests, GraphQL over HTTP and over WebSocket draw on the same budget; aliases count', async () => {
    const key = await newKey(svc, 'transports')
    const t0 = Date.now()
    for (let i = 0; i < 20; i++) expect((await get(svc, `Bearer ${key}`)).status).toBe(200)
    // Ten aliased root fields cost ten.
    const aliased = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: profile(id: "x${i}") { status }`).join(' ')} }`
    const r = await gql(svc.url, key, aliased)
    expect(r.status).toBe(200)
    expect(Number(r.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(10)
    const ws = open(key)
    await ws.connected
    // The remaining ten are served over the socket, then it is refused like the rest.
    let served = 0
    let refused: { errors?: any[] } | undefined
    while (!refused && served < 20) {
      const x = await ws.once('{ profile(id: "nobody") { status } }')
      if (x.errors) refused = x
      else served++
    }
    expect(served).toBeGreaterThanOrEqual(10)
    expect(served).toBeLessThanOrEqual(10 + slack(LIMIT, t0))
    expect(refused!.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(refused!.errors?.[0]?.extensions.retryAfter).toBeGreaterThan(0)
    // Now every transport refuses.
    const rest = await get(svc, `Bearer ${key}`)
    expect(rest.status).toBe(429)
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0)
    const http = await gql(svc.url, key, '{ profile(id: "a") { status } }')
    expect(http.status).toBe(429)
    expect(Number(http.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(http.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
  })

  it('GraphQL requests with an invalid document count too (each cost a key lookup)', async () => {
    const key = await newKey(svc, 'invalid-docs')
    const t0 = Date.now()
    const statuses: number[] = []
    for (let i = 0; i < LIMIT + 10; i++) statuses.push((await gql(svc.url, key, '{ noSuchField }')).status)
    const answered = statuses.filter((s) => s === 400).length
    expect(answered).toBeGreaterThanOrEqual(LIMIT)
    expect(answered).toBeLessThanOrEqual(LIMIT + slack(LIMIT, t0))
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT + 10 - answered)
  })

  it('a batch of aliased mutations is charged per mutation, and a refused batch runs none of them', async () => {
    const key = await newKey(svc, 'aliases')
    const batch = (from: number) => {
      const mutations = Array.from(
        { length: 15 },
        (_, i) => `m${i}: submitProfileData(id: "alias-${from + i}", data: "I like tea.") { id }`,
      )
      return `mutation { ${mutations.join(' ')} }`
    }
    expect((await gql(svc.url, key, batch(0))).body.errors).toBeUndefined()
    expect((await gql(svc.url, key, batch(15))).body.errors).toBeUndefined()
    const third = await gql(svc.url, key, batch(30))
    expect(third.status).toBe(429)
    expect(third.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED')
    const ctx = {
      tenantId: (await svc.profiler.services.tenants.authenticate(key, 't')).tenantId,
      appId: 'x',
      requestId: 't',
    }
    expect(await svc.profiler.services.profiles.find(ctx, 'alias-29')).not.toBeNull()
    expect(await svc.profiler.services.profiles.find(ctx, 'alias-30')).toBeNull()
  })

  it('PROFILER_WS_MAX_SOCKETS per key (4429), PROFILER_WS_MAX_SUBSCRIPTIONS_PER_SOCKET per socket', async () => {
    const key = await newKey(svc, 'sockets')
    const [a, b, c] = [open(key), open(key), open(key)]
    await Promise.all([a.connected, b.connected, c.connected])
    const d = open(key)
    await expect(d.connected).rejects.toThrow()
    expect(d.closes[0]?.code).toBe(4429)
    await c.close()
    const e = open(key)
    await e.connected
    const s1 = a.status('one')
    const s2 = a.status('two')
    const s3 = a.status('three')
    await s3.untilEnded()
    expect(s3.errors[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(s1.ended).toBeUndefined()
    expect(s2.ended).toBeUndefined()
  })

  it("one tenant's flood is held to the tenant gate (at most the pool); others are served meanwhile", async () => {
    const key = await newKey(svc, 'flood')
    const tenantId = (await svc.profiler.services.tenants.authenticate(key, 't')).tenantId
    const other = await newKey(svc, 'calm', 'other-tenant')
    let peak = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, svc.profiler.services.budget.tenants.load(tenantId).running)
        await new Promise((r) => setImmediate(r))
      }
    })()
    const flood = Promise.all(
      Array.from({ length: LIMIT }, () => get(svc, `Bearer ${key}`, '/v1/search?query=tea&sensitivity=0')),
    )
    const calm: number[] = []
    for (let i = 0; i < 5; i++) calm.push((await get(svc, `Bearer ${other}`, '/v1/profile/nobody')).status)
    const statuses = (await flood).map((r) => r.status)
    sampling = false
    await sampler
    expect(calm).toEqual([404, 404, 404, 404, 404])
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true)
    expect(peak).toBeGreaterThan(0)
    expect(peak).toBeLessThanOrEqual(10) // the pool (the gate's rules in detail: test/unit/budget.test.ts)
  })
})

describe('request budget: floods', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_AUTH_FAILURES_PER_MINUTE: '10' } })
  })
  afterAll(async () => svc?.close())

  it('3,000 queries on one socket: 600 served, the rest RATE_LIMITED; the pool holds; others served', async () => {
    const key = await newKey(svc, 'ws-flood')
    const other = await newKey(svc, 'bystander', 'bystanders')
    const ws = connect(svc.url, key)
    try {
      await ws.connected
      const t0 = Date.now()
      // In waves of 150 (within what the tenant gate lets wait), so every refusal here is the rate limit's.
      const flood = (async () => {
        const all: { data?: any; errors?: any[] }[] = []
        for (let w = 0; w < 20; w++)
          all.push(
            ...(await Promise.all(
              Array.from({ length: 150 }, (_, i) => ws.once(`{ profile(id: "p${i % 50}") { status } }`)),
            )),
          )
        return all
      })()
      const bystander: number[] = []
      for (let i = 0; i < 20; i++) bystander.push((await get(svc, `Bearer ${other}`, '/v1/profile/nobody')).status)
      const results = await flood
      const codes = results.map((r) => r.errors?.[0]?.extensions?.code ?? 'OK')
      const count = (c: string) => codes.filter((x) => x === c).length
      expect(count('OK')).toBeGreaterThanOrEqual(600)
      expect(count('OK')).toBeLessThanOrEqual(600 + slack(600, t0))
      expect(count('RATE_LIMITED')).toBe(3000 - count('OK'))
      expect(bystander.every((s) => s === 404)).toBe(true)
    } finally {
      await ws.close()
    }
  })

  it('invalid keys are limited per client address before any lookup; a key that works keeps working', async () => {
    const good = await newKey(svc, 'good')
    expect((await get(svc, `Bearer ${good}`)).status).toBe(200)
    const statuses: number[] = []
    const t0 = Date.now()
    for (let i = 0; i < 30; i++) {
      const bogus = `pk_${'A'.repeat(12)}_${String(i).padStart(32, 'x')}`
      statuses.push((await get(svc, `Bearer ${bogus}`)).status)
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true)
    const looked = statuses.filter((s) => s === 401).length
    expect(looked).toBeLessThanOrEqual(10 + slack(10, t0))
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - looked)
    const refused = await get(svc, 'Bearer pk_AAAAAAAAAAAA_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toEqual({ error: 429, message: expect.stringMatching(/failed authentications/) })
    // GraphQL over HTTP and WebSocket are refused the same way.
    expect(
      (await gql(svc.url, 'pk_AAAAAAAAAAAA_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '{ profile(id: "a") { status } }'))
        .status,
    ).toBe(429)
    const ws = connect(svc.url, 'pk_AAAAAAAAAAAA_wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww')
    await expect(ws.connected).rejects.toThrow()
    expect(ws.closes[0]?.code).toBe(4429)
    // The key that authenticated before is still served from this address.
    expect((await get(svc, `Bearer ${good}`)).status).toBe(200)
  })
})

describe.skipIf(!SERVER_URL)('request budget: shared by API processes on a server database', () => {
  let svc: TestService
  let second: Profiler
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: String(LIMIT) } })
    second = await startProfiler(
      testConfig(svc.db, { PROFILER_RATE_LIMIT_PER_MINUTE: String(LIMIT), PROFILER_BOOTSTRAP: 'false' }),
      { role: 'api' },
    )
  })
  afterAll(async () => {
    await second?.close()
    await svc?.close()
  })

  it('what one process admitted counts in the other', async () => {
    const key = await newKey(svc, 'shared')
    const t0 = Date.now()
    let admitted = 0
    for (let i = 0; i < 30; i++) if ((await get(svc, `Bearer ${key}`)).status === 200) admitted++
    expect(admitted).toBe(30)
    await svc.profiler.services.budget.operations.sync()
    // The second process learns the key's shared count at its first request and next exchange.
    const at = (path: string) => fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
    expect((await at('/v1/search')).status).toBe(200)
    await second.services.budget.operations.sync()
    let more = 1
    for (let i = 0; i < 30; i++) if ((await at('/v1/search')).status === 200) more++
    expect(admitted + more).toBeGreaterThanOrEqual(LIMIT)
    expect(admitted + more).toBeLessThanOrEqual(LIMIT + slack(LIMIT, t0))
  })
})

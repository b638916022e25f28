// Issue 22, "work stops when its request stops": a GraphQL operation's limits are checked, and its cost charged, before
// it runs, over HTTP (an Apollo plugin) and over WebSocket (graphql-ws's onSubscribe): an operation that would resolve
// more than 10 `context` fields (aliases, fragments and a search's page counted) is refused having done nothing; each
// context costs one operation of the budget, like a REST context call; all exportProfile fields of one operation share
// one byte cap. Through the running service, with real clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProfileContextService } from '../../src/services/profile-context.service.js'
import { appBudgetKey } from '../../src/services/budget.js'
import { connect, gql, type Socket } from '../support/graphql-client.js'
import { client, startService, type TestService } from '../support/harness.js'
import { importFile, importProfiles, longText } from '../support/import-file.js'
import { sleep } from '../support/wait.js'

const KIB100 = 100 * 1024
const LIMIT = 100_000

/** Calls that reached the context service (work started), counted on its prototype (the service object is gated). */
function contextCalls() {
  const proto = ProfileContextService.prototype
  const original = proto.context
  const calls = { n: 0, restore: () => void (proto.context = original) }
  proto.context = async function (this: ProfileContextService, ...args: Parameters<typeof original>) {
    calls.n++
    return original.apply(this, args)
  }
  return calls
}

const aliases = (n: number, field = (i: number) => `c${i}: context(maxTokens: ${40 + i}) { tokens }`) =>
  `{ profile(id: "small") { ${Array.from({ length: n }, (_, i) => field(i)).join(' ')} } }`

describe('GraphQL: limits and cost before execution', () => {
  let svc: TestService
  const sockets: Socket[] = []
  let calls: ReturnType<typeof contextCalls>

  /** A tenant of its own (its own budget), holding a small profile "small". */
  const tenant = async (name: string) => {
    const key = (await svc.profiler.services.tenants.createApp(name, 'app')).api_key
    await importProfiles(svc.url, key, importFile([{ id: 'small', interests: 12, memories: 3 }]))
    return key
  }
  const socket = async (key: string) => {
    const s = connect(svc.url, key)
    sockets.push(s)
    await s.connected
    return s
  }

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: String(LIMIT) } })
    calls = contextCalls()
  })
  afterAll(async () => {
    calls?.restore()
    for (const s of sockets) await s.close()
    await svc?.close()
  })

  it('refused before it runs over the context bound (HTTP, WebSocket); aliases, fragments, pages count', async () => {
    const key = await tenant('refused')
    const ws = await socket(key)
    const refusedHttp = async (query: string, variables?: Record<string, unknown>) => {
      const before = calls.n
      const r = await gql(svc.url, key, query, variables)
      expect(r.status, JSON.stringify(r.body)).toBe(400)
      expect(r.body.data).toBeUndefined()
      expect(r.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', status: 400 } })
      expect(r.body.errors[0].message).toMatch(/at most 10 in one operation/)
      expect(calls.n - before, 'contexts started by a refused operation').toBe(0)
      return r.body.errors[0].message as string
    }
    const refusedWs = async (query: string, variables?: Record<string, unknown>) => {
      const before = calls.n
      const r = await ws.once(query, variables)
      expect(r.data).toBeUndefined()
      expect(r.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', status: 400 } })
      expect(calls.n - before, 'contexts started by a refused operation').toBe(0)
      return r.errors![0].message as string
    }

    expect(await refusedHttp(aliases(11))).toMatch(/would resolve 11/)
    expect(await refusedWs(aliases(11))).toMatch(/would resolve 11/)
    // Fragments spread under two aliased profiles: 2 x 6.
    const sixContexts = Array.from({ length: 6 }, (_, i) => `x${i}: context(maxTokens: ${50 + i}) { tokens }`)
    const fragments = `{ a: profile(id: "small") { ...C } b: profile(id: "small") { ...C } }
      fragment C on Profile { ${sixContexts.join(' ')} }`
    expect(await refusedHttp(fragments)).toMatch(/would resolve 12/)
    expect(await refusedWs(fragments)).toMatch(/would resolve 12/)
    // A search counts its whole page (the tenant has one profile): pageSize from a variable, or the default 10.
    const search = `query ($n: Int) { searchProfiles(pageSize: $n) { profiles { profile {
      a: context { tokens } b: context(maxTokens: 9) { tokens }
    } } } }`
    expect(await refusedHttp(search, { n: 6 })).toMatch(/would resolve 12/)
    expect(await refusedWs(search)).toMatch(/would resolve 20/)

    // Within the bound, it runs (and resolves exactly what was counted).
    let before = calls.n
    const ten = await gql(svc.url, key, aliases(10))
    expect(ten.status).toBe(200)
    expect(Object.keys(ten.body.data.profile)).toHaveLength(10)
    expect(calls.n - before).toBe(10)
    before = calls.n
    const five = await ws.once(search, { n: 5 })
    expect(five.errors).toBeUndefined()
    expect(five.data.searchProfiles.profiles).toHaveLength(1)
    expect(calls.n - before).toBe(2)
  })

  /** The cost `run` was charged: the budget's remaining before and after it, on a fresh key (no earlier window). */
  const costOf = async (name: string, run: (key: string, ws: Socket) => Promise<unknown>): Promise<number> => {
    for (;;) {
      const key = await tenant(name + Math.random().toString(36).slice(2, 8))
      const ws = await socket(key)
      const probe = async () => {
        const r = await client(svc.url, key).get('/v1/profile/small')
        await r.arrayBuffer()
        return {
          remaining: Number(r.headers.get('ratelimit-remaining')),
          reset: Number(r.headers.get('ratelimit-reset')),
        }
      }
      const a = await probe()
      await run(key, ws)
      const b = await probe()
      // A window that ended in between moves counts into the sliding estimate: measure again.
      if (b.reset > a.reset) continue
      return a.remaining - b.remaining - 1
    }
  }

  it('charges a root field and a context each (times multiplicity) before it runs, HTTP and WebSocket', async () => {
    const twoContexts = '{ profile(id: "small") { a: context { tokens } b: context(maxTokens: 5) { tokens } } }'
    const page = '{ searchProfiles(pageSize: 4) { profiles { profile { context { tokens } } } } }'
    const exports = '{ a: exportProfile(id: "small") b: exportProfile(id: "small") c: exportProfile(id: "small") }'
    const http = (q: string) => async (key: string) => expect((await gql(svc.url, key, q)).body.errors).toBeUndefined()
    const ws = (q: string) => async (_key: string, s: Socket) => expect((await s.once(q)).errors).toBeUndefined()
    const costs = {
      httpTwoContexts: await costOf('cost', http(twoContexts)),
      wsTwoContexts: await costOf('cost', ws(twoContexts)),
      httpPageOf4: await costOf('cost', http(page)),
      wsPageOf4: await costOf('cost', ws(page)),
      httpThreeExports: await costOf('cost', http(exports)),
      wsThreeExports: await costOf('cost', ws(exports)),
    }
    console.log(JSON.stringify({ costs }))
    // A page of 4 costs 4 contexts whatever the search finds (1 profile here): the cost is known before it runs.
    expect(costs).toEqual({
      httpTwoContexts: 3,
      wsTwoContexts: 3,
      httpPageOf4: 5,
      wsPageOf4: 5,
      httpThreeExports: 3,
      wsThreeExports: 3,
    })

    // Charged before it runs: an operation whose contexts do not fit what is left is refused having started none.
    const key = await tenant('spent')
    const s = await socket(key)
    const ctx = await svc.profiler.services.tenants.authenticate(key, 'test')
    svc.profiler.services.budget.charge(appBudgetKey(ctx), LIMIT - 8)
    const before = calls.n
    const overWs = await s.once(aliases(10))
    expect(overWs.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    const overHttp = await gql(svc.url, key, aliases(10))
    expect(overHttp.status).toBe(429)
    expect(overHttp.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(calls.n - before).toBe(0)
    // What is left still serves what fits.
    expect((await s.once(aliases(3))).errors).toBeUndefined()
  })

  it("a subscription pays for each event's contexts before they resolve; no count across events", async () => {
    const key = await tenant('events')
    const s = await socket(key)
    const api = client(svc.url, key)
    const elevenContexts = aliases(11).slice(2, -2).replace('profile(id: "small")', 'profile')
    expect((await s.once(`subscription { profileStatusChanged { ${elevenContexts} } }`)).errors?.[0]?.message).toMatch(
      /would resolve 11/,
    )
    const rec = s.subscribe<any>(
      'subscription { profileStatusChanged(id: "sub") { status profile { context(maxTokens: 30) { tokens } } } }',
    )
    const ready = (n: number) =>
      rec.until((es) => es.filter((e) => e.status === 'READY').length >= n, 30_000, `${n} READY events`)
    expect((await api.post('sub', { data: 'I live in Oslo.' })).status).toBe(202)
    await ready(1)
    const remaining = async () => {
      const r = await api.get('/v1/profile/sub')
      await r.arrayBuffer()
      return {
        remaining: Number(r.headers.get('ratelimit-remaining')),
        reset: Number(r.headers.get('ratelimit-reset')),
      }
    }
    const r0 = await remaining()
    const e0 = rec.events.length
    const texts = [
      'I love jazz.',
      'I am a nurse.',
      'I like chess.',
      'I enjoy sailing.',
      'I play tennis.',
      'I read poetry.',
    ]
    for (const [i, data] of texts.entries()) {
      expect((await api.post('sub', { data })).status).toBe(202)
      await ready(i + 2)
    }
    const r1 = await remaining()
    const events = rec.events.length - e0
    console.log(
      JSON.stringify({ events: rec.events.length, charged: r0.remaining - r1.remaining, posts: texts.length }),
    )
    // More than 10 events, each with its context resolved (a counter per operation failed the 11th).
    expect(rec.events.length).toBeGreaterThan(10)
    expect(rec.errors).toEqual([])
    expect(rec.events.every((e) => e.profile === null || e.profile.context.tokens > 0)).toBe(true)
    // Each event paid its one context: the posts, the events and the last GET.
    if (r1.reset <= r0.reset) expect(r0.remaining - r1.remaining).toBe(texts.length + events + 1)
    rec.dispose()
  })

  it("exportProfile's cap is per operation: 15 aliases of a large profile stay within it, memory bounded", async () => {
    const key = await tenant('exports')
    // One profile whose export is about 6 MB: 60 submissions of 100 KiB, exported with their text.
    await importProfiles(
      svc.url,
      key,
      importFile([{ id: 'bulky', texts: Array.from({ length: 60 }, (_, i) => longText(KIB100, i)) }]),
    )
    const one = await gql(svc.url, key, '{ exportProfile(id: "bulky", includeText: true) }')
    expect(one.body.errors).toBeUndefined()
    const size = Buffer.byteLength(one.body.data.exportProfile)
    expect(size).toBeGreaterThan(6_000_000)
    expect(size).toBeLessThan(8 * 1024 * 1024)

    const exportAliases = Array.from({ length: 15 }, (_, i) => `e${i}: exportProfile(id: "bulky", includeText: true)`)
    const fifteen = `{ ${exportAliases.join(' ')} }`
    const answer = async () => {
      const r = await fetch(`${svc.url}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: fifteen }),
      })
      const text = await r.text()
      return { bytes: Buffer.byteLength(text), body: JSON.parse(text) }
    }
    // RSS sampled while 8 such operations run at once (the issue measured 2.1 GB).
    global.gc?.()
    const rss0 = process.memoryUsage().rss
    let peak = rss0
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
    const t = performance.now()
    const answers = await Promise.all(Array.from({ length: 8 }, answer))
    const ms = performance.now() - t
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    const ws = await socket(key)
    const overWs = await ws.once(fifteen)
    console.log(
      JSON.stringify({
        exportBytes: size,
        answerBytes: answers.map((a) => a.bytes),
        rssDeltaMB: Math.round((peak - rss0) / 1e6),
        ms: Math.round(ms),
      }),
    )
    for (const a of [...answers.map((x) => x.body), overWs]) {
      // The first export fits, the second goes over the cap: refused (a non-null field's error nulls the data), and
      // those after it read nothing.
      expect(a.data ?? null).toBeNull()
      expect(a.errors[0].extensions.code, JSON.stringify(a.errors[0])).toBe('PAYLOAD_TOO_LARGE')
      expect(a.errors[0].message).toMatch(/exports of this request are over 8388608 bytes in all/)
    }
    for (const a of answers) expect(a.bytes).toBeLessThan(8 * 1024 * 1024)
    // Without the shared cap each answer is 15 x 6 MB, and 8 at once took RSS up by gigabytes.
    expect(peak - rss0).toBeLessThan(400e6)
  })

  it("20 refused context-heavy operations: another tenant's GETs as when idle, /healthz under 1 s", async () => {
    const key = await tenant('heavy')
    await importProfiles(svc.url, key, importFile([{ id: 'huge', interests: 2000, memories: 2000 }]))
    const bystander = client(svc.url, await tenant('calm'))
    const ws = await socket(key)
    // A context of the huge profile once, so the CPU thread is up and what follows measures the refusals.
    const warmStart = performance.now()
    const warm = await gql(
      svc.url,
      key,
      '{ profile(id: "huge") { context(maxTokens: 32000, query: "jazz festival") { factsTotal } } }',
    )
    expect(warm.body.data.profile.context.factsTotal).toBeGreaterThan(4000)
    const oneContextMs = performance.now() - warmStart

    const elevenContexts = Array.from(
      { length: 11 },
      (_, i) => `c${i}: context(maxTokens: 32000, query: "jazz and chess ${i}") { text }`,
    )
    const heavy = `{ profile(id: "huge") { ${elevenContexts.join(' ')} } }`
    // The bystander's GETs with nothing else running, for the same machine's load: what the refusals are held to.
    const idle: number[] = []
    for (const stop = performance.now() + 3000; performance.now() < stop; ) {
      const t = performance.now()
      const r = await bystander.get('/v1/profile/small')
      await r.arrayBuffer()
      idle.push(performance.now() - t)
    }
    const before = calls.n
    const cpu0 = process.cpuUsage()
    const latencies: number[] = []
    const health: number[] = []
    let done = false
    const gets = (async () => {
      while (!done) {
        const t = performance.now()
        const r = await bystander.get('/v1/profile/small')
        await r.arrayBuffer()
        latencies.push(performance.now() - t)
        expect(r.status).toBe(200)
      }
    })()
    const healthz = (async () => {
      while (!done) {
        const t = performance.now()
        const r = await fetch(`${svc.url}/healthz`)
        await r.arrayBuffer()
        health.push(performance.now() - t)
        await sleep(100) // a probe's pace, as a load balancer's
      }
    })()
    const answers: Promise<{ refused: boolean }>[] = []
    for (let i = 0; i < 20; i++) {
      // Half over HTTP, half over the socket.
      answers.push(
        i % 2
          ? ws.once(heavy).then((r) => ({
              refused: r.errors?.[0]?.extensions?.code === 'VALIDATION_FAILED' && r.data === undefined,
            }))
          : gql(svc.url, key, heavy).then((r) => ({ refused: r.status === 400 && r.body.data === undefined })),
      )
      await sleep(500) // the arrival rate under test: 2 a second
    }
    const results = await Promise.all(answers)
    done = true
    await Promise.all([gets, healthz])
    const cpu = process.cpuUsage(cpu0)
    const quantile = (sample: number[], q: number) => {
      const sorted = [...sample].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
    }
    const p = (q: number) => quantile(latencies, q)
    const figures = {
      gets: latencies.length,
      oneContextMs,
      idleP99: quantile(idle, 0.99),
      p50: p(0.5),
      p99: p(0.99),
      max: Math.max(...latencies),
      healthzMax: Math.max(...health),
      contextsStarted: calls.n - before,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    }
    console.log(JSON.stringify(figures))
    expect(results.every((r) => r.refused)).toBe(true)
    expect(figures.contextsStarted).toBe(0)
    expect(latencies.length).toBeGreaterThan(50)
    // One context of this profile takes over a second (oneContextMs): had the refusals run any, the p99 would
    // show it. The bound is 100 ms, or twice the idle p99 and 50 ms more when the machine is busier than that.
    const bound = Math.max(100, 2 * figures.idleP99 + 50)
    expect(figures.p99, `p99 of ${latencies.length} GETs (idle p99 ${figures.idleP99})`).toBeLessThan(bound)
    expect(figures.healthzMax).toBeLessThan(1000)
  })
})

// The largest allowed hostile inputs, several at once, do not stall the process: extraction runs on a worker thread,
// so another tenant's GETs stay fast, the event loop stays free, and the batch's lease is kept alive while the thread
// works (no second worker redoes it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PROFILE_LIMITS } from '../../src/domain/profile-limits.js'
import { SPELLING_MAX_LENGTH } from '../../src/domain/spelling.js'
import { gql } from '../support/graphql-client.js'
import { importFile, submissionsSaying } from '../support/import-file.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { startCanary } from '../support/canary.js'
import { watchLoop } from '../support/loop-watch.js'
import { waitFor } from '../support/wait.js'

const KIB100 = 100 * 1024
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
/** Ends the name of each test that measures another tenant while one tenant's large work runs. */
const BYSTANDER_FAST = "another tenant's GETs p99 under 100 ms (more on a loaded machine), /healthz under 1 s"

describe("no stall on the largest inputs: another tenant's GETs (p99) and the event loop stay fast", () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_EXTRACT_THREADS: '1',
        PROFILER_LEASE_SECONDS: '2',
        PROFILER_RECONCILE_SECONDS: '1',
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
      },
    })
  })
  afterAll(async () => svc?.close())

  it('four hostile 100 KiB submissions to one profile; the lease holds', async () => {
    const attacker = client(svc.url, svc.key)
    const bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
    // Warm the thread (it loads the NLP models once) so that what follows measures extraction, not start-up.
    expect((await attacker.post('warm', { data: 'I live in Rome.' })).status).toBe(202)
    await attacker.waitReady('warm')

    const shapes = [
      rep('a - ', KIB100),
      rep('I love jazz. ', KIB100),
      `${rep('my dog and i live in rome and ', KIB100 - 20)} I love chess.`,
      'x'.repeat(KIB100),
    ]
    for (const data of shapes) expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(KIB100 + 2)
    const { latencies, p99, loopMaxMs, bound } = await getsWhile(attacker, bystander, 'big', async () => {
      for (const data of shapes) expect((await attacker.post('big', { data: data.slice(0, KIB100) })).status).toBe(202)
    })
    expect(latencies.length).toBeGreaterThan(20)
    expect(p99, `p99 of ${latencies.length} GETs`).toBeLessThan(bound.get)
    // The event loop never waited for an extraction (one of these takes up to a second on the thread).
    expect(loopMaxMs).toBeLessThan(bound.loop)

    // The lease held: the four were applied once, on their first attempt, and nothing was redone.
    const { body } = await gql(
      svc.url,
      svc.key,
      `{ profile(id: "big") {
          history(first: 10) { entries { seq } }
          submissions(first: 10) { nodes { status attempts } }
        } }`,
    )
    const subs = body.data.profile.submissions.nodes
    expect(subs).toHaveLength(4)
    expect(subs.every((s: any) => s.status === 'DONE' && s.attempts === 1)).toBe(true)
  })

  it('four 100 KiB conversations of thousands of short turns (passages at their limit, embedded)', async () => {
    const attacker = client(svc.url, svc.key)
    const bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm2', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
    // Turns of a few words: far more than the passages one submission may leave, so they are packed to the limit.
    const turn = (i: number) => [
      { role: 'assistant', content: `And then ${i}?` },
      { role: 'user', content: `I went to place ${i} with my sister.` },
    ]
    const convs = [0, 1, 2, 3].map((k) => {
      const msgs: unknown[] = []
      for (let i = 0; JSON.stringify(JSON.stringify(msgs)).length < KIB100 - 200; i++)
        msgs.push(...turn(k * 100_000 + i))
      return JSON.stringify(msgs)
    })
    for (const data of convs) expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(KIB100 + 2)
    const { latencies, p99, loopMaxMs, bound } = await getsWhile(attacker, bystander, 'talker', async () => {
      for (const data of convs)
        expect((await attacker.post('talker', { input_type: 'conversation', data })).status).toBe(202)
    })
    expect(p99, `p99 of ${latencies.length} GETs`).toBeLessThan(bound.get)
    expect(loopMaxMs).toBeLessThan(bound.loop)
    const [{ n }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*)::int AS n FROM passages WHERE profile_id = 'talker'`,
    )
    // Packed to at most the limit per submission (turns are joined until they fit), none dropped.
    expect(n).toBeLessThanOrEqual(4 * DEFAULT_PROFILE_LIMITS.passagesPerSubmission)
    expect(n).toBeGreaterThan(2 * DEFAULT_PROFILE_LIMITS.passagesPerSubmission)
  })
})

/**
 * Another tenant's GETs one after the other from just before `attack` (its posts to `profileId`) until that profile is
 * ready, with the longest the event loop was held over the same time (`loopMaxMs`: the CPU time this thread ran between
 * two runs of a 10 ms timer, so a machine whose cores are shared does not stretch it; see test/support/loop-watch.ts)
 * and the bound (getBound) taken before the attack.
 */
async function getsWhile(attacker: Client, bystander: Client, profileId: string, attack: () => Promise<void>) {
  const bound = await getBound(bystander)
  const canary = await startCanary()
  const loop = watchLoop()
  await attack()
  const latencies: number[] = []
  for (;;) {
    const t = performance.now()
    const r = await bystander.get('/v1/profile/me')
    latencies.push(performance.now() - t)
    expect(r.status).toBe(200)
    await r.arrayBuffer()
    if (latencies.length % 10 === 0 && (await attacker.profile(profileId)).status === 'ready') break
  }
  const { busyMaxMs: loopMaxMs, wallMaxMs: loopWallMs, cpuMeasured } = loop.stop()
  const machineMs = await canary.stop()
  // Where the thread's CPU time is not known, the wall time counts: a machine so loaded that a process doing nothing
  // waited long has our event loop wait about as long for the same reason, so the bound makes room for five times that
  // (never more than 1 s). CPU time is not stretched by waiting for a core and keeps the bound getBound took.
  if (!cpuMeasured) bound.loop = Math.min(1000, Math.max(bound.loop, 5 * machineMs))
  bound.get = loaded(bound, machineMs).bound
  latencies.sort((a, b) => a - b)
  const p99 = latencies[Math.floor(latencies.length * 0.99)]!
  console.log(
    JSON.stringify({
      gets: latencies.length,
      p99,
      max: latencies.at(-1),
      loopMaxMs,
      loopWallMs,
      cpuMeasured,
      machineMs,
      bound,
    }),
  )
  return { latencies, p99, loopMaxMs, bound }
}

/**
 * The bound on another tenant's GET latency while an attack runs: 100 ms on a quiet machine; on a loaded one (CI's 2
 * cores shared with other work) fifteen times the slowest of 60 GETs measured just before with nothing else running
 * in the service, so the machine's own scheduling delays are not taken for a stall; never more than 1 s. Three walks
 * sharing two cores with the bystander make its GETs wait their turn, which is not a stall. What this guards against
 * are freezes of seconds (21 s and 275 s were seen once), which no load explains. `loop` is the same for the
 * longest the event loop was held (250 ms, or five times the longest before the attack: an extraction takes up to a
 * second, so one on the main thread shows; see getsWhile for what is measured).
 */
async function getBound(bystander: Client, base?: string): Promise<{ get: number; loop: number; health: number }> {
  let slowest = 0
  let slowestHealth = 0
  const loop = watchLoop()
  for (let i = 0; i < 60; i++) {
    let t = performance.now()
    const r = await bystander.get('/v1/profile/me')
    await r.arrayBuffer()
    slowest = Math.max(slowest, performance.now() - t)
    if (!base) continue
    t = performance.now()
    await (await fetch(`${base}/healthz`)).arrayBuffer()
    slowestHealth = Math.max(slowestHealth, performance.now() - t)
  }
  const { busyMaxMs } = loop.stop()
  return {
    get: Math.min(1000, Math.max(100, 15 * slowest)),
    loop: Math.min(1000, Math.max(250, 5 * busyMaxMs)),
    // /healthz: under 1 s, under 2 s on a machine so loaded that it was slow before the attack.
    health: Math.min(2000, Math.max(1000, 10 * slowestHealth)),
  }
}

/**
 * Latencies of another tenant's GETs and of /healthz, measured one after the other until `done` holds; `bound`
 * (getBound, taken before the attack began) comes back with them, made room in for a loaded machine (loaded).
 */
async function measure(
  base: string,
  bystander: Client,
  done: (gets: number) => Promise<boolean>,
  bound: { get: number; health: number },
) {
  const gets: number[] = []
  const health: number[] = []
  const canary = await startCanary()
  for (let i = 1; ; i++) {
    let t = performance.now()
    const r = await bystander.get('/v1/profile/me')
    gets.push(performance.now() - t)
    expect(r.status).toBe(200)
    await r.arrayBuffer()
    t = performance.now()
    const h = await fetch(`${base}/healthz`)
    health.push(performance.now() - t)
    await h.arrayBuffer()
    if (i % 10 === 0 && (await done(i))) break
  }
  const machineMs = await canary.stop()
  gets.sort((a, b) => a - b)
  return {
    gets: gets.length,
    p99: gets[Math.floor(gets.length * 0.99)]!,
    max: gets.at(-1)!,
    healthMax: Math.max(...health),
    machineMs,
    ...loaded({ get: bound.get, health: bound.health }, machineMs),
  }
}

/**
 * The answer (status and JSON body) to `request`, one request of the attacker, how long it took, and what measure
 * found of another tenant's GETs and /healthz while it ran, against the bound (getBound) taken just before.
 */
async function answeredWhileMeasured(base: string, bystander: Client, request: () => Promise<Response>) {
  let answer: { status: number; body: any } | undefined
  const bound = await getBound(bystander, base)
  const started = performance.now()
  const work = request().then(async (r) => (answer = { status: r.status, body: await r.json() }))
  const measured = await measure(base, bystander, async () => answer !== undefined, bound)
  await work
  return { answer: answer!, tookMs: Math.round(performance.now() - started), measured }
}

/**
 * A forget of the interest `value` of `profileId` (DELETE /values) while another tenant's GETs and /healthz are
 * measured, logged as `label`: answered 200, the GETs' p99 and /healthz within their bounds. Its answer's body.
 */
async function forgetWhileMeasured(
  svc: TestService,
  bystander: Client,
  profileId: string,
  value: string,
  label: string,
): Promise<any> {
  const { answer, tookMs, measured } = await answeredWhileMeasured(svc.url, bystander, () =>
    fetch(`${svc.url}/v1/profile/${profileId}/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ section: 'interests', value }),
    }),
  )
  console.log(JSON.stringify({ case: label, tookMs, ...measured }))
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200)
  expect(measured.p99, `p99 of ${measured.gets} GETs`).toBeLessThan(measured.bound)
  expect(measured.healthMax).toBeLessThan(measured.healthBound)
  return answer.body
}

/**
 * The bounds made room for a machine so loaded that a separate idle process waited `machineMs`
 * (test/support/canary.ts): a GET passes through three processes (the test's client, the service, the database), each
 * of which may wait about as long for the same reason, so eight times that, never more than 1 s (2 s for /healthz).
 * (Five times was exceeded once in CI at load 4-5 on 2 cores: p99 110 ms against 108, the walks of 20,000 passages.)
 * What these tests guard against are freezes of seconds.
 */
function loaded(b: { get: number; health: number }, machineMs: number): { bound: number; healthBound: number } {
  return {
    bound: Math.min(1000, Math.max(b.get, 8 * machineMs)),
    healthBound: Math.min(2000, Math.max(b.health, 8 * machineMs)),
  }
}

/** A value of `n` characters, distinct by `i`. */
const filler = (prefix: string, i: number, n: number) =>
  `${prefix} ${i} ${'and then some more words about it '.repeat(40)}`.slice(0, n)

/**
 * A profile at the default limits, built through the API: 2,000 interests in 100 categories, 1,000 traits, 1,000 topics
 * and memories until the content reaches its byte limit (structured submissions of at most 100 KiB each).
 */
async function fillProfile(c: Client, id: string): Promise<any> {
  const docs: unknown[] = []
  for (let half = 0; half < 2; half++) {
    const interests: Record<string, unknown[]> = {}
    for (let i = half * 1000; i < (half + 1) * 1000; i++)
      (interests[`topic_${i % 100}`] ??= []).push({ value: `interest ${i} ${'x'.repeat(12)}`, confidence: 0.9 })
    docs.push({ interests })
  }
  docs.push({
    personality: {
      traits: Array.from({ length: 1000 }, (_, i) => ({ value: filler('trait', i, 60), confidence: 0.7 })),
    },
  })
  docs.push({
    preferences: {
      topics_to_avoid: Array.from({ length: 1000 }, (_, i) => ({ value: filler('topic', i, 60), confidence: 0.7 })),
    },
  })
  for (let part = 0; part < 10; part++) {
    docs.push({
      memories: Array.from({ length: 200 }, (_, i) => ({
        event: filler(`memory ${part}`, i, 400),
        date: '2024-05-01',
        confidence: 0.5,
      })),
    })
  }
  for (const doc of docs) {
    const data = JSON.stringify(doc)
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(100 * 1024)
    const r = await c.post(id, { data, input_type: 'structured' })
    expect(r.status, await r.clone().text()).toBe(202)
  }
  return c.waitReady(id, 120_000)
}

describe('no stall on the largest profile the limits allow (default limits)', () => {
  let svc: TestService
  let attacker: Client
  let bystander: Client
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    attacker = client(svc.url, svc.key)
    bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
    const big = await fillProfile(attacker, 'big')
    // At the limits: as large as the byte limit lets it be.
    const [{ bytes }] = await svc.profiler.db.dataSource.query(
      `SELECT octet_length(content::text) AS bytes FROM profiles WHERE profile_id = 'big'`,
    )
    expect(Number(bytes)).toBeGreaterThan(0.9 * DEFAULT_PROFILE_LIMITS.profileBytes)
    expect(Object.values(big.interests).flat().length).toBe(DEFAULT_PROFILE_LIMITS.interests)
  }, 300_000)
  afterAll(async () => svc?.close())

  it(`two structured submissions of 9,000 values each into it: ${BYSTANDER_FAST}`, async () => {
    // Whether both are merged, asked of the database: reading the profile itself (a few MB of JSON, built by the
    // service and parsed here, on the thread that measures) every tenth GET made the test's own reads the slowest thing
    // measured.
    const state = async () => {
      const [row] = await svc.profiler.db.dataSource.query(
        `SELECT status, history_seq AS seq FROM profiles WHERE profile_id = 'big'`,
      )
      return { status: String(row.status), seq: Number(row.seq) }
    }
    const seqBefore = (await state()).seq
    const bound = await getBound(bystander, svc.url)
    for (let k = 0; k < 2; k++) {
      const data = JSON.stringify({
        interests: { [`flood_${k}`]: Array.from({ length: 9000 }, (_, i) => `v${k}-${i}`) },
      })
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(100 * 1024)
      expect((await attacker.post('big', { data, input_type: 'structured' })).status).toBe(202)
    }
    const m = await measure(
      svc.url,
      bystander,
      async () => {
        const p = await state()
        return p.status === 'ready' && p.seq > seqBefore
      },
      bound,
    )
    console.log(JSON.stringify({ case: 'largest merge', ...m }))
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
    const p = await attacker.profile('big')
    // Within the limits, and the entry says what the limits dropped.
    expect(Object.values(p.interests).flat().length).toBeLessThanOrEqual(DEFAULT_PROFILE_LIMITS.interests)
    for (const l of Object.values(p.interests) as unknown[][])
      expect(l.length).toBeLessThanOrEqual(DEFAULT_PROFILE_LIMITS.listValues)
    const dropped = p.update_log.filter((e: any) => e.seq > seqBefore).map((e: any) => e.changes.dropped?.total ?? 0)
    expect(dropped.reduce((a: number, b: number) => a + b, 0)).toBeGreaterThanOrEqual(
      18_000 - 2 * DEFAULT_PROFILE_LIMITS.listValues,
    )
  })

  it(`20 concurrent contexts of it at the largest budget: ${BYSTANDER_FAST}`, async () => {
    const auth = { authorization: `Bearer ${svc.key}` }
    let finished = 0
    const bound = await getBound(bystander, svc.url)
    // A third of the queries have three misspelt words (SPELLING_MAX_WORDS) no fact says: every fact is also matched
    // against each word's corrections (factAlternatives), the most a correction costs the facts' ranking; a third ask
    // what the person likes (asksLikes): every interest of the profile at the limits is a strong fact.
    const query = (i: number) =>
      [
        `memory ${i % 9} interest trait`,
        `recieve beleive acommodation memory ${i % 9}`,
        `What does she ${['like', 'love', 'enjoy'][Math.floor(i / 3) % 3]}?`,
      ][i % 3]!
    const contexts = Array.from({ length: 20 }, (_, i) =>
      fetch(`${svc.url}/v1/profile/big/context?max_tokens=32000&query=${encodeURIComponent(query(i))}`, {
        headers: auth,
      }).then(async (r) => {
        expect(r.status).toBe(200)
        const body = (await r.json()) as any
        expect(body.tokens).toBeLessThanOrEqual(32000)
        finished++
      }),
    )
    const m = await measure(svc.url, bystander, async () => finished === contexts.length, bound)
    await Promise.all(contexts)
    console.log(JSON.stringify({ case: '20 contexts', ...m }))
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
  })

  it(`several search pages of 100 byte-limit profiles at once, over REST and GraphQL: ${BYSTANDER_FAST}`, async () => {
    // The profile at the limits copied to 99 more ids (outside the measured window): a page of 100 holds about 50 MB.
    const ds = svc.profiler.db.dataSource
    const { tenantId } = await svc.profiler.services.tenants.authenticate(svc.key, 't')
    await ds.query(
      `INSERT INTO profiles (tenant_id, profile_id, status, content, field_timestamps, internals, summary, language,
                             name, age, gender, location, embedding, embedding_model, lexemes, version, history_seq,
                             created_at, last_updated)
       SELECT tenant_id, 'copy-' || i, status, content, field_timestamps, internals, summary, language,
              name, age, gender, location, embedding, embedding_model, lexemes, version, history_seq,
              created_at, last_updated
         FROM profiles, generate_series(1, 99) i WHERE tenant_id = $1 AND profile_id = 'big'
       ON CONFLICT DO NOTHING`,
      [tenantId],
    )
    const [{ n, bytes }] = await ds.query(
      `SELECT count(*)::int AS n, sum(content_bytes)::bigint AS bytes FROM profiles WHERE tenant_id = $1`,
      [tenantId],
    )
    expect(n).toBe(100)
    expect(Number(bytes)).toBeGreaterThan(100 * 0.9 * DEFAULT_PROFILE_LIMITS.profileBytes)

    const auth = { authorization: `Bearer ${svc.key}` }
    const searches = [
      '/v1/search?pageSize=100',
      '/v1/search?pageSize=100&query=interest&sensitivity=0',
      '/v1/smart-search?pageSize=100&sortBy=id',
      '/v1/search?pageSize=100&query=memory%20trait&sensitivity=0',
    ]
    // Each answer is read as it arrives (the client runs in this process too: parsing 50 MB here would stall the
    // measure itself); one is kept in chunks, joined and parsed after the measure (decoding 50 MB holds this thread
    // for over half a second, which /healthz would wait for).
    const received: { status: number; bytes: number; chunks?: Buffer[] }[] = []
    let finished = 0
    const bound = await getBound(bystander, svc.url)
    const all = searches.map((path, i) =>
      fetch(`${svc.url}${path}`, { headers: auth }).then(async (r) => {
        const chunks: Buffer[] = []
        let bytes = 0
        for await (const c of r.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += c.byteLength
          if (i === 1) chunks.push(Buffer.from(c))
        }
        received[i] = { status: r.status, bytes, ...(i === 1 ? { chunks } : {}) }
        finished++
      }),
    )
    // GraphQL builds its answer whole: pages of 100 are refused, pages within the cap (three profiles) answered;
    // with the total and without it (then no count runs), by words and without.
    const page = (size: number, total: boolean, query = '') =>
      `{ searchProfiles(pageSize: ${size}${query && `, query: "${query}", sensitivity: 0`}) { ${total ? 'total' : ''}
        profiles { profile { profileId interests { category values { value confidence } } memories { event } } } } }`
    const shapes: [number, boolean, string?][] = [
      [100, true],
      [3, false, 'memory trait'],
      [100, false, 'interest'],
      [3, true],
      [100, true, 'memory trait'],
    ]
    const graphql = shapes.map(([size, total, query]) =>
      gql(svc.url, svc.key, page(size, total, query)).then((r) => {
        finished++
        return { size, total, r }
      }),
    )
    const m = await measure(svc.url, bystander, async () => finished === searches.length + graphql.length, bound)
    await Promise.all(all)
    const answered = await Promise.all(graphql)
    console.log(
      JSON.stringify({
        case: '4 REST searches of 100 profiles at the byte limit, 3 GraphQL pages of 100 refused, 2 of 3 answered',
        answerMB: received.map((r) => Math.round(r.bytes / 1e5) / 10),
        ...m,
      }),
    )
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
    expect(received.map((r) => r.status)).toEqual([200, 200, 200, 200])
    for (const r of received) expect(r.bytes).toBeGreaterThan(40_000_000)
    const doc = JSON.parse(Buffer.concat(received[1]!.chunks!).toString())
    expect(doc.profiles).toHaveLength(100)
    expect(doc.total).toBe(100)
    expect(Object.keys(doc)).toEqual(['profiles', 'total', 'page', 'pageSize'])
    for (const { size, total, r } of answered) {
      if (size === 100) expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 })
      else {
        expect(r.body.data.searchProfiles.profiles).toHaveLength(size)
        expect('total' in r.body.data.searchProfiles).toBe(total)
      }
    }
  })

  it('a client that goes away from a streamed search stops its reads', async () => {
    const search = svc.profiler.services.search
    const original = search.read
    let reads = 0
    search.read = async function (this: typeof search, ...args: Parameters<typeof original>): Promise<any[]> {
      reads++
      return original.apply(this, args)
    }
    try {
      const gone = new AbortController()
      const r = await fetch(`${svc.url}/v1/search?pageSize=100`, {
        headers: { authorization: `Bearer ${svc.key}` },
        signal: gone.signal,
      })
      expect(r.status).toBe(200)
      let bytes = 0
      const reader = r.body!.getReader()
      while (bytes < 2_000_000) bytes += (await reader.read()).value!.byteLength
      gone.abort()
      await reader.cancel().catch(() => undefined)
      const atAbort = reads
      await new Promise((resolve) => setTimeout(resolve, 1000))
      console.log(JSON.stringify({ case: 'client gone', readsAtAbort: atAbort, readsAfter: reads }))
      // A profile at the byte limit is a chunk of its own: 100 of them are 100 reads when the answer is taken whole.
      expect(atAbort).toBeGreaterThan(0)
      expect(reads).toBeLessThan(50)
      expect(reads - atAbort).toBeLessThanOrEqual(3)
    } finally {
      search.read = original
    }
  })
})

describe('no stall while one tenant imports at the limits and re-extracts it', () => {
  // The re-extraction replays at most this many submissions (a profile with more is refused): here 10, so the test runs
  // in seconds; each is an imported 100 KiB text of the shape the extractor takes longest on.
  const MAX_REPLAY = 10
  let svc: TestService
  let bystander: Client
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_REEXTRACT_MAX_SUBMISSIONS: String(MAX_REPLAY),
        PROFILER_EXTRACT_THREADS: '1',
      },
    })
    bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
  })
  afterAll(async () => svc?.close())

  it(`imported 100 KiB texts re-extracted: ${BYSTANDER_FAST}, its submission not held up`, async () => {
    const at = '2025-01-02T03:04:05.000Z'
    const content = {
      core_info: { name: { value: 'Ada', confidence: 0.9 } },
      interests: Object.fromEntries(
        Array.from({ length: 100 }, (_, c) => [
          `topic_${c}`,
          Array.from({ length: 20 }, (_, i) => ({ value: `interest ${c}-${i} ${'x'.repeat(12)}`, confidence: 0.9 })),
        ]),
      ),
      personality: {
        traits: Array.from({ length: 1000 }, (_, i) => ({ value: filler('trait', i, 60), confidence: 0.7 })),
        mood_trends: {},
      },
      memories: Array.from({ length: 700 }, (_, i) => ({
        event: filler('memory', i, 300),
        date: '2024-05-01',
        confidence: 0.5,
      })),
      preferences: { topics_to_avoid: [] },
    }
    const bytes = Buffer.byteLength(JSON.stringify(content))
    expect(bytes).toBeGreaterThan(0.8 * DEFAULT_PROFILE_LIMITS.profileBytes)
    expect(bytes).toBeLessThanOrEqual(DEFAULT_PROFILE_LIMITS.profileBytes)
    const texts = Array.from(
      { length: MAX_REPLAY },
      (_, i) => `${rep('my dog and i live in rome and ', 100 * 1024 - 40)} I love chess ${i}.`,
    )
    const file = importFile([{ id: 'big', fields: { summary: 'Ada.', ...content }, texts }], {
      at,
      msBetweenSubmissions: 0,
      tenant: 'x',
    })
    let imported = false
    let replayed: any
    const bound = await getBound(bystander, svc.url)
    const work = (async () => {
      const r = await fetch(`${svc.url}/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/x-ndjson' },
        body: file,
      })
      expect(r.status, await r.clone().text()).toBe(200)
      imported = true
      const rx = await fetch(`${svc.url}/v1/profile/big/reextract`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}` },
      })
      expect(rx.status, await rx.clone().text()).toBe(200)
      replayed = await rx.json()
    })()
    // Another tenant's submission, sent once the replay runs, is extracted ahead of it.
    let bystanderDone: boolean | undefined
    const side = (async () => {
      await waitFor('the import to finish', () => imported, { timeoutMs: 60_000, everyMs: 20 })
      expect((await bystander.post('me', { data: 'I moved to Bergen.' })).status).toBe(202)
      await waitFor('the bystander to be ready again', () => bystander.profile('me'), {
        until: (p) => p.status === 'ready' && p.core_info.location?.value === 'Bergen',
        timeoutMs: 60_000,
      })
      bystanderDone = replayed === undefined
    })()
    const m = await measure(svc.url, bystander, async () => replayed !== undefined, bound)
    await Promise.all([work, side])
    console.log(JSON.stringify({ case: 'import + re-extraction', ...m }))
    expect(replayed.submissions).toMatchObject({ reextracted: MAX_REPLAY })
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
    expect(bystanderDone, "the other tenant's submission was ready before the replay ended").toBe(true)
  })
})

describe('no stall on the largest evidence passages the limits allow (default limits)', () => {
  // A profile with PROFILER_PASSAGES_PER_PROFILE passages, each at its size bounds (1,000 characters of words, a 300-
  // character prompt), brought in by an import (the way a tenant writes passages fastest), then listed page by page
  // over REST and GraphQL, several walks at once.
  const PER_PROFILE = DEFAULT_PROFILE_LIMITS.passagesPerProfile
  const PER_SUBMISSION = DEFAULT_PROFILE_LIMITS.passagesPerSubmission
  let svc: TestService
  let bystander: Client
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
  })
  afterAll(async () => svc?.close())

  /**
   * What the person says in each submission (an import takes only a passage its submission's text says): a long turn of
   * sentences that each hold "lighthouse keeper" (so a query about it matches every passage) and a number of their own,
   * answering a 300-character question, the person labelled with 40 characters.
   */
  const SPEAKER = 's'.repeat(40)
  const PROMPT = `What about the lighthouse? ${'tell me more about all those years, '.repeat(9)}`.slice(0, 299) + '?'
  const SENTENCE = (k: number) => `lighthouse keeper ${k} remembered the storm and the long winter nights by the sea.`
  const TURN = Array.from({ length: 1100 }, (_, k) => SENTENCE(k)).join(' ')
  const CHAT = `${SPEAKER}: Hello.\nPat: ${PROMPT}\n${SPEAKER}: ${TURN}`
  const SENTENCE_STARTS = [...TURN.matchAll(/lighthouse keeper/g)].map((m) => m.index!)
  /** Passage i's words: 1,000 characters of the turn, from one of its sentences (ending on a letter, not a space). */
  const words = (i: number) => {
    for (let k = (i * 5) % 1000; ; k++) {
      const text = TURN.slice(SENTENCE_STARTS[k], SENTENCE_STARTS[k]! + 1000)
      if (!text.endsWith(' ')) return text
    }
  }

  /**
   * Ten requests of the attacker at once (GET `path(i)`), each answered 200 and its body checked by `check`, while
   * another tenant's GETs and /healthz are measured: p99 under the bound (100 ms, more on a loaded machine), /healthz
   * under 1 s. Rounds of ten follow each other until MIN_GETS were measured under attack, so that the p99 of a short
   * attack is a percentile, not its second slowest GET.
   */
  const MIN_GETS = 500
  const tenAtOnce = async (label: string, path: (i: number) => string, check: (body: any, i: number) => void) => {
    const auth = { authorization: `Bearer ${svc.key}` }
    const bound = await getBound(bystander, svc.url)
    let rounds = 0
    let measured = 0
    const round = async (): Promise<void> => {
      rounds++
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const r = await fetch(`${svc.url}${path(i)}`, { headers: auth })
          const body = (await r.json()) as any
          expect(r.status, JSON.stringify(body)).toBe(200)
          check(body, i)
        }),
      )
      if (measured < MIN_GETS) return round()
    }
    let finished = false
    const attack = round().finally(() => (finished = true))
    const m = await measure(svc.url, bystander, async (gets) => ((measured = gets), finished), bound)
    await attack
    console.log(JSON.stringify({ case: label, rounds, ...m }))
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
  }

  it(`an import of ${PER_PROFILE} passages at their size bounds: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    const at = '2025-01-02T03:04:05.000Z'
    const said = Array.from({ length: PER_PROFILE }, (_, i) => ({
      text: words(i),
      speaker: SPEAKER,
      prompt: PROMPT,
      occurred_at: new Date(Date.parse('2020-01-01T00:00:00Z') + i * 60_000).toISOString(),
    }))
    const talker = {
      id: 'talker',
      fields: {
        summary: 'Talks about lighthouses.',
        core_info: { name: { value: 'Tess', confidence: 0.9 } },
        interests: { work: [{ value: 'lighthouse keeper', confidence: 0.9 }] },
      },
      submissions: submissionsSaying(said, PER_SUBMISSION, { text: CHAT, input_type: 'conversation', occurred_at: at }),
    }
    const file = importFile([talker], { at, msBetweenSubmissions: 0, tenant: 'x' })
    const { answer, measured } = await answeredWhileMeasured(svc.url, bystander, () =>
      fetch(`${svc.url}/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/x-ndjson' },
        body: file,
      }),
    )
    console.log(
      JSON.stringify({
        case: `import of ${PER_PROFILE} passages`,
        fileMB: Math.round(Buffer.byteLength(file) / 1e5) / 10,
        ...measured,
      }),
    )
    expect(answer).toMatchObject({ status: 200, body: { passages: PER_PROFILE, passages_skipped: 0 } })
    expect(measured.p99, `p99 of ${measured.gets} GETs`).toBeLessThan(measured.bound)
    expect(measured.healthMax).toBeLessThan(measured.healthBound)
  })

  it(`its passages listed page by page over REST and GraphQL, several walks at once: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    const auth = { authorization: `Bearer ${svc.key}` }
    let finished = 0
    const listed: number[] = []
    /** Every page of the REST list, read one after another. */
    const walk = async () => {
      let cursor: string | null = null
      let count = 0
      do {
        const r = await fetch(`${svc.url}/v1/profile/talker/passages?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: auth,
        })
        expect(r.status).toBe(200)
        const body = (await r.json()) as any
        count += body.passages.length
        cursor = body.next_cursor
      } while (cursor)
      listed.push(count)
    }
    const q = `query($after: String) { profile(id: "talker") { passages(first: 100, after: $after) {
      nodes { text prompt } pageInfo { endCursor hasNextPage }
    } } }`
    const walkGraphql = async () => {
      let after: string | null = null
      let count = 0
      do {
        const r = await gql(svc.url, svc.key, q, { after })
        expect(r.body.errors).toBeUndefined()
        count += r.body.data.profile.passages.nodes.length
        after = r.body.data.profile.passages.pageInfo.endCursor
      } while (after)
      listed.push(count)
    }
    const bound = await getBound(bystander, svc.url)
    const all = [walk(), walk(), walkGraphql()].map((p) => p.then(() => finished++))
    const m = await measure(svc.url, bystander, async () => finished === all.length, bound)
    await Promise.all(all)
    console.log(JSON.stringify({ case: `2 REST and 1 GraphQL walks of ${PER_PROFILE} passages`, ...m }))
    expect(listed).toEqual([PER_PROFILE, PER_PROFILE, PER_PROFILE])
    expect(m.p99, `p99 of ${m.gets} GETs`).toBeLessThan(m.bound)
    expect(m.healthMax).toBeLessThan(m.healthBound)
  })

  it(`contexts of the largest budget quoting them: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    // Outside the measured window: every passage gets the profile's vector, so the contexts rank by meaning too.
    const ds = svc.profiler.db.dataSource
    const { tenantId } = await svc.profiler.services.tenants.authenticate(svc.key, 't')
    await ds.query(
      `UPDATE passages SET embedding = p.embedding, embedding_model = p.embedding_model FROM profiles p
        WHERE passages.tenant_id = $1 AND passages.profile_id = 'talker'
          AND p.tenant_id = $1 AND p.profile_id = 'talker'`,
      [tenantId],
    )
    const [{ n, embedded }] = await ds.query(
      `SELECT count(*)::int AS n, count(embedding)::int AS embedded
         FROM passages WHERE tenant_id = $1 AND profile_id = 'talker'`,
      [tenantId],
    )
    expect({ n, embedded }).toEqual({ n: PER_PROFILE, embedded: PER_PROFILE })
    await tenAtOnce(
      `10 contexts of 32,000 tokens over ${PER_PROFILE} passages`,
      (i) => {
        const query = encodeURIComponent(`lighthouse keeper ${i} storm winter`)
        return `/v1/profile/talker/context?max_tokens=32000&include=${i % 2 ? 'passages' : 'all'}&query=${query}`
      },
      (body) => {
        expect(body.passages_included).toBeGreaterThan(0)
        expect(body.tokens).toBeLessThanOrEqual(32000)
      },
    )
  })

  it(`contexts of misspelt words, read twice (as written, then with what they meant): ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    // The most a correction costs a context: words no passage says walk the newest 5,000 passages (as many as a context
    // reads for its words), then again with what they may have meant ("recieve beleive": corrections no passage says
    // either); or the second walk stops at the candidates ("lighthuse kepeer": every passage says "lighthouse keeper").
    await tenAtOnce(
      `10 contexts of misspelt words over ${PER_PROFILE} passages`,
      (i) => {
        const query = encodeURIComponent(i % 2 ? 'recieve beleive' : 'lighthuse kepeer')
        return `/v1/profile/talker/context?max_tokens=32000&include=passages&query=${query}`
      },
      (body, i) => {
        if (!(i % 2)) expect(body.text).toContain('lighthouse keeper')
      },
    )
  })

  it(`hybrid searches whose words its passages say (every one of them, or one): ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    // Half the queries' words are said by all 20,000 passages (the GIN index returns every one; SEARCH_SAID_SCAN of
    // them are read, the cover from SEARCH_PASSAGE_SCAN), half by one passage each. The tenant has more than
    // PACED_TENANT_PASSAGES.
    await tenAtOnce(
      `10 hybrid searches matching ${PER_PROFILE} passages`,
      (i) => {
        const query = i % 2 ? `likes lighthouse keeper ${i} storm winter nights` : 'lighthouse keeper storm'
        return `/v1/search?pageSize=10&query=${encodeURIComponent(query)}`
      },
      (body) => expect(body.profiles.map((p: any) => p.profile_id)).toEqual(['talker']),
    )
  })

  it(`hybrid searches of misspelt words whose variants its passages say: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    // Three misspelt words (SPELLING_MAX_WORDS), each of whose variants all 20,000 passages say, and three of the
    // longest words corrected (SPELLING_MAX_LENGTH letters: about 1,100 variants each, looked up in the GIN indexes).
    const long = (c: string) => `${c}${'qwertzuiopasdfghjkl'.slice(0, SPELLING_MAX_LENGTH - 1)}`
    await tenAtOnce(
      `10 hybrid searches of misspelt words over ${PER_PROFILE} passages`,
      (i) => {
        const query = i % 2 ? `${long('a')} ${long('b')} ${long('c')}` : 'lighthousee keeperr stormm'
        return `/v1/search?pageSize=10&query=${encodeURIComponent(query)}`
      },
      (body, i) => expect(body.profiles.map((p: any) => p.profile_id)).toEqual(i % 2 ? [] : ['talker']),
    )
  })

  it(`evidence lookups of a value every one of its passages says: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    // Every passage supports it (their submissions' extractions are not known): each lookup reads all 20,000, a window
    // per statement, and keeps the best 50.
    await tenAtOnce(
      `10 evidence lookups of a value ${PER_PROFILE} passages say`,
      () => `/v1/profile/talker/evidence?field=interests&value=${encodeURIComponent('lighthouse keeper')}&limit=50`,
      (body) => expect(body.passages.map((p: any) => p.match)).toEqual(Array(50).fill('words')),
    )
  })

  it(`a forget of a value every one of its passages says hides all of them: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    const forgotten = await forgetWhileMeasured(
      svc,
      bystander,
      'talker',
      'lighthouse keeper',
      `forget of a value ${PER_PROFILE} passages say`,
    )
    expect(forgotten.profile.update_log.at(-1).changes).toMatchObject({ passages_hidden: PER_PROFILE })
    const [{ visible }] = await svc.profiler.db.dataSource.query(
      `SELECT count(*) FILTER (WHERE hidden_at IS NULL)::int AS visible FROM passages WHERE profile_id = 'talker'`,
    )
    expect(visible).toBe(0)
  })
})

describe('no stall on a forget of a value said in 1,600 passages', () => {
  const TURNS = 200
  const CONVERSATIONS = 8
  let svc: TestService
  let attacker: Client
  let bystander: Client
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    attacker = client(svc.url, svc.key)
    bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    for (let c = 0; c < CONVERSATIONS; c++) {
      const turns = Array.from({ length: TURNS }, (_, t) => [
        { role: 'assistant', content: `What did you do on evening ${t + 1}?` },
        { role: 'user', content: `I love chess, it was game ${c * TURNS + t + 1} this week.` },
      ])
      const data = JSON.stringify(turns.flat())
      expect((await attacker.post('player', { input_type: 'conversation', data })).status).toBe(202)
    }
    await bystander.waitReady('me')
    await attacker.waitReady('player', 300_000)
  }, 300_000)
  afterAll(async () => svc?.close())

  it(`the forget hides all of them: ${BYSTANDER_FAST}`, {
    timeout: 300_000,
  }, async () => {
    const forgotten = await forgetWhileMeasured(
      svc,
      bystander,
      'player',
      'chess',
      `forget of a value ${CONVERSATIONS * TURNS} passages say`,
    )
    const hidden = forgotten.profile.update_log.at(-1).changes.passages_hidden
    expect(hidden).toBeGreaterThanOrEqual(CONVERSATIONS * TURNS)
  })
})

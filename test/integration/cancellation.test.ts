// Issue 22, "work stops when its request stops": every transport sets ctx.signal, aborted when the caller goes away (a
// REST or GraphQL HTTP client that closes its connection before the answer, a WebSocket client that completes its
// operation or closes the socket), and the services stop their model requests and thread work with it. Through the
// running service with real clients: a re-extraction dry run (local provider) whose client disconnects frees the
// tenant's re-extraction slot and the extraction thread at once and writes nothing; a context (openai provider against
// the local OpenAI-compatible server, its embeddings request held) is cancelled on the provider's side in every
// transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Socket } from '../support/graphql-client.js'
import { client, startService, type TestService } from '../support/harness.js'
import { importFile, importProfiles, longText } from '../support/import-file.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js'
import { waitFor } from '../support/wait.js'

const KIB100 = 100 * 1024

describe('a re-extraction whose client goes away stops (local provider)', () => {
  let svc: TestService
  let tenantId: string
  const N = 40

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000', PROFILER_EXTRACT_THREADS: '1' } })
    tenantId = (await svc.profiler.services.tenants.authenticate(svc.key, 'test')).tenantId
    await importProfiles(
      svc.url,
      svc.key,
      importFile([
        { id: 'long', interests: 5, texts: Array.from({ length: N }, (_, i) => longText(KIB100, i)) },
        { id: 'medium', interests: 5, texts: Array.from({ length: 4 }, (_, i) => longText(KIB100, 100 + i)) },
        { id: 'short', interests: 2, texts: ['I live in Oslo and I love jazz.'] },
      ]),
    )
  }, 120_000)
  afterAll(async () => svc?.close())

  /** What the database holds of a profile: a dry run, finished or not, must leave it byte for byte. */
  const stored = async (id: string) => {
    const ds = svc.profiler.db.dataSource
    const [p] = await ds.query(
      `SELECT version, content, summary, last_updated, history_seq, embedding::text AS embedding
         FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, id],
    )
    const [h] = await ds.query(
      `SELECT count(*)::int AS n FROM profile_history WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, id],
    )
    return { ...p, history: h.n }
  }
  const reextract = (id: string, signal?: AbortSignal, qs = '') =>
    fetch(`${svc.url}/v1/profile/${id}/reextract${qs}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}` },
      signal,
    })
  const running = () =>
    (svc.profiler.services.reextraction as unknown as { running: Set<string> }).running.has(tenantId)
  const cpuSeconds = () => {
    const c = process.cpuUsage()
    return (c.user + c.system) / 1e6
  }

  it('a dry run over 40 100 KiB submissions: client gone, slot and thread free at once, nothing written', async () => {
    const bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('bystander', 'app')).api_key)
    // The extraction thread up and warm, and what one dry run costs per submission (4 of the same size, to the end).
    expect((await bystander.post('warm', { data: 'I live in Rome.' })).status).toBe(202)
    await bystander.waitReady('warm')
    let t = performance.now()
    const medium = await reextract('medium')
    expect(medium.status).toBe(200)
    expect(((await medium.json()) as any).submissions.reextracted).toBe(4)
    const fullMs = ((performance.now() - t) / 4) * N

    const before = await stored('long')
    const client_ = new AbortController()
    const call = reextract('long', client_.signal).catch((e) => e)
    // Under way: the tenant's re-extraction slot taken, and the extraction thread working on it (a second of CPU).
    await waitFor('the dry run to start', running, { timeoutMs: 30_000 })
    const cpu0 = cpuSeconds()
    await waitFor('the dry run to extract', () => cpuSeconds() - cpu0 > 1, { timeoutMs: 30_000 })
    client_.abort()
    t = performance.now()
    expect(await call).toBeInstanceOf(Error)
    const [slotFreeMs, bystanderReadyMs] = await Promise.all([
      // The tenant may re-extract again (one at a time per tenant: 429 while the abandoned one would still run) ...
      waitFor('the re-extraction slot to be free', () => !running(), { timeoutMs: Math.min(10_000, fullMs / 2) }).then(
        () => performance.now() - t,
      ),
      // ... and another tenant's submission is read by the extraction thread at once (a new thread: the old one was
      // stopped).
      (async () => {
        expect((await bystander.post('after', { data: 'I am a nurse in Lagos.' })).status).toBe(202)
        await bystander.waitReady('after')
        return performance.now() - t
      })(),
    ])
    const again = await reextract('short')
    expect(again.status).toBe(200)
    // ... and nothing was written.
    expect(await stored('long')).toEqual(before)
    console.log(
      JSON.stringify({
        dryRunWouldTakeMs: Math.round(fullMs),
        slotFreeMs: Math.round(slotFreeMs),
        bystanderReadyMs: Math.round(bystanderReadyMs),
      }),
    )
    expect(slotFreeMs).toBeLessThan(Math.min(2000, fullMs / 4))
    expect(bystanderReadyMs).toBeLessThan(fullMs / 4)
  })

  it('an apply (dry_run=false) whose client disconnects before it ends writes nothing', async () => {
    const before = await stored('long')
    const client_ = new AbortController()
    const call = reextract('long', client_.signal, '?dry_run=false').catch((e) => e)
    await waitFor('the re-extraction to start', running, { timeoutMs: 30_000 })
    const cpu0 = cpuSeconds()
    await waitFor('the re-extraction to extract', () => cpuSeconds() - cpu0 > 1, { timeoutMs: 30_000 })
    client_.abort()
    expect(await call).toBeInstanceOf(Error)
    await waitFor('the re-extraction slot to be free', () => !running(), { timeoutMs: 5000 })
    expect(await stored('long')).toEqual(before)
    // The tenant can re-extract again at once.
    expect((await reextract('short')).status).toBe(200)
  })
})

describe('a context whose caller goes away stops its model requests (openai provider)', () => {
  let oa: OpenAIServer
  let svc: TestService
  const sockets: Socket[] = []
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))

  beforeAll(async () => {
    oa = await startOpenAIServer()
    // A long client timeout: a held request ends only when the service gives it up.
    svc = await startService({
      env: openaiEnv(oa, { PROFILER_LLM_TIMEOUT_MS: '120000', PROFILER_RATE_LIMIT_PER_MINUTE: '100000' }),
    })
    await importProfiles(svc.url, svc.key, importFile([{ id: 'ana', interests: 40, memories: 10 }]))
  }, 120_000)
  afterAll(async () => {
    release()
    for (const s of sockets) await s.close().catch(() => undefined)
    await svc?.close()
    await oa?.close()
  })

  /**
   * Holds the embeddings request of a context with `query`, starts the context with `start`, waits until the provider
   * holds the request, calls `leave`, and answers how long the service took to drop the request (the provider saw its
   * client go).
   */
  const cancelled = async (query: string, start: () => unknown, leave: () => unknown): Promise<number> => {
    oa.faults.add({ endpoint: 'embeddings', match: query, holdUntil: released })
    void start()
    const held = await waitFor(`the embeddings request of "${query}"`, () =>
      oa.embeddingRequests().find((r: RecordedRequest) => r.fault?.match === query),
    )
    const t = performance.now()
    await leave()
    await waitFor(`the embeddings request of "${query}" to be dropped`, () => held.delivered === false, {
      timeoutMs: 3000,
    })
    return performance.now() - t
  }
  const gqlBody = (query: string) =>
    JSON.stringify({
      query: `{ profile(id: "ana") { context(maxTokens: 300, query: ${JSON.stringify(query)}) { text } } }`,
    })

  it('REST, GraphQL over HTTP, a WebSocket operation completed by its client, and a closed WebSocket', async () => {
    const auth = { authorization: `Bearer ${svc.key}` }
    const ms: Record<string, number> = {}

    const rest = new AbortController()
    ms.rest = await cancelled(
      'hiking in the alps',
      () =>
        fetch(`${svc.url}/v1/profile/ana/context?query=hiking%20in%20the%20alps`, {
          headers: auth,
          signal: rest.signal,
        }).catch(() => undefined),
      () => rest.abort(),
    )

    const http = new AbortController()
    ms.graphqlHttp = await cancelled(
      'sailing at dawn',
      () =>
        fetch(`${svc.url}/graphql`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: gqlBody('sailing at dawn'),
          signal: http.signal,
        }).catch(() => undefined),
      () => http.abort(),
    )

    const s = connect(svc.url, svc.key)
    sockets.push(s)
    await s.connected
    let op: ReturnType<Socket['subscribe']> | undefined
    ms.wsComplete = await cancelled(
      'chess openings',
      () => (op = s.subscribe(`{ profile(id: "ana") { context(maxTokens: 300, query: "chess openings") { text } } }`)),
      () => op!.dispose(), // the client sends `complete` for it
    )
    // The socket goes on serving.
    expect(
      (await s.once('{ profile(id: "ana") { context(maxTokens: 50) { tokens } } }')).data.profile.context.tokens,
    ).toBeGreaterThan(0)

    const s2 = connect(svc.url, svc.key)
    sockets.push(s2)
    await s2.connected
    ms.wsClosed = await cancelled(
      'opera tickets',
      () => s2.subscribe(`{ profile(id: "ana") { context(maxTokens: 300, query: "opera tickets") { text } } }`),
      () => s2.close(),
    )
    console.log(
      JSON.stringify({ droppedAfterMs: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])) }),
    )

    // An abandoned request is not retried (it is no outage), and the provider's circuit breaker did not count it: the
    // next context with a query is answered, ranked by the embedder.
    for (const q of ['hiking in the alps', 'sailing at dawn', 'chess openings', 'opera tickets']) {
      expect(
        oa.embeddingRequests().filter((r) => JSON.stringify(r.body).includes(q)),
        q,
      ).toHaveLength(1)
    }
    const r = await client(svc.url, svc.key).get('/v1/profile/ana/context?query=jazz%20festival')
    expect(r.status).toBe(200)
    expect(((await r.json()) as any).ranked_by).toBe('query')
  })
})

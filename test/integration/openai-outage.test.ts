// The `openai` provider when the provider refuses us in a way no retry fixes (a wrong key, a missing model, no quota
// left), and when it asks to wait: through the running service against the fake OpenAI server answering with
// OpenAI's own error bodies and headers. Processing pauses (submissions wait, no attempt used), the pause is reported
// once in the log, in /readyz and in metrics, and processing resumes by itself once the provider answers again; long
// waits asked by the provider defer the work instead of being ignored; an aborted request is no failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type TestService } from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js'
import { scrape } from '../support/prometheus.js'
import { waitFor } from '../support/wait.js'

const TOKEN = 'metrics-token-for-openai-outage'
const ATTEMPTS = 3

/** Log lines of the service, parsed. */
function logSink() {
  const lines: any[] = []
  return { lines, stream: { write: (s: string) => void lines.push(JSON.parse(s)) } }
}

async function start(oa: OpenAIServer, env: Record<string, string> = {}) {
  const log = logSink()
  const svc = await startService({
    env: openaiEnv(oa, {
      LOG_LEVEL: 'info',
      PROFILER_METRICS_TOKEN: TOKEN,
      PROFILER_MAX_ATTEMPTS: String(ATTEMPTS),
      PROFILER_RETRY_BASE_MS: '100',
      PROFILER_LLM_RETRY_BASE_MS: '50',
      PROFILER_LLM_MAX_RETRIES: '3',
      // The pause's probes: 0.2 s, then doubling up to 0.8 s.
      PROFILER_LLM_BREAKER_COOLDOWN_MS: '200',
      PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS: '800',
      ...env,
    }),
    logStream: log.stream,
  })
  return { svc, log }
}

const readyz = async (svc: TestService) => {
  const res = await fetch(`${svc.url}/readyz`)
  return { status: res.status, body: (await res.json()) as any }
}

const submissionsOf = async (svc: TestService, ids: string[]) => {
  const alias = (id: string) => id.replace(/-/g, '_')
  const profiles = ids.map(
    (id) =>
      `${alias(id)}: profile(id: "${id}") { status submissions(first: 5) { nodes { id status attempts error } } }`,
  )
  const { body } = await gql(svc.url, svc.key, `{ ${profiles.join(' ')} }`)
  if (!body.data) throw new Error(JSON.stringify(body))
  return ids.flatMap(
    (id) =>
      body.data[alias(id)].submissions.nodes as {
        id: string
        status: string
        attempts: number
        error: string | null
      }[],
  )
}

const since = (oa: OpenAIServer, marker: string, kind?: 'chat' | 'embeddings') => (): RecordedRequest[] =>
  oa.requests.filter((r) => (!kind || r.kind === kind) && JSON.stringify(r.body).includes(marker))

describe('a misconfigured provider pauses processing, reports it once, and resumes by itself', () => {
  let oa: OpenAIServer
  let svc: TestService
  let log: ReturnType<typeof logSink>
  beforeAll(async () => {
    oa = await startOpenAIServer()
    ;({ svc, log } = await start(oa))
  })
  afterAll(async () => {
    await svc?.close()
    await oa?.close()
  })
  beforeEach(() => oa.faults.clear())

  const pauseLines = () => log.lines.filter((l) => /processing paused until it answers again/.test(l.msg ?? ''))
  const resumeLines = () => log.lines.filter((l) => /processing resumed/.test(l.msg ?? ''))

  /**
   * Submits, waits for the pause, checks what waits and what is reported, lets the provider answer again and checks
   * that everything is processed by itself.
   */
  async function pauseAndResume(o: {
    prefix: string
    reason: string
    detail: RegExp
    requestsPerBatch: (oa: OpenAIServer, marker: string) => RecordedRequest[]
    /** Checks while paused. */
    during?: () => Promise<void>
  }) {
    const api = client(svc.url, svc.key)
    const ids = [0, 1, 2].map((i) => `${o.prefix}-${i}`)
    const pausesBefore = pauseLines().length
    const resumesBefore = resumeLines().length
    const pausesCounted = (await scrape(`${svc.url}/metrics`, TOKEN)).value('profiler_llm_provider_pauses_total', {
      reason: o.reason,
    })
    const marker = o.prefix.toUpperCase()
    for (const id of ids)
      expect((await api.post(id, { data: `${marker} I live in Oslo and I love chess (${id}).` })).status).toBe(202)

    const ready = await waitFor('/readyz to show the pause', () => readyz(svc), {
      until: (r) => r.body.ai?.state === 'misconfigured',
    })
    expect(ready.status).toBe(200)
    expect(ready.body).toMatchObject({
      status: 'ready',
      ai: { provider: 'openai', state: 'misconfigured', reason: o.reason },
    })
    expect(ready.body.ai.detail).toMatch(o.detail)
    expect(Date.parse(ready.body.ai.since)).toBeGreaterThan(Date.now() - 60_000)

    // Let it probe a few times (refused each time) while the submissions wait.
    const refusedBefore = o.requestsPerBatch(oa, marker).length
    await waitFor('three more refused probes', () => o.requestsPerBatch(oa, marker).length, {
      until: (n) => n >= refusedBefore + 3,
      timeoutMs: 30_000,
    })
    // Waiting, not failed: back to pending between tries without using an attempt (a try claims them for a moment).
    const subs = await waitFor('every submission pending, no attempt used', () => submissionsOf(svc, ids), {
      until: (xs) => xs.length === ids.length && xs.every((s) => s.status === 'PENDING' && s.attempts === 0),
    })
    expect(subs.some((s) => o.detail.test(s.error ?? ''))).toBe(true)
    const m = await scrape(`${svc.url}/metrics`, TOKEN)
    expect(m.value('profiler_llm_provider_paused', { reason: o.reason })).toBe(1)
    expect(m.value('profiler_llm_provider_paused')).toBe(1)
    expect(m.value('profiler_llm_request_failures_total', { kind: o.reason })).toBeGreaterThanOrEqual(1)
    expect(m.value('profiler_llm_provider_pauses_total', { reason: o.reason }) - pausesCounted).toBe(1)
    // Reported once: one error line when the pause began, whatever the batches and probes since.
    expect(pauseLines().length - pausesBefore).toBe(1)
    expect(pauseLines().at(-1)).toMatchObject({ level: 50, reason: o.reason })
    expect(log.lines.filter((l) => l.level >= 50).length).toBe(pauseLines().length)
    await o.during?.()

    // The provider answers again: everything is processed, with no action.
    oa.faults.clear()
    for (const id of ids) expect((await api.waitReady(id, 30_000)).core_info.location?.value).toBe('Oslo')
    for (const s of await submissionsOf(svc, ids)) expect(s).toMatchObject({ status: 'DONE', attempts: 1, error: null })
    const after = await readyz(svc)
    expect(after.body).toEqual({ status: 'ready', ai: { provider: 'openai', state: 'ok' } })
    expect((await scrape(`${svc.url}/metrics`, TOKEN)).value('profiler_llm_provider_paused')).toBe(0)
    expect(resumeLines().length - resumesBefore).toBe(1)
    expect(resumeLines().at(-1)).toMatchObject({ level: 30, reason: o.reason })
  }

  it('a wrong key (401): submissions wait; /readyz, metrics and a log line say so; fixed, all processed', async () => {
    oa.faults.add({ endpoint: 'any', error: 'invalid_api_key', persistent: true })
    await pauseAndResume({
      prefix: 'key',
      reason: 'unauthorized',
      detail: /401 Incorrect API key provided.*check OPENAI_API_KEY/,
      requestsPerBatch: (oa, m) => since(oa, m, 'chat')(),
      // A search by query needs the (paused) provider: a 503 saying when to retry, not a 500, without operator details.
      during: async () => {
        const res = await fetch(`${svc.url}/v1/search?query=chess`, { headers: { authorization: `Bearer ${svc.key}` } })
        const body = (await res.json()) as any
        expect(res.status).toBe(503)
        expect(body).toEqual({
          error: 503,
          message: expect.stringMatching(/AI provider is unavailable; retry in \d+ s/),
        })
        expect(body.message).not.toMatch(/OPENAI_API_KEY/)
      },
    })
  })

  it('a missing chat model (404 model_not_found): paused, searches answered, resumed once it exists', async () => {
    oa.faults.add({ error: 'model_not_found', persistent: true })
    await pauseAndResume({
      prefix: 'model',
      reason: 'not_found',
      detail: /404 The model `test-chat` does not exist.*check PROFILER_CHAT_MODEL \(test-chat\)/,
      requestsPerBatch: (oa, m) => since(oa, m, 'chat')(),
      // Embeddings are not paused by a missing chat model: a search by query is answered meanwhile.
      during: async () => {
        const search = await fetch(`${svc.url}/v1/search?query=chess`, {
          headers: { authorization: `Bearer ${svc.key}` },
        })
        expect(search.status).toBe(200)
      },
    })
  })

  it('a missing embedding model: chat requests held too, probed by an embeddings request of its own', async () => {
    oa.faults.add({ endpoint: 'embeddings', error: 'model_not_found', persistent: true })
    const chatBefore = oa.chatRequests().length
    await pauseAndResume({
      prefix: 'embmodel',
      reason: 'not_found',
      detail: /404 The model `test-embed-small` does not exist.*check PROFILER_EMBEDDING_MODEL \(test-embed-small\)/,
      // The probes are one-word embeddings requests the client sends itself.
      requestsPerBatch: (oa) => oa.embeddingRequests().filter((r) => r.body?.input === 'probe'),
    })
    // Chat requests: one per batch before the pause began, none while it lasted, one per batch after.
    expect(oa.chatRequests().length - chatBefore).toBeLessThanOrEqual(2 * 3)
  })

  it('quota exhausted (429 insufficient_quota) pauses, not a rate limit: never retried within a request', async () => {
    oa.faults.add({ endpoint: 'any', error: 'insufficient_quota', persistent: true })
    const reqs = since(oa, 'QUOTA', 'chat')
    await pauseAndResume({
      prefix: 'quota',
      reason: 'quota',
      detail: /429 You exceeded your current quota.*billing/,
      requestsPerBatch: () => reqs().filter((r) => r.status === 429),
    })
    // Each refused request was one batch's only one (or a probe), a deferral apart, never a retry within the request
    // (retried, they would follow each other PROFILER_LLM_RETRY_BASE_MS = 50 ms apart or so).
    const refused = reqs().filter((r) => r.status === 429)
    for (const texts of new Set(refused.map((r) => r.batch!.texts.join()))) {
      const same = refused.filter((r) => r.batch!.texts.join() === texts)
      for (let i = 1; i < same.length; i++) expect(same[i]!.at - same[i - 1]!.at).toBeGreaterThanOrEqual(150)
    }
  })

  it('an embedding request aborted by its caller (a client that left) is no failure of the provider', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    oa.faults.add({ endpoint: 'embeddings', match: 'zanzibar', holdUntil: held })
    const before = await scrape(`${svc.url}/metrics`, TOKEN)
    const abort = new AbortController()
    const search = fetch(`${svc.url}/v1/search?query=zanzibar`, {
      headers: { authorization: `Bearer ${svc.key}` },
      signal: abort.signal,
    }).catch((e) => e)
    const req = await waitFor('the embedding request of the search', () =>
      oa.embeddingRequests().find((r) => JSON.stringify(r.body).includes('zanzibar')),
    )
    abort.abort()
    await search
    // The service gives up its request when its client leaves: the fake sees the connection close before its answer.
    await waitFor('the embedding request to be abandoned', () => req.delivered === false)
    release()
    const after = await waitFor('the metrics to show the aborted call', () => scrape(`${svc.url}/metrics`, TOKEN), {
      until: (m) =>
        m.value('profiler_ai_errors_total', { operation: 'embed', kind: 'aborted' }) >
        before.value('profiler_ai_errors_total', { operation: 'embed', kind: 'aborted' }),
    })
    // Not a failed request to the provider, no outage, no pause.
    expect(after.value('profiler_llm_request_failures_total')).toBe(before.value('profiler_llm_request_failures_total'))
    expect(after.value('profiler_llm_circuit_open')).toBe(0)
    expect((await readyz(svc)).body.ai).toEqual({ provider: 'openai', state: 'ok' })
  })
})

describe('waits the provider asks for', () => {
  let oa: OpenAIServer
  let svc: TestService
  beforeAll(async () => {
    oa = await startOpenAIServer()
    ;({ svc } = await start(oa))
  })
  afterAll(async () => {
    await svc?.close()
    await oa?.close()
  })

  const notBefore = async (id: string): Promise<number> => {
    const [row] = await svc.profiler.db.dataSource.query(
      `SELECT extract(epoch FROM not_before) * 1000 AS at FROM submissions WHERE id = $1`,
      [id],
    )
    return Number(row.at)
  }

  it('x-ratelimit-reset-requests (OpenAI, no Retry-After) is waited out within the request', async () => {
    const api = client(svc.url, svc.key)
    oa.faults.add({
      status: 429,
      match: 'RESETREQ',
      headers: {
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1.5s',
        'x-ratelimit-remaining-tokens': '149000',
        'x-ratelimit-reset-tokens': '20ms',
      },
    })
    expect((await api.post('resetreq', { data: 'RESETREQ I live in Lima.' })).status).toBe(202)
    expect((await api.waitReady('resetreq', 30_000)).core_info.location?.value).toBe('Lima')
    const reqs = since(oa, 'RESETREQ', 'chat')()
    expect(reqs.map((r) => r.status)).toEqual([429, 200])
    // Without the header read, the retry would follow the 50 ms backoff.
    expect(reqs[1]!.at - reqs[0]!.at).toBeGreaterThanOrEqual(1400)
    const [s] = await submissionsOf(svc, ['resetreq'])
    expect(s).toMatchObject({ status: 'DONE', attempts: 1 })
  })

  it('x-ratelimit-reset-tokens of 6m0s: not waited in the request; submission deferred, no attempt used', async () => {
    const api = client(svc.url, svc.key)
    oa.faults.add({
      endpoint: 'embeddings',
      status: 429,
      headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '6m0s' },
    })
    const t0 = Date.now()
    expect((await api.post('resettok', { data: 'RESETTOK I live in Quito.' })).status).toBe(202)
    const [s] = await waitFor('the submission to be deferred', () => submissionsOf(svc, ['resettok']), {
      until: ([x]) => x?.status === 'PENDING' && /wait 360 s/.test(x.error ?? ''),
    })
    expect(s!.attempts).toBe(0)
    expect(await notBefore(s!.id)).toBeGreaterThanOrEqual(t0 + 359_000)
    // One embeddings request for it: not retried within the request.
    expect(oa.embeddingRequests().filter((r) => r.status === 429)).toHaveLength(1)
  })

  it('Retry-After: 120: not retried in the request, the submission deferred until then, no attempt used', async () => {
    const api = client(svc.url, svc.key)
    oa.faults.add({ status: 429, match: 'LATER', retryAfterSeconds: 120 })
    const t0 = Date.now()
    expect((await api.post('later', { data: 'LATER I live in Bergen.' })).status).toBe(202)
    const [s] = await waitFor('the submission to be deferred', () => submissionsOf(svc, ['later']), {
      until: ([x]) => x?.status === 'PENDING' && /wait 120 s/.test(x.error ?? ''),
    })
    expect(s!.attempts).toBe(0)
    expect(await notBefore(s!.id)).toBeGreaterThanOrEqual(t0 + 119_000)
    const reqs = since(oa, 'LATER', 'chat')()
    expect(reqs.map((r) => r.status)).toEqual([429])
    // A rate limit is no misconfiguration.
    expect((await readyz(svc)).body.ai.state).not.toBe('misconfigured')
  })
})

// Prometheus metrics over real HTTP, read with a Prometheus text-format parser: the token on the API port, the metrics
// port (every role, the worker's included), that the counts move with real traffic (REST, GraphQL, a WebSocket
// subscription, a submission the worker applies, LLM calls to a local OpenAI-compatible server), and that no URL or
// operation name a client picks becomes a label.
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { connect, gql } from '../support/graphql-client.js'
import { client, SERVER_URL, startService, testConfig, type TestService } from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'
import { scrape, type Scrape } from '../support/prometheus.js'
import { waitFor } from '../support/wait.js'

const TOKEN = crypto.randomBytes(24).toString('hex')
const HTTP = 'profiler_http_request_duration_seconds'
const GQL = 'profiler_graphql_operation_duration_seconds'
const AI = 'profiler_ai_operation_duration_seconds'

describe('GET /metrics on the API port, behind PROFILER_METRICS_TOKEN', () => {
  let svc: TestService
  let metricsUrl: string
  const read = () => scrape(metricsUrl, TOKEN)
  beforeAll(async () => {
    // A low failed-authentication budget: wrong metrics tokens must not draw on it.
    svc = await startService({
      env: {
        PROFILER_METRICS_TOKEN: TOKEN,
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        PROFILER_AUTH_FAILURES_PER_MINUTE: '5',
      },
    })
    metricsUrl = `${svc.url}/metrics`
  })
  afterAll(async () => svc?.close())

  it('a missing or wrong token is 401, the right one 200; no budget is charged', async () => {
    const wrong = [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearer wrong',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}${TOKEN.endsWith('0') ? '1' : '0'}`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
      TOKEN,
      `Bearer ${svc.key}`,
      `Bearer ${'x'.repeat(8000)}`,
      `Bearer ${TOKEN}%00`,
    ]
    // More failures than PROFILER_AUTH_FAILURES_PER_MINUTE: every one is a plain 401, never a 429.
    for (let round = 0; round < 2; round++) {
      for (const authorization of wrong) {
        const res = await fetch(metricsUrl, { headers: authorization === undefined ? {} : { authorization } })
        const body = await res.json()
        expect(res.status, `Authorization: ${authorization?.slice(0, 80)}`).toBe(401)
        expect(body).toEqual({ error: 401, message: expect.stringMatching(/metrics token/) })
        expect(res.headers.get('www-authenticate')).toBe('Bearer')
        expect(res.headers.get('ratelimit-limit')).toBeNull()
      }
    }
    // The address may still authenticate with its API key.
    expect((await client(svc.url, svc.key).get('/v1/profile/nobody')).status).toBe(404)

    const ok = await fetch(metricsUrl, { headers: { authorization: `bearer   ${TOKEN}` } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(ok.headers.get('ratelimit-limit')).toBeNull()
    expect(await ok.text()).toMatch(/^# HELP profiler_/m)
    const head = await fetch(metricsUrl, { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(head.status).toBe(200)
    // The route table knows the path: other methods are 405 with Allow.
    const patch = await fetch(metricsUrl, { method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('GET, HEAD')
  })

  it('REST, GraphQL, a WebSocket subscription and the worker: the series exist and their counts move', async () => {
    const api = client(svc.url, svc.key)
    const before = await read()
    expect((await api.post('m-1', { data: 'I live in Oslo and I love chess.' })).status).toBe(202)
    await api.waitReady('m-1')
    expect((await api.get('/v1/profile/m-1')).status).toBe(200)
    const q = await gql(svc.url, svc.key, 'query WhateverTheClientCallsIt { profile(id: "m-1") { profileId status } }')
    expect(q.body.errors).toBeUndefined()
    const bad = await gql(svc.url, svc.key, '{ noSuchField }')
    expect(bad.status).toBe(400)
    const mutation = await gql(svc.url, svc.key, 'mutation { deleteProfile(id: "not-there") }')
    expect(mutation.status).toBe(200)

    const after = await read()
    const delta = (f: (s: Scrape) => number) => f(after) - f(before)
    // REST: by route pattern, method and status.
    expect(delta((s) => s.count(HTTP, { method: 'POST', route: '/v1/profile/:id', status: '202' }))).toBe(1)
    expect(
      delta((s) => s.count(HTTP, { method: 'GET', route: '/v1/profile/:id', status: '200' })),
    ).toBeGreaterThanOrEqual(2)
    expect(delta((s) => s.count(HTTP, { method: 'POST', route: '/graphql', status: '200' }))).toBe(2)
    const post = after.histograms(HTTP, { method: 'POST', route: '/v1/profile/:id', status: '202' })[0]!
    expect(post.sum).toBeGreaterThan(0)
    expect(post.buckets['+Inf']).toBe(post.count)
    // GraphQL: by type and root field; the client's operation name is not a label.
    expect(
      delta((s) => s.count(GQL, { endpoint: '/graphql', type: 'query', operation: 'profile', outcome: 'ok' })),
    ).toBe(1)
    expect(
      delta((s) => s.count(GQL, { endpoint: '/graphql', type: 'unknown', operation: 'unknown', outcome: 'error' })),
    ).toBe(1)
    expect(delta((s) => s.count(GQL, { endpoint: '/graphql', type: 'mutation', operation: 'deleteProfile' }))).toBe(1)
    expect(after.text).not.toMatch(/WhateverTheClientCallsIt|noSuchField/)
    // The worker, with the local providers.
    for (const operation of ['extract', 'summarize', 'embed']) {
      expect(
        delta((s) => s.count(AI, { provider: 'local', operation, outcome: 'ok' })),
        operation,
      ).toBeGreaterThanOrEqual(1)
    }
    expect(delta((s) => s.value('profiler_worker_submissions_total', { outcome: 'applied' }))).toBe(1)
    // The process, the database and the queue.
    expect(after.value('profiler_info', { role: 'all', database: SERVER_URL ? 'server' : 'embedded' })).toBe(1)
    expect(after.value('profiler_db_pool_max')).toBe(10)
    expect(
      after.value('profiler_db_pool_connections', { state: 'idle' }) +
        after.value('profiler_db_pool_connections', { state: 'in_use' }),
    ).toBeGreaterThanOrEqual(1)
    expect(after.samples('profiler_db_pool_waiting')).toHaveLength(1)
    expect(after.samples('profiler_db_embedded_connections')).toHaveLength(SERVER_URL ? 0 : 1)
    if (!SERVER_URL) expect(after.value('profiler_db_embedded_connections')).toBeGreaterThanOrEqual(2)
    expect(
      after
        .samples('profiler_queue_submissions')
        .map((d) => d.labels.state)
        .sort(),
    ).toEqual(['pending', 'processing'])
    expect(after.samples('profiler_queue_oldest_age_seconds')).toHaveLength(2)
    expect(after.value('profiler_process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(after.samples('profiler_nodejs_heap_size_used_bytes')).toHaveLength(1)
  })

  it('WebSocket connections and subscriptions are gauges read at scrape time', async () => {
    const ws = (s: Scrape) => [
      s.value('profiler_websocket_connections', { endpoint: '/graphql' }),
      s.value('profiler_graphql_subscriptions', { endpoint: '/graphql' }),
    ]
    expect(ws(await read())).toEqual([0, 0])
    const a = connect(svc.url, svc.key)
    const b = connect(svc.url, svc.key)
    try {
      await Promise.all([a.connected, b.connected])
      a.status('m-1')
      a.status()
      b.status('m-2')
      await waitFor('3 subscriptions on 2 sockets', async () => ws(await read()), {
        until: ([c, n]) => c === 2 && n === 3,
      })
    } finally {
      await a.close()
      await b.close()
    }
    await waitFor('the sockets to be gone from the gauges', async () => ws(await read()), {
      until: ([c, n]) => c === 0 && n === 0,
    })
    expect((await read()).samples('profiler_websocket_connections', { endpoint: '/dashboard/graphql' })).toHaveLength(1)
  })

  it('label cardinality: random URLs, methods and operation names create no series', async () => {
    const rand = () => crypto.randomBytes(6).toString('hex')
    const seen: string[] = []
    const hostile = async () => {
      const r = rand()
      seen.push(r)
      const auth = { authorization: `Bearer ${svc.key}` }
      await Promise.all([
        fetch(`${svc.url}/v1/profile/${r}`, { headers: auth }), // a route's own 404
        fetch(`${svc.url}/v1/profile/${r}?x=${r}`, { headers: auth }),
        fetch(`${svc.url}/${r}/${r}`, { headers: auth }), // no route
        fetch(`${svc.url}/v1/profile/${r}/${r}`, { method: 'PUT', headers: auth }),
        fetch(`${svc.url}/v1/profile/${r}`, { method: 'PATCH', headers: auth }), // 405
        fetch(`${svc.url}/v1/profile/${r}${'y'.repeat(1100)}`, { headers: auth }), // over maxParamLength
        fetch(`${svc.url}/v1/profile/%zz${r}`, { headers: auth }), // malformed percent-encoding
        fetch(`${svc.url}/metrics/${r}`, { headers: { authorization: `Bearer ${TOKEN}` } }),
        gql(svc.url, svc.key, `query Q${r} { usage { submissions } }`),
        gql(svc.url, svc.key, `query Q${r} { a${r}: usage { submissions } b${r}: profile(id: "${r}") { profileId } }`),
        gql(svc.url, svc.key, `query Q${r} { f${r} }`),
      ])
    }
    // Every kind of request once, then many more: the set of series does not grow.
    await hostile()
    const series = (s: Scrape) =>
      [...s.histograms(HTTP), ...s.histograms(GQL)].map((h) => JSON.stringify(h.labels)).sort()
    const first = await read()
    for (let i = 0; i < 40; i++) await hostile()
    const last = await read()
    expect(series(last)).toEqual(series(first))
    for (const r of seen) expect(last.text).not.toContain(r)
    const routes = new Set(last.histograms(HTTP).map((h) => h.labels.route))
    expect(routes.has('unmatched')).toBe(true)
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-z0-9/:._-]*)$/)
    const ops = new Set(last.histograms(GQL).map((h) => h.labels.operation))
    expect(
      [...ops].every((o) => ['profile', 'usage', 'deleteProfile', 'multiple', 'unknown'].includes(o!)),
      [...ops].join(),
    ).toBe(true)
    expect(ops.has('multiple')).toBe(true)
    // 41 rounds of the route's own 404 and of requests matching no route, each under one series.
    expect(last.count(HTTP, { method: 'GET', route: '/v1/profile/:id', status: '404' })).toBeGreaterThanOrEqual(82)
    expect(last.count(HTTP, { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(41)
  })
})

describe('the metrics port (PROFILER_METRICS_PORT), no token', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ role: 'api', env: { PROFILER_METRICS_PORT: '0' } })
  })
  afterAll(async () => svc?.close())

  it('serves /metrics without auth on its own port; the API port has no /metrics', async () => {
    const url = svc.profiler.metricsUrl!
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    expect(new URL(url).port).not.toBe(new URL(svc.url).port)
    const s = await scrape(url)
    expect(s.value('profiler_info', { role: 'api' })).toBe(1)
    const onApi = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${svc.key}` } })
    expect(onApi.status).toBe(404)
    expect(((await onApi.json()) as { error: number }).error).toBe(404)
    expect((await fetch(`${svc.url}/metrics`, { method: 'PATCH' })).status).toBe(404)
    const base = url.replace(/\/metrics$/, '')
    expect((await fetch(`${base}/`)).status).toBe(404)
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404)
    expect((await fetch(`${base}/metrics?x=1`)).status).toBe(200)
    const post = await fetch(url, { method: 'POST', body: 'x' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })

  it('queue depth and the age of the oldest pending submission (no worker runs here)', async () => {
    const api = client(svc.url, svc.key)
    const start = Date.now()
    for (const [id, data] of [
      ['q-1', 'I live in Oslo.'],
      ['q-1', 'I love chess.'],
      ['q-2', 'I am a nurse.'],
    ]) {
      expect((await api.post(id!, { data })).status).toBe(202)
    }
    // The gauges are cached for 5 s between database reads: wait for a read that sees them at least a second old.
    const s = await waitFor(
      'the queue gauges to show 3 pending submissions, the oldest at least 1 s old',
      () => scrape(svc.profiler.metricsUrl!),
      {
        until: (s) =>
          s.value('profiler_queue_submissions', { state: 'pending' }) === 3 &&
          s.value('profiler_queue_oldest_age_seconds', { state: 'pending' }) >= 1,
        everyMs: 250,
        timeoutMs: 30_000,
      },
    )
    expect(s.value('profiler_queue_submissions', { state: 'processing' })).toBe(0)
    expect(s.value('profiler_queue_oldest_age_seconds', { state: 'processing' })).toBe(0)
    expect(s.value('profiler_queue_oldest_age_seconds', { state: 'pending' })).toBeLessThanOrEqual(
      (Date.now() - start) / 1000 + 1,
    )
  })
})

describe('a worker-only process exposes its metrics on the metrics port', () => {
  let api: TestService
  let worker: Profiler | undefined
  beforeAll(async () => {
    api = await startService({ role: 'api' })
    worker = await startProfiler(testConfig(api.db, { PROFILER_METRICS_PORT: '0', PROFILER_BOOTSTRAP: 'false' }), {
      role: 'worker',
    })
  })
  afterAll(async () => {
    await worker?.close()
    await api?.close()
  })

  it('extraction latency and applied submissions, from the worker', async () => {
    expect(worker!.url).toBeUndefined()
    const c = client(api.url, api.key)
    expect((await c.post('w-1', { data: 'I live in Bergen and I play the violin.' })).status).toBe(202)
    await c.waitReady('w-1', 60_000)
    const s = await waitFor('the worker to count the applied submission', () => scrape(worker!.metricsUrl!), {
      until: (s) => s.value('profiler_worker_submissions_total', { outcome: 'applied' }) === 1,
    })
    expect(s.value('profiler_info', { role: 'worker' })).toBe(1)
    expect(s.count(AI, { provider: 'local', operation: 'extract', outcome: 'ok' })).toBeGreaterThanOrEqual(1)
    expect(s.histograms(HTTP)).toEqual([])
  })
})

describe('LLM tokens and errors (openai provider against a local OpenAI-compatible server)', () => {
  let oa: OpenAIServer
  let svc: TestService
  beforeAll(async () => {
    oa = await startOpenAIServer()
    svc = await startService({
      env: openaiEnv(oa, {
        PROFILER_METRICS_PORT: '0',
        PROFILER_MAX_ATTEMPTS: '1',
        PROFILER_LLM_RETRY_BASE_MS: '20',
        PROFILER_RATE_LIMIT_PER_MINUTE: '10000',
      }),
    })
  })
  afterAll(async () => {
    await svc?.close()
    await oa?.close()
  })

  it('counts every token the provider reports, failed requests by kind, and failed calls by kind', async () => {
    const api = client(svc.url, svc.key)
    const before = await scrape(svc.profiler.metricsUrl!)
    const usageBefore = oa.usageTotals().all
    // One 429 that the client retries, then a submission whose output is never usable (3 requests, then it fails).
    oa.faults.add({ status: 429, match: 'RETRIED' })
    oa.faults.add({ malformedJson: true, match: 'UNUSABLE' }, 3)
    expect((await api.post('llm-1', { data: 'RETRIED I live in Oslo.' })).status).toBe(202)
    await api.waitReady('llm-1', 60_000)
    expect((await api.post('llm-2', { data: 'UNUSABLE I live in Rome.' })).status).toBe(202)
    await api.waitReady('llm-2', 60_000)
    const after = await scrape(svc.profiler.metricsUrl!)
    const delta = (f: (s: Scrape) => number) => f(after) - f(before)
    expect(delta((s) => s.value('profiler_llm_request_failures_total', { kind: 'rate_limited' }))).toBe(1)
    expect(
      delta((s) =>
        s.value('profiler_ai_errors_total', { provider: 'openai', operation: 'extract', kind: 'bad_output' }),
      ),
    ).toBe(1)
    expect(delta((s) => s.count(AI, { provider: 'openai', operation: 'extract', outcome: 'ok' }))).toBe(1)
    expect(delta((s) => s.value('profiler_worker_submissions_total', { outcome: 'failed' }))).toBe(1)
    // Every token the server reported, the failed requests' included, and nothing else.
    const usage = oa.usageTotals().all
    expect(delta((s) => s.value('profiler_ai_tokens_total', { provider: 'openai', type: 'prompt' }))).toBe(
      usage.promptTokens - usageBefore.promptTokens,
    )
    expect(delta((s) => s.value('profiler_ai_tokens_total', { provider: 'openai', type: 'completion' }))).toBe(
      usage.completionTokens - usageBefore.completionTokens,
    )
    expect(usage.promptTokens - usageBefore.promptTokens).toBeGreaterThan(0)
  })
})

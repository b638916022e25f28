// OpenTelemetry tracing on real parts: the whole service in this process with an in-process exporter injected through
// the composition root (the spans as the SDK ends them), real HTTP, both databases. One trace runs from the caller's
// `traceparent` through the HTTP span and `submission.accept`, across the queue (the traceparent stored on the
// submission's row), to `submission.process` and its extract/merge/embed/publish. Hostile trace headers and request
// ids are ignored or replaced; with tracing off nothing is traced and nothing is stored.
import crypto from 'node:crypto'
import { SpanKind, trace } from '@opentelemetry/api'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { tracingOn } from '../../src/tracing/tracing.js'

const hex = (bytes: number) => crypto.randomBytes(bytes).toString('hex')
const OWN_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/

async function storedTraceparent(svc: TestService, submissionId: string): Promise<string | null> {
  const [row] = await svc.profiler.db.dataSource.query(`SELECT traceparent FROM submissions WHERE id = $1`, [submissionId])
  return row.traceparent
}

describe('tracing on (in-process exporter)', () => {
  const exporter = new InMemorySpanExporter()
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    // Each extraction takes 300 ms more: submissions sent while a batch runs wait for it and are taken together.
    svc = await startService({ tracing: { exporter }, env: { PROFILER_EXTRACT_DELAY_MS: '300' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
    expect(tracingOn()).toBe(false)
  })

  const spans = () => exporter.getFinishedSpans()
  const inTrace = (traceId: string) => spans().filter((s) => s.spanContext().traceId === traceId)
  const named = (list: ReadableSpan[], name: string) => list.filter((s) => s.name === name)
  const childrenOf = (list: ReadableSpan[], parent: ReadableSpan) => list.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)

  /** The spans of the submission, once its processing span has ended (it ends after the profile is published). */
  const processed = (submissionId: string) =>
    waitFor(
      `submission.process of ${submissionId}`,
      () => spans().find((s) => s.name === 'submission.process' && (s.attributes['profiler.submission_ids'] as string[]).includes(submissionId)),
      { timeoutMs: 60_000 },
    )

  it('one trace from the caller through HTTP, submission.accept, the queue and the worker to publish', async () => {
    const traceId = hex(16)
    const callerSpan = hex(8)
    const res = await api.post('traced-1', { data: 'I live in Leeds and I work as a nurse.' }, { traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'req-trace-1' })
    expect(res.status).toBe(202)
    expect(res.headers.get('x-request-id')).toBe('req-trace-1')
    const { id } = (await res.json()) as { id: string }
    await api.waitReady('traced-1', 60_000)
    const process = await processed(id)

    const all = inTrace(traceId)
    const [http] = named(all, 'POST /v1/profile/:id')
    expect(http, all.map((s) => s.name).join(', ')).toBeDefined()
    expect(http!.kind).toBe(SpanKind.SERVER)
    expect(http!.parentSpanContext?.spanId).toBe(callerSpan)
    expect(http!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/profile/:id',
      'http.response.status_code': 202,
      'profiler.request_id': 'req-trace-1',
    })
    const tenantId = http!.attributes['profiler.tenant_id']
    expect(tenantId).toMatch(/^ten_/)

    const [accept] = named(all, 'submission.accept')
    expect(accept!.parentSpanContext?.spanId).toBe(http!.spanContext().spanId)
    expect(accept!.attributes).toMatchObject({ 'profiler.submission_id': id, 'profiler.profile_id': 'traced-1', 'profiler.tenant_id': tenantId })
    // What crossed the queue: the accept span's context, on the submission's row.
    expect(await storedTraceparent(svc, id)).toBe(`00-${traceId}-${accept!.spanContext().spanId}-01`)

    // The worker continues the same trace: its span is a child of submission.accept.
    expect(process.spanContext().traceId).toBe(traceId)
    expect(process.parentSpanContext?.spanId).toBe(accept!.spanContext().spanId)
    expect(process.kind).toBe(SpanKind.CONSUMER)
    expect(process.attributes).toMatchObject({
      'profiler.submission_id': id,
      'profiler.profile_id': 'traced-1',
      'profiler.tenant_id': tenantId,
      'profiler.batch_size': 1,
      'profiler.outcome': 'done',
    })
    const steps = childrenOf(inTrace(traceId), process)
    const names = steps.map((s) => s.name)
    for (const name of ['extract', 'merge', 'embed', 'publish']) expect(names, names.join(', ')).toContain(name)
    expect(named(steps, 'extract')[0]!.attributes['profiler.ai.provider']).toBe('local')
    // In order: extracted, merged, embedded, then published.
    const start = (name: string) => named(steps, name)[0]!.startTime
    const ns = (t: [number, number]) => t[0] * 1e9 + t[1]
    expect(ns(start('extract'))).toBeLessThanOrEqual(ns(start('merge')))
    expect(ns(start('merge'))).toBeLessThanOrEqual(ns(start('embed')))
    expect(ns(start('embed'))).toBeLessThanOrEqual(ns(start('publish')))
    for (const s of [http!, accept!, process, ...steps]) expect(s.status.code, s.name).not.toBe(2)
  })

  it('without a traceparent a request starts its own trace, which the worker continues', async () => {
    const res = await api.post('traced-2', { data: 'My name is Ada and I am 36.' })
    expect(res.status).toBe(202)
    const { id } = (await res.json()) as { id: string }
    const process = await processed(id)
    const traceId = process.spanContext().traceId
    const [http] = named(inTrace(traceId), 'POST /v1/profile/:id')
    expect(http!.parentSpanContext).toBeUndefined()
    expect(await storedTraceparent(svc, id)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`))
  })

  it('a batch of several submissions is one span, the child of the oldest, linked to the others', async () => {
    // The first goes alone; the two sent while its batch runs are taken together.
    const traces = [hex(16), hex(16), hex(16)]
    const ids: string[] = []
    for (const [i, t] of traces.entries()) {
      const res = await api.post('batched', { data: `Note ${i}: I enjoy hiking in the Alps.` }, { traceparent: `00-${t}-${hex(8)}-01` })
      expect(res.status).toBe(202)
      ids.push(((await res.json()) as { id: string }).id)
    }
    await api.waitReady('batched', 60_000)
    // Every submission was processed in some batch; each batch's span names its submissions.
    const batches = await waitFor(
      'every submission in a finished batch span',
      () => spans().filter((s) => s.name === 'submission.process' && s.attributes['profiler.profile_id'] === 'batched'),
      { until: (b) => ids.every((id) => b.some((s) => (s.attributes['profiler.submission_ids'] as string[]).includes(id))), timeoutMs: 60_000 },
    )
    expect(batches.some((b) => (b.attributes['profiler.submission_ids'] as string[]).length >= 2)).toBe(true)
    for (const b of batches) {
      const members = b.attributes['profiler.submission_ids'] as string[]
      const first = ids.indexOf(members[0]!)
      expect(b.spanContext().traceId).toBe(traces[first])
      expect(b.links.map((l) => l.context.traceId)).toEqual(members.slice(1).map((m) => traces[ids.indexOf(m)]))
    }
  })

  it("a hostile traceparent is ignored: a new trace, and only the service's own traceparent is stored", async () => {
    const valid = `00-${hex(16)}-${hex(8)}-01`
    const hostile = [
      'garbage',
      `00-${'0'.repeat(32)}-${hex(8)}-01`, // all-zero trace id
      `00-${hex(16)}-${'0'.repeat(16)}-01`, // all-zero span id
      `ff-${hex(16)}-${hex(8)}-01`, // forbidden version
      `00-${hex(16).toUpperCase()}-${hex(8)}-01`, // upper case
      `00-${hex(16)}-${hex(8)}-01-extra`, // version 00 has nothing after the flags
      `${valid}${'x'.repeat(9000)}`, // huge (the request's headers stay under Node's 16 KB)
      `${valid}, ${valid}`, // sent twice
      `00-${hex(16)}-${hex(8)}-01\u00e9`,
    ]
    for (const [i, tp] of hostile.entries()) {
      const res = await fetch(`${svc.url}/v1/profile/hostile-${i}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json', traceparent: Buffer.from(tp, 'latin1').toString('latin1'), tracestate: 'k=v,'.repeat(1000) },
        body: JSON.stringify({ data: 'I live in Oslo.' }),
      })
      expect(res.status, tp.slice(0, 80)).toBe(202)
      const { id } = (await res.json()) as { id: string }
      const stored = await storedTraceparent(svc, id)
      expect(stored, tp.slice(0, 80)).toMatch(OWN_TRACEPARENT)
      const http = await waitFor('the request span', () => spans().find((s) => s.attributes['url.path'] === `/v1/profile/hostile-${i}`))
      expect(http.parentSpanContext, tp.slice(0, 80)).toBeUndefined()
      expect(stored!.slice(3, 35)).toBe(http.spanContext().traceId)
      expect(tp).not.toContain(http.spanContext().traceId)
    }
  })

  it('GraphQL operations get a span under the request span, named by type and name', async () => {
    const traceId = hex(16)
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json', traceparent: `00-${traceId}-${hex(8)}-01` },
      body: JSON.stringify({ query: 'query ReadOne { profile(id: "traced-1") { profileId } }', operationName: 'ReadOne' }),
    })
    expect(res.status).toBe(200)
    const op = await waitFor('the operation span', () => inTrace(traceId).find((s) => s.name === 'query ReadOne'))
    expect(op.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'ReadOne' })
    const [http] = named(inTrace(traceId), 'POST /graphql')
    expect(op.parentSpanContext?.spanId).toBe(http!.spanContext().spanId)
  })

  it('a request that fails keeps its span, with the status', async () => {
    const res = await fetch(`${svc.url}/v1/profile/x`, { headers: { authorization: 'Bearer pk_nope' } })
    expect(res.status).toBe(401)
    const requestId = res.headers.get('x-request-id')!
    const http = await waitFor('the request span', () => spans().find((s) => s.attributes['profiler.request_id'] === requestId))
    expect(http.name).toBe('GET /v1/profile/:id')
    expect(http.attributes['http.response.status_code']).toBe(401)
  })
})

describe('request ids', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('a sane X-Request-Id is kept and echoed; a hostile one is replaced by a fresh id', async () => {
    const get = (id?: string) => fetch(`${svc.url}/healthz`, { headers: id === undefined ? {} : { 'x-request-id': id } })
    for (const sane of ['abc-123', 'a.b_c:d', 'x'.repeat(128), crypto.randomUUID()]) expect((await get(sane)).headers.get('x-request-id')).toBe(sane)
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
    for (const hostile of ['x'.repeat(129), 'x'.repeat(8000), 'a b', '<script>', 'id\twith\ttabs', 'a,b', 'caf\u00e9', '']) {
      const echoed = (await get(Buffer.from(hostile, 'utf8').toString('latin1'))).headers.get('x-request-id')
      expect(echoed, hostile.slice(0, 40)).toMatch(uuid)
    }
    expect((await get()).headers.get('x-request-id')).toMatch(uuid)
  })
})

describe('tracing off (the default)', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('traces nothing and stores no traceparent, even when the caller sends one', async () => {
    expect(tracingOn()).toBe(false)
    const api = client(svc.url, svc.key)
    const res = await api.post('untraced', { data: 'I live in Rome.' }, { traceparent: `00-${hex(16)}-${hex(8)}-01` })
    expect(res.status).toBe(202)
    const { id } = (await res.json()) as { id: string }
    await api.waitReady('untraced', 60_000)
    expect(await storedTraceparent(svc, id)).toBeNull()
    // The API's global provider is still the no-op one: no SDK registered.
    expect(trace.getTracer('x').startSpan('y').isRecording()).toBe(false)
  })
})

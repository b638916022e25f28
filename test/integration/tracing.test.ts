// OpenTelemetry tracing on real parts: the whole service in this process with an in-process exporter injected through
// the composition root (the spans as the SDK ends them), real HTTP, both databases. One trace runs from the caller's
// `traceparent` through the HTTP span and `submission.accept`, across the queue (the traceparent stored on the
// submission's row), to `submission.process` and its extract/merge/embed/publish. Hostile trace headers and request
// ids are ignored or replaced; with tracing off nothing is traced and nothing is stored. Then the real exporters: OTLP
// over HTTP to a real receiver in this process (protobuf, the default, from a service in this process; JSON from
// `profiler start` as a child process, whose log lines carry the request, submission and trace ids), and a child
// without OTEL_* variables that loads no SDK module at all (a loader hook lists every module it resolves).
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { SpanKind, trace } from '@opentelemetry/api'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, profilerArgs } from '../support/cli.js'
import {
  client,
  freshDatabase,
  startService,
  testEnv,
  type Client,
  type TestDatabase,
  type TestService,
} from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'
import { waitFor } from '../support/wait.js'
import { tracingOn } from '../../src/tracing/tracing.js'

const hex = (bytes: number) => crypto.randomBytes(bytes).toString('hex')
const OWN_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/

async function storedTraceparent(svc: TestService, submissionId: string): Promise<string | null> {
  const [row] = await svc.profiler.db.dataSource.query(`SELECT traceparent FROM submissions WHERE id = $1`, [
    submissionId,
  ])
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
  const childrenOf = (list: ReadableSpan[], parent: ReadableSpan) =>
    list.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)

  /** The spans of the submission, once its processing span has ended (it ends after the profile is published). */
  const processed = (submissionId: string) =>
    waitFor(
      `submission.process of ${submissionId}`,
      () =>
        spans().find(
          (s) =>
            s.name === 'submission.process' &&
            (s.attributes['profiler.submission_ids'] as string[]).includes(submissionId),
        ),
      { timeoutMs: 60_000 },
    )

  it('one trace from the caller through HTTP, submission.accept, the queue and the worker to publish', async () => {
    const traceId = hex(16)
    const callerSpan = hex(8)
    const res = await api.post(
      'traced-1',
      { data: 'I live in Leeds and I work as a nurse.' },
      { traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'req-trace-1' },
    )
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
    expect(accept!.attributes).toMatchObject({
      'profiler.submission_id': id,
      'profiler.profile_id': 'traced-1',
      'profiler.tenant_id': tenantId,
    })
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

  it("a caller's not-sampled flag travels with the submission: nothing of it recorded, in API or worker", async () => {
    const traceId = hex(16)
    const res = await api.post(
      'unsampled',
      { data: 'I live in Bergen.' },
      { traceparent: `00-${traceId}-${hex(8)}-00` },
    )
    expect(res.status).toBe(202)
    const { id } = (await res.json()) as { id: string }
    expect(await storedTraceparent(svc, id)).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`))
    await api.waitReady('unsampled', 60_000)
    // A sampled submission of the same profile, processed after it: once its span is exported, the first batch is over.
    const next = await api.post('unsampled', { data: 'I work as a pilot.' })
    await processed(((await next.json()) as { id: string }).id)
    expect(inTrace(traceId)).toEqual([])
  })

  it('a batch of several submissions is one span, the child of the oldest, linked to the others', async () => {
    // The first goes alone; the two sent while its batch runs are taken together.
    const traces = [hex(16), hex(16), hex(16)]
    const ids: string[] = []
    for (const [i, t] of traces.entries()) {
      const res = await api.post(
        'batched',
        { data: `Note ${i}: I enjoy hiking in the Alps.` },
        { traceparent: `00-${t}-${hex(8)}-01` },
      )
      expect(res.status).toBe(202)
      ids.push(((await res.json()) as { id: string }).id)
    }
    await api.waitReady('batched', 60_000)
    // Every submission was processed in some batch; each batch's span names its submissions.
    const batches = await waitFor(
      'every submission in a finished batch span',
      () => spans().filter((s) => s.name === 'submission.process' && s.attributes['profiler.profile_id'] === 'batched'),
      {
        until: (b) =>
          ids.every((id) => b.some((s) => (s.attributes['profiler.submission_ids'] as string[]).includes(id))),
        timeoutMs: 60_000,
      },
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
        headers: {
          authorization: `Bearer ${svc.key}`,
          'content-type': 'application/json',
          traceparent: Buffer.from(tp, 'latin1').toString('latin1'),
          tracestate: 'k=v,'.repeat(1000),
        },
        body: JSON.stringify({ data: 'I live in Oslo.' }),
      })
      expect(res.status, tp.slice(0, 80)).toBe(202)
      const { id } = (await res.json()) as { id: string }
      const stored = await storedTraceparent(svc, id)
      expect(stored, tp.slice(0, 80)).toMatch(OWN_TRACEPARENT)
      const http = await waitFor('the request span', () =>
        spans().find((s) => s.attributes['url.path'] === `/v1/profile/hostile-${i}`),
      )
      expect(http.parentSpanContext, tp.slice(0, 80)).toBeUndefined()
      expect(stored!.slice(3, 35)).toBe(http.spanContext().traceId)
      expect(tp).not.toContain(http.spanContext().traceId)
    }
  })

  it('GraphQL operations get a span under the request span, named by type and name', async () => {
    const traceId = hex(16)
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${svc.key}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${hex(8)}-01`,
      },
      body: JSON.stringify({
        query: 'query ReadOne { profile(id: "traced-1") { profileId } }',
        operationName: 'ReadOne',
      }),
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
    const http = await waitFor('the request span', () =>
      spans().find((s) => s.attributes['profiler.request_id'] === requestId),
    )
    expect(http.name).toBe('GET /v1/profile/:id')
    expect(http.attributes['http.response.status_code']).toBe(401)
  })
})

describe('OTLP/HTTP with protobuf, the default protocol', () => {
  it('sends the spans to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, with the configured headers', async () => {
    const receiver = await otlpReceiver()
    const svc = await startService({
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/traces`,
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20t0ken',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    })
    try {
      expect(tracingOn()).toBe(true)
      const traceId = hex(16)
      const res = await fetch(`${svc.url}/healthz`, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } })
      expect(res.status).toBe(200)
      const got = await waitFor('a protobuf export with the request span', () =>
        receiver.raw.find(
          (r) => r.body.includes(Buffer.from('GET /healthz')) && r.body.includes(Buffer.from(traceId, 'hex')),
        ),
      )
      expect(got.path).toBe('/custom/traces')
      expect(got.type).toBe('application/x-protobuf')
      expect(got.headers.authorization).toBe('Bearer t0ken')
    } finally {
      await svc.close()
      await receiver.close()
    }
    expect(tracingOn()).toBe(false)
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
    const get = (id?: string) =>
      fetch(`${svc.url}/healthz`, { headers: id === undefined ? {} : { 'x-request-id': id } })
    for (const sane of ['abc-123', 'a.b_c:d', 'x'.repeat(128), crypto.randomUUID()])
      expect((await get(sane)).headers.get('x-request-id')).toBe(sane)
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
    for (const hostile of [
      'x'.repeat(129),
      'x'.repeat(8000),
      'a b',
      '<script>',
      'id\twith\ttabs',
      'a,b',
      'caf\u00e9',
      '',
    ]) {
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

/** A real OTLP/HTTP receiver: what a collector's port 4318 does with JSON, keeping every export it is sent. */
async function otlpReceiver() {
  const exports: any[] = []
  const paths: string[] = []
  /** Every request as received: protobuf bodies are kept as they are (their strings are readable in the bytes). */
  const raw: { path: string; type: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const type = String(req.headers['content-type'])
      paths.push(`${req.method} ${req.url} ${type}`)
      raw.push({ path: req.url!, type, headers: req.headers, body: Buffer.concat(chunks) })
      if (type === 'application/x-protobuf')
        return void res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
      try {
        exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      } catch {
        res.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const spans = () =>
    exports.flatMap((e) =>
      (e.resourceSpans ?? []).flatMap((rs: any) =>
        (rs.scopeSpans ?? []).flatMap((ss: any) =>
          (ss.spans ?? []).map((s: any) => ({ ...s, resource: attrs(rs.resource?.attributes) })),
        ),
      ),
    )
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    raw,
    spans,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** OTLP/JSON attributes ([{ key, value: { stringValue | intValue | … } }]) as a plain object. */
function attrs(list: any[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map((a) => {
      const v = a.value ?? {}
      return [
        a.key,
        v.stringValue ??
          (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue ?? v.arrayValue)),
      ]
    }),
  )
}

/** `profiler start` as a real process, with the module log; resolves once it listens. */
function startChild(env: Record<string, string>, moduleLog: string) {
  return new Promise<{ child: ChildProcess; url: string; key: string; out: () => string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', path.join(ROOT, 'test/support/module-log.mjs'), ...profilerArgs('start')],
      {
        cwd: ROOT,
        env: { ...process.env, ...env, PROFILER_TEST_MODULE_LOG: moduleLog },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const url = /"url":"(http:\/\/[^"]+)"/.exec(out)
      const key = /\n {2}(pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32})\n/.exec(out)
      if (url && key) resolve({ child, url: url[1]!, key: key[1]!, out: () => out })
    })
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${out}`)))
  })
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}

const logLines = (out: string) =>
  out.split('\n').flatMap((l) => {
    try {
      return l.startsWith('{') ? [JSON.parse(l)] : []
    } catch {
      return []
    }
  })

describe('a real process', () => {
  let oa: OpenAIServer
  const dbs: TestDatabase[] = []
  const children: ChildProcess[] = []
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-tracing-'))
  /** Each process on a database of its own: it prints the bootstrap key. */
  const database = async () => {
    dbs.push(await freshDatabase())
    return dbs.at(-1)!
  }

  beforeAll(async () => {
    oa = await startOpenAIServer()
  })
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await oa?.close()
    for (const db of dbs) await db.drop()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  // A process takes 2-40 s to start on a loaded machine.
  it('with OTEL_EXPORTER_OTLP_ENDPOINT sends its spans over OTLP/HTTP, and its log lines carry the ids', {
    timeout: 180_000,
  }, async () => {
    const receiver = await otlpReceiver()
    try {
      const moduleLog = path.join(tmp, 'on.log')
      const env = testEnv(
        await database(),
        openaiEnv(oa, {
          LOG_LEVEL: 'info',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=s%20ecret',
          OTEL_SERVICE_NAME: 'profiler-under-test',
          OTEL_BSP_SCHEDULE_DELAY: '200',
        }),
      )
      const svc = await startChild(env, moduleLog)
      children.push(svc.child)
      // The provider's first answer is an error: the batch fails once, is retried, then succeeds.
      oa.faults.add({ status: 400 })
      const traceId = hex(16)
      const api = client(svc.url, svc.key)
      const res = await api.post(
        'otlp-1',
        { data: 'I live in Leeds and I work as a nurse.' },
        { traceparent: `00-${traceId}-${hex(8)}-01`, 'x-request-id': 'otlp-req-1' },
      )
      expect(res.status).toBe(202)
      const { id } = (await res.json()) as { id: string }
      await api.waitReady('otlp-1', 60_000)

      const spans = await waitFor(
        'the spans of the trace at the receiver',
        () => receiver.spans().filter((s) => s.traceId === traceId),
        {
          until: (list) =>
            list.some((s) => s.name === 'submission.process' && attrs(s.attributes)['profiler.outcome'] === 'done'),
          timeoutMs: 30_000,
        },
      )
      const names = new Set(spans.map((s) => s.name))
      for (const name of [
        'POST /v1/profile/:id',
        'submission.accept',
        'submission.process',
        'extract',
        'llm.chat',
        'merge',
        'embed',
        'llm.embed',
        'publish',
      ]) {
        expect(names, [...names].join(', ')).toContain(name)
      }
      expect(spans[0].resource['service.name']).toBe('profiler-under-test')
      const chat = spans.find(
        (s) => s.name === 'llm.chat' && attrs(s.attributes)['gen_ai.usage.input_tokens'] !== undefined,
      )!
      expect(attrs(chat.attributes)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'test-chat',
      })
      expect(attrs(chat.attributes)['gen_ai.usage.input_tokens']).toBeGreaterThan(0)
      const attempts = spans
        .filter((s) => s.name === 'submission.process')
        .map((s) => attrs(s.attributes)['profiler.outcome'])
      expect(attempts.sort()).toEqual(['done', 'retry'])
      expect(receiver.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true)

      await stopChild(svc.child)
      const lines = logLines(svc.out())
      const request = lines.find((l) => l.msg === 'request' && l.reqId === 'otlp-req-1')
      expect(request, svc.out().slice(-3000)).toMatchObject({ trace_id: traceId, status: 202 })
      const retried = lines.find((l) => /will be retried/.test(l.msg ?? ''))
      expect(retried, svc.out().slice(-3000)).toMatchObject({
        submissionId: id,
        profileId: 'otlp-1',
        trace_id: traceId,
      })
      expect(retried.tenantId).toMatch(/^ten_/)
      const loaded = fs.readFileSync(moduleLog, 'utf8')
      expect(loaded).toContain('/@opentelemetry/sdk-trace/')
      expect(loaded).toContain('/@opentelemetry/exporter-trace-otlp-http/')
    } finally {
      await receiver.close()
    }
  })

  it('without OTEL_* variables loads no OpenTelemetry SDK', { timeout: 180_000 }, async () => {
    const moduleLog = path.join(tmp, 'off.log')
    const svc = await startChild(testEnv(await database(), openaiEnv(oa, { LOG_LEVEL: 'info' })), moduleLog)
    children.push(svc.child)
    const api = client(svc.url, svc.key)
    const res = await api.post(
      'untraced-child',
      { data: 'I live in Rome.' },
      { traceparent: `00-${hex(16)}-${hex(8)}-01` },
    )
    expect(res.status).toBe(202)
    await api.waitReady('untraced-child', 60_000)
    await stopChild(svc.child)
    const loaded = fs.readFileSync(moduleLog, 'utf8')
    // The module log works (it saw the service's own modules and the API), and no SDK package is among them.
    expect(loaded).toContain('/dist/src/services/submission.service.js')
    expect(loaded).toContain('/@opentelemetry/api/')
    expect(loaded).not.toMatch(/@opentelemetry\/(sdk-|exporter-|context-async-hooks|resources|core\/)/)
    expect(loaded).not.toContain('/dist/src/tracing/sdk.js')
    const request = logLines(svc.out()).find((l) => l.msg === 'request' && l.url === '/v1/profile/untraced-child')
    expect(request.reqId).toBeTruthy()
    expect(request.trace_id).toBeUndefined()
  })
})

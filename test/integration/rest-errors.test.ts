import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js'
import { client, freshDatabase, startService, type TestDatabase, type TestService } from '../support/harness.js'
import { TcpProxy } from '../support/tcp-proxy.js'
import { waitFor } from '../support/wait.js'

/** Every row of the error table (docs/reference/errors.md), over real HTTP. */
describe('REST errors (docs/reference/errors.md)', () => {
  let svc: TestService
  let base: string
  let key: string
  const auth = () => ({ authorization: `Bearer ${key}` })

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '10000' } })
    base = svc.url
    key = svc.key
  })
  afterAll(async () => svc?.close())

  async function expectError(res: Response, status: number, message?: RegExp) {
    const text = await res.text()
    expect(res.status, text).toBe(status)
    const body = JSON.parse(text)
    expect(Object.keys(body).sort()).toEqual(['error', 'message'])
    expect(body.error).toBe(status)
    expect(typeof body.message).toBe('string')
    expect(body.message).not.toMatch(/SELECT|INSERT|at .*\.ts:|node_modules|pk_/)
    if (message) expect(body.message).toMatch(message)
    expect(res.headers.get('x-request-id')).toBeTruthy()
    return body
  }
  const post = (id: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/v1/profile/${id}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', ...headers },
      body,
    })

  describe('400', () => {
    it('malformed JSON', async () => expectError(await post('p1', '{"data": "x",'), 400, /Malformed JSON/))
    it('body that is not an object', async () => expectError(await post('p1', '["data"]'), 400, /JSON object/))
    it('missing data', async () => expectError(await post('p1', '{"input_type":"text"}'), 400, /data/))
    it('empty data', async () => expectError(await post('p1', '{"data":"   "}'), 400, /data/))
    it('data not a string', async () => expectError(await post('p1', '{"data": 42}'), 400, /data must be a string/))
    it('unknown input_type', async () =>
      expectError(await post('p1', '{"data":"hi","input_type":"poem"}'), 400, /input_type/))
    it('invalid profile id (characters)', async () =>
      expectError(await post('bad%20id', '{"data":"hi"}'), 400, /profile id/))
    it('invalid profile id (length)', async () =>
      expectError(await post('a'.repeat(201), '{"data":"hi"}'), 400, /profile id/))
    it('invalid profile id on GET and DELETE', async () => {
      await expectError(await fetch(`${base}/v1/profile/bad%24id`, { headers: auth() }), 400, /profile id/)
      await expectError(
        await fetch(`${base}/v1/profile/bad%24id`, { method: 'DELETE', headers: auth() }),
        400,
        /profile id/,
      )
    })
    it('structured data that is not a JSON object', async () => {
      await expectError(
        await post('p1', JSON.stringify({ data: '[1,2]', input_type: 'structured' })),
        400,
        /structured/,
      )
      await expectError(
        await post('p1', JSON.stringify({ data: 'not json', input_type: 'structured' })),
        400,
        /structured/,
      )
    })
    const badQueries: [string, RegExp][] = [
      ['page=abc', /page/],
      ['page=0', /page/],
      ['pageSize=0', /pageSize/],
      ['pageSize=101', /pageSize/],
      ['pageSize=1.5', /pageSize/],
      ['sensitivity=101', /sensitivity/],
      ['sensitivity=-1', /sensitivity/],
      ['sensitivity=high', /sensitivity/],
      ['sortBy=shoe_size', /sortBy/],
      ['sortOrder=up', /sortOrder/],
      ['filterBy=shoe_size&filterValue=9', /filterBy/],
      ['filterBy=name', /filterValue/],
      ['page=1&page=2', /page/],
    ]
    for (const [qs, msg] of badQueries) {
      it(`search with ${qs}`, async () => {
        await expectError(await fetch(`${base}/v1/search?${qs}`, { headers: auth() }), 400, msg)
        await expectError(await fetch(`${base}/v1/smart-search?${qs}`, { headers: auth() }), 400, msg)
      })
    }
  })

  describe('401', () => {
    it('missing key, with WWW-Authenticate', async () => {
      const res = await fetch(`${base}/v1/profile/p1`)
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
      await expectError(res, 401, /^Missing API key$/)
    })
    it('missing key is reported before body errors', async () => {
      const res = await fetch(`${base}/v1/profile/p1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{bad',
      })
      await expectError(res, 401, /^Missing API key$/)
    })
    it('malformed, unknown and wrong-scheme keys', async () => {
      for (const h of [
        'Bearer nope',
        'Bearer pk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
        'Basic abc',
        `Bearer ${key}x`,
      ]) {
        await expectError(await fetch(`${base}/v1/search`, { headers: { authorization: h } }), 401, /^Invalid API key$/)
      }
    })
    it('revoked key', async () => {
      const issued = await svc.profiler.services.tenants.createApp('other', 'revoked-app')
      const ok = await fetch(`${base}/v1/search`, { headers: { authorization: `Bearer ${issued.api_key}` } })
      expect(ok.status).toBe(200)
      await svc.profiler.services.tenants.revokeKey('other', 'revoked-app')
      await expectError(
        await fetch(`${base}/v1/search`, { headers: { authorization: `Bearer ${issued.api_key}` } }),
        401,
        /^Invalid API key$/,
      )
    })
  })

  describe('404', () => {
    it('unknown profile on GET and DELETE', async () => {
      await expectError(await fetch(`${base}/v1/profile/nobody`, { headers: auth() }), 404, /nobody/)
      await expectError(await fetch(`${base}/v1/profile/nobody`, { method: 'DELETE', headers: auth() }), 404, /nobody/)
    })
    it('unknown route', async () => {
      await expectError(await fetch(`${base}/v1/nothing-here`, { headers: auth() }), 404)
      await expectError(await fetch(`${base}/v2/profile/x`, { headers: auth() }), 404)
    })
  })

  it('405 with Allow on a known path', async () => {
    const res = await fetch(`${base}/v1/profile/p1`, { method: 'PUT', headers: auth() })
    // HEAD is served wherever GET is (Fastify answers it), so Allow names it.
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, DELETE')
    await expectError(res, 405, /PUT/)
    const res2 = await fetch(`${base}/v1/search`, { method: 'POST', headers: auth() })
    expect(res2.headers.get('allow')).toBe('GET, HEAD')
    await expectError(res2, 405)
  })

  it('Allow is the truth: every method it names is served, every other one is refused with 405', async () => {
    const paths = [
      '/v1/profile/p1',
      '/v1/profile/p1/',
      '/v1/search',
      '/v1/smart-search',
      '/v1/openapi.json',
      '/healthz',
      '/readyz',
      '/graphql',
      '/dashboard',
      '/dashboard/session',
      '/dashboard/graphql',
    ]
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
    for (const path of paths) {
      const probe = await fetch(`${base}${path}`, { method: 'PATCH', headers: auth() })
      expect(probe.status, `PATCH ${path}`).toBe(405)
      const allow = probe.headers.get('allow')!.split(', ')
      for (const method of methods) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { ...auth(), 'content-type': 'application/json' },
          body: ['GET', 'HEAD'].includes(method) ? undefined : '{}',
        })
        const text = await res.text()
        if (allow.includes(method)) {
          // Served: the route answers (a 404 may still come from the route itself: an unknown profile).
          expect(res.status, `${method} ${path} is in Allow (${allow})`).not.toBe(405)
          expect(text, `${method} ${path} is in Allow (${allow})`).not.toMatch(/No route/)
        } else expect(res.status, `${method} ${path} is not in Allow (${allow})`).toBe(405)
      }
    }
    await expectError(await fetch(`${base}/nothing/here`, { method: 'PATCH' }), 404)
  })

  it('409 when an Idempotency-Key is reused with a different body', async () => {
    const first = await post('idem', JSON.stringify({ data: 'I live in Oslo.' }), { 'idempotency-key': 'k-409' })
    expect(first.status).toBe(202)
    await expectError(
      await post('idem', JSON.stringify({ data: 'I live in Rome.' }), { 'idempotency-key': 'k-409' }),
      409,
      /Idempotency-Key/,
    )
  })

  it('413 for a body over the limit and for data over the limit', async () => {
    await expectError(await post('big', JSON.stringify({ data: 'x'.repeat(300 * 1024) })), 413)
    await expectError(await post('big', JSON.stringify({ data: 'é'.repeat(60 * 1024) })), 413, /data/)
  })

  it('415 for a POST body that is not application/json', async () => {
    await expectError(await post('p1', 'data=hello', { 'content-type': 'text/plain' }), 415, /application\/json/)
    await expectError(await post('p1', 'data=hello', { 'content-type': 'application/x-www-form-urlencoded' }), 415)
  })

  it('X-Request-Id is echoed when valid and generated otherwise', async () => {
    const r1 = await fetch(`${base}/v1/search`, { headers: { ...auth(), 'x-request-id': 'my-trace.123' } })
    expect(r1.headers.get('x-request-id')).toBe('my-trace.123')
    const r2 = await fetch(`${base}/v1/search`, { headers: { ...auth(), 'x-request-id': 'bad id with spaces' } })
    expect(r2.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const r3 = await fetch(`${base}/healthz`)
    expect(r3.headers.get('x-request-id')).toBeTruthy()
  })

  it('serves the OpenAPI document, /healthz and /readyz', async () => {
    const doc = (await (await fetch(`${base}/v1/openapi.json`, { headers: auth() })).json()) as any
    expect(doc.openapi).toMatch(/^3\./)
    expect(doc.paths['/v1/search']).toBeTruthy()
    expect((await fetch(`${base}/v1/openapi.json`)).status).toBe(401)
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' })
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' })
  })

  it('500 says only "Internal error (request <id>)"', async () => {
    // A real fault: a table the service needs is renamed under it.
    const ok = await post('p500', JSON.stringify({ data: 'I am a baker.' }))
    expect(ok.status).toBe(202)
    await client(base, key).waitReady('p500')
    await svc.profiler.db.dataSource.query('ALTER TABLE profile_history RENAME TO profile_history_gone')
    try {
      const res = await fetch(`${base}/v1/profile/p500`, { headers: { ...auth(), 'x-request-id': 'req-500' } })
      await expectError(res, 500, /^Internal error \(request req-500\)$/)
    } finally {
      await svc.profiler.db.dataSource.query('ALTER TABLE profile_history_gone RENAME TO profile_history')
    }
  })
})

describe('REST errors: 429', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '3' } })
  })
  afterAll(async () => svc?.close())

  it('429 with Retry-After and RateLimit-* headers, per key', async () => {
    const h = { authorization: `Bearer ${svc.key}` }
    for (let i = 0; i < 3; i++) expect((await fetch(`${svc.url}/v1/search`, { headers: h })).status).toBe(200)
    const res = await fetch(`${svc.url}/v1/search`, { headers: h })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.headers.get('ratelimit-limit')).toBe('3')
    expect(res.headers.get('ratelimit-remaining')).toBe('0')
    const body = await res.json()
    expect(body).toEqual({ error: 429, message: expect.stringMatching(/Rate limit/) })
    // Another key has its own budget.
    const other = await svc.profiler.services.tenants.createApp('default', 'second')
    expect(
      (await fetch(`${svc.url}/v1/search`, { headers: { authorization: `Bearer ${other.api_key}` } })).status,
    ).toBe(200)
  })
})

describe('REST errors: 503 while the database is unreachable', () => {
  let target: TestDatabase
  let embedded: EmbeddedPostgres | undefined
  let proxy: TcpProxy
  let profiler: Awaited<ReturnType<typeof startProfiler>>
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-503-'))

  beforeAll(async () => {
    // The database sits behind a proxy we can cut: the machine's server, or an embedded PGlite.
    target = await freshDatabase()
    let url = target.url
    if (!url) {
      embedded = await startEmbeddedPostgres(path.join(dataDir, 'db'))
      url = embedded.url
    }
    const u = new URL(url)
    proxy = new TcpProxy(u.hostname, Number(u.port || 5432))
    await proxy.start()
    u.host = `127.0.0.1:${proxy.port}`
    profiler = await startProfiler(
      loadConfig({
        PORT: '0',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DATABASE_URL: u.toString(),
        PROFILER_DATA_DIR: dataDir,
      }),
      { role: 'all' },
    )
  })
  afterAll(async () => {
    proxy?.reconnect()
    await profiler?.close()
    await proxy?.stop()
    await embedded?.stop()
    await target?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 503, keeps running, and recovers by itself', async () => {
    const h = { authorization: `Bearer ${profiler.bootstrapKey}` }
    expect((await fetch(`${profiler.url}/v1/profile/someone`, { headers: h })).status).toBe(404)
    proxy.disconnect()
    const res = await fetch(`${profiler.url}/v1/profile/someone`, { headers: h })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: 503, message: expect.stringMatching(/database/) })
    expect((await fetch(`${profiler.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${profiler.url}/readyz`)).status).toBe(503)
    proxy.reconnect()
    await waitFor(
      'a 404 for the missing profile again (the status of GET)',
      async () => (await fetch(`${profiler.url}/v1/profile/someone`, { headers: h })).status,
      {
        until: (status) => status === 404,
        timeoutMs: 10_000,
        everyMs: 200,
      },
    )
    expect((await fetch(`${profiler.url}/readyz`)).status).toBe(200)
  })
})

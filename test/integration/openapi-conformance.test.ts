// The OpenAPI document as third-party tooling reads it: the served document passes an OpenAPI 3.1 validator
// (@seriousme/openapi-schema-validator), and a REST session that calls every operation, for its answers and for its
// errors, gets only responses the document declares (status, headers, body schema with no undeclared property).
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type TestService } from '../support/harness.js'
import { openApiChecker, type Checked } from '../support/openapi-check.js'

let svc: TestService
let limited: TestService
let doc: any
let check: ReturnType<typeof openApiChecker>
const seen: Checked[] = []

beforeAll(async () => {
  ;[svc, limited] = await Promise.all([startService(), startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '3' } })])
  const r = await fetch(`${svc.url}/v1/openapi.json`, { headers: { authorization: `Bearer ${svc.key}` } })
  doc = await r.clone().json()
  check = openApiChecker(doc)
  seen.push(await check('GET', r.url, r))
})
afterAll(async () => {
  await Promise.all([svc?.close(), limited?.close()])
})

/** One request through the real service, checked against the document; returns the response. */
async function call(
  method: string,
  path: string,
  o: { body?: unknown; type?: string; key?: string; headers?: Record<string, string>; on?: TestService } = {},
) {
  const s = o.on ?? svc
  const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body)
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${o.key ?? s.key}`,
      ...(body !== undefined ? { 'content-type': o.type ?? 'application/json' } : {}),
      ...o.headers,
    },
    body,
  })
  seen.push(await check(method, res.url, res))
  return res
}

describe('OpenAPI document', () => {
  it('passes an OpenAPI 3.1 validator; every operation has an operationId; bodies are named components', async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
    const ops = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((p) => Object.values(p))
    const ids = ops.map((o) => o.operationId)
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // Every JSON body, asked or answered, is a $ref to a named schema: generators make one type of each.
    for (const op of ops) {
      const bodies = [op.requestBody, ...Object.values(op.responses)].flatMap((r: any) =>
        r?.content?.['application/json'] ? [r.content['application/json'].schema] : [],
      )
      for (const b of bodies)
        if (op.operationId !== 'getOpenApiDocument')
          expect(b.$ref, op.operationId).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/)
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Profile', 'Error', 'SearchPage', 'Context', 'SubmitRequest', 'PassagePage', 'Evidence']),
    )
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'RateLimit-Limit',
        'Retry-After',
        'Location',
        'WWW-Authenticate',
        'Allow',
      ]),
    )
    // The alias answers as /v1/search does, declared in full.
    expect(doc.paths['/v1/smart-search'].get.responses['200']).toEqual(doc.paths['/v1/search'].get.responses['200'])
  })

  it('every response of a REST session over every operation conforms to it', async () => {
    const id = 'openapi-anna'
    // Submissions: accepted (Location), replayed, and refused every way.
    let r = await call('POST', `/v1/profile/${id}`, {
      body: { data: "I'm Anna, a nurse from Porto. I love hiking and jazz.", input_type: 'text' },
      headers: { 'Idempotency-Key': 'k1' },
    })
    expect(r.status).toBe(202)
    expect(r.headers.get('location')).toBe(`/v1/profile/${id}`)
    expect(
      (
        await call('POST', `/v1/profile/${id}`, {
          body: { data: "I'm Anna, a nurse from Porto. I love hiking and jazz.", input_type: 'text' },
          headers: { 'Idempotency-Key': 'k1' },
        })
      ).status,
    ).toBe(202)
    expect(
      (
        await call('POST', `/v1/profile/${id}`, {
          body: { data: 'something else' },
          headers: { 'Idempotency-Key': 'k1' },
        })
      ).status,
    ).toBe(409)
    expect((await call('POST', `/v1/profile/${id}`, { body: { data: '' } })).status).toBe(400)
    expect((await call('POST', `/v1/profile/${id}`, { body: 'data=x', type: 'text/plain' })).status).toBe(415)
    expect((await call('POST', `/v1/profile/${id}`, { body: { data: 'x'.repeat(300 * 1024) } })).status).toBe(413)
    expect((await call('POST', `/v1/profile/${id}`, { body: { data: 'x' }, key: 'pk_nope' })).status).toBe(401)
    await call('POST', `/v1/profile/${id}`, {
      body: {
        data: JSON.stringify([
          { role: 'assistant', content: 'Where do you live?' },
          { role: 'user', content: 'I moved to Lisbon last year.' },
        ]),
        input_type: 'conversation',
      },
    })
    await client(svc.url, svc.key).waitReady(id)

    // Reads.
    r = await call('GET', `/v1/profile/${id}`)
    expect(r.status).toBe(200)
    const profile = ((await r.json()) as any).profile
    expect((await call('GET', '/v1/profile/nobody-here')).status).toBe(404)
    expect((await call('GET', '/v1/profile/bad%20id!')).status).toBe(400)
    expect((await call('GET', `/v1/profile/${id}/context?query=music&max_tokens=200`)).status).toBe(200)
    expect((await call('GET', `/v1/profile/${id}/context?include=passages`)).status).toBe(200)
    expect((await call('GET', `/v1/profile/${id}/context?max_tokens=0`)).status).toBe(400)
    expect((await call('GET', '/v1/profile/nobody-here/context')).status).toBe(404)
    r = await call('GET', `/v1/profile/${id}/passages?limit=1&include_hidden=true`)
    expect(r.status).toBe(200)
    const passages = (await r.json()) as any
    expect(passages.passages.length).toBe(1)
    expect(
      (await call('GET', `/v1/profile/${id}/passages?cursor=${encodeURIComponent(passages.next_cursor)}`)).status,
    ).toBe(200)
    expect((await call('GET', `/v1/profile/${id}/passages?limit=0`)).status).toBe(400)
    expect((await call('GET', '/v1/profile/nobody-here/passages')).status).toBe(404)
    const interest = Object.entries(profile.interests as Record<string, { value: string }[]>)[0]!
    expect(
      (
        await call(
          'GET',
          `/v1/profile/${id}/evidence?field=interests&value=${encodeURIComponent(interest[1][0]!.value)}`,
        )
      ).status,
    ).toBe(200)
    expect((await call('GET', `/v1/profile/${id}/evidence?value=x`)).status).toBe(400)
    expect((await call('GET', '/v1/profile/nobody-here/evidence?field=interests&value=jazz')).status).toBe(404)

    // Search and its alias: with a query, a list, a streamed-size page is not needed here; bad parameters.
    for (const p of ['/v1/search', '/v1/smart-search']) {
      expect((await call('GET', `${p}?query=${encodeURIComponent('likes jazz')}&pageSize=5`)).status).toBe(200)
      expect((await call('GET', `${p}?sortBy=last_updated&sortOrder=desc`)).status).toBe(200)
      expect((await call('GET', `${p}?page=x`)).status).toBe(400)
    }

    // Re-extraction (a dry run), forget, rollback.
    expect((await call('POST', `/v1/profile/${id}/reextract`)).status).toBe(200)
    expect((await call('POST', `/v1/profile/${id}/reextract?dry_run=maybe`)).status).toBe(400)
    expect((await call('POST', '/v1/profile/nobody-here/reextract')).status).toBe(404)
    r = await call('DELETE', `/v1/profile/${id}/values`, {
      body: { section: 'interests', category: interest[0], value: interest[1][0]!.value },
    })
    expect(r.status).toBe(200)
    expect(
      (
        await call(
          'DELETE',
          `/v1/profile/${id}/values?section=interests&value=${encodeURIComponent('never said this')}`,
        )
      ).status,
    ).toBe(404)
    expect(
      (await call('DELETE', `/v1/profile/${id}/values`, { body: { section: 'nonsense', value: 'x' } })).status,
    ).toBe(400)
    expect((await call('POST', `/v1/profile/${id}/rollback`, { body: { to_seq: 1 } })).status).toBe(200)
    expect((await call('POST', `/v1/profile/${id}/rollback`, { body: { to_seq: 0 } })).status).toBe(400)
    expect((await call('POST', `/v1/profile/${id}/rollback`, { body: 'to_seq=1', type: 'text/plain' })).status).toBe(
      415,
    )
    expect((await call('POST', `/v1/profile/${id}/rollback`, { body: { to_seq: 999 } })).status).toBe(404)

    // One submission's evidence.
    const submission = passages.passages[0].submission_id
    expect((await call('DELETE', `/v1/profile/${id}/submissions/${submission}/evidence`)).status).toBe(200)
    expect(
      (await call('DELETE', `/v1/profile/${id}/submissions/00000000-0000-4000-8000-000000000000/evidence`)).status,
    ).toBe(404)

    // Export, import.
    r = await call('GET', `/v1/export?profile_id=${id}&include_text=true`)
    expect(r.status).toBe(200)
    const file = await r.text()
    expect((await call('GET', '/v1/export?include_text=maybe')).status).toBe(400)
    expect((await call('GET', '/v1/export?profile_id=nobody-here')).status).toBe(404)
    expect((await call('POST', '/v1/import', { body: file, type: 'application/x-ndjson' })).status).toBe(200)
    expect(
      (await call('POST', '/v1/import', { body: '{"not":"a record"}\n', type: 'application/x-ndjson' })).status,
    ).toBe(400)
    expect((await call('POST', '/v1/import', { body: file, type: 'text/plain' })).status).toBe(415)

    // The app's settings.
    expect((await call('GET', '/v1/schema')).status).toBe(200)
    expect(
      (
        await call('PUT', '/v1/schema', {
          body: { sections: { work: { team: { type: 'string', description: 'Their team' } } } },
        })
      ).status,
    ).toBe(200)
    expect(
      (await call('PUT', '/v1/schema', { body: { sections: { work: { team: { type: 'nonsense' } } } } })).status,
    ).toBe(400)
    expect((await call('PUT', '/v1/schema', { body: 'x', type: 'text/plain' })).status).toBe(415)
    expect((await call('GET', '/v1/schema/versions')).status).toBe(200)
    expect((await call('GET', '/v1/summary-instructions')).status).toBe(200)
    expect(
      (await call('PUT', '/v1/summary-instructions', { body: { instructions: ['Mention their job first'] } })).status,
    ).toBe(200)
    expect((await call('PUT', '/v1/summary-instructions', { body: { instructions: [''] } })).status).toBe(400)

    // Delete.
    expect((await call('DELETE', `/v1/profile/${id}`)).status).toBe(204)
    expect((await call('DELETE', `/v1/profile/${id}`)).status).toBe(404)

    // Over the budget: 429 with Retry-After, declared.
    let refused: Response | undefined
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await call('GET', '/v1/search?query=jazz', { on: limited })
      if (res.status === 429) refused = res
    }
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/)

    const statuses = new Set(seen.map((s) => s.status))
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 202, 204, 400, 401, 404, 409, 413, 415, 429]))
    const covered = new Set(seen.map((s) => s.operationId))
    const all = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    )
    expect(all.filter((o) => !covered.has(o))).toEqual([])
  })
})

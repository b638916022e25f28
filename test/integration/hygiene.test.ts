// Input hygiene and error shapes at every entry point, over real HTTP (raw sockets where fetch would refuse to send
// the request): characters PostgreSQL cannot store are refused with 400 naming the field, and every error answer,
// the framework's own included, is {error, message} with an X-Request-Id.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { connect, gql } from '../support/graphql-client.js'
import { startService, type TestService } from '../support/harness.js'

/** Sends raw bytes and returns the status, headers and body of the answer. */
async function raw(
  url: string,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request))
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => (data += d))
    socket.on('error', reject)
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n')
      const lines = (head ?? '').split('\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0)
      const headers = Object.fromEntries(
        lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      resolve({ status, headers, body: rest.join('\r\n\r\n') })
    })
    setTimeout(() => socket.end(), 2000).unref()
  })
}

function expectShape(r: { status: number; headers: Record<string, string>; body: string }, status: number) {
  expect(r.status, JSON.stringify(r)).toBe(status)
  expect(JSON.parse(r.body)).toEqual({ error: status, message: expect.any(String) })
  expect(r.headers['x-request-id'], JSON.stringify(r)).toMatch(/\S/)
}

describe('input hygiene and error shapes', () => {
  let svc: TestService
  let auth: string
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    auth = `Bearer ${svc.key}`
  })
  afterAll(async () => svc?.close())

  const post = (id: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${svc.url}/v1/profile/${id}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
  const expect400 = async (r: Response, field: RegExp) => {
    expect(r.status).toBe(400)
    const body = (await r.json()) as { error: number; message: string }
    expect(body).toEqual({ error: 400, message: expect.stringMatching(field) })
    expect(r.headers.get('x-request-id')).toBeTruthy()
  }

  it('NUL and unpaired surrogates are refused with 400 naming the field, in every place they can hide', async () => {
    await expect400(await post('nul', { data: 'a\u0000b' }), /data.*NUL/)
    await expect400(await post('nul', { data: 'a\ud800b' }), /data.*surrogate/)
    await expect400(await post('nul', '{"data":"a\\ud800b"}'), /data.*surrogate/)
    await expect400(
      await post('nul', { input_type: 'structured', data: '{"core_info": {"name": "A\\u0000B"}}' }),
      /structured.*NUL/,
    )
    await expect400(
      await post('nul', { input_type: 'structured', data: '{"interests": {"mus\\u0000ic": ["jazz"]}}' }),
      /structured.*NUL/,
    )
    await expect400(
      await post('nul', { input_type: 'structured', data: '{"interests": {"music": ["\\udc00"]}}' }),
      /structured.*surrogate/,
    )
    await expect400(
      await post('nul', { input_type: 'conversation', data: '[{"role":"user","content":"I love \\u0000 jazz"}]' }),
      /conversation.*NUL/,
    )
    await expect400(
      await fetch(`${svc.url}/v1/search?filterBy=name&filterValue=a%00b`, { headers: { authorization: auth } }),
      /filterValue.*NUL/,
    )
    await expect400(await fetch(`${svc.url}/v1/search?query=a%00b`, { headers: { authorization: auth } }), /query.*NUL/)
    await expect400(await fetch(`${svc.url}/v1/profile/a%00b`, { headers: { authorization: auth } }), /profile id/)
    // GraphQL over HTTP and WebSocket: the same checks (they are the services').
    const m = await gql(svc.url, svc.key, 'mutation($d: String!) { submitProfileData(id: "nul", data: $d) { id } }', {
      d: 'a\u0000b',
    })
    expect(m.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    const s = await gql(svc.url, svc.key, '{ searchProfiles(query: "a\\u0000b") { total } }')
    expect(s.body.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    const ws = connect(svc.url, svc.key)
    try {
      await ws.connected
      const r = await ws.once('mutation($d: String!) { submitProfileData(id: "nul", data: $d) { id } }', {
        d: 'x\u0000',
      })
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    } finally {
      await ws.close()
    }
    // Nothing of it was stored.
    expect((await fetch(`${svc.url}/v1/profile/nul`, { headers: { authorization: auth } })).status).toBe(404)
    // Ordinary unicode is fine: astral characters, RTL, combining marks.
    expect((await post('uni', { data: 'I love 🎷 jazz, שלום, e\u0301' })).status).toBe(202)
    expect(
      (await post('uni', { input_type: 'structured', data: '{"interests": {"music": ["\\ud83c\\udfb7"]}}' })).status,
    ).toBe(202)
  })

  it('NUL or unpaired surrogates in a custom schema: 400 naming the field (REST, GraphQL, dashboard)', async () => {
    const field = (def: Record<string, unknown>) => ({ sections: { diet: { tags: { type: 'string[]', ...def } } } })
    const cases: [unknown, RegExp][] = [
      [field({ description: 'Tags: a, b\u0000c' }), /diet\.tags\.description.*NUL/],
      [field({ description: ' \u0000 ' }), /diet\.tags\.description.*NUL/],
      [field({ description: 'x\ud800' }), /diet\.tags\.description.*surrogate \(U\+D800\)/],
      [field({ values: ['vegan', 'halal\u0000'] }), /diet\.tags\.values\[1\].*NUL/],
      [field({ values: ['\udc00'] }), /diet\.tags\.values\[0\].*surrogate \(U\+DC00\)/],
      [
        { sections: { diet: { lang: { type: 'enum', values: ['English', 'Span\udbffish'] } } } },
        /diet\.lang\.values\[1\].*surrogate/,
      ],
      // Names and unknown properties were refused already: still 400s.
      [{ sections: { 'di\u0000et': { a: { type: 'string' } } } }, /section name/],
      [{ sections: { diet: { a: { type: 'string', ['x\u0000']: 1 } } } }, /unknown property/],
      [{ sections: { diet: { a: { type: 'string\u0000' } } } }, /diet\.a has type/],
    ]
    const put = (body: string) =>
      fetch(`${svc.url}/v1/schema`, {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body,
      })
    for (const [schema, message] of cases) await expect400(await put(JSON.stringify(schema)), message)
    // The escapes as a client writes them in the JSON text.
    await expect400(
      await put('{"sections":{"diet":{"tags":{"type":"string","description":"a\\u0000b"}}}}'),
      /diet\.tags\.description.*NUL/,
    )
    await expect400(
      await put('{"sections":{"diet":{"tags":{"type":"enum","values":["\\ud83c"]}}}}'),
      /diet\.tags\.values\[0\].*surrogate/,
    )

    // GraphQL with the app key (HTTP and WebSocket) and the dashboard's own setCustomSchema: VALIDATION_FAILED (400).
    const set = 'mutation($s: JSONObject!) { setCustomSchema(schema: $s) { version } }'
    for (const [schema, message] of cases.slice(0, 6)) {
      const r = await gql(svc.url, svc.key, set, { s: schema })
      expect(r.body.errors?.[0]?.extensions, JSON.stringify(r.body)).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
      })
      expect(r.body.errors[0].message).toMatch(message)
    }
    const ws = connect(svc.url, svc.key)
    try {
      await ws.connected
      const r = await ws.once(set, { s: cases[3]![0] })
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    } finally {
      await ws.close()
    }
    const browser = new DashboardBrowser(svc.url)
    expect((await browser.signUp('hygiene@example.com', 'correct horse battery staple')).body.errors).toBeUndefined()
    const app = (await browser.gql('mutation { createApp(name: "schema") { app { id } } }')).body.data.createApp.app.id
    const dashSet = 'mutation($id: ID!, $s: JSONObject!) { setCustomSchema(appId: $id, schema: $s) { version } }'
    for (const [schema, message] of cases.slice(0, 6)) {
      const r = await browser.gql(dashSet, { id: app, s: schema })
      expect(r.body.errors?.[0]?.extensions, JSON.stringify(r.body)).toMatchObject({ code: 'VALIDATION_FAILED' })
      expect(r.body.errors[0].message).toMatch(message)
    }

    // Nothing was stored; ordinary unicode (astral, RTL, combining marks) is a schema like any other.
    expect(
      (
        (await (await fetch(`${svc.url}/v1/schema`, { headers: { authorization: auth } })).json()) as {
          version: number
        }
      ).version,
    ).toBe(0)
    const fine = field({ description: 'Tags: 🎷 jazz, שלום, e\u0301', values: ['🎷'] })
    const ok = await put(JSON.stringify(fine))
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(((await ok.json()) as { schema: unknown }).schema).toEqual(fine)
  })

  it('framework-level errors have {error, message} and X-Request-Id', async () => {
    const host = `Host: 127.0.0.1\r\nAuthorization: ${auth}\r\n`
    /** A raw POST of `body` as `contentType`, its Content-Length the body's, the connection closed after it. */
    const rawPost = (path: string, contentType: string, body: string) =>
      `POST ${path} HTTP/1.1\r\n${host}Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n` +
      `Connection: close\r\n\r\n${body}`
    expectShape(await raw(svc.url, `GET /v1/profile/%ZZ HTTP/1.1\r\n${host}Connection: close\r\n\r\n`), 400)
    expectShape(
      await raw(svc.url, `GET /v1/profile/${'a'.repeat(5000)} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`),
      414,
    )
    expectShape(await raw(svc.url, `GARBAGE\r\n\r\n`), 400)
    expectShape(await raw(svc.url, `GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`), 400)
    expectShape(await raw(svc.url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431)
    const big = JSON.stringify({ data: 'a'.repeat(300 * 1024) })
    expectShape(await raw(svc.url, rawPost('/v1/profile/big', 'application/json', big)), 413)
    expectShape(await raw(svc.url, rawPost('/v1/profile/x', 'text/plain', 'hi')), 415)
    expectShape(await raw(svc.url, rawPost('/v1/profile/x', 'application/json', '{"a":')), 400)
  })

  it('a DELETE or GET with Content-Type: application/json and no body is read as having no body', async () => {
    const h = { authorization: auth, 'content-type': 'application/json' }
    expect((await fetch(`${svc.url}/v1/profile/never`, { method: 'DELETE', headers: h })).status).toBe(404)
    expect((await post('gone', { data: 'I live in Rome.' })).status).toBe(202)
    expect((await fetch(`${svc.url}/v1/profile/gone`, { method: 'DELETE', headers: h })).status).toBe(204)
    expect((await fetch(`${svc.url}/v1/profile/never`, { headers: h })).status).toBe(404)
  })
})

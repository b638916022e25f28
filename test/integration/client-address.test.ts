// Every per-address limit keys on the client's address, behind a trusted proxy too (PROFILER_TRUST_PROXY), and no
// client can lock out another's valid credential: failed authentications, sign-in and sign-up, over real HTTP and
// WebSocket connections to the running service. The test is the proxy: its connections come from 127.0.0.1 (trusted)
// with X-Forwarded-For as nginx writes it (what the client sent, then the address nginx saw); a direct client that is
// not a proxy connects from 127.0.0.2.
import crypto from 'node:crypto'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TenantService } from '../../src/services/tenant.service.js'
import { randomToken } from '../../src/domain/keys.js'
import { connect } from '../support/graphql-client.js'
import { startService, type TestService } from '../support/harness.js'

const FAILURES_PER_MINUTE = 10
const LOGIN_MAX_FAILURES = 2
const PASSWORD = 'correct horse battery staple'

interface Answer {
  status: number
  body: any
}

interface SendOptions {
  method?: string
  headers?: Record<string, string>
  body?: string
  /** The local address to connect from. */
  from?: string
}

/** One request over a new connection from `from` (the test as the trusted proxy: 127.0.0.1). */
function send(url: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  const u = new URL(path, url)
  const { method = 'GET', headers, from = '127.0.0.1' } = opts
  return new Promise((resolve, reject) => {
    const target = { host: u.hostname, port: u.port, path: u.pathname + u.search }
    const req = http.request({ ...target, method, headers, localAddress: from, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => {
        let body: any = text
        try {
          body = JSON.parse(text)
        } catch {}
        resolve({ status: res.statusCode!, body })
      })
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

/** X-Forwarded-For as the proxy sends it for `client`, after whatever the client itself wrote into the header. */
const forwarded = (client: string, spoofed?: string) => ({
  'x-forwarded-for': spoofed ? `${spoofed}, ${client}` : client,
})
const madeUpKey = () => `pk_${randomToken(12)}_${randomToken(32)}`
const keyId = (key: string) => key.split('_')[1]!
const INITIALIZE = { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } }

describe('client addresses behind a trusted proxy, and no lockout of valid credentials', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_TRUST_PROXY: '127.0.0.1',
        PROFILER_AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
        PROFILER_LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
        PROFILER_SIGNUP_MAX_PER_ADDRESS: '2',
        PROFILER_SIGNUP: 'open',
      },
    })
  })
  afterAll(async () => svc?.close())

  const newKey = async (name: string) => (await svc.profiler.services.tenants.createApp('default', name)).api_key
  const rest = (key: string, headers: Record<string, string>, from?: string) =>
    send(svc.url, '/v1/search', { headers: { authorization: `Bearer ${key}`, ...headers }, from })
  const graphql = (key: string, headers: Record<string, string>) =>
    send(svc.url, '/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ __typename }' }),
    })
  const mcp = (key: string, headers: Record<string, string>) =>
    send(svc.url, '/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE }),
    })
  /** Opens a graphql-ws connection with `key` and `headers`; resolves with 'open', or the code it closed with. */
  const wsConnect = async (key: string, headers: Record<string, string>) => {
    const ws = connect(svc.url, key, { headers })
    try {
      await ws.connected
      return 'open'
    } catch {
      return ws.closes[0]?.code
    } finally {
      await ws.close().catch(() => undefined)
    }
  }
  /** `n` bad keys from `client`, `wave` at a time; their statuses in order. */
  const flood = async (n: number, headers: Record<string, string>, key = madeUpKey, from?: string, wave = 10) => {
    const statuses: number[] = []
    for (let i = 0; i < n; i += wave) {
      const requests = Array.from({ length: Math.min(wave, n - i) }, () => rest(key(), headers, from))
      statuses.push(...(await Promise.all(requests)).map((r) => r.status))
    }
    return statuses
  }

  it("another client's 100 failures behind the proxy refuse only it; a valid key is served everywhere", async () => {
    const valid = await newKey('valid-elsewhere') // never used: nothing remembers it as recently good
    // The attacker writes the victim's address into X-Forwarded-For itself; the proxy appends the address it saw.
    const attacker = forwarded('203.0.113.7', '198.51.100.9')
    const victim = forwarded('198.51.100.9')
    const statuses = await flood(100, attacker)
    const refused = statuses.filter((s) => s === 429).length
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([])
    expect(refused).toBeGreaterThanOrEqual(100 - 2 * FAILURES_PER_MINUTE)
    expect(statuses.slice(-10).every((s) => s === 429)).toBe(true)

    expect((await rest(valid, victim)).status).toBe(200)
    expect((await graphql(valid, victim)).status).toBe(200)
    expect((await mcp(valid, victim)).status).toBe(200)
    expect(await wsConnect(valid, victim)).toBe('open')
    // The victim's address has no failures: a bad key from it is looked up and answered 401, not refused.
    expect((await rest(madeUpKey(), victim)).status).toBe(401)
    // The attacker stays refused on every transport.
    expect((await graphql(madeUpKey(), attacker)).status).toBe(429)
    expect((await mcp(madeUpKey(), attacker)).status).toBe(429)
    expect(await wsConnect(madeUpKey(), attacker)).toBe(4429)
  })

  it('a valid key without failures of its own passes from an address over the limit; made-up keys do not', async () => {
    const shared = forwarded('203.0.113.8')
    const statuses = await flood(2 * FAILURES_PER_MINUTE, shared)
    expect(statuses.at(-1)).toBe(429)

    // Issued in this process, and by another one (its own TenantService: this process learns the id from the database).
    const here = await newKey('valid-same-address')
    const another = new TenantService(svc.profiler.db.dataSource)
    const elsewhere = (await another.createApp('default', 'made-by-another-process')).api_key
    for (const key of [here, elsewhere]) {
      expect((await rest(key, shared)).status).toBe(200)
      expect(await wsConnect(key, shared)).toBe('open')
    }
    expect((await graphql(here, shared)).status).toBe(200)
    expect((await mcp(elsewhere, shared)).status).toBe(200)

    // From that address a made-up or malformed key is refused before any lookup.
    expect((await rest(madeUpKey(), shared)).status).toBe(429)
    expect((await rest('not-a-key', shared)).status).toBe(429)

    // A real key id with wrong secrets is looked up until the id's own failures reach the limit; then that key is
    // refused from the blocked address (not from others), and another key from the same address is still served.
    const target = await newKey('guessed')
    const guess = () => `pk_${keyId(target)}_${randomToken(32)}`
    const wrong = await flood(FAILURES_PER_MINUTE + 5, shared, guess, undefined, 1)
    expect(wrong.slice(0, FAILURES_PER_MINUTE).every((s) => s === 401)).toBe(true)
    expect(wrong.slice(-5).every((s) => s === 429)).toBe(true)
    expect((await rest(target, shared)).status).toBe(429)
    expect((await rest(target, forwarded('198.51.100.10'))).status).toBe(200)
    expect((await rest(here, shared)).status).toBe(200)
  })

  it('X-Forwarded-For from a client that is not a trusted proxy is not believed', async () => {
    const claimed = forwarded('192.0.2.50')
    const statuses = await flood(2 * FAILURES_PER_MINUTE, claimed, madeUpKey, '127.0.0.2')
    expect(statuses.at(-1)).toBe(429)
    // The failures counted against 127.0.0.2, the socket's address: the claimed one is untouched.
    expect((await rest(madeUpKey(), claimed)).status).toBe(401)
    expect((await rest(madeUpKey(), {}, '127.0.0.2')).status).toBe(429)
  })

  describe('dashboard', () => {
    const SIGN_UP = `mutation($e: String!, $p: String!) { signUp(email: $e, password: $p) { account { id } } }`
    const SIGN_IN = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { account { email } } }`
    const signUp = (email: string, headers: Record<string, string>) =>
      dashboard(SIGN_UP, { e: email, p: PASSWORD }, headers)
    const signIn = (email: string, password: string, headers: Record<string, string>) =>
      dashboard(SIGN_IN, { e: email, p: password }, headers)
    const signedIn = async (email: string, headers: Record<string, string>) =>
      (await signIn(email, PASSWORD, headers)).data?.signIn.account.email
    const dashboard = async (query: string, variables: Record<string, unknown>, headers: Record<string, string>) => {
      const body = JSON.stringify({ query, variables })
      const json = { 'content-type': 'application/json', ...headers }
      const r = await send(svc.url, '/dashboard/graphql', { method: 'POST', headers: json, body })
      return { data: r.body.data, code: r.body.errors?.[0]?.extensions?.code as string | undefined }
    }

    it('sign-up is limited per forwarded client address', async () => {
      const first = forwarded('198.51.100.30')
      expect((await signUp('up1@example.com', first)).code).toBeUndefined()
      expect((await signUp('up2@example.com', first)).code).toBeUndefined()
      expect((await signUp('up3@example.com', first)).code).toBe('RATE_LIMITED')
      // Another client behind the same proxy signs up, and one whose header claims the first's address is not it.
      expect((await signUp('up3@example.com', forwarded('198.51.100.31', '198.51.100.30'))).code).toBeUndefined()
    })

    it('sign-in failures count per forwarded address; the password of an account without failures passes', async () => {
      const home = forwarded('198.51.100.40')
      const attacker = forwarded('203.0.113.9')
      expect((await signUp('alice@example.com', home)).code).toBeUndefined()
      expect((await signUp('bob@example.com', home)).code).toBeUndefined()
      // Guesses at made-up accounts until the attacker's address is refused (4x the per-account limit).
      const codes: (string | undefined)[] = []
      for (let i = 0; i < 4 * LOGIN_MAX_FAILURES + 2; i++) {
        codes.push((await signIn(`${crypto.randomUUID()}@example.com`, 'guess', attacker)).code)
      }
      expect(codes.slice(0, 4 * LOGIN_MAX_FAILURES).every((c) => c === 'INVALID_CREDENTIALS')).toBe(true)
      expect(codes.slice(-2)).toEqual(['RATE_LIMITED', 'RATE_LIMITED'])

      // Another client behind the proxy, and the account's owner on the attacker's own address, sign in.
      expect(await signedIn('alice@example.com', forwarded('198.51.100.41'))).toBe('alice@example.com')
      expect(await signedIn('alice@example.com', attacker)).toBe('alice@example.com')
      // From the refused address a wrong password for a real account answers like a made-up account (RATE_LIMITED),
      // and counts: that account is then refused from there, though not from elsewhere.
      expect((await signIn('bob@example.com', 'wrong password', attacker)).code).toBe('RATE_LIMITED')
      expect((await signIn('bob@example.com', PASSWORD, attacker)).code).toBe('RATE_LIMITED')
      expect(await signedIn('bob@example.com', forwarded('198.51.100.42'))).toBe('bob@example.com')
    })
  })
})

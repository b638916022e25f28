// Signed webhooks against a real receiver on 127.0.0.1 (allowed by configuration): the three events, the signature as
// docs/guides/webhooks.md's receiver verifies it (imported from examples/), the transactional outbox (a rollback sends
// nothing), the receiver's downtime with backoff, secret rotation, hostile receivers, the delivery log over the
// dashboard's GraphQL, tenant isolation, and the SSRF policy of a server that allows no private target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProfilerSignature } from '../../examples/webhook-receiver.mjs'
import { createAiProviders } from '../../src/ai/index.js'
import type { Extractor } from '../../src/ai/types.js'
import { loadConfig } from '../../src/config.js'
import { UnitOfWork } from '../../src/db/unit-of-work.js'
import { buildWebhooks } from '../../src/services/webhooks/index.js'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { gql as apiGql } from '../support/graphql-client.js'
import { startService, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { TestReceiver } from '../support/webhook-receiver.js'

const PASSWORD = 'correct horse battery'
const ENDPOINT_FIELDS = `id appId url description events enabled disabledReason previousSecretExpiresAt
  createdAt updatedAt`
const DELIVERY_FIELDS = `id endpointId eventId event profileId test status attempts nextAttemptAt lastStatusCode
  lastError createdAt finishedAt attemptLog { attempt at durationMs statusCode error }`
const CREATE = `mutation($app: ID!, $url: String!, $events: [WebhookEvent!]!, $d: String) {
  createWebhookEndpoint(appId: $app, url: $url, events: $events, description: $d) {
    secret endpoint { ${ENDPOINT_FIELDS} }
  } }`
const DELIVERIES = `query($id: ID!, $status: WebhookDeliveryStatus, $first: Int, $after: String) {
  webhookDeliveries(endpointId: $id, status: $status, first: $first, after: $after) {
    nodes { ${DELIVERY_FIELDS} } pageInfo { endCursor hasNextPage }
  } }`
const SEND_TEST = `mutation($id: ID!) { sendTestWebhook(id: $id) { ${DELIVERY_FIELDS} } }`
const ROTATE = `mutation($id: ID!, $g: Int) {
  rotateWebhookSecret(id: $id, graceSeconds: $g) { secret endpoint { ${ENDPOINT_FIELDS} } } }`
const UPDATE = `mutation($id: ID!, $enabled: Boolean, $events: [WebhookEvent!], $url: String) {
  updateWebhookEndpoint(id: $id, enabled: $enabled, events: $events, url: $url) { ${ENDPOINT_FIELDS} } }`

const codeOf = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code

/** The data of an operation that must succeed. */
async function ok(dash: DashboardBrowser, query: string, variables?: Record<string, unknown>): Promise<any> {
  const r = await dash.gql(query, variables)
  if (r.body.errors) throw new Error(`${query.slice(0, 60)}: ${JSON.stringify(r.body.errors)}`)
  return r.body.data
}

/** The local extractor, except that a text with FAIL-ALWAYS always fails. */
function failing(inner: Extractor): Extractor {
  return {
    name: 'failing',
    async extract(req, signal) {
      if (req.submissions.some((s) => s.data.includes('FAIL-ALWAYS'))) throw new Error('model unavailable (injected)')
      return inner.extract(req, signal)
    },
  }
}

async function post(base: string, key: string, id: string, data: string) {
  const r = await fetch(`${base}/v1/profile/${encodeURIComponent(id)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  })
  expect(r.status).toBe(202)
  return ((await r.json()) as any).id as string
}

async function signedUp(base: string, email: string) {
  const dash = new DashboardBrowser(base)
  const r = await dash.signUp(email, PASSWORD)
  expect(r.body.errors).toBeUndefined()
  const { createApp } = await ok(dash, `mutation { createApp(name: "hooks") { apiKey app { id } } }`)
  return {
    dash,
    tenantId: r.body.data.signUp.account.tenantId as string,
    appId: createApp.app.id as string,
    key: createApp.apiKey as string,
  }
}

describe('webhooks to a real receiver', () => {
  let svc: TestService
  let dash: DashboardBrowser
  let tenantId: string
  let appId: string
  let key: string
  const rx = new TestReceiver()
  let endpointId: string
  let secret: string

  const deliveries = async (id = endpointId, vars: Record<string, unknown> = {}) =>
    (await ok(dash, DELIVERIES, { id, first: 100, ...vars })).webhookDeliveries.nodes as any[]
  const eventFor = (type: string, profileId: string) => () =>
    rx.of(type).find((r) => r.body.data.profile_id === profileId)

  beforeAll(async () => {
    await rx.start()
    const local = createAiProviders(loadConfig({}))
    svc = await startService({
      env: {
        PROFILER_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
        PROFILER_WEBHOOK_ENCRYPTION_KEY: 'test-only key: 32 bytes of entropy in production',
        PROFILER_WEBHOOK_RETRY_BASE_MS: '100',
        PROFILER_WEBHOOK_MAX_ATTEMPTS: '20',
        PROFILER_WEBHOOK_POLL_MS: '100',
        PROFILER_WEBHOOK_TIMEOUT_MS: '1500',
        PROFILER_MAX_ATTEMPTS: '2',
        PROFILER_RETRY_BASE_MS: '50',
      },
      ai: { ...local, extractor: failing(local.extractor) },
    })
    ;({ dash, tenantId, appId, key } = await signedUp(svc.url, 'hooks@example.com'))
  })
  afterAll(async () => {
    await svc?.close()
    await rx.stop()
  })

  it('registers an endpoint: the secret shown once, never read back; bad input refused with a clear 400', async () => {
    const { createWebhookEndpoint: c } = await ok(dash, CREATE, {
      app: appId,
      url: rx.url(),
      events: ['PROFILE_READY', 'PROFILE_DELETED', 'SUBMISSION_FAILED'],
      d: 'main',
    })
    expect(c.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(c.endpoint).toMatchObject({
      appId,
      url: rx.url(),
      enabled: true,
      events: ['PROFILE_READY', 'PROFILE_DELETED', 'SUBMISSION_FAILED'],
      description: 'main',
    })
    endpointId = c.endpoint.id
    secret = c.secret
    const listed = (
      await ok(dash, `query($a: ID!) { webhookEndpoints(appId: $a) { ${ENDPOINT_FIELDS} } }`, { a: appId })
    ).webhookEndpoints
    expect(listed.map((e: any) => e.id)).toEqual([endpointId])
    // No field gives the secret back; the database holds it sealed, not as given.
    expect(codeOf(await dash.gql(`query($a: ID!) { webhookEndpoints(appId: $a) { secret } }`, { a: appId }))).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    )
    const [row] = await svc.profiler.db.dataSource.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [
      endpointId,
    ])
    expect(row.secret).toMatch(/^v1:/)
    expect(row.secret).not.toContain(secret.slice(6))

    const refused = async (vars: Record<string, unknown>, message: RegExp) => {
      const r = await dash.gql(CREATE, { app: appId, url: rx.url(), events: ['PROFILE_READY'], ...vars })
      expect(codeOf(r), JSON.stringify(vars)).toBe('VALIDATION_FAILED')
      expect(r.body.errors[0].message).toMatch(message)
    }
    await refused({ url: 'ftp://127.0.0.1/x' }, /scheme ftp is not allowed/)
    await refused({ url: 'http://user:pw@127.0.0.1/x' }, /credentials/)
    await refused({ url: 'not a url' }, /not an absolute URL/)
    await refused({ url: `http://127.0.0.1/${'a'.repeat(3000)}` }, /at most 2048/)
    await refused({ url: 'http://10.0.0.8/hook' }, /10\.0\.0\.8 is a private address/)
    await refused({ url: 'http://169.254.169.254/latest/meta-data' }, /link-local/)
    await refused({ url: 'http://[::1]:8080/' }, /::1 is a loopback address/)
    await refused({ url: 'http://[::ffff:10.1.2.3]/' }, /private \(IPv4 in IPv6\)/)
    await refused({ url: 'http://[::ffff:0:10.1.2.3]/' }, /::ffff:0:a01:203 is an IPv4-translated address/)
    await refused({ url: 'http://[64:ff9b:1::a01:203]/' }, /64:ff9b:1::a01:203 is a local-use NAT64 address/)
    await refused({ url: 'http://100.64.0.1/' }, /CGNAT/)
    await refused({ url: 'http://224.0.0.1/' }, /multicast/)
    await refused({ events: [] }, /at least one event/)
    await refused({ d: 'x'.repeat(201) }, /description/)
    await refused({ d: 'a\u0000b' }, /description.*NUL/)
    await refused({ d: 'a\ud800b' }, /description.*surrogate/)
    expect(codeOf(await dash.gql(CREATE, { app: appId, url: rx.url(), events: ['PROFILE_EXPLODED'] }))).toBe(
      'BAD_USER_INPUT',
    )
    expect(codeOf(await dash.gql(CREATE, { app: 'app_nope', url: rx.url(), events: ['PROFILE_READY'] }))).toBe(
      'APP_NOT_FOUND',
    )
  })

  it('profile.ready: a signed POST the documented verification accepts, carrying ids only, logged', async () => {
    await post(svc.url, key, 'ready-1', 'My name is Ada and I love chess.')
    const got = await waitFor('profile.ready for ready-1', eventFor('profile.ready', 'ready-1'))
    expect(verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw)).toBe(true)
    expect(verifyProfilerSignature('whsec_wrong', got.headers['profiler-signature'], got.raw)).toBe(false)
    // A changed body, or an old timestamp, does not verify.
    expect(
      verifyProfilerSignature(
        secret,
        got.headers['profiler-signature'],
        got.raw.toString().replace('ready-1', 'ready-2'),
      ),
    ).toBe(false)
    expect(
      verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw, { now: Date.now() + 3600_000 }),
    ).toBe(false)
    expect(got.headers['profiler-signature']).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/)
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['profiler-event-id']).toBe(got.body.id)
    expect(got.headers['profiler-event']).toBe('profile.ready')
    expect(Object.keys(got.body).sort()).toEqual(['created_at', 'data', 'id', 'type'])
    expect(got.body.data).toEqual({ profile_id: 'ready-1', status: 'ready' })
    expect(got.raw.toString()).not.toMatch(/Ada|chess/)

    const d = await waitFor('the delivery logged as delivered', async () =>
      (await deliveries()).find((x) => x.eventId === got.body.id && x.status === 'DELIVERED'),
    )
    expect(d).toMatchObject({
      event: 'profile.ready',
      profileId: 'ready-1',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      test: false,
    })
    expect(d.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 204, error: null })])
  })

  it("profile.deleted: sent with ids only; of the profile's deliveries only the deletion is left", async () => {
    await post(svc.url, key, 'gone-1', 'My name is Bo and I live in Oslo.')
    await waitFor('profile.ready for gone-1', eventFor('profile.ready', 'gone-1'))
    const del = await fetch(`${svc.url}/v1/profile/gone-1`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    })
    expect(del.status).toBe(204)
    const got = await waitFor('profile.deleted for gone-1', eventFor('profile.deleted', 'gone-1'))
    expect(verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw)).toBe(true)
    expect(got.body.data).toEqual({ profile_id: 'gone-1', status: 'deleted' })
    const rows = await svc.profiler.db.dataSource.query(
      `SELECT event, payload::text AS payload FROM webhook_deliveries WHERE profile_id = 'gone-1'`,
    )
    expect(rows.map((r: any) => r.event)).toEqual(['profile.deleted'])
    expect(rows[0].payload).not.toMatch(/Bo|Oslo/)
  })

  it('submission.failed: sent when a submission fails for good', async () => {
    const id = await post(svc.url, key, 'fail-1', 'FAIL-ALWAYS My name is Cy.')
    const got = await waitFor('submission.failed for fail-1', eventFor('submission.failed', 'fail-1'))
    expect(got.body.data).toEqual({ profile_id: 'fail-1', submission_id: id, status: 'failed' })
    expect(verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw)).toBe(true)
    expect(got.raw.toString()).not.toMatch(/Cy|injected/)
  })

  it('receiver down: failures logged with exponential backoff; back up, each event arrives exactly once', async () => {
    const port = rx.port
    await rx.stop()
    try {
      await downtime(port)
    } finally {
      if (!rx.running) await rx.start(port) // so that a failure here does not take the receiver from the tests after it
    }
  })

  async function downtime(port: number) {
    const before = rx.received.length
    await post(svc.url, key, 'down-1', 'My name is Di.')
    await post(svc.url, key, 'down-2', 'My name is Ed.')
    const pending = await waitFor(
      'both deliveries to have failed 4 attempts',
      async () =>
        (await deliveries(endpointId, { status: 'PENDING' })).filter((d) => ['down-1', 'down-2'].includes(d.profileId)),
      { until: (ds: any[]) => ds.length === 2 && ds.every((d) => d.attempts >= 4 && d.attemptLog.length >= 4) },
    )
    for (const d of pending) {
      expect(d.lastError).toMatch(/ECONNREFUSED/)
      expect(d.attemptLog.every((a: any) => a.statusCode === null && /ECONNREFUSED/.test(a.error))).toBe(true)
      // The next attempt is due base x 2^(attempts-1), +-10 %, after the last one (recorded in the same transaction).
      const last = d.attemptLog.find((a: any) => a.attempt === d.attempts)
      if (last) {
        const delay = Date.parse(d.nextAttemptAt) - Date.parse(last.at)
        const nominal = 100 * 2 ** (d.attempts - 1)
        expect(delay).toBeGreaterThanOrEqual(nominal * 0.9 - 2)
        expect(delay).toBeLessThanOrEqual(nominal * 1.1 + 2)
      }
      // No attempt came before its time: the waits double.
      const at = d.attemptLog.map((a: any) => Date.parse(a.at))
      for (let k = 1; k < at.length; k++) expect(at[k] - at[k - 1]).toBeGreaterThanOrEqual(100 * 2 ** (k - 1) * 0.9 - 2)
    }
    expect(rx.received.length).toBe(before)
    await rx.start(port)
    const ids = pending.map((d) => d.eventId)
    await waitFor(
      'both delivered',
      async () => (await deliveries()).filter((d) => ids.includes(d.eventId) && d.status === 'DELIVERED').length === 2,
      { timeoutMs: 60_000 },
    )
    for (const id of ids) expect(rx.received.filter((r) => r.headers['profiler-event-id'] === id)).toHaveLength(1)
    // Every event so far reached the receiver once.
    const eventIds = rx.received.map((r) => r.body.id)
    expect(new Set(eventIds).size).toBe(eventIds.length)
  }

  it('secret rotation: both secrets sign during the grace period, only the new one after it', async () => {
    const { rotateWebhookSecret: r } = await ok(dash, ROTATE, { id: endpointId, g: 3600 })
    expect(r.secret).not.toBe(secret)
    expect(Date.parse(r.endpoint.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 3500_000)
    const t = (await ok(dash, SEND_TEST, { id: endpointId })).sendTestWebhook
    expect(t).toMatchObject({
      status: 'DELIVERED',
      event: 'webhook.test',
      test: true,
      attempts: 1,
      lastStatusCode: 204,
    })
    const got = rx.received.find((x) => x.body.id === t.eventId)!
    expect(got.body.data).toEqual({ endpoint_id: endpointId })
    expect(got.headers['profiler-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
    expect(verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw)).toBe(true)
    expect(verifyProfilerSignature(r.secret, got.headers['profiler-signature'], got.raw)).toBe(true)

    const { rotateWebhookSecret: r2 } = await ok(dash, ROTATE, { id: endpointId, g: 0 })
    expect(r2.endpoint.previousSecretExpiresAt).toBeNull()
    const t2 = (await ok(dash, SEND_TEST, { id: endpointId })).sendTestWebhook
    const got2 = rx.received.find((x) => x.body.id === t2.eventId)!
    expect(verifyProfilerSignature(r2.secret, got2.headers['profiler-signature'], got2.raw)).toBe(true)
    expect(verifyProfilerSignature([secret, r.secret], got2.headers['profiler-signature'], got2.raw)).toBe(false)
    secret = r2.secret
    expect(codeOf(await dash.gql(ROTATE, { id: endpointId, g: -1 }))).toBe('VALIDATION_FAILED')
  })

  it("the outbox is written in the change's transaction: a rolled-back change writes and sends nothing", async () => {
    const uow = new UnitOfWork(svc.profiler.db.dataSource, svc.profiler.bus)
    const ready = (profileId: string) => ({
      tenantId,
      profileId,
      status: 'ready' as const,
      at: new Date().toISOString(),
    })
    await expect(
      uow.run(undefined, async (tx) => {
        tx.raise('profileStatusChanged', ready('rolled-back'))
        tx.raise('submissionFailed', {
          tenantId,
          profileId: 'rolled-back',
          submissionId: '00000000-0000-0000-0000-000000000000',
          at: new Date().toISOString(),
        })
        throw new Error('the change fails')
      }),
    ).rejects.toThrow('the change fails')
    // A transaction that fails at its COMMIT, after the outbox rows were written (a deferred constraint is checked
    // then).
    const ds = svc.profiler.db.dataSource
    await ds.query(
      `CREATE TABLE webhook_test_guard (
         id int PRIMARY KEY, ref int REFERENCES webhook_test_guard (id) DEFERRABLE INITIALLY DEFERRED
       )`,
    )
    await expect(
      uow.run(undefined, async (tx) => {
        tx.raise('profileStatusChanged', ready('fails-at-commit'))
        await tx.manager.query(`INSERT INTO webhook_test_guard VALUES (1, 2)`)
      }),
    ).rejects.toThrow(/foreign key/)
    await uow.run(undefined, async (tx) => tx.raise('profileStatusChanged', ready('committed')))
    await waitFor('profile.ready for the committed change', eventFor('profile.ready', 'committed'))
    const rows = await ds.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE profile_id IN ('rolled-back', 'fails-at-commit')`,
    )
    expect(rows[0].n).toBe(0)
    expect(rx.received.filter((r) => ['rolled-back', 'fails-at-commit'].includes(r.body.data?.profile_id))).toEqual([])
    await ds.query(`DROP TABLE webhook_test_guard`)
  })

  it('hostile receivers: hangs time out, huge answers go unread, redirects unfollowed, 410 disables', async () => {
    const bad = await new TestReceiver().start()
    try {
      const { createWebhookEndpoint: c } = await ok(dash, CREATE, {
        app: appId,
        url: bad.url(),
        events: ['PROFILE_DELETED'],
      })
      const id = c.endpoint.id
      const test = async () => (await ok(dash, SEND_TEST, { id })).sendTestWebhook

      bad.mode = 'hang'
      let started = Date.now()
      let t = await test()
      expect(t).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        lastStatusCode: null,
        lastError: 'timed out after 1500 ms',
      })
      expect(Date.now() - started).toBeLessThan(10_000)

      bad.mode = 'huge-error'
      started = Date.now()
      t = await test()
      expect(t.status).toBe('FAILED')
      expect(t.lastStatusCode).toBe(500)
      expect(t.lastError).toMatch(/^HTTP 500: x{100,200}$/)
      expect(Date.now() - started).toBeLessThan(10_000)

      bad.mode = 'huge-ok'
      t = await test()
      expect(t).toMatchObject({ status: 'DELIVERED', lastStatusCode: 200 })

      bad.mode = 'redirect'
      const seen = bad.received.length
      t = await test()
      expect(t).toMatchObject({ status: 'FAILED', lastStatusCode: 302 })
      expect(t.lastError).toMatch(/redirects are not followed/)
      expect(bad.received.slice(seen).map((r) => r.path)).toEqual(['/hook'])

      bad.mode = 'gone'
      await post(svc.url, key, 'gone-2', 'My name is Flo.')
      await waitFor('profile.ready for gone-2', eventFor('profile.ready', 'gone-2'))
      expect(
        (await fetch(`${svc.url}/v1/profile/gone-2`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } }))
          .status,
      ).toBe(204)
      const disabled = await waitFor('the endpoint to be disabled', async () =>
        (
          await ok(dash, `query($a: ID!) { webhookEndpoints(appId: $a) { ${ENDPOINT_FIELDS} } }`, { a: appId })
        ).webhookEndpoints.find((e: any) => e.id === id && !e.enabled),
      )
      expect(disabled.disabledReason).toMatch(/410 Gone/)
      const [gone] = await deliveries(id, { status: 'FAILED' })
      expect(gone).toMatchObject({ event: 'profile.deleted', attempts: 1, lastStatusCode: 410 })
      // Subscribed to profile.deleted only: nothing else came its way.
      expect(new Set((await deliveries(id)).map((d) => d.event))).toEqual(new Set(['webhook.test', 'profile.deleted']))
      expect(codeOf(await dash.gql(SEND_TEST, { id }))).toBe('VALIDATION_FAILED')
      // Enabled again, a redelivery goes through.
      bad.mode = 'ok'
      expect((await ok(dash, UPDATE, { id, enabled: true })).updateWebhookEndpoint).toMatchObject({
        enabled: true,
        disabledReason: null,
      })
      const again = (
        await ok(dash, `mutation($id: ID!) { redeliverWebhook(id: $id) { ${DELIVERY_FIELDS} } }`, { id: gone.id })
      ).redeliverWebhook
      expect(again).toMatchObject({ status: 'DELIVERED', attempts: 2, eventId: gone.eventId, lastStatusCode: 204 })
      expect(again.attemptLog.map((a: any) => a.statusCode)).toEqual([410, 204])
      expect(
        (await ok(dash, `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, { id })).deleteWebhookEndpoint,
      ).toBe(true)
      expect(
        (
          await svc.profiler.db.dataSource.query(
            `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
            [id],
          )
        )[0].n,
      ).toBe(0)
    } finally {
      await bad.stop()
    }
  })

  it('several dispatchers side by side (three here) send each delivery once', async () => {
    const extra = [1, 2].map(
      () => buildWebhooks(svc.profiler.db.dataSource, svc.profiler.config, { log: svc.profiler.log }).dispatcher,
    )
    extra.forEach((d) => d.start())
    try {
      const uow = new UnitOfWork(svc.profiler.db.dataSource, svc.profiler.bus)
      const ids = Array.from({ length: 40 }, (_, i) => `many-${i}`)
      await uow.run(undefined, async (tx) => {
        for (const profileId of ids)
          tx.raise('profileStatusChanged', { tenantId, profileId, status: 'ready', at: new Date().toISOString() })
      })
      extra.forEach((d) => d.wake())
      await waitFor('all 40 delivered', () => ids.every((id) => eventFor('profile.ready', id)()))
      for (const id of ids)
        expect(
          rx.of('profile.ready').filter((r) => r.body.data.profile_id === id),
          id,
        ).toHaveLength(1)
    } finally {
      await Promise.all(extra.map((d) => d.stop()))
    }
  })

  it('pages and filters the delivery log', async () => {
    const all = await deliveries()
    expect(all.length).toBeGreaterThanOrEqual(6)
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const page: any = (await ok(dash, DELIVERIES, { id: endpointId, first: 2, after })).webhookDeliveries
      seen.push(...page.nodes.map((n: any) => n.id))
      if (!page.pageInfo.hasNextPage) break
      after = page.pageInfo.endCursor
    }
    expect(seen).toEqual(all.map((d) => d.id))
    const delivered = await deliveries(endpointId, { status: 'DELIVERED' })
    expect(delivered.length).toBeGreaterThan(0)
    expect(delivered.every((d) => d.status === 'DELIVERED')).toBe(true)
    expect(codeOf(await dash.gql(DELIVERIES, { id: endpointId, first: 0 }))).toBe('VALIDATION_FAILED')
    expect(codeOf(await dash.gql(DELIVERIES, { id: endpointId, after: 'garbage' }))).toBe('VALIDATION_FAILED')
  })

  it('another tenant cannot see or change the endpoint, and an app key reaches no webhook operation', async () => {
    const other = await signedUp(svc.url, 'other@example.com')
    expect(
      (await ok(other.dash, `query($a: ID!) { webhookEndpoints(appId: $a) { id } }`, { a: appId })).webhookEndpoints,
    ).toEqual([])
    expect(codeOf(await other.dash.gql(DELIVERIES, { id: endpointId }))).toBe('WEBHOOK_NOT_FOUND')
    expect(codeOf(await other.dash.gql(ROTATE, { id: endpointId }))).toBe('WEBHOOK_NOT_FOUND')
    expect(codeOf(await other.dash.gql(SEND_TEST, { id: endpointId }))).toBe('WEBHOOK_NOT_FOUND')
    expect(codeOf(await other.dash.gql(UPDATE, { id: endpointId, enabled: false }))).toBe('WEBHOOK_NOT_FOUND')
    expect(codeOf(await other.dash.gql(CREATE, { app: appId, url: rx.url(), events: ['PROFILE_READY'] }))).toBe(
      'APP_NOT_FOUND',
    )
    expect(
      codeOf(
        await other.dash.gql(`mutation($id: ID!) { redeliverWebhook(id: $id) { id } }`, {
          id: (await deliveries())[0].id,
        }),
      ),
    ).toBe('NOT_FOUND')
    const anon = new DashboardBrowser(svc.url)
    expect(codeOf(await anon.gql(`query($a: ID!) { webhookEndpoints(appId: $a) { id } }`, { a: appId }))).toBe(
      'UNAUTHENTICATED',
    )
    const api = await apiGql(svc.url, key, `query($a: ID!) { webhookEndpoints(appId: $a) { id } }`, { a: appId })
    expect(api.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED')
  })
})

describe('webhooks: the SSRF policy of a server that allows no private target', () => {
  let svc: TestService
  let dash: DashboardBrowser
  let tenantId: string
  let appId: string
  const rx = new TestReceiver()

  beforeAll(async () => {
    await rx.start()
    svc = await startService({ env: { PROFILER_WEBHOOK_POLL_MS: '100', PROFILER_WEBHOOK_TIMEOUT_MS: '2000' } })
    ;({ dash, tenantId, appId } = await signedUp(svc.url, 'ssrf@example.com'))
  })
  afterAll(async () => {
    await svc?.close()
    await rx.stop()
  })

  it('refuses loopback, private, link-local and metadata targets at registration, in every spelling', async () => {
    const urls = [
      rx.url(),
      `http://localhost:${rx.port}/hook`,
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[::ffff:0:127.0.0.1]/',
      `http://[::ffff:0:7f00:1]:${rx.port}/hook`,
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[64:ff9b:1::7f00:1]/',
      'http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'https://100.100.100.200/',
    ]
    for (const url of urls) {
      const r = await dash.gql(CREATE, { app: appId, url, events: ['PROFILE_READY'] })
      expect(codeOf(r), url).toBe('VALIDATION_FAILED')
      expect(r.body.errors[0].message, url).toMatch(
        /^url: refused: .*(loopback|private|link-local|unspecified|CGNAT|IPv4-translated|local-use NAT64)/,
      )
    }
    expect(rx.received).toEqual([])
  })

  it('checks the address connected to: a target turned private (DNS rebinding) is refused at delivery', async () => {
    // Endpoints as if registered when their names resolved elsewhere: only the delivery-time check stands in the way.
    const insert = async (id: string, url: string) =>
      svc.profiler.db.dataSource.query(
        `INSERT INTO webhook_endpoints (tenant_id, id, app_id, url, events, secret)
         VALUES ($1, $2, $3, $4, $5, 'plain:whsec_x')`,
        [tenantId, id, appId, url, ['profile.ready']],
      )
    await insert('whe_literal', rx.url())
    await insert('whe_name', `http://localhost:${rx.port}/hook`)
    await insert('whe_translated', `http://[::ffff:0:7f00:1]:${rx.port}/hook`)
    await insert('whe_nat64', `http://[64:ff9b:1::7f00:1]:${rx.port}/hook`)
    const literal = (await ok(dash, SEND_TEST, { id: 'whe_literal' })).sendTestWebhook
    expect(literal).toMatchObject({ status: 'FAILED', lastStatusCode: null })
    expect(literal.lastError).toMatch(/refused: 127\.0\.0\.1 is a loopback address/)
    for (const [id, what] of [
      ['whe_translated', /refused: ::ffff:0:7f00:1 is an IPv4-translated address/],
      ['whe_nat64', /refused: 64:ff9b:1::7f00:1 is a local-use NAT64 address/],
    ] as const) {
      const d = (await ok(dash, SEND_TEST, { id })).sendTestWebhook
      expect(d, id).toMatchObject({ status: 'FAILED', lastStatusCode: null })
      expect(d.lastError).toMatch(what)
      await ok(dash, `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }`, { id })
    }
    const named = (await ok(dash, SEND_TEST, { id: 'whe_name' })).sendTestWebhook
    expect(named).toMatchObject({ status: 'FAILED', lastStatusCode: null })
    expect(named.lastError).toMatch(/refused: localhost resolves to .*loopback/)
    // A real event to them is refused on every attempt, never sent.
    await post(
      svc.url,
      (await ok(dash, `mutation { createApp(name: "second") { apiKey } }`)).createApp.apiKey,
      'rebound',
      'My name is Gus.',
    )
    const pending = await waitFor(
      'attempts at the rebound endpoints',
      async () =>
        (await Promise.all(['whe_literal', 'whe_name'].map((id) => deliveries(dash, id))))
          .flat()
          .filter((d) => d.profileId === 'rebound'),
      {
        until: (ds: any[]) => ds.length === 2 && ds.every((d) => d.attempts >= 1 && /refused/.test(d.lastError ?? '')),
      },
    )
    expect(pending.every((d) => d.status === 'PENDING')).toBe(true)
    expect(rx.received).toEqual([])
  })
})

async function deliveries(dash: DashboardBrowser, id: string): Promise<any[]> {
  return (await ok(dash, DELIVERIES, { id, first: 100 })).webhookDeliveries.nodes
}

describe('webhooks: shutdown', () => {
  it('a delivery hanging at a receiver does not hold up shutdown: it is interrupted (and retried later)', async () => {
    const rx = await new TestReceiver().start()
    rx.mode = 'hang'
    const svc = await startService({
      env: {
        PROFILER_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
        PROFILER_WEBHOOK_TIMEOUT_MS: '120000',
        PROFILER_WEBHOOK_POLL_MS: '100',
      },
    })
    try {
      const { dash, key, appId } = await signedUp(svc.url, 'shutdown@example.com')
      await ok(dash, CREATE, { app: appId, url: rx.url(), events: ['PROFILE_READY'] })
      await post(svc.url, key, 'slow-1', 'My name is Hal.')
      await waitFor('the receiver to hold the delivery', () => rx.of('profile.ready').length > 0)
      const started = Date.now()
      await svc.profiler.close()
      expect(Date.now() - started).toBeLessThan(15_000)
    } finally {
      await svc.close()
      await rx.stop()
    }
  })
})

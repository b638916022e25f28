// The webhook outbox (WebhookRepository.stage) at the size of a large deletion: a delivery per event and enabled
// endpoint subscribed to it, inserted as values in chunks, with the payload receivers read. Runs on both databases;
// test/integration/citus.test.ts checks that on a cluster it commits on the tenant's node in one phase.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboxEvent } from '../../src/domain/webhooks.js'
import { WebhookRepository } from '../../src/db/webhook.repository.js'
import { startService, type TestService } from '../support/harness.js'

describe('the webhook outbox', () => {
  let svc: TestService
  const repo = new WebhookRepository()
  const q = (sql: string, params: unknown[] = []) => svc.profiler.db.dataSource.query(sql, params)

  beforeAll(async () => {
    svc = await startService({ role: 'api' })
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('stages a delivery per event and subscribed endpoint, 2,500 at once, and none for a tenant without', async () => {
    const [{ tenant_id: tenantId, id: appId }] = await q(`SELECT tenant_id, id FROM apps LIMIT 1`)
    const endpoint = (id: string, events: string[], enabled = true) =>
      svc.profiler.db.dataSource.transaction(async (manager) => {
        await repo.insertEndpoint(manager, {
          tenantId,
          id,
          appId,
          url: 'http://127.0.0.1:9/hook',
          description: null,
          events,
          secret: 'whsec_test',
        })
        if (!enabled) await manager.query(`UPDATE webhook_endpoints SET enabled = false WHERE id = $1`, [id])
      })
    await endpoint('we_all', ['profile.ready', 'profile.deleted'])
    await endpoint('we_failed', ['submission.failed'])
    await endpoint('we_off', ['profile.ready', 'profile.deleted'], false)
    const at = new Date().toISOString()
    const event = (i: number, name: OutboxEvent['event'], tenant = tenantId): OutboxEvent => ({
      tenantId: tenant,
      eventId: `evt_${name}_${i}`,
      event: name,
      profileId: `p${i}`,
      at,
      data: { profile_id: `p${i}`, status: name === 'profile.ready' ? 'ready' : 'deleted' },
    })
    const events = [
      ...Array.from({ length: 2_490 }, (_, i) => event(i, 'profile.deleted')),
      ...Array.from({ length: 10 }, (_, i) => event(i, 'profile.ready')),
      event(0, 'profile.ready', 'ten_without_endpoints'),
    ]
    const staged = await svc.profiler.db.dataSource.transaction((manager) => repo.stage(manager, events))
    expect(staged).toBe(2_500)
    const [counts] = await q(
      `SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids, count(*) FILTER (WHERE endpoint_id = 'we_all')::int AS
              to_all, count(*) FILTER (WHERE tenant_id <> $1)::int AS other
         FROM webhook_deliveries`,
      [tenantId],
    )
    expect(counts).toEqual({ n: 2_500, ids: 2_500, to_all: 2_500, other: 0 })
    const [ready] = await q(
      `SELECT payload, status, attempts, next_attempt_at <= now() AS due FROM webhook_deliveries
        WHERE event_id = 'evt_profile.ready_3'`,
    )
    expect(ready).toEqual({
      payload: {
        id: 'evt_profile.ready_3',
        type: 'profile.ready',
        created_at: at,
        data: { profile_id: 'p3', status: 'ready' },
      },
      status: 'pending',
      attempts: 0,
      due: true,
    })
  })
})

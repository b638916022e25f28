// The webhook dispatcher of a sharded database, which reads the tenants due from an index (webhook_due) instead of
// every shard of the deliveries: WebhookDueIndex and its use by WebhookDeliverer and WebhookDispatcher, with a real
// receiver. The index is a plain table, so the same code runs here on both databases; test/integration/citus.test.ts
// checks on a cluster that the dispatcher's polls read only the due tenants' shards.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { UnitOfWork } from '../../src/db/unit-of-work.js'
import { buildWebhooks } from '../../src/services/webhooks/index.js'
import { startService, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { TestReceiver } from '../support/webhook-receiver.js'

describe('webhook dispatch from the index of due tenants', () => {
  let svc: TestService
  let tenantId: string
  let endpointId: string
  let hooks: ReturnType<typeof buildWebhooks>
  const rx = new TestReceiver()
  const q = (sql: string, params: unknown[] = []) => svc.profiler.db.dataSource.query(sql, params)
  const indexed = () =>
    buildWebhooks(svc.profiler.db.dataSource, svc.profiler.config, { log: svc.profiler.log, sharded: true })
  const receivedFor = (profileId: string) => rx.received.filter((r) => r.body.data?.profile_id === profileId)
  /** What a worker's apply leaves: deliveries staged in its transaction, told to dispatchers by its events. */
  const stage = (profileIds: string[]) =>
    new UnitOfWork(svc.profiler.db.dataSource, svc.profiler.bus).run(undefined, async (tx) => {
      for (const profileId of profileIds)
        tx.raise('profileStatusChanged', { tenantId, profileId, status: 'ready', at: new Date().toISOString() })
    })
  /** Pending deliveries of an enabled endpoint whose tenant's row is missing or due later than their next attempt. */
  const uncovered = () =>
    q(`SELECT d.profile_id, d.next_attempt_at, i.due_at FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.tenant_id = d.tenant_id AND w.id = d.endpoint_id AND w.enabled
         LEFT JOIN webhook_due i ON i.tenant_id = d.tenant_id
        WHERE d.status = 'pending' AND (i.due_at IS NULL OR i.due_at > d.next_attempt_at)`)

  beforeAll(async () => {
    await rx.start()
    // The API alone: no dispatcher of the service's own; each test starts the ones it needs.
    svc = await startService({
      role: 'api',
      env: {
        PROFILER_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
        PROFILER_WEBHOOK_RETRY_BASE_MS: '100',
        PROFILER_WEBHOOK_MAX_ATTEMPTS: '30',
        PROFILER_WEBHOOK_POLL_MS: '100',
        PROFILER_WEBHOOK_TIMEOUT_MS: '1500',
      },
    })
    const [app] = await q(`SELECT tenant_id, id FROM apps LIMIT 1`)
    tenantId = app.tenant_id
    hooks = indexed()
    const created = await hooks.service.create(tenantId, app.id, {
      url: `http://127.0.0.1:${rx.port}/hook`,
      events: ['profile.ready'],
    })
    endpointId = created.endpoint.id
  })
  afterAll(async () => {
    await svc?.close()
    await rx.stop()
  })
  beforeEach(async () => {
    rx.mode = 'ok'
    await q(`DELETE FROM webhook_due`)
  })

  it('sends what was staged while no dispatcher ran, found by its start; a look drops the idle row', async () => {
    await stage(['idle-1', 'idle-2', 'idle-3'])
    // Staging marks nothing: its events tell the dispatchers that are listening, and none is.
    expect(await q(`SELECT * FROM webhook_due`)).toEqual([])
    const { dispatcher } = indexed()
    dispatcher.start()
    try {
      await waitFor('the three delivered', () => ['idle-1', 'idle-2', 'idle-3'].every((p) => receivedFor(p).length))
      await waitFor(
        'the deliveries settled',
        async () => q(`SELECT 1 FROM webhook_deliveries WHERE status = 'pending'`),
        { until: (rows: unknown[]) => !rows.length },
      )
      // The claims' leases were written; nothing is pending now, so the tenant's next look (simulated as due) drops it.
      const [row] = await q(`SELECT tenant_id, due_at > now() AS later FROM webhook_due`)
      expect(row).toEqual({ tenant_id: tenantId, later: true })
      await q(`UPDATE webhook_due SET due_at = now()`)
      await waitFor('the idle row dropped', () => q(`SELECT * FROM webhook_due`), {
        until: (rows: unknown[]) => !rows.length,
      })
    } finally {
      await dispatcher.stop()
    }
    for (const p of ['idle-1', 'idle-2', 'idle-3']) expect(receivedFor(p)).toHaveLength(1)
  })

  it('keeps every pending retry under a row due no later than it; the poll alone takes them up', async () => {
    rx.mode = 'error'
    const { dispatcher } = indexed()
    dispatcher.start()
    try {
      await stage(['retry-1', 'retry-2'])
      await waitFor(
        'both tried three times',
        () => q(`SELECT attempts FROM webhook_deliveries WHERE profile_id LIKE 'retry-%' AND attempts >= 3`),
        { until: (rows: unknown[]) => rows.length === 2 },
      )
    } finally {
      await dispatcher.stop()
    }
    // Every attempt recorded (a stopped dispatcher's interrupted ones are retries too): the index covers them all.
    expect(await uncovered()).toEqual([])
    rx.mode = 'ok'
    // With no event and no rebuild: what the index says is due, claimed as the poll claims it.
    const tried = rx.received.length
    // Another process's deliverer (the stopped one's sends are interrupted for good).
    const { deliverer } = indexed()
    await waitFor(
      'both delivered from the index',
      async () => {
        for (const { done } of await deliverer.claimDue(10)) await done
        return q(`SELECT profile_id, status FROM webhook_deliveries WHERE profile_id LIKE 'retry-%'`)
      },
      { until: (rows: { status: string }[]) => rows.every((r) => r.status === 'delivered'), everyMs: 100 },
    )
    expect(
      rx.received
        .slice(tried)
        .map((r) => r.body.data.profile_id)
        .sort(),
    ).toEqual(['retry-1', 'retry-2'])
  })

  it('drops a disabled endpoint’s tenant, and marks it again when the endpoint is enabled', async () => {
    await stage(['off-1'])
    await hooks.service.update(tenantId, endpointId, { enabled: false })
    await hooks.deliverer.rebuildIndex()
    expect(await q(`SELECT * FROM webhook_due`)).toEqual([])
    await hooks.service.update(tenantId, endpointId, { enabled: true })
    const [row] = await q(`SELECT tenant_id, due_at <= now() AS due FROM webhook_due`)
    expect(row).toEqual({ tenant_id: tenantId, due: true })
    for (const { done } of await hooks.deliverer.claimDue(10)) await done
    expect(receivedFor('off-1')).toHaveLength(1)
  })

  it('looks again at every shard when its events were interrupted', async () => {
    const { dispatcher } = indexed()
    dispatcher.start()
    try {
      // Its first round rebuilt the (empty) index; a delivery staged and never told is found by the resync alone.
      await waitFor('the first round', () => q(`SELECT 1 FROM webhook_due`), { until: (r: unknown[]) => !r.length })
      await svc.profiler.db.dataSource.transaction(async (manager) => {
        await manager.query(
          `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, event, profile_id, payload,
                                           next_attempt_at)
           VALUES ($1, gen_random_uuid(), $2, 'evt_untold', 'profile.ready', 'untold', $3, now())`,
          [
            tenantId,
            endpointId,
            {
              id: 'evt_untold',
              type: 'profile.ready',
              created_at: new Date().toISOString(),
              data: { profile_id: 'untold', status: 'ready' },
            },
          ],
        )
      })
      dispatcher.resync()
      await waitFor('the untold delivery sent', () => receivedFor('untold').length === 1)
    } finally {
      await dispatcher.stop()
    }
  })

  it('takes at most a round’s free slots of due tenants per look, however many are due', async () => {
    // 2,000 tenants due with nothing pending (their deliveries gone): each look reads a bounded page and drops it.
    await q(
      `INSERT INTO webhook_due (tenant_id, due_at) SELECT 'ten_gone_' || i, now() FROM generate_series(1, 2000) i`,
    )
    const looked = await hooks.deliverer.claimDue(50)
    expect(looked).toEqual([])
    const [{ n }] = await q(`SELECT count(*)::int AS n FROM webhook_due`)
    expect(n).toBe(1950)
  })
})

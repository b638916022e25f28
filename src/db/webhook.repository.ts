import { randomUUID } from 'node:crypto'
import type { EntityManager, QueryDeepPartialEntity } from 'typeorm'
import type { OutboxEvent, WebhookPayload } from '../domain/webhooks.js'
import type {
  DeliveryStatus,
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from './entities/webhook.entity.js'
import { table } from './entities/tables.js'
import { perTenant, tenantIdOf } from './tenant-routing.js'

/** An endpoint as stored (secrets sealed, see src/services/webhooks/secrets.ts). */
export type EndpointRow = WebhookEndpointEntity

export type { DeliveryStatus }

export type DeliveryRow = WebhookDeliveryEntity

export type AttemptRow = Pick<
  WebhookAttemptEntity,
  'delivery_id' | 'attempt' | 'at' | 'duration_ms' | 'status_code' | 'error'
>

/** A delivery taken for an attempt, with what sending it needs from its endpoint. */
export type ClaimedDelivery = DeliveryRow &
  Pick<WebhookEndpointEntity, 'url' | 'secret' | 'previous_secret' | 'previous_secret_until'>

/** How an attempt ended. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; afterMs: number }
  | { kind: 'failed'; disableEndpoint?: string }

const ERROR_CHARS = 500
const DELIVERY_COLUMNS = `d.tenant_id, d.id, d.seq, d.endpoint_id, d.event_id, d.event, d.profile_id, d.payload, d.test,
  d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.finished_at`
/** Every column of an endpoint, for RETURNING. */
const ENDPOINT_COLUMNS: (keyof WebhookEndpointEntity)[] = [
  'tenant_id',
  'id',
  'app_id',
  'url',
  'description',
  'events',
  'secret',
  'previous_secret',
  'previous_secret_until',
  'enabled',
  'disabled_reason',
  'created_at',
  'updated_at',
]

/**
 * Webhook endpoints and deliveries (the outbox and its log). Every statement filters by tenant_id except the
 * dispatcher's claim of due deliveries, which serves every tenant as the job queue does. The endpoints' management and
 * the reads of one delivery go through TypeORM; the outbox's fan-out, the dispatcher's claim (a lease, SKIP LOCKED),
 * its record of an attempt, the log's keyset pages and its prune stay SQL.
 */
/** Deliveries per INSERT of the outbox: 6 parameters each, well under PostgreSQL's 65,535. */
const OUTBOX_ROWS_PER_INSERT = 1000
const DELIVERY_VALUES = 6

/** A delivery's values after its tenant: id, endpoint, event id, event, profile, payload (JSON text). */
function deliveryValues(event: OutboxEvent, endpointId: string): string[] {
  const payload = { id: event.eventId, type: event.event, created_at: event.at, data: event.data }
  return [randomUUID(), endpointId, event.eventId, event.event, event.profileId, JSON.stringify(payload)]
}

export class WebhookRepository {
  /**
   * The outbox: a delivery per event and enabled endpoint subscribed to it, in the caller's transaction, so a change
   * that rolls back sends nothing and one that commits cannot lose its event. A profile's deletion first removes its
   * earlier deliveries (sent or not), so nothing of the profile stays behind but its deletion's own. Returns the rows
   * inserted. The tenant's endpoints are read first and the deliveries inserted as values: a tenant without webhooks
   * costs one read, and a sharded database (Citus) runs both on the tenant's shard (an INSERT ... SELECT into a table
   * with an identity column goes through the coordinator there, and commits in two phases).
   */
  async stage(manager: EntityManager, events: OutboxEvent[]): Promise<number> {
    if (!events.length) return 0
    const staged = await perTenant(events, tenantIdOf, async (tenantId, group) => {
      const deleted = group.filter((e) => e.event === 'profile.deleted')
      if (deleted.length) {
        await manager.query(
          `DELETE FROM webhook_deliveries d USING unnest($1::text[]) AS x(profile_id)
            WHERE d.tenant_id = $2 AND d.profile_id = x.profile_id`,
          [deleted.map((e) => e.profileId), tenantId],
        )
      }
      const endpoints: { id: string; events: string[] }[] = await manager.query(
        `SELECT id, events FROM webhook_endpoints WHERE tenant_id = $1 AND enabled`,
        [tenantId],
      )
      const rows = group.flatMap((event) =>
        endpoints.filter((w) => w.events.includes(event.event)).map((w) => deliveryValues(event, w.id)),
      )
      const inserted: unknown[] = []
      for (let i = 0; i < rows.length; i += OUTBOX_ROWS_PER_INSERT) {
        const chunk = rows.slice(i, i + OUTBOX_ROWS_PER_INSERT)
        const values = chunk.map((_, row) => {
          const at = 2 + row * DELIVERY_VALUES
          return `($1, $${at}::uuid, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::jsonb, now())`
        })
        inserted.push(
          ...(await manager.query(
            `INSERT INTO webhook_deliveries
                    (tenant_id, id, endpoint_id, event_id, event, profile_id, payload, next_attempt_at)
             VALUES ${values.join(', ')}
             RETURNING 1`,
            [tenantId, ...chunk.flat()],
          )),
        )
      }
      return inserted
    })
    return staged.length
  }

  // ---- endpoints ----

  async insertEndpoint(
    manager: EntityManager,
    endpoint: {
      tenantId: string
      id: string
      appId: string
      url: string
      description: string | null
      events: string[]
      secret: string
    },
  ): Promise<EndpointRow> {
    const result = await table(manager, 'webhook_endpoints')
      .createQueryBuilder()
      .insert()
      .values({
        tenant_id: endpoint.tenantId,
        id: endpoint.id,
        app_id: endpoint.appId,
        url: endpoint.url,
        description: endpoint.description,
        events: endpoint.events as EndpointRow['events'],
        secret: endpoint.secret,
      })
      .returning(ENDPOINT_COLUMNS)
      .execute()
    return (result.raw as EndpointRow[])[0]!
  }

  async countEndpoints(manager: EntityManager, tenantId: string, appId: string): Promise<number> {
    return table(manager, 'webhook_endpoints').countBy({ tenant_id: tenantId, app_id: appId })
  }

  async endpoints(manager: EntityManager, tenantId: string, appId: string): Promise<EndpointRow[]> {
    return table(manager, 'webhook_endpoints').find({
      where: { tenant_id: tenantId, app_id: appId },
      order: { created_at: 'ASC', id: 'ASC' },
    })
  }

  async endpoint(
    manager: EntityManager,
    tenantId: string,
    id: string,
    opts: { lock?: boolean } = {},
  ): Promise<EndpointRow | null> {
    return table(manager, 'webhook_endpoints').findOne({
      where: { tenant_id: tenantId, id },
      ...(opts.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    })
  }

  /** Sets what is given (null description: none); enabling or disabling clears why it was disabled. */
  async updateEndpoint(
    manager: EntityManager,
    tenantId: string,
    id: string,
    update: { url?: string; description?: string | null; events?: string[]; enabled?: boolean },
  ): Promise<EndpointRow | null> {
    const set: QueryDeepPartialEntity<EndpointRow> = { updated_at: () => 'now()' }
    if (update.url != null) set.url = update.url
    if (update.description !== undefined) set.description = update.description
    if (update.events != null) set.events = update.events as EndpointRow['events']
    if (update.enabled != null) Object.assign(set, { enabled: update.enabled, disabled_reason: null })
    const result = await table(manager, 'webhook_endpoints')
      .createQueryBuilder()
      .update()
      .set(set)
      .where('tenant_id = :tenantId AND id = :id', { tenantId, id })
      .returning(ENDPOINT_COLUMNS)
      .execute()
    return (result.raw as EndpointRow[])[0] ?? null
  }

  /** The new secret becomes current; the current one stays valid for `graceSeconds` (0: not at all). */
  async rotateSecret(
    manager: EntityManager,
    tenantId: string,
    id: string,
    secret: string,
    graceSeconds: number,
  ): Promise<EndpointRow | null> {
    // The grace period or none, chosen here rather than by a CASE around now() in the statement, which a sharded
    // database (Citus) refuses.
    const previous: QueryDeepPartialEntity<EndpointRow> =
      graceSeconds > 0
        ? {
            previous_secret: () => 'secret',
            previous_secret_until: () => 'now() + make_interval(secs => :graceSeconds)',
          }
        : { previous_secret: null, previous_secret_until: null }
    const result = await table(manager, 'webhook_endpoints')
      .createQueryBuilder()
      .update()
      .set({ ...previous, secret, updated_at: () => 'now()' })
      .where('tenant_id = :tenantId AND id = :id', { tenantId, id, graceSeconds })
      .returning(ENDPOINT_COLUMNS)
      .execute()
    return (result.raw as EndpointRow[])[0] ?? null
  }

  async deleteEndpoint(manager: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const result = await table(manager, 'webhook_endpoints').delete({ tenant_id: tenantId, id })
    return (result.affected ?? 0) > 0
  }

  // ---- deliveries ----

  /** A test delivery to one endpoint, for the caller to claim (due in a minute otherwise). */
  async insertTest(
    manager: EntityManager,
    tenantId: string,
    endpointId: string,
    payload: WebhookPayload,
  ): Promise<string> {
    const result = await table(manager, 'webhook_deliveries')
      .createQueryBuilder()
      .insert()
      .values({
        tenant_id: tenantId,
        id: () => 'gen_random_uuid()',
        endpoint_id: endpointId,
        event_id: payload.id,
        event: payload.type,
        payload,
        test: true,
        next_attempt_at: () => `now() + interval '1 minute'`,
      })
      .returning(['id'])
      .execute()
    return (result.raw as Pick<DeliveryRow, 'id'>[])[0]!.id
  }

  /**
   * Takes up to `limit` due deliveries of enabled endpoints for an attempt: one more attempt each, and not due again
   * for `leaseSeconds` (a dispatcher that dies mid-send leaves them to be retried then). SKIP LOCKED: dispatchers side
   * by side take different rows. `only` takes that one delivery if it is pending and not being attempted, due or not
   * (a test delivery and a redelivery are inserted, or reset, not yet due, so that only their caller takes them).
   */
  async claim(
    manager: EntityManager,
    limit: number,
    leaseSeconds: number,
    only?: { tenantId: string; id: string },
  ): Promise<ClaimedDelivery[]> {
    if (only) return this.claimIn(manager, only.tenantId, 1, leaseSeconds, only.id)
    // The tenants with due deliveries, earliest due first; then each tenant's claim. A row lock names one tenant: in a
    // sharded database (Citus) a FOR UPDATE must stay on one node, so the claim cannot span tenants in one statement.
    const tenants: Pick<DeliveryRow, 'tenant_id'>[] = await manager.query(
      `SELECT d2.tenant_id FROM webhook_deliveries d2
         JOIN webhook_endpoints w2 ON w2.tenant_id = d2.tenant_id AND w2.id = d2.endpoint_id AND w2.enabled
        WHERE d2.status = 'pending' AND d2.next_attempt_at <= now()
        GROUP BY d2.tenant_id ORDER BY min(d2.next_attempt_at) LIMIT $1`,
      [limit],
    )
    return this.claimOf(
      manager,
      tenants.map((t) => t.tenant_id),
      limit,
      leaseSeconds,
    )
  }

  /**
   * `claim` within the given tenants, in their order, one statement each: what a dispatcher told of these tenants'
   * new deliveries claims without looking at every tenant (a sharded database routes each statement to one node).
   */
  async claimOf(
    manager: EntityManager,
    tenantIds: readonly string[],
    limit: number,
    leaseSeconds: number,
  ): Promise<ClaimedDelivery[]> {
    const out: ClaimedDelivery[] = []
    for (const tenantId of tenantIds) {
      if (out.length >= limit) break
      out.push(...(await this.claimIn(manager, tenantId, limit - out.length, leaseSeconds)))
    }
    return out
  }

  /** `claim` within one tenant: its due deliveries (or the one delivery `id`, due or not). */
  private async claimIn(
    manager: EntityManager,
    tenantId: string,
    limit: number,
    leaseSeconds: number,
    id?: string,
  ): Promise<ClaimedDelivery[]> {
    const filter = id ? `d2.id = $4::uuid` : `d2.next_attempt_at <= now()`
    const [rows]: [ClaimedDelivery[], number] = await manager.query(
      `UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
         FROM (SELECT d2.tenant_id, d2.id FROM webhook_deliveries d2
                 JOIN webhook_endpoints w2 ON w2.tenant_id = d2.tenant_id AND w2.id = d2.endpoint_id AND w2.enabled
                WHERE d2.tenant_id = $3 AND w2.tenant_id = $3 AND d2.status = 'pending' AND ${filter}
                ORDER BY d2.next_attempt_at LIMIT $1 FOR UPDATE OF d2 SKIP LOCKED) c,
              webhook_endpoints w
        WHERE d.tenant_id = $3 AND w.tenant_id = $3 AND d.tenant_id = c.tenant_id AND d.id = c.id
          AND w.id = d.endpoint_id
        RETURNING ${DELIVERY_COLUMNS}, w.url, w.secret, w.previous_secret, w.previous_secret_until`,
      id ? [limit, leaseSeconds, tenantId, id] : [limit, leaseSeconds, tenantId],
    )
    return rows
  }

  /**
   * Logs attempt number `attempt` and settles the delivery accordingly, unless it was claimed again meanwhile (its
   * lease ran out): then only the log entry is kept. Returns when it is due again, if it is to be retried.
   */
  async recordAttempt(
    manager: EntityManager,
    delivery: { tenantId: string; id: string; endpointId: string; attempt: number },
    result: { durationMs: number; statusCode: number | null; error: string | null },
    outcome: AttemptOutcome,
  ): Promise<Date | null> {
    const error = result.error?.slice(0, ERROR_CHARS) ?? null
    await manager.query(
      `INSERT INTO webhook_attempts (tenant_id, delivery_id, attempt, duration_ms, status_code, error)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [delivery.tenantId, delivery.id, delivery.attempt, Math.round(result.durationMs), result.statusCode, error],
    )
    const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' ? 'failed' : 'pending'
    const afterMs = outcome.kind === 'retry' ? outcome.afterMs : null
    // Due again later, or finished now: chosen here rather than by a CASE around now() in the statement, which a
    // sharded database (Citus) refuses.
    const when =
      status === 'pending'
        ? `next_attempt_at = now() + make_interval(secs => $7::double precision / 1000), finished_at = NULL`
        : `next_attempt_at = NULL, finished_at = now()`
    // As a Date, to the millisecond (the microseconds cut off: not later than written); a cast to text in RETURNING
    // depends on the session's settings, which a sharded database (Citus) refuses.
    const [settled]: [{ next: Date | null }[], number] = await manager.query(
      `UPDATE webhook_deliveries SET status = $4, last_status_code = $5, last_error = $6, ${when}
        WHERE tenant_id = $1 AND id = $2 AND attempts = $3 AND status = 'pending'
        RETURNING next_attempt_at AS next`,
      status === 'pending'
        ? [delivery.tenantId, delivery.id, delivery.attempt, status, result.statusCode, error, afterMs]
        : [delivery.tenantId, delivery.id, delivery.attempt, status, result.statusCode, error],
    )
    if (outcome.kind === 'failed' && outcome.disableEndpoint) {
      await manager.query(
        `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now()
          WHERE tenant_id = $1 AND id = $2`,
        [delivery.tenantId, delivery.endpointId, outcome.disableEndpoint],
      )
    }
    return settled[0]?.next ?? null
  }

  /** An endpoint's deliveries, newest first, paged by `seq` (`beforeSeq` 0: from the newest). */
  async deliveries(
    manager: EntityManager,
    tenantId: string,
    endpointId: string,
    opts: { status?: DeliveryStatus; beforeSeq: number; limit: number },
  ): Promise<DeliveryRow[]> {
    const rows: DeliveryRow[] = await manager.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND ($3::text IS NULL OR d.status = $3)
          AND ($4::bigint = 0 OR d.seq < $4)
        ORDER BY d.seq DESC LIMIT $5`,
      [tenantId, endpointId, opts.status ?? null, opts.beforeSeq, opts.limit],
    )
    return rows
  }

  async delivery(manager: EntityManager, tenantId: string, id: string): Promise<DeliveryRow | null> {
    return table(manager, 'webhook_deliveries').findOne({ where: { tenant_id: tenantId, id } })
  }

  /** The attempts of these deliveries, oldest first. */
  async attempts(manager: EntityManager, tenantId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    if (!deliveryIds.length) return []
    return table(manager, 'webhook_attempts')
      .createQueryBuilder('a')
      .select(['a.tenant_id', 'a.delivery_id', 'a.attempt', 'a.at', 'a.duration_ms', 'a.status_code', 'a.error'])
      .where('a.tenant_id = :tenantId AND a.delivery_id = ANY (:deliveryIds::uuid[])', { tenantId, deliveryIds })
      .orderBy('a.delivery_id')
      .addOrderBy('a.attempt')
      .getMany()
  }

  /**
   * A finished delivery pending again, for the caller to claim (due in a minute otherwise); its remaining attempts
   * follow the schedule from where it stopped.
   */
  async redeliver(manager: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const result = await table(manager, 'webhook_deliveries')
      .createQueryBuilder()
      .update()
      .set({ status: 'pending', next_attempt_at: () => `now() + interval '1 minute'`, finished_at: null })
      .where(`tenant_id = :tenantId AND id = :id::uuid AND status <> 'pending'`, { tenantId, id })
      .execute()
    return (result.affected ?? 0) > 0
  }

  /**
   * When the tenant's pending deliveries of enabled endpoints are next due (a claimed one: when its lease ends), as the
   * database wrote it; null when there are none.
   */
  async nextAttemptAt(manager: EntityManager, tenantId: string): Promise<string | null> {
    const [row]: { next: string | null }[] = await manager.query(
      `SELECT min(d.next_attempt_at)::text AS next FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.tenant_id = d.tenant_id AND w.id = d.endpoint_id AND w.enabled
        WHERE d.tenant_id = $1 AND w.tenant_id = $1 AND d.status = 'pending'`,
      [tenantId],
    )
    return row?.next ?? null
  }

  /** `nextAttemptAt` of every tenant that has pending deliveries: a statement on every shard of a sharded database. */
  async nextAttempts(manager: EntityManager): Promise<{ tenantId: string; at: string }[]> {
    return manager.query(
      `SELECT d.tenant_id AS "tenantId", min(d.next_attempt_at)::text AS at FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.tenant_id = d.tenant_id AND w.id = d.endpoint_id AND w.enabled
        WHERE d.status = 'pending'
        GROUP BY d.tenant_id`,
    )
  }

  /** Removes finished deliveries (and their attempts) older than the log keeps them. */
  async prune(manager: EntityManager, keepDays: number): Promise<number> {
    const [, n] = await manager.query(
      `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < now() - make_interval(days => $1)`,
      [keepDays],
    )
    return Number(n ?? 0)
  }
}

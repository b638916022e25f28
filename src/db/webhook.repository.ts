import type { EntityManager } from 'typeorm'
import type { OutboxEvent, WebhookEvent, WebhookPayload } from '../domain/webhooks.js'

/** An endpoint as stored (secrets sealed, see src/services/webhooks/secrets.ts). */
export interface EndpointRow {
  tenant_id: string
  id: string
  app_id: string
  url: string
  description: string | null
  events: WebhookEvent[]
  secret: string
  previous_secret: string | null
  previous_secret_until: Date | null
  enabled: boolean
  disabled_reason: string | null
  created_at: Date
  updated_at: Date
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

export interface DeliveryRow {
  tenant_id: string
  id: string
  seq: number
  endpoint_id: string
  event_id: string
  event: string
  profile_id: string | null
  payload: WebhookPayload
  test: boolean
  status: DeliveryStatus
  attempts: number
  next_attempt_at: Date | null
  last_status_code: number | null
  last_error: string | null
  created_at: Date
  finished_at: Date | null
}

export interface AttemptRow {
  delivery_id: string
  attempt: number
  at: Date
  duration_ms: number
  status_code: number | null
  error: string | null
}

/** A delivery taken for an attempt, with what sending it needs from its endpoint. */
export interface ClaimedDelivery extends DeliveryRow {
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_until: Date | null
}

/** How an attempt ended. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; afterMs: number }
  | { kind: 'failed'; disableEndpoint?: string }

const ERROR_CHARS = 500
const DELIVERY_COLUMNS = `d.tenant_id, d.id, d.seq, d.endpoint_id, d.event_id, d.event, d.profile_id, d.payload, d.test, d.status, d.attempts,
  d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.finished_at`
const ENDPOINT_COLUMNS = `tenant_id, id, app_id, url, description, events, secret, previous_secret, previous_secret_until, enabled,
  disabled_reason, created_at, updated_at`

/**
 * Webhook endpoints and deliveries (the outbox and its log). Every statement filters by tenant_id except the
 * dispatcher's claim of due deliveries, which serves every tenant as the job queue does.
 */
export class WebhookRepository {
  /**
   * The outbox: a delivery per event and enabled endpoint subscribed to it, in the caller's transaction, so a change
   * that rolls back sends nothing and one that commits cannot lose its event. A profile's deletion first removes its
   * earlier deliveries (sent or not), so nothing of the profile stays behind but its deletion's own. Returns the rows
   * inserted.
   */
  async stage(m: EntityManager, events: OutboxEvent[]): Promise<number> {
    if (!events.length) return 0
    const deleted = events.filter((e) => e.event === 'profile.deleted')
    if (deleted.length) {
      await m.query(
        `DELETE FROM webhook_deliveries d USING unnest($1::text[], $2::text[]) AS x(tenant_id, profile_id)
          WHERE d.tenant_id = x.tenant_id AND d.profile_id = x.profile_id`,
        [deleted.map((e) => e.tenantId), deleted.map((e) => e.profileId)],
      )
    }
    const rows = await m.query(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, event, profile_id, payload, next_attempt_at)
       SELECT e.tenant_id, gen_random_uuid(), w.id, e.event_id, e.event, e.profile_id,
              jsonb_build_object('id', e.event_id, 'type', e.event, 'created_at', e.at, 'data', e.data::jsonb), now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS e(tenant_id, event_id, event, profile_id, at, data)
         JOIN webhook_endpoints w ON w.tenant_id = e.tenant_id AND w.enabled AND e.event = ANY (w.events)
       RETURNING 1`,
      [
        events.map((e) => e.tenantId),
        events.map((e) => e.eventId),
        events.map((e) => e.event),
        events.map((e) => e.profileId),
        events.map((e) => e.at),
        events.map((e) => JSON.stringify(e.data)),
      ],
    )
    return rows.length
  }

  // ---- endpoints ----

  async insertEndpoint(
    m: EntityManager,
    e: { tenantId: string; id: string; appId: string; url: string; description: string | null; events: string[]; secret: string },
  ): Promise<EndpointRow> {
    const rows = await m.query(
      `INSERT INTO webhook_endpoints (tenant_id, id, app_id, url, description, events, secret) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${ENDPOINT_COLUMNS}`,
      [e.tenantId, e.id, e.appId, e.url, e.description, e.events, e.secret],
    )
    return rows[0]
  }

  async countEndpoints(m: EntityManager, tenantId: string, appId: string): Promise<number> {
    const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE tenant_id = $1 AND app_id = $2`, [tenantId, appId])
    return n
  }

  async endpoints(m: EntityManager, tenantId: string, appId: string): Promise<EndpointRow[]> {
    return m.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND app_id = $2 ORDER BY created_at, id`, [tenantId, appId])
  }

  async endpoint(m: EntityManager, tenantId: string, id: string, opts: { lock?: boolean } = {}): Promise<EndpointRow | null> {
    const rows = await m.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 ${opts.lock ? 'FOR UPDATE' : ''}`, [tenantId, id])
    return rows[0] ?? null
  }

  async updateEndpoint(
    m: EntityManager,
    tenantId: string,
    id: string,
    u: { url?: string; description?: string | null; events?: string[]; enabled?: boolean },
  ): Promise<EndpointRow | null> {
    const [rows] = await m.query(
      `UPDATE webhook_endpoints SET
          url = COALESCE($3, url),
          description = CASE WHEN $4::boolean THEN $5 ELSE description END,
          events = COALESCE($6, events),
          enabled = COALESCE($7, enabled),
          disabled_reason = CASE WHEN $7::boolean IS NULL THEN disabled_reason ELSE NULL END,
          updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      [tenantId, id, u.url ?? null, u.description !== undefined, u.description ?? null, u.events ?? null, u.enabled ?? null],
    )
    return rows[0] ?? null
  }

  /** The new secret becomes current; the current one stays valid until `previousUntil`. */
  async rotateSecret(m: EntityManager, tenantId: string, id: string, secret: string, graceSeconds: number): Promise<EndpointRow | null> {
    // The grace period or none, chosen here rather than by a CASE around now() in the statement, which a sharded
    // database (Citus) refuses.
    const previous = graceSeconds > 0 ? `previous_secret = secret, previous_secret_until = now() + make_interval(secs => $4)` : `previous_secret = NULL, previous_secret_until = NULL`
    const [rows] = await m.query(
      `UPDATE webhook_endpoints SET ${previous}, secret = $3, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
      graceSeconds > 0 ? [tenantId, id, secret, graceSeconds] : [tenantId, id, secret],
    )
    return rows[0] ?? null
  }

  async deleteEndpoint(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const [, n] = await m.query(`DELETE FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2`, [tenantId, id])
    return n > 0
  }

  // ---- deliveries ----

  /** A test delivery to one endpoint, for the caller to claim (due in a minute otherwise). */
  async insertTest(m: EntityManager, tenantId: string, endpointId: string, payload: WebhookPayload): Promise<string> {
    const rows = await m.query(
      `INSERT INTO webhook_deliveries (tenant_id, id, endpoint_id, event_id, event, payload, test, next_attempt_at)
       VALUES ($1, gen_random_uuid(), $2, $3, $4, $5::jsonb, true, now() + interval '1 minute') RETURNING id`,
      [tenantId, endpointId, payload.id, payload.type, JSON.stringify(payload)],
    )
    return rows[0].id
  }

  /**
   * Takes up to `limit` due deliveries of enabled endpoints for an attempt: one more attempt each, and not due again
   * for `leaseSeconds` (a dispatcher that dies mid-send leaves them to be retried then). SKIP LOCKED: dispatchers side
   * by side take different rows. `only` takes that one delivery if it is pending and not being attempted, due or not
   * (a test delivery and a redelivery are inserted, or reset, not yet due, so that only their caller takes them).
   */
  async claim(m: EntityManager, limit: number, leaseSeconds: number, only?: { tenantId: string; id: string }): Promise<ClaimedDelivery[]> {
    if (only) return this.claimIn(m, only.tenantId, 1, leaseSeconds, only.id)
    // The tenants with due deliveries, earliest due first; then each tenant's claim. A row lock names one tenant: in a
    // sharded database (Citus) a FOR UPDATE must stay on one node, so the claim cannot span tenants in one statement.
    const tenants: { tenant_id: string }[] = await m.query(
      `SELECT d2.tenant_id FROM webhook_deliveries d2
         JOIN webhook_endpoints w2 ON w2.tenant_id = d2.tenant_id AND w2.id = d2.endpoint_id AND w2.enabled
        WHERE d2.status = 'pending' AND d2.next_attempt_at <= now()
        GROUP BY d2.tenant_id ORDER BY min(d2.next_attempt_at) LIMIT $1`,
      [limit],
    )
    const out: ClaimedDelivery[] = []
    for (const { tenant_id } of tenants) {
      if (out.length >= limit) break
      out.push(...(await this.claimIn(m, tenant_id, limit - out.length, leaseSeconds)))
    }
    return out
  }

  /** `claim` within one tenant: its due deliveries (or the one delivery `id`, due or not). */
  private async claimIn(m: EntityManager, tenantId: string, limit: number, leaseSeconds: number, id?: string): Promise<ClaimedDelivery[]> {
    const filter = id ? `d2.id = $4::uuid` : `d2.next_attempt_at <= now()`
    const [rows] = await m.query(
      `UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
         FROM (SELECT d2.tenant_id, d2.id FROM webhook_deliveries d2
                 JOIN webhook_endpoints w2 ON w2.tenant_id = d2.tenant_id AND w2.id = d2.endpoint_id AND w2.enabled
                WHERE d2.tenant_id = $3 AND w2.tenant_id = $3 AND d2.status = 'pending' AND ${filter}
                ORDER BY d2.next_attempt_at LIMIT $1 FOR UPDATE OF d2 SKIP LOCKED) c,
              webhook_endpoints w
        WHERE d.tenant_id = $3 AND w.tenant_id = $3 AND d.tenant_id = c.tenant_id AND d.id = c.id AND w.id = d.endpoint_id
        RETURNING ${DELIVERY_COLUMNS}, w.url, w.secret, w.previous_secret, w.previous_secret_until`,
      id ? [limit, leaseSeconds, tenantId, id] : [limit, leaseSeconds, tenantId],
    )
    return rows
  }

  /**
   * Logs attempt number `attempt` and settles the delivery accordingly, unless it was claimed again meanwhile (its
   * lease ran out): then only the log entry is kept.
   */
  async recordAttempt(
    m: EntityManager,
    d: { tenantId: string; id: string; endpointId: string; attempt: number },
    r: { durationMs: number; statusCode: number | null; error: string | null },
    outcome: AttemptOutcome,
  ): Promise<void> {
    const error = r.error?.slice(0, ERROR_CHARS) ?? null
    await m.query(
      `INSERT INTO webhook_attempts (tenant_id, delivery_id, attempt, duration_ms, status_code, error) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [d.tenantId, d.id, d.attempt, Math.round(r.durationMs), r.statusCode, error],
    )
    const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'failed' ? 'failed' : 'pending'
    const afterMs = outcome.kind === 'retry' ? outcome.afterMs : null
    // Due again later, or finished now: chosen here rather than by a CASE around now() in the statement, which a
    // sharded database (Citus) refuses.
    const when = status === 'pending' ? `next_attempt_at = now() + make_interval(secs => $7::double precision / 1000), finished_at = NULL` : `next_attempt_at = NULL, finished_at = now()`
    await m.query(
      `UPDATE webhook_deliveries SET status = $4, last_status_code = $5, last_error = $6, ${when}
        WHERE tenant_id = $1 AND id = $2 AND attempts = $3 AND status = 'pending'`,
      status === 'pending' ? [d.tenantId, d.id, d.attempt, status, r.statusCode, error, afterMs] : [d.tenantId, d.id, d.attempt, status, r.statusCode, error],
    )
    if (outcome.kind === 'failed' && outcome.disableEndpoint) {
      await m.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2`, [
        d.tenantId,
        d.endpointId,
        outcome.disableEndpoint,
      ])
    }
  }

  /** An endpoint's deliveries, newest first, paged by `seq` (`beforeSeq` 0: from the newest). */
  async deliveries(
    m: EntityManager,
    tenantId: string,
    endpointId: string,
    opts: { status?: DeliveryStatus; beforeSeq: number; limit: number },
  ): Promise<DeliveryRow[]> {
    return m.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
        WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND ($3::text IS NULL OR d.status = $3) AND ($4::bigint = 0 OR d.seq < $4)
        ORDER BY d.seq DESC LIMIT $5`,
      [tenantId, endpointId, opts.status ?? null, opts.beforeSeq, opts.limit],
    )
  }

  async delivery(m: EntityManager, tenantId: string, id: string): Promise<DeliveryRow | null> {
    const rows = await m.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.tenant_id = $1 AND d.id = $2::uuid`, [tenantId, id])
    return rows[0] ?? null
  }

  /** The attempts of these deliveries, oldest first. */
  async attempts(m: EntityManager, tenantId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    if (!deliveryIds.length) return []
    return m.query(
      `SELECT delivery_id, attempt, at, duration_ms, status_code, error FROM webhook_attempts
        WHERE tenant_id = $1 AND delivery_id = ANY ($2::uuid[]) ORDER BY delivery_id, attempt`,
      [tenantId, deliveryIds],
    )
  }

  /**
   * A finished delivery pending again, for the caller to claim (due in a minute otherwise); its remaining attempts
   * follow the schedule from where it stopped.
   */
  async redeliver(m: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const [, n] = await m.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() + interval '1 minute', finished_at = NULL
        WHERE tenant_id = $1 AND id = $2::uuid AND status <> 'pending'`,
      [tenantId, id],
    )
    return n > 0
  }

  /** Removes finished deliveries (and their attempts) older than the log keeps them. */
  async prune(m: EntityManager, keepDays: number): Promise<number> {
    const [, n] = await m.query(
      `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < now() - make_interval(days => $1)`,
      [keepDays],
    )
    return Number(n ?? 0)
  }
}

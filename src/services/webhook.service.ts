import type { DataSource, EntityManager } from 'typeorm'
import { TenantRepository } from '../db/tenant.repository.js'
import {
  WebhookRepository,
  type AttemptRow,
  type DeliveryRow,
  type DeliveryStatus,
  type EndpointRow,
} from '../db/webhook.repository.js'
import { DomainError, invalid } from '../domain/errors.js'
import { newId } from '../domain/keys.js'
import {
  checkDescription,
  checkEvents,
  MAX_ENDPOINTS_PER_APP,
  newEventId,
  newWebhookSecret,
  TEST_EVENT,
  type WebhookEvent,
} from '../domain/webhooks.js'
import type { WebhookDeliverer } from './webhooks/dispatcher.js'
import type { SecretBox } from './webhooks/secrets.js'
import type { UrlPolicy } from './webhooks/url-policy.js'
import { isoTimeOrNull as iso } from '../domain/time.js'

/** An endpoint as its owner sees it: never its secrets (a secret is shown once, when created or rotated). */
export interface WebhookEndpoint {
  id: string
  appId: string
  url: string
  description: string | null
  events: WebhookEvent[]
  enabled: boolean
  /** Why the endpoint was disabled by the system (a 410 Gone), if it was. */
  disabledReason: string | null
  /** Until when the secret replaced by the last rotation still signs deliveries (null: none does). */
  previousSecretExpiresAt: string | null
  createdAt: string
  updatedAt: string
}

export interface WebhookAttempt {
  attempt: number
  at: string
  durationMs: number
  statusCode: number | null
  error: string | null
}

export interface WebhookDelivery {
  id: string
  /** Opaque: pass as `before` for the next (older) page. */
  seq: number
  endpointId: string
  eventId: string
  event: string
  profileId: string | null
  test: boolean
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  finishedAt: string | null
  attemptLog: WebhookAttempt[]
}

export interface EndpointWithSecret {
  endpoint: WebhookEndpoint
  secret: string
}

/**
 * Webhook endpoints of an app and their delivery log (the dashboard's accounts manage them, as they manage apps; an app
 * key never does: docs/guides/webhooks.md). Deliveries themselves are written by the transactions that cause them
 * (src/db/unit-of-work.ts) and sent by the worker's dispatcher; a test delivery is sent from here at once.
 */
export class WebhookService {
  private readonly repo = new WebhookRepository()
  private readonly apps = new TenantRepository()

  constructor(
    private readonly ds: DataSource,
    private readonly policy: UrlPolicy,
    private readonly secrets: SecretBox,
    private readonly deliverer: WebhookDeliverer,
    private readonly opts: { graceSeconds: number },
  ) {}

  async endpoints(tenantId: string, appId: string): Promise<WebhookEndpoint[]> {
    return (await this.repo.endpoints(this.ds.manager, tenantId, appId)).map(toEndpoint)
  }

  async endpoint(tenantId: string, id: string): Promise<WebhookEndpoint> {
    return toEndpoint(await this.found(tenantId, id))
  }

  async create(
    tenantId: string,
    appId: string,
    input: { url: string; events: string[]; description?: string | null },
  ): Promise<EndpointWithSecret> {
    const events = checkEvents(input.events)
    const description = checkDescription(input.description)
    const url = (await this.policy.validate(input.url)).toString()
    const secret = newWebhookSecret()
    const row = await this.ds.transaction(async (manager) => {
      if (!(await this.apps.lockApp(manager, tenantId, appId, true)))
        throw new DomainError('APP_NOT_FOUND', `No app '${appId}'`)
      if ((await this.repo.countEndpoints(manager, tenantId, appId)) >= MAX_ENDPOINTS_PER_APP)
        throw invalid(`An app has at most ${MAX_ENDPOINTS_PER_APP} webhook endpoints`)
      return this.repo.insertEndpoint(manager, {
        tenantId,
        id: newId('whe'),
        appId,
        url,
        description,
        events,
        secret: this.secrets.seal(secret),
      })
    })
    return { endpoint: toEndpoint(row), secret }
  }

  /** Changes what is given; enabling an endpoint clears why it was disabled. */
  async update(
    tenantId: string,
    id: string,
    input: { url?: string | null; events?: string[] | null; description?: string | null; enabled?: boolean | null },
  ): Promise<WebhookEndpoint> {
    const url = input.url == null ? undefined : (await this.policy.validate(input.url)).toString()
    const events = input.events == null ? undefined : checkEvents(input.events)
    const description = input.description === undefined ? undefined : checkDescription(input.description)
    const row = await this.repo.updateEndpoint(this.ds.manager, tenantId, id, {
      url,
      events,
      description,
      enabled: input.enabled ?? undefined,
    })
    if (!row) throw notFound(id)
    // Its pending deliveries are due again; no event tells the dispatchers.
    if (input.enabled) await this.deliverer.markDue(tenantId)
    return toEndpoint(row)
  }

  /** Deletes the endpoint with its deliveries (pending ones are not sent). */
  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.repo.deleteEndpoint(this.ds.manager, tenantId, id))) throw notFound(id)
  }

  /**
   * A new secret, shown only here; the replaced one keeps signing (a second v1 signature) for `graceSeconds`
   * (default: the configured grace period; 0 ends it at once).
   */
  async rotateSecret(tenantId: string, id: string, graceSeconds?: number | null): Promise<EndpointWithSecret> {
    const grace = graceSeconds ?? this.opts.graceSeconds
    if (!Number.isInteger(grace) || grace < 0 || grace > 7 * 24 * 3600)
      throw invalid('graceSeconds: an integer from 0 to 604800 (7 days)')
    const secret = newWebhookSecret()
    const row = await this.repo.rotateSecret(this.ds.manager, tenantId, id, this.secrets.seal(secret), grace)
    if (!row) throw notFound(id)
    return { endpoint: toEndpoint(row), secret }
  }

  /** Sends a `webhook.test` delivery to the endpoint now (once, no retries) and returns it with its outcome. */
  async sendTest(tenantId: string, id: string): Promise<WebhookDelivery> {
    const endpoint = await this.found(tenantId, id)
    if (!endpoint.enabled) throw invalid('The endpoint is disabled: enable it first')
    const at = new Date().toISOString()
    const deliveryId = await this.repo.insertTest(this.ds.manager, tenantId, id, {
      id: newEventId(),
      type: TEST_EVENT,
      created_at: at,
      data: { endpoint_id: id },
    })
    await this.deliverer.deliverNow(tenantId, deliveryId)
    return this.delivery(tenantId, deliveryId)
  }

  /** A finished delivery tried again now (same event id); its remaining attempts follow the schedule. */
  async redeliver(tenantId: string, deliveryId: string): Promise<WebhookDelivery> {
    checkUuid(deliveryId)
    if (!(await this.repo.redeliver(this.ds.manager, tenantId, deliveryId))) {
      await this.delivery(tenantId, deliveryId) // NOT_FOUND when it is not there
      throw invalid('The delivery is still pending: it is tried again by the schedule')
    }
    await this.deliverer.deliverNow(tenantId, deliveryId)
    return this.delivery(tenantId, deliveryId)
  }

  async delivery(tenantId: string, id: string): Promise<WebhookDelivery> {
    checkUuid(id)
    const found = await this.snapshot(async (manager) => {
      const row = await this.repo.delivery(manager, tenantId, id)
      return row ? this.withAttempts(manager, tenantId, [row]) : []
    })
    if (!found.length) throw new DomainError('NOT_FOUND', `No webhook delivery '${id}'`)
    return found[0]!
  }

  /** An endpoint's deliveries, newest first, each with its attempts; `before`: the `seq` of the last one seen. */
  async deliveries(
    tenantId: string,
    endpointId: string,
    opts: { status?: DeliveryStatus; before?: number; limit: number },
  ): Promise<WebhookDelivery[]> {
    await this.found(tenantId, endpointId)
    return this.snapshot(async (manager) => {
      const rows = await this.repo.deliveries(manager, tenantId, endpointId, {
        status: opts.status,
        beforeSeq: opts.before ?? 0,
        limit: opts.limit,
      })
      return this.withAttempts(manager, tenantId, rows)
    })
  }

  /** Deliveries and their attempts as of one moment (a dispatcher may record an attempt between the two reads). */
  private snapshot<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction('REPEATABLE READ', fn)
  }

  private async withAttempts(
    manager: EntityManager,
    tenantId: string,
    rows: DeliveryRow[],
  ): Promise<WebhookDelivery[]> {
    const attempts = await this.repo.attempts(
      manager,
      tenantId,
      rows.map((r) => r.id),
    )
    const by = new Map<string, AttemptRow[]>()
    for (const attempt of attempts) by.set(attempt.delivery_id, [...(by.get(attempt.delivery_id) ?? []), attempt])
    return rows.map((r) => toDelivery(r, by.get(r.id) ?? []))
  }

  private async found(tenantId: string, id: string): Promise<EndpointRow> {
    const row = await this.repo.endpoint(this.ds.manager, tenantId, id)
    if (!row) throw notFound(id)
    return row
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
function checkUuid(id: string) {
  if (!UUID_RE.test(id)) throw new DomainError('NOT_FOUND', `No webhook delivery '${String(id).slice(0, 60)}'`)
}

const notFound = (id: string) =>
  new DomainError('WEBHOOK_NOT_FOUND', `No webhook endpoint '${String(id).slice(0, 60)}'`)

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  const until =
    row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until).getTime() > Date.now()
      ? iso(row.previous_secret_until)
      : null
  return {
    id: row.id,
    appId: row.app_id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: until,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  }
}

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    seq: Number(row.seq),
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event,
    profileId: row.profile_id,
    test: row.test,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: iso(row.created_at)!,
    finishedAt: iso(row.finished_at),
    attemptLog: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      at: iso(attempt.at)!,
      durationMs: attempt.duration_ms,
      statusCode: attempt.status_code,
      error: attempt.error,
    })),
  }
}

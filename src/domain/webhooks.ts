import crypto from 'node:crypto'
import { invalid } from './errors.js'
import { checkStorable } from './validation.js'

/** The events an endpoint may subscribe to. `webhook.test` is sent only by a test delivery. */
export const WEBHOOK_EVENTS = ['profile.ready', 'profile.deleted', 'submission.failed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
export const TEST_EVENT = 'webhook.test'

/** What a delivery's body carries: ids, the event, its time and a status. Receivers re-read the rest. */
export interface WebhookPayload {
  id: string
  type: WebhookEvent | typeof TEST_EVENT
  created_at: string
  data: { profile_id?: string; submission_id?: string; status?: string; endpoint_id?: string }
}

/** An event of a transaction, before it is fanned out to the endpoints that take it. */
export interface OutboxEvent {
  tenantId: string
  eventId: string
  event: WebhookEvent
  profileId: string
  at: string
  data: WebhookPayload['data']
}

export const newEventId = () => `evt_${crypto.randomUUID().replaceAll('-', '')}`

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export const newWebhookSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`

export const SIGNATURE_HEADER = 'Profiler-Signature'

/**
 * The signature header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each v1 the HMAC-SHA256, keyed with a live secret
 * (as a UTF-8 string), of `<t>.<raw body>`. Two v1 values while a rotated-out secret is still in its grace period.
 */
export function signatureHeader(secrets: string[], body: string, unixSeconds: number): string {
  const signed = `${unixSeconds}.${body}`
  return [
    `t=${unixSeconds}`,
    ...secrets.map((secret) => `v1=${crypto.createHmac('sha256', secret).update(signed).digest('hex')}`),
  ].join(',')
}

/**
 * The delay before the next attempt after `attempts` failed ones: base x 2^(attempts-1), doubling up to 512 x base,
 * with +-10 % jitter (`random` in [0, 1)). With the default base of 30 s and 16 attempts the schedule spans about 29.9
 * h (26.9 h at the least): 30 s, 1, 2, 4, 8, 16, 32 min, 1.1, 2.1 h, then 4.3 h six times.
 */
export function webhookRetryDelayMs(attempts: number, baseMs: number, random = Math.random()): number {
  const exp = Math.min(Math.max(attempts, 1) - 1, 9)
  return Math.round(baseMs * 2 ** exp * (0.9 + 0.2 * random))
}

/** The whole schedule's span without jitter: what docs/guides/webhooks.md documents. */
export function webhookScheduleMs(maxAttempts: number, baseMs: number): number {
  let total = 0
  for (let attempt = 1; attempt < maxAttempts; attempt++) total += webhookRetryDelayMs(attempt, baseMs, 0.5)
  return total
}

export const MAX_URL_CHARS = 2048
export const MAX_DESCRIPTION_CHARS = 200
export const MAX_ENDPOINTS_PER_APP = 10

/** A list of events to subscribe to: at least one, known, without repeats. */
export function checkEvents(events: readonly string[]): WebhookEvent[] {
  if (!events.length) throw invalid('events: subscribe to at least one event')
  for (const event of events) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(event))
      throw invalid(`events: unknown event '${String(event).slice(0, 40)}' (one of ${WEBHOOK_EVENTS.join(', ')})`)
  }
  return [...new Set(events)] as WebhookEvent[]
}

export function checkDescription(description: string | null | undefined): string | null {
  if (description == null || description === '') return null
  if (description.length > MAX_DESCRIPTION_CHARS)
    throw invalid(`description: at most ${MAX_DESCRIPTION_CHARS} characters`)
  return checkStorable(description, 'description')
}

// Errors every AI provider may raise, so that code outside ai/ can react to them without knowing the provider.
import { DomainError } from '../domain/errors.js'

/** Calls are refused at once: the provider is failing and its circuit breaker is open (or its one probe is out). */
export class LlmUnavailableError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`The AI provider is unavailable (circuit open after repeated failures); next try in ${Math.ceil(retryAfterMs / 1000)} s`)
    this.name = 'LlmUnavailableError'
  }
}

/** Why a provider refuses every request until an operator acts: the key, its permissions, the model or URL, billing. */
export type LlmMisconfiguration = 'unauthorized' | 'forbidden' | 'not_found' | 'quota'

/**
 * The provider refuses requests in a way no retry fixes (401, 403, 404, quota exhausted): processing pauses, with
 * `hint` naming what to check, and resumes by itself once a probe is answered. Like LlmUnavailableError, not the
 * submissions' fault: they wait `retryAfterMs` without using an attempt.
 */
export class LlmMisconfiguredError extends Error {
  constructor(
    readonly reason: LlmMisconfiguration,
    /** The provider's HTTP status (401, 403, 404, 429). */
    readonly status: number,
    /** The provider's own message. */
    readonly providerMessage: string,
    readonly hint: string,
    readonly retryAfterMs: number,
  ) {
    super(`The AI provider refuses requests: ${status} ${providerMessage.slice(0, 300)}: ${hint}. Processing is paused; next try in ${Math.ceil(retryAfterMs / 1000)} s`)
    this.name = 'LlmMisconfiguredError'
  }
}

/** The provider asked to wait longer than is worth waiting inside a request: the work waits `retryAfterMs`, no attempt used. */
export class LlmRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`The AI provider is rate limiting; it asked to wait ${Math.ceil(retryAfterMs / 1000)} s before the next request`)
    this.name = 'LlmRateLimitedError'
  }
}

/** The AI provider as this process last saw it (GET /readyz, metrics). */
export interface AiProviderStatus {
  provider: string
  /** ok; misconfigured (paused until an operator fixes it, probed now and then); unavailable (an outage: circuit open). */
  state: 'ok' | 'misconfigured' | 'unavailable'
  /** When the current pause began (ISO 8601). */
  since?: string
  reason?: LlmMisconfiguration
  /** The provider's status and message, and what to check. */
  detail?: string
}

/**
 * A request that needed the AI provider while it is paused, in an outage or rate limited (a search by query, say):
 * a 503 the client may retry, without the operator's details; the provider's state is logged once and in /readyz.
 */
export function aiUnavailable(err: unknown): DomainError | undefined {
  if (!(err instanceof LlmUnavailableError || err instanceof LlmMisconfiguredError || err instanceof LlmRateLimitedError)) return undefined
  return new DomainError('AI_UNAVAILABLE', `The AI provider is unavailable; retry in ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s or later`)
}

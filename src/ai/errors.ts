// Errors every AI provider may raise, so that code outside ai/ can react to them without knowing the provider.
import { DomainError } from '../domain/errors.js'
import type { AiProviderStatus, LlmMisconfiguration, UnfitSubmission, Usage } from './types.js'

export type { AiProviderStatus, LlmMisconfiguration, UnfitSubmission }

/** Calls are refused at once: the provider is failing and its circuit breaker is open (or its one probe is out). */
export class LlmUnavailableError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(
      'The AI provider is unavailable (circuit open after repeated failures); ' +
        `next try in ${Math.ceil(retryAfterMs / 1000)} s`,
    )
    this.name = 'LlmUnavailableError'
  }
}

/**
 * Submissions that cannot be extracted by the configured model as they are, whatever the retries: too long for its
 * context window even alone, or an answer longer than its output cap even alone. The worker fails them at once (no
 * retry: the same request would fail the same way), with the error naming the sizes and the setting involved.
 */
export class SubmissionsUnfitError extends Error {
  constructor(
    readonly submissions: UnfitSubmission[],
    readonly usage?: Usage,
  ) {
    super(
      submissions.length === 1
        ? submissions[0]!.error
        : `${submissions.length} submissions cannot be extracted by the model: ${submissions[0]?.error ?? ''}`,
    )
    this.name = 'SubmissionsUnfitError'
  }
}

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
    super(
      `The AI provider refuses requests: ${status} ${providerMessage.slice(0, 300)}: ${hint}. ` +
        `Processing is paused; next try in ${Math.ceil(retryAfterMs / 1000)} s`,
    )
    this.name = 'LlmMisconfiguredError'
  }
}

/**
 * The provider asked to wait longer than is worth waiting inside a request: the work waits `retryAfterMs`, no attempt
 * used.
 */
export class LlmRateLimitedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(
      `The AI provider is rate limiting; it asked to wait ${Math.ceil(retryAfterMs / 1000)} s before the next request`,
    )
    this.name = 'LlmRateLimitedError'
  }
}

/**
 * A request that needed the AI provider while it is paused, in an outage or rate limited (a search by query, say):
 * a 503 the client may retry, without the operator's details; the provider's state is logged once and in /readyz.
 */
export function aiUnavailable(err: unknown): DomainError | undefined {
  if (
    !(err instanceof LlmUnavailableError || err instanceof LlmMisconfiguredError || err instanceof LlmRateLimitedError)
  )
    return undefined
  return new DomainError(
    'AI_UNAVAILABLE',
    `The AI provider is unavailable; retry in ${Math.max(1, Math.ceil(err.retryAfterMs / 1000))} s or later`,
  )
}

// Errors every AI provider may raise, so that code outside ai/ can react to them without knowing the provider.
import type { UnfitSubmission, Usage } from './types.js'

export type { UnfitSubmission }

/** Calls are refused at once: the provider is failing and its circuit breaker is open (or its one probe is out). */
export class LlmUnavailableError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`The AI provider is unavailable (circuit open after repeated failures); next try in ${Math.ceil(retryAfterMs / 1000)} s`)
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
    super(submissions.length === 1 ? submissions[0]!.error : `${submissions.length} submissions cannot be extracted by the model: ${submissions[0]?.error ?? ''}`)
    this.name = 'SubmissionsUnfitError'
  }
}

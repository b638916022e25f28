// Errors every AI provider may raise, so that code outside ai/ can react to them without knowing the provider.

/** Calls are refused at once: the provider is failing and its circuit breaker is open (or its one probe is out). */
export class LlmUnavailableError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`The AI provider is unavailable (circuit open after repeated failures); next try in ${Math.ceil(retryAfterMs / 1000)} s`)
    this.name = 'LlmUnavailableError'
  }
}

import { LlmUnavailableError } from '../errors.js'

export interface BreakerOptions {
  /** Consecutive outage failures that open the circuit. */
  failures: number
  /** First wait before a probe; doubles after each failed probe, up to maxCooldownMs. */
  cooldownMs: number
  maxCooldownMs: number
  now?: () => number
}

/**
 * A circuit breaker per provider: after `failures` consecutive outage-like failures (no connection, timeouts, 5xx,
 * 429) calls fail fast without a request; after a cool-down one call at a time goes through as a probe; its success
 * closes the circuit, its failure opens it again for twice as long. Answers that are not outages (a 4xx, bad output)
 * show the provider is up and reset the count.
 */
export class CircuitBreaker {
  private consecutive = 0
  private openUntil = 0
  private cooldown: number
  private probing = false
  private readonly now: () => number

  constructor(private readonly opts: BreakerOptions) {
    this.cooldown = opts.cooldownMs
    this.now = opts.now ?? Date.now
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.consecutive < this.opts.failures) return 'closed'
    return this.now() < this.openUntil ? 'open' : 'half-open'
  }

  /** Before a request: returns whether it is the probe; throws LlmUnavailableError when no request may go. */
  admit(): { probe: boolean } {
    const state = this.state
    if (state === 'closed') return { probe: false }
    if (state === 'open' || this.probing)
      throw new LlmUnavailableError(Math.max(this.openUntil - this.now(), this.opts.cooldownMs / 2))
    this.probing = true
    return { probe: true }
  }

  succeeded(probe: boolean) {
    if (probe) this.probing = false
    this.consecutive = 0
    this.cooldown = this.opts.cooldownMs
  }

  /** An outage-like failure. */
  failed(probe: boolean) {
    if (probe) {
      this.probing = false
      this.cooldown = Math.min(this.cooldown * 2, this.opts.maxCooldownMs)
    }
    this.consecutive++
    if (this.consecutive >= this.opts.failures) this.openUntil = this.now() + this.cooldown
  }

  /** A call that ended without telling anything about the provider (aborted by us). */
  released(probe: boolean) {
    if (probe) this.probing = false
  }
}

import { LlmMisconfiguredError, type LlmMisconfiguration } from '../errors.js'

export type Endpoint = 'chat' | 'embeddings'

/** A refusal no retry fixes, as the client classified it. */
export interface Misconfiguration {
  reason: LlmMisconfiguration
  status: number
  /** The provider's message. */
  message: string
  /** What to check (a setting to fix, billing). */
  hint: string
  /** What it stops: everything (the key, its permissions, billing, the base URL), or one endpoint's model. */
  scope: 'all' | Endpoint
}

export interface Pause extends Misconfiguration {
  since: Date
}

export interface PauseOptions {
  /** Wait before the first probe; doubles after each refused probe, up to maxCooldownMs. */
  cooldownMs: number
  maxCooldownMs: number
  now?: () => number
  /** A pause began (or its cause changed): reported once. */
  onPause?(p: Pause): void
  /** A probe was refused again; the next one goes in `nextInMs`. */
  onProbeRefused?(p: Pause, nextInMs: number): void
  /** A probe was answered: processing resumes. */
  onResume?(p: Pause): void
}

/**
 * The provider refuses every request until an operator acts (a wrong key, model or URL; no quota left): requests it
 * blocks fail at once with LlmMisconfiguredError, and after a cool-down (doubling up to a bound) one request at a
 * time goes out as a probe; the first probe answered otherwise resumes everything. A pause of the embedding model also
 * holds chat requests (a batch needs both, and its chat request would be spent for nothing); the probe is then an
 * embeddings request the client sends itself.
 */
export class ProviderPause {
  private cur?: Pause & { until: number; cooldown: number; probing: boolean }
  private readonly now: () => number

  constructor(private readonly opts: PauseOptions) {
    this.now = opts.now ?? Date.now
  }

  get current(): Pause | undefined {
    if (!this.cur) return undefined
    const { until: _u, cooldown: _c, probing: _p, ...p } = this.cur
    return p
  }

  private blocks(endpoint: Endpoint): boolean {
    const s = this.cur?.scope
    return s !== undefined && (s === 'all' || s === endpoint || endpoint === 'chat')
  }

  /**
   * Before a request to `endpoint`: nothing when it may go as usual; `probe` (the endpoint to probe: this one, or
   * embeddings for a chat request held by a paused embedding model) when it is the one probe; throws while paused.
   */
  admit(endpoint: Endpoint): { probe?: Endpoint } {
    const p = this.cur
    if (!p || !this.blocks(endpoint)) return {}
    const now = this.now()
    if (p.probing || now < p.until) throw this.error(p, Math.max(p.until - now, p.probing ? p.cooldown : 0))
    p.probing = true
    return { probe: p.scope === 'all' ? endpoint : p.scope }
  }

  /** The provider refused a request so; returns the error to throw. */
  refused(m: Misconfiguration, probe: boolean): LlmMisconfiguredError {
    const now = this.now()
    const p = this.cur
    const same = p && p.reason === m.reason && p.scope === m.scope && p.status === m.status
    if (!p || (!same && (probe || m.scope === 'all' || p.scope !== 'all'))) {
      // A new pause, or one with another cause (the key fixed, the model still wrong): reported.
      this.cur = {
        ...m,
        since: new Date(now),
        until: now + this.opts.cooldownMs,
        cooldown: this.opts.cooldownMs,
        probing: false,
      }
      this.opts.onPause?.(this.current!)
      return this.error(this.cur, this.opts.cooldownMs)
    }
    if (probe) {
      p.probing = false
      p.cooldown = Math.min(p.cooldown * 2, this.opts.maxCooldownMs)
      p.until = now + p.cooldown
      this.opts.onProbeRefused?.(this.current!, p.cooldown)
    }
    // Otherwise a request sent before the pause began, refused like the one that began it: nothing new.
    return this.error(p, Math.max(p.until - now, 0))
  }

  /** The probe was answered otherwise (a success, or an error about the request itself): the provider serves again. */
  answered(probe: boolean): void {
    if (!probe || !this.cur) return
    const p = this.current!
    this.cur = undefined
    this.opts.onResume?.(p)
  }

  /** The probe told nothing (aborted by its caller; an outage, which the breaker handles): another may go `afterMs` on. */
  released(probe: boolean, afterMs = 0): void {
    if (!probe || !this.cur) return
    this.cur.probing = false
    this.cur.until = Math.max(this.cur.until, this.now() + afterMs)
  }

  private error(p: Misconfiguration, retryAfterMs: number): LlmMisconfiguredError {
    return new LlmMisconfiguredError(p.reason, p.status, p.message, p.hint, Math.max(retryAfterMs, 1))
  }
}

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
  onPause?(pause: Pause): void
  /** A probe was refused again; the next one goes in `nextInMs`. */
  onProbeRefused?(pause: Pause, nextInMs: number): void
  /** A probe was answered: processing resumes. */
  onResume?(pause: Pause): void
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
    const scope = this.cur?.scope
    return scope !== undefined && (scope === 'all' || scope === endpoint || endpoint === 'chat')
  }

  /**
   * Before a request to `endpoint`: nothing when it may go as usual; `probe` (the endpoint to probe: this one, or
   * embeddings for a chat request held by a paused embedding model) when it is the one probe; throws while paused.
   */
  admit(endpoint: Endpoint): { probe?: Endpoint } {
    const pause = this.cur
    if (!pause || !this.blocks(endpoint)) return {}
    const now = this.now()
    if (pause.probing || now < pause.until)
      throw this.error(pause, Math.max(pause.until - now, pause.probing ? pause.cooldown : 0))
    pause.probing = true
    return { probe: pause.scope === 'all' ? endpoint : pause.scope }
  }

  /** The provider refused a request so; returns the error to throw. */
  refused(misconfiguration: Misconfiguration, probe: boolean): LlmMisconfiguredError {
    const now = this.now()
    const pause = this.cur
    const same =
      pause &&
      pause.reason === misconfiguration.reason &&
      pause.scope === misconfiguration.scope &&
      pause.status === misconfiguration.status
    if (!pause || (!same && (probe || misconfiguration.scope === 'all' || pause.scope !== 'all'))) {
      // A new pause, or one with another cause (the key fixed, the model still wrong): reported.
      this.cur = {
        ...misconfiguration,
        since: new Date(now),
        until: now + this.opts.cooldownMs,
        cooldown: this.opts.cooldownMs,
        probing: false,
      }
      this.opts.onPause?.(this.current!)
      return this.error(this.cur, this.opts.cooldownMs)
    }
    if (probe) {
      pause.probing = false
      pause.cooldown = Math.min(pause.cooldown * 2, this.opts.maxCooldownMs)
      pause.until = now + pause.cooldown
      this.opts.onProbeRefused?.(this.current!, pause.cooldown)
    }
    // Otherwise a request sent before the pause began, refused like the one that began it: nothing new.
    return this.error(pause, Math.max(pause.until - now, 0))
  }

  /** The probe was answered otherwise (a success, or an error about the request itself): the provider serves again. */
  answered(probe: boolean): void {
    if (!probe || !this.cur) return
    const pause = this.current!
    this.cur = undefined
    this.opts.onResume?.(pause)
  }

  /**
   * The probe told nothing (aborted by its caller; an outage, which the breaker handles): another may go `afterMs` on.
   */
  released(probe: boolean, afterMs = 0): void {
    if (!probe || !this.cur) return
    this.cur.probing = false
    this.cur.until = Math.max(this.cur.until, this.now() + afterMs)
  }

  private error(misconfiguration: Misconfiguration, retryAfterMs: number): LlmMisconfiguredError {
    return new LlmMisconfiguredError(
      misconfiguration.reason,
      misconfiguration.status,
      misconfiguration.message,
      misconfiguration.hint,
      Math.max(retryAfterMs, 1),
    )
  }
}

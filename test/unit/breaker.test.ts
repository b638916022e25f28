// The provider's circuit breaker as a pure state machine, with an injected clock.
import { describe, expect, it } from 'vitest'
import { LlmUnavailableError } from '../../src/ai/errors.js'
import { CircuitBreaker } from '../../src/ai/openai/breaker.js'

describe('CircuitBreaker', () => {
  it('opens after N consecutive outage failures, fails fast, then lets one probe through at a time', () => {
    let now = 0
    const b = new CircuitBreaker({ failures: 3, cooldownMs: 1000, maxCooldownMs: 4000, now: () => now })
    for (let i = 0; i < 3; i++) {
      expect(b.admit()).toEqual({ probe: false })
      b.failed(false)
    }
    expect(b.state).toBe('open')
    expect(() => b.admit()).toThrow(LlmUnavailableError)
    now = 999
    expect(() => b.admit()).toThrow(LlmUnavailableError)
    now = 1000
    expect(b.state).toBe('half-open')
    expect(b.admit()).toEqual({ probe: true })
    // While the probe is out, everyone else still fails fast.
    expect(() => b.admit()).toThrow(LlmUnavailableError)
    b.succeeded(true)
    expect(b.state).toBe('closed')
    expect(b.admit()).toEqual({ probe: false })
  })

  it('a failed probe opens it again for twice as long, up to the cap; a success resets the cool-down', () => {
    let now = 0
    const b = new CircuitBreaker({ failures: 1, cooldownMs: 1000, maxCooldownMs: 3000, now: () => now })
    const isOpen = () => b.state === 'open'
    b.failed(false)
    const waits: number[] = []
    for (let i = 0; i < 4; i++) {
      const opened = now
      while (isOpen()) now += 100
      waits.push(now - opened)
      expect(b.admit().probe).toBe(true)
      b.failed(true)
    }
    expect(waits).toEqual([1000, 2000, 3000, 3000])
    while (isOpen()) now += 100
    b.succeeded(b.admit().probe)
    b.failed(false)
    const opened = now
    while (isOpen()) now += 100
    expect(now - opened).toBe(1000)
  })

  it('a non-outage answer resets the count; an aborted probe frees the probe slot', () => {
    let now = 0
    const b = new CircuitBreaker({ failures: 2, cooldownMs: 1000, maxCooldownMs: 1000, now: () => now })
    b.failed(false)
    b.succeeded(false) // a 4xx: the provider is up
    b.failed(false)
    expect(b.state).toBe('closed')
    b.failed(false)
    now = 1000
    expect(b.admit().probe).toBe(true)
    b.released(true)
    expect(b.admit().probe).toBe(true)
    const e = (() => {
      try {
        b.admit()
      } catch (err) {
        return err
      }
    })()
    expect(e).toBeInstanceOf(LlmUnavailableError)
    expect((e as LlmUnavailableError).retryAfterMs).toBeGreaterThan(0)
  })
})

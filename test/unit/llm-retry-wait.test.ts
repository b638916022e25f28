// How long the provider asked to wait, read from its answer's headers: Retry-After (seconds or an HTTP date),
// retry-after-ms, and OpenAI's x-ratelimit-reset-* durations (https://platform.openai.com/docs/guides/rate-limits).
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { misconfigurationKind, parseDurationMs, providerWaitMs } from '../../src/ai/openai/client.js'

const answer = (status: number, headers: Record<string, string>, error: object = {}) =>
  OpenAI.APIError.generate(status, { error }, undefined, new Headers(headers))

describe('parseDurationMs', () => {
  it('reads Go-style durations and bare seconds', () => {
    expect(parseDurationMs('1s')).toBe(1000)
    expect(parseDurationMs('6m0s')).toBe(360_000)
    expect(parseDurationMs('20ms')).toBe(20)
    expect(parseDurationMs('1h2m3.5s')).toBe(3_723_500)
    expect(parseDurationMs('0.5')).toBe(500)
    expect(parseDurationMs('soon')).toBeUndefined()
    expect(parseDurationMs('')).toBeUndefined()
  })
})

describe('providerWaitMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')
  it('prefers retry-after-ms, then Retry-After in seconds or as an HTTP date', () => {
    expect(providerWaitMs(answer(429, { 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500)
    expect(providerWaitMs(answer(429, { 'retry-after': '120' }), now)).toBe(120_000)
    expect(providerWaitMs(answer(503, { 'retry-after': 'Thu, 01 Jan 2026 00:02:00 GMT' }), now)).toBe(120_000)
  })
  it('else the reset of the exhausted limit, else the token limit', () => {
    const limits = { 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-reset-tokens': '6m0s' }
    expect(
      providerWaitMs(
        answer(429, { ...limits, 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '5000' }),
        now,
      ),
    ).toBe(2000)
    expect(
      providerWaitMs(
        answer(429, { ...limits, 'x-ratelimit-remaining-requests': '10', 'x-ratelimit-remaining-tokens': '0' }),
        now,
      ),
    ).toBe(360_000)
    expect(
      providerWaitMs(
        answer(429, { ...limits, 'x-ratelimit-remaining-requests': '10', 'x-ratelimit-remaining-tokens': '120' }),
        now,
      ),
    ).toBe(360_000)
    expect(providerWaitMs(answer(429, {}), now)).toBeUndefined()
    // OpenAI sends them on every answer: a 500 is no rate limit.
    expect(providerWaitMs(answer(500, limits), now)).toBeUndefined()
  })
})

describe('misconfigurationKind', () => {
  it('tells a wrong key, model, URL or quota from a rate limit', () => {
    expect(
      misconfigurationKind(answer(401, {}, { code: 'invalid_api_key', message: 'Incorrect API key provided' }))?.reason,
    ).toBe('unauthorized')
    expect(
      misconfigurationKind(answer(404, {}, { code: 'model_not_found', message: 'The model `x` does not exist' })),
    ).toMatchObject({ reason: 'not_found', model: true })
    expect(
      misconfigurationKind(answer(404, {}, { message: 'model "x" not found, try pulling it first' })),
    ).toMatchObject({ reason: 'not_found', model: true })
    expect(misconfigurationKind(answer(404, {}, { message: 'Invalid URL (POST /v1/chat/completion)' }))).toMatchObject({
      reason: 'not_found',
      model: false,
    })
    expect(
      misconfigurationKind(
        answer(
          429,
          {},
          { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota' },
        ),
      )?.reason,
    ).toBe('quota')
    expect(
      misconfigurationKind(
        answer(429, {}, { type: 'insufficient_quota', code: 'credit_balance_exhausted', message: 'No credits' }),
      )?.reason,
    ).toBe('quota')
    expect(
      misconfigurationKind(
        answer(429, {}, { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached' }),
      ),
    ).toBeUndefined()
    expect(misconfigurationKind(answer(400, {}, { message: 'Unsupported value: temperature' }))).toBeUndefined()
    expect(misconfigurationKind(new OpenAI.APIUserAbortError())).toBeUndefined()
  })
})

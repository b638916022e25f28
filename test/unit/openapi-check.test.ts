// The conformance checker of the REST session (test/support/openapi-check.ts) fails on what it is there to catch.
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/rest/openapi.js'
import { openApiChecker } from '../support/openapi-check.js'

const check = openApiChecker(JSON.parse(JSON.stringify(openApiDocument())))
const url = 'http://localhost/v1/profile/p1'
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1', ...headers },
  })
const profile = {
  profile_id: 'p1',
  tenant_id: 't1',
  status: 'ready',
  core_info: { name: { value: 'Anna', confidence: 0.9 } },
  interests: {},
  personality: { traits: [], mood_trends: {} },
  memories: [],
  preferences: { topics_to_avoid: [] },
  field_timestamps: {},
  update_log: [],
  last_updated: '2026-01-01T00:00:00Z',
  created_at: '2026-01-01T00:00:00Z',
}

describe('openApiChecker', () => {
  it('accepts a conforming response and names its operation', async () => {
    await expect(check('GET', url, json({ profile_id: 'p1', profile }))).resolves.toEqual({
      operationId: 'getProfile',
      status: 200,
    })
  })

  it('refuses an undeclared property, a wrong type, a missing field', async () => {
    await expect(check('GET', url, json({ profile_id: 'p1', profile: { ...profile, extra: 1 } }))).rejects.toThrow(
      /does not conform.*additional/,
    )
    await expect(
      check(
        'GET',
        url,
        json({ profile_id: 'p1', profile: { ...profile, core_info: { age: { value: 'old', confidence: 1 } } } }),
      ),
    ).rejects.toThrow(/does not conform/)
    const { tenant_id: _, ...without } = profile
    await expect(check('GET', url, json({ profile_id: 'p1', profile: without }))).rejects.toThrow(/tenant_id/)
  })

  it('refuses an undeclared status, header or media type, a missing request id, an unknown operation', async () => {
    await expect(check('GET', url, json({ error: 418, message: 'x' }, 418))).rejects.toThrow(/status not declared/)
    await expect(check('GET', url, json({ profile_id: 'p1', profile }, 200, { location: '/x' }))).rejects.toThrow(
      /header location sent but not declared/,
    )
    await expect(check('DELETE', url, json({ ok: true }))).rejects.toThrow(/status not declared/)
    await expect(check('GET', 'http://localhost/v1/export', json({ ok: true }))).rejects.toThrow(
      /Content-Type application\/json not declared/,
    )
    await expect(
      check(
        'GET',
        url,
        new Response(JSON.stringify({ profile_id: 'p1', profile }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    ).rejects.toThrow(/X-Request-Id/)
    await expect(check('PATCH', url, json({}))).rejects.toThrow(/no operation/)
  })
})

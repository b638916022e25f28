// The `openai` provider through an outage of the (real, local) OpenAI-compatible server: the circuit breaker keeps
// pending submissions from multiplying requests, they wait without using up attempts, one probe goes out at a time,
// and all of them are processed once the server is back. And the documented worst case of requests for one
// submission whose output is always unusable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type TestService } from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'
import { waitFor } from '../support/wait.js'

const MAX_RETRIES = 3
const OUTPUT_RETRIES = 2
const ATTEMPTS = 3
const BREAKER_FAILURES = 4

describe('LLM outage: circuit breaker', () => {
  let oa: OpenAIServer
  let svc: TestService
  beforeAll(async () => {
    oa = await startOpenAIServer()
    svc = await startService({
      env: openaiEnv(oa, {
        PROFILER_LLM_MAX_RETRIES: String(MAX_RETRIES),
        PROFILER_LLM_OUTPUT_RETRIES: String(OUTPUT_RETRIES),
        PROFILER_LLM_CONCURRENCY: '4',
        PROFILER_MAX_ATTEMPTS: String(ATTEMPTS),
        PROFILER_LLM_RETRY_BASE_MS: '50',
        PROFILER_LLM_BREAKER_FAILURES: String(BREAKER_FAILURES),
        PROFILER_LLM_BREAKER_COOLDOWN_MS: '400',
        PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS: '1600',
      }),
    })
  })
  afterAll(async () => {
    await svc?.close()
    await oa?.close()
  })

  const submissions = async (ids: string[]) => {
    const profiles = ids.map(
      (id) => `${id.replace(/-/g, '_')}: profile(id: "${id}") {
        status submissions(first: 5) { nodes { status attempts error } }
      }`,
    )
    const { body } = await gql(svc.url, svc.key, `{ ${profiles.join(' ')} }`)
    if (!body.data) throw new Error(JSON.stringify(body))
    return ids.map((id) => body.data[id.replace(/-/g, '_')])
  }

  it('an outage of any length: bounded requests, no submission failed or charged, all processed after', async () => {
    const api = client(svc.url, svc.key)
    const ids = Array.from({ length: 8 }, (_, i) => `out-${i}`)
    oa.faults.add({ status: 500, match: 'OUTAGE' }, 100_000)
    const before = oa.chatRequests().length
    for (const id of ids)
      expect((await api.post(id, { data: `OUTAGE I live in Oslo and I love chess (${id}).` })).status).toBe(202)
    // Let the outage last through several cool-downs (the breaker re-opens for 0.4, 0.8, 1.6, 1.6 ... s). Before it
    // opens, at most BREAKER_FAILURES failed requests plus those in flight with them (4 workers); then only probes.
    const preOpen = BREAKER_FAILURES + 4
    await waitFor(
      'the breaker to have probed three times (chat requests since the outage began)',
      () => oa.chatRequests().length - before,
      {
        until: (n) => n >= preOpen + 3,
        timeoutMs: 30_000,
      },
    )
    const during = oa.chatRequests().slice(before)
    // Without the breaker: 8 submissions x (1 + 3 retries) x 3 attempts = 96 requests, and the submissions failed.
    console.log(
      `outage: ${during.length} chat requests for ${ids.length} pending submissions before the server came back`,
    )
    expect(during.length).toBeLessThan(preOpen + 8)
    // One probe at a time, a cool-down apart.
    const probes = during.slice(-3)
    for (let i = 1; i < probes.length; i++) expect(probes[i]!.at - probes[i - 1]!.at).toBeGreaterThanOrEqual(300)
    const waiting = await submissions(ids)
    for (const p of waiting) {
      expect(p.status).toBe('PROCESSING')
      for (const s of p.submissions.nodes) {
        expect(s.status).not.toBe('FAILED')
        expect(s.attempts).toBeLessThan(ATTEMPTS)
      }
    }
    expect(
      waiting.flatMap((p) => p.submissions.nodes.map((s: any) => s.error)).some((e) => /circuit open/.test(e ?? '')),
    ).toBe(true)

    oa.faults.clear()
    for (const id of ids) {
      const p = await api.waitReady(id, 60_000)
      expect(p.core_info.location?.value).toBe('Oslo')
    }
    const after = await submissions(ids)
    for (const p of after) for (const s of p.submissions.nodes) expect(s).toMatchObject({ status: 'DONE', error: null })
  })

  it(`worst case, output never usable: ${ATTEMPTS} x (1 + ${OUTPUT_RETRIES} + ${MAX_RETRIES}) requests`, async () => {
    const api = client(svc.url, svc.key)
    // In every attempt: three 503s (each retried, using up the retry budget), then unusable answers (each asked again,
    // using up the output retries). Faults are served in the order queued.
    oa.faults.clear()
    const before = oa.chatRequests().length
    for (let a = 0; a < ATTEMPTS; a++) {
      oa.faults.add({ status: 503, match: 'WORST' }, MAX_RETRIES)
      oa.faults.add({ malformedJson: true, match: 'WORST' }, 1 + OUTPUT_RETRIES)
    }
    expect((await api.post('worst', { data: 'WORST I love chess.' })).status).toBe(202)
    const sub = await waitFor(
      'the submission of worst to fail',
      async () => (await submissions(['worst']))[0].submissions.nodes[0],
      {
        until: (s) => s.status === 'FAILED',
        timeoutMs: 60_000,
        everyMs: 100,
      },
    )
    expect(sub).toMatchObject({ status: 'FAILED', attempts: ATTEMPTS })
    const reqs = oa
      .chatRequests()
      .slice(before)
      .filter((r) => r.batch?.texts.some((t) => t.includes('WORST')))
    expect(reqs.length).toBe(ATTEMPTS * (1 + OUTPUT_RETRIES + MAX_RETRIES))
    expect(oa.faults.pending).toEqual([])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAiProviders } from '../../src/ai/index.js'
import type { Extractor } from '../../src/ai/types.js'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { client, startService, testConfig, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

// A batch that cannot finish is not retried for ever: past its time budget everything it runs is stopped and
// it counts as an attempt, failed at the last with a message naming the budget; and a submission whose every attempt
// ended with its process (killed mid-batch, each time) is failed at the next claim instead of being claimed again.

/** The real local extractor, except that a text containing HANG never finishes unless its request is aborted. */
function hangingExtractor(inner: Extractor, aborted: { n: number }): Extractor {
  return {
    name: 'hanging',
    async extract(req, signal) {
      if (req.submissions.some((s) => s.data.includes('HANG'))) {
        return new Promise((_, reject) =>
          signal?.addEventListener('abort', () => {
            aborted.n++
            reject(signal.reason)
          }),
        )
      }
      return inner.extract(req, signal)
    },
  }
}

const rows = (svc: TestService, profileId: string) =>
  svc.profiler.db.dataSource.query(
    `SELECT status, attempts, error FROM submissions WHERE profile_id = $1 ORDER BY seq`,
    [profileId],
  )

describe('a batch past its time budget', () => {
  let svc: TestService
  let api: Client
  const aborted = { n: 0 }
  let local: ReturnType<typeof createAiProviders>
  beforeAll(async () => {
    local = createAiProviders(loadConfig({}))
    // The extraction thread loads its models first, outside any batch's budget (a cold start takes about a second).
    await local.extractor.extract({
      profile: {
        core_info: {},
        interests: {},
        personality: { traits: [], mood_trends: {} },
        memories: [],
        preferences: { topics_to_avoid: [] },
      },
      submissions: [{ submissionId: 'warm', inputType: 'text', data: 'I live in Oslo.' }],
    })
    svc = await startService({
      env: { PROFILER_BATCH_TIMEOUT_MS: '3000', PROFILER_RETRY_BASE_MS: '50', PROFILER_MAX_ATTEMPTS: '3' },
      ai: { ...local, extractor: hangingExtractor(local.extractor, aborted) },
    })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
    await local?.close?.()
  })

  it('is stopped, counts as an attempt, at the last fails naming the budget; the rest goes on', async () => {
    expect((await api.post('stuck', { data: 'HANG: this text never finishes extracting' })).status).toBe(202)
    expect((await api.post('fine', { data: 'I live in Oslo.' })).status).toBe(202)
    expect((await api.waitReady('fine')).core_info.location.value).toBe('Oslo')
    const [s] = await waitFor('the stuck submission to fail', () => rows(svc, 'stuck'), {
      until: (r) => r[0]?.status === 'failed',
      timeoutMs: 30_000,
    })
    expect(s.attempts).toBe(3)
    expect(s.error).toMatch(/took longer than its time budget of 3000 ms \(PROFILER_BATCH_TIMEOUT_MS\) and was stopped/)
    // Each attempt's model request was stopped, not left running.
    expect(aborted.n).toBe(3)
    expect((await api.profile('stuck')).status).toBe('ready')
    // The profile takes the next submission as usual.
    expect((await api.post('stuck', { data: 'I live in Rome.' })).status).toBe(202)
    await waitFor('the next submission of stuck', () => api.profile('stuck'), {
      until: (p) => p.status === 'ready' && p.core_info.location?.value === 'Rome',
    })
  })
})

describe('a submission whose every attempt ended with its process', () => {
  let svc: TestService
  let worker: Profiler | undefined
  beforeAll(async () => {
    svc = await startService({ role: 'api' })
  })
  afterAll(async () => {
    await worker?.close()
    await svc?.close()
  })

  it('is failed at the next claim, not claimed again after every restart', async () => {
    const api = client(svc.url, svc.key)
    expect((await api.post('crashy', { data: 'I live in Lima.' })).status).toBe(202)
    expect((await api.post('crashy', { data: 'I love chess.' })).status).toBe(202)
    // As a worker killed in the middle of its third attempt leaves it: processing, three attempts, a lease that lapsed.
    const ds = svc.profiler.db.dataSource
    await ds.query(
      `UPDATE submissions SET status = 'processing', attempts = 3, started_at = now() - interval '1 minute'
        WHERE seq = (SELECT min(seq) FROM submissions WHERE profile_id = 'crashy')`,
    )
    await ds.query(
      `UPDATE profiles SET claimed_by = 'dead-worker:1', lease_until = now() - interval '1 second'
        WHERE profile_id = 'crashy'`,
    )
    worker = await startProfiler(testConfig(svc.db, { PROFILER_RECONCILE_SECONDS: '1', PROFILER_MAX_ATTEMPTS: '3' }), {
      role: 'worker',
    })
    const subs = await waitFor('crashy to settle', () => rows(svc, 'crashy'), {
      until: (r) => r.every((s: any) => s.status === 'failed' || s.status === 'done'),
      timeoutMs: 30_000,
    })
    expect(subs[0]).toMatchObject({ status: 'failed', attempts: 3 })
    expect(subs[0].error).toMatch(/Gave up after 3 attempts: the process running it stopped before it finished/)
    // The next one was not held back by it.
    expect(subs[1]).toMatchObject({ status: 'done', attempts: 1 })
    const p = await api.profile('crashy')
    expect(p.status).toBe('ready')
    expect(p.interests).toBeDefined()
    expect(p.core_info.location).toBeUndefined()
  })
})

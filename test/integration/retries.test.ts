import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAiProviders } from '../../src/ai/index.js'
import type { Extractor } from '../../src/ai/types.js'
import { loadConfig } from '../../src/config.js'
import type { EventMap } from '../../src/events/event-bus.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

/** The real local extractor, except that texts containing a marker fail: the fault sits behind the AI interface. */
function flakyExtractor(inner: Extractor, failures: Map<string, number>): Extractor {
  return {
    name: 'flaky',
    async extract(req, signal) {
      for (const s of req.submissions) {
        if (s.data.includes('FAIL-ALWAYS')) throw new Error('model unavailable (injected)')
        const m = /FAIL-(\d)x/.exec(s.data)
        if (m) {
          const seen = failures.get(s.data) ?? 0
          failures.set(s.data, seen + 1)
          if (seen < Number(m[1])) throw new Error(`transient failure ${seen + 1} (injected)`)
        }
      }
      return inner.extract(req, signal)
    },
  }
}

describe('retries, failures, batching and order', () => {
  let svc: TestService
  let api: Client
  const failures = new Map<string, number>()
  const events: EventMap['profileStatusChanged'][] = []

  beforeAll(async () => {
    const local = createAiProviders(loadConfig({}))
    svc = await startService({
      env: { PROFILER_RETRY_BASE_MS: '100', PROFILER_EXTRACT_DELAY_MS: '0' },
      ai: { ...local, extractor: flakyExtractor(local.extractor, failures) },
    })
    api = client(svc.url, svc.key)
    svc.profiler.bus.subscribe('profileStatusChanged', (e) => events.push(e))
  })
  afterAll(async () => svc?.close())

  const submissions = (profileId: string) =>
    svc.profiler.db.dataSource.query(
      `SELECT id, status, attempts, error FROM submissions WHERE profile_id = $1 ORDER BY seq`,
      [profileId],
    )

  it('a transient failure is retried with backoff and then applied once', async () => {
    const r = await api.post('flaky', { data: 'FAIL-2x My name is Tomas and I love surfing.' })
    const { id } = (await r.json()) as any
    const p = await api.waitReady('flaky')
    expect(p.core_info.name.value).toBe('Tomas')
    const [s] = await submissions('flaky')
    expect(s).toMatchObject({ id, status: 'done', attempts: 3, error: null })
    expect(p.update_log).toHaveLength(1)
    expect(failures.get('FAIL-2x My name is Tomas and I love surfing.')).toBe(3)
  })

  it('a submission that keeps failing ends failed with its error, nothing of it merged; the others go on', async () => {
    expect((await api.post('broken', { data: 'My name is Ines.' })).status).toBe(202)
    await api.waitReady('broken')
    const bad = (await (await api.post('broken', { data: 'FAIL-ALWAYS I live in Lima.' })).json()) as any
    const good = (await (await api.post('broken', { data: 'I love pottery.' })).json()) as any
    const rows: any[] = await waitFor('every submission of broken to be done or failed', () => submissions('broken'), {
      until: (rows: any[]) => rows.every((s) => s.status === 'done' || s.status === 'failed'),
      everyMs: 100,
    })
    const byId = new Map(rows.map((s) => [s.id, s]))
    expect(byId.get(bad.id)).toMatchObject({ status: 'failed', attempts: 3, error: 'model unavailable (injected)' })
    expect(byId.get(good.id)).toMatchObject({ status: 'done' })
    const p = await api.waitReady('broken')
    expect(p.core_info.location).toBeUndefined()
    expect(
      Object.values(p.interests)
        .flat()
        .map((v: any) => v.value),
    ).toContain('pottery')
    expect(p.update_log.flatMap((e: any) => e.submission_ids)).not.toContain(bad.id)
    expect(p.status).toBe('ready')
  })

  it('pending submissions of one profile are extracted together, applied in the order accepted', async () => {
    const slow = await startService({ env: { PROFILER_EXTRACT_DELAY_MS: '1000' } })
    try {
      const c = client(slow.url, slow.key)
      expect((await c.post('burst', { data: 'I live in Oslo.' })).status).toBe(202)
      await waitFor(
        'the first submission of burst to be processing',
        async () =>
          (await slow.profiler.db.dataSource.query(`SELECT status FROM submissions WHERE profile_id = 'burst'`))[0]
            ?.status,
        {
          until: (status) => status === 'processing',
        },
      )
      const later = ['I live in Bergen.', 'I live in Tromso.', 'I love skiing.', 'I love jazz.', 'I live in Trondheim.']
      for (const data of later) expect((await c.post('burst', { data })).status).toBe(202)
      const p = await c.waitReady('burst')
      expect(p.update_log).toHaveLength(2)
      expect(p.update_log[1].submission_ids).toHaveLength(5)
      expect(p.core_info.location.value).toBe('Trondheim')
    } finally {
      await slow.close()
    }
  })

  it('status events: processing when work is accepted, ready when it is done, for the right tenant', async () => {
    events.length = 0
    expect((await api.post('evented', { data: 'I am a chemist.' })).status).toBe(202)
    await api.waitReady('evented')
    // The event is emitted after the commit that REST may already show.
    await waitFor('the ready event of evented', () =>
      events.some((e) => e.profileId === 'evented' && e.status === 'ready'),
    )
    const mine = events.filter((e) => e.profileId === 'evented')
    expect(mine.map((e) => e.status)).toEqual(['processing', 'ready'])
    expect(new Set(mine.map((e) => e.tenantId)).size).toBe(1)
  })
})

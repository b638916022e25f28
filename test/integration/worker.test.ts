// The worker's rounds on the real database (both modes): many profiles claimed, extracted and applied together, each
// exactly once; a fault in one profile of a round (in extraction, or in the shared apply) stays with that profile;
// jobs are completed; and a worker wakes for new work at once instead of at its next poll, also across processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAiProviders } from '../../src/ai/index.js'
import type { AiProviders } from '../../src/ai/types.js'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { PROCESS_QUEUE } from '../../src/jobs/queue.js'
import { client, SERVER_URL, startService, testConfig, type TestService } from '../support/harness.js'
import { sleep } from '../support/wait.js'

/**
 * The real local providers, except: a text with POISON-EXTRACT fails extraction, and a profile whose text has
 * Turin in its profile text gets an embedding PostgreSQL refuses (NaN), so the round's shared apply fails.
 */
function faulty(): AiProviders {
  const local = createAiProviders(loadConfig({}))
  return {
    ...local,
    extractor: {
      name: 'faulty',
      async extract(req, signal) {
        if (req.submissions.some((s) => s.data.includes('POISON-EXTRACT')))
          throw new Error('extraction refused (injected)')
        return local.extractor.extract(req, signal)
      },
    },
    embedder: {
      ...local.embedder,
      name: local.embedder.name,
      model: local.embedder.model,
      dimension: local.embedder.dimension,
      calibration: local.embedder.calibration,
      async embed(texts, signal) {
        const r = await local.embedder.embed(texts, signal)
        return { ...r, vectors: r.vectors.map((v, i) => (/\bTurin\b/.test(texts[i]!) ? v.map(() => Number.NaN) : v)) }
      },
    },
  }
}

const NAMES = [
  'Anna',
  'Bruno',
  'Carla',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Klara',
  'Lukas',
  'Marta',
  'Nils',
  'Olga',
  'Paul',
  'Rosa',
  'Simon',
  'Tina',
  'Uwe',
  'Vera',
  'Walter',
  'Xenia',
  'Yusuf',
  'Zoe',
  'Adam',
  'Berta',
  'Carl',
  'Dora',
  'Emil',
  'Frida',
  'Georg',
  'Hanna',
  'Igor',
  'Julia',
  'Karl',
  'Lena',
  'Max',
  'Nora',
  'Otto',
]

describe('worker rounds', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({
      // One round takes everything below: its profiles are claimed and applied together.
      env: {
        PROFILER_WORKER_CONCURRENCY: '64',
        PROFILER_WORKER_FETCH: '64',
        PROFILER_RETRY_BASE_MS: '50',
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
      },
      ai: faulty(),
    })
  })
  afterAll(async () => svc?.close())

  it('40 profiles at once: each applied once, job completed; one failing (extraction, write) fails alone', async () => {
    const api = client(svc.url, svc.key)
    const ids = Array.from({ length: 40 }, (_, i) => `round-${i}`)
    const text = (i: number) =>
      i === 7
        ? 'I live in Riga. POISON-EXTRACT'
        : i === 21
          ? 'I live in Turin.'
          : `My name is ${NAMES[i]} and I live in Lyon.`
    const posted = await Promise.all(ids.map((id, i) => api.post(id, { data: text(i) })))
    expect(posted.map((r) => r.status)).toEqual(ids.map(() => 202))
    const profiles = await Promise.all(ids.map((id) => api.waitReady(id, 60_000)))
    for (const [i, p] of profiles.entries()) {
      if (i === 7 || i === 21) {
        // Failed after its attempts: nothing of it merged, no history, the profile ready.
        expect(p.update_log, `profile ${i}`).toEqual([])
        expect(p.core_info).toEqual({})
        continue
      }
      expect(p.update_log, `profile ${i}`).toHaveLength(1)
      expect(p.core_info.name.value).toBe(NAMES[i])
    }
    const ds = svc.profiler.db.dataSource
    const statuses = await ds.query(
      `SELECT profile_id, status, attempts FROM submissions WHERE profile_id = ANY($1) ORDER BY profile_id`,
      [ids],
    )
    for (const s of statuses) {
      if (s.profile_id === 'round-7' || s.profile_id === 'round-21')
        expect(s, s.profile_id).toMatchObject({ status: 'failed', attempts: 3 })
      else expect(s, s.profile_id).toMatchObject({ status: 'done', attempts: 1 })
    }
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'active', 'retry')`,
      [PROCESS_QUEUE],
    )
    expect(n).toBe(0)
  })
})

describe('waking for new work', () => {
  const slowPoll = { PROFILER_POLL_SECONDS: '60', PROFILER_RECONCILE_SECONDS: '3600' }

  it('a worker polling once a minute takes a new submission at once (the processing event wakes it)', async () => {
    const svc = await startService({ env: slowPoll })
    try {
      const api = client(svc.url, svc.key)
      // Let the worker's first poll find nothing, so it is asleep for a minute. A pause, not a wait: the loop's state
      // is not visible from outside, and a pause too short only lets the first poll take the work (the test passes
      // without proving the wake-up), it never fails it.
      await sleep(500)
      expect((await api.post('wake-me', { data: 'I live in Bergen.' })).status).toBe(202)
      expect((await api.waitReady('wake-me', 30_000)).core_info.location.value).toBe('Bergen')
    } finally {
      await svc.close()
    }
  })

  it.runIf(SERVER_URL)('a worker process wakes for a POST to another API process (server)', async () => {
    const api = await startService({ role: 'api', env: slowPoll })
    let worker: Profiler | undefined
    try {
      worker = await startProfiler(testConfig(api.db, slowPoll), { role: 'worker' })
      await sleep(500) // as above: the worker's first poll finds nothing
      const c = client(api.url, api.key)
      expect((await c.post('wake-remote', { data: 'I live in Tromso.' })).status).toBe(202)
      expect((await c.waitReady('wake-remote', 30_000)).core_info.location.value).toBe('Tromso')
    } finally {
      await worker?.close()
      await api.close()
    }
  })
})

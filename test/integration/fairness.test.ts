// One tenant's burst does not starve another tenant: with one worker slot, a single submission of a second tenant is
// processed long before the first tenant's backlog drains (jobs are ordered by a per-tenant fair-share priority).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TenantFairness } from '../../src/jobs/queue.js'
import { client, startService, type TestService } from '../support/harness.js'

describe('tenant fairness in the queue', () => {
  it("priority falls with the log of a tenant's recent jobs and recovers as they age", () => {
    let now = 0
    const f = new TenantFairness(10_000, () => now)
    const burst = Array.from({ length: 1000 }, () => f.priority('busy'))
    expect(burst[0]).toBe(-0)
    expect(burst.at(-1)).toBe(-9)
    expect(f.priority('quiet')).toBe(-0)
    now += 200_000 // twenty half-lives later the burst is forgotten
    expect(f.priority('busy')).toBe(-0)
  })

  describe('through the service', () => {
    let svc: TestService
    beforeAll(async () => {
      svc = await startService({
        env: {
          PROFILER_WORKER_CONCURRENCY: '1',
          PROFILER_EXTRACT_DELAY_MS: '50',
          PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        },
      })
    })
    afterAll(async () => svc?.close())

    it("a second tenant's submission does not wait behind the first tenant's burst", async () => {
      const busy = client(svc.url, svc.key)
      const other = client(svc.url, (await svc.profiler.services.tenants.createApp('other', 'app')).api_key)
      const ids = Array.from({ length: 60 }, (_, i) => `burst-${i}`)
      for (const id of ids) expect((await busy.post(id, { data: 'I live in Rome.' })).status).toBe(202)
      expect((await other.post('single', { data: 'I live in Oslo.' })).status).toBe(202)
      await other.waitReady('single', 60_000)
      const states = await Promise.all(ids.map(async (id) => (await busy.profile(id)).status))
      expect(states.filter((s) => s === 'processing').length).toBeGreaterThan(30)
    })
  })
})

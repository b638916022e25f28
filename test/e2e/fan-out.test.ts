// One event, many subscribers: 300 graphql-ws clients follow one tenant's status events; each READY reaches every one
// of them with the profile (the profile is read once per event, not once per subscriber through the tenant's bounded
// line of service calls, which refused all but about 210 of them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, submit, type Socket } from '../support/graphql-client.js'
import { startService, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

describe('status events fan out to many subscribers', () => {
  let svc: TestService
  const sockets: Socket[] = []
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_WS_MAX_SOCKETS: '1000',
        PROFILER_WS_MAX_SUBSCRIPTIONS: '1000',
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
        // All 300 sockets come from one address: the per-address cap is not what this test measures.
        PROFILER_MAX_CONNECTIONS_PER_ADDRESS: '1000',
      },
    })
  })
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()))
    await svc?.close()
  })

  it('300 subscribers of one tenant each receive READY with the profile', async () => {
    for (let i = 0; i < 300; i++) sockets.push(connect(svc.url, svc.key))
    await Promise.all(sockets.map((s) => s.connected))
    const recorders = sockets.map((s) => s.status())
    // Live once a first profile's events reach every one of them.
    await submit(svc.url, svc.key, 'warm-up', 'I live in Oslo.')
    await waitFor(
      'the warm-up event at every subscriber',
      () => recorders.every((r) => r.events.some((e) => e.profileId === 'warm-up' && e.status === 'READY')),
      {
        timeoutMs: 30_000,
      },
    )
    await submit(svc.url, svc.key, 'fan', 'My name is Ada and I live in Turin.')
    const sawReady = (r: (typeof recorders)[number]) =>
      r.events.some((e) => e.profileId === 'fan' && e.status === 'READY')
    await waitFor(
      () => {
        const errors = JSON.stringify(recorders.flatMap((r) => r.errors).slice(0, 3))
        return `READY at every subscriber: ${recorders.filter(sawReady).length} of 300; errors ${errors}`
      },
      () => recorders.every(sawReady),
      { timeoutMs: 30_000 },
    )
    for (const r of recorders) {
      expect(r.errors).toEqual([])
      const ready = r.events.find((e) => e.profileId === 'fan' && e.status === 'READY')!
      expect(ready.profile.coreInfo.location.value).toBe('Turin')
    }
  })
})

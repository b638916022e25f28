// The largest allowed hostile inputs, several at once, do not stall the process: extraction runs on a worker thread,
// so another tenant's GETs stay fast, the event loop stays free, and the batch's lease is kept alive while the thread
// works (no second worker redoes it).
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gql } from '../support/graphql-client.js'
import { client, startService, type TestService } from '../support/harness.js'

const KIB100 = 100 * 1024
const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)

describe('no stall on the largest inputs', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({
      env: {
        PROFILER_EXTRACT_THREADS: '1',
        PROFILER_LEASE_SECONDS: '2',
        PROFILER_RECONCILE_SECONDS: '1',
        PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
      },
    })
  })
  afterAll(async () => svc?.close())

  it("four 100 KiB hostile submissions to one profile: another tenant's GETs stay under 100 ms (p99), the lease holds", async () => {
    const attacker = client(svc.url, svc.key)
    const bystander = client(svc.url, (await svc.profiler.services.tenants.createApp('calm', 'app')).api_key)
    expect((await bystander.post('me', { data: 'I live in Oslo.' })).status).toBe(202)
    await bystander.waitReady('me')
    // Warm the thread (it loads the NLP models once) so that what follows measures extraction, not start-up.
    expect((await attacker.post('warm', { data: 'I live in Rome.' })).status).toBe(202)
    await attacker.waitReady('warm')

    const shapes = [rep('a - ', KIB100), rep('I love jazz. ', KIB100), `${rep('my dog and i live in rome and ', KIB100 - 20)} I love chess.`, 'x'.repeat(KIB100)]
    for (const data of shapes) expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThanOrEqual(KIB100 + 2)
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    for (const data of shapes) expect((await attacker.post('big', { data: data.slice(0, KIB100) })).status).toBe(202)
    const latencies: number[] = []
    for (;;) {
      const t = performance.now()
      const r = await bystander.get('/v1/profile/me')
      latencies.push(performance.now() - t)
      expect(r.status).toBe(200)
      await r.arrayBuffer()
      if (latencies.length % 10 === 0 && (await attacker.profile('big')).status === 'ready') break
    }
    loop.disable()
    latencies.sort((a, b) => a - b)
    const p99 = latencies[Math.floor(latencies.length * 0.99)]!
    console.log(JSON.stringify({ gets: latencies.length, p99, max: latencies.at(-1), loopMaxMs: loop.max / 1e6 }))
    expect(latencies.length).toBeGreaterThan(20)
    expect(p99, `p99 of ${latencies.length} GETs`).toBeLessThan(100)
    // The event loop never waited for an extraction (one of these takes up to a second on the thread).
    expect(loop.max / 1e6).toBeLessThan(250)

    // The lease held: the four were applied once, on their first attempt, and nothing was redone.
    const { body } = await gql(svc.url, svc.key, '{ profile(id: "big") { history(first: 10) { entries { seq } } submissions(first: 10) { nodes { status attempts } } } }')
    const subs = body.data.profile.submissions.nodes
    expect(subs).toHaveLength(4)
    expect(subs.every((s: any) => s.status === 'DONE' && s.attempts === 1)).toBe(true)
  })
})

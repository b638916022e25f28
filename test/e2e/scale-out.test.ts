// Scale-out on one PostgreSQL server, as docs/operations/scaling-out.md and the Kubernetes example run it: 3 `profiler
// serve` and 3 `profiler worker` processes (real processes of the shipped CLI). Submissions are spread over every API
// process under concurrent load; the test checks that every accepted submission is applied exactly once (nothing lost,
// nothing duplicated), that none is left open or failed, and that a subscriber on each API process sees every profile's
// READY and every deletion, whichever process accepted the request and whichever worker processed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCli } from '../../src/app.js'
import { connect, type Recorder, type Socket, type StatusEvent } from '../support/graphql-client.js'
import { client, freshDatabase, SERVER_URL, testConfig, type TestDatabase } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { RoleProcesses } from '../support/processes.js'

const APIS = 3
const WORKERS = 3
const PROFILES = 24
const SUBMISSIONS = 144
const CONCURRENCY = 12

describe.skipIf(!SERVER_URL)('3 serve + 3 worker processes on one PostgreSQL server', () => {
  let db: TestDatabase
  let key: string
  const roles = new RoleProcesses()
  const procs = roles.procs
  const urls: string[] = []
  const sockets: Socket[] = []

  const spawnRole = (role: 'serve' | 'worker', env: Record<string, string>) => roles.spawn(db, role, env)

  // Process start-up (6 processes on 2 cores) is set-up, kept out of the test's clock.
  beforeAll(async () => {
    db = await freshDatabase()
    const cli = await openCli(testConfig(db)) // migrates, so the six processes start on a ready schema
    try {
      key = (await cli.tenants.createApp('acme', 'web')).api_key
    } finally {
      await cli.close()
    }
    const common = {
      PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
      PROFILER_TENANT_QUEUE: '10000',
      PROFILER_RECONCILE_SECONDS: '2',
    }
    const apis = Array.from({ length: APIS }, () => spawnRole('serve', { ...common, LOG_LEVEL: 'info' }))
    for (let i = 0; i < WORKERS; i++)
      spawnRole('worker', { ...common, LOG_LEVEL: 'warn', PROFILER_WORKER_CONCURRENCY: '4', PROFILER_BATCH_SIZE: '4' })
    for (const api of apis) {
      const url = await waitFor(
        () => `an API process to listen; it printed: ${api.out().slice(-2000)}`,
        () => {
          if (api.child.exitCode !== null) throw new Error(`serve exited with ${api.child.exitCode}: ${api.out()}`)
          return /"url":"(http:\/\/[^"]+)"/.exec(api.out())?.[1]
        },
        { timeoutMs: 90_000, everyMs: 100 },
      )
      urls.push(url)
    }
    for (const url of urls)
      await waitFor(`${url}/readyz`, async () => (await fetch(`${url}/readyz`)).status === 200 || undefined, {
        timeoutMs: 60_000,
      })
  }, 240_000)

  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()))
    await roles.stopAll()
    await db?.drop()
  }, 60_000)

  it('applies every submission exactly once and every API process sees every event', async () => {
    // One subscriber per API process, following the whole tenant.
    const recorders: Recorder<StatusEvent>[] = []
    for (const url of urls) {
      const s = connect(url, key)
      sockets.push(s)
      await s.connected
      recorders.push(s.status())
    }
    // Each subscription is live once a warm-up profile's READY reaches it.
    await client(urls[0]!, key).post('warm-up', { data: 'I live in Oslo.' })
    for (const r of recorders)
      await r.until(
        (es) => es.some((e) => e.profileId === 'warm-up' && e.status === 'READY'),
        60_000,
        'the warm-up READY',
      )

    // The load: submissions round-robin over the API processes, CONCURRENCY in flight; every third one is text (the
    // local extractor), the rest structured facts, each naming its own submission number so a lost or doubled
    // submission shows in the profile as well as in its history.
    const accepted = new Map<string, string>() // submission id -> profile id
    const fact = (i: number) => `hobby number ${i}`
    let next = 0
    const refused: string[] = []
    const lane = async () => {
      for (let i = next++; i < SUBMISSIONS; i = next++) {
        const profile = `p${i % PROFILES}`
        const body =
          i % 3 === 0
            ? { data: `I love ${fact(i)}.` }
            : { input_type: 'structured', data: JSON.stringify({ interests: { hobbies: [fact(i)] } }) }
        const r = await client(urls[i % APIS]!, key).post(profile, body)
        if (r.status !== 202) refused.push(`${r.status} ${await r.text()}`)
        else accepted.set(((await r.json()) as { id: string }).id, profile)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane))
    expect(refused).toEqual([])
    expect(accepted.size).toBe(SUBMISSIONS)

    const probe = client(urls[1]!, key)
    const done = await waitFor(
      () => `every profile ready with all its submissions applied`,
      async () => {
        const profiles = await Promise.all(
          Array.from({ length: PROFILES }, (_, i) => probe.profile(`p${i}`).catch(() => null)),
        )
        return profiles.every(
          (p) =>
            p?.status === 'ready' &&
            p.update_log.flatMap((e: any) => e.submission_ids).length >= SUBMISSIONS / PROFILES,
        )
          ? profiles
          : undefined
      },
      { timeoutMs: 180_000, everyMs: 500 },
    )

    // Exactly once: the histories name every accepted submission once, and no other.
    const applied = done.flatMap((p: any) => p.update_log.flatMap((e: any) => e.submission_ids as string[]))
    expect(applied.length).toBe(SUBMISSIONS)
    expect(new Set(applied).size).toBe(SUBMISSIONS)
    expect([...applied].sort()).toEqual([...accepted.keys()].sort())
    for (const [i, p] of done.entries()) {
      const expected = [...accepted].filter(([, pid]) => pid === `p${i}`).map(([sid]) => sid)
      expect(p.update_log.flatMap((e: any) => e.submission_ids).sort()).toEqual(expected.sort())
      const hobbies = new Set((p.interests?.hobbies ?? []).map((v: any) => String(v.value).toLowerCase()))
      for (let n = i; n < SUBMISSIONS; n += PROFILES) if (n % 3 !== 0) expect(hobbies.has(fact(n))).toBe(true)
    }

    // No submission left open or failed anywhere (the warm-up's included).
    const { Client } = await import('pg')
    const pgc = new Client({ connectionString: db.url })
    await pgc.connect()
    try {
      const states = await pgc.query(`SELECT status, count(*)::int AS n FROM submissions GROUP BY status`)
      expect(states.rows).toEqual([{ status: 'done', n: SUBMISSIONS + 1 }])
    } finally {
      await pgc.end()
    }

    // Every API process's subscriber saw every profile become READY.
    for (const r of recorders) {
      await r.until(
        (es) =>
          Array.from({ length: PROFILES }, (_, i) => `p${i}`).every((id) =>
            es.some((e) => e.profileId === id && e.status === 'READY'),
          ),
        60_000,
        'READY of every profile',
      )
      expect(r.errors).toEqual([])
    }

    // Deletions through different API processes reach every subscriber too.
    const deleted = ['p0', 'p1', 'p2']
    for (const [i, id] of deleted.entries()) expect((await client(urls[i % APIS]!, key).del(id)).status).toBe(204)
    for (const r of recorders) {
      await r.until(
        (es) => deleted.every((id) => es.some((e) => e.profileId === id && e.status === 'DELETED')),
        60_000,
        'the deletions',
      )
      // Per profile, events arrive in order: nothing after DELETED, and the last event of a kept profile is READY.
      for (let i = 0; i < PROFILES; i++) {
        const mine = r.events.filter((e) => e.profileId === `p${i}`)
        expect(mine.at(-1)!.status).toBe(deleted.includes(`p${i}`) ? 'DELETED' : 'READY')
      }
    }
    for (const p of procs) expect(p.child.exitCode).toBe(null)
  }, 300_000)
})

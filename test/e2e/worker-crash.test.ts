import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { client, freshDatabase, SERVER_URL, testConfig, testEnv, type TestDatabase } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { profilerArgs } from '../support/cli.js'

const root = path.resolve(import.meta.dirname, '../..')

function spawnWorker(db: TestDatabase, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, profilerArgs('worker'), {
    cwd: root,
    env: { ...process.env, ...testEnv(db, { LOG_LEVEL: 'warn', PROFILER_BOOTSTRAP: 'false', ...env }) },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return child
}

// A worker process's crash is tested on the PostgreSQL server (docs/architecture/processing.md); PGlite is
// single-process by design.
describe.skipIf(!SERVER_URL)('worker killed with SIGKILL in the middle of a batch (server PostgreSQL)', () => {
  let db: TestDatabase
  let api: Profiler & { bootstrapKey?: string }
  const children: ChildProcess[] = []

  beforeAll(async () => {
    db = await freshDatabase()
    api = await startProfiler(testConfig(db), { role: 'api' })
  })
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await api?.close()
    await db?.drop()
  })

  it('every accepted submission is applied exactly once after a new worker starts', async () => {
    const http = client(api.url!, api.bootstrapKey!)
    const ds = api.db.dataSource
    const fact = (i: number) => `hobby number ${i}`
    const ids = new Map<string, string>() // submission id -> profile id
    const post = async (i: number) => {
      const profile = `p${i % 3}`
      const r = await http.post(profile, {
        input_type: 'structured',
        data: JSON.stringify({ interests: { hobbies: [fact(i)] } }),
      })
      expect(r.status).toBe(202)
      ids.set(((await r.json()) as any).id, profile)
    }
    for (let i = 0; i < 10; i++) await post(i)

    const w1 = spawnWorker(db, {
      PROFILER_EXTRACT_DELAY_MS: '3000',
      PROFILER_LEASE_SECONDS: '3',
      PROFILER_RECONCILE_SECONDS: '1',
    })
    children.push(w1)
    // Structured input needs no extraction, so make it slow through a text submission in the same profile.
    const slow = await http.post('p0', { data: 'I love sailing.' })
    ids.set(((await slow.json()) as any).id, 'p0')
    await waitFor(
      'a submission in flight (submissions processing)',
      async () => (await ds.query(`SELECT count(*)::int AS n FROM submissions WHERE status = 'processing'`))[0].n,
      {
        until: (n) => n > 0,
        everyMs: 100,
      },
    )
    w1.kill('SIGKILL')
    await new Promise((r) => w1.once('exit', r))
    const killedAt = Date.now()

    for (let i = 10; i < 15; i++) await post(i)
    const w2 = spawnWorker(db, { PROFILER_LEASE_SECONDS: '3', PROFILER_RECONCILE_SECONDS: '1' })
    children.push(w2)

    await waitFor(
      'every submission to be done within 60 s of the kill (submissions not done)',
      async () => (await ds.query(`SELECT count(*)::int AS n FROM submissions WHERE status <> 'done'`))[0].n,
      {
        until: (n) => n === 0,
        timeoutMs: killedAt + 60_000 - Date.now(),
        everyMs: 250,
      },
    )
    expect(Date.now() - killedAt).toBeLessThan(60_000)

    const logged: string[] = []
    for (const profile of ['p0', 'p1', 'p2']) {
      const p = await http.waitReady(profile)
      const expected = [...ids].filter(([, pid]) => pid === profile).map(([sid]) => sid)
      const applied = p.update_log.flatMap((e: any) => e.submission_ids)
      expect([...applied].sort()).toEqual([...expected].sort())
      logged.push(...applied)
      const facts = p.interests.hobbies.map((v: any) => v.value)
      for (let i = 0; i < 15; i++) if (`p${i % 3}` === profile) expect(facts).toContain(fact(i))
    }
    expect(logged).toHaveLength(ids.size)
    expect(new Set(logged).size).toBe(ids.size)
    w2.kill('SIGTERM')
  })
})

// SIGTERM on `profiler start` (a real process) with open graphql-ws subscriptions and batches in flight: the clients
// get a close frame (1001 Going Away), the process exits by itself well within 25 s, and every accepted submission
// is processed after a restart, with no attempt used up by the shutdown.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, gql, type Socket } from '../support/graphql-client.js'
import { client, freshDatabase, testEnv, type TestDatabase } from '../support/harness.js'
import { waitFor } from '../support/wait.js'
import { profilerArgs } from '../support/cli.js'

const root = path.resolve(import.meta.dirname, '../..')

describe('SIGTERM (real process)', () => {
  let db: TestDatabase
  let env: Record<string, string>
  const spawned: ChildProcess[] = []
  let bootKey = ''

  const start = () =>
    new Promise<{ child: ChildProcess; url: string; out: () => string }>((resolve, reject) => {
      const child = spawn(process.execPath, profilerArgs('start'), {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      spawned.push(child)
      let out = ''
      const onData = (d: Buffer) => {
        out += d.toString()
        const m = /"url":"(http:\/\/[^"]+)"/.exec(out)
        if (m) resolve({ child, url: m[1]!, out: () => out })
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
      child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${out}`)))
    })

  beforeAll(async () => {
    db = await freshDatabase()
    // Every extraction takes 20 s, longer than the shutdown's grace for batches (half of 8 s): batches in flight are
    // interrupted and handed back.
    env = testEnv(db, {
      LOG_LEVEL: 'info',
      PROFILER_EXTRACT_DELAY_MS: '20000',
      PROFILER_SHUTDOWN_TIMEOUT_MS: '8000',
      PROFILER_WORKER_CONCURRENCY: '2',
    })
  })
  afterAll(async () => {
    for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await db?.drop()
  })

  it('closes sockets with 1001, exits within 25 s, loses nothing and uses up no attempt', async () => {
    const first = await start()
    const key = /\n {2}(pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32})\n/.exec(first.out())![1]!
    bootKey = key
    const api = client(first.url, key)
    const sockets: Socket[] = Array.from({ length: 5 }, () => connect(first.url, key))
    await Promise.all(sockets.map((s) => s.connected))
    const subs = sockets.map((s, i) => s.status(i === 0 ? undefined : `p${i}`))
    const ids = Array.from({ length: 6 }, (_, i) => `p${i}`)
    for (const id of ids)
      expect((await api.post(id, { data: `I live in Leeds and I love rowing (${id}).` })).status).toBe(202)
    // Wait until batches are really in flight (claimed by the worker).
    const processing = async () => {
      const profiles = ids.map((id) => `${id}: profile(id: "${id}") { submissions(first: 5) { nodes { status } } }`)
      const { body } = await gql(first.url, key, `{ ${profiles.join(' ')} }`)
      return ids.filter((id) => body.data?.[id]?.submissions.nodes.some((n: any) => n.status === 'PROCESSING')).length
    }
    await waitFor('two batches in flight (profiles processing)', processing, { until: (n) => n >= 2, everyMs: 100 })

    const t0 = Date.now()
    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)))
    first.child.kill('SIGTERM')
    const code = await exited
    const elapsed = Date.now() - t0
    expect(code, first.out()).toBe(0)
    expect(elapsed).toBeLessThan(25_000)
    expect(first.out()).toMatch(/batch handed back to the queue/)
    await waitFor('every socket to see its close', () => sockets.every((s) => s.closes.length > 0), {
      timeoutMs: 5_000,
    })
    for (const s of sockets) expect(s.closes[0]).toMatchObject({ code: 1001 })
    for (const r of subs) expect(r.ended).toBeDefined()

    // Nothing accepted is lost: a restarted service processes every submission, each on its first counted attempt.
    env.PROFILER_EXTRACT_DELAY_MS = '0'
    const second = await start()
    const api2 = client(second.url, key)
    for (const id of ids) await api2.waitReady(id, 60_000)
    const profiles = ids.map(
      (id) => `${id}: profile(id: "${id}") {
        coreInfo { location { value } } submissions(first: 5) { nodes { status attempts } }
      }`,
    )
    const { body } = await gql(second.url, key, `{ ${profiles.join(' ')} }`)
    for (const id of ids) {
      expect(body.data[id].coreInfo.location?.value).toBe('Leeds')
      expect(body.data[id].submissions.nodes).toEqual([{ status: 'DONE', attempts: 1 }])
    }
    const exited2 = new Promise((r) => second.child.once('exit', r))
    second.child.kill('SIGTERM')
    await exited2
  }, 180_000)

  it('exits within 25 s while a batch merges a profile far over the limits; done after a restart', async () => {
    env.PROFILER_EXTRACT_DELAY_MS = '0'
    const first = await start()
    // The bootstrap key was printed by the first start of this database (the test before).
    const key = bootKey
    const api = client(first.url, key)
    expect((await api.post('legacy', { data: 'I live in Leeds.' })).status).toBe(202)
    await api.waitReady('legacy', 60_000)
    // A profile stored before its size had limits: 80,000 interests (4 MB). Its next merge cuts it to the limits.
    const interests: Record<string, { value: string; confidence: number }[]> = {}
    for (let i = 0; i < 80_000; i++)
      (interests[`c${i % 40}`] ??= []).push({ value: `interest number ${i} zq${i}`, confidence: 0.5 })
    const sql = new pg.Client({ connectionString: db.url ?? embeddedUrl(db.dataDir) })
    await sql.connect()
    await sql.query(
      `UPDATE profiles SET content = jsonb_set(content, '{interests}', $1::jsonb) WHERE profile_id = 'legacy'`,
      [JSON.stringify(interests)],
    )
    await sql.end()
    // 1.4 KB of new values: with the merge of before (a scan of every stored value per value added) this froze the
    // process for 20 s and more, and SIGTERM went unanswered.
    const music = ['jazz', ...Array.from({ length: 120 }, (_, i) => `band ${i}`)]
    expect(
      (await api.post('legacy', { data: JSON.stringify({ interests: { music } }), input_type: 'structured' })).status,
    ).toBe(202)
    await waitFor(
      'the batch to be claimed',
      async () => {
        const { body } = await gql(
          first.url,
          key,
          '{ profile(id: "legacy") { submissions(first: 5) { nodes { status } } } }',
        )
        return body.data?.profile?.submissions.nodes.some((n: any) => n.status === 'PROCESSING')
      },
      { everyMs: 20 },
    )
    // The event loop is free while the merge runs on its thread: /healthz answers at once.
    const t = Date.now()
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
    expect(Date.now() - t).toBeLessThan(1000)
    const t0 = Date.now()
    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)))
    first.child.kill('SIGTERM')
    expect(await exited, first.out()).toBe(0)
    expect(Date.now() - t0).toBeLessThan(25_000)

    const second = await start()
    const api2 = client(second.url, key)
    const p = await waitFor('legacy to take the submission', () => api2.profile('legacy'), {
      until: (x) => x.status === 'ready' && JSON.stringify(x.interests).includes('jazz'),
      timeoutMs: 60_000,
    })
    expect(Object.values(p.interests).flat().length).toBeLessThanOrEqual(2000)
    const { body } = await gql(
      second.url,
      key,
      '{ profile(id: "legacy") { submissions(first: 5) { nodes { status attempts } } } }',
    )
    expect(body.data.profile.submissions.nodes.map((n: any) => n.status)).toEqual(['DONE', 'DONE'])
    const exited2 = new Promise((r) => second.child.once('exit', r))
    second.child.kill('SIGTERM')
    await exited2
  }, 180_000)
})

/** The embedded database's address while a service of this data dir runs (it writes it to embedded.json). */
function embeddedUrl(dataDir: string): string {
  const { port } = JSON.parse(fs.readFileSync(path.join(dataDir, 'embedded.json'), 'utf8')) as { port: number }
  return `postgres://postgres@127.0.0.1:${port}/postgres`
}

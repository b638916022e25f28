// SIGTERM on `profiler start` (a real process) with open graphql-ws subscriptions and batches in flight: the clients
// get a close frame (1001 Going Away), the process exits by itself well within 25 s, and every accepted submission
// is processed after a restart, with no attempt used up by the shutdown.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
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
    env = testEnv(db, { LOG_LEVEL: 'info', PROFILER_EXTRACT_DELAY_MS: '20000', PROFILER_SHUTDOWN_TIMEOUT_MS: '8000', PROFILER_WORKER_CONCURRENCY: '2' })
  })
  afterAll(async () => {
    for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await db?.drop()
  })

  it('closes sockets with 1001, exits within 25 s, loses nothing and uses up no attempt', async () => {
    const first = await start()
    const key = /\n {2}(pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32})\n/.exec(first.out())![1]!
    const api = client(first.url, key)
    const sockets: Socket[] = Array.from({ length: 5 }, () => connect(first.url, key))
    await Promise.all(sockets.map((s) => s.connected))
    const subs = sockets.map((s, i) => s.status(i === 0 ? undefined : `p${i}`))
    const ids = Array.from({ length: 6 }, (_, i) => `p${i}`)
    for (const id of ids) expect((await api.post(id, { data: `I live in Leeds and I love rowing (${id}).` })).status).toBe(202)
    // Wait until batches are really in flight (claimed by the worker).
    const processing = async () => {
      const { body } = await gql(first.url, key, `{ ${ids.map((id) => `${id}: profile(id: "${id}") { submissions(first: 5) { nodes { status } } }`).join(' ')} }`)
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
    await waitFor('every socket to see its close', () => sockets.every((s) => s.closes.length > 0), { timeoutMs: 5_000 })
    for (const s of sockets) expect(s.closes[0]).toMatchObject({ code: 1001 })
    for (const r of subs) expect(r.ended).toBeDefined()

    // Nothing accepted is lost: a restarted service processes every submission, each on its first counted attempt.
    env.PROFILER_EXTRACT_DELAY_MS = '0'
    const second = await start()
    const api2 = client(second.url, key)
    for (const id of ids) await api2.waitReady(id, 60_000)
    const { body } = await gql(second.url, key, `{ ${ids.map((id) => `${id}: profile(id: "${id}") { coreInfo { location { value } } submissions(first: 5) { nodes { status attempts } } }`).join(' ')} }`)
    for (const id of ids) {
      expect(body.data[id].coreInfo.location?.value).toBe('Leeds')
      expect(body.data[id].submissions.nodes).toEqual([{ status: 'DONE', attempts: 1 }])
    }
    const exited2 = new Promise((r) => second.child.once('exit', r))
    second.child.kill('SIGTERM')
    await exited2
  }, 180_000)
})

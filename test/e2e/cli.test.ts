import { execFile, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { client, freshDatabase, testEnv, type TestDatabase } from '../support/harness.js'
import { profilerArgs } from '../support/cli.js'

const root = path.resolve(import.meta.dirname, '../..')
const run = promisify(execFile)
/**
 * The CLI runs as shipped: the compiled build (test/support/cli.ts). Each call is a process (about a second on the
 * embedded database here, several times that on a loaded 2-core machine) with its own 60 s bound, which is what
 * catches a hang; a test of many calls gets as much in all, not vitest's 60 s for the lot.
 */
const perCalls = (n: number) => n * 60_000

/** The CLI and the service as real processes, in whichever mode the suite runs (embedded or server). */
describe('CLI, bootstrap and restarts (real processes)', () => {
  let db: TestDatabase
  let env: Record<string, string>
  let service: ChildProcess | undefined
  const spawned: ChildProcess[] = []

  const cli = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, profilerArgs(...args), {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000,
    })
    return stdout
  }

  /** Starts `profiler start` and resolves with its URL and everything it printed. */
  const start = () =>
    new Promise<{ url: string; out: () => string }>((resolve, reject) => {
      const child = spawn(process.execPath, profilerArgs('start'), {
        cwd: root,
        env: { ...process.env, ...env, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      service = child
      spawned.push(child)
      let out = ''
      const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 60_000)
      const onData = (d: Buffer) => {
        out += d.toString()
        const m = /"url":"(http:\/\/[^"]+)"/.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve({ url: m[1]!, out: () => out })
        }
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
      child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${out}`)))
    })
  const stop = async () => {
    if (!service || service.exitCode !== null) return
    const s = service
    const exited = new Promise((r) => s.once('exit', r))
    s.kill('SIGTERM')
    await exited
    service = undefined
  }

  beforeAll(async () => {
    db = await freshDatabase()
    env = testEnv(db, { LOG_LEVEL: 'warn' })
  })
  afterAll(async () => {
    for (const c of spawned) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await db?.drop()
  })

  it(
    'first start prints the bootstrap key once (and writes it 0600 in embedded mode); data survives a restart',
    async () => {
      const first = await start()
      const m = /\n {2}(pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32})\n/.exec(first.out())
      expect(m, first.out()).toBeTruthy()
      const key = m![1]!
      if (!db.url) {
        const file = path.join(db.dataDir, 'bootstrap-key')
        expect(fs.readFileSync(file, 'utf8').trim()).toBe(key)
        expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      }
      const api = client(first.url, key)
      expect((await api.post('keeper', { data: 'My name is Rosa and I live in Quito.' })).status).toBe(202)
      const before = await api.waitReady('keeper') // extracted on the compiled build's worker threads
      // and the files it reads at run time are found from dist/: the dashboard's sources, bundled on the first request
      const script = await fetch(`${first.url}/dashboard/assets/app.js`)
      expect(script.status).toBe(200)
      expect((await script.text()).length).toBeGreaterThan(1000)
      await stop()

      const second = await start()
      expect(second.out()).not.toContain('Bootstrap API key')
      const after = await client(second.url, key).profile('keeper')
      expect(after).toEqual(before)
      expect(after.core_info.name.value).toBe('Rosa')
    },
    perCalls(3),
  )

  it(
    'tenant and app commands with --json, while the service runs; rotate and revoke take effect at once',
    async () => {
      const { url: base } = await start()
      const created = JSON.parse(await cli('app', 'create', '--tenant', 'acme', '--name', 'web', '--json'))
      expect(Object.keys(created).sort()).toEqual(['api_key', 'app_id', 'app_name', 'display_name', 'tenant_id'])
      expect(created).toMatchObject({ app_name: 'web', display_name: 'web' })
      expect(created.api_key).toMatch(/^pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/)
      const acme = client(base, created.api_key)
      expect((await acme.post('a1', { data: 'I love chess.' })).status).toBe(202)

      const tenants = JSON.parse(await cli('tenant', 'list', '--json'))
      expect(tenants.map((t: any) => t.name).sort()).toEqual(['acme', 'default'])
      const newTenant = JSON.parse(await cli('tenant', 'create', 'globex', '--json'))
      expect(newTenant.name).toBe('globex')
      const apps = JSON.parse(await cli('app', 'list', '--tenant', 'acme', '--json'))
      expect(apps).toHaveLength(1)
      expect(JSON.stringify(apps)).not.toContain(created.api_key)

      const rotated = JSON.parse(await cli('app', 'rotate', '--tenant', 'acme', '--name', 'web', '--json'))
      expect(rotated.api_key).not.toBe(created.api_key)
      expect((await acme.get('/v1/profile/a1')).status).toBe(401)
      expect((await client(base, rotated.api_key).get('/v1/profile/a1')).status).toBe(200)

      const revoked = JSON.parse(await cli('app', 'revoke', '--tenant', 'acme', '--name', 'web', '--json'))
      expect(revoked.revoked).toBe(1)
      expect((await client(base, rotated.api_key).get('/v1/profile/a1')).status).toBe(401)

      // a name as people write it: the slug is derived, both are printed
      const text = await cli('app', 'create', '--tenant', 'acme', '--name', ' My Web App 🚀 ')
      expect(text).toMatch(/^Created app "My Web App 🚀" \(slug my-web-app, id app_[^)]+\) in tenant acme/)
      expect(text).toMatch(/API key \(shown once\): pk_/)

      // dashboard accounts from the CLI (for when sign-up is closed), usable at once by the running service
      const account = JSON.parse(
        await cli('account', 'create', '--email', 'ops@acme.example', '--tenant', 'acme', '--json'),
      )
      expect(account).toMatchObject({ email: 'ops@acme.example', tenant_name: 'acme', tenant_id: created.tenant_id })
      expect(account.password).toMatch(/^[A-Za-z0-9]{20}$/)
      const browser = new DashboardBrowser(base)
      expect((await browser.signIn('ops@acme.example', account.password)).body.errors).toBeUndefined()
      expect((await browser.gql('{ apps { name displayName keyPrefix } }')).body.data.apps).toEqual([
        { name: 'web', displayName: 'web', keyPrefix: null },
        { name: 'my-web-app', displayName: 'My Web App 🚀', keyPrefix: expect.stringMatching(/^pk_/) },
      ])
      expect(JSON.parse(await cli('account', 'list', '--json')).map((a: any) => a.email)).toEqual(['ops@acme.example'])
      const reset = JSON.parse(await cli('account', 'set-password', '--email', 'ops@acme.example', '--json'))
      expect(reset.password).not.toBe(account.password)
      // sessions ended
      expect((await browser.gql('{ me { email } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED')
      expect((await new DashboardBrowser(base).signIn('ops@acme.example', reset.password)).body.errors).toBeUndefined()
      await expect(cli('account', 'create', '--email', 'OPS@acme.example')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/already exists/),
      })
      await stop()
    },
    perCalls(13),
  )

  it(
    'commands work with the service stopped, and report errors on stderr with exit code 1',
    async () => {
      const created = JSON.parse(await cli('app', 'create', '--tenant', 'acme', '--name', 'offline', '--json'))
      expect(created.tenant_id).toBeTruthy()
      await expect(cli('app', 'rotate', '--tenant', 'acme', '--name', 'nope')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/No app 'nope'/),
      })
      await expect(cli('tenant', 'create', 'acme')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/already exists/),
      })
      await expect(cli('app', 'create', '--tenant', 'acme', '--name', 'evil\u202Eexe.txt')).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/text-direction characters \(found U\+202E\)/),
      })
      const invite = JSON.parse(await cli('account', 'invite', '--tenant', 'acme', '--uses', '2', '--json'))
      expect(invite).toEqual({
        invite_code: expect.stringMatching(/^inv_[A-Za-z0-9]{32}$/),
        tenant_id: created.tenant_id,
        uses: 2,
        expires_at: expect.any(String),
      })
      expect(await cli('migrate')).toMatch(/Migrations applied/)
      const out = await cli('reindex')
      expect(out).toMatch(/Reindexed \d+ profiles/)
    },
    perCalls(7),
  )
})

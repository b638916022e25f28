// The TypeScript client (clients/typescript) as a user gets it: packed with `npm pack`, installed from the tarball in
// fresh projects next to `ai` (each supported major: 5, 6, 7) and `ws` from the registry, or alone, type-checked with
// tsc, and run by the scripts in typescript/ against the real service (one with the default limits, one with a tiny
// request budget). Nothing of the service is mocked; the AI SDK's own mock models stand in for the language model.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type TestService } from '../support/harness.js'
import { docExample, readmeExample } from '../support/readme.js'
import { waitFor } from '../support/wait.js'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../..')
const clientDir = path.join(root, 'clients/typescript')
const fixtures = path.join(import.meta.dirname, 'typescript')
// Client suites run once in CI: in the embedded pass, not again against the PostgreSQL server.
const serverPass = !!process.env.DATABASE_URL

const RATE_LIMIT = 30
const MAX_SOCKETS = 2
/**
 * Every extraction of the main service takes this long at least (the service's fault-injection setting): a wait that
 * starts right after a submission surely finds the profile processing, so it ends by the subscription's READY event.
 */
const EXTRACT_DELAY_MS = 3000
const npm = (args: string[], cwd: string, timeout = 300_000) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeout, maxBuffer: 64 * 1024 * 1024 })
/** The client's own dev dependencies (tsc, openapi-typescript, the ai types), installed unless current. */
async function clientDependencies() {
  const installed = path.join(clientDir, 'node_modules/.package-lock.json')
  const current =
    fs.existsSync(installed) &&
    fs.statSync(installed).mtimeMs >= fs.statSync(path.join(clientDir, 'package-lock.json')).mtimeMs
  if (!current) await npm(['ci'], clientDir)
}

/** The AI SDK majors the client supports (its `ai` peer range), and the mock language model of each. */
const AI_MAJORS = [7, 6, 5] as const
type AiMajor = (typeof AI_MAJORS)[number]
const MOCK_MODEL: Record<AiMajor, string> = {
  5: 'MockLanguageModelV2',
  6: 'MockLanguageModelV3',
  7: 'MockLanguageModelV4',
}

const tempProject = () => fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-client-user-'))

/** Makes `dir` a project as a user makes it (ESM), with `packages` installed by a plain `npm install`. */
async function installProject(dir: string, packages: string[]) {
  await npm(['init', '-y'], dir)
  await npm(['pkg', 'set', 'type=module'], dir)
  await npm(['install', ...packages], dir)
}

/** Waits for every promise, then throws the first failure: nothing is still starting when the caller gives up. */
async function allSettled(promises: Promise<unknown>[]) {
  for (const outcome of await Promise.allSettled(promises)) if (outcome.status === 'rejected') throw outcome.reason
}

/**
 * A user's TypeScript with the middleware and the given major's mock model. The expected errors prove the types are
 * that `ai`'s own (an `any` would let both through).
 */
const aiUsage = (major: AiMajor) => /* ts */ `
import { ProfilerClient } from '@profiler/client'
import { profilerMemory, type FlushResult } from '@profiler/client/ai-sdk'
import { generateText, streamText, wrapLanguageModel } from 'ai'
import { ${MOCK_MODEL[major]} } from 'ai/test'

const client = new ProfilerClient({ url: 'http://127.0.0.1:8080', apiKey: 'pk_x_y' })
const memory = profilerMemory({
  client,
  profileId: (params) => String(params.providerOptions?.['app']?.['user'] ?? ''),
  query: (params) => params.prompt.filter((m) => m.role === 'user').length.toString(),
})
const model = wrapLanguageModel({ model: new ${MOCK_MODEL[major]}(), middleware: memory })
const stacked = wrapLanguageModel({
  model: new ${MOCK_MODEL[major]}(),
  middleware: [memory, profilerMemory({ client, maxTokens: 100 })],
})
export async function use(): Promise<string> {
  const { text } = await generateText({ model, prompt: 'hi', providerOptions: { profiler: { profileId: 'alice' } } })
  const streamed = streamText({ model: stacked, prompt: 'hi' })
  const flushed: FlushResult = await memory.flush()
  // @ts-expect-error the call options have no such field
  profilerMemory({ client, query: (params) => params.notAnOption })
  // @ts-expect-error the middleware is no model
  wrapLanguageModel({ model: memory, middleware: memory })
  return [text, await streamed.text, flushed.submitted].join()
}
`

/**
 * What the project's tsc says of `files` (nothing when they compile), through the tsconfig `config` it is given: a
 * user's strict NodeNext settings, writing the JavaScript to `outDir` where the files are to be run (else nothing).
 */
async function tsc(project: string, config: string, files: string[], outDir?: string) {
  const compilerOptions = {
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    ...(outDir ? { outDir } : { noEmit: true }),
    types: ['node'],
    skipLibCheck: true,
  }
  fs.writeFileSync(path.join(project, config), JSON.stringify({ compilerOptions, files }))
  const said = await run(path.join(project, 'node_modules/.bin/tsc'), ['-p', config], {
    cwd: project,
    timeout: 120_000,
  }).catch((e) => e)
  return `${said.stdout ?? ''}${said.stderr ?? ''}`
}

/** Runs one fixture script in the project and returns the JSON object it printed last. */
async function script(project: string, file: string, env: Record<string, string>, timeout = 120_000): Promise<any> {
  fs.copyFileSync(path.join(fixtures, file), path.join(project, file))
  const { stdout } = await run(process.execPath, [file], {
    cwd: project,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e) => {
    throw new Error(`${file} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

/**
 * The reader's model of the AI SDK example (docs/getting-started/clients.md): the AI SDK's mock, answering with the
 * system prompt it was given.
 */
const README_MODEL = /* ts */ `
import { MockLanguageModelV4 } from 'ai/test'
export const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => ({
    content: [
      { type: 'text', text: 'You said: ' + prompt.filter((m) => m.role === 'system').map((m) => m.content).join(' ') },
    ],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
    warnings: [],
  }),
})
`

const USAGE = /* ts */ `
import {
  ProfilerClient, ProfilerError, ProfilerRateLimitError, type Context, type Profile, type SearchPage,
} from '@profiler/client'
import { profilerMemory } from '@profiler/client/ai-sdk'
import { wrapLanguageModel } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'

const client = new ProfilerClient({ url: 'http://127.0.0.1:8080', apiKey: 'pk_x_y', maxRetries: 2 })

export async function use(): Promise<string> {
  const ack = await client.submit(
    'alice',
    { conversation: [{ role: 'user', content: 'hi' }] },
    { idempotencyKey: 'k', occurredAt: new Date() },
  )
  await client.submit('alice', { structured: { core_info: { age: 34 } } })
  const id: string = ack.id
  const profile: Profile = await client.waitUntilReady('alice', { timeoutMs: 10_000 })
  const location: string | undefined = profile.core_info?.location?.value
  const status: 'processing' | 'ready' = profile.status
  const ctx: Context = await client.context('alice', { query: 'music', maxTokens: 100, include: 'facts' })
  const tokens: number = ctx.tokens
  for await (const page of client.search({ query: 'jazz', pageSize: 5 })) {
    const p: SearchPage = page
    const score: number | undefined = p.profiles[0]?.similarityScore
    void score
  }
  await client.rollback('alice', profile.update_log?.[0]?.seq ?? 1)
  await client.forget('alice', { section: 'interests', value: 'jazz' })
  await client.delete('alice')
  try {
    await client.get('bob')
  } catch (e) {
    if (e instanceof ProfilerRateLimitError) {
      const wait: number | undefined = e.retryAfterSeconds
      void wait
    }
    if (e instanceof ProfilerError) {
      const s: number = e.status
      const c: string = e.code
      const r: string | undefined = e.requestId
      void [s, c, r]
    }
  }
  // @ts-expect-error text must be a string
  await client.submit('alice', { text: 42 })
  // @ts-expect-error sortBy takes the service's fields only
  client.search({ sortBy: 'shoe_size' })
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4(),
    middleware: profilerMemory({
      client,
      profileId: (p) => String(p.providerOptions?.['app']?.['user'] ?? ''),
      maxTokens: 300,
    }),
  })
  return [location, id, tokens, status, model.modelId].join()
}
`

describe.skipIf(serverPass)(
  'TypeScript client @profiler/client, packed, installed and used against the real service',
  () => {
    let svc: TestService
    let limited: TestService
    /** The project of each AI SDK major; `project` is the AI SDK 7 one, where every other script runs. */
    let projects: Record<AiMajor, string>
    let project: string
    /** The client installed alone: no `ai`, no `ws`. */
    let bare: string
    let tarball: string
    let fallbackKey: string
    let retried: Promise<any>
    const env = () => ({
      PROFILER_URL: svc.url,
      PROFILER_API_KEY: svc.key,
      RUN_ID: Math.random().toString(36).slice(2, 8),
    })

    beforeAll(async () => {
      // The client's dev dependencies, then the tarball: npm pack runs the build (the prepack script).
      await clientDependencies()
      const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-client-pack-'))
      const { stdout } = await npm(['pack', '--json', '--pack-destination', packDir], clientDir)
      tarball = path.join(packDir, JSON.parse(stdout)[0].filename)
      // The install commands of the client's README and the clients page name the file npm pack makes.
      for (const doc of ['clients/typescript/README.md', 'docs/getting-started/clients.md']) {
        expect(fs.readFileSync(path.join(root, doc), 'utf8'), doc).toContain(`typescript/${path.basename(tarball)}`)
      }
      // Fresh projects, as users would make them, installed while the services start: one per AI SDK major (plain
      // `npm install`, so a peer range that left a major out fails here with ERESOLVE), and one with the client alone.
      bare = tempProject()
      projects = { 5: tempProject(), 6: tempProject(), 7: tempProject() }
      project = projects[7]
      await allSettled([
        installProject(bare, [tarball]),
        ...AI_MAJORS.map((major) =>
          installProject(projects[major], [tarball, `ai@^${major}`, 'ws@^8', 'typescript@^5', '@types/node@^20']),
        ),
        startService({
          env: { PROFILER_WS_MAX_SOCKETS: String(MAX_SOCKETS), PROFILER_EXTRACT_DELAY_MS: String(EXTRACT_DELAY_MS) },
        }).then((service) => {
          svc = service
        }),
        startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } }).then((service) => {
          limited = service
        }),
      ])
      fallbackKey = (await svc.profiler.services.tenants.createApp('default', 'fallback')).api_key
      // Waiting for a Retry-After takes up to a minute: that script runs while the others do.
      retried = script(
        project,
        'retry.mjs',
        { PROFILER_URL: limited.url, PROFILER_API_KEY: limited.key, RATE_LIMIT: String(RATE_LIMIT) },
        180_000,
      )
      retried.catch(() => undefined)
    }, 600_000)

    afterAll(async () => {
      await retried?.catch(() => undefined)
      await Promise.all([svc?.close(), limited?.close()])
      for (const dir of [bare, ...Object.values(projects ?? {})])
        if (dir) fs.rmSync(dir, { recursive: true, force: true })
      if (tarball) fs.rmSync(path.dirname(tarball), { recursive: true, force: true })
    })

    it('the package holds the build and its types, ESM only, with the AI SDK middleware as a subpath export', () => {
      const installed = path.join(project, 'node_modules/@profiler/client')
      const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'))
      expect(pkg.type).toBe('module')
      expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' })
      expect(pkg.exports['./ai-sdk']).toEqual({ types: './dist/ai-sdk.d.ts', import: './dist/ai-sdk.js' })
      expect(Object.keys(pkg.dependencies)).toEqual(['graphql-ws'])
      expect(pkg.peerDependencies).toEqual({ ai: '^5.0.0 || ^6.0.0 || ^7.0.0', ws: '^8.0.0' })
      expect(pkg.peerDependenciesMeta).toEqual({ ai: { optional: true }, ws: { optional: true } })
      // No script runs when a user installs the tarball (npm 11 asks to approve install scripts).
      const installScripts = ['preinstall', 'install', 'postinstall', 'prepare']
      expect(Object.keys(pkg.scripts ?? {}).filter((name) => installScripts.includes(name))).toEqual([])
      for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/ai-sdk.js', 'dist/ai-sdk.d.ts', 'README.md'])
        expect(fs.existsSync(path.join(installed, f)), f).toBe(true)
      expect(fs.existsSync(path.join(installed, 'src'))).toBe(false)
    })

    it("type-checks a user's TypeScript with tsc (strict, NodeNext): types usable, mistakes caught", async () => {
      fs.writeFileSync(path.join(project, 'usage.ts'), USAGE)
      expect(await tsc(project, 'tsconfig.json', ['usage.ts'])).toBe('')
    }, 120_000)

    // The projects of the three majors are independent: their checks, and their scripts below, run side by side.
    it.concurrent.for(AI_MAJORS)(
      'type-checks the AI SDK middleware with ai %i: wrapLanguageModel, generateText and streamText take it',
      { timeout: 120_000 },
      async (major, { expect }) => {
        const dir = projects[major]
        fs.writeFileSync(path.join(dir, 'ai-usage.ts'), aiUsage(major))
        expect(await tsc(dir, 'tsconfig.ai.json', ['ai-usage.ts'])).toBe('')
      },
    )

    it('installs alone (no ai, no ws: the optional peers stay out) and the REST client works', async () => {
      for (const peer of ['ai', 'ws']) expect(fs.existsSync(path.join(bare, 'node_modules', peer)), peer).toBe(false)
      const out = await script(bare, 'bare.mjs', env())
      expect(out.location).toBe('Madrid')
      expect(out.context).toMatch(/piano/)
      expect(out.middleware).toEqual(['flush', 'specificationVersion', 'transformParams', 'wrapGenerate', 'wrapStream'])
      expect(out.afterDelete).toEqual({ notFound: true, status: 404 })
    }, 120_000)

    it('examples of the READMEs and the clients page compile (tsc, strict) and run against the service', async () => {
      // The clients page repeats the README's example: the same code, so this run tests both.
      expect(docExample('docs/getting-started/clients.md', 'typescript-client')).toBe(readmeExample('typescript'))
      fs.writeFileSync(path.join(project, 'readme-client.ts'), readmeExample('typescript'))
      fs.writeFileSync(path.join(project, 'readme-ai.ts'), docExample('docs/getting-started/clients.md', 'ai-sdk'))
      fs.writeFileSync(path.join(project, 'client-readme.ts'), docExample('clients/typescript/README.md', 'usage'))
      // The example's `./model.js` is the reader's model; here the AI SDK's mock, answering with the system prompt it
      // got.
      fs.writeFileSync(path.join(project, 'model.ts'), README_MODEL)
      const examples = ['readme-client.ts', 'readme-ai.ts', 'client-readme.ts', 'model.ts']
      expect(await tsc(project, 'tsconfig.readme.json', examples, 'readme-out')).toBe('')
      const node = (file: string) =>
        run(process.execPath, [path.join('readme-out', file)], {
          cwd: project,
          env: { ...process.env, NODE_OPTIONS: '', PROFILER_URL: svc.url, PROFILER_API_KEY: svc.key },
          timeout: 120_000,
        }).catch((e) => {
          throw new Error(`documentation example ${file} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`)
        })
      const client = await node('readme-client.js')
      expect(client.stdout).toMatch(/^Lisbon$/m)
      expect(client.stdout).toMatch(/jazz/i)
      // The client's own README: every call of its example, then the typed 404 it prints.
      const usage = await node('client-readme.js')
      expect(usage.stdout.trim().split('\n').at(-1)).toMatch(/^404 NOT_FOUND \S+$/)
      // The AI SDK example: Cleo's profile holds a fact first, so her context has something to carry.
      const auth = { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' }
      expect(
        (
          await fetch(`${svc.url}/v1/profile/cleo`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ data: 'I am Cleo and I live in Oslo.' }),
          })
        ).status,
      ).toBe(202)
      await waitFor('cleo ready', () => fetch(`${svc.url}/v1/profile/cleo`, { headers: auth }).then((r) => r.json()), {
        until: (b: any) => b?.profile?.status === 'ready',
        timeoutMs: 60_000,
      })
      const ai = await node('readme-ai.js')
      expect(ai.stdout).toContain('Oslo') // the mock echoed its system prompt: the context reached it
      // After flush() the exchange was submitted: what Cleo said becomes one of her passages.
      await waitFor(
        "the exchange among cleo's passages",
        () => fetch(`${svc.url}/v1/profile/cleo/passages?limit=100`, { headers: auth }).then((r) => r.json()),
        { until: (b: any) => (b?.passages ?? []).some((p: any) => p.text.includes('greyhound')), timeoutMs: 60_000 },
      )
    }, 300_000)

    it('REST: submit text, conversation and structured data (idempotency key, event time), get, context, ' +
      'search pages, roll back, forget, delete, typed errors', async () => {
      const out = await script(project, 'rest.mjs', env())
      // Idempotency-Key: the same body twice is one submission; another body with the key is a 409.
      expect(out.idempotent.again).toBe(out.idempotent.first)
      expect(out.idempotencyConflict).toMatchObject({
        thrown: true,
        name: 'ProfilerConflictError',
        status: 409,
        isProfilerError: true,
      })
      // waitUntilReady over the subscription (ws found as the optional peer: Node 20 has no global WebSocket).
      expect(out.aliceReady.status).toBe('ready')
      expect(out.aliceReady.core_info.location.value).toBe('Lisbon')
      expect(out.aliceReady.update_log).toHaveLength(1)
      expect(out.waitLogs[0]).toMatch(/subscribed over WebSocket/)
      expect(out.waitLogs.at(-1)).toMatch(/ready \(READY event\)/)
      expect(out.waitLogs.join('\n')).not.toMatch(/polling/)
      // The event time (May 2023, not the day it was sent): the passage is dated by it, under its year (the query does
      // not ask about time).
      expect(out.aliceContext.text).toContain('What they said:\n2023:\n')
      expect(out.aliceContext.text).toContain('jazz')
      expect(out.aliceContext.ranked_by).toBe('query')
      expect(out.aliceContext.tokens).toBeLessThanOrEqual(200)
      // A conversation (only the user's turns count) and a structured partial profile.
      expect(out.bob.core_info.location.value).toBe('Berlin')
      expect(out.bob.interests.hobbies.map((v: any) => v.value)).toContain('chess')
      expect(JSON.stringify(out.bob)).not.toMatch(/Madrid|surfing/)
      expect(out.bob.core_info.age).toEqual({ value: 34, confidence: 1 })
      // Applied in one batch ('mixed') or two.
      expect(out.bob.update_log.flatMap((e: any) => e.submission_ids)).toHaveLength(2)
      // Search: every page in order, then stop; the flat form; maxPages.
      const ids = ['alice', 'bob', 'carla', 'dan', 'eve', 'finn', 'gus']
      expect(out.pages.map((p: any) => p.page)).toEqual([1, 2, 3, 4])
      expect(out.pages.every((p: any) => p.total === 7)).toBe(true)
      expect(out.pages.flatMap((p: any) => p.ids).map((id: string) => id.split('-')[0])).toEqual(ids)
      expect(out.flat.map((id: string) => id.split('-')[0])).toEqual(ids)
      expect(out.firstPageOnly).toEqual([2])
      // Roll back the move to Porto; forget jazz.
      expect(out.moved.core_info.location.value).toBe('Porto')
      expect(out.rolledBack.core_info.location.value).toBe('Lisbon')
      expect(out.rolledBack.update_log.at(-1).input_type).toBe('rollback')
      expect(out.forgotten.interests.music ?? []).toEqual([])
      expect(out.forgotten.update_log.at(-1)).toMatchObject({
        input_type: 'forget',
        changes: { removed: [{ value: 'jazz', section: 'interests' }] },
      })
      expect(out.afterForget.interests.music ?? []).toEqual([])
      // Delete, and typed errors: class, status, code, request id.
      expect(out.afterDelete).toMatchObject({
        thrown: true,
        name: 'ProfilerNotFoundError',
        status: 404,
        code: 'NOT_FOUND',
      })
      const uuid = /^[0-9a-f-]{36}$/
      expect(out.badKey).toMatchObject({
        thrown: true,
        name: 'ProfilerAuthenticationError',
        status: 401,
        code: 'UNAUTHENTICATED',
        isProfilerError: true,
      })
      expect(out.badKey.requestId).toMatch(uuid)
      expect(out.badKey.message).toContain('Invalid API key')
      expect(out.notFound).toMatchObject({
        thrown: true,
        name: 'ProfilerNotFoundError',
        status: 404,
        code: 'NOT_FOUND',
      })
      expect(out.notFound.requestId).toMatch(uuid)
      expect(out.waitUnknown).toMatchObject({ thrown: true, name: 'ProfilerNotFoundError', status: 404 })
      expect(out.badRequest).toMatchObject({
        thrown: true,
        name: 'ProfilerValidationError',
        status: 400,
        code: 'VALIDATION_FAILED',
      })
      expect(out.badRequest.message).toMatch(/pageSize/)
      expect(out.badRequestIterating).toMatchObject({ thrown: true, name: 'ProfilerValidationError', status: 400 })
      expect(out.badId).toMatchObject({ thrown: true, name: 'ProfilerValidationError', status: 400 })
      expect(out.badId.requestId).toMatch(uuid)
    }, 120_000)

    it('waitUntilReady polls when the socket is refused or absent; times out with a typed error', async () => {
      const out = await script(project, 'fallback.mjs', {
        ...env(),
        PROFILER_API_KEY: fallbackKey,
        MAX_SOCKETS: String(MAX_SOCKETS),
      })
      expect(out.refused.status).toBe('ready')
      expect(out.refused.interests).toBeTruthy()
      expect(out.refusedLogs.join('\n')).toMatch(
        /WARN .*subscription cannot be used \(socket closed \(4429 Too many connections/,
      )
      expect(out.refusedLogs.at(-1)).toMatch(/ready \(polling\)/)
      expect(out.subscriptionOnly).toMatchObject({
        thrown: true,
        name: 'ProfilerConnectionError',
        code: 'SUBSCRIPTION_FAILED',
        status: 0,
      })
      expect(out.subscriptionOnly.message).toMatch(/4429/)
      expect(out.noSocket.status).toBe('ready')
      expect(out.noSocketLogs.join('\n')).toMatch(/no WebSocket implementation; polling/)
      expect(out.noSocketLogs.at(-1)).toMatch(/ready \(polling\)/)
      expect(out.polling.status).toBe('ready')
      expect(out.pollingLogs.join('\n')).not.toMatch(/WebSocket/)
      expect(out.timedOut).toMatchObject({ thrown: true, name: 'ProfilerTimeoutError', code: 'TIMEOUT', status: 0 })
    }, 120_000)

    it('retries a 429 after the Retry-After it sent (fails at once when that is over maxRetryDelayMs)', async () => {
      const out = await retried
      expect(out.refused).toMatchObject({ name: 'ProfilerRateLimitError', status: 429, code: 'RATE_LIMITED' })
      expect(out.refused.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(out.refused.requestId).toMatch(/^[0-9a-f-]{36}$/)
      expect(out.impatient).toMatchObject({ name: 'ProfilerRateLimitError', status: 429 })
      expect(out.impatientMs).toBeLessThan(5_000)
      const { retries, ms, total } = out.patient
      expect(total).toBeGreaterThanOrEqual(0)
      expect(retries.length).toBeGreaterThanOrEqual(1)
      for (const r of retries) {
        expect(r.status).toBe(429)
        expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(r.delayMs).toBe(r.retryAfterSeconds * 1000)
      }
      // Each retry went out only after the wait the service asked for.
      const waited = retries.reduce((sum: number, r: any) => sum + r.delayMs, 0)
      expect(ms).toBeGreaterThanOrEqual(waited)
    }, 180_000)

    // Each run has profiles of its own; a run whose socket the service refuses (two at most) waits by polling.
    it.concurrent.for(AI_MAJORS)(
      'AI SDK middleware, ai %i: context in the system prompt, exchanges submitted, down or silent service only warns',
      { timeout: 120_000 },
      async (major, { expect }) => {
        const out = await script(projects[major], 'ai-sdk.mjs', env())
        expect(out.ai.version.split('.')[0]).toBe(String(major))
        expect(out.ai.mock).toBe(MOCK_MODEL[major])
        // The system prompt the mock received: the caller's, then the profile's context for the question.
        expect(out.generated.text).toBe('You could go sailing along the Douro.')
        expect(out.generated.system.startsWith('You are a helpful assistant.\n\n')).toBe(true)
        expect(out.generated.system).toContain(out.expectedContext)
        expect(out.expectedContext).toMatch(/Porto/)
        expect(out.expectedContext).toMatch(/sailing/)
        // After the answer, the exchange became what the person said (the user turn; the answer is not evidence).
        expect(out.generatedPassage).toMatchObject({
          speaker: 'user',
          text: 'What should I do this weekend? I also started learning the cello.',
        })
        expect(out.afterGenerate.update_log.map((e: any) => e.input_type)).toEqual(['text', 'conversation'])
        // streamText: the context was there too, and the last user turn was submitted once the stream finished.
        expect(out.streamed.text).toBe('Sailing at sunset is lovely this time of year.')
        expect(out.streamed.system).toMatch(/cello/)
        expect(out.streamed.prompt[0].role).toBe('system')
        expect(out.streamedPassage).toMatchObject({
          speaker: 'user',
          text: 'Any plans for Sunday? My sister Dora visits from Lisbon.',
        })
        expect(out.warningsWhileUp).toEqual([])
        // The profile id from the call's providerOptions.
        expect(out.perCallSystem).toMatch(/Porto/)
        // A new user: no profile, so no context and no warning; the first exchange made the profile.
        expect(out.newcomer.system).toBe('Be kind.')
        expect(out.newcomer.warnings).toEqual([])
        expect(out.newcomer.profile.update_log.map((e: any) => e.input_type)).toEqual(['conversation'])
        expect(out.newcomer.profile.core_info.name.value).toBe('Elif')
        // Service down: the answers come, the system prompt is the caller's, and warnings (not errors) say why.
        expect(out.down.text).toBe('Still here.')
        expect(out.down.streamed).toBe('Still here.')
        expect(out.down.system).toBe('Be brief.')
        expect(
          out.down.warnings.filter((w: string) => /no context .*answering without memory.*ECONNREFUSED/.test(w)),
        ).toHaveLength(2)
        expect(
          out.down.warnings.filter((w: string) => /exchange was not submitted.*ECONNREFUSED/.test(w)),
        ).toHaveLength(2)
        // A service that never answers holds the answer for contextTimeoutMs at most.
        expect(out.hung.text).toBe('Quick.')
        expect(out.hung.ms).toBeLessThan(5_000)
        expect(out.hung.warnings).toHaveLength(1)
        expect(out.hung.warnings[0]).toMatch(/no answer within 300 ms/)
        // Its exchange is given up after submitTimeoutMs (1 s), retries included: flush() returns then, not after the
        // client's request timeout, and says what it gave up.
        expect(out.hungFlush.flushed).toEqual({ submitted: 0, failed: 1 })
        expect(out.hungFlush.ms).toBeLessThan(4_000)
        expect(out.hungFlush.warnings.at(-1)).toMatch(/exchange was not submitted.*submitTimeoutMs \(1000 ms\)/)
      },
    )
  },
)

describe.skipIf(serverPass)('TypeScript client: generated types', () => {
  it('src/generated/openapi.ts is what openapi-typescript makes of schema/openapi.json today', async () => {
    await clientDependencies()
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-openapi-')), 'openapi.ts')
    try {
      await run(
        path.join(clientDir, 'node_modules/.bin/openapi-typescript'),
        [path.join(root, 'schema/openapi.json'), '-o', out],
        { cwd: clientDir, timeout: 120_000 },
      )
      expect(fs.readFileSync(out, 'utf8'), 'run npm run generate in clients/typescript').toBe(
        fs.readFileSync(path.join(clientDir, 'src/generated/openapi.ts'), 'utf8'),
      )
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true })
    }
  }, 300_000)
})

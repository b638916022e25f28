// Summary instructions per app (docs/guides/summary-instructions.md), through the real service: set from the
// dashboard's GraphQL and the CLI, refused when hostile, and followed by the worker's summary (the app of a batch's
// newest submission decides) and by a re-extraction.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { profilerArgs, ROOT } from '../support/cli.js'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { gql } from '../support/graphql-client.js'
import { client, startService, testEnv, type TestService } from '../support/harness.js'

const json = (r: Response): Promise<any> => r.json()
const run = promisify(execFile)
const SET = /* GraphQL */ `mutation($id: ID!, $i: [String!]!) {
  setAppSummaryInstructions(id: $id, instructions: $i) { id summaryInstructions }
}`

describe('summary instructions per app', () => {
  let svc: TestService
  let browser: DashboardBrowser
  const apps: Record<string, { id: string; key: string }> = {}

  beforeAll(async () => {
    svc = await startService({
      env: { PROFILER_SIGNUP_MAX_PER_ADDRESS: '1000', PROFILER_RATE_LIMIT_PER_MINUTE: '100000' },
    })
    browser = new DashboardBrowser(svc.url)
    expect(
      (await browser.signUp('instructions@example.com', 'correct horse battery staple')).body.errors,
    ).toBeUndefined()
    for (const name of ['crm', 'chat']) {
      const r = await browser.gql(
        `mutation($n: String!) { createApp(name: $n) { app { id summaryInstructions } apiKey } }`,
        { n: name },
      )
      expect(r.body.data.createApp.app.summaryInstructions).toEqual([])
      apps[name] = { id: r.body.data.createApp.app.id, key: r.body.data.createApp.apiKey }
    }
  })
  afterAll(async () => svc?.close())

  it('are set and read from the dashboard, bounded, and only for the apps of the signed-in account', async () => {
    const r = await browser.gql(SET, {
      id: apps.crm!.id,
      i: ['  Leave out   age ', 'Mention interests first', 'leave out age'],
    })
    expect(r.body.data.setAppSummaryInstructions).toEqual({
      id: apps.crm!.id,
      summaryInstructions: ['Leave out age', 'Mention interests first'],
    })
    const listed = await browser.gql(`{ apps { name summaryInstructions } }`)
    expect(listed.body.data.apps).toEqual([
      { name: 'crm', summaryInstructions: ['Leave out age', 'Mention interests first'] },
      { name: 'chat', summaryInstructions: [] },
    ])
    const refused: [string[], RegExp][] = [
      [['a', 'b', 'c', 'd', 'e', 'f'], /At most 5 summary instructions \(got 6\)/],
      [['x'.repeat(201)], /at most 200 characters \(got 201\)/],
      [['ok', ''], /instruction 2 must not be empty/],
      [['tab\there'], /control or invisible characters \(found U\+0009\)/],
      [['\u2066hidden\u2069'], /U\+2066/],
    ]
    for (const [i, message] of refused) {
      const bad = await browser.gql(SET, { id: apps.crm!.id, i })
      expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED')
      expect(bad.body.errors[0].message).toMatch(message)
    }
    // A huge list is refused too, without work proportional to its strings.
    const huge = await browser.gql(SET, { id: apps.crm!.id, i: Array.from({ length: 1000 }, () => 'y'.repeat(100)) })
    expect(huge.body.errors[0].message).toMatch(/At most 5 summary instructions \(got 1000\)/)
    expect(
      (await browser.gql(SET, { id: apps.crm!.id, i: Array.from({ length: 10_000 }, () => 'y'.repeat(50)) })).status,
    ).toBe(413)
    expect((await browser.gql(`{ apps { summaryInstructions } }`)).body.data.apps[0].summaryInstructions).toEqual([
      'Leave out age',
      'Mention interests first',
    ])
    // Another tenant's app is not found; an app key cannot reach the mutation; no session, no access.
    const other = await svc.profiler.services.tenants.createApp('someone-else', 'theirs')
    expect((await browser.gql(SET, { id: other.app_id, i: ['leave out name'] })).body.errors[0].extensions.code).toBe(
      'APP_NOT_FOUND',
    )
    expect((await svc.profiler.services.tenants.appsOf(other.tenant_id))[0]!.summaryInstructions).toEqual([])
    expect((await gql(svc.url, apps.crm!.key, SET, { id: apps.crm!.id, i: [] })).body.errors[0].extensions.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    )
    expect(
      (await new DashboardBrowser(svc.url).gql(SET, { id: apps.crm!.id, i: [] })).body.errors[0].extensions.code,
    ).toBe('UNAUTHENTICATED')
  })

  it("are followed by the worker's summary: the app of the batch's newest submission decides", async () => {
    const crm = client(svc.url, apps.crm!.key)
    const chat = client(svc.url, apps.chat!.key)
    expect((await crm.post('ana', { data: 'My name is Ana. I am 41 years old. I love hiking.' })).status).toBe(202)
    const p = await crm.waitReady('ana')
    expect(p.core_info.age.value).toBe(41)
    expect(p.summary).toMatch(/^Ana enjoys hiking\. /)
    expect(p.summary).not.toMatch(/41/)
    // The chat app has no instructions: its batch's summary is the plain template.
    expect((await chat.post('ana', { data: 'I also like chess.' })).status).toBe(202)
    const q = await waitReadyAfter(chat, 'ana', p.last_updated)
    expect(q.summary).toMatch(/^Ana is 41 years old\./)
    // A re-extraction follows the same rule (the newest submission is chat's); after crm writes again, crm's rule.
    const dry = await json(
      await fetch(`${svc.url}/v1/profile/ana/reextract`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apps.crm!.key}` },
      }),
    )
    expect(dry.summary).toMatch(/41/)
    expect((await crm.post('ana', { data: 'I live in Braga.' })).status).toBe(202)
    const r = await waitReadyAfter(crm, 'ana', q.last_updated)
    expect(r.summary).toMatch(/^Ana enjoys hiking and chess\. Ana lives in Braga\./)
    expect(r.summary).not.toMatch(/41/)
    // A forget rewrites the summary under the same rule (crm's submission is the newest).
    const forgot = await fetch(`${svc.url}/v1/profile/ana/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${apps.crm!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ section: 'interests', value: 'chess' }),
    })
    expect(forgot.status, await forgot.clone().text()).toBe(200)
    const f = (await forgot.json()) as any
    expect(f.profile.summary).toMatch(/^Ana enjoys hiking\. Ana lives in Braga\./)
    expect(f.profile.summary).not.toMatch(/41/)
  })

  it("are shown and set by 'profiler app instructions', with clear errors", async () => {
    const tenant = (await browser.gql(`{ me { tenantName } }`)).body.data.me.tenantName
    const cli = (...args: string[]) =>
      run(process.execPath, profilerArgs('app', 'instructions', '--tenant', tenant, ...args), {
        cwd: ROOT,
        env: { ...process.env, ...testEnv(svc.db) },
        timeout: 90_000,
      })
    const shown = JSON.parse((await cli('--app', 'crm', '--json')).stdout)
    expect(shown).toEqual({
      app_id: apps.crm!.id,
      name: 'crm',
      summary_instructions: ['Leave out age', 'Mention interests first'],
    })
    const set = await cli('--app', 'chat', '--set', 'leave out location', 'cover memories')
    expect(set.stdout).toMatch(/1\. leave out location\n\s+2\. cover memories/)
    const tenantId = (await browser.gql(`{ me { tenantId } }`)).body.data.me.tenantId
    expect((await svc.profiler.services.tenants.appOf(tenantId, apps.chat!.id)).summaryInstructions).toEqual([
      'leave out location',
      'cover memories',
    ])
    expect((await cli('--app', 'chat', '--clear')).stdout).toMatch(/has no summary instructions/)
    // `profiler reindex --summaries` rewrites summaries by the same rule: ana's newest submission is crm's.
    await cli('--app', 'crm', '--set', 'leave out location')
    const reindex = await run(process.execPath, profilerArgs('reindex', '--all', '--summaries'), {
      cwd: ROOT,
      env: { ...process.env, ...testEnv(svc.db) },
      timeout: 90_000,
    })
    expect(reindex.stdout).toMatch(/\d+ profiles?/)
    const [{ summary }] = await svc.profiler.db.dataSource.query(
      `SELECT summary FROM profiles WHERE tenant_id = $1 AND profile_id = 'ana'`,
      [tenantId],
    )
    expect(summary).toMatch(/^Ana is 41 years old\./)
    expect(summary).not.toMatch(/Braga/)
    const failed = await cli('--app', 'chat', '--set', 'a', 'b', 'c', 'd', 'e', 'f').then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    )
    expect(failed?.code).not.toBe(0)
    expect(failed?.stderr).toMatch(/At most 5 summary instructions/)
  })

  it("are set and read by the app's own key: REST /v1/summary-instructions and GraphQL, with clear 400s", async () => {
    const key = apps.chat!.key
    const url = `${svc.url}/v1/summary-instructions`
    const put = (body: unknown, type = 'application/json') =>
      fetch(url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': type },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
    const set = await put({ instructions: ['Leave out location', ' cover memories '] })
    expect(set.status, await set.clone().text()).toBe(200)
    expect(await json(set)).toEqual({ app_id: apps.chat!.id, instructions: ['Leave out location', 'cover memories'] })
    expect(await json(await fetch(url, { headers: { authorization: `Bearer ${key}` } }))).toEqual({
      app_id: apps.chat!.id,
      instructions: ['Leave out location', 'cover memories'],
    })
    // The other app's instructions are its own.
    expect((await json(await fetch(url, { headers: { authorization: `Bearer ${apps.crm!.key}` } }))).app_id).toBe(
      apps.crm!.id,
    )

    const refused: [unknown, RegExp][] = [
      [{}, /Missing field: instructions/],
      [[], /Missing field: instructions/],
      [{ instructions: 'leave out age' }, /list/i],
      [{ instructions: ['a', 'b', 'c', 'd', 'e', 'f'] }, /At most 5 summary instructions \(got 6\)/],
      [{ instructions: ['x'.repeat(201)] }, /at most 200 characters/],
      [{ instructions: ['bell\u0007'] }, /control or invisible characters/],
    ]
    for (const [body, message] of refused) {
      const r = await put(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect((await json(r)).message).toMatch(message)
    }
    expect((await put('{"instructions": [', 'application/json')).status).toBe(400)
    expect((await put('instructions=x', 'text/plain')).status).toBe(415)

    // GraphQL with the app key: its own app; another app's id is not found.
    const q = await gql(svc.url, key, `{ summaryInstructions }`)
    expect(q.body.data.summaryInstructions).toEqual(['Leave out location', 'cover memories'])
    const m = await gql(svc.url, key, `mutation($i: [String!]!) { setSummaryInstructions(instructions: $i) }`, {
      i: [],
    })
    expect(m.body.data.setSummaryInstructions).toEqual([])
    const foreign = await gql(svc.url, key, `{ summaryInstructions(appId: "${apps.crm!.id}") }`)
    expect(foreign.body.errors[0].extensions.code).toBe('APP_NOT_FOUND')
    const bad = await gql(svc.url, key, `mutation { setSummaryInstructions(instructions: ["", "ok"]) }`)
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION_FAILED')
    expect(await json(await fetch(url, { headers: { authorization: `Bearer ${key}` } }))).toEqual({
      app_id: apps.chat!.id,
      instructions: [],
    })
  })
})

/** The profile once ready again with a newer last_updated than `since`. */
async function waitReadyAfter(api: ReturnType<typeof client>, id: string, since: string) {
  const { waitFor } = await import('../support/wait.js')
  return waitFor(`profile ${id} updated after ${since}`, () => api.profile(id), {
    until: (p) => p.status === 'ready' && p.last_updated > since,
    timeoutMs: 30_000,
    everyMs: 100,
  })
}

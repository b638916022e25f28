// Custom profile schema per app (docs/guides/custom-schema.md) through the real service with the local provider: the
// schema set and read over REST and GraphQL with clear 400s, the submitting app's schema driving extraction, values
// merged, read and logged, and a version that drops a field moving its values to history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { gqlApi } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

const SCHEMA = {
  sections: {
    diet: {
      restrictions: {
        type: 'string[]',
        description: 'Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
      },
    },
    travel: {
      budget: { type: 'integer', description: 'Trip budget in dollars', min: 0 },
      preferred_language: { type: 'enum', values: ['English', 'Spanish'], description: 'The language to answer in' },
    },
  },
}

describe('custom profile schema', () => {
  let svc: TestService
  let keyA: string
  let appA: string
  let a: Client
  let b: Client
  let other: Client
  let otherKey: string
  const put = (key: string, body: unknown, type = 'application/json') =>
    fetch(`${svc.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    const t = svc.profiler.services.tenants
    const ka = await t.createApp('default', 'shop')
    const kb = await t.createApp('default', 'plain')
    const ko = await t.createApp('tenant-other', 'shop')
    keyA = ka.api_key
    appA = ka.app_id
    a = client(svc.url, ka.api_key)
    b = client(svc.url, kb.api_key)
    other = client(svc.url, ko.api_key)
    otherKey = ko.api_key
  })
  afterAll(async () => svc?.close())

  it('rejects invalid schemas with 400s that name the problem', async () => {
    const cases: [unknown, RegExp][] = [
      [{ sections: { core_info: { x: { type: 'string' } } } }, /shadow the standard profile's 'core_info'/],
      [{ sections: { diet: { Bad: { type: 'string' } } } }, /field name 'diet\.Bad' is invalid/],
      [{ sections: { diet: { a: { type: 'date' } } } }, /diet\.a has type "date"/],
      [{ sections: { diet: { a: { type: 'enum', values: [] } } } }, /needs "values"/],
      [[1, 2], /JSON object/],
      [
        { sections: { d: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: 'string' }])) } },
        /more than 100 fields/,
      ],
    ]
    for (const [body, message] of cases) {
      const r = await put(keyA, body)
      expect(r.status).toBe(400)
      const j = (await r.json()) as { error: number; message: string }
      expect(j.error).toBe(400)
      expect(j.message).toMatch(message)
    }
    expect((await put(keyA, '{"sections":', 'application/json')).status).toBe(400)
    expect((await put(keyA, 'x', 'text/plain')).status).toBe(415)
    const big = await put(keyA, { sections: { d: { f: { type: 'string', description: 'x'.repeat(400 * 1024) } } } })
    expect([400, 413]).toContain(big.status)
    expect(((await (await a.get('/v1/schema')).json()) as any).version).toBe(0)
    expect((await fetch(`${svc.url}/v1/schema`)).status).toBe(401)
    const post = await fetch(`${svc.url}/v1/schema`, { method: 'POST', headers: { authorization: `Bearer ${keyA}` } })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toMatch(/PUT/)
  })

  it('stores versions per app; the same schema again is no new version; other apps and tenants untouched', async () => {
    const r1 = await put(keyA, SCHEMA)
    expect(r1.status).toBe(200)
    expect(await r1.json()).toMatchObject({ version: 1, changed: true, dropped_fields: [], schema: SCHEMA })
    const again = (await (await put(keyA, JSON.parse(JSON.stringify(SCHEMA)))).json()) as any
    expect(again).toMatchObject({ version: 1, changed: false })
    const got = (await (await a.get('/v1/schema')).json()) as any
    expect(got).toMatchObject({ version: 1, schema: SCHEMA })
    expect(typeof got.created_at).toBe('string')
    expect(((await (await b.get('/v1/schema')).json()) as any).version).toBe(0)
    expect(((await (await other.get('/v1/schema')).json()) as any).version).toBe(0)
  })

  it("extracts the submitting app's fields, merges and shows them, and logs them", async () => {
    expect(
      (
        await a.post('p1', {
          data:
            "Hi, I'm Ana. I'm vegetarian and gluten-free, but I'm not vegan. " +
            'My budget is $1,200 and I prefer Spanish.',
        })
      ).status,
    ).toBe(202)
    const p = await a.waitReady('p1')
    expect(p.custom).toEqual({
      diet: {
        restrictions: [
          { value: 'vegetarian', confidence: 0.6 },
          { value: 'gluten-free', confidence: 0.6 },
        ],
      },
      travel: { budget: { value: 1200, confidence: 0.8 }, preferred_language: { value: 'Spanish', confidence: 0.72 } },
    })
    expect(p.core_info.name.value).toBe('Ana')
    const last = p.update_log[p.update_log.length - 1]
    expect(last.changes.custom.travel.budget).toEqual({ value: 1200, confidence: 0.8 })
    expect(p.field_timestamps['custom.travel.budget']).toBeTruthy()

    // An app without a schema: its submissions fill no custom field, even on a profile that has some.
    expect((await b.post('p1', { data: 'I am vegan now. My budget is 50.' })).status).toBe(202)
    const p2 = await b.waitReady('p1')
    expect(p2.custom).toEqual(p.custom)

    // Structured data may carry custom values; what does not fit the schema is dropped.
    const structured = {
      custom: {
        diet: { restrictions: ['halal', 7] },
        travel: { budget: 'lots', preferred_language: 'Klingon' },
        nope: { x: 1 },
      },
    }
    expect((await a.post('p1', { data: JSON.stringify(structured), input_type: 'structured' })).status).toBe(202)
    const p3 = await a.waitReady('p1')
    expect(p3.custom.diet.restrictions.map((e: any) => e.value)).toEqual(['vegetarian', 'gluten-free', 'halal'])
    expect(p3.custom.travel).toEqual(p.custom.travel)

    // The LLM context lists them.
    const ctx = (await (await a.get('/v1/profile/p1/context')).json()) as any
    expect(ctx.text).toMatch(/travel budget: 1200/)
  })

  it('serves the schema and the values over GraphQL, with VALIDATION_FAILED (400) for an invalid schema', async () => {
    const api = gqlApi(svc.url, keyA)
    const d = await api.data(`{ customSchema { version schema } profile(id: "p1") { custom } }`)
    expect(d.customSchema).toEqual({ version: 1, schema: SCHEMA })
    expect(d.profile.custom.travel.preferred_language.value).toBe('Spanish')
    const bad = await api.raw(`mutation($s: JSONObject!) { setCustomSchema(schema: $s) { version } }`, {
      s: { sections: { interests: { x: { type: 'string' } } } },
    })
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    expect(bad.body.errors[0].message).toMatch(/shadow/)
    const foreign = await api.raw(`{ customSchema(appId: "someone-else") { version } }`)
    expect(foreign.body.errors[0].message).toMatch(/App not found/)
  })

  it("is viewed and set from the dashboard for the signed-in account's apps only", async () => {
    const browser = new DashboardBrowser(svc.url)
    expect((await browser.signUp('schema@example.com', 'correct horse battery staple')).body.errors).toBeUndefined()
    const mine = (await browser.gql(`mutation { createApp(name: "mine") { app { id } } }`)).body.data.createApp.app.id
    const set = `mutation($id: ID!, $s: JSONObject!) {
      setCustomSchema(appId: $id, schema: $s) { appId version changed }
    }`
    expect((await browser.gql(set, { id: mine, s: SCHEMA })).body.data.setCustomSchema).toEqual({
      appId: mine,
      version: 1,
      changed: true,
    })
    const read = await browser.gql(
      `query($id: ID!) { customSchema(appId: $id) { version schema } customSchemaVersions(appId: $id) { version } }`,
      { id: mine },
    )
    expect(read.body.data).toEqual({
      customSchema: { version: 1, schema: SCHEMA },
      customSchemaVersions: [{ version: 1 }],
    })
    const bad = await browser.gql(set, { id: mine, s: { sections: { x: { y: { type: 'enum' } } } } })
    expect(bad.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/enum field x\.y needs "values"/),
      extensions: { code: 'VALIDATION_FAILED' },
    })
    // Another tenant's app is not found from this account, and keeps its schema.
    expect((await browser.gql(set, { id: appA, s: { sections: {} } })).body.errors[0].extensions.code).toBe(
      'APP_NOT_FOUND',
    )
    expect(
      (await browser.gql(`query($id: ID!) { customSchema(appId: $id) { version } }`, { id: appA })).body.errors[0]
        .extensions.code,
    ).toBe('APP_NOT_FOUND')
    expect((await browser.gql(`{ customSchema { version } }`)).body.errors[0].extensions.code).toBe('VALIDATION_FAILED')
    expect(((await (await a.get('/v1/schema')).json()) as any).version).toBe(1)
  })

  it('a version that drops a field moves its values to history, not lost', async () => {
    const api = gqlApi(svc.url, keyA)
    const next = { sections: { travel: SCHEMA.sections.travel } }
    const r = await api.data(
      `mutation($s: JSONObject!) { setCustomSchema(schema: $s) { version changed droppedFields profilesUpdated } }`,
      { s: next },
    )
    expect(r.setCustomSchema).toEqual({
      version: 2,
      changed: true,
      droppedFields: ['diet.restrictions'],
      profilesUpdated: 1,
    })
    const p = await a.profile('p1')
    expect(p.custom.diet).toBeUndefined()
    expect(p.custom.travel.budget.value).toBe(1200)
    const entry = p.update_log[p.update_log.length - 1]
    expect(entry.input_type).toBe('schema')
    expect(entry.changes.removed_custom.diet.restrictions.map((e: any) => e.value)).toEqual([
      'vegetarian',
      'gluten-free',
      'halal',
    ])
    expect(entry.changes.schema).toMatchObject({ version: 2 })
    const versions = (await (await a.get('/v1/schema/versions')).json()) as any
    expect(versions.versions.map((v: any) => v.version)).toEqual([2, 1])
    expect(versions.versions[1].schema).toEqual(SCHEMA)
  })

  it('export and import keep custom values', async () => {
    const exported = await (await a.get('/v1/export?profile_id=p1')).text()
    const record = exported
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.type === 'profile')
    expect(record.custom.travel.budget.value).toBe(1200)
    const r = await fetch(`${svc.url}/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/x-ndjson' },
      body: exported,
    })
    expect(r.status).toBe(200)
    expect((await other.profile('p1')).custom).toEqual((await a.profile('p1')).custom)
  })

  it("a re-extraction reads each submission with its app's schema: custom values survive it", async () => {
    expect((await a.post('p-re', { data: 'My budget is $900 and I prefer English.' })).status).toBe(202)
    const before = await a.waitReady('p-re')
    expect(before.custom.travel.budget.value).toBe(900)
    const reextract = (q: string) =>
      fetch(`${svc.url}/v1/profile/p-re/reextract${q}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}` },
      })
    const dry = (await (await reextract('?dry_run=true')).json()) as any
    expect(dry.changed, JSON.stringify(dry.changes)).toBe(false)
    const applied = await reextract(`?dry_run=false&expected_version=${dry.version}`)
    expect(applied.status, await applied.clone().text()).toBe(200)
    expect((await a.profile('p-re')).custom).toEqual(before.custom)
  })
})

describe('custom profile schema: versions kept up to PROFILER_SCHEMA_MAX_VERSIONS', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000', PROFILER_SCHEMA_MAX_VERSIONS: '3' } })
  })
  afterAll(async () => svc?.close())

  it('storing a version keeps the newest 3, in its transaction; the current one drives extraction', async () => {
    const t = svc.profiler.services.tenants
    const k = await t.createApp('default', 'shop')
    const kb = await t.createApp('default', 'plain')
    const put = (key: string, body: unknown) =>
      fetch(`${svc.url}/v1/schema`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const nth = (i: number) => ({
      sections: { travel: { budget: { type: 'integer', description: `Trip budget in dollars (${i})`, min: 0 } } },
    })
    const stored = async (appId: string) =>
      (
        await svc.profiler.db.dataSource.query(
          `SELECT version FROM app_schemas WHERE tenant_id = $1 AND app_id = $2 ORDER BY version`,
          [k.tenant_id, appId],
        )
      ).map((r: { version: number }) => Number(r.version))
    for (let i = 1; i <= 2; i++)
      expect(
        (await put(kb.api_key, { sections: { diet: { restrictions: { type: 'string[]', description: `v${i}` } } } }))
          .status,
      ).toBe(200)
    for (let i = 1; i <= 7; i++) {
      const r = await put(k.api_key, nth(i))
      expect(r.status).toBe(200)
      expect(((await r.json()) as any).version).toBe(i)
      expect(await stored(k.app_id)).toEqual(Array.from({ length: Math.min(i, 3) }, (_, j) => Math.max(i, 3) - 2 + j))
    }
    // The same schema again is no new version and deletes nothing; the other app keeps its two.
    expect(((await (await put(k.api_key, nth(7))).json()) as any).changed).toBe(false)
    expect(await stored(k.app_id)).toEqual([5, 6, 7])
    expect(await stored(kb.app_id)).toEqual([1, 2])

    const a = client(svc.url, k.api_key)
    const listed = (await (await a.get('/v1/schema/versions')).json()) as any
    expect(listed.versions.map((v: any) => v.version)).toEqual([7, 6, 5])
    expect(listed.versions[2].schema).toEqual(nth(5))
    expect((await (await a.get('/v1/schema')).json()) as any).toMatchObject({ version: 7, schema: nth(7) })
    const g = await gqlApi(svc.url, k.api_key).data(`{ customSchema { version } customSchemaVersions { version } }`)
    expect(g).toEqual({
      customSchema: { version: 7 },
      customSchemaVersions: [{ version: 7 }, { version: 6 }, { version: 5 }],
    })

    // Submissions use the app's current version, whatever was deleted.
    expect((await a.post('kept', { data: 'My budget is $700.' })).status).toBe(202)
    expect((await a.waitReady('kept')).custom.travel.budget.value).toBe(700)

    // A change that fails after the deletion (here: while it moves a dropped field's values to history) deletes
    // nothing.
    const retyped = { sections: { travel: { budget: { type: 'number' } } } }
    // On Citus a trigger goes on the shards, which it allows (to create and to drop) only with
    // citus.enable_unsafe_triggers: set for the session that runs the statements.
    const ddl = async (...statements: string[]) => {
      const sql = svc.profiler.db.dataSource.createQueryRunner()
      try {
        const [citus] = await sql.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`)
        if (citus) await sql.query(`SET citus.enable_unsafe_triggers = on`)
        for (const s of statements) await sql.query(s)
        if (citus) await sql.query(`RESET citus.enable_unsafe_triggers`)
      } finally {
        await sql.release()
      }
    }
    await ddl(
      `CREATE FUNCTION fail_schema_history() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'injected'; END
       $$`,
      `CREATE TRIGGER fail_schema_history BEFORE INSERT ON profile_history FOR EACH ROW
         WHEN (NEW.input_type = 'schema') EXECUTE FUNCTION fail_schema_history()`,
    )
    try {
      expect((await put(k.api_key, retyped)).status).toBe(500)
    } finally {
      await ddl(`DROP TRIGGER fail_schema_history ON profile_history`, `DROP FUNCTION fail_schema_history()`)
    }
    expect(await stored(k.app_id)).toEqual([5, 6, 7])
    expect((await a.profile('kept')).custom.travel.budget.value).toBe(700)
    const done = await put(k.api_key, retyped)
    expect(await done.json()).toMatchObject({ version: 8, dropped_fields: ['travel.budget'], profiles_updated: 1 })
    expect(await stored(k.app_id)).toEqual([6, 7, 8])
  })
})

describe('custom profile schema: a change while a batch of the profile is in flight', () => {
  let svc: TestService
  beforeAll(async () => {
    // Extraction waits 1.5 s, so the schema change lands between the batch's claim and its apply.
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000', PROFILER_EXTRACT_DELAY_MS: '1500' } })
  })
  afterAll(async () => svc?.close())

  it('does not bring dropped values back: the batch is done again from the new content', async () => {
    const k = await svc.profiler.services.tenants.createApp('default', 'shop')
    const api = client(svc.url, k.api_key)
    const put = (body: unknown) =>
      fetch(`${svc.url}/v1/schema`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${k.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    expect((await put(SCHEMA)).status).toBe(200)
    expect((await api.post('race', { data: "I'm vegetarian." })).status).toBe(202)
    expect((await api.waitReady('race')).custom.diet.restrictions[0].value).toBe('vegetarian')

    expect((await api.post('race', { data: "I'm vegan. My budget is 300." })).status).toBe(202)
    const ds = svc.profiler.db.dataSource
    await waitFor(
      'the batch to be claimed',
      () =>
        ds.query(
          `SELECT status FROM submissions WHERE tenant_id = $1 AND profile_id = 'race' ORDER BY seq DESC LIMIT 1`,
          [k.tenant_id],
        ),
      {
        until: (rows: { status: string }[]) => rows[0]?.status === 'processing',
        timeoutMs: 30_000,
        everyMs: 20,
      },
    )
    const r = (await (await put({ sections: { travel: SCHEMA.sections.travel } })).json()) as any
    expect(r).toMatchObject({ version: 2, dropped_fields: ['diet.restrictions'], profiles_updated: 1 })

    const p = await api.waitReady('race', 60_000)
    expect(p.custom.diet).toBeUndefined()
    expect(p.custom.travel.budget.value).toBe(300)
    const schemaEntry = p.update_log.find((e: any) => e.input_type === 'schema')
    expect(schemaEntry.changes.removed_custom.diet.restrictions.map((e: any) => e.value)).toEqual(['vegetarian'])
    // The batch was handed back, not failed: one attempt recorded once it is done.
    const [sub] = await ds.query(
      `SELECT status, attempts FROM submissions WHERE tenant_id = $1 AND profile_id = 'race' ORDER BY seq DESC LIMIT 1`,
      [k.tenant_id],
    )
    expect(sub).toEqual({ status: 'done', attempts: 1 })
  })
})

describe('custom profile schema: forgetting a custom value', () => {
  let svc: TestService
  let api: Client
  let key: string
  const forget = (body: unknown) =>
    fetch(`${svc.url}/v1/profile/f1/values`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    const k = await svc.profiler.services.tenants.createApp('default', 'shop')
    key = k.api_key
    api = client(svc.url, key)
    const put = await fetch(`${svc.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(SCHEMA),
    })
    expect(put.status).toBe(200)
  })
  afterAll(async () => svc?.close())

  it('removes a list entry or scalar (custom.<section>.<field>), logged; only newer evidence restores it', async () => {
    expect((await api.post('f1', { data: "I'm vegetarian and halal. My budget is $800." })).status).toBe(202)
    const p = await api.waitReady('f1')
    expect(p.custom.diet.restrictions.map((e: any) => e.value)).toEqual(['vegetarian', 'halal'])

    const r = await forget({ section: 'custom.diet.restrictions', value: 'Vegetarian' })
    expect(r.status, await r.clone().text()).toBe(200)
    const after = ((await r.json()) as any).profile
    expect(after.custom.diet.restrictions.map((e: any) => e.value)).toEqual(['halal'])
    expect(after.update_log.at(-1)).toMatchObject({
      input_type: 'forget',
      changes: { removed: [{ section: 'custom.diet.restrictions', value: 'vegetarian' }] },
    })
    const context = ((await (await api.get('/v1/profile/f1/context')).json()) as any).text
    expect(context).toMatch(/diet restrictions: halal/)
    expect(context).not.toMatch(/restrictions: [^\n]*vegetarian/)

    const b = await forget({ section: 'custom.travel.budget', value: 800 })
    expect(b.status, await b.clone().text()).toBe(200)
    expect(((await b.json()) as any).profile.custom.travel).toBeUndefined()

    // Bad names are 400s, absent values 404s.
    for (const section of ['custom.diet', 'custom.Diet.restrictions', 'custom..x', 'custom.diet.restrictions.extra']) {
      const bad = await forget({ section, value: 'x' })
      expect(bad.status, section).toBe(400)
      expect(((await bad.json()) as any).message).toMatch(/custom\.<section>\.<field>/)
    }
    expect((await forget({ section: 'custom.diet.restrictions', value: 'kosher' })).status).toBe(404)
    expect((await forget({ section: 'custom.nope.field', value: 'x' })).status).toBe(404)

    // A submission that does not state it leaves it gone; one that does (newer evidence) brings it back.
    expect((await api.post('f1', { data: 'I am also kosher.' })).status).toBe(202)
    await waitFor('kosher merged', () => api.profile('f1'), {
      until: (q) => q.status === 'ready' && q.custom.diet.restrictions.some((e: any) => e.value === 'kosher'),
    })
    expect((await api.profile('f1')).custom.diet.restrictions.map((e: any) => e.value)).not.toContain('vegetarian')
    expect((await api.post('f1', { data: "I'm vegetarian again." })).status).toBe(202)
    await waitFor('vegetarian back', () => api.profile('f1'), {
      until: (q) => q.status === 'ready' && q.custom.diet.restrictions.some((e: any) => e.value === 'vegetarian'),
    })

    // Over GraphQL too.
    const g = gqlApi(svc.url, key)
    const gone = await g.data(
      `mutation { forgetProfileValue(id: "f1", section: "custom.diet.restrictions", value: "halal") { custom } }`,
    )
    expect(gone.forgetProfileValue.custom.diet.restrictions.map((e: any) => e.value)).not.toContain('halal')
  })
})

// App names (docs/reference/cli.md#app-names): a free display name beside the slug handle, on both databases, through
// the tenant service (what the CLI calls) and the dashboard's GraphQL over real HTTP; hostile names are refused with
// 400-class VALIDATION_FAILED, taken ones with CONFLICT, and a migrated app keeps working by its old name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppDisplayNames1764400000300 } from '../../migrations/1764400000300-AppDisplayNames.js'
import { DomainError } from '../../src/domain/errors.js'
import type { TenantService } from '../../src/services/tenant.service.js'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { client, startService, type TestService } from '../support/harness.js'

const codeOf = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code
async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error('expected a failure')
}

describe('app display names and slugs', () => {
  let svc: TestService
  let t: TenantService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SIGNUP_MAX_PER_ADDRESS: '1000' } })
    t = svc.profiler.services.tenants
  })
  afterAll(async () => svc?.close())

  it('a free name gets a derived slug, de-duplicated in the tenant; both are shown; the key works', async () => {
    const a = await t.createApp('names', 'My Web App')
    expect(a).toMatchObject({ app_name: 'my-web-app', display_name: 'My Web App' })
    expect((await client(svc.url, a.api_key).post('p1', { data: 'I am a nurse.', input_type: 'text' })).status).toBe(
      202,
    )
    // another name with the same slug: suffixed
    const b = await t.createApp('names', 'My web-app!')
    expect(b.app_name).toBe('my-web-app-2')
    const c = await t.createApp('names', '  My   Web:App  ')
    expect(c).toMatchObject({ app_name: 'my-web-app-3', display_name: 'My Web:App' }) // trimmed, spaces collapsed
    // a name that is already a slug stays the slug (old scripts: --name web-app)
    expect((await t.createApp('names', 'Legacy_App.v2')).app_name).toBe('Legacy_App.v2')
    // accents dropped, nothing usable -> "app"; emoji allowed
    expect(await t.createApp('names', 'Café Olé')).toMatchObject({ app_name: 'cafe-ole', display_name: 'Café Olé' })
    expect(await t.createApp('names', '🚀 日本')).toMatchObject({ app_name: 'app', display_name: '🚀 日本' })
    expect((await t.createApp('names', '👩‍💻')).app_name).toBe('app-2') // ZWJ sequence kept whole
    // an explicit slug
    expect(await t.createApp('names', { displayName: 'Billing', slug: 'bill' })).toMatchObject({
      app_name: 'bill',
      display_name: 'Billing',
    })
    const listed = (await t.listApps('names')).map((x) => [x.name, x.display_name])
    expect(listed).toEqual([
      ['my-web-app', 'My Web App'],
      ['my-web-app-2', 'My web-app!'],
      ['my-web-app-3', 'My Web:App'],
      ['Legacy_App.v2', 'Legacy_App.v2'],
      ['cafe-ole', 'Café Olé'],
      ['app', '🚀 日本'],
      ['app-2', '👩‍💻'],
      ['bill', 'Billing'],
    ])
  })

  it('display names unique per tenant up to case and spacing (CONFLICT), not across tenants; slugs too', async () => {
    await t.createApp('uniq', 'Shop Front')
    for (const same of ['shop front', 'SHOP  FRONT', ' Shop Front ', 'ＳＨＯＰ ＦＲＯＮＴ']) {
      const f = await failure(t.createApp('uniq', same))
      expect(f.code, same).toBe('CONFLICT')
      expect(f.message).toContain("An app named 'Shop Front' already exists")
    }
    expect((await t.createApp('uniq-2', 'Shop Front')).app_name).toBe('shop-front') // another tenant
    expect((await failure(t.createApp('uniq', { displayName: 'Other', slug: 'shop-front' }))).code).toBe('CONFLICT')
    expect((await failure(t.createApp('uniq', { displayName: 'Other', slug: 'bad slug' }))).code).toBe(
      'VALIDATION_FAILED',
    )
  })

  it('hostile names are refused with a clear message, nothing is created', async () => {
    const cases: [unknown, RegExp][] = [
      ['', /empty or only white space/],
      ['   \u00a0\u3000 ', /empty or only white space/],
      ['x'.repeat(101), /at most 100 characters \(got 101\)/],
      ['x'.repeat(10_000), /at most 100 characters \(got 10000\)/],
      ['evil\u202Eppa.exe', /text-direction characters \(found U\+202E\)/],
      ['a\u2066b', /found U\+2066/],
      ['a\u200Bb', /found U\+200B/], // zero-width space: two names that look the same
      ['nul\u0000', /found U\+0000/],
      ['line\nbreak', /found U\+000A/],
      ['tab\there', /found U\+0009/],
      ['esc\u001b[31m', /found U\+001B/],
      ['c1\u0085', /found U\+0085/],
      ['lone \ud800 surrogate', /lone surrogates/],
      ['lone \udc00', /lone surrogates/],
      ['private \ue000', /found U\+E000/],
      [42, /must be a string/],
    ]
    for (const [name, message] of cases) {
      const f = await failure(t.createApp('hostile', name as string))
      expect(f.code, JSON.stringify(name)).toBe('VALIDATION_FAILED')
      expect(f.message, JSON.stringify(name)).toMatch(message)
    }
    expect(await t.listApps('hostile')).toEqual([])
    // exactly 100 characters (code points, not UTF-16 units) is fine
    const hundred = '😀'.repeat(100)
    expect((await t.createApp('hostile', hundred)).display_name).toBe(hundred)
  })

  it('the CLI handle: an app is found by slug, id or display name; rename keeps id and key', async () => {
    const a = await t.createApp('handles', 'Mobile App')
    expect(
      (await t.setRetention('handles', 'mobile-app', { deleteProfilesAfterDays: 5 })).deleteProfilesAfterDays,
    ).toBe(5)
    expect((await t.setRetention('handles', a.app_id, { deleteProfilesAfterDays: 6 })).deleteProfilesAfterDays).toBe(6)
    expect(
      (await t.setRetention('handles', 'mobile app', { deleteProfilesAfterDays: 7 })).deleteProfilesAfterDays,
    ).toBe(7)
    expect((await failure(t.setRetention('handles', 'nope', {}))).code).toBe('APP_NOT_FOUND')
    // a slug wins over another app's display name
    const b = await t.createApp('handles', { displayName: 'mobile-app2', slug: 'm2' })
    await t.createApp('handles', { displayName: 'Other', slug: 'mobile-app2' })
    expect((await t.setRetention('handles', 'mobile-app2', { deleteProfilesAfterDays: 9 })).id).not.toBe(b.app_id)

    const renamed = await t.renameApp('handles', 'mobile-app', { displayName: 'Mobile (iOS) 📱' }, { byId: false })
    expect(renamed).toMatchObject({ id: a.app_id, name: 'mobile-app', displayName: 'Mobile (iOS) 📱' })
    // renaming to its own name in another case is no conflict; to another app's name is
    expect(
      (await t.renameApp('handles', a.app_id, { displayName: 'MOBILE (ios) 📱' }, { byId: false })).displayName,
    ).toBe('MOBILE (ios) 📱')
    expect((await failure(t.renameApp('handles', a.app_id, { displayName: 'other' }, { byId: false }))).code).toBe(
      'CONFLICT',
    )
    expect((await failure(t.renameApp('handles', a.app_id, { slug: 'm2' }, { byId: false }))).code).toBe('CONFLICT')
    expect((await failure(t.renameApp('handles', a.app_id, { displayName: 'x\u202E' }, { byId: false }))).code).toBe(
      'VALIDATION_FAILED',
    )
    expect((await failure(t.renameApp('handles', a.app_id, {}, { byId: false }))).code).toBe('VALIDATION_FAILED')
    const slugged = await t.renameApp('handles', a.app_id, { slug: 'ios' }, { byId: false })
    expect(slugged).toMatchObject({ name: 'ios', displayName: 'MOBILE (ios) 📱' })
    expect((await client(svc.url, a.api_key).post('p1', { data: 'I am a nurse.', input_type: 'text' })).status).toBe(
      202,
    )
    expect((await t.rotateKey('handles', 'ios')).display_name).toBe('MOBILE (ios) 📱')
  })

  it('GraphQL: createApp with a free name, displayName and name (slug), renameApp; errors as codes', async () => {
    const b = new DashboardBrowser(svc.url)
    await b.signUp('names@example.com', 'correct horse battery')
    const create = `mutation($n: String!, $s: String) {
      createApp(name: $n, slug: $s) { apiKey app { id name displayName } }
    }`
    const made = (await b.gql(create, { n: 'My Web App' })).body.data.createApp
    expect(made.app).toMatchObject({ name: 'my-web-app', displayName: 'My Web App' })
    expect((await b.gql(create, { n: 'Second', s: 'two' })).body.data.createApp.app).toMatchObject({
      name: 'two',
      displayName: 'Second',
    })
    expect(codeOf(await b.gql(create, { n: 'my web app' }))).toBe('CONFLICT')
    const tooLong = await b.gql(create, { n: 'y'.repeat(10_000) })
    expect(codeOf(tooLong)).toBe('VALIDATION_FAILED')
    expect(tooLong.body.errors[0].message).toContain('at most 100 characters')
    expect(codeOf(await b.gql(create, { n: '\u202Egnp.exe' }))).toBe('VALIDATION_FAILED')
    const rename = `mutation($id: ID!, $n: String, $s: String) {
      renameApp(id: $id, name: $n, slug: $s) { id name displayName }
    }`
    expect((await b.gql(rename, { id: made.app.id, n: 'Storefront 🛒' })).body.data.renameApp).toEqual({
      id: made.app.id,
      name: 'my-web-app',
      displayName: 'Storefront 🛒',
    })
    expect((await b.gql(rename, { id: made.app.id, s: 'store' })).body.data.renameApp.name).toBe('store')
    expect(codeOf(await b.gql(rename, { id: made.app.id, n: 'SECOND' }))).toBe('CONFLICT')
    expect(codeOf(await b.gql(rename, { id: made.app.id }))).toBe('VALIDATION_FAILED')
    expect((await b.gql(`{ apps { name displayName } }`)).body.data.apps).toEqual([
      { name: 'store', displayName: 'Storefront 🛒' },
      { name: 'two', displayName: 'Second' },
    ])
  })

  it('the migration: existing apps get display_name = name; names that differed only by case get " (2)"', async () => {
    const ds = svc.profiler.db.dataSource
    const m = new AppDisplayNames1764400000300()
    const q = ds.createQueryRunner()
    try {
      await m.down(q)
      const [{ id: tenantId }] = await q.query(
        `INSERT INTO tenants (id, name) VALUES ('ten_migr', 'migr') RETURNING id`,
      )
      await q.query(
        `INSERT INTO apps (tenant_id, id, name, created_at)
         VALUES ($1, 'app_m1', 'Web', now() - interval '2 days'), ($1, 'app_m2', 'web', now() - interval '1 day'),
                ($1, 'app_m3', 'WEB', now()), ($1, 'app_m4', 'api', now())`,
        [tenantId],
      )
      await m.up(q)
    } finally {
      await q.release()
    }
    expect((await t.listApps('migr')).map((a) => [a.id, a.name, a.display_name])).toEqual([
      ['app_m1', 'Web', 'Web'],
      ['app_m2', 'web', 'web (2)'],
      ['app_m3', 'WEB', 'WEB (3)'],
      ['app_m4', 'api', 'api'],
    ])
    // and the uniqueness holds afterwards
    expect((await failure(t.createApp('migr', 'WEB (2)'))).code).toBe('CONFLICT')
    expect((await t.renameApp('migr', 'web', { displayName: 'Web mobile' }, { byId: false })).id).toBe('app_m2')
  })
})

// Tenant isolation under a random sweep: two tenants share every profile id and act at once over REST, GraphQL over
// HTTP and subscriptions (2,000 seeded operations). Each tenant writes only its own marker (a name and a city); no read
// of one tenant ever shows the other's marker or tenant id, no delete of one removes the other's profile, and no
// subscription receives an event of the other tenant.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, gql, type Recorder, type Socket, type StatusEvent } from '../support/graphql-client.js'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { waitFor } from '../support/wait.js'

const SEED = Number(process.env.ISOLATION_SEED ?? 4242)
const OPS = 2000
const IDS = Array.from({ length: 10 }, (_, i) => `p${i}`)

interface Tenant {
  name: 'A' | 'B'
  key: string
  tenantId: string
  api: Client
  marker: { name: string; city: string }
  other: { name: string; city: string }
  /** Ids it may delete; the other tenant's may not. */
  deletes: string[]
  posted: Set<string>
  socket?: Socket
  events?: Recorder<StatusEvent>
}

type Op = {
  tenant: 0 | 1
  kind: 'post' | 'get' | 'delete' | 'search' | 'gqlProfile' | 'gqlSearch' | 'gqlSubmit' | 'gqlDelete'
  id: string
}

describe('tenant isolation sweep', () => {
  let svc: TestService
  const tenants: Tenant[] = []
  beforeAll(async () => {
    svc = await startService({
      env: { PROFILER_RATE_LIMIT_PER_MINUTE: '1000000', PROFILER_WS_MAX_SUBSCRIPTIONS: '50' },
    })
    const bKey = (await svc.profiler.services.tenants.createApp('tenant-b', 'app')).api_key
    const ctx = async (key: string) => (await svc.profiler.services.tenants.authenticate(key, 't')).tenantId
    const a = { name: 'Alba', city: 'Aarhus' }
    const b = { name: 'Bruno', city: 'Bergen' }
    tenants.push(
      {
        name: 'A',
        key: svc.key,
        tenantId: await ctx(svc.key),
        api: client(svc.url, svc.key),
        marker: a,
        other: b,
        deletes: IDS.slice(0, 5),
        posted: new Set(),
      },
      {
        name: 'B',
        key: bKey,
        tenantId: await ctx(bKey),
        api: client(svc.url, bKey),
        marker: b,
        other: a,
        deletes: IDS.slice(5),
        posted: new Set(),
      },
    )
    for (const t of tenants) {
      t.socket = connect(svc.url, t.key)
      await t.socket.connected
      t.events = t.socket.status()
    }
  })
  afterAll(async () => {
    for (const t of tenants) await t.socket?.close()
    await svc?.close()
  })

  /** Fails when anything in `value` belongs to the other tenant. */
  const ownOnly = (t: Tenant, value: unknown, what: string) => {
    const text = JSON.stringify(value)
    expect(text, `${t.name} ${what}`).not.toContain(t.other.name)
    expect(text, `${t.name} ${what}`).not.toContain(t.other.city)
    const other = tenants.find((x) => x !== t)!
    expect(text, `${t.name} ${what}`).not.toContain(other.tenantId)
  }

  const run = async (op: Op) => {
    const t = tenants[op.tenant]!
    const data = `My name is ${t.marker.name} and I live in ${t.marker.city}.`
    switch (op.kind) {
      case 'post': {
        const r = await t.api.post(op.id, { data })
        expect(r.status).toBe(202)
        t.posted.add(op.id)
        return
      }
      case 'gqlSubmit': {
        const r = await gql(
          svc.url,
          t.key,
          'mutation($id: ID!, $d: String!) { submitProfileData(id: $id, data: $d) { id profileId } }',
          { id: op.id, d: data },
        )
        expect(r.body.errors).toBeUndefined()
        t.posted.add(op.id)
        return
      }
      case 'get': {
        const r = await t.api.get(`/v1/profile/${op.id}`)
        expect([200, 404]).toContain(r.status)
        const body = await r.json()
        if (r.status === 200) expect((body as any).profile.tenant_id).toBe(t.tenantId)
        return ownOnly(t, body, `GET ${op.id}`)
      }
      case 'delete': {
        if (!t.deletes.includes(op.id)) return
        const r = await t.api.del(op.id)
        expect([204, 404]).toContain(r.status)
        t.posted.delete(op.id)
        return
      }
      case 'gqlDelete': {
        if (!t.deletes.includes(op.id)) return
        const r = await gql(svc.url, t.key, 'mutation($id: ID!) { deleteProfile(id: $id) }', { id: op.id })
        expect(r.body.errors).toBeUndefined()
        t.posted.delete(op.id)
        return
      }
      case 'search': {
        const body = await t.api.search(
          op.id === 'p0'
            ? { query: `${t.other.name} ${t.other.city}`, sensitivity: 0 }
            : { filterBy: 'id', filterValue: op.id },
        )
        for (const p of body.profiles) expect(p.tenant_id).toBe(t.tenantId)
        return ownOnly(t, body, 'search')
      }
      case 'gqlProfile': {
        const r = await gql(
          svc.url,
          t.key,
          `query($id: ID!) { profile(id: $id) {
            tenantId coreInfo { name { value } location { value } } history(first: 100) { entries { changes } } summary
          } }`,
          { id: op.id },
        )
        expect(r.body.errors).toBeUndefined()
        if (r.body.data.profile) expect(r.body.data.profile.tenantId).toBe(t.tenantId)
        return ownOnly(t, r.body, `gql profile ${op.id}`)
      }
      case 'gqlSearch': {
        const r = await gql(
          svc.url,
          t.key,
          `query($q: String) { searchProfiles(query: $q, sensitivity: 0, pageSize: 100) {
            total profiles { profile { tenantId summary coreInfo { name { value } } } }
          } }`,
          { q: `${t.other.name} lives in ${t.other.city}` },
        )
        expect(r.body.errors).toBeUndefined()
        for (const p of r.body.data.searchProfiles.profiles) expect(p.profile.tenantId).toBe(t.tenantId)
        return ownOnly(t, r.body, 'gql search')
      }
    }
  }

  it(`${OPS} operations of two tenants on shared ids: no cross-tenant read, write, event (seed ${SEED})`, async () => {
    const op = fc.record({
      tenant: fc.constantFrom(0 as const, 1 as const),
      kind: fc.constantFrom('post', 'get', 'delete', 'search', 'gqlProfile', 'gqlSearch', 'gqlSubmit', 'gqlDelete'),
      id: fc.constantFrom(...IDS),
    }) as fc.Arbitrary<Op>
    const ops = fc.sample(fc.array(op, { minLength: OPS, maxLength: OPS }), { seed: SEED, numRuns: 1 })[0]!
    // Eight at a time; one tenant's operations on one id run in order, so what it posted and deleted is known.
    for (let i = 0; i < ops.length; i += 8) {
      const chains = new Map<string, Promise<void>>()
      for (const o of ops.slice(i, i + 8)) {
        const k = `${o.tenant}:${o.id}`
        chains.set(
          k,
          (chains.get(k) ?? Promise.resolve()).then(() => run(o)),
        )
      }
      await Promise.all(chains.values())
    }

    // Everything settles; then each tenant's view holds only its own data, and what it posted and did not delete itself
    // is still there (the other tenant's deletes of the same ids did not touch it).
    for (const t of tenants) {
      for (const id of t.posted) {
        const p = await t.api.waitReady(id, 60_000)
        expect(p.tenant_id).toBe(t.tenantId)
        expect(p.core_info.name?.value).toBe(t.marker.name)
        expect(p.core_info.location?.value).toBe(t.marker.city)
        ownOnly(t, p, `final ${id}`)
      }
      for (const id of IDS.filter((x) => !t.posted.has(x) && !t.deletes.includes(x))) {
        expect((await t.api.get(`/v1/profile/${id}`)).status).toBe(404)
      }
    }
    // Every event a tenant's subscription received is about its own profiles.
    for (const t of tenants) {
      await waitFor(
        `a READY event at ${t.name}'s subscription`,
        () => t.events!.events.some((e) => e.status === 'READY'),
        { timeoutMs: 10_000 },
      )
      for (const e of t.events!.events) {
        expect(IDS).toContain(e.profileId)
        if (e.profile) expect(e.profile.tenantId).toBe(t.tenantId)
        ownOnly(t, e, 'event')
      }
      expect(t.events!.errors).toEqual([])
    }
    // And in storage: each tenant's submissions hold only its own text.
    const rows: { tenant_id: string; data: string }[] = await svc.profiler.db.dataSource.query(
      `SELECT tenant_id, data FROM submissions`,
    )
    for (const r of rows) {
      const t = tenants.find((x) => x.tenantId === r.tenant_id)!
      expect(r.data).toContain(t.marker.name)
    }
  }, 300_000)
})

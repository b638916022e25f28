// API keys looked up through their routes (api_key_routes), as a sharded database (Citus) looks them up: the tenant of
// a live key from the routes, then the key's row in that tenant alone. The routes are a plain table, so the same code
// runs here on both databases; test/integration/citus.test.ts checks that on a cluster a lookup reads one shard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiKeyRoutes1764400002000 } from '../../migrations/1764400002000-ApiKeyRoutes.js'
import { ApiKeyRouteTimes1764400002200 } from '../../migrations/1764400002200-ApiKeyRouteTimes.js'
import { parseApiKey } from '../../src/domain/keys.js'
import { TenantService } from '../../src/services/tenant.service.js'
import { startService, type TestService } from '../support/harness.js'

describe('API keys by their routes', () => {
  let svc: TestService
  let tenants: TenantService
  const q = (sql: string, params: unknown[] = []) => svc.profiler.db.dataSource.query(sql, params)
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'OK',
      (e) => e.code as string,
    )
  const routes = async () =>
    (await q(`SELECT public_id FROM api_key_routes ORDER BY public_id`)).map((r: any) => r.public_id)
  const liveKeys = async () =>
    (await q(`SELECT public_id FROM api_keys WHERE revoked_at IS NULL ORDER BY public_id`)).map((r: any) => r.public_id)

  beforeAll(async () => {
    svc = await startService({ role: 'api' })
    tenants = new TenantService(svc.profiler.db.dataSource, undefined, { sharded: true })
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('finds a live key in its tenant, and no rotated, revoked or deleted one', async () => {
    const issued = await tenants.createApp('routes', 'web')
    expect(await tenants.authenticate(issued.api_key, 'r1')).toMatchObject({
      tenantId: issued.tenant_id,
      appId: issued.app_id,
    })
    // The right public id with another secret; an unknown public id; the bootstrap key, made before this service.
    expect(await code(tenants.authenticate(`${issued.api_key.slice(0, -4)}AAAA`, 'r2'))).toBe('INVALID_API_KEY')
    expect(await code(tenants.authenticate(issued.api_key.replace(/^pk_.{4}/, 'pk_zzzz'), 'r3'))).toBe(
      'INVALID_API_KEY',
    )
    expect(await code(tenants.authenticate(svc.key, 'r4'))).toBe('OK')

    const rotated = await tenants.rotateKey(issued.tenant_id, issued.app_id, { byId: true })
    expect(await code(tenants.authenticate(issued.api_key, 'r5'))).toBe('INVALID_API_KEY')
    expect(await code(tenants.authenticate(rotated.api_key, 'r6'))).toBe('OK')
    expect(await routes()).toEqual(await liveKeys())

    await tenants.revokeKey(issued.tenant_id, issued.app_id, { byId: true })
    expect(await code(tenants.authenticate(rotated.api_key, 'r7'))).toBe('INVALID_API_KEY')
    expect(await routes()).toEqual(await liveKeys())

    const other = await tenants.createApp('routes', 'mobile')
    await tenants.deleteApp(other.tenant_id, other.app_id)
    expect(await code(tenants.authenticate(other.api_key, 'r8'))).toBe('INVALID_API_KEY')
    expect(await routes()).toEqual(await liveKeys())
  })

  it('takes no key without its route: a row of api_keys alone does not authenticate', async () => {
    const issued = await tenants.createApp('routes', 'lost')
    await q(`DELETE FROM api_key_routes WHERE app_id = $1`, [issued.app_id])
    expect(await code(tenants.authenticate(issued.api_key, 'r9'))).toBe('INVALID_API_KEY')
    // The unsharded lookup reads api_keys itself.
    const plain = new TenantService(svc.profiler.db.dataSource)
    expect(await code(plain.authenticate(issued.api_key, 'r10'))).toBe('OK')
  })

  it('knows the ids of live keys from the routes alone, and those made since its last read', async () => {
    const known = new TenantService(svc.profiler.db.dataSource, undefined, { sharded: true })
    const first = await tenants.createApp('routes', 'known-1')
    const unrouted = await tenants.createApp('routes', 'known-2')
    await q(`DELETE FROM api_key_routes WHERE app_id = $1`, [unrouted.app_id])
    const idOf = (key: string) => parseApiKey(key)!
    expect(await known.mayExist(idOf(first.api_key))).toBe(true)
    // a key of api_keys without its route is not read; nor is an id no key has
    expect(await known.mayExist(idOf(unrouted.api_key))).toBe(false)
    expect(await known.mayExist('zzzzzzzz')).toBe(false)
    // made by another process after the first read: found by the next read, of the routes written since
    const later = await tenants.createApp('routes', 'known-3')
    expect(await known.mayExist(idOf(later.api_key))).toBe(true)
  })

  it('the migration copies the live keys in', async () => {
    const runner = svc.profiler.db.dataSource.createQueryRunner()
    try {
      await runner.query(`DROP TABLE api_key_routes`)
      await new ApiKeyRoutes1764400002000().up(runner)
      await new ApiKeyRouteTimes1764400002200().up(runner)
    } finally {
      await runner.release()
    }
    expect((await liveKeys()).length).toBeGreaterThan(1)
    expect(await routes()).toEqual(await liveKeys())
  })
})

import type { DataSource, EntityManager } from 'typeorm'
import { DomainError, invalid } from '../domain/errors.js'
import { credentialId, digestsEqual, generateApiKey, newId, parseApiKey } from '../domain/keys.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'
import { KeyCache } from './key-cache.js'

export interface Tenant {
  id: string
  name: string
  created_at: string
}
export interface App {
  tenant_id: string
  tenant_name: string
  id: string
  name: string
  key_public_id: string | null
  created_at: string
}
/** An app as the dashboard shows it: the live key's public prefix only (the key itself is shown once). */
export interface TenantApp {
  id: string
  name: string
  createdAt: string
  /** `pk_<public id>`, or null when the app has no live key (revoked). */
  keyPrefix: string | null
  keyCreatedAt: string | null
}

export interface IssuedKey {
  tenant_id: string
  app_id: string
  api_key: string
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

function checkName(kind: string, name: string) {
  if (!NAME_RE.test(name)) throw invalid(`${kind} name must be 1-63 characters of letters, digits, '.', '_' or '-'`)
}

/** Tenants, apps and their API keys (CONTRACT §2). Reached from the CLI and authentication, never by an app key. */
export class TenantService {
  private readonly keys?: KeyCache

  /**
   * Without a bus, other processes learn of a revoked key only from their own checks (the CLI always has one).
   * `cacheKeys`: answer recently verified keys from memory; only for a process that hears every revocation on its bus
   * (a server's LISTEN, or the embedded server it runs itself), never for one that could miss them.
   */
  constructor(
    private readonly ds: DataSource,
    private readonly bus?: EventBus,
    opts: { cacheKeys?: boolean } = {},
  ) {
    if (!opts.cacheKeys || !bus) return
    const keys = (this.keys = new KeyCache())
    bus.subscribe('apiKeysRevoked', ({ tenantId, appId }) => keys.forgetApp(tenantId, appId))
    bus.subscribe('eventsMissed', () => keys.clear())
  }

  async createTenant(name: string): Promise<Tenant> {
    checkName('Tenant', name)
    const rows = await this.ds.query(
      `INSERT INTO tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id, name, created_at`,
      [newId('ten'), name],
    )
    if (!rows.length) throw new DomainError('CONFLICT', `Tenant '${name}' already exists`)
    return toTenant(rows[0])
  }

  async listTenants(): Promise<Tenant[]> {
    return (await this.ds.query(`SELECT id, name, created_at FROM tenants ORDER BY created_at, name`)).map(toTenant)
  }

  /** Creates an app (and its tenant when missing) with a fresh key, returned only here. */
  async createApp(tenantName: string, appName: string): Promise<IssuedKey> {
    checkName('Tenant', tenantName)
    checkName('App', appName)
    return this.ds.transaction(async (m) => {
      await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [newId('ten'), tenantName])
      const [tenant] = await m.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [tenantName])
      return this.insertApp(m, tenant.id, appName, `tenant '${tenantName}'`)
    })
  }

  /** The app with a fresh key; CONFLICT when the tenant already has an app of that name. */
  private async insertApp(m: EntityManager, tenantId: string, appName: string, where: string): Promise<IssuedKey> {
    const appId = newId('app')
    const inserted = await m.query(
      `INSERT INTO apps (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO NOTHING RETURNING id`,
      [tenantId, appId, appName],
    )
    if (!inserted.length) throw new DomainError('CONFLICT', `App '${appName}' already exists in ${where}`)
    const k = generateApiKey()
    await m.query(`INSERT INTO api_keys (public_id, tenant_id, app_id, key_hash) VALUES ($1, $2, $3, $4)`, [k.publicId, tenantId, appId, k.hash])
    return { tenant_id: tenantId, app_id: appId, api_key: k.key }
  }

  async listApps(tenantName?: string): Promise<App[]> {
    const rows = await this.ds.query(
      `SELECT a.tenant_id, t.name AS tenant_name, a.id, a.name, a.created_at, k.public_id AS key_public_id
         FROM apps a JOIN tenants t ON t.id = a.tenant_id
         LEFT JOIN api_keys k ON k.tenant_id = a.tenant_id AND k.app_id = a.id AND k.revoked_at IS NULL
        WHERE ($1::text IS NULL OR t.name = $1 OR t.id = $1)
        ORDER BY t.name, a.created_at, a.name`,
      [tenantName ?? null],
    )
    return rows.map((r: any) => ({ ...r, created_at: iso(r.created_at) }))
  }

  /**
   * Replaces the app's key: the old one stops working at once (REST checks every request; open WebSocket
   * connections with it are closed by the apiKeysRevoked event). `byId`: tenant and app are ids, never names.
   */
  async rotateKey(tenantName: string, appName: string, opts: { byId?: boolean } = {}): Promise<IssuedKey> {
    const issued = await this.ds.transaction(async (m) => {
      const app = await this.lockApp(m, tenantName, appName, opts.byId)
      await m.query(`UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`, [app.tenant_id, app.id])
      const k = generateApiKey()
      await m.query(`INSERT INTO api_keys (public_id, tenant_id, app_id, key_hash) VALUES ($1, $2, $3, $4)`, [k.publicId, app.tenant_id, app.id, k.hash])
      await this.bus?.stage(m, 'apiKeysRevoked', { tenantId: app.tenant_id, appId: app.id })
      return { tenant_id: app.tenant_id, app_id: app.id, api_key: k.key }
    })
    await this.revoked(issued.tenant_id, issued.app_id)
    return issued
  }

  /** Revokes the app's key without issuing a new one. */
  async revokeKey(tenantName: string, appName: string, opts: { byId?: boolean } = {}): Promise<{ tenant_id: string; app_id: string; revoked: number }> {
    const result = await this.ds.transaction(async (m) => {
      const app = await this.lockApp(m, tenantName, appName, opts.byId)
      const [, count] = await m.query(
        `UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`,
        [app.tenant_id, app.id],
      )
      await this.bus?.stage(m, 'apiKeysRevoked', { tenantId: app.tenant_id, appId: app.id })
      return { tenant_id: app.tenant_id, app_id: app.id, revoked: count }
    })
    await this.revoked(result.tenant_id, result.app_id)
    return result
  }

  // ---- one tenant's apps, by id (the dashboard) ----

  async appsOf(tenantId: string): Promise<TenantApp[]> {
    const rows = await this.ds.query(
      `SELECT a.id, a.name, a.created_at, k.public_id, k.created_at AS key_created_at
         FROM apps a LEFT JOIN api_keys k ON k.tenant_id = a.tenant_id AND k.app_id = a.id AND k.revoked_at IS NULL
        WHERE a.tenant_id = $1 ORDER BY a.created_at, a.name`,
      [tenantId],
    )
    return rows.map(toTenantApp)
  }

  async appOf(tenantId: string, appId: string): Promise<TenantApp> {
    const app = (await this.appsOf(tenantId)).find((a) => a.id === appId)
    if (!app) throw new DomainError('APP_NOT_FOUND', `No app '${appId}'`)
    return app
  }

  async createAppIn(tenantId: string, name: string): Promise<{ app: TenantApp; apiKey: string }> {
    checkName('App', name)
    const issued = await this.ds.transaction(async (m) => {
      const found = await m.query(`SELECT 1 FROM tenants WHERE id = $1 FOR SHARE`, [tenantId])
      if (!found.length) throw new DomainError('TENANT_NOT_FOUND', `No tenant '${tenantId}'`)
      return this.insertApp(m, tenantId, name, 'this account')
    })
    return { app: await this.appOf(tenantId, issued.app_id), apiKey: issued.api_key }
  }

  async renameApp(tenantId: string, appId: string, name: string): Promise<TenantApp> {
    checkName('App', name)
    await this.ds.transaction(async (m) => {
      await this.lockApp(m, tenantId, appId, true)
      const clash = await m.query(`SELECT 1 FROM apps WHERE tenant_id = $1 AND name = $2 AND id <> $3`, [tenantId, name, appId])
      if (clash.length) throw new DomainError('CONFLICT', `An app named '${name}' already exists`)
      await m.query(`UPDATE apps SET name = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, appId, name])
    })
    return this.appOf(tenantId, appId)
  }

  /** Deletes the app and its keys (its profiles belong to the tenant and stay). */
  async deleteApp(tenantId: string, appId: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      await this.lockApp(m, tenantId, appId, true)
      await m.query(`DELETE FROM apps WHERE tenant_id = $1 AND id = $2`, [tenantId, appId])
      await this.bus?.stage(m, 'apiKeysRevoked', { tenantId, appId })
    })
    await this.revoked(tenantId, appId)
  }

  /**
   * After the commit of a rotation, revocation or deletion: this process forgets the app's keys before it answers (a
   * Postgres bus delivers even our own events asynchronously), then every process is told.
   */
  private async revoked(tenantId: string, appId: string) {
    this.keys?.forgetApp(tenantId, appId)
    await this.bus?.committed('apiKeysRevoked', { tenantId, appId })
  }

  /**
   * The context of a valid, live key; throws MISSING_API_KEY / INVALID_API_KEY otherwise. A key verified lately is
   * answered from the key cache; `fresh` always asks the database (the periodic re-check of open WebSockets).
   * `id` is the key's `credentialId()` when the caller has it already (one digest per request).
   */
  async authenticate(key: string | undefined, requestId: string, opts: { fresh?: boolean; id?: string } = {}): Promise<RequestContext> {
    if (!key) throw new DomainError('MISSING_API_KEY', 'Missing API key')
    const publicId = parseApiKey(key)
    if (!publicId) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    const cacheKey = opts.id ?? credentialId(key)!
    const cached = opts.fresh ? undefined : this.keys?.get(cacheKey)
    if (cached) return { tenantId: cached.tenantId, appId: cached.appId, requestId }
    const given = Buffer.from(cacheKey, 'base64url')
    const began = this.keys?.begin() ?? 0
    const rows = await this.ds.query(
      `SELECT tenant_id, app_id, key_hash FROM api_keys WHERE public_id = $1 AND revoked_at IS NULL`,
      [publicId],
    )
    // Compare against a dummy digest when unknown, so timing does not tell which public ids exist.
    const stored: Buffer = rows[0]?.key_hash ?? Buffer.alloc(given.length)
    if (!digestsEqual(given, stored) || !rows.length) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    const owner = { tenantId: rows[0].tenant_id as string, appId: rows[0].app_id as string }
    this.keys?.set(cacheKey, owner, began)
    return { ...owner, requestId }
  }

  /** First start on an empty database: tenant `default` with app `default`; returns its key, or null. */
  async bootstrap(): Promise<IssuedKey | null> {
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM tenants`)
    if (n > 0) return null
    try {
      return await this.createApp('default', 'default')
    } catch (e) {
      if (e instanceof DomainError && e.code === 'CONFLICT') return null // another process won the race
      throw e
    }
  }

  private async lockApp(m: EntityManager, tenantName: string, appName: string, byId = false) {
    const rows = await m.query(
      byId
        ? `SELECT a.tenant_id, a.id FROM apps a WHERE a.tenant_id = $1 AND a.id = $2 FOR UPDATE`
        : `SELECT a.tenant_id, a.id FROM apps a JOIN tenants t ON t.id = a.tenant_id
            WHERE (t.name = $1 OR t.id = $1) AND (a.name = $2 OR a.id = $2) FOR UPDATE OF a`,
      [tenantName, appName],
    )
    if (!rows.length) throw new DomainError('APP_NOT_FOUND', `No app '${appName}' in tenant '${tenantName}'`)
    return rows[0] as { tenant_id: string; id: string }
  }
}

const iso = (d: Date | string) => new Date(d).toISOString()
const toTenant = (r: any): Tenant => ({ id: r.id, name: r.name, created_at: iso(r.created_at) })
const toTenantApp = (r: any): TenantApp => ({
  id: r.id,
  name: r.name,
  createdAt: iso(r.created_at),
  keyPrefix: r.public_id ? `pk_${r.public_id}` : null,
  keyCreatedAt: r.key_created_at ? iso(r.key_created_at) : null,
})

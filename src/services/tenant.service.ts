import type { DataSource } from 'typeorm'
import { DomainError, invalid } from '../domain/errors.js'
import { digest, digestsEqual, generateApiKey, newId, parseApiKey } from '../domain/keys.js'
import type { RequestContext } from './context.js'

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
  constructor(private readonly ds: DataSource) {}

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

  async findTenant(nameOrId: string): Promise<Tenant | null> {
    const rows = await this.ds.query(`SELECT id, name, created_at FROM tenants WHERE name = $1 OR id = $1`, [nameOrId])
    return rows.length ? toTenant(rows[0]) : null
  }

  /** Creates an app (and its tenant when missing) with a fresh key, returned only here. */
  async createApp(tenantName: string, appName: string): Promise<IssuedKey> {
    checkName('Tenant', tenantName)
    checkName('App', appName)
    return this.ds.transaction(async (m) => {
      await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [newId('ten'), tenantName])
      const [tenant] = await m.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [tenantName])
      const appId = newId('app')
      const inserted = await m.query(
        `INSERT INTO apps (tenant_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO NOTHING RETURNING id`,
        [tenant.id, appId, appName],
      )
      if (!inserted.length) throw new DomainError('CONFLICT', `App '${appName}' already exists in tenant '${tenantName}'`)
      const k = generateApiKey()
      await m.query(`INSERT INTO api_keys (public_id, tenant_id, app_id, key_hash) VALUES ($1, $2, $3, $4)`, [k.publicId, tenant.id, appId, k.hash])
      return { tenant_id: tenant.id, app_id: appId, api_key: k.key }
    })
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

  /** Replaces the app's key: the old one stops working at once. */
  async rotateKey(tenantName: string, appName: string): Promise<IssuedKey> {
    return this.ds.transaction(async (m) => {
      const app = await this.lockApp(m, tenantName, appName)
      await m.query(`UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`, [app.tenant_id, app.id])
      const k = generateApiKey()
      await m.query(`INSERT INTO api_keys (public_id, tenant_id, app_id, key_hash) VALUES ($1, $2, $3, $4)`, [k.publicId, app.tenant_id, app.id, k.hash])
      return { tenant_id: app.tenant_id, app_id: app.id, api_key: k.key }
    })
  }

  /** Revokes the app's key without issuing a new one. */
  async revokeKey(tenantName: string, appName: string): Promise<{ tenant_id: string; app_id: string; revoked: number }> {
    return this.ds.transaction(async (m) => {
      const app = await this.lockApp(m, tenantName, appName)
      const [, count] = await m.query(
        `UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`,
        [app.tenant_id, app.id],
      )
      return { tenant_id: app.tenant_id, app_id: app.id, revoked: count }
    })
  }

  /** The context of a valid, live key; throws MISSING_API_KEY / INVALID_API_KEY otherwise. */
  async authenticate(key: string | undefined, requestId: string): Promise<RequestContext> {
    if (!key) throw new DomainError('MISSING_API_KEY', 'Missing API key')
    const publicId = parseApiKey(key)
    if (!publicId) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    const rows = await this.ds.query(
      `SELECT tenant_id, app_id, key_hash FROM api_keys WHERE public_id = $1 AND revoked_at IS NULL`,
      [publicId],
    )
    const given = digest(key)
    // Compare against a dummy digest when unknown, so timing does not tell which public ids exist.
    const stored: Buffer = rows[0]?.key_hash ?? Buffer.alloc(given.length)
    if (!digestsEqual(given, stored) || !rows.length) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    return { tenantId: rows[0].tenant_id, appId: rows[0].app_id, requestId }
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

  private async lockApp(m: import('typeorm').EntityManager, tenantName: string, appName: string) {
    const rows = await m.query(
      `SELECT a.tenant_id, a.id FROM apps a JOIN tenants t ON t.id = a.tenant_id
        WHERE (t.name = $1 OR t.id = $1) AND (a.name = $2 OR a.id = $2) FOR UPDATE OF a`,
      [tenantName, appName],
    )
    if (!rows.length) throw new DomainError('APP_NOT_FOUND', `No app '${appName}' in tenant '${tenantName}'`)
    return rows[0] as { tenant_id: string; id: string }
  }
}

const iso = (d: Date | string) => new Date(d).toISOString()
const toTenant = (r: any): Tenant => ({ id: r.id, name: r.name, created_at: iso(r.created_at) })

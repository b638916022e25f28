import type { EntityManager } from 'typeorm'

/** A tenant as stored. */
export interface TenantRow {
  id: string
  name: string
  created_at: Date | string
}

/** An app with its tenant's name and its live key's public id (null when revoked). */
export interface AppRow {
  tenant_id: string
  tenant_name: string
  id: string
  /** The slug: the handle scripts and the CLI use. */
  name: string
  display_name: string
  created_at: Date | string
  key_public_id: string | null
  key_created_at: Date | string | null
  delete_profiles_after_days: number | null
  drop_submission_text_after_days: number | null
  summary_instructions: string[]
}

/** A live key's owner and stored digest. */
export interface KeyRow {
  tenant_id: string
  app_id: string
  key_hash: Buffer
}

/** Tenants, apps and API keys: the SQL of the aggregate. Each method runs on the manager it is given. */
export class TenantRepository {
  /** The new tenant, or null when the name is taken. */
  async insertTenant(m: EntityManager, id: string, name: string): Promise<TenantRow | null> {
    const rows = await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id, name, created_at`, [id, name])
    return rows[0] ?? null
  }

  /** A new tenant; a taken name fails the statement (for names made unique by the caller). */
  async addTenant(m: EntityManager, id: string, name: string): Promise<void> {
    await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2)`, [id, name])
  }

  /** The id of the tenant of that name (or id), inserting it with `newId` when missing. */
  async ensureTenant(m: EntityManager, name: string, newId: string): Promise<string> {
    await m.query(`INSERT INTO tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [newId, name])
    return (await this.tenantId(m, name))!
  }

  /** The id of the tenant of that name or id, or null. */
  async tenantId(m: EntityManager, nameOrId: string): Promise<string | null> {
    const rows = await m.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [nameOrId])
    return rows[0]?.id ?? null
  }

  async tenants(m: EntityManager): Promise<TenantRow[]> {
    return m.query(`SELECT id, name, created_at FROM tenants ORDER BY created_at, name`)
  }

  async tenantCount(m: EntityManager): Promise<number> {
    const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM tenants`)
    return n
  }

  /** Whether the tenant exists; it stays (FOR SHARE) until the transaction ends. */
  async holdTenant(m: EntityManager, tenantId: string): Promise<boolean> {
    return (await m.query(`SELECT 1 FROM tenants WHERE id = $1 FOR SHARE`, [tenantId])).length > 0
  }

  /** False when the tenant has an app of that slug or display key already. */
  async insertApp(m: EntityManager, a: { tenantId: string; appId: string; slug: string; displayName: string; displayKey: string }): Promise<boolean> {
    const rows = await m.query(
      `INSERT INTO apps (tenant_id, id, name, display_name, display_key) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
      [a.tenantId, a.appId, a.slug, a.displayName, a.displayKey],
    )
    return rows.length > 0
  }

  /** The tenant's slugs that are `base` or `base-<something>` (to pick a free one). */
  async slugsLike(m: EntityManager, tenantId: string, base: string): Promise<Set<string>> {
    const rows: { name: string }[] = await m.query(`SELECT name FROM apps WHERE tenant_id = $1 AND (name = $2::text OR left(name, length($2::text) + 1) = $2::text || '-')`, [tenantId, base])
    return new Set(rows.map((r) => r.name))
  }

  /** The display name of the tenant's app whose display key this is (other than `exceptAppId`), or null. */
  async displayKeyTaken(m: EntityManager, tenantId: string, displayKey: string, exceptAppId = ''): Promise<string | null> {
    const rows = await m.query(`SELECT display_name FROM apps WHERE tenant_id = $1 AND display_key = $2 AND id <> $3`, [tenantId, displayKey, exceptAppId])
    return rows[0]?.display_name ?? null
  }

  /** Apps with their live key, of every tenant or of one (by name or id). */
  async apps(m: EntityManager, tenant?: { nameOrId?: string; id?: string }): Promise<AppRow[]> {
    return m.query(
      `SELECT a.tenant_id, t.name AS tenant_name, a.id, a.name, a.display_name, a.created_at, k.public_id AS key_public_id, k.created_at AS key_created_at,
              a.delete_profiles_after_days, a.drop_submission_text_after_days, a.summary_instructions
         FROM apps a JOIN tenants t ON t.id = a.tenant_id
         LEFT JOIN api_keys k ON k.tenant_id = a.tenant_id AND k.app_id = a.id AND k.revoked_at IS NULL
        WHERE ($1::text IS NULL OR t.name = $1 OR t.id = $1) AND ($2::text IS NULL OR t.id = $2)
        ORDER BY t.name, a.created_at, a.name`,
      [tenant?.nameOrId ?? null, tenant?.id ?? null],
    )
  }

  /**
   * Locks the app (until the transaction ends) by tenant name or id and app id, slug or display key (in that order of
   * preference: an id or slug never loses to another app's display name), or by ids only (`byId`); null when there is
   * no such app.
   */
  async lockApp(m: EntityManager, tenant: string, app: string, byId = false, displayKey?: string): Promise<{ tenant_id: string; id: string; name: string; display_name: string } | null> {
    if (byId) {
      const rows = await m.query(`SELECT a.tenant_id, a.id, a.name, a.display_name FROM apps a WHERE a.tenant_id = $1 AND a.id = $2 FOR UPDATE`, [tenant, app])
      return rows[0] ?? null
    }
    // The tenant first, then its app by tenant id: a lock that names the tenant's id is one a sharded database (Citus,
    // apps distributed by tenant_id) can take on the tenant's node; a join to tenants under FOR UPDATE is not.
    const tenantIds: string[] = (await m.query(`SELECT id FROM tenants WHERE name = $1 OR id = $1`, [tenant])).map((r: { id: string }) => r.id)
    if (!tenantIds.length) return null
    const rows = await m.query(
      `SELECT a.tenant_id, a.id, a.name, a.display_name FROM apps a
        WHERE ${tenantIds.length === 1 ? 'a.tenant_id = $3' : 'a.tenant_id = ANY($3)'} AND (a.id = $1 OR a.name = $1 OR a.display_key = $2)
        ORDER BY (a.id = $1) DESC, (a.name = $1) DESC LIMIT 1 FOR UPDATE`,
      [app, displayKey ?? app, tenantIds.length === 1 ? tenantIds[0] : tenantIds],
    )
    return rows[0] ?? null
  }

  async appNameTaken(m: EntityManager, tenantId: string, name: string, exceptAppId: string): Promise<boolean> {
    return (await m.query(`SELECT 1 FROM apps WHERE tenant_id = $1 AND name = $2 AND id <> $3`, [tenantId, name, exceptAppId])).length > 0
  }

  /** Sets the display name (and key), and the slug when given. */
  async renameApp(m: EntityManager, tenantId: string, appId: string, r: { displayName?: string; displayKey?: string; slug?: string }): Promise<void> {
    await m.query(
      `UPDATE apps SET display_name = coalesce($3, display_name), display_key = coalesce($4, display_key), name = coalesce($5, name)
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, appId, r.displayName ?? null, r.displayKey ?? null, r.slug ?? null],
    )
  }

  /** The app's retention policy (null: off). */
  async setRetention(m: EntityManager, tenantId: string, appId: string, r: { deleteProfilesAfterDays: number | null; dropSubmissionTextAfterDays: number | null }) {
    await m.query(`UPDATE apps SET delete_profiles_after_days = $3, drop_submission_text_after_days = $4 WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      appId,
      r.deleteProfilesAfterDays,
      r.dropSubmissionTextAfterDays,
    ])
  }

  /** The app's summary instructions (README "Summary instructions"), already checked. */
  async setSummaryInstructions(m: EntityManager, tenantId: string, appId: string, instructions: string[]) {
    await m.query(`UPDATE apps SET summary_instructions = $3::jsonb WHERE tenant_id = $1 AND id = $2`, [tenantId, appId, JSON.stringify(instructions)])
  }

  /** Deletes the app and (by cascade) its keys. */
  async deleteApp(m: EntityManager, tenantId: string, appId: string): Promise<void> {
    await m.query(`DELETE FROM apps WHERE tenant_id = $1 AND id = $2`, [tenantId, appId])
  }

  async insertKey(m: EntityManager, k: { publicId: string; tenantId: string; appId: string; hash: Buffer }): Promise<void> {
    await m.query(`INSERT INTO api_keys (public_id, tenant_id, app_id, key_hash) VALUES ($1, $2, $3, $4)`, [k.publicId, k.tenantId, k.appId, k.hash])
  }

  /** Revokes the app's live keys; how many there were. */
  async revokeKeys(m: EntityManager, tenantId: string, appId: string): Promise<number> {
    const [, count] = await m.query(`UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`, [tenantId, appId])
    return count
  }

  /** The live key of that public id, or null. */
  async liveKey(m: EntityManager, publicId: string): Promise<KeyRow | null> {
    const rows = await m.query(`SELECT tenant_id, app_id, key_hash FROM api_keys WHERE public_id = $1 AND revoked_at IS NULL`, [publicId])
    return rows[0] ?? null
  }
}

import type { EntityManager } from 'typeorm'
import type { ApiKeyEntity, AppEntity, TenantEntity } from './entities/tenant.entity.js'
import { columns, table } from './entities/tables.js'

/** A tenant as stored. */
export type TenantRow = TenantEntity

/** An app with its tenant's name and its live key's public id (null when revoked). */
export type AppRow = Pick<
  AppEntity,
  | 'tenant_id'
  | 'id'
  | 'name'
  | 'display_name'
  | 'created_at'
  | 'delete_profiles_after_days'
  | 'drop_submission_text_after_days'
  | 'summary_instructions'
> & {
  tenant_name: TenantEntity['name']
  key_public_id: ApiKeyEntity['public_id'] | null
  key_created_at: ApiKeyEntity['created_at'] | null
}

const APP_COLUMNS = [
  'tenant_id',
  'id',
  'name',
  'display_name',
  'created_at',
  'delete_profiles_after_days',
  'drop_submission_text_after_days',
  'summary_instructions',
] as const

/** The ids of the live keys, or of the keys made since $1, and the database's clock (TenantRepository.keyIds). */
const KEY_IDS = `SELECT coalesce(array_agg(public_id), '{}') AS ids, now() AS now FROM api_keys
  WHERE CASE WHEN $1::timestamptz IS NULL THEN revoked_at IS NULL ELSE created_at >= $1 END`
/** The same from the key routes: only live keys have one. */
const ROUTED_KEY_IDS = `SELECT coalesce(array_agg(public_id), '{}') AS ids, now() AS now FROM api_key_routes
  WHERE $1::timestamptz IS NULL OR created_at >= $1`

/** A live key's owner and stored digest. */
export type KeyRow = Pick<ApiKeyEntity, 'tenant_id' | 'app_id' | 'key_hash'>

/** An app as a lock finds it. */
export type LockedApp = Pick<AppEntity, 'tenant_id' | 'id' | 'name' | 'display_name'>

/**
 * Tenants, apps and API keys: administration, through TypeORM's repositories and query builder. Each method runs on the
 * manager it is given. `lockApp` by name stays SQL: its ORDER BY ranks the kinds of match.
 */
export class TenantRepository {
  /** The new tenant, or null when the name is taken. */
  async insertTenant(manager: EntityManager, id: string, name: string): Promise<TenantRow | null> {
    // orUpdate with no column to update: ON CONFLICT ("name") DO NOTHING (a taken id still fails).
    const result = await table(manager, 'tenants')
      .createQueryBuilder()
      .insert()
      .values({ id, name })
      .orUpdate([], ['name'])
      .returning(['id', 'name', 'created_at'])
      .execute()
    return (result.raw as TenantRow[])[0] ?? null
  }

  /** A new tenant; a taken name fails the statement (for names made unique by the caller). */
  async addTenant(manager: EntityManager, id: string, name: string): Promise<void> {
    await table(manager, 'tenants').createQueryBuilder().insert().values({ id, name }).updateEntity(false).execute()
  }

  /** The id of the tenant of that name (or id), inserting it with `newId` when missing. */
  async ensureTenant(manager: EntityManager, name: string, newId: string): Promise<string> {
    await table(manager, 'tenants')
      .createQueryBuilder()
      .insert()
      .values({ id: newId, name })
      .orUpdate([], ['name'])
      .updateEntity(false)
      .execute()
    return (await this.tenantId(manager, name))!
  }

  /** The id of the tenant of that name or id, or null. */
  async tenantId(manager: EntityManager, nameOrId: string): Promise<string | null> {
    return (await this.tenantIds(manager, nameOrId))[0] ?? null
  }

  /** The ids of the tenants of that name or id (two when one's name is the other's id). */
  private async tenantIds(manager: EntityManager, nameOrId: string): Promise<string[]> {
    const rows = await table(manager, 'tenants').find({
      select: { id: true },
      where: [{ name: nameOrId }, { id: nameOrId }],
    })
    return rows.map((r) => r.id)
  }

  async tenants(manager: EntityManager): Promise<TenantRow[]> {
    return table(manager, 'tenants').find({ order: { created_at: 'ASC', name: 'ASC' } })
  }

  async tenantCount(manager: EntityManager): Promise<number> {
    return table(manager, 'tenants').count()
  }

  /** Whether the tenant exists; it stays (FOR SHARE) until the transaction ends. */
  async holdTenant(manager: EntityManager, tenantId: string): Promise<boolean> {
    return (
      (await table(manager, 'tenants').findOne({
        select: { id: true },
        where: { id: tenantId },
        lock: { mode: 'pessimistic_read' },
      })) !== null
    )
  }

  /** False when the tenant has an app of that slug or display key already. */
  async insertApp(
    manager: EntityManager,
    app: { tenantId: string; appId: string; slug: string; displayName: string; displayKey: string },
  ): Promise<boolean> {
    const result = await table(manager, 'apps')
      .createQueryBuilder()
      .insert()
      .values({
        tenant_id: app.tenantId,
        id: app.appId,
        name: app.slug,
        display_name: app.displayName,
        display_key: app.displayKey,
      })
      .orIgnore()
      .returning(['id'])
      .execute()
    return (result.raw as unknown[]).length > 0
  }

  /** The tenant's slugs that are `base` or `base-<something>` (to pick a free one). */
  async slugsLike(manager: EntityManager, tenantId: string, base: string): Promise<Set<string>> {
    const rows = await table(manager, 'apps')
      .createQueryBuilder('a')
      .select('a.name', 'name')
      .where('a.tenant_id = :tenantId', { tenantId })
      .andWhere(`(a.name = :base::text OR left(a.name, length(:base::text) + 1) = :base::text || '-')`, { base })
      .getRawMany<Pick<AppEntity, 'name'>>()
    return new Set(rows.map((r) => r.name))
  }

  /** The display name of the tenant's app whose display key this is (other than `exceptAppId`), or null. */
  async displayKeyTaken(
    manager: EntityManager,
    tenantId: string,
    displayKey: string,
    exceptAppId = '',
  ): Promise<string | null> {
    const row = await table(manager, 'apps')
      .createQueryBuilder('a')
      .select('a.display_name', 'display_name')
      .where('a.tenant_id = :tenantId AND a.display_key = :displayKey AND a.id <> :exceptAppId', {
        tenantId,
        displayKey,
        exceptAppId,
      })
      .getRawOne<Pick<AppEntity, 'display_name'>>()
    return row?.display_name ?? null
  }

  /** Apps with their live key, of every tenant or of one (by name or id). */
  async apps(manager: EntityManager, tenant?: { nameOrId?: string; id?: string }): Promise<AppRow[]> {
    const query = columns(table(manager, 'apps').createQueryBuilder('a'), 'a', APP_COLUMNS)
      .addSelect('t.name', 'tenant_name')
      .addSelect('k.public_id', 'key_public_id')
      .addSelect('k.created_at', 'key_created_at')
      .innerJoin('tenants', 't', 't.id = a.tenant_id')
      .leftJoin('api_keys', 'k', 'k.tenant_id = a.tenant_id AND k.app_id = a.id AND k.revoked_at IS NULL')
    if (tenant?.nameOrId !== undefined)
      query.andWhere('(t.name = :nameOrId OR t.id = :nameOrId)', { nameOrId: tenant.nameOrId })
    if (tenant?.id !== undefined) query.andWhere('t.id = :id', { id: tenant.id })
    return query.orderBy('t.name').addOrderBy('a.created_at').addOrderBy('a.name').getRawMany<AppRow>()
  }

  /**
   * Locks the app (until the transaction ends) by tenant name or id and app id, slug or display key (in that order of
   * preference: an id or slug never loses to another app's display name), or by ids only (`byId`); null when there is
   * no such app.
   */
  async lockApp(
    manager: EntityManager,
    tenant: string,
    app: string,
    byId = false,
    displayKey?: string,
  ): Promise<LockedApp | null> {
    if (byId) {
      return table(manager, 'apps').findOne({
        select: { tenant_id: true, id: true, name: true, display_name: true },
        where: { tenant_id: tenant, id: app },
        lock: { mode: 'pessimistic_write' },
      })
    }
    // The tenant first, then its app by tenant id: a lock that names the tenant's id is one a sharded database (Citus,
    // apps distributed by tenant_id) can take on the tenant's node; a join to tenants under FOR UPDATE is not.
    const tenantIds = await this.tenantIds(manager, tenant)
    if (!tenantIds.length) return null
    const rows: LockedApp[] = await manager.query(
      `SELECT a.tenant_id, a.id, a.name, a.display_name FROM apps a
        WHERE ${tenantIds.length === 1 ? 'a.tenant_id = $3' : 'a.tenant_id = ANY($3)'}
          AND (a.id = $1 OR a.name = $1 OR a.display_key = $2)
        ORDER BY (a.id = $1) DESC, (a.name = $1) DESC LIMIT 1 FOR UPDATE`,
      [app, displayKey ?? app, tenantIds.length === 1 ? tenantIds[0] : tenantIds],
    )
    return rows[0] ?? null
  }

  async appNameTaken(manager: EntityManager, tenantId: string, name: string, exceptAppId: string): Promise<boolean> {
    return table(manager, 'apps')
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.name = :name AND a.id <> :exceptAppId', { tenantId, name, exceptAppId })
      .getExists()
  }

  /** Sets the display name (and key), and the slug when given. */
  async renameApp(
    manager: EntityManager,
    tenantId: string,
    appId: string,
    names: { displayName?: string; displayKey?: string; slug?: string },
  ): Promise<void> {
    const set: Partial<AppEntity> = {}
    if (names.displayName !== undefined) set.display_name = names.displayName
    if (names.displayKey !== undefined) set.display_key = names.displayKey
    if (names.slug !== undefined) set.name = names.slug
    if (Object.keys(set).length) await table(manager, 'apps').update({ tenant_id: tenantId, id: appId }, set)
  }

  /** The app's retention policy (null: off). */
  async setRetention(
    manager: EntityManager,
    tenantId: string,
    appId: string,
    retention: { deleteProfilesAfterDays: number | null; dropSubmissionTextAfterDays: number | null },
  ) {
    await table(manager, 'apps').update(
      { tenant_id: tenantId, id: appId },
      {
        delete_profiles_after_days: retention.deleteProfilesAfterDays,
        drop_submission_text_after_days: retention.dropSubmissionTextAfterDays,
      },
    )
    // The sweep's list of tenants (retention.repository.ts): cleared by the sweep once no app of the tenant has one.
    if (retention.deleteProfilesAfterDays !== null || retention.dropSubmissionTextAfterDays !== null)
      await manager.query(
        `INSERT INTO retention_tenants (tenant_id) VALUES ($1)
         ON CONFLICT (tenant_id) DO UPDATE SET marked_at = now()`,
        [tenantId],
      )
  }

  /** The app's summary instructions (docs/guides/summary-instructions.md), already checked. */
  async setSummaryInstructions(manager: EntityManager, tenantId: string, appId: string, instructions: string[]) {
    await table(manager, 'apps').update({ tenant_id: tenantId, id: appId }, { summary_instructions: instructions })
  }

  /** Deletes the app and (by cascade) its keys. */
  async deleteApp(manager: EntityManager, tenantId: string, appId: string): Promise<void> {
    await table(manager, 'api_key_routes').delete({ tenant_id: tenantId, app_id: appId })
    await table(manager, 'apps').delete({ tenant_id: tenantId, id: appId })
  }

  async insertKey(
    manager: EntityManager,
    key: { publicId: string; tenantId: string; appId: string; hash: Buffer },
  ): Promise<void> {
    await table(manager, 'api_keys')
      .createQueryBuilder()
      .insert()
      .values({ public_id: key.publicId, tenant_id: key.tenantId, app_id: key.appId, key_hash: key.hash })
      .updateEntity(false)
      .execute()
    await table(manager, 'api_key_routes').insert({
      public_id: key.publicId,
      tenant_id: key.tenantId,
      app_id: key.appId,
    })
  }

  /** Revokes the app's live keys; how many there were. */
  async revokeKeys(manager: EntityManager, tenantId: string, appId: string): Promise<number> {
    await table(manager, 'api_key_routes').delete({ tenant_id: tenantId, app_id: appId })
    const result = await table(manager, 'api_keys')
      .createQueryBuilder()
      .update()
      .set({ revoked_at: () => 'now()' })
      .where('tenant_id = :tenantId AND app_id = :appId AND revoked_at IS NULL', { tenantId, appId })
      .execute()
    return result.affected ?? 0
  }

  /**
   * The public ids of the live keys (`since` undefined), or of every key created since then; and the database's clock,
   * where the next read starts from. `routed`: read from the key routes, which a sharded database keeps on its
   * coordinator (a read of `api_keys` without a tenant reads every shard).
   */
  async keyIds(manager: EntityManager, since: Date | undefined, routed = false): Promise<{ ids: string[]; now: Date }> {
    const [row]: { ids: string[]; now: Date }[] = await manager.query(routed ? ROUTED_KEY_IDS : KEY_IDS, [
      since ?? null,
    ])
    return { ids: row!.ids, now: new Date(row!.now) }
  }

  /**
   * The tenant of the live key of that public id, or null: read from `api_key_routes`, which a sharded database keeps
   * on its coordinator, so that the key's own row is then read from the tenant's shard alone.
   */
  async keyTenant(manager: EntityManager, publicId: string): Promise<string | null> {
    const route = await table(manager, 'api_key_routes').findOne({ where: { public_id: publicId } })
    return route?.tenant_id ?? null
  }

  /** The live key of that public id (in that tenant, when given), or null. */
  async liveKey(manager: EntityManager, publicId: string, tenantId?: string): Promise<KeyRow | null> {
    const query = table(manager, 'api_keys')
      .createQueryBuilder('k')
      .select('k.tenant_id', 'tenant_id')
      .addSelect('k.app_id', 'app_id')
      .addSelect('k.key_hash', 'key_hash')
      .where('k.public_id = :publicId AND k.revoked_at IS NULL', { publicId })
    if (tenantId !== undefined) query.andWhere('k.tenant_id = :tenantId', { tenantId })
    return (await query.getRawOne<KeyRow>()) ?? null
  }
}

import type { EntityManager } from 'typeorm'
import { pruneHistory, type HistoryBounds } from './profile.repository.js'
import { perTenant, tenantIdOf } from './tenant-routing.js'
import type { AppSchemaVersion, CustomSchema } from '../domain/custom-schema.js'
import { isoTime } from '../domain/time.js'
import type { AppSchemaEntity } from './entities/app-schema.entity.js'
import type { ProfileEntity } from './entities/profile.entity.js'
import { columns, table } from './entities/tables.js'

type Row = Pick<AppSchemaEntity, 'app_id' | 'version' | 'schema' | 'created_at'>
const ROW_COLUMNS = ['app_id', 'version', 'schema', 'created_at'] as const

const toVersion = (r: Row): AppSchemaVersion => ({
  appId: r.app_id,
  version: Number(r.version),
  schema: r.schema,
  createdAt: isoTime(r.created_at),
})

/** A profile holding values of dropped custom fields, locked for the rewrite. */
export type ProfileCustomRow = Pick<ProfileEntity, 'profile_id' | 'content' | 'history_seq'>

/**
 * Apps' custom profile schemas, the newest versions kept (pruneVersions); the app row points at the current one. The
 * settings go through TypeORM; the worker batch's lookup (unnest), the prune and the rewrite of profiles stay SQL.
 */
export class AppSchemaRepository {
  /** The app's current schema, or null when it has none. */
  async current(manager: EntityManager, tenantId: string, appId: string): Promise<AppSchemaVersion | null> {
    const row = await columns(table(manager, 'app_schemas').createQueryBuilder('s'), 's', ROW_COLUMNS)
      .innerJoin('apps', 'a', 's.tenant_id = a.tenant_id AND s.app_id = a.id AND s.version = a.schema_version')
      .where('a.tenant_id = :tenantId AND a.id = :appId', { tenantId, appId })
      .getRawOne<Row>()
    return row ? toVersion(row) : null
  }

  async appExists(manager: EntityManager, tenantId: string, appId: string): Promise<boolean> {
    return table(manager, 'apps').existsBy({ tenant_id: tenantId, id: appId })
  }

  /** Current schemas of several apps of possibly several tenants (the worker's batch), keyed `tenant\0app`. */
  async currentOf(
    manager: EntityManager,
    apps: { tenantId: string; appId: string }[],
  ): Promise<Map<string, AppSchemaVersion>> {
    const out = new Map<string, AppSchemaVersion>()
    if (!apps.length) return out
    const rows = await perTenant<(typeof apps)[number], Row & Pick<AppSchemaEntity, 'tenant_id'>>(
      apps,
      tenantIdOf,
      (tenantId, group) =>
        manager.query(
          `SELECT a.tenant_id, s.app_id, s.version, s.schema, s.created_at
             FROM unnest($1::text[]) AS x(app_id)
             JOIN apps a ON a.tenant_id = $2 AND a.id = x.app_id
             JOIN app_schemas s ON s.tenant_id = $2 AND s.app_id = a.id AND s.version = a.schema_version`,
          [group.map((a) => a.appId), tenantId],
        ),
    )
    for (const r of rows) out.set(`${r.tenant_id}\u0000${r.app_id}`, toVersion(r))
    return out
  }

  /** Current schemas of the tenant's apps other than `appId` (fields they still declare are not dropped). */
  async othersOf(manager: EntityManager, tenantId: string, appId: string): Promise<CustomSchema[]> {
    const rows = await table(manager, 'app_schemas')
      .createQueryBuilder('s')
      .select('s.schema', 'schema')
      .innerJoin('apps', 'a', 's.tenant_id = a.tenant_id AND s.app_id = a.id AND s.version = a.schema_version')
      .where('a.tenant_id = :tenantId AND a.id <> :appId', { tenantId, appId })
      .getRawMany<Pick<AppSchemaEntity, 'schema'>>()
    return rows.map((r) => r.schema)
  }

  /** The app's stored versions, newest first (at most `limit`). */
  async versions(manager: EntityManager, tenantId: string, appId: string, limit: number): Promise<AppSchemaVersion[]> {
    const rows = await table(manager, 'app_schemas').find({
      select: { tenant_id: true, app_id: true, version: true, schema: true, created_at: true },
      where: { tenant_id: tenantId, app_id: appId },
      order: { version: 'DESC' },
      take: limit,
    })
    return rows.map(toVersion)
  }

  /**
   * Locks the app row (so two schema changes of one app are serialized) and returns its current version number (0:
   * none).
   */
  async lockApp(manager: EntityManager, tenantId: string, appId: string): Promise<number | null> {
    const app = await table(manager, 'apps').findOne({
      select: { tenant_id: true, id: true, schema_version: true },
      where: { tenant_id: tenantId, id: appId },
      lock: { mode: 'pessimistic_write' },
    })
    return app ? Number(app.schema_version ?? 0) : null
  }

  /** Stores a new version and makes it current. */
  async insert(
    manager: EntityManager,
    tenantId: string,
    appId: string,
    version: number,
    schema: CustomSchema,
  ): Promise<AppSchemaVersion> {
    const result = await table(manager, 'app_schemas')
      .createQueryBuilder()
      .insert()
      .values({ tenant_id: tenantId, app_id: appId, version, schema })
      .returning([...ROW_COLUMNS])
      .execute()
    await table(manager, 'apps').update({ tenant_id: tenantId, id: appId }, { schema_version: version })
    return toVersion((result.raw as Row[])[0]!)
  }

  /** Deletes the app's versions older than its newest `keep` (at least 1); the current version is never deleted. */
  async pruneVersions(manager: EntityManager, tenantId: string, appId: string, keep: number): Promise<void> {
    await manager.query(
      `DELETE FROM app_schemas s
        WHERE s.tenant_id = $1 AND s.app_id = $2
          AND s.version < (SELECT min(k.version)
                             FROM (SELECT version FROM app_schemas WHERE tenant_id = $1 AND app_id = $2
                                    ORDER BY version DESC LIMIT $3) k)
          AND s.version IS DISTINCT FROM (SELECT schema_version FROM apps WHERE tenant_id = $1 AND id = $2)`,
      [tenantId, appId, Math.max(1, keep)],
    )
  }

  /** The tenant's profiles holding a value of any of the fields (`section.field`), locked. */
  async profilesHolding(manager: EntityManager, tenantId: string, paths: string[]): Promise<ProfileCustomRow[]> {
    if (!paths.length) return []
    const rows: ProfileCustomRow[] = await manager.query(
      `SELECT p.profile_id, p.content, p.history_seq FROM profiles p
        WHERE p.tenant_id = $1
          AND EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[]) AS x(s, f) WHERE p.content -> 'custom' -> x.s ? x.f)
        ORDER BY p.profile_id FOR UPDATE`,
      [tenantId, paths.map((p) => p.split('.')[0]), paths.map((p) => p.split('.')[1])],
    )
    return rows.map((r) => ({ ...r, history_seq: Number(r.history_seq) }))
  }

  /**
   * Rewrites profiles' content after dropped fields were taken out, with one history entry each (input_type 'schema').
   */
  async dropValues(
    manager: EntityManager,
    tenantId: string,
    rows: { profileId: string; content: string; seq: number; changes: string; at: string }[],
    history: HistoryBounds,
  ) {
    if (!rows.length) return
    await manager.query(
      `INSERT INTO profile_history (tenant_id, profile_id, seq, extracted_on, changes, submission_ids, input_type)
       SELECT $1::text, x.profile_id, x.seq, x.at, x.changes, '[]'::jsonb, 'schema'
         FROM unnest($2::text[], $3::int[], $4::timestamptz[], $5::jsonb[]) AS x(profile_id, seq, at, changes)`,
      [
        tenantId,
        rows.map((r) => r.profileId),
        rows.map((r) => r.seq),
        rows.map((r) => r.at),
        rows.map((r) => r.changes),
      ],
    )
    await manager.query(
      `UPDATE profiles p
          SET content = x.content::jsonb, history_seq = x.seq, version = version + 1, last_updated = now()
         FROM unnest($2::text[], $3::text[], $4::int[]) AS x(profile_id, content, seq)
        WHERE p.tenant_id = $1 AND p.profile_id = x.profile_id`,
      [tenantId, rows.map((r) => r.profileId), rows.map((r) => r.content), rows.map((r) => r.seq)],
    )
    await pruneHistory(
      manager,
      rows.map((r) => ({ tenantId, profileId: r.profileId, seq: r.seq })),
      history,
    )
  }
}

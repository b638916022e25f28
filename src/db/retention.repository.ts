import type { EntityManager } from 'typeorm'
import type { ProfileEntity } from './entities/profile.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'
import type { AppEntity } from './entities/tenant.entity.js'

/**
 * A profile the delete policy has expired: the apps that decided, and the moment it must not have been touched since.
 */
export interface ExpiredProfile {
  profileId: string
  appIds: string[]
  cutoff: Date
}

/**
 * The retention sweep's SQL (docs/operations/data-lifecycle.md#retention). Every statement filters by tenant_id; what
 * it finds or changes is bounded by `limit`, so a sweep works in batches. The rule for deleting a profile: the apps
 * recorded on its submissions (apps that still exist) all have a delete policy, and it has been untouched (no change,
 * no submission) for longer than the longest of them.
 */
export class RetentionRepository {
  /**
   * The tenants that may have an app with a policy, as marked when a policy is set (`retention_tenants`): what a
   * sharded database reads instead of every shard of `apps`. `markedAt` as the database wrote it, to the microsecond.
   */
  async markedTenants(manager: EntityManager): Promise<{ tenantId: string; markedAt: string }[]> {
    const rows: { tenant_id: string; marked_at: string }[] = await manager.query(
      `SELECT tenant_id, marked_at::text FROM retention_tenants ORDER BY tenant_id`,
    )
    return rows.map((r) => ({ tenantId: r.tenant_id, markedAt: r.marked_at }))
  }

  /** Drops the tenant's mark, unless a policy was set since it was read. */
  async clearMark(manager: EntityManager, tenantId: string, markedAt: string): Promise<void> {
    await manager.query(`DELETE FROM retention_tenants WHERE tenant_id = $1 AND marked_at = $2::timestamptz`, [
      tenantId,
      markedAt,
    ])
  }

  /**
   * Tenants with an app whose delete policy is set, and the shortest such policy (a first filter on last_updated): of
   * every tenant, or of that one only.
   */
  async deletingTenants(manager: EntityManager, tenantId?: string): Promise<{ tenantId: string; minDays: number }[]> {
    const rows: (Pick<AppEntity, 'tenant_id'> & { days: number })[] = await manager.query(
      `SELECT tenant_id, min(delete_profiles_after_days)::int AS days FROM apps
        WHERE delete_profiles_after_days IS NOT NULL ${tenantId === undefined ? '' : 'AND tenant_id = $1'}
        GROUP BY tenant_id ORDER BY tenant_id`,
      tenantId === undefined ? [] : [tenantId],
    )
    return rows.map((r) => ({ tenantId: r.tenant_id, minDays: r.days }))
  }

  /** The tenant's next `limit` expired profiles after `after` (profile id order). */
  async expiredProfiles(
    manager: EntityManager,
    tenantId: string,
    options: { minDays: number; after: string | null; limit: number },
  ): Promise<ExpiredProfile[]> {
    const rows: (Pick<ProfileEntity, 'profile_id'> & { apps: AppEntity['id'][]; cutoff: Date })[] = await manager.query(
      `SELECT p.profile_id, g.apps, now() - make_interval(days => g.days) AS cutoff
         FROM profiles p
         CROSS JOIN LATERAL (
           SELECT count(*) AS n, bool_and(a.delete_profiles_after_days IS NOT NULL) AS all_set,
                  max(a.delete_profiles_after_days)::int AS days, array_agg(DISTINCT a.id) AS apps
             FROM submissions s JOIN apps a ON a.tenant_id = s.tenant_id AND a.id = s.app_id
            WHERE s.tenant_id = p.tenant_id AND s.profile_id = p.profile_id) g
        WHERE p.tenant_id = $1 AND p.status = 'ready' AND p.last_updated < now() - make_interval(days => $2::int)
          AND ($3::text IS NULL OR p.profile_id > $3)
          AND g.n > 0 AND g.all_set AND p.last_updated < now() - make_interval(days => g.days)
          AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.tenant_id = p.tenant_id AND s.profile_id = p.profile_id
                             AND s.created_at >= now() - make_interval(days => g.days))
        ORDER BY p.profile_id LIMIT $4`,
      [tenantId, options.minDays, options.after, options.limit],
    )
    return rows.map((r) => ({ profileId: r.profile_id, appIds: r.apps, cutoff: new Date(r.cutoff) }))
  }

  /** Apps whose text policy is set: of every tenant, or of that one only. */
  async textDroppingApps(
    manager: EntityManager,
    tenantId?: string,
  ): Promise<{ tenantId: string; appId: string; days: number }[]> {
    const rows: (Pick<AppEntity, 'tenant_id' | 'id'> & { days: number })[] = await manager.query(
      `SELECT tenant_id, id, drop_submission_text_after_days AS days FROM apps
        WHERE drop_submission_text_after_days IS NOT NULL ${tenantId === undefined ? '' : 'AND tenant_id = $1'}
        ORDER BY tenant_id, id`,
      tenantId === undefined ? [] : [tenantId],
    )
    return rows.map((r) => ({ tenantId: r.tenant_id, appId: r.id, days: r.days }))
  }

  /**
   * Drops the text of up to `limit` of the app's submissions finished more than `days` ago (the row stays: status,
   * times, usage), the extractor's provenance with it, which quotes the text, and their evidence passages
   * (docs/guides/evidence.md), which are the text's own words. Rows being changed are skipped. Run it in a transaction:
   * the passages are deleted by a second statement, which sees any passage committed while the first waited for a row
   * (a reindex rebuilding passages holds its submission's row until it commits). Returns how many.
   */
  async dropText(
    manager: EntityManager,
    tenantId: string,
    appId: string,
    days: number,
    limit: number,
  ): Promise<number> {
    const [rows]: [Pick<SubmissionEntity, 'id'>[], number] = await manager.query(
      `UPDATE submissions s SET data = NULL, extraction = NULL
         FROM (SELECT id FROM submissions
                WHERE tenant_id = $1 AND app_id = $2 AND data IS NOT NULL AND finished_at IS NOT NULL
                  AND finished_at < now() - make_interval(days => $3::int)
                ORDER BY finished_at LIMIT $4 FOR UPDATE SKIP LOCKED) x
        WHERE s.tenant_id = $1 AND s.id = x.id
        RETURNING s.id`,
      [tenantId, appId, days, limit],
    )
    if (rows.length) {
      await manager.query(`DELETE FROM passages WHERE tenant_id = $1 AND submission_id = ANY($2::uuid[])`, [
        tenantId,
        rows.map((r) => r.id),
      ])
    }
    return rows.length
  }
}

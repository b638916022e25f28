import type { EntityManager } from 'typeorm'
import type { InputType } from '../domain/profile.js'
import { isOpenSql } from '../domain/submission.js'
import { isoTimeOrNull as isoOrNull } from '../domain/time.js'
import type { AppSchemaVersion } from '../domain/custom-schema.js'
import type { SubmissionEntity } from './entities/submission.entity.js'
import type { AppEntity } from './entities/tenant.entity.js'

/** A submission as stored, without its data. */
export type SubmissionRow = Pick<
  SubmissionEntity,
  | 'id'
  | 'profile_id'
  | 'seq'
  | 'input_type'
  | 'status'
  | 'attempts'
  | 'error'
  | 'created_at'
  | 'occurred_at'
  | 'started_at'
  | 'finished_at'
  | 'usage'
  | 'prompt_version'
> & {
  /**
   * Whether its text is still stored (false once retention or a deletion of its evidence dropped it); read by find and
   * listForProfile.
   */
  has_text?: boolean
}

/** A stored submission as the API shows it (and an export writes it): times in ISO 8601, counts as numbers. */
export const submissionView = (r: SubmissionRow) => ({
  id: r.id,
  profile_id: r.profile_id,
  seq: Number(r.seq),
  input_type: r.input_type,
  status: r.status,
  attempts: r.attempts,
  error: r.error ?? null,
  created_at: new Date(r.created_at).toISOString(),
  occurred_at: new Date(r.occurred_at ?? r.created_at).toISOString(),
  started_at: isoOrNull(r.started_at),
  finished_at: isoOrNull(r.finished_at),
  usage: r.usage
    ? {
        promptTokens: Number(r.usage.promptTokens),
        completionTokens: Number(r.usage.completionTokens),
        totalTokens: Number(r.usage.totalTokens),
      }
    : null,
  prompt_version: r.prompt_version ?? null,
})

/** An applied submission as a re-extraction reads it. */
export interface StoredSubmission {
  id: string
  input_type: InputType
  data: string | null
  /** Its text is kept but longer than a submission may be now (stored before imports were bounded): not replayed. */
  too_large?: boolean
  instructions: string[]
  /** When it was accepted (ISO 8601): a re-extraction replays it as evidence of that age (forgotten values). */
  created_at: string
  /** When its text was said or written (ISO 8601; its acceptance time when none was given). */
  occurred_at: string
  /** The app that sent it, and that app's current custom schema version (null: none). */
  app_id: string | null
  schema_version: number | null
  /** That schema, attached by the caller (src/services/worker/claim.ts attachSchemas). */
  schema?: AppSchemaVersion
}

/** The submission an Idempotency-Key was last used for, and the hash of its request. */
export type IdempotentRow = Pick<SubmissionEntity, 'id' | 'profile_id' | 'request_hash' | 'created_at'>

/** Tokens used by a tenant's submissions, and how many submissions. */
export interface UsageTotals {
  promptTokens: number
  completionTokens: number
  totalTokens: number
  submissions: number
}

/** Open submissions of one state over all tenants, and the age of the oldest. */
export interface OpenSubmissionStats {
  count: number
  oldestAgeSeconds: number | null
}

const SUBMISSION_COLUMNS = `id, profile_id, seq, input_type, status, attempts, error, created_at, occurred_at,
  started_at, finished_at, usage, prompt_version, data IS NOT NULL AS has_text`

/** A row of `applied`: the submission's text (null when too large), and its app's instructions and schema version. */
type AppliedRow = Pick<SubmissionEntity, 'id' | 'input_type' | 'data' | 'created_at' | 'occurred_at' | 'app_id'> & {
  too_large: boolean | null
  summary_instructions: AppEntity['summary_instructions'] | null
  schema_version: AppEntity['schema_version'] | null
}

/**
 * Submissions, but for the POST's own statement (SUBMIT_SQL, a prepared statement of SubmissionService). Every
 * statement filters by tenant_id; each runs on the manager it is given.
 */
export class SubmissionRepository {
  async find(manager: EntityManager, tenantId: string, id: string): Promise<SubmissionRow | null> {
    const rows: SubmissionRow[] = await manager.query(
      `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    )
    return rows[0] ?? null
  }

  /**
   * The profile's applied (done) submissions, oldest first, at most `limit`, each with its text (null where retention
   * dropped it or an import left it out) and its app's summary instructions: what a re-extraction replays.
   */
  async applied(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    limit: number,
    maxDataBytes = Number.MAX_SAFE_INTEGER,
  ): Promise<StoredSubmission[]> {
    const rows: AppliedRow[] = await manager.query(
      `SELECT s.id, s.input_type, CASE WHEN octet_length(s.data) <= $4 THEN s.data END AS data,
              octet_length(s.data) > $4 AS too_large,
              s.created_at, s.occurred_at, s.app_id, a.summary_instructions, a.schema_version FROM submissions s
         LEFT JOIN apps a ON a.tenant_id = s.tenant_id AND a.id = s.app_id
        WHERE s.tenant_id = $1 AND s.profile_id = $2 AND s.status = 'done' ORDER BY s.seq LIMIT $3`,
      [tenantId, profileId, limit, Math.min(maxDataBytes, 2 ** 31 - 1)],
    )
    return rows.map((r) => ({
      id: r.id,
      input_type: r.input_type,
      data: r.data ?? null,
      too_large: r.too_large === true,
      instructions: r.summary_instructions ?? [],
      created_at: new Date(r.created_at).toISOString(),
      occurred_at: new Date(r.occurred_at ?? r.created_at).toISOString(),
      app_id: r.app_id ?? null,
      schema_version: r.schema_version ?? null,
    }))
  }

  /** A profile's submissions after `afterSeq` in acceptance order (a keyset page), optionally of one status. */
  async listForProfile(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    opts: { afterSeq?: number; limit: number; status?: string },
  ): Promise<SubmissionRow[]> {
    return manager.query(
      `SELECT ${SUBMISSION_COLUMNS} FROM submissions WHERE tenant_id = $1 AND profile_id = $2 AND seq > $3
          AND ($4::text IS NULL OR status = $4) ORDER BY seq LIMIT $5`,
      [tenantId, profileId, opts.afterSeq ?? 0, opts.status ?? null, opts.limit],
    )
  }

  /**
   * The queue for the operator's metrics: open submissions by state over every tenant (the one statement here without
   * a tenant, like the reconciler's), through the partial index of open submissions.
   */
  async openStats(manager: EntityManager): Promise<Record<'pending' | 'processing', OpenSubmissionStats>> {
    const rows: (Pick<SubmissionEntity, 'status'> & { n: string; age: number | null })[] = await manager.query(
      `SELECT status, count(*)::bigint AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
         FROM submissions WHERE ${isOpenSql()} GROUP BY status`,
    )
    const of = (status: string): OpenSubmissionStats => {
      const row = rows.find((x) => x.status === status)
      return row
        ? { count: Number(row.n), oldestAgeSeconds: row.age === null ? null : Math.max(0, Number(row.age)) }
        : { count: 0, oldestAgeSeconds: null }
    }
    return { pending: of('pending'), processing: of('processing') }
  }

  /** Tokens used over all the tenant's submissions (deleted profiles' submissions go with them). */
  async usageTotals(manager: EntityManager, tenantId: string): Promise<UsageTotals> {
    const [totals]: { prompt: string; completion: string; total: string; submissions: number }[] = await manager.query(
      `SELECT COALESCE(sum((usage->>'promptTokens')::bigint), 0)::bigint AS prompt,
              COALESCE(sum((usage->>'completionTokens')::bigint), 0)::bigint AS completion,
              COALESCE(sum((usage->>'totalTokens')::bigint), 0)::bigint AS total, count(*)::int AS submissions
         FROM submissions WHERE tenant_id = $1`,
      [tenantId],
    )
    // bigint comes back as a string
    return {
      promptTokens: Number(totals!.prompt),
      completionTokens: Number(totals!.completion),
      totalTokens: Number(totals!.total),
      submissions: totals!.submissions,
    }
  }

  /** The submission that holds the tenant's Idempotency-Key, or null. */
  async byIdempotencyKey(manager: EntityManager, tenantId: string, key: string): Promise<IdempotentRow | null> {
    const rows: IdempotentRow[] = await manager.query(
      `SELECT id, profile_id, request_hash, created_at FROM submissions WHERE tenant_id = $1 AND idempotency_key = $2`,
      [tenantId, key],
    )
    return rows[0] ?? null
  }

  /** Frees the submission's Idempotency-Key (its window has passed) for a new request to use. */
  async releaseIdempotencyKey(manager: EntityManager, tenantId: string, id: string): Promise<void> {
    await manager.query(`UPDATE submissions SET idempotency_key = NULL WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ])
  }
}

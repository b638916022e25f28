import type { DataSource, EntityManager } from 'typeorm'
import { profileKey } from '../domain/profile.js'
import type { ProfileJob } from '../domain/profile.js'
import { isOpenSql } from '../domain/submission.js'
import type { OpenSubmission } from '../domain/worker-policy.js'
import { SubmissionLifecycle } from './submission-lifecycle.js'
import { byTenantOf, perTenant, tenantIdOf } from './tenant-routing.js'
import {
  insertHistory,
  NO_HISTORY_BOUNDS,
  PROFILE_COLUMNS,
  toRecord,
  type HistoryBounds,
  type ProfileRecord,
  type ProfileRow,
} from './profile.repository.js'
import type { AppEntity } from './entities/tenant.entity.js'
import type { ProfileEntity } from './entities/profile.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'

/** The worker's SQL, one statement for many profiles at a time. Every statement filters by tenant_id. */

const ids = (jobs: ProfileJob[]) => [jobs.map((j) => j.tenantId), jobs.map((j) => j.profileId)]
/** A row's profile under the key the processing service looks it up by. */
const rowKey = (r: { tenant_id: string; profile_id: string }) =>
  profileKey({ tenantId: r.tenant_id, profileId: r.profile_id })
const PROFILES = `unnest($1::text[], $2::text[]) AS x(tenant_id, profile_id)`

/**
 * A row of `open`: an open submission of a profile, with its app's instructions and schema, and how long it must wait.
 */
type OpenRow = Pick<
  SubmissionEntity,
  | 'tenant_id'
  | 'profile_id'
  | 'id'
  | 'input_type'
  | 'data'
  | 'attempts'
  | 'traceparent'
  | 'created_at'
  | 'occurred_at'
  | 'app_id'
> & {
  summary_instructions: AppEntity['summary_instructions'] | null
  schema_version: AppEntity['schema_version']
  wait: number
}

/**
 * A row of a statement that changes profiles' status: the status event's order (a bigint, as text) when one is taken.
 */
type StatusSeqRow = Pick<ProfileEntity, 'tenant_id' | 'profile_id'> & { seq: string | null }

/** What the apply of one profile writes. */
export interface ProfileWrite {
  job: ProfileJob
  /** The submissions finished, with what each keeps (its extraction, evidence, and its share of the tokens). */
  submissions: {
    id: string
    extraction: string
    usage?: { promptTokens: number; completionTokens: number; totalTokens: number }
  }[]
  promptVersion: string | null
  /** The profile's history sequence after this apply: the new entry's, or the current one when there is no entry. */
  historySeq: number
  /** The update_log entry; none when the batch changed nothing visible. */
  history?: { extractedOn: string; changes: string; submissionIds: string; inputType: string }
  content: string
  fieldTimestamps: string
  internals: string
  language: string | null
  summary: string
  name: string | null
  age: number | null
  gender: string | null
  location: string | null
  embedding: string
  /** The profile's search lexemes, space-joined (profileLexemes). */
  lexemes: string
}

export class ProcessingRepository {
  /** The submissions' state changes (claim, done) of a round. */
  private readonly submissions = new SubmissionLifecycle()

  constructor(private readonly history: HistoryBounds = NO_HISTORY_BOUNDS) {}

  /** The profiles, locked in key order (so two workers never deadlock), as stored; gone ones are absent. */
  async lock(manager: EntityManager, jobs: ProfileJob[]): Promise<ProfileRecord[]> {
    const rows = await byTenant<ProfileRow>(jobs, (tenantId, profileIds) =>
      manager.query(
        `SELECT ${PROFILE_COLUMNS} FROM profiles
          WHERE tenant_id = $1 AND profile_id = ANY($2::text[]) ORDER BY profile_id FOR UPDATE`,
        [tenantId, profileIds],
      ),
    )
    return rows.map(toRecord)
  }

  /**
   * The profiles locked as `lock` locks them, with what an apply checks (lease, version, history sequence) but not
   * their content: a profile at the limits is a megabyte that the apply would read for nothing.
   */
  async lockForApply(
    manager: EntityManager,
    jobs: ProfileJob[],
  ): Promise<
    Pick<ProfileRecord, 'tenant_id' | 'profile_id' | 'claimed_by' | 'version' | 'history_seq' | 'status' | 'leased'>[]
  > {
    const rows = await byTenant<
      Pick<ProfileRow, 'tenant_id' | 'profile_id' | 'claimed_by' | 'version' | 'history_seq' | 'status' | 'leased'>
    >(jobs, (tenantId, profileIds) =>
      manager.query(
        `SELECT tenant_id, profile_id, claimed_by, version, history_seq, status,
                (lease_until IS NOT NULL AND lease_until > now()) AS leased
           FROM profiles WHERE tenant_id = $1 AND profile_id = ANY($2::text[]) ORDER BY profile_id FOR UPDATE`,
        [tenantId, profileIds],
      ),
    )
    return rows.map((r) => ({
      tenant_id: r.tenant_id,
      profile_id: r.profile_id,
      claimed_by: r.claimed_by ?? null,
      version: Number(r.version),
      history_seq: Number(r.history_seq),
      status: r.status,
      leased: Boolean(r.leased),
    }))
  }

  /** Each profile's open submissions, oldest first, at most `limit` each. */
  async open(manager: EntityManager, jobs: ProfileJob[], limit: number): Promise<Map<string, OpenSubmission[]>> {
    // One statement per tenant: a sharded database (Citus) runs a lateral subquery only on one tenant's node.
    const rows = await byTenant<OpenRow>(jobs, (tenantId, profileIds) =>
      manager.query(
        `SELECT $1::text AS tenant_id, x.profile_id, s.id, s.input_type, s.data, s.attempts, s.traceparent,
                s.created_at, s.occurred_at, s.app_id, a.summary_instructions, a.schema_version,
                GREATEST(0, EXTRACT(EPOCH FROM (s.not_before - now())))::float AS wait
           FROM unnest($2::text[]) AS x(profile_id)
           CROSS JOIN LATERAL (SELECT id, input_type, data, attempts, not_before, seq, traceparent, created_at,
                                      occurred_at, app_id
                                 FROM submissions s
                                WHERE s.tenant_id = $1 AND s.profile_id = x.profile_id AND ${isOpenSql('s.status')}
                                ORDER BY seq LIMIT $3) s
           LEFT JOIN apps a ON a.tenant_id = $1 AND a.id = s.app_id
          ORDER BY x.profile_id, s.seq`,
        [tenantId, profileIds, limit],
      ),
    )
    const out = new Map<string, OpenSubmission[]>()
    for (const r of rows) {
      const groupKey = rowKey(r)
      if (!out.has(groupKey)) out.set(groupKey, [])
      // An open submission keeps its text: retention and evidence deletions drop only finished ones'.
      out.get(groupKey)!.push({
        id: r.id,
        input_type: r.input_type,
        data: r.data as string,
        attempts: r.attempts,
        wait: Number(r.wait),
        traceparent: r.traceparent,
        created_at: new Date(r.created_at).toISOString(),
        occurred_at: new Date(r.occurred_at ?? r.created_at).toISOString(),
        instructions: r.summary_instructions ?? [],
        app_id: r.app_id,
        schema_version: r.schema_version,
      })
    }
    return out
  }

  /** Leases the profiles to `owner` and marks the chosen submissions processing, one more attempt each. */
  async claim(
    manager: EntityManager,
    jobs: ProfileJob[],
    submissions: { tenantId: string; id: string }[],
    owner: string,
    leaseSeconds: number,
  ) {
    await perTenant(jobs, tenantIdOf, (tenantId, group) =>
      manager.query(
        `UPDATE profiles p SET claimed_by = $3, lease_until = now() + make_interval(secs => $4)
           FROM ${PROFILES} WHERE p.tenant_id = $5 AND p.tenant_id = x.tenant_id AND p.profile_id = x.profile_id`,
        [...ids(group), owner, leaseSeconds, tenantId],
      ),
    )
    await this.submissions.claim(manager, submissions)
  }

  /**
   * Profiles with nothing open: ready and unleased. Returns the status event order (profile_status_seq) of those that
   * were processing, by profile.
   */
  async settleReady(manager: EntityManager, profiles: ProfileRecord[]): Promise<Map<string, number>> {
    // The event order is taken after the update (the rows locked), not in its RETURNING: see SUBMIT_SQL.
    const rows = await perTenant<ProfileRecord, StatusSeqRow>(
      profiles,
      (p) => p.tenant_id,
      (tenantId, group) =>
        manager.query(
          `WITH u AS (UPDATE profiles p SET claimed_by = NULL, lease_until = NULL, status = 'ready'
             FROM unnest($1::text[], $2::text[], $3::bool[]) AS x(tenant_id, profile_id, was_processing)
            WHERE p.tenant_id = $4 AND p.tenant_id = x.tenant_id AND p.profile_id = x.profile_id
            RETURNING p.tenant_id, p.profile_id, x.was_processing)
           SELECT tenant_id, profile_id, CASE WHEN was_processing THEN nextval('profile_status_seq') END AS seq FROM u`,
          [
            group.map((p) => p.tenant_id),
            group.map((p) => p.profile_id),
            group.map((p) => p.status !== 'ready'),
            tenantId,
          ],
        ),
    )
    return seqs(rows)
  }

  /** Gives up `owner`'s lease on the profiles (a lease of another owner stays). */
  async release(manager: EntityManager, jobs: ProfileJob[], owner: string) {
    await perTenant(jobs, tenantIdOf, (tenantId, group) =>
      manager.query(
        `UPDATE profiles p SET claimed_by = NULL, lease_until = NULL
           FROM ${PROFILES}
          WHERE p.tenant_id = $4 AND p.tenant_id = x.tenant_id AND p.profile_id = x.profile_id AND p.claimed_by = $3`,
        [...ids(group), owner, tenantId],
      ),
    )
  }

  /**
   * Keeps `owner`'s lease on the profiles alive. One statement per tenant (a sharded database routes it to one node),
   * and it skips the rows another transaction holds rather than waiting for them: those are this worker's own apply
   * (which settles them) or a claim that reads them and lets go, and a heartbeat that waited while holding other rows
   * could deadlock with them (a multi-row UPDATE locks in no set order).
   */
  async heartbeat(ds: DataSource, jobs: ProfileJob[], owner: string, leaseSeconds: number) {
    await byTenant(jobs, (tenantId, profileIds) =>
      ds.query(
        `UPDATE profiles p SET lease_until = now() + make_interval(secs => $4)
          WHERE p.tenant_id = $1 AND p.profile_id IN (
                SELECT profile_id FROM profiles
                 WHERE tenant_id = $1 AND profile_id = ANY($2::text[]) AND claimed_by = $3
                 ORDER BY profile_id FOR UPDATE SKIP LOCKED)
            AND p.claimed_by = $3`,
        [tenantId, profileIds, owner, leaseSeconds],
      ),
    )
  }

  /**
   * The apply of many profiles (already locked and checked to be leased by us): their submissions done, a history entry
   * for each that changed, the merged content, summary and embedding; a profile with nothing left open turns ready and
   * unleased. Returns, by profile, how many submissions remain open and, for those now ready, their status event order.
   */
  async apply(
    manager: EntityManager,
    writes: ProfileWrite[],
    embeddingModel: string,
  ): Promise<Map<string, { remaining: number; seq?: number }>> {
    const subs = writes.flatMap((w) =>
      w.submissions.map((s) => ({ ...s, tenantId: w.job.tenantId, promptVersion: w.promptVersion })),
    )
    // A re-extraction finishes no submission: it rewrites a profile from submissions done long ago.
    const done = subs.length ? await this.submissions.finish(manager, subs) : 0
    if (done !== subs.length) throw new Error(`expected to finish ${subs.length} submissions, finished ${done}`)
    // One statement per tenant: a sharded database (Citus) runs the lateral count only on one tenant's node.
    const rows: (StatusSeqRow & { remaining: number })[] = []
    for (const [, group] of byTenantOf(writes, (w) => w.job.tenantId))
      rows.push(...(await this.applyIn(manager, group, embeddingModel)))
    // After the profile: each entry's snapshot is the profile's new state, copied in SQL
    // (src/db/profile.repository.ts).
    await insertHistory(
      manager,
      writes.flatMap((w) =>
        w.history ? [{ tenantId: w.job.tenantId, profileId: w.job.profileId, seq: w.historySeq, ...w.history }] : [],
      ),
      this.history,
    )
    const out = new Map<string, { remaining: number; seq?: number }>()
    for (const r of rows)
      out.set(rowKey(r), { remaining: r.remaining, ...(r.seq !== null ? { seq: Number(r.seq) } : {}) })
    return out
  }

  /** The profile update of `apply` for the writes of one tenant. */
  private async applyIn(
    manager: EntityManager,
    writes: ProfileWrite[],
    embeddingModel: string,
  ): Promise<(StatusSeqRow & { remaining: number })[]> {
    // The JSON columns of all profiles travel as one JSON array assembled from their texts: no text[] literal whose
    // escaping (in the driver) and unescaping (in the database) would cost a pass over each megabyte-sized content.
    const docs = `[${writes.map((w) => `{"c":${w.content},"f":${w.fieldTimestamps},"i":${w.internals}}`).join(',')}]`
    const rows = await manager.query(
      `WITH u AS (UPDATE profiles p SET content = j.doc->'c', field_timestamps = j.doc->'f', internals = j.doc->'i',
              language = x.language, summary = x.summary, name = x.name, age = x.age, gender = x.gender,
              location = x.location, embedding = x.embedding::vector, embedding_model = $12,
              lexemes = array_to_tsvector(string_to_array(x.lexemes, ' ')), version = version + 1,
              history_seq = x.history_seq,
              last_updated = now(),
              status = CASE WHEN r.n > 0 THEN 'processing' ELSE 'ready' END,
              claimed_by = CASE WHEN r.n > 0 THEN claimed_by END,
              lease_until = CASE WHEN r.n > 0 THEN lease_until END
         FROM unnest($1::text[], $2::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[],
                     $10::text[], $11::int[], $13::text[])
              WITH ORDINALITY AS x(tenant_id, profile_id, language, summary, name, age, gender, location, embedding,
                                   history_seq, lexemes, n)
        JOIN jsonb_array_elements($3::jsonb) WITH ORDINALITY AS j(doc, n) ON j.n = x.n
        CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM submissions s
                             WHERE s.tenant_id = $14 AND s.profile_id = x.profile_id AND ${isOpenSql('s.status')}) r
        WHERE p.tenant_id = $14 AND p.tenant_id = x.tenant_id AND p.profile_id = x.profile_id
        RETURNING p.tenant_id, p.profile_id, r.n AS remaining)
       SELECT tenant_id, profile_id, remaining, CASE WHEN remaining = 0 THEN nextval('profile_status_seq') END AS seq
         FROM u`,
      [
        writes.map((w) => w.job.tenantId),
        writes.map((w) => w.job.profileId),
        docs,
        writes.map((w) => w.language),
        writes.map((w) => w.summary),
        writes.map((w) => w.name),
        writes.map((w) => w.age),
        writes.map((w) => w.gender),
        writes.map((w) => w.location),
        writes.map((w) => w.embedding),
        writes.map((w) => w.historySeq),
        embeddingModel,
        writes.map((w) => w.lexemes),
        writes[0]!.job.tenantId,
      ],
    )
    return rows
  }
}

/**
 * Runs `lockOne` for each tenant of the jobs, in tenant order, with its profile ids; the rows of all, in that order.
 * Locks are taken one tenant at a time because a FOR UPDATE must name one tenant in a sharded database (Citus: it stays
 * on one node). Tenants in one fixed order, then profiles in the database's order within each: every worker locks
 * in the same total order, so two workers still never deadlock.
 */
function byTenant<T>(jobs: ProfileJob[], lockOne: (tenantId: string, profileIds: string[]) => Promise<T[]>) {
  return perTenant<ProfileJob, T>(jobs, tenantIdOf, (tenantId, group) =>
    lockOne(
      tenantId,
      group.map((j) => j.profileId),
    ),
  )
}

function seqs(rows: StatusSeqRow[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const r of rows) if (r.seq !== null) out.set(rowKey(r), Number(r.seq))
  return out
}

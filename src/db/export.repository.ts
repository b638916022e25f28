import { toSql } from 'pgvector'
import type { EntityManager } from 'typeorm'
import {
  IMPORT_BOUNDS,
  type HistoryExport,
  type PassageExport,
  type ProfileExport,
  type SubmissionExport,
} from '../domain/export-format.js'
import { isOpenSql } from '../domain/submission.js'
import { submissionView, type SubmissionRow } from './submission.repository.js'
import { isoTimeOrNull as iso } from '../domain/time.js'
import { capJsonDepth } from '../domain/deep-json.js'
import type { PassageEntity } from './entities/passage.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'
import type { ProfileEntity, ProfileHistoryEntity } from './entities/profile.entity.js'
import type { TenantEntity } from './entities/tenant.entity.js'
import { table } from './entities/tables.js'

/**
 * Where a passage is in an export: its profile, when it was said (UTC, to the microsecond), its submission, its
 * position.
 */
export type PassageExportKey = [profileId: string, occurredAt: string, submissionId: string, position: number]

/** Whose imported submissions were unfinished: they are stored failed (an import does not run them). */
export const UNFINISHED_ON_IMPORT =
  'Not finished when exported; an import does not process submissions (submit the text again)'

/**
 * The SQL of export and import. Reads walk a tenant in keyset pages (by profile id, then sequence), so an export of any
 * size holds one page at a time; the history and submissions of a page of profiles come in pages of their own, in the
 * same order as the profiles (the database's, for ids and keys alike: no ordering is compared outside SQL). Writes are
 * upserts by key, so an import run twice leaves what one run leaves. Every statement filters by tenant_id.
 */
export class ExportRepository {
  async tenant(manager: EntityManager, tenantId: string): Promise<Pick<TenantEntity, 'id' | 'name'> | null> {
    return table(manager, 'tenants').findOne({ select: { id: true, name: true }, where: { id: tenantId } })
  }

  async countProfiles(manager: EntityManager, tenantId: string, profileId: string | null): Promise<number> {
    const [{ n }]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM profiles WHERE tenant_id = $1 AND ($2::text IS NULL OR profile_id = $2)`,
      [tenantId, profileId],
    )
    return n
  }

  /** The next page of profiles after `after` (profile id order), as exported. */
  async profiles(
    manager: EntityManager,
    tenantId: string,
    options: { after: string | null; profileId: string | null; limit: number },
  ): Promise<ProfileExport[]> {
    const rows: Pick<
      ProfileEntity,
      | 'profile_id'
      | 'status'
      | 'created_at'
      | 'last_updated'
      | 'summary'
      | 'language'
      | 'content'
      | 'field_timestamps'
      | 'internals'
      | 'history_seq'
    >[] = await manager.query(
      `SELECT profile_id, status, created_at, last_updated, summary, language, content, field_timestamps, internals,
              history_seq
         FROM profiles
        WHERE tenant_id = $1 AND ($2::text IS NULL OR profile_id > $2) AND ($3::text IS NULL OR profile_id = $3)
        ORDER BY profile_id LIMIT $4`,
      [tenantId, options.after, options.profileId, options.limit],
    )
    return rows.map(
      (r): ProfileExport => ({
        type: 'profile',
        profile_id: r.profile_id,
        status: r.status,
        created_at: iso(r.created_at)!,
        last_updated: iso(r.last_updated)!,
        summary: r.summary ?? null,
        language: r.language ?? null,
        core_info: r.content?.core_info ?? {},
        interests: r.content?.interests ?? {},
        personality: r.content?.personality ?? { traits: [], mood_trends: {} },
        memories: r.content?.memories ?? [],
        preferences: r.content?.preferences ?? { topics_to_avoid: [] },
        ...(r.content?.custom && Object.keys(r.content.custom).length ? { custom: r.content.custom } : {}),
        ...(r.content?.past_values && Object.keys(r.content.past_values).length
          ? { past_values: r.content.past_values }
          : {}),
        field_timestamps: r.field_timestamps ?? {},
        internals: { mood_counts: {}, seen: {}, ...(r.internals ?? {}) },
        history_seq: Number(r.history_seq),
      }),
    )
  }

  /**
   * History of the profiles `ids` after the key `after` (profile id, seq), in key order. Snapshots are deliberately
   * left out: each is a whole profile, so they would make an export quadratic in the history's length; imported entries
   * have none, so a rollback reaches only entries written after the import.
   */
  async history(
    manager: EntityManager,
    tenantId: string,
    ids: string[],
    after: [string, number] | null,
    limit: number,
  ): Promise<HistoryExport[]> {
    const rows: Pick<
      ProfileHistoryEntity,
      'profile_id' | 'seq' | 'extracted_on' | 'changes' | 'submission_ids' | 'input_type'
    >[] = await manager.query(
      `SELECT profile_id, seq, extracted_on, changes, submission_ids, input_type FROM profile_history
        WHERE tenant_id = $1 AND profile_id = ANY($2::text[])
          AND ($3::text IS NULL OR (profile_id, seq) > ($3, $4::int))
        ORDER BY profile_id, seq LIMIT $5`,
      [tenantId, ids, after?.[0] ?? null, after?.[1] ?? 0, limit],
    )
    return rows.map(
      (r): HistoryExport => ({
        type: 'history',
        profile_id: r.profile_id,
        seq: Number(r.seq),
        extracted_on: iso(r.extracted_on)!,
        // A stored entry nested deeper than any merge writes keeps its deep part as JSON text: the line stays writable
        // (JSON.stringify overflows at about 4,000 levels) and importable.
        changes: capJsonDepth(r.changes) as Record<string, unknown>,
        submission_ids: r.submission_ids,
        input_type: r.input_type,
      }),
    )
  }

  /**
   * Submissions of the profiles `ids` after the key `after` (profile id, seq), in key order; their text only with
   * `text`.
   */
  async submissions(
    manager: EntityManager,
    tenantId: string,
    ids: string[],
    after: [string, number] | null,
    options: { limit: number; text: boolean },
  ): Promise<SubmissionExport[]> {
    const rows: (SubmissionRow & Pick<SubmissionEntity, 'app_id' | 'data'>)[] = await manager.query(
      `SELECT profile_id, id, seq, app_id, input_type, status, attempts, error, created_at, occurred_at, started_at,
              finished_at, usage, prompt_version, CASE WHEN $6 THEN data END AS data
         FROM submissions
        WHERE tenant_id = $1 AND profile_id = ANY($2::text[])
          AND ($3::text IS NULL OR (profile_id, seq) > ($3, $4::bigint))
        ORDER BY profile_id, seq LIMIT $5`,
      [tenantId, ids, after?.[0] ?? null, after?.[1] ?? 0, options.limit, options.text],
    )
    return rows.map(
      (r): SubmissionExport => ({
        type: 'submission',
        ...submissionView(r),
        app_id: r.app_id ?? null,
        ...(options.text ? { text: r.data ?? null } : {}),
      }),
    )
  }

  /**
   * Evidence passages of the profiles `ids` (a page of profiles, in the database's order) after the key `after`, in key
   * order (profile, when said, submission, position: the order of the passages_profile index), without their vectors.
   * The index is scanned from the key, or from the page's first profile: never through the profiles before the page.
   */
  async passages(
    manager: EntityManager,
    tenantId: string,
    ids: string[],
    after: PassageExportKey | null,
    limit: number,
  ): Promise<(PassageExport & { key: PassageExportKey })[]> {
    if (!ids.length) return []
    const params: unknown[] = [tenantId, ids, limit]
    const from = after
      ? ` AND (profile_id, occurred_at, submission_id, position) >
              ($${params.push(after[0])}::text, $${params.push(after[1])}::timestamptz,
               $${params.push(after[2])}::uuid, $${params.push(after[3])}::int)`
      : ` AND profile_id >= $${params.push(ids[0])}::text`
    const rows: (Pick<
      PassageEntity,
      | 'profile_id'
      | 'submission_id'
      | 'position'
      | 'speaker'
      | 'prompt'
      | 'text'
      | 'occurred_at'
      | 'language'
      | 'hidden_at'
      | 'hidden_by'
    > & { at_key: string })[] = await manager.query(
      `SELECT profile_id, submission_id::text AS submission_id, position, speaker, prompt, text, occurred_at,
              language::text AS language, hidden_at, hidden_by,
              to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"+00"') AS at_key
         FROM passages WHERE tenant_id = $1 AND profile_id = ANY($2::text[])${from}
        ORDER BY profile_id, occurred_at, submission_id, position LIMIT $3`,
      params,
    )
    return rows.map((r) => ({
      type: 'passage' as const,
      profile_id: r.profile_id,
      submission_id: r.submission_id,
      position: Number(r.position),
      speaker: r.speaker ?? null,
      prompt: r.prompt ?? null,
      text: r.text,
      occurred_at: iso(r.occurred_at)!,
      language: r.language,
      hidden_at: iso(r.hidden_at),
      hidden_by: r.hidden_by ?? null,
      key: [r.profile_id, r.at_key, r.submission_id, Number(r.position)] as PassageExportKey,
    }))
  }

  /**
   * Profiles as the file has them: inserted, or replacing what the tenant has (content, summary, times), their
   * embedding cleared for the caller to compute. A new profile is ready; one that exists keeps its status (it may be
   * processing submissions of its own). The history sequence never goes back, unless it is past IMPORT_BOUNDS.seq,
   * where only an import made before that bound can have put it (an entry of seq 2,147,483,647 made every later batch
   * fail): such entries are deleted and the sequence restarts after the file's and the remaining entries. Returns each
   * profile's new version.
   */
  async upsertProfiles(
    manager: EntityManager,
    tenantId: string,
    ps: ProfileExport[],
    lexemes: string[],
  ): Promise<Map<string, number>> {
    if (!ps.length) return new Map()
    await manager.query(
      `DELETE FROM profile_history WHERE tenant_id = $1 AND profile_id = ANY($2::text[]) AND seq > $3`,
      [tenantId, ps.map((p) => p.profile_id), IMPORT_BOUNDS.seq],
    )
    const content = (p: ProfileExport) =>
      JSON.stringify({
        core_info: p.core_info,
        interests: p.interests,
        personality: p.personality,
        memories: p.memories,
        preferences: p.preferences,
        ...(p.custom ? { custom: p.custom } : {}),
        ...(p.past_values && Object.keys(p.past_values).length ? { past_values: p.past_values } : {}),
      })
    const core = (profile: ProfileExport, field: string) => {
      const value = (profile.core_info as Record<string, { value?: unknown } | undefined>)[field]?.value
      return value === undefined || value === null ? null : value
    }
    // Profiles already past the import bound keep a history sequence above their last entry: read (and lock) them and
    // their last entry first, so that the upsert below needs no subquery on profile_history in its ON CONFLICT (a
    // sharded database, Citus, runs that clause on the tenant's node, where it cannot read another distributed table).
    const past: (Pick<ProfileEntity, 'profile_id'> & { last: number })[] = await manager.query(
      `SELECT p.profile_id,
              (SELECT COALESCE(max(h.seq), 0) FROM profile_history h
                WHERE h.tenant_id = $1 AND h.profile_id = p.profile_id) AS last
         FROM profiles p
        WHERE p.tenant_id = $1 AND p.profile_id = ANY($2::text[]) AND p.history_seq > $3
        ORDER BY p.profile_id FOR UPDATE`,
      [tenantId, ps.map((p) => p.profile_id), IMPORT_BOUNDS.seq],
    )
    const lastOf = new Map(past.map((r) => [r.profile_id, Number(r.last)]))
    const rows: Pick<ProfileEntity, 'profile_id' | 'version'>[] = await manager.query(
      `INSERT INTO profiles (tenant_id, profile_id, status, content, field_timestamps, internals, summary, language,
                             name, age, gender, location, history_seq, created_at, last_updated, lexemes)
       SELECT $1::text, x.profile_id, 'ready', x.content::jsonb, x.field_timestamps::jsonb, x.internals::jsonb,
              x.summary, x.language, x.name, x.age, x.gender, x.location, x.history_seq, x.created_at, x.last_updated,
              array_to_tsvector(string_to_array(x.lexemes, ' '))
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[],
                     $10::text[], $11::text[], $12::int[], $13::timestamptz[], $14::timestamptz[], $15::text[])
              AS x(profile_id, content, field_timestamps, internals, summary, language, name, age, gender, location,
                   history_seq, created_at, last_updated, lexemes)
       ON CONFLICT (tenant_id, profile_id) DO UPDATE SET
              content = EXCLUDED.content, field_timestamps = EXCLUDED.field_timestamps, internals = EXCLUDED.internals,
              summary = EXCLUDED.summary, language = EXCLUDED.language, name = EXCLUDED.name, age = EXCLUDED.age,
              gender = EXCLUDED.gender, location = EXCLUDED.location,
              -- no parameters in ON CONFLICT: a sharded database (Citus) sends them to the nodes without their types
              history_seq = CASE WHEN profiles.history_seq <= ${IMPORT_BOUNDS.seq}
                                 THEN GREATEST(profiles.history_seq, EXCLUDED.history_seq)
                                 ELSE EXCLUDED.history_seq END,
              created_at = EXCLUDED.created_at, last_updated = EXCLUDED.last_updated, lexemes = EXCLUDED.lexemes,
              embedding = NULL, embedding_model = NULL, version = profiles.version + 1
       RETURNING profile_id, version`,
      [
        tenantId,
        ps.map((p) => p.profile_id),
        ps.map(content),
        ps.map((p) => JSON.stringify(p.field_timestamps)),
        ps.map((p) => JSON.stringify(p.internals)),
        ps.map((p) => p.summary),
        ps.map((p) => p.language),
        ps.map((p) => (typeof core(p, 'name') === 'string' ? core(p, 'name') : null)),
        ps.map((p) =>
          Number.isInteger(core(p, 'age')) && Math.abs(core(p, 'age') as number) < 2 ** 31 ? core(p, 'age') : null,
        ),
        ps.map((p) => (typeof core(p, 'gender') === 'string' ? core(p, 'gender') : null)),
        ps.map((p) => (typeof core(p, 'location') === 'string' ? core(p, 'location') : null)),
        // Past the bound: the larger of the file's and the last entry's (above), as the ON CONFLICT takes it as it is.
        ps.map((p) => (lastOf.has(p.profile_id) ? Math.max(p.history_seq, lastOf.get(p.profile_id)!) : p.history_seq)),
        ps.map((p) => p.created_at),
        ps.map((p) => p.last_updated),
        lexemes,
      ],
    )
    return new Map(rows.map((r) => [r.profile_id, Number(r.version)]))
  }

  /** History entries by key (profile, seq): the file's entry replaces the stored one of the same key. */
  async upsertHistory(manager: EntityManager, tenantId: string, hs: HistoryExport[]): Promise<void> {
    if (!hs.length) return
    await manager.query(
      `INSERT INTO profile_history (tenant_id, profile_id, seq, extracted_on, changes, submission_ids, input_type)
       SELECT $1::text, x.* FROM unnest($2::text[], $3::int[], $4::timestamptz[], $5::jsonb[], $6::jsonb[], $7::text[])
              AS x(profile_id, seq, extracted_on, changes, submission_ids, input_type)
       ON CONFLICT (tenant_id, profile_id, seq) DO UPDATE
          SET extracted_on = EXCLUDED.extracted_on, changes = EXCLUDED.changes,
              submission_ids = EXCLUDED.submission_ids, input_type = EXCLUDED.input_type`,
      [
        tenantId,
        hs.map((h) => h.profile_id),
        hs.map((h) => h.seq),
        hs.map((h) => h.extracted_on),
        hs.map((h) => JSON.stringify(h.changes)),
        hs.map((h) => JSON.stringify(h.submission_ids)),
        hs.map((h) => h.input_type),
      ],
    )
    // Entries beyond a profile's sequence (from a file whose profile record is older than its history) move it on.
    await manager.query(
      `UPDATE profiles p SET history_seq = x.seq
         FROM (SELECT profile_id, max(seq) AS seq FROM unnest($2::text[], $3::int[]) AS h(profile_id, seq) GROUP BY 1) x
        WHERE p.tenant_id = $1 AND p.profile_id = x.profile_id AND p.history_seq < x.seq`,
      [tenantId, hs.map((h) => h.profile_id), hs.map((h) => h.seq)],
    )
  }

  /**
   * Submissions the tenant does not have yet (by id), in the file's order (their sequence numbers are new); those it
   * has are left as they are. The app is kept when the tenant has an app of that id. Unfinished ones are stored failed.
   */
  async insertSubmissions(manager: EntityManager, tenantId: string, ss: SubmissionExport[]): Promise<number> {
    if (!ss.length) return 0
    const rows: unknown[] = await manager.query(
      `INSERT INTO submissions (tenant_id, id, profile_id, input_type, data, status, attempts, error, created_at,
                                started_at, finished_at, usage, prompt_version, app_id, occurred_at)
       SELECT $1::text, x.id, x.profile_id, x.input_type, x.data,
              CASE WHEN x.${isOpenSql('status')} THEN 'failed' ELSE x.status END, x.attempts,
              CASE WHEN x.${isOpenSql('status')} THEN $15 ELSE x.error END,
              x.created_at, x.started_at, CASE WHEN x.${isOpenSql('status')} THEN now() ELSE x.finished_at END,
              x.usage, x.prompt_version, a.id, NULLIF(x.occurred_at, x.created_at)
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[],
                     $9::timestamptz[], $10::timestamptz[], $11::timestamptz[], $12::jsonb[], $13::text[], $14::text[],
                     $16::timestamptz[])
              WITH ORDINALITY
              AS x(id, profile_id, input_type, data, status, attempts, error, created_at, started_at, finished_at,
                   usage, prompt_version, app_id, occurred_at, n)
         LEFT JOIN apps a ON a.tenant_id = $1 AND a.id = x.app_id
        ORDER BY x.n
       ON CONFLICT (tenant_id, id) DO NOTHING
       RETURNING 1`,
      [
        tenantId,
        ss.map((s) => s.id),
        ss.map((s) => s.profile_id),
        ss.map((s) => s.input_type),
        ss.map((s) => s.text ?? null),
        ss.map((s) => s.status),
        ss.map((s) => s.attempts),
        ss.map((s) => s.error),
        ss.map((s) => s.created_at),
        ss.map((s) => s.started_at),
        ss.map((s) => s.finished_at),
        ss.map((s) => (s.usage ? JSON.stringify(s.usage) : null)),
        ss.map((s) => s.prompt_version),
        ss.map((s) => s.app_id),
        UNFINISHED_ON_IMPORT,
        // The acceptance time itself is stored as none given (NULLIF above).
        ss.map((s) => s.occurred_at ?? null),
      ],
    )
    return rows.length
  }

  /**
   * The submission an imported passage names, as the passage is checked against it: its profile, input type, status
   * and stored text (undefined when the tenant has none of that id).
   */
  async passageSubmission(
    manager: EntityManager,
    tenantId: string,
    id: string,
  ): Promise<Pick<SubmissionEntity, 'profile_id' | 'input_type' | 'status' | 'data'> | undefined> {
    const sql = 'SELECT profile_id, input_type, status, data FROM submissions WHERE tenant_id = $1 AND id = $2'
    return (await manager.query(sql, [tenantId, id]))[0]
  }

  /**
   * Imported passages, without vectors (a reindex embeds them), each only where the tenant has its submission, of the
   * same profile, applied and with its text: a passage never outlives its submission's text (retention), and a
   * submission that failed keeps none (an import stores an unfinished one failed). The submission's row is
   * locked while it is read, so a retention sweep dropping its text meanwhile is waited for (and then seen) or waits
   * (and then deletes what this wrote). A passage the tenant has already is kept as it is, but hidden when the file
   * has it hidden: a forget is never undone by an import. A language this database has no configuration for is
   * indexed as `simple`. Returns how many passages the tenant has of the file's, and how many of them are new.
   */
  async insertPassages(
    manager: EntityManager,
    tenantId: string,
    ps: PassageExport[],
  ): Promise<{ matched: number; added: number }> {
    if (!ps.length) return { matched: 0, added: 0 }
    // Two statements, each routed whole to the tenant's node on a sharded database (Citus): the lock and count, then
    // the insert, whose tenant_id is the submission's own column (so the INSERT ... SELECT stays on the shard and sees
    // this transaction's earlier writes; as one statement with CTEs it ran through the coordinator and failed there).
    const ok: { n: string }[] = await manager.query(
      `SELECT x.n FROM unnest($2::text[], $3::uuid[]) WITH ORDINALITY AS x(profile_id, submission_id, n)
         JOIN submissions s ON s.tenant_id = $1 AND s.id = x.submission_id AND s.profile_id = x.profile_id
                           AND s.status = 'done' AND s.data IS NOT NULL
        ORDER BY x.n FOR SHARE OF s`,
      [tenantId, ps.map((p) => p.profile_id), ps.map((p) => p.submission_id)],
    )
    if (!ok.length) return { matched: 0, added: 0 }
    const kept = ok.map((r) => ps[Number(r.n) - 1]!)
    // The catalog is read on its own (a sharded database cannot join it to a distributed table).
    const known = new Set(
      (
        await manager.query(
          `SELECT cfgname::text AS name FROM pg_ts_config
            WHERE cfgnamespace = 'pg_catalog'::regnamespace AND cfgname = ANY($1::text[])`,
          [[...new Set(kept.map((p) => p.language))]],
        )
      ).map((r: { name: string }) => r.name),
    )
    const rows: { added: boolean }[] = await manager.query(
      `INSERT INTO passages (tenant_id, profile_id, submission_id, position, speaker, prompt, text, occurred_at,
                            language, hidden_at, hidden_by)
       SELECT s.tenant_id, s.profile_id, s.id, x.position, x.speaker, x.prompt, x.text, x.occurred_at,
              x.language::regconfig, x.hidden_at, x.hidden_by
         FROM unnest($2::text[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::text[], $8::timestamptz[],
                     $9::text[], $10::timestamptz[], $11::text[])
              AS x(profile_id, submission_id, position, speaker, prompt, text, occurred_at, language, hidden_at,
                   hidden_by)
         JOIN submissions s ON s.tenant_id = $1 AND s.id = x.submission_id AND s.profile_id = x.profile_id
                           AND s.status = 'done' AND s.data IS NOT NULL
       ON CONFLICT (tenant_id, submission_id, position) DO UPDATE
          SET hidden_at = EXCLUDED.hidden_at, hidden_by = EXCLUDED.hidden_by
        WHERE passages.hidden_at IS NULL AND EXCLUDED.hidden_at IS NOT NULL
       RETURNING (xmax = 0) AS added`,
      [
        tenantId,
        kept.map((p) => p.profile_id),
        kept.map((p) => p.submission_id),
        kept.map((p) => p.position),
        kept.map((p) => p.speaker),
        kept.map((p) => p.prompt),
        kept.map((p) => p.text),
        kept.map((p) => p.occurred_at),
        kept.map((p) => (known.has(p.language) ? p.language : 'simple')),
        kept.map((p) => p.hidden_at),
        kept.map((p) => p.hidden_by),
      ],
    )
    return { matched: kept.length, added: rows.filter((r) => r.added).length }
  }

  /** An imported profile's embedding, unless it changed since (version); 1 when stored. */
  async storeEmbedding(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    version: number,
    vector: number[],
    model: string,
  ): Promise<number> {
    const [, n]: [unknown[], number] = await manager.query(
      `UPDATE profiles SET embedding = $4, embedding_model = $5
        WHERE tenant_id = $1 AND profile_id = $2 AND version = $3`,
      [tenantId, profileId, version, toSql(vector), model],
    )
    return n
  }
}

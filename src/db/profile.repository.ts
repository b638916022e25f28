import { toSql } from 'pgvector'
import type { EntityManager } from 'typeorm'
import {
  emptyContent,
  type Changes,
  type EditKind,
  type ProfileContent,
  type ProfileInternals,
  type ProfileState,
} from '../domain/profile.js'
import type { Statement, Statements } from './statements.js'
import { perTenant, tenantIdOf } from './tenant-routing.js'
import { stateJson, type StateJson } from '../domain/state-json.js'
import type { ProfileEntity, ProfileHistoryEntity } from './entities/profile.entity.js'

export type ProfileStatus = ProfileEntity['status']

/** A history entry as the API shows it (its time in ISO 8601). */
export type HistoryEntry = Pick<ProfileHistoryEntity, 'seq' | 'changes' | 'submission_ids' | 'input_type'> & {
  extracted_on: string
}

/** A profile_history row as read: its time a Date, or text when it comes through json_agg (RECENT_HISTORY_COLUMN). */
export type HistoryRead = Pick<ProfileHistoryEntity, 'seq' | 'changes' | 'submission_ids' | 'input_type'> & {
  extracted_on: ProfileHistoryEntity['extracted_on'] | string
}

/** A row of PROFILE_COLUMNS (a search's READ_COLUMNS leave `internals` out), with whether it is leased now. */
export type ProfileRow = Pick<
  ProfileEntity,
  | 'tenant_id'
  | 'profile_id'
  | 'status'
  | 'content'
  | 'field_timestamps'
  | 'summary'
  | 'language'
  | 'version'
  | 'history_seq'
  | 'created_at'
  | 'last_updated'
  | 'claimed_by'
> &
  Partial<Pick<ProfileEntity, 'internals'>> & { leased: boolean; similarity?: number | string }

/**
 * A profile as stored, in domain terms: content and internals complete, times in ISO 8601, whether it is leased now.
 */
export type ProfileRecord = Pick<
  ProfileEntity,
  | 'tenant_id'
  | 'profile_id'
  | 'status'
  | 'field_timestamps'
  | 'summary'
  | 'language'
  | 'version'
  | 'history_seq'
  | 'claimed_by'
> & {
  content: ProfileContent
  internals: ProfileInternals
  created_at: string
  last_updated: string
  leased: boolean
  update_log?: HistoryEntry[]
  similarity?: number
}

export const PROFILE_COLUMNS = `tenant_id, profile_id, status, content, field_timestamps, internals, summary, language,
  version, history_seq, created_at, last_updated, claimed_by,
  (lease_until IS NOT NULL AND lease_until > now()) AS leased`

/** The summary instructions that apply to a row of `profiles`: those of the app of its newest submission. */
export const INSTRUCTIONS_COLUMN = `(SELECT a.summary_instructions FROM submissions s
     JOIN apps a ON a.tenant_id = s.tenant_id AND a.id = s.app_id
     WHERE s.tenant_id = profiles.tenant_id AND s.profile_id = profiles.profile_id
     ORDER BY s.seq DESC LIMIT 1) AS summary_instructions`

export function toRecord(row: ProfileRow): ProfileRecord {
  return {
    tenant_id: row.tenant_id,
    profile_id: row.profile_id,
    status: row.status,
    content: { ...emptyContent(), ...(row.content ?? {}) },
    field_timestamps: row.field_timestamps ?? {},
    internals: { mood_counts: {}, seen: {}, ...(row.internals ?? {}) },
    summary: row.summary ?? null,
    language: row.language ?? null,
    version: Number(row.version),
    history_seq: Number(row.history_seq),
    created_at: new Date(row.created_at).toISOString(),
    last_updated: new Date(row.last_updated).toISOString(),
    claimed_by: row.claimed_by ?? null,
    leased: Boolean(row.leased),
    ...(row.similarity !== undefined ? { similarity: Number(row.similarity) } : {}),
  }
}

/** A profile as findText reads it: content, field_timestamps and internals.said_at as JSON text. */
export type ProfileText = Pick<ProfileEntity, 'profile_id' | 'status' | 'summary' | 'language'> & {
  content: string
  field_timestamps: string
  /** internals.said_at: when each part was last named by evidence. */
  said_at: string
  /** The person's name as the profile holds it (core_info.name), or null. */
  name: string | null
}

/** How many of a profile's newest history entries come with it as `update_log` (docs/guides/the-profile.md). */
export const UPDATE_LOG_LIMIT = 100

/** A column of a query on `profiles`: the row's newest history entries as a JSON array `update_log`, oldest first. */
export const RECENT_HISTORY_COLUMN = `(SELECT COALESCE(json_agg(json_build_object('seq', h.seq,
        'extracted_on', h.extracted_on, 'changes', h.changes, 'submission_ids', h.submission_ids,
        'input_type', h.input_type) ORDER BY h.seq), '[]')
     FROM (SELECT seq, extracted_on, changes, submission_ids, input_type FROM profile_history
            WHERE tenant_id = profiles.tenant_id AND profile_id = profiles.profile_id
            ORDER BY seq DESC LIMIT ${UPDATE_LOG_LIMIT}) h) AS update_log`

/** A profile by key ($1, $2) with its recent history. */
export const PROFILE_WITH_HISTORY_SQL = `SELECT ${PROFILE_COLUMNS}, ${RECENT_HISTORY_COLUMN}
  FROM profiles WHERE tenant_id = $1 AND profile_id = $2`

/** Profile and history SQL. Every statement filters by tenant_id. */
export class ProfileRepository {
  private readonly withHistory: Statement<ProfileRow & { update_log: HistoryRead[] }>

  constructor(
    statements: Statements,
    private readonly bounds: HistoryBounds = NO_HISTORY_BOUNDS,
  ) {
    this.withHistory = statements.define<ProfileRow & { update_log: HistoryRead[] }>(
      'profiler_profile',
      PROFILE_WITH_HISTORY_SQL,
    )
  }

  async find(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    opts: { lock?: boolean } = {},
  ): Promise<ProfileRecord | null> {
    const rows: ProfileRow[] = await manager.query(
      `SELECT ${PROFILE_COLUMNS} FROM profiles
        WHERE tenant_id = $1 AND profile_id = $2 ${opts.lock ? 'FOR UPDATE' : ''}`,
      [tenantId, profileId],
    )
    return rows.length ? toRecord(rows[0]) : null
  }

  /** Whether the tenant has the profile (nothing of it read). */
  async exists(manager: EntityManager, tenantId: string, profileId: string): Promise<boolean> {
    const rows = await manager.query(`SELECT 1 FROM profiles WHERE tenant_id = $1 AND profile_id = $2`, [
      tenantId,
      profileId,
    ])
    return rows.length > 0
  }

  /**
   * A profile's content and timestamps (field_timestamps, internals.said_at) as JSON text, unparsed, with its status
   * and summary: for work that hands them to a CPU thread (a context), so the event loop neither parses nor copies a
   * profile at the size limit.
   */
  async findText(manager: EntityManager, tenantId: string, profileId: string): Promise<ProfileText | null> {
    const rows: ProfileText[] = await manager.query(
      `SELECT profile_id, status, summary, language, content::text AS content,
              field_timestamps::text AS field_timestamps,
              (internals -> 'said_at')::text AS said_at, content #>> '{core_info,name,value}' AS name
         FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
    const row = rows[0]
    return row
      ? {
          profile_id: row.profile_id,
          status: row.status,
          summary: row.summary ?? null,
          language: row.language ?? null,
          content: row.content ?? '{}',
          field_timestamps: row.field_timestamps ?? '{}',
          said_at: row.said_at ?? '{}',
          name: row.name ?? null,
        }
      : null
  }

  /** The profile with its newest history entries (oldest first) as `update_log`, in one statement. */
  async findWithHistory(tenantId: string, profileId: string): Promise<ProfileRecord | null> {
    const rows = await this.withHistory.rows([tenantId, profileId])
    if (!rows.length) return null
    const profile = toRecord(rows[0])
    profile.update_log = rows[0]!.update_log.map(toHistory)
    return profile
  }

  /**
   * Deletes the profile (its history, submissions and embedding with it); the status sequence number of the deletion,
   * or null when there was none. With `untouchedSince`, only a ready profile neither changed nor sent a submission
   * since (the retention sweep: a profile touched after it was chosen stays).
   */
  async delete(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    opts: { untouchedSince?: Date } = {},
  ): Promise<number | null> {
    const guard = opts.untouchedSince
      ? ` AND status = 'ready' AND last_updated < $3
          AND NOT EXISTS (SELECT 1 FROM submissions s
                           WHERE s.tenant_id = $1 AND s.profile_id = $2 AND s.created_at >= $3)`
      : ''
    // The event order is taken once the row is deleted, outside the DELETE's RETURNING: a sharded database (Citus)
    // runs the DELETE on the tenant's node, where the sequence is not.
    const rows = await manager.query(
      `WITH d AS (DELETE FROM profiles WHERE tenant_id = $1 AND profile_id = $2${guard} RETURNING 1)
       SELECT nextval('profile_status_seq') AS seq FROM d`,
      opts.untouchedSince ? [tenantId, profileId, opts.untouchedSince] : [tenantId, profileId],
    )
    return rows.length ? Number(rows[0].seq) : null
  }

  /** One history entry's snapshot (null: written before snapshots were kept); undefined when there is no such entry. */
  async snapshot(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    seq: number,
  ): Promise<{ snapshot: unknown } | undefined> {
    const rows: Pick<ProfileHistoryEntity, 'snapshot'>[] = await manager.query(
      `SELECT snapshot FROM profile_history WHERE tenant_id = $1 AND profile_id = $2 AND seq = $3`,
      [tenantId, profileId, seq],
    )
    return rows.length ? { snapshot: rows[0].snapshot ?? null } : undefined
  }

  /**
   * A change made by a request (forget, rollback): the profile's new state, summary and embedding, and its history
   * entry, unless the profile is no longer at `version` (then null: the caller starts again from the new state).
   * Status and lease are left as they are: a worker holding the lease finds the version moved and merges again.
   * Returns the new history seq, the status, and the status event order.
   */
  async rewrite(
    manager: EntityManager,
    rewrite: ProfileRewrite,
  ): Promise<{ seq: number; status: ProfileStatus; eventSeq: number } | null> {
    const core = rewrite.state.content.core_info
    const json = rewrite.json ?? stateJson(rewrite.state, rewrite.changes)
    const rows: (Pick<ProfileEntity, 'history_seq' | 'status'> & { event_seq: string })[] = await manager.query(
      `WITH u AS (UPDATE profiles SET content = $4::jsonb, field_timestamps = $5::jsonb, internals = $6::jsonb,
              language = $7, summary = $8,
              name = $9, age = $10, gender = $11, location = $12, embedding = $13::vector, embedding_model = $14,
              lexemes = array_to_tsvector(string_to_array($15, ' ')), version = version + 1,
              history_seq = history_seq + 1, last_updated = now()
        WHERE tenant_id = $1 AND profile_id = $2 AND version = $3
        RETURNING history_seq, status)
       SELECT history_seq, status, nextval('profile_status_seq') AS event_seq FROM u`,
      [
        rewrite.tenantId,
        rewrite.profileId,
        rewrite.version,
        json.content,
        json.fieldTimestamps,
        json.internals,
        rewrite.state.language ?? null,
        rewrite.summary,
        core.name?.value ?? null,
        core.age?.value ?? null,
        core.gender?.value ?? null,
        core.location?.value ?? null,
        toSql(rewrite.vector),
        rewrite.embeddingModel,
        rewrite.lexemes,
      ],
    )
    if (!rows.length) return null
    const seq = Number(rows[0].history_seq)
    await insertHistory(
      manager,
      [
        {
          tenantId: rewrite.tenantId,
          profileId: rewrite.profileId,
          seq,
          extractedOn: rewrite.at,
          changes: json.changes,
          submissionIds: '[]',
          inputType: rewrite.inputType,
        },
      ],
      this.bounds,
    )
    return { seq, status: rows[0].status, eventSeq: Number(rows[0].event_seq) }
  }

  /**
   * Adds `added` to the count `key` of history entry `seq`'s changes (0 when it had none): what the transactions
   * after the one that wrote it did beside the state (a forget's hidden passages). A small key: the entry's size is not
   * measured again.
   */
  async addToHistoryCount(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    seq: number,
    key: string,
    added: number,
  ): Promise<void> {
    await manager.query(
      `UPDATE profile_history
          SET changes = jsonb_set(changes, ARRAY[$4::text],
                                  to_jsonb(coalesce((changes ->> $4)::bigint, 0) + $5::bigint))
        WHERE tenant_id = $1 AND profile_id = $2 AND seq = $3`,
      [tenantId, profileId, seq, key, added],
    )
  }

  /** The seq of the profile's forget written at `at` (a tombstone's time); null when the history no longer has it. */
  async forgetAt(manager: EntityManager, tenantId: string, profileId: string, at: string): Promise<number | null> {
    const [r]: { seq: string }[] = await manager.query(
      `SELECT seq FROM profile_history
        WHERE tenant_id = $1 AND profile_id = $2 AND input_type = 'forget' AND extracted_on = $3::timestamptz
        ORDER BY seq DESC LIMIT 1`,
      [tenantId, profileId, at],
    )
    return r ? Number(r.seq) : null
  }

  /** The summary instructions that apply to a profile: those of the app of its newest submission ([] when none). */
  async summaryInstructions(manager: EntityManager, tenantId: string, profileId: string): Promise<string[]> {
    const [row]: { summary_instructions: string[] | null }[] = await manager.query(
      `SELECT ${INSTRUCTIONS_COLUMN} FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
    return row?.summary_instructions ?? []
  }

  async history(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    opts: { afterSeq?: number; limit: number },
  ): Promise<HistoryEntry[]> {
    const rows: HistoryRead[] = await manager.query(
      `SELECT seq, extracted_on, changes, submission_ids, input_type FROM profile_history
        WHERE tenant_id = $1 AND profile_id = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
      [tenantId, profileId, opts.afterSeq ?? 0, opts.limit],
    )
    return rows.map(toHistory)
  }
}

/** What a request's change of a profile writes (ProfileRepository.rewrite). */
export interface ProfileRewrite {
  tenantId: string
  profileId: string
  /** The version the new state was computed from. */
  version: number
  state: ProfileState
  summary: string
  vector: number[]
  embeddingModel: string
  /** The state's search lexemes, space-joined (src/domain/lexical.ts profileLexemes). */
  lexemes: string
  at: string
  changes: Changes
  inputType: EditKind
  /** The state and changes already serialized (where they were computed); serialized here otherwise. */
  json?: StateJson
}

/** One history row as written (JSON columns as text). */
export interface HistoryRow {
  tenantId: string
  profileId: string
  seq: number
  extractedOn: string
  changes: string
  submissionIds: string
  inputType: string
}

/**
 * How much history a profile keeps (docs/operations/limits.md, "A profile"): entries, and the newest of them with a
 * snapshot.
 */
export interface HistoryBounds {
  entries: number
  snapshots: number
}

/** Unbounded: for callers with no configuration (tests of other parts). */
export const NO_HISTORY_BOUNDS: HistoryBounds = { entries: Number.MAX_SAFE_INTEGER, snapshots: Number.MAX_SAFE_INTEGER }

/**
 * The one writer of profile_history rows (the worker's batches, forget, rollback, re-extraction), many in one
 * statement, once the profile row holds the new state: each entry's snapshot (what a rollback to it restores:
 * src/domain/forget.ts snapshotOf) is copied from that row in SQL, so a megabyte of state is neither sent nor parsed
 * twice. Then, for each profile written, the entries beyond its newest `bounds.entries` go and those beyond its newest
 * `bounds.snapshots` lose their snapshot (one indexed range each: what fell out since the last write).
 */
export async function insertHistory(manager: EntityManager, rows: HistoryRow[], bounds: HistoryBounds): Promise<void> {
  if (!rows.length) return
  await perTenant(rows, tenantIdOf, (tenantId, group) =>
    manager.query(
      `INSERT INTO profile_history (tenant_id, profile_id, seq, extracted_on, changes, submission_ids, input_type,
                                    snapshot)
       SELECT p.tenant_id, p.profile_id, x.seq, x.extracted_on, x.changes, x.submission_ids, x.input_type,
              jsonb_build_object('content', p.content, 'field_timestamps', p.field_timestamps, 'internals', p.internals)
                || CASE WHEN p.language IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('language', p.language) END
         FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::jsonb[], $6::jsonb[], $7::text[])
              AS x(tenant_id, profile_id, seq, extracted_on, changes, submission_ids, input_type)
         JOIN profiles p ON p.tenant_id = x.tenant_id AND p.profile_id = x.profile_id
        WHERE p.tenant_id = $8`,
      [
        group.map((r) => r.tenantId),
        group.map((r) => r.profileId),
        group.map((r) => r.seq),
        group.map((r) => r.extractedOn),
        group.map((r) => r.changes),
        group.map((r) => r.submissionIds),
        group.map((r) => r.inputType),
        tenantId,
      ],
    ),
  )
  await pruneHistory(manager, rows, bounds)
}

/**
 * For each profile of `written` (its newest entry's seq), the entries beyond its newest `bounds.entries` go and those
 * beyond its newest `bounds.snapshots` lose their snapshot: what fell out since the last write, one indexed range each.
 */
export async function pruneHistory(
  manager: EntityManager,
  written: { tenantId: string; profileId: string; seq: number }[],
  bounds: HistoryBounds,
): Promise<void> {
  if (!written.length) return
  const newest = new Map<string, { tenantId: string; profileId: string; seq: number }>()
  for (const r of written) {
    const key = `${r.tenantId}\u0000${r.profileId}`
    if ((newest.get(key)?.seq ?? -1) < r.seq) newest.set(key, r)
  }
  const cut = (keep: number) => Math.min(keep, 2 ** 31 - 1)
  await perTenant([...newest.values()], tenantIdOf, async (tenantId, last) => {
    const params = [last.map((r) => r.tenantId), last.map((r) => r.profileId), last.map((r) => r.seq)]
    await manager.query(
      `DELETE FROM profile_history h
        USING unnest($1::text[], $2::text[], $3::bigint[]) AS x(tenant_id, profile_id, seq)
        WHERE h.tenant_id = $5 AND h.tenant_id = x.tenant_id AND h.profile_id = x.profile_id AND h.seq <= x.seq - $4`,
      [...params, cut(bounds.entries), tenantId],
    )
    await manager.query(
      `UPDATE profile_history h SET snapshot = NULL
         FROM unnest($1::text[], $2::text[], $3::bigint[]) AS x(tenant_id, profile_id, seq)
        WHERE h.tenant_id = $5 AND h.tenant_id = x.tenant_id AND h.profile_id = x.profile_id
          AND h.seq <= x.seq - $4 AND h.snapshot IS NOT NULL`,
      [...params, cut(bounds.snapshots), tenantId],
    )
  })
}

export function toHistory(row: HistoryRead): HistoryEntry {
  return {
    seq: Number(row.seq),
    extracted_on: new Date(row.extracted_on).toISOString(),
    changes: row.changes,
    submission_ids: row.submission_ids,
    input_type: row.input_type,
  }
}

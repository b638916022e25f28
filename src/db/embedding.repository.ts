import type { EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import { profileVectorIndexSql } from './profile-vectors.js'
import { perTenant, tenantIdOf } from './tenant-routing.js'
import {
  INSTRUCTIONS_COLUMN,
  PROFILE_COLUMNS,
  toRecord,
  type ProfileRecord,
  type ProfileRow,
} from './profile.repository.js'
import type { PassageDraft } from '../domain/passages.js'
import type { PassageEntity } from './entities/passage.entity.js'
import type { ProfileEntity } from './entities/profile.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'
import type { AppEntity } from './entities/tenant.entity.js'

/**
 * Which profiles a reindex (re)embeds: every one with content when `$1` (all), else those not embedded with model `$2`
 * or without their search lexemes (profiles stored before hybrid search).
 */
const PENDING = `history_seq > 0
  AND ($1::boolean OR embedding IS NULL OR embedding_model IS DISTINCT FROM $2 OR lexemes IS NULL)`

/** The embeddings of profiles across tenants, for bringing them in line with the configured model (the reindex). */
export class EmbeddingRepository {
  /**
   * Changes profiles.embedding to vectors of `dimension`, clearing every stored vector and its model, and rebuilds the
   * HNSW index. Run it in a transaction: nothing is lost unless all of it commits.
   */
  async changeDimension(manager: EntityManager, dimension: number): Promise<void> {
    await manager.query(`DROP INDEX IF EXISTS profiles_embedding_hnsw`)
    await manager.query(
      `ALTER TABLE profiles ALTER COLUMN embedding TYPE vector(${dimension}) USING NULL,
                           ALTER COLUMN embedding_model DROP DEFAULT`,
    )
    await manager.query(`UPDATE profiles SET embedding_model = NULL WHERE embedding_model IS NOT NULL`)
    await manager.query(profileVectorIndexSql(dimension))
  }

  /** How many profiles are to be (re)embedded for `model` (all of them with `all`). */
  async pendingCount(manager: EntityManager, options: { all: boolean; model: string }): Promise<number> {
    const [{ total }]: { total: number }[] = await manager.query(
      `SELECT count(*)::int AS total FROM profiles WHERE ${PENDING}`,
      [options.all, options.model],
    )
    return total
  }

  /** The next `limit` of them after the key `after` (tenant id, profile id), in key order: a resumable walk. */
  async pendingBatch(
    manager: EntityManager,
    options: { all: boolean; model: string; after: [string, string]; limit: number },
  ): Promise<(ProfileRecord & { instructions: string[] })[]> {
    const rows: (ProfileRow & { summary_instructions: AppEntity['summary_instructions'] | null })[] =
      await manager.query(
        `SELECT ${PROFILE_COLUMNS}, ${INSTRUCTIONS_COLUMN} FROM profiles
        WHERE ${PENDING} AND (tenant_id, profile_id) > ($3, $4)
          ORDER BY tenant_id, profile_id LIMIT $5`,
        [options.all, options.model, options.after[0], options.after[1], options.limit],
      )
    return rows.map((r) => ({ ...toRecord(r), instructions: r.summary_instructions ?? [] }))
  }

  /**
   * Stores a profile's summary, embedding and search lexemes (only these derived columns), unless the profile is no
   * longer at `version`: a worker that updated it meanwhile embedded it itself.
   */
  async storeEmbedding(
    manager: EntityManager,
    update: {
      tenantId: string
      profileId: string
      version: number
      summary: string
      vector: number[]
      model: string
      lexemes: string
    },
  ): Promise<void> {
    await manager.query(
      `UPDATE profiles
          SET summary = $4, embedding = $5, embedding_model = $6, lexemes = array_to_tsvector(string_to_array($7, ' '))
            WHERE tenant_id = $1 AND profile_id = $2 AND version = $3`,
      [
        update.tenantId,
        update.profileId,
        update.version,
        update.summary,
        toSql(update.vector),
        update.model,
        update.lexemes,
      ],
    )
  }
}

/** A submission whose evidence passages a reindex rebuilds: applied, with its text, not structured, and without any. */
export type PasslessSubmission = Pick<SubmissionEntity, 'tenant_id' | 'profile_id' | 'id' | 'input_type'> & {
  /** Its text (kept: PASSLESS). */
  data: string
  /** Its event time: as given, else its acceptance time, never after that (as the worker dates its passages). */
  occurred_at: string
  /** When it was accepted (ISO 8601): none of its passages is dated later. */
  created_at: string
  /** The profile's language (ISO 639-1), which its passages are stemmed in. */
  language: ProfileEntity['language']
}

/** Which passages a reindex (re)embeds: visible ones, all with `$1`, else those without a vector of model `$2`. */
const PASSAGE_PENDING = `hidden_at IS NULL
  AND ($1::boolean OR embedding IS NULL OR embedding_model IS DISTINCT FROM $2)`
/** Which submissions a reindex rebuilds passages of (docs/guides/evidence.md, "Evidence passages"). */
const PASSLESS = `s.status = 'done' AND s.data IS NOT NULL AND s.input_type <> 'structured'
   AND NOT EXISTS (SELECT 1 FROM passages p WHERE p.tenant_id = s.tenant_id AND p.submission_id = s.id)`

/**
 * Evidence passages across tenants, for a reindex: rebuilding those of submissions that have none (imported from a file
 * made before passages were exported, or applied before passages existed), and embedding those without a vector of the
 * configured model (imported ones, rebuilt ones, or after a change of model). Walks are keyset, so resumable.
 */
export class PassageIndexRepository {
  async passlessCount(manager: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM submissions s WHERE ${PASSLESS}`,
    )
    return n
  }

  /** The next `limit` such submissions after the key `after` (tenant id, submission id), in key order. */
  async passlessBatch(
    manager: EntityManager,
    options: { after: [string, string]; limit: number },
  ): Promise<PasslessSubmission[]> {
    type Row = Omit<PasslessSubmission, 'occurred_at' | 'created_at'> & { occurred_at: Date; created_at: Date }
    const rows: Row[] = await manager.query(
      `SELECT s.tenant_id, s.profile_id, s.id::text AS id, s.input_type, s.data,
              least(coalesce(s.occurred_at, s.created_at), s.created_at) AS occurred_at, s.created_at, pr.language
         FROM submissions s JOIN profiles pr ON pr.tenant_id = s.tenant_id AND pr.profile_id = s.profile_id
        WHERE ${PASSLESS} AND (s.tenant_id, s.id) > ($1, $2::uuid)
        ORDER BY s.tenant_id, s.id LIMIT $3`,
      [options.after[0], options.after[1], options.limit],
    )
    return rows.map((r) => ({
      ...r,
      occurred_at: new Date(r.occurred_at).toISOString(),
      created_at: new Date(r.created_at).toISOString(),
      language: r.language ?? null,
    }))
  }

  /** How many passages each of the tenant's `profileIds` has (hidden ones too). */
  async counts(manager: EntityManager, tenantId: string, profileIds: string[]): Promise<Map<string, number>> {
    const rows: (Pick<PassageEntity, 'profile_id'> & { n: number })[] = await manager.query(
      `SELECT profile_id, count(*)::int AS n FROM passages
        WHERE tenant_id = $1 AND profile_id = ANY($2::text[]) GROUP BY profile_id`,
      [tenantId, profileIds],
    )
    return new Map(rows.map((r) => [r.profile_id, r.n]))
  }

  /**
   * A submission's rebuilt passages, without vectors, only while it is applied and keeps its text: its row is locked
   * while it is read, so a retention sweep or an evidence deletion dropping the text meanwhile is waited for (and then
   * seen) or waits (and then deletes these). A configuration this database lacks is `simple`. Returns how many.
   */
  async insertRebuilt(
    manager: EntityManager,
    tenantId: string,
    submissionId: string,
    config: string,
    ps: PassageDraft[],
  ): Promise<number> {
    if (!ps.length) return 0
    const rows: unknown[] = await manager.query(
      `INSERT INTO passages
              (tenant_id, profile_id, submission_id, position, speaker, prompt, text, occurred_at, language)
       SELECT s.tenant_id, s.profile_id, s.id, x.position, x.speaker, x.prompt, x.text, x.occurred_at,
              COALESCE((SELECT c.oid::regconfig FROM pg_ts_config c
                         WHERE c.cfgname = $3 AND c.cfgnamespace = 'pg_catalog'::regnamespace), 'simple'::regconfig)
         FROM (SELECT tenant_id, profile_id, id FROM submissions
                WHERE tenant_id = $1 AND id = $2::uuid AND status = 'done' AND data IS NOT NULL FOR SHARE) s,
              unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
                AS x(position, speaker, prompt, text, occurred_at)
       ON CONFLICT DO NOTHING
       RETURNING 1`,
      [
        tenantId,
        submissionId,
        config,
        ps.map((p) => p.position),
        ps.map((p) => p.speaker),
        ps.map((p) => p.prompt),
        ps.map((p) => p.text),
        ps.map((p) => p.occurredAt),
      ],
    )
    return rows.length
  }

  async pendingCount(manager: EntityManager, options: { all: boolean; model: string }): Promise<number> {
    const [{ n }]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM passages WHERE ${PASSAGE_PENDING}`,
      [options.all, options.model],
    )
    return n
  }

  /** The next `limit` passages to embed after the key `after` (tenant id, submission id, position), in key order. */
  async pendingBatch(
    manager: EntityManager,
    options: { all: boolean; model: string; after: [string, string, number]; limit: number },
  ): Promise<Pick<PassageEntity, 'tenant_id' | 'submission_id' | 'position' | 'prompt' | 'text'>[]> {
    const rows: Pick<PassageEntity, 'tenant_id' | 'submission_id' | 'position' | 'prompt' | 'text'>[] =
      await manager.query(
        `SELECT tenant_id, submission_id::text AS submission_id, position, prompt, text FROM passages
        WHERE ${PASSAGE_PENDING} AND (tenant_id, submission_id, position) > ($3, $4::uuid, $5::int)
        ORDER BY tenant_id, submission_id, position LIMIT $6`,
        [options.all, options.model, options.after[0], options.after[1], options.after[2], options.limit],
      )
    return rows.map((r) => ({ ...r, position: Number(r.position) }))
  }

  /** Stores passages' vectors and their model (a passage deleted meanwhile is not brought back). */
  async storeVectors(
    manager: EntityManager,
    rows: { tenantId: string; submissionId: string; position: number; vector: number[] }[],
    model: string,
  ): Promise<void> {
    if (!rows.length) return
    await perTenant(rows, tenantIdOf, (tenantId, group) =>
      manager.query(
        `UPDATE passages p SET embedding = x.embedding::vector, embedding_model = $5
           FROM unnest($1::text[], $2::uuid[], $3::int[], $4::text[])
                AS x(tenant_id, submission_id, position, embedding)
          WHERE p.tenant_id = $6 AND p.tenant_id = x.tenant_id AND p.submission_id = x.submission_id
            AND p.position = x.position`,
        [
          group.map((r) => r.tenantId),
          group.map((r) => r.submissionId),
          group.map((r) => r.position),
          group.map((r) => toSql(r.vector)),
          model,
          tenantId,
        ],
      ),
    )
  }
}

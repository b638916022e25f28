import type { EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import { INSTRUCTIONS_COLUMN, PROFILE_COLUMNS, toRecord, type ProfileRecord } from './profile.repository.js'

/**
 * Which profiles a reindex (re)embeds: every one with content when `$1` (all), else those not embedded with model `$2`
 * or without their search lexemes (profiles stored before hybrid search).
 */
const PENDING = `history_seq > 0 AND ($1::boolean OR embedding IS NULL OR embedding_model IS DISTINCT FROM $2 OR lexemes IS NULL)`

/** The embeddings of profiles across tenants, for bringing them in line with the configured model (the reindex). */
export class EmbeddingRepository {
  /**
   * Changes profiles.embedding to vectors of `dimension`, clearing every stored vector and its model, and rebuilds the
   * HNSW index. Run it in a transaction: nothing is lost unless all of it commits.
   */
  async changeDimension(m: EntityManager, dimension: number): Promise<void> {
    await m.query(`DROP INDEX IF EXISTS profiles_embedding_hnsw`)
    await m.query(`ALTER TABLE profiles ALTER COLUMN embedding TYPE vector(${dimension}) USING NULL, ALTER COLUMN embedding_model DROP DEFAULT`)
    await m.query(`UPDATE profiles SET embedding_model = NULL WHERE embedding_model IS NOT NULL`)
    await m.query(`CREATE INDEX profiles_embedding_hnsw ON profiles USING hnsw (embedding vector_cosine_ops)`)
  }

  /** How many profiles are to be (re)embedded for `model` (all of them with `all`). */
  async pendingCount(m: EntityManager, o: { all: boolean; model: string }): Promise<number> {
    const [{ total }] = await m.query(`SELECT count(*)::int AS total FROM profiles WHERE ${PENDING}`, [o.all, o.model])
    return total
  }

  /** The next `limit` of them after the key `after` (tenant id, profile id), in key order: a resumable walk. */
  async pendingBatch(
    m: EntityManager,
    o: { all: boolean; model: string; after: [string, string]; limit: number },
  ): Promise<(ProfileRecord & { instructions: string[] })[]> {
    const rows = await m.query(
      `SELECT ${PROFILE_COLUMNS}, ${INSTRUCTIONS_COLUMN} FROM profiles WHERE ${PENDING} AND (tenant_id, profile_id) > ($3, $4)
          ORDER BY tenant_id, profile_id LIMIT $5`,
      [o.all, o.model, o.after[0], o.after[1], o.limit],
    )
    return rows.map((r: any) => ({ ...toRecord(r), instructions: r.summary_instructions ?? [] }))
  }

  /**
   * Stores a profile's summary, embedding and search lexemes (only these derived columns), unless the profile is no longer at `version`:
   * a worker that updated it meanwhile embedded it itself.
   */
  async storeEmbedding(
    m: EntityManager,
    e: { tenantId: string; profileId: string; version: number; summary: string; vector: number[]; model: string; lexemes: string },
  ): Promise<void> {
    await m.query(
      `UPDATE profiles SET summary = $4, embedding = $5, embedding_model = $6, lexemes = array_to_tsvector(string_to_array($7, ' '))
            WHERE tenant_id = $1 AND profile_id = $2 AND version = $3`,
      [e.tenantId, e.profileId, e.version, e.summary, toSql(e.vector), e.model, e.lexemes],
    )
  }
}

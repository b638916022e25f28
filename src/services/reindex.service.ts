import type { DataSource } from 'typeorm'
import { toSql } from 'pgvector'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import { embeddingDimension } from '../db/database.js'
import { toRecord, PROFILE_COLUMNS } from '../db/profile.repository.js'

export interface ReindexOptions {
  /** Re-embed every profile, not only those without an embedding of the configured model. */
  all?: boolean
  /** Also rewrite every summary with the configured summarizer (one AI request per profile with `openai`). */
  summaries?: boolean
  batch?: number
}

/**
 * Brings stored embeddings in line with the configured embedding model: adapts the column when the dimension
 * changed, then (re)computes embeddings batch by batch. Resumable: a profile already embedded with the configured
 * model is skipped, so running it again after an interruption continues where it stopped.
 */
export class ReindexService {
  constructor(
    private readonly ds: DataSource,
    private readonly ai: AiProviders,
  ) {}

  /** Changes profiles.embedding to the model's dimension (clearing old vectors); returns the change, if any. */
  async adaptColumn(opts: { probe?: boolean } = {}): Promise<{ from: number; to: number } | null> {
    const from = await embeddingDimension(this.ds)
    const to = this.ai.embedder.dimension
    if (from === to) return null
    // Ask the model first: a wrong configured dimension must fail before the stored vectors are dropped.
    if (opts.probe !== false) {
      const { vectors } = await this.ai.embedder.embed(['dimension probe'])
      if (vectors[0]?.length !== to) throw new Error(`${this.ai.embedder.model} returned ${vectors[0]?.length}-dimensional vectors, configured ${to}`)
    }
    await this.ds.transaction(async (m) => {
      await m.query(`DROP INDEX IF EXISTS profiles_embedding_hnsw`)
      await m.query(`ALTER TABLE profiles ALTER COLUMN embedding TYPE vector(${to}) USING NULL, ALTER COLUMN embedding_model DROP DEFAULT`)
      await m.query(`UPDATE profiles SET embedding_model = NULL WHERE embedding_model IS NOT NULL`)
      await m.query(`CREATE INDEX profiles_embedding_hnsw ON profiles USING hnsw (embedding vector_cosine_ops)`)
    })
    return { from, to }
  }

  async run(onProgress: (done: number, total: number) => void, opts: ReindexOptions = {}): Promise<number> {
    const model = this.ai.embedder.model
    const pending = `history_seq > 0 AND ($1::boolean OR embedding IS NULL OR embedding_model IS DISTINCT FROM $2)`
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM profiles WHERE ${pending}`, [!!opts.all, model])
    let done = 0
    let after: [string, string] = ['', '']
    onProgress(0, total)
    for (;;) {
      const rows = await this.ds.query(
        `SELECT ${PROFILE_COLUMNS} FROM profiles WHERE ${pending} AND (tenant_id, profile_id) > ($3, $4)
          ORDER BY tenant_id, profile_id LIMIT $5`,
        [!!opts.all, model, after[0], after[1], opts.batch ?? 50],
      )
      if (!rows.length) break
      const records = rows.map(toRecord)
      const summaries: string[] = []
      for (const r of records) {
        summaries.push(opts.summaries || !r.summary ? (await this.ai.summarizer.summarize(r.content)).summary : r.summary)
      }
      const { vectors } = await this.ai.embedder.embed(records.map((r: any, i: number) => profileText(r.content, summaries[i])))
      for (const [i, r] of records.entries()) {
        // Only the derived columns change; the version guard skips a profile a worker updated meanwhile (it re-embedded it).
        await this.ds.query(
          `UPDATE profiles SET summary = $4, embedding = $5, embedding_model = $6
            WHERE tenant_id = $1 AND profile_id = $2 AND version = $3`,
          [r.tenant_id, r.profile_id, r.version, summaries[i], toSql(vectors[i]!), model],
        )
      }
      done += records.length
      onProgress(done, total)
      const last = records[records.length - 1]!
      after = [last.tenant_id, last.profile_id]
    }
    return done
  }
}

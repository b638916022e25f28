import type { DataSource } from 'typeorm'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import { embeddingDimension } from '../db/database.js'
import { EmbeddingRepository } from '../db/embedding.repository.js'
import { profileLexemes } from '../domain/lexical.js'
import { UnitOfWork } from '../db/unit-of-work.js'

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
  private readonly repo = new EmbeddingRepository()
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly ai: AiProviders,
  ) {
    this.uow = new UnitOfWork(ds)
  }

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
    await this.uow.run(undefined, (tx) => this.repo.changeDimension(tx.manager, to))
    return { from, to }
  }

  async run(onProgress: (done: number, total: number) => void, opts: ReindexOptions = {}): Promise<number> {
    const m = this.ds.manager
    const pending = { all: !!opts.all, model: this.ai.embedder.model }
    const total = await this.repo.pendingCount(m, pending)
    let done = 0
    let after: [string, string] = ['', '']
    onProgress(0, total)
    for (;;) {
      const records = await this.repo.pendingBatch(m, { ...pending, after, limit: opts.batch ?? 50 })
      if (!records.length) break
      const summaries: string[] = []
      for (const r of records) {
        summaries.push(opts.summaries || !r.summary ? (await this.ai.summarizer.summarize(r.content, undefined, r.instructions)).summary : r.summary)
      }
      const { vectors } = await this.ai.embedder.embed(records.map((r, i) => profileText(r.content, summaries[i])))
      for (const [i, r] of records.entries()) {
        await this.repo.storeEmbedding(m, {
          tenantId: r.tenant_id,
          profileId: r.profile_id,
          version: r.version,
          summary: summaries[i]!,
          vector: vectors[i]!,
          model: pending.model,
          lexemes: profileLexemes(r.content, summaries[i]),
        })
      }
      done += records.length
      onProgress(done, total)
      const last = records[records.length - 1]!
      after = [last.tenant_id, last.profile_id]
    }
    return done
  }
}

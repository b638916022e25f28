import type { DataSource } from 'typeorm'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import { embeddingDimension } from '../db/database.js'
import { EmbeddingRepository, PassageIndexRepository } from '../db/embedding.repository.js'
import { PassageRepository } from '../db/passage.repository.js'
import { buildPassages } from '../ai/passages.js'
import { profileLexemes } from '../domain/lexical.js'
import { DEFAULT_PASSAGE_LIMITS, passageEmbedText, textSearchConfig, type PassageLimits } from '../domain/passages.js'
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
  private readonly passageIndex = new PassageIndexRepository()
  private readonly passageRows = new PassageRepository()
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly ai: AiProviders,
    /** PROFILER_PASSAGES_PER_SUBMISSION and _PER_PROFILE: rebuilt passages keep them as the worker's do. */
    private readonly passageLimits: PassageLimits = DEFAULT_PASSAGE_LIMITS,
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
      if (vectors[0]?.length !== to)
        throw new Error(
          `${this.ai.embedder.model} returned ${vectors[0]?.length}-dimensional vectors, configured ${to}`,
        )
    }
    await this.uow.run(undefined, (tx) => this.repo.changeDimension(tx.manager, to))
    return { from, to }
  }

  async run(onProgress: (done: number, total: number) => void, opts: ReindexOptions = {}): Promise<number> {
    const manager = this.ds.manager
    const pending = { all: !!opts.all, model: this.ai.embedder.model }
    const total = await this.repo.pendingCount(manager, pending)
    let done = 0
    let after: [string, string] = ['', '']
    onProgress(0, total)
    for (;;) {
      const records = await this.repo.pendingBatch(manager, { ...pending, after, limit: opts.batch ?? 50 })
      if (!records.length) break
      const summaries: string[] = []
      for (const record of records) {
        summaries.push(
          opts.summaries || !record.summary
            ? (await this.ai.summarizer.summarize(record.content, undefined, record.instructions)).summary
            : record.summary,
        )
      }
      const { vectors } = await this.ai.embedder.embed(records.map((r, i) => profileText(r.content, summaries[i])))
      for (const [i, record] of records.entries()) {
        await this.repo.storeEmbedding(manager, {
          tenantId: record.tenant_id,
          profileId: record.profile_id,
          version: record.version,
          summary: summaries[i]!,
          vector: vectors[i]!,
          model: pending.model,
          lexemes: profileLexemes(record.content, summaries[i]),
        })
      }
      done += records.length
      onProgress(done, total)
      const last = records[records.length - 1]!
      after = [last.tenant_id, last.profile_id]
    }
    return done
  }

  /**
   * Evidence passages for the applied submissions that have text and none (docs/guides/evidence.md): imported from
   * an export made before passages were exported, or applied before passages existed. Built as the worker builds them,
   * stored without vectors (embedPassages embeds them), the profile then keeping its newest within its limit. A profile
   * that has its limit's worth already is left alone (what would be rebuilt is older than what it keeps). Resumable:
   * a submission with passages is not looked at again. Returns how many submissions got passages, and how many.
   */
  async rebuildPassages(
    onProgress: (done: number, total: number) => void,
    opts: { batch?: number } = {},
  ): Promise<{ submissions: number; passages: number }> {
    const out = { submissions: 0, passages: 0 }
    const { perSubmission, perProfile } = this.passageLimits
    if (perSubmission <= 0 || perProfile <= 0) return out
    const manager = this.ds.manager
    const total = await this.passageIndex.passlessCount(manager)
    let done = 0
    let after: [string, string] = ['', '00000000-0000-0000-0000-000000000000']
    onProgress(0, total)
    for (;;) {
      const subs = await this.passageIndex.passlessBatch(manager, { after, limit: opts.batch ?? 50 })
      if (!subs.length) break
      const full = new Set<string>()
      for (const tenantId of new Set(subs.map((s) => s.tenant_id))) {
        const counts = await this.passageIndex.counts(manager, tenantId, [
          ...new Set(subs.filter((s) => s.tenant_id === tenantId).map((s) => s.profile_id)),
        ])
        for (const [profileId, count] of counts) if (count >= perProfile) full.add(`${tenantId}\n${profileId}`)
      }
      const touched = new Map<string, [string, string]>()
      for (const submission of subs) {
        if (full.has(`${submission.tenant_id}\n${submission.profile_id}`)) continue
        const { passages } = buildPassages(
          { input_type: submission.input_type, data: submission.data, occurredAt: submission.occurred_at },
          { perSubmission },
          Date.parse(submission.created_at),
        )
        const inserted = await this.passageIndex.insertRebuilt(
          manager,
          submission.tenant_id,
          submission.id,
          textSearchConfig(submission.language),
          passages,
        )
        if (!inserted) continue
        out.submissions++
        out.passages += inserted
        touched.set(`${submission.tenant_id}\n${submission.profile_id}`, [submission.tenant_id, submission.profile_id])
      }
      await this.passageRows.prune(manager, [...touched.values()], perProfile)
      done += subs.length
      onProgress(done, Math.max(done, total))
      const last = subs[subs.length - 1]!
      after = [last.tenant_id, last.id]
    }
    return out
  }

  /**
   * Embeds the visible passages without a vector of the configured model (every visible one with `all`): imported and
   * rebuilt ones, or all of them after a change of model. Until then a passage is found by its words only. Batch by
   * batch, one embedding request each; resumable. Returns how many were embedded.
   */
  async embedPassages(
    onProgress: (done: number, total: number) => void,
    opts: { all?: boolean; batch?: number } = {},
  ): Promise<number> {
    const manager = this.ds.manager
    const pending = { all: !!opts.all, model: this.ai.embedder.model }
    const total = await this.passageIndex.pendingCount(manager, pending)
    let done = 0
    let after: [string, string, number] = ['', '00000000-0000-0000-0000-000000000000', -1]
    onProgress(0, total)
    for (;;) {
      const rows = await this.passageIndex.pendingBatch(manager, { ...pending, after, limit: opts.batch ?? 50 })
      if (!rows.length) break
      const { vectors } = await this.ai.embedder.embed(rows.map(passageEmbedText))
      await this.passageIndex.storeVectors(
        manager,
        rows.map((row, i) => ({
          tenantId: row.tenant_id,
          submissionId: row.submission_id,
          position: row.position,
          vector: vectors[i]!,
        })),
        pending.model,
      )
      done += rows.length
      onProgress(done, Math.max(done, total))
      const last = rows[rows.length - 1]!
      after = [last.tenant_id, last.submission_id, last.position]
    }
    return done
  }
}

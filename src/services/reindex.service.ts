import type { DataSource } from 'typeorm'
import { toSql } from 'pgvector'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import { toRecord, PROFILE_COLUMNS } from '../db/profile.repository.js'

/** Recomputes every profile's summary and embedding with the configured providers (after a model change). */
export class ReindexService {
  constructor(
    private readonly ds: DataSource,
    private readonly ai: AiProviders,
  ) {}

  async run(onProgress: (done: number, total: number) => void, batch = 50): Promise<number> {
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM profiles WHERE history_seq > 0`)
    let done = 0
    let after: [string, string] = ['', '']
    onProgress(0, total)
    for (;;) {
      const rows = await this.ds.query(
        `SELECT ${PROFILE_COLUMNS} FROM profiles WHERE history_seq > 0 AND (tenant_id, profile_id) > ($1, $2)
          ORDER BY tenant_id, profile_id LIMIT $3`,
        [after[0], after[1], batch],
      )
      if (!rows.length) break
      const records = rows.map(toRecord)
      const summaries: string[] = []
      for (const r of records) summaries.push((await this.ai.summarizer.summarize(r.content)).summary)
      const { vectors } = await this.ai.embedder.embed(records.map((r: any, i: number) => profileText(r.content, summaries[i])))
      for (const [i, r] of records.entries()) {
        // Only the derived columns change; the version guard skips a profile a worker updated meanwhile.
        await this.ds.query(
          `UPDATE profiles SET summary = $4, embedding = $5, embedding_model = $6
            WHERE tenant_id = $1 AND profile_id = $2 AND version = $3`,
          [r.tenant_id, r.profile_id, r.version, summaries[i], toSql(vectors[i]!), this.ai.embedder.model],
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

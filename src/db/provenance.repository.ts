import type { EntityManager } from 'typeorm'
import type { CandidatePassage } from '../domain/provenance.js'
import { passageView, type PassageRead, type PassageRow } from './passage.repository.js'
import type { ProfileEntity } from './entities/profile.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'

/** A passage as a provenance lookup reads it. */
export type EvidencePassageRow = PassageRow & CandidatePassage

/** A submission whose stored extraction a lookup reads (its event time in ISO 8601). */
export type StoredExtractionRow = Pick<SubmissionEntity, 'id' | 'extraction'> & { occurred_at: string }

/**
 * The SQL of provenance (README "Provenance"): which passages support a value, hiding them when it is forgotten, and
 * deleting a submission's evidence. Every statement filters by tenant_id (and the profile).
 */
export class ProvenanceRepository {
  /** The profile's text search configuration (its language's), or null when the tenant has no such profile. */
  async profileLanguage(
    m: EntityManager,
    tenantId: string,
    profileId: string,
  ): Promise<{ language: string | null } | null> {
    const [r]: Pick<ProfileEntity, 'language'>[] = await m.query(
      `SELECT language FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
    return r ? { language: r.language ?? null } : null
  }

  /** The profile's `limit` newest applied submissions that keep their stored extraction (the provenance the worker wrote). */
  async extractions(
    m: EntityManager,
    tenantId: string,
    profileId: string,
    limit: number,
  ): Promise<StoredExtractionRow[]> {
    const rows: (Pick<SubmissionEntity, 'id' | 'extraction'> & { occurred_at: Date })[] = await m.query(
      `SELECT id::text AS id, coalesce(occurred_at, created_at) AS occurred_at, extraction FROM submissions
        WHERE tenant_id = $1 AND profile_id = $2 AND status = 'done' AND extraction IS NOT NULL
        ORDER BY seq DESC LIMIT $3`,
      [tenantId, profileId, limit],
    )
    return rows.map((r) => ({ id: r.id, occurred_at: new Date(r.occurred_at).toISOString(), extraction: r.extraction }))
  }

  /** Each word's lexemes in `config` (none for a stop word), in the order given. */
  async stems(m: EntityManager, config: string, words: string[]): Promise<string[][]> {
    if (!words.length) return []
    const rows: { stems: string[] | null }[] = await m.query(
      `SELECT u.ord, tsvector_to_array(to_tsvector($1::regconfig, u.w)) AS stems FROM unnest($2::text[]) WITH ORDINALITY AS u(w, ord) ORDER BY u.ord`,
      [config, words],
    )
    return rows.map((r) => r.stems ?? [])
  }

  /**
   * Visible passages that hold any of `lexemes` (`all`: one lexeme of every group, each group a word's lexemes), within
   * `submissionIds` or outside them; with the lexemes looked for that each holds. Best ranked first, at most `limit`.
   */
  async candidates(
    m: EntityManager,
    tenantId: string,
    profileId: string,
    o: { groups: string[][]; all: boolean; submissions: { in: string[] } | { notIn: string[] }; limit: number },
  ): Promise<EvidencePassageRow[]> {
    const groups = o.groups.filter((g) => g.length)
    if (!groups.length) return []
    // A tsquery built from lexemes, never parsed from client text: (a | b) & (c) for every word, a | b | c for any.
    const term = (l: string) => `'${l.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`
    const query = o.all
      ? groups.map((g) => `(${g.map(term).join(' | ')})`).join(' & ')
      : [...new Set(groups.flat())].map(term).join(' | ')
    const inside = 'in' in o.submissions
    const ids = 'in' in o.submissions ? o.submissions.in : o.submissions.notIn
    const rows: (PassageRead & { hits: string[] | null; rank: number })[] = await m.query(
      `WITH q AS (SELECT $3::tsquery AS q)
       SELECT p.submission_id::text AS submission_id, p.position, p.speaker, p.prompt, p.text, p.occurred_at,
              ARRAY(SELECT unnest(tsvector_to_array(p.tsv)) INTERSECT SELECT unnest($4::text[])) AS hits,
              ts_rank_cd(p.tsv, q.q, 1) AS rank
         FROM passages p, q
        WHERE p.tenant_id = $1 AND p.profile_id = $2 AND p.hidden_at IS NULL AND p.tsv @@ q.q
          AND ${inside ? 'p.submission_id = ANY($5::uuid[])' : 'NOT (p.submission_id = ANY($5::uuid[]))'}
        ORDER BY rank DESC, p.occurred_at DESC, p.submission_id, p.position
        LIMIT $6`,
      [tenantId, profileId, query, [...new Set(groups.flat())], ids, o.limit],
    )
    return rows.map((r) => ({
      ...passageView(r),
      hits: r.hits ?? [],
      rank: Number(r.rank),
    }))
  }

  /** Hides the given passages of the profile (`by` says what hid them); returns how many were visible. */
  async hide(
    m: EntityManager,
    tenantId: string,
    profileId: string,
    passages: { submission_id: string; position: number }[],
    by: string,
  ): Promise<number> {
    if (!passages.length) return 0
    const [rows]: [unknown[], number] = await m.query(
      `UPDATE passages p SET hidden_at = now(), hidden_by = $3
         FROM unnest($4::uuid[], $5::int[]) AS x(submission_id, position)
        WHERE p.tenant_id = $1 AND p.profile_id = $2 AND p.submission_id = x.submission_id AND p.position = x.position AND p.hidden_at IS NULL
        RETURNING p.position`,
      [tenantId, profileId, by, passages.map((p) => p.submission_id), passages.map((p) => p.position)],
    )
    return rows.length
  }

  /** A submission of the profile, locked, with its state; null when the tenant's profile has no such submission. */
  async lockSubmission(
    m: EntityManager,
    tenantId: string,
    profileId: string,
    submissionId: string,
  ): Promise<Pick<SubmissionEntity, 'status'> | null> {
    const [r]: Pick<SubmissionEntity, 'status'>[] = await m.query(
      `SELECT status FROM submissions WHERE tenant_id = $1 AND profile_id = $2 AND id = $3 FOR UPDATE`,
      [tenantId, profileId, submissionId],
    )
    return r ? { status: r.status } : null
  }

  /**
   * Deletes a submission's evidence: its passages, its text and the extractor's provenance (which quotes the text), as
   * retention drops them (src/db/retention.repository.ts). The row stays (status, times, usage). Returns what went.
   */
  async deleteEvidence(
    m: EntityManager,
    tenantId: string,
    submissionId: string,
  ): Promise<{ passages: number; text: boolean }> {
    const [gone]: [unknown[], number] = await m.query(
      `DELETE FROM passages WHERE tenant_id = $1 AND submission_id = $2 RETURNING position`,
      [tenantId, submissionId],
    )
    const [dropped]: [unknown[], number] = await m.query(
      `UPDATE submissions SET data = NULL, extraction = NULL WHERE tenant_id = $1 AND id = $2 AND (data IS NOT NULL OR extraction IS NOT NULL) RETURNING id`,
      [tenantId, submissionId],
    )
    return { passages: gone.length, text: dropped.length > 0 }
  }
}

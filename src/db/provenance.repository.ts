import type { EntityManager } from 'typeorm'
import type { CandidatePassage } from '../domain/provenance.js'
import {
  afterPassage,
  PASSAGE_KEY,
  passageKeyOf,
  passageView,
  type KeyedRead,
  type PassageKey,
  type PassageRead,
  type PassageRow,
} from './passage.repository.js'
import type { ProfileEntity } from './entities/profile.entity.js'
import type { SubmissionEntity } from './entities/submission.entity.js'

/** A passage as a provenance lookup answers it: its words, and how it was found. */
export type EvidencePassageRow = PassageRow & CandidatePassage

/** Which passages a lookup reads: also some hidden ones; only those of submissions accepted by a time. */
export interface CandidateScope {
  /** Also those hidden by this (`forget:<seq>`), flagged `hidden`. */
  hiddenBy?: string | undefined
  /** Only those of submissions accepted by then (ISO 8601), as a tombstone compares them. */
  acceptedBy?: string | undefined
}

/** The condition "passage `p` is of a submission accepted by the time `param`" (any when it is null). */
const ACCEPTED_BY = (p: string, param: string) =>
  `(${param}::timestamptz IS NULL OR NOT EXISTS (SELECT 1 FROM submissions s
      WHERE s.tenant_id = ${p}.tenant_id AND s.id = ${p}.submission_id AND s.created_at > ${param}))`

/** The submissions whose passages a lookup reads: these, or all but these. */
type SubmissionsOf = { in: string[] } | { notIn: string[] }

/** A candidate as a statement reads it. */
type CandidateRead = Pick<PassageRead, 'submission_id' | 'position' | 'occurred_at'> & {
  hidden: boolean
  hits: string[] | null
  rank: number | null
}

const candidateOf = (r: CandidateRead): CandidatePassage => ({
  submission_id: r.submission_id,
  position: Number(r.position),
  occurred_at: new Date(r.occurred_at).toISOString(),
  hits: r.hits ?? [],
  rank: Number(r.rank ?? 0),
  ...(r.hidden ? { hidden: true } : {}),
})

// A tsquery built from lexemes, never parsed from client text: (a | b) & (c) for every word, a | b | c for any.
const tsTerm = (l: string) => `'${l.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`
const anyTerm = (groups: string[][]) => [...new Set(groups.flat())].map(tsTerm).join(' | ')

/** A submission whose stored extraction a lookup reads (its event time in ISO 8601). */
export type StoredExtractionRow = Pick<SubmissionEntity, 'id' | 'extraction'> & { occurred_at: string }

/**
 * The SQL of provenance (docs/guides/evidence.md, "Why the profile says it"): which passages support a value, hiding
 * them when it is forgotten, and deleting a submission's evidence. Every statement filters by tenant_id (and the
 * profile).
 */
export class ProvenanceRepository {
  /** The profile's text search configuration (its language's), or null when the tenant has no such profile. */
  async profileLanguage(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
  ): Promise<{ language: string | null } | null> {
    const [r]: Pick<ProfileEntity, 'language'>[] = await manager.query(
      `SELECT language FROM profiles WHERE tenant_id = $1 AND profile_id = $2`,
      [tenantId, profileId],
    )
    return r ? { language: r.language ?? null } : null
  }

  /**
   * The profile's `limit` newest applied submissions that keep their stored extraction (the provenance the worker
   * wrote).
   */
  async extractions(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    limit: number,
  ): Promise<StoredExtractionRow[]> {
    const rows: (Pick<SubmissionEntity, 'id' | 'extraction'> & { occurred_at: Date })[] = await manager.query(
      `SELECT id::text AS id, coalesce(occurred_at, created_at) AS occurred_at, extraction FROM submissions
        WHERE tenant_id = $1 AND profile_id = $2 AND status = 'done' AND extraction IS NOT NULL
        ORDER BY seq DESC LIMIT $3`,
      [tenantId, profileId, limit],
    )
    return rows.map((r) => ({ id: r.id, occurred_at: new Date(r.occurred_at).toISOString(), extraction: r.extraction }))
  }

  /** Each word's lexemes in `config` (none for a stop word), in the order given. */
  async stems(manager: EntityManager, config: string, words: string[]): Promise<string[][]> {
    if (!words.length) return []
    const rows: { stems: string[] | null }[] = await manager.query(
      `SELECT u.ord, tsvector_to_array(to_tsvector($1::regconfig, u.w)) AS stems
         FROM unnest($2::text[]) WITH ORDINALITY AS u(w, ord)
        ORDER BY u.ord`,
      [config, words],
    )
    return rows.map((r) => r.stems ?? [])
  }

  /**
   * Visible passages that hold any of `lexemes` (`all`: one lexeme of every group, each group a word's lexemes), within
   * `submissionIds` or outside them; with the lexemes looked for that each holds. All of them, best ranked first, when
   * there are fewer than `limit`; null when there are more (the caller reads them another way): no statement ranks
   * more than `limit`, nor any when it would not answer them. With `hiddenBy`, also the passages hidden by that
   * (flagged `hidden`): what a forget taken up again has hidden. With `acceptedBy`, only the passages of submissions
   * accepted by then.
   */
  async candidates(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    options: CandidateScope & { groups: string[][]; all: boolean; submissions: SubmissionsOf; limit: number },
  ): Promise<CandidatePassage[] | null> {
    const groups = options.groups.filter((g) => g.length)
    if (!groups.length) return []
    const query = options.all ? groups.map((g) => `(${g.map(tsTerm).join(' | ')})`).join(' & ') : anyTerm(groups)
    const inside = 'in' in options.submissions
    const ids = 'in' in options.submissions ? options.submissions.in : options.submissions.notIn
    const rows: (Partial<CandidateRead> & { found: number })[] = await manager.query(
      `WITH q AS (SELECT $3::tsquery AS q),
            x AS (SELECT p.submission_id, p.position, p.occurred_at, p.tsv, p.hidden_at IS NOT NULL AS hidden
                    FROM passages p, q
                   WHERE p.tenant_id = $1 AND p.profile_id = $2 AND (p.hidden_at IS NULL OR p.hidden_by = $7)
                     AND p.tsv @@ q.q AND ${ACCEPTED_BY('p', '$8')}
                     AND ${inside ? 'p.submission_id = ANY($5::uuid[])' : 'NOT (p.submission_id = ANY($5::uuid[]))'}
                   LIMIT $6),
            n AS (SELECT count(*)::int AS found FROM x)
       SELECT n.found, y.* FROM n LEFT JOIN LATERAL (
                SELECT x.submission_id::text AS submission_id, x.position, x.occurred_at, x.hidden,
                       ARRAY(SELECT unnest(tsvector_to_array(x.tsv)) INTERSECT SELECT unnest($4::text[])) AS hits,
                       ts_rank_cd(x.tsv, q.q, 1) AS rank
                  FROM x, q WHERE n.found < $6) y ON true
        ORDER BY y.rank DESC, y.occurred_at DESC, y.submission_id, y.position`,
      [
        tenantId,
        profileId,
        query,
        [...new Set(groups.flat())],
        ids,
        options.limit,
        options.hiddenBy ?? null,
        options.acceptedBy ?? null,
      ],
    )
    if ((rows[0]?.found ?? 0) >= options.limit) return null
    return rows.filter((r): r is CandidateRead & { found: number } => r.submission_id != null).map(candidateOf)
  }

  /**
   * One window of the profile's passages, newest said first, after the key `after` (a statement reads at most `window`
   * of them, whatever they say): those that hold any lexeme of `groups`, with the lexemes each holds and its rank, and
   * the window's last key (null when it was the last window). Visible passages, and with `hiddenBy` those hidden by it
   * (flagged `hidden`); with `acceptedBy`, only those of submissions accepted by then. What a lookup reads when its
   * words are in more passages than one statement should return. `ranked`: with each match's rank (0 otherwise).
   */
  async candidateWindow(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    options: { groups: string[][]; after: PassageKey | null; window: number; ranked: boolean } & CandidateScope,
  ): Promise<{ matches: CandidatePassage[]; last: PassageKey | null }> {
    const lexemes = [...new Set(options.groups.flat())]
    if (!lexemes.length) return { matches: [], last: null }
    const words = [anyTerm(options.groups), lexemes, lexemes.map(tsTerm)]
    const scope = [options.hiddenBy ?? null, options.acceptedBy ?? null]
    const params: unknown[] = [tenantId, profileId, ...words, ...scope, options.window, options.ranked]
    const rows: (CandidateRead & KeyedRead & { hit: boolean })[] = await manager.query(
      // The words are matched outside the window's statement: within it, a plan that sorts the profile's passages
      // would match every one of them before the limit. Each lexeme is looked up in a passage's words on its own (a
      // binary search), not by listing them all.
      `WITH q AS (SELECT $3::tsquery AS q, $5::tsquery[] AS each)
       SELECT ${PASSAGE_KEY}, submission_id::text AS submission_id, position, occurred_at, hidden, hit,
              CASE WHEN hit THEN ARRAY(SELECT ($4::text[])[i] FROM generate_subscripts(each, 1) i WHERE tsv @@ each[i])
              END AS hits,
              CASE WHEN hit AND $9::boolean THEN ts_rank_cd(tsv, q, 1) END AS rank
         FROM (SELECT w.*, w.tsv @@ q.q AND ${ACCEPTED_BY('w', '$7')} AS hit, q.q, q.each FROM (
                 SELECT tenant_id, occurred_at, submission_id, position, tsv, hidden_at IS NOT NULL AS hidden
                   FROM passages
                  WHERE tenant_id = $1 AND profile_id = $2 AND (hidden_at IS NULL OR hidden_by = $6)
                        ${afterPassage(options.after, params)}
                  ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $8) w, q) x
        ORDER BY occurred_at DESC, submission_id DESC, position DESC`,
      params,
    )
    const last = rows.length < options.window ? undefined : rows.at(-1)
    return { matches: rows.filter((r) => r.hit).map(candidateOf), last: last ? passageKeyOf(last) : null }
  }

  /**
   * The visible passages of the profile at the given places (submission, position), as the API shows them, in no
   * order: one hidden since it was found is left out.
   */
  async passagesAt(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    at: { submission_id: string; position: number }[],
  ): Promise<PassageRow[]> {
    if (!at.length) return []
    const rows: PassageRead[] = await manager.query(
      `SELECT p.submission_id::text AS submission_id, p.position, p.speaker, p.prompt, p.text, p.occurred_at
         FROM passages p
         JOIN unnest($3::uuid[], $4::int[]) AS x(submission_id, position)
              ON p.submission_id = x.submission_id AND p.position = x.position
        WHERE p.tenant_id = $1 AND p.profile_id = $2 AND p.hidden_at IS NULL`,
      [tenantId, profileId, at.map((p) => p.submission_id), at.map((p) => p.position)],
    )
    return rows.map(passageView)
  }

  /** Hides the given passages of the profile (`by` says what hid them); returns how many were visible. */
  async hide(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    passages: { submission_id: string; position: number }[],
    by: string,
  ): Promise<number> {
    if (!passages.length) return 0
    const [rows]: [unknown[], number] = await manager.query(
      `UPDATE passages p SET hidden_at = now(), hidden_by = $3
         FROM unnest($4::uuid[], $5::int[]) AS x(submission_id, position)
        WHERE p.tenant_id = $1 AND p.profile_id = $2 AND p.submission_id = x.submission_id AND p.position = x.position
          AND p.hidden_at IS NULL
        RETURNING p.position`,
      [tenantId, profileId, by, passages.map((p) => p.submission_id), passages.map((p) => p.position)],
    )
    return rows.length
  }

  /** A submission of the profile, locked, with its state; null when the tenant's profile has no such submission. */
  async lockSubmission(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    submissionId: string,
  ): Promise<Pick<SubmissionEntity, 'status'> | null> {
    const [r]: Pick<SubmissionEntity, 'status'>[] = await manager.query(
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
    manager: EntityManager,
    tenantId: string,
    submissionId: string,
  ): Promise<{ passages: number; text: boolean }> {
    const [gone]: [unknown[], number] = await manager.query(
      `DELETE FROM passages WHERE tenant_id = $1 AND submission_id = $2 RETURNING position`,
      [tenantId, submissionId],
    )
    const [dropped]: [unknown[], number] = await manager.query(
      `UPDATE submissions SET data = NULL, extraction = NULL
        WHERE tenant_id = $1 AND id = $2 AND (data IS NOT NULL OR extraction IS NOT NULL)
        RETURNING id`,
      [tenantId, submissionId],
    )
    return { passages: gone.length, text: dropped.length > 0 }
  }
}

import type { EntityManager } from 'typeorm'
import { vectorText, type PassageDraft } from '../domain/passages.js'
import type { PassageEntity } from './entities/passage.entity.js'

/**
 * A passage as the API shows it (docs/guides/evidence.md, "Evidence passages"): a passages row, its time in ISO 8601.
 */
export type PassageRow = Pick<PassageEntity, 'submission_id' | 'position' | 'speaker' | 'prompt' | 'text'> & {
  occurred_at: string
}

/**
 * A passage with whether, when and why it is hidden from contexts and search (docs/guides/evidence.md, "Evidence
 * passages").
 */
export type PassageView = PassageRow & { hidden_at: string | null; hidden_by: PassageEntity['hidden_by'] }

/** A passage as a statement reads it (its text null where a window leaves it out). */
export type PassageRead = Pick<PassageEntity, 'submission_id' | 'position' | 'occurred_at'> &
  Partial<Pick<PassageEntity, 'speaker' | 'prompt' | 'hidden_at' | 'hidden_by'>> & {
    text?: PassageEntity['text'] | null
  }
/** ... with its key's time as text (PASSAGE_KEY). */
export type KeyedRead = PassageRead & { at_key: string }

/**
 * Where a passage sits in a profile's list: when it was said (UTC, to the microsecond), its submission, its position.
 */
export type PassageKey = [occurredAt: string, submissionId: string, position: number]

/** A passage to store: a draft of one submission, its vector and what indexes it. */
export interface PassageWrite extends PassageDraft {
  submissionId: string
  /** The text search configuration its words are stemmed with (textSearchConfig). */
  language: string
  /** Its embedding and the model that made it; null when it has none (imported, not yet reindexed). */
  embedding: readonly number[] | null
  model: string | null
}

const COLUMNS = `submission_id::text AS submission_id, position, speaker, prompt, text, occurred_at`
/** Passages (the newest) a search by meaning measures within one profile. */
export const NEAREST_SCAN = 2000

/**
 * A passage's key (PassageKey) as a statement selects it: its time to the microsecond, in UTC, so none is lost between
 * pages.
 */
export const PASSAGE_KEY = `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"+00"') AS at_key`
export const passageKeyOf = (r: KeyedRead): PassageKey => [r.at_key, r.submission_id, Number(r.position)]
/** The condition "after the key `k`" in a profile's list (newest first), its values appended to `params`. */
export const afterPassage = (k: PassageKey | null, params: unknown[]): string =>
  k
    ? ` AND (occurred_at, submission_id, position) < ($${params.push(k[0])}::timestamptz, ` +
      `$${params.push(k[1])}::uuid, $${params.push(k[2])}::int)`
    : ''

/** A passages row as the API shows it. */
export const passageView = (r: PassageRead): PassageRow => ({
  submission_id: r.submission_id,
  position: Number(r.position),
  speaker: r.speaker ?? null,
  prompt: r.prompt ?? null,
  text: r.text!,
  occurred_at: new Date(r.occurred_at).toISOString(),
})

/** Evidence passages of profiles. Every statement filters by tenant_id and profile_id. */
export class PassageRepository {
  /**
   * Stores passages, of one profile or of several (a worker's round); a passage already stored for the same submission
   * and position is kept. Returns how many were stored.
   */
  async insert(
    manager: EntityManager,
    rows: readonly (PassageWrite & { tenantId: string; profileId: string })[],
  ): Promise<number> {
    if (!rows.length) return 0
    const res = await manager.query(
      `INSERT INTO passages (tenant_id, profile_id, submission_id, position, speaker, prompt, text, occurred_at,
                             language, embedding, embedding_model)
       SELECT x.tenant_id, x.profile_id, x.submission_id::uuid, x.position, x.speaker, x.prompt, x.text,
              x.occurred_at::timestamptz, x.language::regconfig, x.embedding::vector, x.model
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::text[], $10::text[], $11::text[])
              AS x(tenant_id, profile_id, submission_id, position, speaker, prompt, text, occurred_at, language,
                   embedding, model)
       ON CONFLICT DO NOTHING`,
      [
        rows.map((r) => r.tenantId),
        rows.map((r) => r.profileId),
        rows.map((r) => r.submissionId),
        rows.map((r) => r.position),
        rows.map((r) => r.speaker),
        rows.map((r) => r.prompt),
        rows.map((r) => r.text),
        rows.map((r) => r.occurredAt),
        rows.map((r) => r.language),
        // Formatted here, a statement's worth at a time: hundreds of vectors at once kept the event loop for tens of
        // ms.
        rows.map((r) => (r.embedding ? vectorText(r.embedding) : null)),
        rows.map((r) => r.model),
      ],
    )
    return Array.isArray(res) && typeof res[1] === 'number' ? res[1] : rows.length
  }

  /**
   * Keeps each profile's `keep` newest passages (by when they were said), for one profile or several (a worker's round)
   * in one statement a tenant; returns how many older ones were deleted.
   */
  async prune(
    manager: EntityManager,
    profiles: readonly (readonly [tenantId: string, profileId: string])[],
    keep: number,
  ): Promise<number> {
    if (!profiles.length) return 0
    // One statement per tenant: a sharded database (Citus) runs the lateral subquery only on one tenant's node.
    const tenants = new Map<string, string[]>()
    for (const [t, p] of profiles) tenants.set(t, [...(tenants.get(t) ?? []), p])
    let deleted = 0
    for (const [tenantId, profileIds] of tenants) {
      const [, n] = await manager.query(
        `DELETE FROM passages p USING (
            SELECT o.submission_id, o.position FROM unnest($2::text[]) AS x(profile_id)
             CROSS JOIN LATERAL (
               SELECT submission_id, position FROM passages WHERE tenant_id = $1 AND profile_id = x.profile_id
                ORDER BY occurred_at DESC, submission_id DESC, position DESC OFFSET $3) o) old
          WHERE p.tenant_id = $1 AND p.submission_id = old.submission_id AND p.position = old.position`,
        [tenantId, profileIds, keep],
      )
      deleted += Number(n ?? 0)
    }
    return deleted
  }

  /**
   * One window of the profile's visible passages, newest said first, after the key `after` (the previous window's
   * last): at most `window` of them, each with whether it matches any word of `terms` (a to_tsquery source of quoted
   * words, anyWordsQuery) in the profile's language or exactly, the text and prompt of those that do. A context walks a
   * profile window by window until it has enough matches (BM25 ranks them after), so no statement reads more than a
   * window: on the embedded database a statement holds the one session another tenant's request waits for, and reading
   * 20,000 passages at once took 70-120 ms there (ranking every match in SQL, ts_rank_cd, 746 ms).
   */
  async lexicalWindow(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    options: { terms: string; config: string; after: PassageKey | null; window: number },
  ): Promise<{ matches: PassageRow[]; scanned: number; last: PassageKey | null }> {
    const params: unknown[] = [tenantId, profileId, options.config, options.terms, options.window]
    const rows: (KeyedRead & { hit: boolean })[] = await manager.query(
      // The words are matched outside the window's statement: within it, a plan that sorts the profile's passages
      // would match every one of them before the limit.
      // Exactly (simple) only the words the language does not drop as stop words: "the" or "with" matched nearly every
      // passage and filled the window walk's matches with the newest ones, whatever the other words.
      // The query is built once (MATERIALIZED) and each passage matched once (the fence, OFFSET 0). Inlined, the exact
      // words' query is parsed again for each passage and each use of `hit`: a window's cost would grow with the words.
      `WITH q AS MATERIALIZED (
         SELECT to_tsquery($3::regconfig, $4) || to_tsquery('simple', coalesce((
           SELECT string_agg(t, ' | ') FROM regexp_split_to_table($4, ' \\| ') t
            WHERE numnode(to_tsquery($3::regconfig, t)) > 0), '')) AS q)
       SELECT ${PASSAGE_KEY}, submission_id::text AS submission_id, position, hit,
              CASE WHEN hit THEN speaker END AS speaker, CASE WHEN hit THEN prompt END AS prompt,
              CASE WHEN hit THEN text END AS text, occurred_at
         FROM (SELECT w.*, w.tsv @@ q.q AS hit FROM (
                 SELECT occurred_at, submission_id, position, speaker, prompt, text, tsv FROM passages
                  WHERE tenant_id = $1 AND profile_id = $2 AND hidden_at IS NULL${afterPassage(options.after, params)}
                  ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $5) w, q OFFSET 0) x
        ORDER BY occurred_at DESC, submission_id DESC, position DESC`,
      params,
    )
    const last = rows.at(-1)
    return {
      matches: rows.filter((r) => r.hit).map(passageView),
      scanned: rows.length,
      last: last ? passageKeyOf(last) : null,
    }
  }

  /**
   * One window of the profile's passages embedded with `model` (hidden ones never), newest said first, after the key
   * `after`: each one's key and cosine distance to `vector`, and the passage itself for the `top` nearest of the window
   * (only those can be among the nearest of all). The context measures the newest NEAREST_SCAN this way, a window per
   * statement: the distance to 2,000 vectors in one statement kept the embedded database's one session for about
   * 100 ms under load.
   */
  async nearestWindow(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    options: {
      /** pgvector's text of the vector (toSql). */ vector: string
      model: string
      after: PassageKey | null
      window: number
      top: number
    },
  ): Promise<{ rows: { key: PassageKey; distance: number; passage: PassageRow | null }[]; last: PassageKey | null }> {
    const params: unknown[] = [tenantId, profileId, options.vector, options.model, options.window, options.top]
    const rows: (KeyedRead & { distance: number })[] = await manager.query(
      // The distance is measured outside the window's statement: within it, a plan that sorts the profile's passages
      // measured every one of them before the limit (400 ms for 20,000 on the embedded database).
      `SELECT ${PASSAGE_KEY}, submission_id::text AS submission_id, position, distance, occurred_at,
              CASE WHEN near THEN speaker END AS speaker, CASE WHEN near THEN prompt END AS prompt,
              CASE WHEN near THEN text END AS text
         FROM (SELECT d.*,
                 row_number() OVER (ORDER BY distance, occurred_at DESC, submission_id, position) <= $6 AS near FROM (
                 SELECT w.*, embedding <=> $3::vector AS distance FROM (
                   SELECT occurred_at, submission_id, position, speaker, prompt, text, embedding FROM passages
                    WHERE tenant_id = $1 AND profile_id = $2 AND hidden_at IS NULL AND embedding_model = $4
                      AND embedding IS NOT NULL${afterPassage(options.after, params)}
                    ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $5) w) d) x
        ORDER BY occurred_at DESC, submission_id DESC, position DESC`,
      params,
    )
    const out = rows.map((r) => ({
      key: passageKeyOf(r),
      distance: Number(r.distance),
      passage: r.text == null ? null : passageView(r),
    }))
    return { rows: out, last: out.at(-1)?.key ?? null }
  }

  /**
   * How many visible passages the profile has, or the whole tenant when `profileId` is null, counted up to `cap` (a
   * statement reads at most `cap` of them).
   */
  async visibleUpTo(manager: EntityManager, tenantId: string, profileId: string | null, cap: number): Promise<number> {
    const [r]: { n: number }[] = await manager.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM passages
         WHERE tenant_id = $1 AND ($2::text IS NULL OR profile_id = $2) AND hidden_at IS NULL LIMIT $3) x`,
      [tenantId, profileId, cap],
    )
    return Number(r!.n)
  }

  /**
   * The label of the person who said the newest passage of a conversation among the profile's `window` newest passages
   * ("Caroline", "user"), or null: a statement reads at most `window` passages, whatever the profile holds.
   */
  async newestSpeaker(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    window: number,
  ): Promise<string | null> {
    const rows: { speaker: string }[] = await manager.query(
      `SELECT speaker FROM (SELECT speaker, occurred_at, submission_id, position FROM passages
                             WHERE tenant_id = $1 AND profile_id = $2 AND hidden_at IS NULL
                              ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $3) w
        WHERE speaker IS NOT NULL ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT 1`,
      [tenantId, profileId, window],
    )
    return rows[0]?.speaker ?? null
  }

  /** The profile's newest passages (by when they were said), newest first; hidden ones never. */
  async newest(manager: EntityManager, tenantId: string, profileId: string, limit: number): Promise<PassageRow[]> {
    const rows: PassageRead[] = await manager.query(
      `SELECT ${COLUMNS} FROM passages WHERE tenant_id = $1 AND profile_id = $2 AND hidden_at IS NULL
        ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $3`,
      [tenantId, profileId, limit],
    )
    return rows.map(passageView)
  }

  /**
   * A page of the profile's passages, newest said first (when said, then submission and position, descending), after
   * the key `after` of the previous page's last; hidden ones only with `includeHidden`. The key's time is written to
   * the microsecond, in UTC, so no precision is lost between pages.
   */
  async page(
    manager: EntityManager,
    tenantId: string,
    profileId: string,
    options: { after: PassageKey | null; limit: number; submissionId?: string; includeHidden: boolean },
  ): Promise<(PassageView & { key: PassageKey })[]> {
    const params: unknown[] = [tenantId, profileId, options.includeHidden, options.limit]
    let where = ''
    if (options.submissionId) where += ` AND submission_id = $${params.push(options.submissionId)}::uuid`
    where += afterPassage(options.after, params)
    const rows: KeyedRead[] = await manager.query(
      `SELECT ${COLUMNS}, ${PASSAGE_KEY}, hidden_at, hidden_by FROM passages
        WHERE tenant_id = $1 AND profile_id = $2 AND ($3::boolean OR hidden_at IS NULL)${where}
        ORDER BY occurred_at DESC, submission_id DESC, position DESC LIMIT $4`,
      params,
    )
    return rows.map((r) => ({
      ...passageView(r),
      hidden_at: r.hidden_at ? new Date(r.hidden_at).toISOString() : null,
      hidden_by: r.hidden_by ?? null,
      key: passageKeyOf(r),
    }))
  }
}

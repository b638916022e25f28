// The lexical half of hybrid search: the words a profile is found by (stored as a tsvector with a GIN index), the
// words a query must match, and how a lexical match is scored on the same 0-100 scale as the vector similarity.
// Both sides go through the same tokenizer (`tokens` of normalise.ts: folded, stop words dropped, Porter-stemmed),
// so "Café" finds "cafe", "dogs" finds "dog", and names and words of any language match as they are written.
import type { ProfileContent } from './profile.js'
import { tokens } from './normalise.js'

/** A lexeme longer than this is not indexed (a tsvector lexeme must stay under 2 KB; nobody searches such a word). */
const MAX_LEXEME = 64
/** At most this many distinct lexemes per profile (a tsvector is limited to 1 MB). */
const MAX_LEXEMES = 4000
/** A query with more distinct content words than this is a description, not a name: vector search alone. */
export const MAX_QUERY_TERMS = 12

/** The filler of short queries ("likes X", "lives in X", "works at X"): never required to match. Stemmed like the tokens. */
const QUERY_FILLER: ReadonlySet<string> = new Set(
  tokens(
    `like likes liked love loves loved enjoy enjoys enjoyed enjoying live lives living work works working someone
    somebody person people anyone user profile named called also really`,
  ),
)

/**
 * Frame words ("has a pet X", "likes watching X", "likes going to X", "favorite color is X"): they say what kind of fact
 * is asked, not which one, so they are required only when the query has nothing else ("enjoys reading").
 */
const QUERY_FRAME: ReadonlySet<string> = new Set(
  tokens(
    `pet pets watch watches watching read reads reading listen listens listening go goes going eat eats eating play
    plays playing favorite favourite color colour interested interest hobby hobbies drink drinks fan member visit
    visiting teaches`,
  ),
)

/** The text a profile is found by: its summary and every value it holds (not only the ones the embedded text keeps). */
export function searchableText(content: ProfileContent, summary?: string | null): string {
  // Defensive about shape: imported profiles come from a file.
  const list = (x: unknown): { value?: unknown; event?: unknown }[] => (Array.isArray(x) ? x.filter((i) => i && typeof i === 'object') : [])
  const parts: string[] = [typeof summary === 'string' ? summary : '']
  const add = (v: unknown) => {
    if (typeof v === 'string' || typeof v === 'number') parts.push(String(v))
  }
  for (const v of Object.values(content.core_info ?? {})) add(v?.value)
  for (const [category, items] of Object.entries(content.interests ?? {})) {
    parts.push(category.replace(/[_-]+/g, ' '))
    for (const i of list(items)) add(i.value)
  }
  for (const t of list(content.personality?.traits)) add(t.value)
  const mood = content.personality?.mood_trends
  add(mood?.default?.value)
  add(mood?.recent?.value)
  add(content.preferences?.conversation_style?.value)
  for (const t of list(content.preferences?.topics_to_avoid)) add(t.value)
  for (const m of list(content.memories)) add(m.event)
  // An app's custom schema fields (content.custom.<section>.<field>): a scalar or a list of values.
  for (const fields of Object.values(content.custom ?? {})) {
    if (!fields || typeof fields !== 'object') continue
    for (const v of Object.values(fields)) {
      if (Array.isArray(v)) for (const i of list(v)) add(i.value)
      else add((v as { value?: unknown } | undefined)?.value)
    }
  }
  return parts.join('\n')
}

/**
 * The distinct lexemes of a profile, space-joined (none contains a space), for `array_to_tsvector(string_to_array(x, ' '))`.
 * Linear in the text; bounded in count and length.
 */
export function profileLexemes(content: ProfileContent, summary?: string | null): string {
  return lexemesWith(summary, contentLexemes(content))
}

/** The distinct lexemes of a profile's values (not its summary), in order, at most MAX_LEXEMES: the costly part. */
export function contentLexemes(content: ProfileContent): string[] {
  const out = new Set<string>()
  for (const t of tokens(searchableText(content))) {
    if (t.length > MAX_LEXEME || out.has(t)) continue
    out.add(t)
    if (out.size === MAX_LEXEMES) break
  }
  return [...out]
}

/**
 * The summary's lexemes first, then those of the values (`contentLexemes`): the same words, in the same order and under
 * the same bound, as profileLexemes, so the values' part can be computed where the merge runs and the summary's after it.
 */
export function lexemesWith(summary: string | null | undefined, content: readonly string[]): string {
  const out = new Set<string>()
  const add = (t: string) => {
    if (out.size < MAX_LEXEMES && t.length <= MAX_LEXEME) out.add(t)
  }
  if (typeof summary === 'string') for (const t of tokens(summary)) add(t)
  for (const t of content) add(t)
  return [...out].join(' ')
}

/**
 * The words a profile must hold, all of them, to match a query lexically: its content tokens without the filler;
 * none (vector search alone) when nothing is left or the query is long. Linear in the query's length.
 */
export function queryTerms(query: string): string[] {
  const content = new Set<string>()
  const frame = new Set<string>()
  for (const t of tokens(query)) {
    if (QUERY_FILLER.has(t) || t.length > MAX_LEXEME) continue
    ;(QUERY_FRAME.has(t) ? frame : content).add(t)
    if (content.size + frame.size > MAX_QUERY_TERMS) return []
  }
  return [...(content.size ? content : frame)]
}

/** The terms as a tsquery literal (every term required), for a `::tsquery` cast: no parser, no operators from the client. */
export function termsQuery(terms: readonly string[]): string {
  return terms.map((t) => `'${t.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' & ')
}

/**
 * The score (0-100) a profile holding every query term gets from that alone: the median score of a true match in the
 * embedders' calibration (docs/calibration.md), above the default sensitivity (63).
 */
export const LEXICAL_SCORE = 80

/**
 * The hybrid score: the vector score `v` (calibrated, 0-100) when the profile does not hold every query term; when it
 * does, the two combined as independent evidence, 100 - (100 - v) * (100 - LEXICAL_SCORE) / 100, which is at least
 * LEXICAL_SCORE and at least `v`, and still ranks lexical matches by their vector score.
 */
export function hybridScore(v: number, lexical: boolean): number {
  return lexical ? 100 - ((100 - v) * (100 - LEXICAL_SCORE)) / 100 : v
}

/**
 * The smallest vector score with which a lexical match reaches `sensitivity` (the inverse of hybridScore), so the SQL
 * threshold selects exactly the rows whose hybrid score is >= sensitivity: 0 (every lexical match) up to LEXICAL_SCORE.
 */
export function lexicalVectorFloor(sensitivity: number): number {
  if (sensitivity <= LEXICAL_SCORE) return 0
  return 100 - ((100 - sensitivity) * 100) / (100 - LEXICAL_SCORE)
}

/** A candidate of a hybrid search: a profile, its cosine similarity to the query, whether it holds every query term. */
export interface HybridCandidate {
  profileId: string
  similarity: number
  lexical: boolean
}

/**
 * The candidates ranked by hybrid score (then similarity, then profile id), each profile once, sliced to the page:
 * `toScore` is the embedder's calibration (cosine -> 0-100).
 */
export function rankHybrid(
  candidates: readonly HybridCandidate[],
  toScore: (cosine: number) => number,
  offset: number,
  pageSize: number,
): { profileId: string; similarity: number; score: number }[] {
  const best = new Map<string, { profileId: string; similarity: number; score: number }>()
  for (const c of candidates) {
    const score = hybridScore(toScore(c.similarity), c.lexical)
    const seen = best.get(c.profileId)
    if (!seen || score > seen.score) best.set(c.profileId, { profileId: c.profileId, similarity: c.similarity, score })
  }
  return [...best.values()]
    .sort((a, b) => b.score - a.score || b.similarity - a.similarity || (a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0))
    .slice(offset, offset + pageSize)
}

// The lexical half of hybrid search: the words a profile is found by (stored as a tsvector with a GIN index), the
// words a query must match, and how a lexical match is scored on the same 0-100 scale as the vector similarity.
// Both sides go through the same tokenizer (`tokens` of normalise.ts: folded, stop words dropped, Porter-stemmed),
// so "Café" finds "cafe", "dogs" finds "dog", and names and words of any language match as they are written.
import type { ProfileContent } from './profile.js'
import { tokens } from './normalise.js'

/** A lexeme longer than this is not indexed (a tsvector lexeme must stay under 2 KB; nobody searches such a word). */
export const MAX_LEXEME = 64
/** At most this many distinct lexemes per profile (a tsvector is limited to 1 MB). */
const MAX_LEXEMES = 4000
/** A query with more distinct content words than this is a description, not a name: vector search alone. */
export const MAX_QUERY_TERMS = 12

/**
 * The filler of short queries ("likes X", "lives in X", "works at X"): never required to match. Stemmed like the
 * tokens.
 */
const QUERY_FILLER: ReadonlySet<string> = new Set(
  tokens(
    `like likes liked love loves loved enjoy enjoys enjoyed enjoying live lives living work works working someone
    somebody person people anyone user profile named called also really`,
  ),
)

/**
 * Frame words ("has a pet X", "likes watching X", "likes going to X", "favorite color is X"): they say what kind of
 * fact is asked, not which one, so they are required only when the query has nothing else ("enjoys reading").
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
  const list = (items: unknown): { value?: unknown; event?: unknown }[] =>
    Array.isArray(items) ? items.filter((item) => item && typeof item === 'object') : []
  const parts: string[] = [typeof summary === 'string' ? summary : '']
  const add = (value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value))
  }
  for (const scored of Object.values(content.core_info ?? {})) add(scored?.value)
  for (const [category, items] of Object.entries(content.interests ?? {})) {
    parts.push(category.replace(/[_-]+/g, ' '))
    for (const item of list(items)) add(item.value)
  }
  for (const trait of list(content.personality?.traits)) add(trait.value)
  const mood = content.personality?.mood_trends
  add(mood?.default?.value)
  add(mood?.recent?.value)
  add(content.preferences?.conversation_style?.value)
  for (const topic of list(content.preferences?.topics_to_avoid)) add(topic.value)
  for (const memory of list(content.memories)) add(memory.event)
  // An app's custom schema fields (content.custom.<section>.<field>): a scalar or a list of values.
  for (const fields of Object.values(content.custom ?? {})) {
    if (!fields || typeof fields !== 'object') continue
    for (const value of Object.values(fields)) {
      if (Array.isArray(value)) for (const item of list(value)) add(item.value)
      else add((value as { value?: unknown } | undefined)?.value)
    }
  }
  return parts.join('\n')
}

/**
 * The distinct lexemes of a profile, space-joined (none contains a space), for `array_to_tsvector(string_to_array(x, '
 * '))`. Linear in the text; bounded in count and length.
 */
export function profileLexemes(content: ProfileContent, summary?: string | null): string {
  return lexemesWith(summary, contentLexemes(content))
}

/** The distinct lexemes of a profile's values (not its summary), in order, at most MAX_LEXEMES: the costly part. */
export function contentLexemes(content: ProfileContent): string[] {
  const out = new Set<string>()
  for (const token of tokens(searchableText(content))) {
    if (token.length > MAX_LEXEME || out.has(token)) continue
    out.add(token)
    if (out.size === MAX_LEXEMES) break
  }
  return [...out]
}

/**
 * The summary's lexemes first, then those of the values (`contentLexemes`): the same words, in the same order and under
 * the same bound, as profileLexemes, so the values' part can be computed where the merge runs and the summary's after
 * it.
 */
export function lexemesWith(summary: string | null | undefined, content: readonly string[]): string {
  const out = new Set<string>()
  const add = (lexeme: string) => {
    if (out.size < MAX_LEXEMES && lexeme.length <= MAX_LEXEME) out.add(lexeme)
  }
  if (typeof summary === 'string') for (const token of tokens(summary)) add(token)
  for (const lexeme of content) add(lexeme)
  return [...out].join(' ')
}

/** The words of a text as written (NFKC, lower-cased): runs of letters and digits, in order, repeats kept. */
export function writtenWords(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/**
 * The words a profile must hold, all of them, to match a query lexically: its content tokens without the filler;
 * none (vector search alone) when nothing is left or the query is long. Linear in the query's length.
 */
export function queryTerms(query: string): string[] {
  const content = new Set<string>()
  const frame = new Set<string>()
  for (const token of tokens(query)) {
    if (QUERY_FILLER.has(token) || token.length > MAX_LEXEME) continue
    ;(QUERY_FRAME.has(token) ? frame : content).add(token)
    if (content.size + frame.size > MAX_QUERY_TERMS) return []
  }
  return [...(content.size ? content : frame)]
}

/**
 * The query's words that give `terms` (queryTerms), as written (lower-cased, one each), all required: a to_tsquery
 * source of quoted letters and digits, for the `simple` configuration (exact words, any language). '' when none.
 */
export function termWords(query: string, terms: readonly string[]): string {
  const wanted = new Set(terms)
  const out = new Set<string>()
  for (const word of writtenWords(query)) {
    if (word.length > MAX_LEXEME) continue
    if (tokens(word).some((t) => wanted.has(t))) out.add(word)
  }
  return [...out].map((w) => `'${w}'`).join(' & ')
}

/**
 * The terms as a tsquery literal (every term required), for a `::tsquery` cast: no parser, no operators from the
 * client. A term with `alternatives` (what a misspelt word may have meant, src/domain/spelling.ts) is matched by itself
 * or by any of them, each a conjunction of stems ("starwars": 'starwar' | 'star' & 'war').
 */
export function termsQuery(
  terms: readonly string[],
  alternatives?: ReadonlyMap<string, readonly (readonly string[])[]>,
): string {
  return terms.map((t) => termLiteral(t, alternatives?.get(t))).join(' & ')
}

/** One term as a tsquery literal, with its alternatives when it has some (see termsQuery). */
export function termLiteral(term: string, alternatives?: readonly (readonly string[])[]): string {
  const quote = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
  if (!alternatives?.length) return quote(term)
  const group = (words: readonly string[]) =>
    words.length > 1 ? `(${words.map(quote).join(' & ')})` : quote(words[0]!)
  return `(${[[term], ...alternatives].map(group).join(' | ')})`
}

/**
 * The score (0-100) a profile holding every query term gets from that alone: the median score of a true match in the
 * embedders' calibration (docs/evaluation/calibration.md), above the default sensitivity (63).
 */
export const LEXICAL_SCORE = 80

/**
 * How much higher a lexical match scores when one passage of what the person said holds every word of the query
 * (frame and filler words too, and each word as written): its lexical score rises from LEXICAL_SCORE towards
 * LEXICAL_SCORE + COVER_SCORE in proportion to the share of the query's words that one passage says. "has a pet fish"
 * then ranks "I have a pet fish" above "fish and chips", "favorite color is orange" ranks "my favorite color is
 * orange" above "I hate the color orange". Chosen by recall@10 on the development set
 * (docs/evaluation/quality.md).
 */
export const COVER_SCORE = 19

/**
 * The hybrid score: the vector score `v` (calibrated, 0-100) when the profile does not hold every query term; when it
 * does, the two combined as independent evidence, 100 - (100 - v) * (100 - lex) / 100 with lex = LEXICAL_SCORE +
 * COVER_SCORE * cover (`cover`, 0-1: the share of the query's words one passage says), which is at least LEXICAL_SCORE
 * and at least `v`, and still ranks lexical matches of the same cover by their vector score.
 */
export function hybridScore(vectorScore: number, lexical: boolean, cover = 0): number {
  const lex = LEXICAL_SCORE + COVER_SCORE * Math.min(1, Math.max(0, cover))
  return lexical ? 100 - ((100 - vectorScore) * (100 - lex)) / 100 : vectorScore
}

/**
 * Every distinct word of the query, stop words aside, filler and frame words included, stemmed and also as written
 * ("nurse" is then said more fully by "a nurse" than by "a nursing home"): each a tsquery literal, at most
 * 2 * MAX_QUERY_TERMS. How many of them one passage says is a lexical match's `cover`.
 */
export function everyWord(query: string): string[] {
  const out = new Set<string>()
  const word = (t: string) => SENTIMENT_OF.get(t) ?? termLiteral(t)
  for (const token of tokens(query)) if (token.length <= MAX_LEXEME && out.size < MAX_QUERY_TERMS) out.add(word(token))
  for (const written of writtenWords(query)) {
    if (out.size >= 2 * MAX_QUERY_TERMS) break
    const stems = tokens(written)
    // A word of sentiment counts once, as its class (its stem already added it).
    if (written.length <= MAX_LEXEME && stems.length && !SENTIMENT_OF.has(stems[0]!)) out.add(word(written))
  }
  return [...out]
}

/**
 * Words of liking and of disliking, each class one word of a query's cover: "likes cats" is said as fully by "I love
 * cats" or "I enjoy cats" as by "I like cats", "hates clowns" by "I dislike clowns". Only the cover (how much of the
 * query one passage says) reads them; they are filler, never required, and the vector ignores them.
 */
const SENTIMENT_CLASSES = ['like love enjoy adore', 'hate dislike detest despise loathe']

/**
 * Stem -> its class as one tsquery literal of alternatives (stems and the words as written: the passages hold both).
 */
const SENTIMENT_OF: ReadonlyMap<string, string> = new Map(
  SENTIMENT_CLASSES.flatMap((sentimentClass) => {
    const words = sentimentClass.split(' ')
    const stems = words.map((w) => tokens(w)[0]!)
    const literal = `(${[...new Set([...stems, ...words])].map((w) => `'${w}'`).join(' | ')})`
    return stems.map((st): [string, string] => [st, literal])
  }),
)

/**
 * The smallest vector score with which a lexical match of lexical score `lex` reaches `sensitivity` (the inverse of
 * hybridScore), so the SQL threshold selects exactly the rows whose hybrid score is >= sensitivity: 0 (every lexical
 * match) up to `lex`.
 */
export function lexicalVectorFloor(sensitivity: number, lex = LEXICAL_SCORE): number {
  if (sensitivity <= lex) return 0
  return 100 - ((100 - sensitivity) * 100) / (100 - lex)
}

/**
 * The cosine distance thresholds of lexical matches by cover k = 0..words (hybridSearchSql's lexicalMaxDistance): the
 * largest distance at which a match saying k of the query's `words` words still scores `sensitivity`.
 */
export function lexicalThresholds(sensitivity: number, words: number, toCosine: (score: number) => number): number[] {
  return Array.from(
    { length: words + 1 },
    (_, coveredWords) =>
      1 - toCosine(lexicalVectorFloor(sensitivity, LEXICAL_SCORE + (COVER_SCORE * coveredWords) / Math.max(1, words))),
  )
}

/**
 * A candidate of a hybrid search: a profile, its cosine similarity to the query (or to its nearest passage that says
 * the query's terms, when nearer), whether it holds every query term.
 */
export interface HybridCandidate {
  profileId: string
  similarity: number
  lexical: boolean
  /** How many of everyWord(query) one passage of the profile says (0 when unknown). */
  cover?: number
}

/**
 * The candidates ranked by hybrid score (then similarity, then profile id), each profile once, sliced to the page:
 * `toScore` is the embedder's calibration (cosine -> 0-100). `words` is how many everyWord(query) has, `required` how
 * many terms a lexical match holds at least (queryTerms): a lexical candidate's cover is the larger of its own and
 * `required`, over `words`.
 */
export function rankHybrid(
  candidates: readonly HybridCandidate[],
  toScore: (cosine: number) => number,
  offset: number,
  pageSize: number,
  words = 0,
  required = 0,
): { profileId: string; similarity: number; score: number }[] {
  const best = new Map<string, { profileId: string; similarity: number; score: number }>()
  for (const candidate of candidates) {
    const score = hybridScore(
      toScore(candidate.similarity),
      candidate.lexical,
      words ? Math.min(1, Math.max(required, candidate.cover ?? 0) / words) : 0,
    )
    const seen = best.get(candidate.profileId)
    if (!seen || score > seen.score)
      best.set(candidate.profileId, { profileId: candidate.profileId, similarity: candidate.similarity, score })
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.similarity - a.similarity ||
        (a.profileId < b.profileId ? -1 : a.profileId > b.profileId ? 1 : 0),
    )
    .slice(offset, offset + pageSize)
}

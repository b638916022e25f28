// Evidence passages (docs/guides/evidence.md): what a person said, kept beside the profile's facts so a
// context can quote it and a value can be traced to it. Their bounds, and how they are indexed and shown; the worker
// builds a submission's passages in src/ai/passages.ts.

import { tokens } from './normalise.js'
import { MAX_LEXEME, writtenWords } from './lexical.js'

/** A passage's own words are at most this many characters (a longer turn or sentence is cut into several). */
export const PASSAGE_MAX_CHARS = 1000
/** The partner's turn a passage answers is kept to this many characters (it is context, not the person's words). */
export const PASSAGE_PROMPT_MAX_CHARS = 300
/** A text is cut into windows of whole sentences of about this many characters. */
export const TEXT_WINDOW_CHARS = 400

export interface PassageLimits {
  /** Passages one submission may leave (default 200): beyond it, turns/sentences are packed into fewer passages. */
  perSubmission: number
  /** Passages a profile keeps (default 20,000): the oldest (by the time they were said) go first. */
  perProfile: number
}

export const DEFAULT_PASSAGE_LIMITS: PassageLimits = { perSubmission: 200, perProfile: 20_000 }

export interface PassageDraft {
  /** 0-based order within its submission. */
  position: number
  /** Who said it: the conversation's profiled person (their label); null for a text. */
  speaker: string | null
  /** The partner's turn this answers ("Do you like jazz?" before "Yes, a lot."); null when none. */
  prompt: string | null
  /** The person's own words. */
  text: string
  /** When it was said (ISO 8601): its message's timestamp, else the submission's event time. */
  occurredAt: string
}

/**
 * A passage as one text (what its vector is computed from, and what BM25 counts): the question it answers, then the
 * person's words.
 */
export function passageEmbedText(passage: Pick<PassageDraft, 'prompt' | 'text'>): string {
  return passage.prompt ? `${passage.prompt}\n${passage.text}` : passage.text
}

/**
 * A vector as pgvector's text input, each number to 8 decimal places (an error under 5e-9 a component, below the 32-bit
 * floats pgvector keeps for the unit vectors stored here), a third of the text of a full print: the embedded database
 * parses every character on the main thread. Rounding by multiplication, not toPrecision: half the time (the worker
 * formats one vector per passage).
 */
export function vectorText(vector: readonly number[]): string {
  let out = '['
  for (let i = 0; i < vector.length; i++) {
    const component = vector[i]!
    if (i) out += ','
    out += component === 0 ? '0' : String(Math.round(component * 1e8) / 1e8)
  }
  return out + ']'
}

/** PostgreSQL text search configurations (in PGlite and in PostgreSQL 15+) by ISO 639-1 code; others use `simple`. */
const TS_CONFIGS: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
}

/** Every configuration a passage may be indexed with (what an import accepts as a passage's `language`). */
export const TEXT_SEARCH_CONFIGS: readonly string[] = [...new Set([...Object.values(TS_CONFIGS), 'simple'])].sort()

/**
 * The text search configuration for a profile's language: its stemming language when PostgreSQL has one, `simple`
 * otherwise. Passages are indexed with it and with `simple` (exact words), so any language is searchable.
 */
export function textSearchConfig(language: string | null | undefined): string {
  return (language && TS_CONFIGS[language.toLowerCase().slice(0, 2)]) || 'simple'
}

/**
 * Words that ask about speech ("What did she say about her son?", "What did he tell you about the trip?"): every
 * passage is something the person said, so they name no topic, and a passage using them ("as they say") is no
 * nearer to the answer.
 */
const SPEECH_WORDS: ReadonlySet<string> = new Set(
  `say says said saying tell tells told telling mention mentions mentioned mentioning talk talks talked talking speak
  speaks spoke spoken speaking discuss discusses discussed discussing`.split(/\s+/),
)

/**
 * The words of the person's names (their name in the profile, the label their turns carry: "Caroline Moreau",
 * "Caroline"), lower case, as a query's words are compared with them: letters only, two or more of them.
 */
function nameWords(names: readonly (string | null | undefined)[]): Set<string> {
  const out = new Set<string>()
  for (const n of names)
    for (const w of n
      ?.normalize('NFKC')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [])
      if (w.length >= 2) out.add(w)
  return out
}

/**
 * The query passages are looked up and ranked by: the query without its words about speech (SPEECH_WORDS) and without
 * the person's own names (`names`: "What did Caroline research?" asks about research; every passage is Caroline's, and
 * the partner's turns before them greet her by name: "Hey Caroline!"), when other words remain; the query as it is
 * otherwise ("What did they say?", "Caroline?"). A possessive goes with its name ("Caroline's").
 */
export function passageQuery(query: string, names: readonly (string | null | undefined)[] = []): string {
  const own = nameWords(names)
  const dropped = (word: string): boolean => {
    const lower = word.normalize('NFKC').toLowerCase()
    return SPEECH_WORDS.has(lower) || own.has(lower.replace(/'s?$/, ''))
  }
  const rest = query
    .replace(/[\p{L}\p{N}'\u2019]+/gu, (w) => (dropped(w.replace(/\u2019/g, "'")) ? '' : w))
    .replace(/\s+/g, ' ')
    .trim()
  return rest.length < query.trim().length && tokens(rest).length ? rest : query
}

/** At most this many distinct words of a query are looked up among passages. */
export const PASSAGE_QUERY_TERMS = 32

/**
 * A query's words as a tsquery source for to_tsquery: each word quoted, joined by `|` (any may match; the ranking
 * weighs them). Only letters and digits reach it, so client text never becomes tsquery syntax. '' when no word.
 */
export function anyWordsQuery(query: string): string {
  const words = [...new Set(writtenWords(query).filter((w) => w.length <= MAX_LEXEME))]
  return words
    .slice(0, PASSAGE_QUERY_TERMS)
    .map((w) => `'${w}'`)
    .join(' | ')
}

/** "8 May 2023" (UTC): a date a model reads without help. */
export function readableDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}
/**
 * A stored date as a model reads it: "2023-05-19" -> "19 May 2023", "2023-05" -> "May 2023"; anything else as it is.
 */
export function readableDay(date: string): string {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(date)
  if (!match) return date
  const month = MONTHS[Number(match[2]) - 1]
  if (!month) return date
  return match[3] ? `${Number(match[3])} ${month} ${match[1]}` : `${month} ${match[1]}`
}
/** The months' English names, January first. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/**
 * Stems (normalise's tokens) of the words of liking: like, love, enjoy and their forms. Not "favourite" or "prefer": on
 * the memory evaluation (48-conversation histories, questions) those lost with the interests listed first (favourite
 * 19 -> 8 answers of 25, prefer 21 -> 19 of 47), while like, love and enjoy gained (359 -> 572 of 1,195, 291 -> 316 of
 * 528, 82 -> 89 of 156): a favourite is of something the query names or the passages say ("favourite colour").
 */
const LIKING_STEMS = new Set(['like', 'love', 'enjoi'])

/**
 * Whether a query (as passageQuery leaves it: without words about speech and the person's names) asks only what the
 * person likes: its content words are all words of liking ("What do they like?", "What does she enjoy?", "What did
 * they say about love?"). The person's interests are then what it asks about.
 */
export function asksLikes(lookup: string): boolean {
  const words = tokens(lookup)
  return words.length > 0 && words.every((w) => LIKING_STEMS.has(w))
}

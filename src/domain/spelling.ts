// Typo tolerance of search queries: the words a misspelt query word may have meant. A query word that is not a common
// word of the dictionary ("schawarma", "industryy", "starwars") is tried as the dictionary's words one edit away (a
// letter dropped, swapped with the next, replaced or added) and as two dictionary words ("star wars"); a search that
// finds no profile holding the query's words is run again with them as alternatives (SearchService), so it matches
// what the tenant holds of them. Pure; bounded: a word gives at most ~27 * (length + 1) * 2 strings to look up.
import { writtenWords } from './lexical.js'
import { tokens } from './normalise.js'

/** Words shorter than this are not corrected: one edit of a short word is another common word ("cat" -> "car"). */
export const SPELLING_MIN_LENGTH = 5
/** Nor longer words (nobody misspells a 30-letter word into another one; their variants would be many). */
export const SPELLING_MAX_LENGTH = 20
/** At most this many of a query's words are corrected (the first ones, in query order). */
export const SPELLING_MAX_WORDS = 3
/** A word among the dictionary's this many most frequent is spelt as meant: "yodeling" is no misspelt "modeling". */
export const SPELLING_COMMON_WORDS = 100_000
/** At most this many alternatives per word, the most frequent first. */
export const SPELLING_MAX_ALTERNATIVES = 8

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz'

/** A dictionary: lower-case word -> frequency rank (0: the most frequent). */
export type Dictionary = ReadonlyMap<string, number>

/** The letters variants are made of: a-z and the word's own letters (so "café" can lose or swap its "é"). */
function lettersOf(word: string): string[] {
  return [...new Set([...ALPHABET, ...word])]
}

/** The query's words that spellingAlternatives looks at when no dictionary knows them, each with its term. */
function correctable(query: string, terms: readonly string[]): [word: string, stem: string][] {
  const wanted = new Set(terms)
  const out: [string, string][] = []
  for (const word of writtenWords(query)) {
    const len = [...word].length
    if (len < SPELLING_MIN_LENGTH || len > SPELLING_MAX_LENGTH || /\p{N}/u.test(word)) continue
    const stem = tokens(word)[0]
    if (stem !== undefined && wanted.has(stem)) out.push([word, stem])
  }
  return out
}

/** Whether a word of the query may be corrected at all (before the dictionary is read). */
export function mayBeMisspelt(query: string, terms: readonly string[]): boolean {
  return correctable(query, terms).length > 0
}

/** Every string one edit away from `word` (Damerau: deletion, adjacent transposition, substitution, insertion). */
export function oneEditAway(word: string): string[] {
  const chars = [...word]
  const letters = lettersOf(word)
  const out = new Set<string>()
  for (let i = 0; i <= chars.length; i++) {
    const head = chars.slice(0, i).join('')
    const tail = chars.slice(i).join('')
    if (i < chars.length) out.add(head + chars.slice(i + 1).join(''))
    if (i + 1 < chars.length) out.add(head + chars[i + 1] + chars[i] + chars.slice(i + 2).join(''))
    for (const letter of letters) {
      if (i < chars.length && letter !== chars[i]) out.add(head + letter + chars.slice(i + 1).join(''))
      out.add(head + letter + tail)
    }
  }
  out.delete(word)
  return [...out]
}

/**
 * The query's words that are looked at as misspelt: each giving one of `terms`, correctable (mayBeMisspelt's length
 * and no digit) and not among the dictionary's SPELLING_COMMON_WORDS; one per term, at most SPELLING_MAX_WORDS.
 */
function uncommon(query: string, terms: readonly string[], dictionary: Dictionary): [word: string, stem: string][] {
  const out: [string, string][] = []
  const seen = new Set<string>()
  for (const [word, stem] of correctable(query, terms)) {
    if (out.length >= SPELLING_MAX_WORDS) break
    if (seen.has(stem) || (dictionary.get(word) ?? Infinity) < SPELLING_COMMON_WORDS) continue
    seen.add(stem)
    out.push([word, stem])
  }
  return out
}

/** The terms of the words spellingCorrections looks at (uncommon): none for a query of common words. */
export function uncommonTerms(query: string, terms: readonly string[], dictionary: Dictionary): string[] {
  return uncommon(query, terms, dictionary).map(([, stem]) => stem)
}

/**
 * What a misspelt word may have meant: the dictionary's words as written (one, or the two of a split), and their stems.
 */
export interface SpellingAlternative {
  words: string[]
  stems: string[]
}

/**
 * What each misspelt word of the query may have meant, by the term it gives (`terms`, from queryTerms): alternatives,
 * each a conjunction of stems (one word, or the two of a split), the most frequent first, at most
 * SPELLING_MAX_ALTERNATIVES. A word is looked at when it gives a term, has SPELLING_MIN_LENGTH to SPELLING_MAX_LENGTH
 * letters and no digit (a code or a number is no misspelling), and is not among the dictionary's SPELLING_COMMON_WORDS;
 * at most SPELLING_MAX_WORDS words. Only terms with an alternative are in the map.
 */
export function spellingAlternatives(
  query: string,
  terms: readonly string[],
  dictionary: Dictionary,
): Map<string, string[][]> {
  return new Map(
    [...spellingCorrections(query, terms, dictionary)].map(([stem, alts]) => [stem, alts.map((a) => a.stems)]),
  )
}

/** spellingAlternatives with each alternative's words as written beside its stems (what a passage lookup asks for). */
export function spellingCorrections(
  query: string,
  terms: readonly string[],
  dictionary: Dictionary,
): Map<string, SpellingAlternative[]> {
  const out = new Map<string, SpellingAlternative[]>()
  for (const [word, stem] of uncommon(query, terms, dictionary)) {
    // Each alternative with the rank it is known by (a split: its rarer part's), as stems: one per distinct meaning.
    const found = new Map<string, SpellingAlternative & { rank: number }>()
    const add = (words: string[], stems: string[], rank: number) => {
      const key = stems.join(' ')
      if (key === stem) return
      const seen = found.get(key)
      if (!seen || rank < seen.rank) found.set(key, { words, stems, rank })
    }
    for (const candidate of oneEditAway(word)) {
      const rank = dictionary.get(candidate)
      const candidateTokens = rank === undefined ? [] : tokens(candidate)
      if (candidateTokens.length === 1) add([candidate], candidateTokens, rank!)
    }
    const chars = [...word]
    for (let i = 3; i <= chars.length - 3; i++) {
      const [head, tail] = [chars.slice(0, i).join(''), chars.slice(i).join('')]
      const [ra, rb] = [dictionary.get(head), dictionary.get(tail)]
      if (ra === undefined || rb === undefined) continue
      const [ta, tb] = [tokens(head), tokens(tail)]
      if (ta.length === 1 && tb.length === 1) add([head, tail], [ta[0]!, tb[0]!], Math.max(ra, rb))
    }
    const best = [...found.values()].sort((x, y) => x.rank - y.rank).slice(0, SPELLING_MAX_ALTERNATIVES)
    if (best.length)
      out.set(
        stem,
        best.map(({ words, stems }) => ({ words, stems })),
      )
  }
  return out
}

// Normalised forms used as dedupe keys ("Hiking", "hiking ", "hikes" -> "hike") and as search/evaluation tokens.
// Keys are for comparison only: the profile always keeps a human display form next to them.
import { stemmer } from 'stemmer'

const ARTICLES = new Set(['a', 'an', 'the'])

/** Small English stop-word list: enough to keep tokens about content, not grammar. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but nor so yet if then else than as of at by for from in into on onto to with without ' +
    "about above after again against all am any are aren't be because been before being below between both " +
    "can can't cannot could couldn't did didn't do does doesn't doing don't down during each few further had " +
    "hadn't has hasn't have haven't having he he'd he'll he's her here hers herself him himself his how i i'd " +
    "i'll i'm i've is isn't it it's its itself just let's me more most my myself no not now off once only " +
    "other our ours ourselves out over own same she she'd she'll she's should shouldn't some such that that's " +
    "their theirs them themselves there these they they'd they'll they're they've this those through too " +
    "under until up very was wasn't we we'd we'll we're we've were weren't what what's when where which while " +
    "who whom why will won't would wouldn't you you'd you'll you're you've your yours yourself yourselves"
  ).split(' '),
)

// Leading punctuation is always stripped; trailing keeps '#' so "C#" stays distinct from "C".
const LEADING_PUNCT = /^\p{P}+/u
const TRAILING_PUNCT = /[^\P{P}#]+$/u
// Hyphens, underscores and slashes separate words: "hip-hop" == "hip hop".
const WORD_SEPARATORS = /[\s\-_\u2010-\u2015/]+/u

/**
 * Lower case, compatibility-normalised, Latin diacritics removed ("Café" -> "cafe"), curly apostrophes straightened.
 */
function fold(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .normalize('NFD')
      // Only the generic combining diacritics block: stripping all marks would corrupt other scripts.
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC')
      .replace(/[\u2018\u2019\u02bc]/g, "'")
  )
}

function stem(word: string): string {
  // Porter is for English words only; leave numbers, mixed and non-Latin words as they are.
  return /^[a-z]+$/.test(word) ? stemmer(word) : word
}

function cleanWord(word: string): string {
  if (word === '&') return 'and'
  return word.replace(LEADING_PUNCT, '').replace(TRAILING_PUNCT, '').replace(/'s$/, '')
}

/**
 * How many times normaliseValue ran in this process: what test/unit/profile-limits.test.ts bounds to show the merge
 * is linear in the profile plus the batch (a count, not a timing).
 */
export const normaliseCalls = { n: 0 }

/**
 * The dedupe key of a value: lower case, trimmed, whitespace collapsed, surrounding punctuation stripped,
 * one leading article dropped, each word Porter-stemmed. Returns '' when nothing meaningful is left.
 */
export function normaliseValue(value: string): string {
  normaliseCalls.n++
  const words = fold(value)
    .split(WORD_SEPARATORS)
    .map(cleanWord)
    .filter((w) => w !== '')
  if (words.length > 1 && ARTICLES.has(words[0])) words.shift()
  // No cache here: an operation that compares the same values often (a merge) memoises for its own length (keyMemo).
  return words.map(stem).join(' ')
}

/** True when two values share a dedupe key. */
export function sameValue(first: string, second: string): boolean {
  return normaliseValue(first) === normaliseValue(second)
}

/**
 * Content tokens of a text, in order and with repeats: folded, stop words dropped, Porter-stemmed.
 * Shared by search and by the evaluation harness, so both agree on what a "word" is.
 */
export function tokens(text: string): string[] {
  const out: string[] = []
  for (const match of fold(text).matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu)) {
    const word = match[0]
    if (STOP_WORDS.has(word)) continue
    const bare = word.replace(/'s$/, '')
    if (bare === '' || STOP_WORDS.has(bare)) continue
    out.push(stem(bare))
  }
  return out
}

/** Interest category names in lower snake_case ("Movies & TV" -> "movies_tv"); '' becomes "other". */
export function categoryKey(name: string): string {
  const key = fold(name)
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
  return key === '' ? 'other' : key
}

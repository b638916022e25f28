// compromise, behind small memoised helpers: rules ask the same questions about the same short strings often.
import nlp from 'compromise'

export interface Term {
  text: string
  tags: string[]
}

const MAX = 5000

function memo<T>(fn: (text: string) => T): (text: string) => T {
  const cache = new Map<string, T>()
  return (text: string) => {
    const hit = cache.get(text)
    if (hit !== undefined || cache.has(text)) return hit as T
    const value = fn(text)
    if (cache.size >= MAX) cache.delete(cache.keys().next().value as string)
    cache.set(text, value)
    return value
  }
}

/** The terms of a short text with their part-of-speech tags. */
export const termsOf = memo((s: string): Term[] =>
  (nlp(s).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((x) =>
    x.terms.map((t) => ({ text: t.text.toLowerCase(), tags: t.tags })),
  ),
)

const matchers = new Map<string, (text: string) => boolean>()

/** Whether compromise finds `match` (a compromise match expression such as "#Place") in `text`. */
export function nlpHas(text: string, match: string): boolean {
  let matcher = matchers.get(match)
  if (!matcher) {
    matcher = memo((x: string) => nlp(x).has(match))
    matchers.set(match, matcher)
  }
  return matcher(text)
}

const lexicon = (nlp as unknown as { model: () => { one: { lexicon: Record<string, string | undefined> } } }).model()
  .one.lexicon

/** The tag compromise's lexicon gives `word` out of context: "Singular" for "race", "Infinitive" for "teach". */
export const lexiconTag = (word: string): string | undefined => lexicon[word]

/** Place names compromise recognises in `s`, joined per span ("new york city"). */
export const placesIn = memo((s: string): string[] => nlp(s).match('#Place+').out('array') as string[])

/** People's names compromise recognises in `s`. */
export const peopleIn = memo((s: string): string[] => nlp(s).people().out('array') as string[])

/** Whether `word`, right after "i", reads as a verb ("i live", not "i camping"). */
export const isVerbAfterI = memo((word: string): boolean => {
  const tags = termsOf(`i ${word}`)[1]?.tags ?? []
  return (
    tags.includes('Verb') &&
    !tags.includes('Gerund') &&
    !tags.includes('Noun') &&
    !tags.includes('Auxiliary') &&
    !tags.includes('Copula')
  )
})

/** Whether a word is a verb after "to", where a noun is read as a noun ("to live"; not "to guitar"). */
export const isVerbAfterTo = memo((word: string): boolean => {
  const tags = termsOf(`to ${word}`)[1]?.tags ?? []
  return tags.includes('Verb') && !tags.includes('Noun')
})

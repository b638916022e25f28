// compromise, behind small memoised helpers: rules ask the same questions about the same short strings often.
import nlp from 'compromise'

export interface Term {
  text: string
  tags: string[]
}

const MAX = 5000

function memo<T>(fn: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>()
  return (s: string) => {
    const hit = cache.get(s)
    if (hit !== undefined || cache.has(s)) return hit as T
    const v = fn(s)
    if (cache.size >= MAX) cache.delete(cache.keys().next().value as string)
    cache.set(s, v)
    return v
  }
}

/** The terms of a short text with their part-of-speech tags. */
export const termsOf = memo((s: string): Term[] =>
  (nlp(s).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((x) =>
    x.terms.map((t) => ({ text: t.text.toLowerCase(), tags: t.tags })),
  ),
)

const matchers = new Map<string, (s: string) => boolean>()

/** Whether compromise finds `match` (a compromise match expression such as "#Place") in `s`. */
export function nlpHas(s: string, match: string): boolean {
  let m = matchers.get(match)
  if (!m) {
    m = memo((x: string) => nlp(x).has(match))
    matchers.set(match, m)
  }
  return m(s)
}

/** Place names compromise recognises in `s`, joined per span ("new york city"). */
export const placesIn = memo((s: string): string[] => nlp(s).match('#Place+').out('array') as string[])

/** People's names compromise recognises in `s`. */
export const peopleIn = memo((s: string): string[] => nlp(s).people().out('array') as string[])

/** Whether `word`, right after "i", reads as a verb ("i live", not "i camping"). */
export const isVerbAfterI = memo((word: string): boolean => {
  const t = termsOf(`i ${word}`)[1]?.tags ?? []
  return (
    t.includes('Verb') &&
    !t.includes('Gerund') &&
    !t.includes('Noun') &&
    !t.includes('Auxiliary') &&
    !t.includes('Copula')
  )
})

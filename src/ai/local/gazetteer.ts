// The places the local extractor knows by name: cities, countries, states and provinces from gazetteer-data.ts
// (built from packages by scripts/build-vocabularies.mjs). Compromise knows the best-known places; the gazetteer
// knows the rest ("leeds", "gdansk", "abuja") in lower-case chat too. A city whose name is also an English word
// ("Bath", "Nice", "Mobile", "Reading", "Cork") is a place only where the text capitalises it.
import { CITY_NAMES, COMMON_WORD_CITIES, COUNTRY_NAMES, REGION_NAMES } from './gazetteer-data.js'

export type PlaceKind = 'country' | 'region' | 'city'

/** The longest name of the gazetteer, in words. */
const MAX_WORDS = 4

interface Gazetteer {
  kinds: Map<string, PlaceKind>
  commonWords: Set<string>
}

let gazetteer: Gazetteer | undefined

const namesOf = (list: string): string[] => list.split(/[|\n]/).filter(Boolean)

/** Built on first use: a thread that never reads a place never pays for the table. */
function table(): Gazetteer {
  if (gazetteer) return gazetteer
  const kinds = new Map<string, PlaceKind>()
  // the broader kind wins a shared name: "georgia" is a country and a state, "washington" a state and a city
  for (const name of namesOf(CITY_NAMES)) kinds.set(name, 'city')
  for (const name of namesOf(REGION_NAMES)) kinds.set(name, 'region')
  for (const name of namesOf(COUNTRY_NAMES)) kinds.set(name, 'country')
  gazetteer = { kinds, commonWords: new Set(namesOf(COMMON_WORD_CITIES)) }
  return gazetteer
}

/**
 * What the gazetteer knows `name` (lower case, the whole phrase) as. A common-word city counts only when
 * `capitalised` says the text wrote it with a capital ("Bath", not "bath").
 */
export function placeKind(name: string, capitalised: (word: string) => boolean): PlaceKind | undefined {
  const { kinds, commonWords } = table()
  // the table holds names folded to ASCII ("gdańsk" is "gdansk")
  const folded = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
  // "the hague" is a name; "the netherlands" is "netherlands" with its article
  const key = kinds.has(folded) ? folded : folded.replace(/^the /, '')
  const kind = kinds.get(key)
  if (!kind) return undefined
  if (commonWords.has(key) && !key.split(' ').every(capitalised)) return undefined
  return kind
}

/** Where a place may follow one of `prepositions` (1), for placeAfter: built once by each caller. */
export function afterPrepositions(prepositions: readonly string[]): RegExp {
  return new RegExp(`\\b(?:${prepositions.join('|')}) (?=([a-z][a-z.'-]*(?: [a-z][a-z.'-]*){0,3}))`, 'g')
}

/**
 * The first place the gazetteer knows right after a preposition of `after` (afterPrepositions) in `text` (lower
 * case): "in october in tuscany", "hiking trails near denver". Undefined when none is named.
 */
export function placeAfter(text: string, after: RegExp, capitalised: (word: string) => boolean): string | undefined {
  for (const named of text.matchAll(after)) {
    const place = placeAtStart(named[1]!, capitalised)
    if (place) return place
  }
  return undefined
}

/** The longest place name that `phrase` (lower case) starts with, in words: "toronto for two years" -> "toronto". */
export function placeAtStart(phrase: string, capitalised: (word: string) => boolean): string | undefined {
  const words = phrase.split(' ')
  for (let count = Math.min(MAX_WORDS, words.length); count >= 1; count--) {
    const name = words.slice(0, count).join(' ')
    if (placeKind(name, capitalised)) return name
  }
  return undefined
}

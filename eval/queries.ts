// Search queries for the harness: from gold triples, phrased the way a user would type them ("has a pet turtle",
// "lives in texas"). Templates are per relation family, written from the relation names (never from sentences).
import { sample, tokenKey, tokenSet } from './score.js'

interface Family {
  /** Relations of this family: a profile holding any of them with the same object holds the fact. */
  relations: string[]
  template: (x: string) => string
}

export const FAMILIES: Record<string, Family> = {
  pet: { relations: ['have_pet'], template: (x) => `has a pet ${x}` },
  animal: { relations: ['like_animal', 'favorite_animal'], template: (x) => `likes ${x}` },
  music: { relations: ['like_music', 'favorite_music', 'favorite_music_artist'], template: (x) => `likes ${x}` },
  lives: { relations: ['live_in_citystatecountry', 'live_in_general'], template: (x) => `lives in ${x}` },
  origin: { relations: ['place_origin'], template: (x) => `is from ${x}` },
  job: { relations: ['has_profession'], template: (x) => `is a ${x}` },
  employer: { relations: ['employed_by_company'], template: (x) => `works at ${x}` },
  teach: { relations: ['teach'], template: (x) => `teaches ${x}` },
  food: { relations: ['like_food', 'favorite_food'], template: (x) => `likes ${x}` },
  drink: { relations: ['like_drink', 'favorite_drink'], template: (x) => `drinks ${x}` },
  sport: { relations: ['like_sports', 'like_sport', 'favorite_sport'], template: (x) => `likes ${x}` },
  hobby: {
    relations: ['has_hobby', 'like_activity', 'favorite_activity', 'favorite_hobby'],
    template: (x) => `enjoys ${x}`,
  },
  ability: { relations: ['has_ability'], template: (x) => `can ${x}` },
  collect: { relations: ['collect'], template: (x) => `collects ${x}` },
  read: { relations: ['like_read', 'favorite_book'], template: (x) => `likes reading ${x}` },
  watch: {
    relations: ['like_watching', 'like_movie', 'favorite_movie', 'favorite_show'],
    template: (x) => `likes watching ${x}`,
  },
  travel: { relations: ['like_goto', 'favorite_place'], template: (x) => `likes going to ${x}` },
  color: { relations: ['favorite_color', 'like_color'], template: (x) => `favorite color is ${x}` },
  season: { relations: ['favorite_season'], template: (x) => `loves ${x}` },
  trait: { relations: ['misc_attribute'], template: (x) => `is ${x}` },
  dislike: { relations: ['dislike', 'dislike_activity'], template: (x) => `hates ${x}` },
}

const FAMILY_OF = new Map<string, string>(
  Object.entries(FAMILIES).flatMap(([f, d]) => d.relations.map((r): [string, string] => [r, f])),
)

export const familyOf = (relation: string): string | undefined => FAMILY_OF.get(relation)

export interface Triple {
  subject: string
  relation: string
  object: string
}

export interface SearchQuery {
  query: string
  family: string
  object: string
  /** Profile ids holding the fact: an object of the same family containing the fact's normalised tokens. */
  relevant: string[]
}

/**
 * The object as a user would name it: Dialogue NLI writes counts into objects ("have_pet 2 dog", "is a 0 musician"),
 * which nobody types in a search box, so a leading count is dropped ("2 dog" -> "dog"; "the 1975" stays).
 */
export function queryObject(object: string): string {
  return object
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^\d+ (?=\S)/, '')
}

/**
 * Every distinct (family, object tokens) fact of the given profiles as a query; a seeded sample of `n` of them.
 * A profile holds a fact when one of its objects of the same family contains the fact's tokens: a kindergarten
 * teacher is a teacher, an owner of "2 dog" has a pet dog. Objects that are only numbers or have no content tokens
 * are skipped.
 */
export function buildQueries(profiles: ReadonlyMap<string, readonly Triple[]>, n: number, seed: number): SearchQuery[] {
  const facts = new Map<string, { family: string; object: string; tokens: string[] }>()
  const held: { id: string; family: string; tokens: Set<string> }[] = []
  for (const [id, triples] of profiles) {
    for (const t of triples) {
      if (t.subject !== 'i') continue
      const family = familyOf(t.relation)
      if (!family) continue
      if (/[<>]/.test(t.object)) continue // annotation placeholders such as "<blank>"
      const object = queryObject(t.object)
      const key = tokenKey(object)
      if (!object || !key || /^\d+$/.test(key)) continue
      held.push({ id, family, tokens: tokenSet(object) })
      const k = `${family}\u0000${key}`
      if (!facts.has(k)) facts.set(k, { family, object, tokens: key.split(' ') })
    }
  }
  const all = [...facts.values()].sort((a, b) => (a.family + a.object).localeCompare(b.family + b.object))
  return sample(all, n, seed).map((f) => ({
    query: FAMILIES[f.family]!.template(f.object),
    family: f.family,
    object: f.object,
    relevant: [
      ...new Set(held.filter((h) => h.family === f.family && f.tokens.every((t) => h.tokens.has(t))).map((h) => h.id)),
    ].sort(),
  }))
}

/**
 * Things nobody in a persona-chat corpus is likely to hold, each with the phrasing that fits it; checked against the
 * gold objects before use.
 */
const UNRELATED: [template: (x: string) => string, objects: string[]][] = [
  [
    (x) => `has a pet ${x}`,
    ['axolotl', 'platypus', 'tarantula', 'hedgehog', 'chinchilla', 'iguana', 'alpaca', 'scorpion'],
  ],
  [
    (x) => `likes ${x}`,
    ['zither', 'bagpipes', 'theremin', 'harpsichord', 'didgeridoo', 'gregorian chant', 'polka', 'yodeling'],
  ],
  [
    (x) => `enjoys ${x}`,
    ['falconry', 'taxidermy', 'beekeeping', 'glassblowing', 'calligraphy', 'origami', 'bonsai', 'fencing'],
  ],
  [
    (x) => `plays ${x}`,
    ['curling', 'bobsleigh', 'jai alai', 'sumo wrestling', 'croquet', 'lacrosse', 'cricket', 'polo'],
  ],
  [(x) => `likes eating ${x}`, ['durian', 'kimchi', 'haggis', 'okra', 'kombucha', 'escargot', 'natto', 'lutefisk']],
  [
    (x) => `is interested in ${x}`,
    [
      'quantum mechanics',
      'cryptography',
      'medieval siege engines',
      'stamp forgery',
      'lighthouse keeping',
      'blacksmithing',
    ],
  ],
]

/**
 * Queries about facts no profile holds: each object's tokens must appear in no gold object of the data at all.
 * Returns the queries and the objects that were dropped because some gold object contains them.
 */
export function unrelatedQueries(allGoldObjects: Iterable<string>): { queries: string[]; dropped: string[] } {
  const goldTokens = new Set<string>()
  for (const o of allGoldObjects) for (const t of tokenSet(o)) goldTokens.add(t)
  const queries: string[] = []
  const dropped: string[] = []
  for (const [template, objects] of UNRELATED) {
    for (const x of objects) {
      if ([...tokenSet(x)].some((t) => goldTokens.has(t))) dropped.push(x)
      else queries.push(template(x))
    }
  }
  return { queries, dropped }
}

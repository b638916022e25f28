// Noun phrases of interests: cutting, list splitting, lexicon look-up and classification of bare nouns.
import { AND_TERMS, CATEGORY_OF, PET_WORDS } from './lexicon-interests.js'
import { nlpHas, termsOf } from './nlp.js'
import { lemmaOfGerund, singular, singulars } from './text.js'
import { dict } from './regex.js'

export interface Item {
  category: string
  value: string
  /** Multiplies the rule's confidence: 1 for a known term, lower for a guessed category. */
  weight: number
}

/** Objects that say nothing about the person's interests. */
export const GENERIC = new Set(
  `family kids kid children child son sons daughter daughters husband wife boyfriend girlfriend partner friends friend mom
  dad mother father parents parent brother brothers sister sisters siblings grandkids grandchildren grandma grandpa job
  work life it that this them those these things thing stuff everything anything something nothing you people myself
  lot much time one all him her me us everyone everybody idea way home fun them all there here day days night weather
  music_ it_all job_ school yourself what when how why too also so very really sure ones person guy girl man woman
  mine yours his hers ours theirs`
    .split(/\s+/)
    .filter((w) => w && !w.endsWith('_')),
)

const CUT_WORDS = new Set(
  `so because since when whenever while if but although though than which who that where until unless whether lol haha
  too also anymore more most best either really very as every each once twice sometimes often always usually daily
  weekly nowadays today tonight now lately again instead yet already still just even only mostly mainly especially
  particularly like including except besides is are was were am be been tbh imo imho lmao ngl btw tho idk rn
  i you he she we they it here there myself related`
    .split(/\s+/)
    .filter(Boolean),
)
const LY_NOUNS = new Set(
  'family italy july jelly belly lily holly rally fly ugly silly curly bully assembly sally molly emily kelly billy dolly polly'.split(
    ' ',
  ),
)
const PREPS = new Set(
  'with for in at on to from during after before around near by about into over under through across'.split(' '),
)
/** Prepositions that belong to the verb before them ("listening to jazz", "going to the beach"). */
const KEEP_PREP: Record<string, string[]> = dict({
  listen: ['to'],
  go: ['to', 'on'],
  travel: ['to', 'around'],
  look: ['at'],
  play: ['in'],
  hang: ['out'],
  work: ['on'],
  spend: ['time'],
  volunteer: ['at'],
  swim: ['in'],
})
const LEADING_FILLER =
  /^(?:a|an|the|some|any|all|or|anything|everything|all things|things|to much|too much|so much|too many|so many|\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|hundreds of|dozens of|a few|several|lots of|a lot of|alot of|plenty of|many|most|much|my|our|your|good|great|nice|real|really|very|delicious|awesome|amazing|cool|fun|fresh|new|little|big|huge|cheap|expensive|fancy|tasty|yummy|cute|beautiful|different|all kinds of|kinds of|types of|all types of|any kind of|all sorts of|sorts of|various|other|pretty|quite|such|totally|absolutely)\s+/
export const EXAMPLES = /\s+(?:especially|particularly|like|such as|mostly|mainly|including|even)\s+/

/** Category of a term from the lexicons (also tries singulars and, for phrases, their last words). */
export function lookup(term: string): { category: string; term: string } | undefined {
  const t = term.trim()
  const exact = lookupExact(t)
  if (exact) return { category: exact, term: t }
  const words = t.split(' ')
  for (let n = words.length - 1; n >= 1; n--) {
    const tail = words.slice(words.length - n).join(' ')
    const c = lookupExact(tail)
    if (c) return { category: c, term: tail }
  }
  // "chocolate bars", "a bowl of ramen" is caught above: the head is a container, the known word is the thing
  if (
    words.length <= 3 &&
    /^(?:bars?|glass(?:es)?|cups?|bowls?|pieces?|slices?|bottles?|plates?|boxes?|bags?|packs?|cans?|mugs?|pints?|scoops?|sticks?|chips?|drinks?|dishes?)$/.test(
      words[words.length - 1],
    )
  ) {
    for (let i = words.length - 2; i >= 0; i--) {
      if (/^(?:a|an|the|of|and|or|my|to|in|on|for|with)$/.test(words[i])) continue
      const c = lookupExact(words[i])
      if (c && c !== 'other') return { category: c, term: words[i] }
    }
  }
  return undefined
}

/** Category of exactly this term or its singular. */
export function lookupExact(term: string): string | undefined {
  const c = CATEGORY_OF.get(term)
  if (c) return c
  const words = term.split(' ')
  const head = words.pop() ?? ''
  for (const s of singulars(head)) {
    const x = CATEGORY_OF.get([...words, s].join(' '))
    if (x) return x
  }
  return undefined
}

/** Cuts an object phrase at the first word that ends it ("hiking with my dog on weekends" -> "hiking with"->"hiking"). */
export function cutPhrase(phrase: string): string {
  const p = phrase
    .replace(/[!?.;:"()]+/g, ' ')
    .replace(/\s+(?:due to|because of|thanks to|ever since|since)\b.*$/, '')
    .replace(/\b(?:a lot of|lots of|plenty of|a bunch of|tons of|a ton of|loads of|all kinds of|all sorts of)\s+/g, '')
    .replace(
      /\b(?:(?:a|per|each|every|once a|twice a) (?:day|week|month|year|weekend)|a lot|lots|a bit|a little|so much|very much|as well|all day|all the time|these days|right now|at the moment|in my (?:free|spare|down) time|some ?day|one day|someday soon|in the future|eventually|soon|next (?:year|month|week|summer|winter)|on (?:the )?weekends?|for (?:fun|a living|work))\b.*$/,
      '',
    )
    .trim()
  const words = p.split(/\s+/).filter(Boolean)
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]
    if (i > 0 && (CUT_WORDS.has(w) || (/^[a-z]{3,}ly$/.test(w) && !LY_NOUNS.has(w)))) break
    if (i > 0 && PREPS.has(w)) {
      const prev = words[i - 1]
      const prevLemma = prev.endsWith('ing') ? lemmaOfGerund(prev) : prev
      if (!KEEP_PREP[prevLemma]?.includes(w)) break
    }
    out.push(w)
  }
  return out.join(' ').replace(/(?:\s*,|\s+(?:and|or|but|&))+\s*$/, '')
}

/** Splits "jazz, blues and rock" into items, keeping lexicon terms such as "rock and roll" whole. */
export function splitList(p: string): string[] {
  let t = p
  const kept: string[] = []
  for (const term of AND_TERMS) {
    if (t.includes(term)) {
      t = t.split(term).join(`\u0000${kept.length}\u0000`)
      kept.push(term)
    }
  }
  return t
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor|plus|&|as well as)\s+/)
    .map((x) => x.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)]).trim())
    .filter(Boolean)
}

export function stripFiller(s: string): string {
  let t = s.trim()
  for (let i = 0; i < 6; i++) {
    const n = t.replace(LEADING_FILLER, '')
    if (n === t) break
    t = n
  }
  return t
}

const isPlace = (s: string) => nlpHas(s, '#Place')

/** Classifies a bare noun phrase. */
export function classifyNoun(raw: string, fallback = 'other', fallbackWeight = 0.75): Item | undefined {
  // "(i love them like) i love coffee", "(mickey is my favorite and) i love going to disneyland": the thing after the verb
  let s = stripFiller(
    raw.trim().replace(/^i (?:(?:also|really|just|do|still) )?(?:love|like|enjoy|adore|play)\s+(?=\S)/, ''),
  ).replace(/\s+(?:though|too|also|anyway)$/, '')
  const mine = /^my\s+/.test(raw.trim())
  if (!s || GENERIC.has(s) || GENERIC.has(singular(s))) return undefined
  if (
    /^(?:i|it|that|this|them|those|these|you|him|her|me|us|not|no|never|nothing|what|how|when|where|why|who|which|there|here)\b/.test(
      s,
    )
  )
    return undefined
  // "(that i love) either", "(i like) almost everything", "(i love) both": function words, not things
  if (
    /^(?:(?:almost|nearly|just|pretty much) )?(?:either|neither|both|none|all|everything|anything|something|everybody|anybody|everyone|anyone)$/.test(
      s,
    )
  )
    return undefined
  if (/^[\d\s.,]+$/.test(s)) return undefined // "i read 1 every week": a count, not a thing
  // "(i eat) to much", "(i love) like humans", "(running) strengthens me": amounts, comparisons, clauses about oneself
  if (
    /^(?:(?:to|too|so) (?:much|many)|much|many|plenty|lots|like|as|than)\b/.test(s) ||
    /\s(?:me|myself|it|them|him|her|us)$/.test(s)
  )
    return undefined
  if (s.split(' ').length > 5) return undefined
  if (mine && !PET_WORDS.has(singular(s.split(' ').slice(-1)[0]))) return undefined
  // "jazz music" -> "jazz" when the first part is itself a genre
  const col = /^colou?r (\w+)$/.exec(s)
  if (col) return { category: 'other', value: col[1], weight: 1 }
  const m = /^(.+?) music$/.exec(s)
  if (m && CATEGORY_OF.get(m[1]) === 'music') s = m[1]
  const hit = lookup(s)
  if (hit) {
    const value = hit.category === 'pets' ? singular(s) : s
    return { category: hit.category, value: s.split(' ').length > 4 ? hit.term : value, weight: 1 }
  }
  if (isPlace(s)) return { category: 'travel', value: s, weight: 0.9 }
  const tags = s.includes(' ') ? [] : (termsOf(s)[0]?.tags ?? [])
  if ((tags.includes('Adjective') || tags.includes('Adverb')) && !tags.includes('Noun')) return undefined
  if (/^[a-z]+ing$/.test(s.split(' ')[0]) && s.split(' ').length <= 3)
    return { category: 'hobbies', value: s, weight: 0.8 }
  if (s.split(' ').length > 3) return undefined
  return { category: fallback, value: s, weight: fallbackWeight }
}

const NOT_GERUNDS = new Set([
  'thing',
  'something',
  'nothing',
  'everything',
  'anything',
  'king',
  'spring',
  'ring',
  'wedding',
  'evening',
  'morning',
  'clothing',
  'building',
  'pudding',
  'ceiling',
  'string',
  'sibling',
  'darling',
  'earring',
  'icing',
  'stuffing',
])

/** "playing guitar" -> ['play', 'guitar'] when the phrase starts with a real gerund. */
export function splitGerund(s: string): [string, string] | undefined {
  const g = /^([a-z]{2,}ing)\b\s*(.*)$/.exec(s)
  if (!g || NOT_GERUNDS.has(g[1]) || lookupExact(s)) return undefined
  return [lemmaOfGerund(g[1]), g[2]]
}

// Noun phrases of interests: cutting, list splitting, lexicon look-up and classification of bare nouns.
import { AND_TERMS, CATEGORY_OF, PET_WORDS, TITLE_KINDS } from './lexicon-interests.js'
import { placeAtStart } from './gazetteer.js'
import { nlpHas, termsOf } from './nlp.js'
import { lemmaOfGerund, singular, singulars } from './text.js'
import { pattern, dict } from './regex.js'

export interface Item {
  category: string
  value: string
  /** Multiplies the rule's confidence: 1 for a known term, lower for a guessed category. */
  weight: number
}

/** Objects that say nothing about the person's interests. */
export const GENERIC = new Set(
  `family kids kid children child son sons daughter daughters husband wife boyfriend girlfriend partner friends friend
  mom dad mother father parents parent brother brothers sister sisters siblings grandkids grandchildren grandma grandpa
  job work life it that this them those these things thing stuff everything anything something nothing you people myself
  lot much time one all him her me us everyone everybody idea way home fun them all there here day days night weather
  music_ it_all job_ school yourself what when how why too also so very really sure ones person guy girl man woman
  mine yours his hers ours theirs kind kinds type types sort sorts variety varieties`
    .split(/\s+/)
    .filter((w) => w && !w.endsWith('_')),
)

const CUT_WORDS = new Set(
  `so because since when whenever while if but although though than which who that where until unless whether lol haha
  too also anymore more most best either really very as every each once twice sometimes often always usually daily
  weekly nowadays today tonight now lately again instead yet already still just even only mostly mainly especially
  particularly like including except besides is are was were am be been tbh imo imho lmao ngl btw tho idk rn
  i you he she we they it here there myself related online nonstop non-stop want wants together`
    .split(/\s+/)
    .filter(Boolean),
)
const LY_NOUNS = new Set(
  (
    'family italy july jelly belly lily holly rally fly ugly silly curly bully assembly sally molly emily kelly ' +
    'billy dolly polly'
  ).split(' '),
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
/** Number words that may open a name after "the": "the three body problem", "the 39 steps". */
const NAME_NUMBER = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten)'
/** "the three body problem": the article and a number before a name of two words or more. */
const THE_NUMBERED_NAME = new RegExp(`^the ${NAME_NUMBER} \\S+ \\S`)
/** The article before such a number, which stripFiller keeps and classifyNoun drops. */
const THE_BEFORE_NUMBER = new RegExp(`^the (?=${NAME_NUMBER} )`)
const LEADING_FILLER = new RegExp(pattern`
  ^(?:(?:my|our|your) own|a|an|the|some|any|all|both|or|anything|everything|all things|things|to much|too much|
  so much|too many|so many|
  \d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|hundreds of|dozens of|a few|several|lots of|
  a lot of|alot of|plenty of|many|most|much|my|our|your|good|great|nice|real|really|very|delicious|awesome|amazing|cool|
  fun|fresh|new|little|big|huge|cheap|expensive|fancy|tasty|yummy|cute|beautiful|different|all kinds of|
  (?:kinds?|types?|sorts?) of|all types of|any kind of|all sorts of|various|other|pretty|quite|such|totally|
  absolutely|more|mostly|mainly)\s+`)
export const EXAMPLES = /\s+(?:especially|particularly|like|such as|mostly|mainly|including|even)\s+/

/** Containers and portions: "bars", "a bowl", "slices". */
const CONTAINER = new RegExp(pattern`
  ^(?:bars?|glass(?:es)?|cups?|bowls?|pieces?|slices?|bottles?|plates?|boxes?|bags?|packs?|cans?|mugs?|pints?|scoops?|
  sticks?|chips?|drinks?|dishes?)$`)

/** Category of a term from the lexicons (also tries singulars and, for phrases, their last words). */
export function lookup(term: string): { category: string; term: string } | undefined {
  const trimmed = term.trim()
  const exact = lookupExact(trimmed)
  if (exact) return { category: exact, term: trimmed }
  const words = trimmed.split(' ')
  for (let n = words.length - 1; n >= 1; n--) {
    const tail = words.slice(words.length - n).join(' ')
    const category = lookupExact(tail)
    if (category) return { category, term: tail }
  }
  // "chocolate bars", "a bowl of ramen" is caught above: the head is a container, the known word is the thing
  if (words.length <= 3 && CONTAINER.test(words[words.length - 1])) {
    for (let i = words.length - 2; i >= 0; i--) {
      if (/^(?:a|an|the|of|and|or|my|to|in|on|for|with)$/.test(words[i])) continue
      const category = lookupExact(words[i])
      if (category && category !== 'other') return { category, term: words[i] }
    }
  }
  return undefined
}

/** Category of exactly this term or its singular. */
export function lookupExact(term: string): string | undefined {
  const category = CATEGORY_OF.get(term)
  if (category) return category
  const words = term.split(' ')
  const head = words.pop() ?? ''
  for (const s of singulars(head)) {
    const category = CATEGORY_OF.get([...words, s].join(' '))
    if (category) return category
  }
  return undefined
}

/** How often or how much, and everything after it: "every day", "a lot", "in my free time". */
const FREQUENCY_TAIL = new RegExp(pattern`
  \b(?:(?:(?:\d+ ?x|(?:\d+|[a-z]+|a few|a couple(?: of)?) (?:times|days?|nights?|mornings?|evenings?|hours?)) )?
  (?:a|per|each|every|once a|twice a) (?:day|week|month|year|weekend)|
  a lot|lots|a bit|a little|so much|very much|
  as well|all day|all the time|these days|right now|at the moment|in my (?:free|spare|down) time|some ?day|one day|
  someday soon|in the future|eventually|soon|next (?:year|month|week|summer|winter)|on (?:the )?weekends?|
  (?:this|last|past) (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|
  all (?:week|weekend|night|month|summer|year)(?: long)?|
  for (?:fun|a living|work))\b.*$`)

/** How much of a thing, before it: "a lot of", "a bit of". */
const QUANTITY = new RegExp(
  pattern`\b(?:a lot of|lots of|plenty of|a bunch of|tons of|a ton of|loads of|all kinds of|all sorts of|a bit of|
  a little bit of|(?:a |an )?dozen|(?:a |an |one |two |some |another )?(?:glass|glasses|cup|cups|mug|mugs|bowl|bowls|
  plate|plates|slice|
  slices|piece|pieces|bottle|bottles|pint|pints|bag|bags|scoop|scoops|can|cans) of)\s+`,
  'g',
)

/** "and saw two tigers": a past verb after "and", which begins a verb phrase of its own. */
const PAST_VERB_AFTER_AND = new RegExp(pattern`\s+(?:and|but)\s+(?:then\s+)?(?:saw|went|got|took|had|did|made|ate|
  met|came|bought|found|left|ran|drove|flew|spent|stayed|visited|loved|enjoyed|walked|hiked|swam|tried)\b.*$`)

/** "(reading dune) and loving it": how the person finds the thing, after "and", which is no second thing. */
const VERDICT_AFTER_AND = new RegExp(pattern`\s+(?:and|but)\s+(?:(?:really|totally|absolutely|honestly|kinda|kind of)
  \s+)?(?:loving|enjoying|hating|liking|adoring|digging|living for)\b.*$`)

/**
 * Cuts an object phrase at the first word that ends it ("hiking with my dog on weekends" -> "hiking with"->"hiking").
 */
export function cutPhrase(phrase: string): string {
  const cleaned = phrase
    .replace(/[!?.;:"()]+/g, ' ')
    // "(reading) the three body problem, its wild": a remark on the thing after a comma is no second thing
    .replace(/\s*,\s*(?:it'?s|it is|it was|which is|which was|they are|they're|so good|so fun)\b.*$/, '')
    .replace(
      /\s+(?:due to|because of|thanks to|ever since|since|(?:almost |nearly |just )?as (?:much|many) as)\b.*$/,
      '',
    )
    // "(i like) the people and managers are really nice": the subject of a statement of its own after "and"
    .replace(/\s+(?:and|but)\s+(?:the\s+)?[a-z]+\s+(?:is|are|was|were)\b.*$/, '')
    // "(i have been to) the zoo and saw two tigers": a verb of its own after "and"
    .replace(PAST_VERB_AFTER_AND, '')
    .replace(VERDICT_AFTER_AND, '')
    .replace(QUANTITY, '')
    .replace(FREQUENCY_TAIL, '')
    // "(i like) the who the most", "(i can cook) soup well": how much or how well, after the thing
    .replace(/\s+(?:the (?:most|best)|(?:really |very |pretty |so )?well)\s*$/, '')
    .trim()
  const words = cleaned.split(/\s+/).filter(Boolean)
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    // "photography lately, mostly ...": a word is read without the comma after it
    const bare = word.replace(/,$/, '')
    const cut = CUT_WORDS.has(bare) || (/^[a-z]{3,}ly$/.test(bare) && !LY_NOUNS.has(bare))
    // "the who": a title the lexicons know, which a word that ends phrases completes ("listening to the who")
    if (i > 0 && cut && !lookupExact([...out, bare].join(' ')) && !lookupExact(`${out.at(-1)} ${bare}`)) break
    if (i > 0 && PREPS.has(word)) {
      const prev = words[i - 1]
      const prevLemma = prev.endsWith('ing') ? lemmaOfGerund(prev) : prev
      if (!KEEP_PREP[prevLemma]?.includes(word)) break
    }
    out.push(word)
  }
  return out.join(' ').replace(/(?:\s*,|\s+(?:and|or|but|&))+\s*$/, '')
}

/** Splits "jazz, blues and rock" into items, keeping lexicon terms such as "rock and roll" whole. */
export function splitList(phrase: string): string[] {
  let marked = phrase
  const kept: string[] = []
  for (const term of AND_TERMS) {
    if (marked.includes(term)) {
      marked = marked.split(term).join(`\u0000${kept.length}\u0000`)
      kept.push(term)
    }
  }
  return marked
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor|plus|&|as well as)\s+/)
    .map((x) => x.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => kept[Number(i)]).trim())
    .filter((item) => item && !LIST_END.test(item))
}
/** What ends a list without naming a thing: "raw veggies, grains, etc". */
const LIST_END = /^(?:etc|and so on|so on|and more|and stuff|stuff like that|the like|whatever)$/

export function stripFiller(phrase: string): string {
  let stripped = phrase.trim()
  for (let i = 0; i < 6; i++) {
    // the filler word may begin a place's name: "new york", "little rock"
    const place = placeAtStart(stripped, () => true)
    if (place?.includes(' ') && !place.startsWith('the ')) break
    // "the three body problem": a number after "the" and before a name of two words belongs to the name; kept with
    // its article, as a second pass would read the number alone as a quantity
    if (THE_NUMBERED_NAME.test(stripped)) break
    const next = stripped.replace(LEADING_FILLER, '')
    if (next === stripped) break
    stripped = next
  }
  return stripped
}

const isPlace = (s: string) => nlpHas(s, '#Place')

/** Genres named by a word of everyday use, which keep "music": "country music" is no country. */
const GENRES_OF_EVERYDAY_WORDS = new Set(['country', 'house', 'soul', 'folk', 'gospel', 'world', 'dance', 'christian'])

/** A phrase that starts with a pronoun, a negation or a question word is no thing. */
const FUNCTION_WORD_START = new RegExp(pattern`
  ^(?:i|it|that|this|them|those|these|you|him|her|me|us|not|no|never|nothing|what|how|when|where|why|who|which|there|
  here)\b`)
/** "either", "almost everything", "both": function words, not things. */
const QUANTIFIER_ONLY = new RegExp(pattern`
  ^(?:(?:almost|nearly|just|pretty much) )?(?:either|neither|both|none|all|everything|anything|something|everybody|
  anybody|everyone|anyone)$`)

/** "the movie tangled", "the band queen": a title (2) after its kind (1); not "the movie theater", "the book club". */
const TITLE_AFTER_KIND = new RegExp(pattern`^the (movie|film|show|tv show|series|book|novel|song|album|band|game|
  video game) (?!(?:night|nights|theaters?|theatres?|club|store|shop|practice|tunes|reviews?|industry|business|
  series|buff|lover|fan|version|adaptation|soundtrack|of|and|or|for|with|in|on|at|to|that|is|was|i|you|we)\b)
  ([a-z0-9][a-z0-9'&-]*(?: [a-z0-9'&-]+){0,3})$`)

/** "works of picasso", "music of bach": what is made (1), by whom (2). */
const WORKS_OF = /^(works|paintings|art|music|songs|films|movies|books|novels|poems|poetry) of ([a-z][a-z' -]{1,40})$/
const WORKS_KIND: Record<string, string> = {
  music: 'music',
  songs: 'music',
  films: 'movies_tv',
  movies: 'movies_tv',
  books: 'books',
  novels: 'books',
  poems: 'books',
  poetry: 'books',
}

/** Classifies a bare noun phrase. */
export function classifyNoun(raw: string, fallback = 'other', fallbackWeight = 0.75): Item | undefined {
  // "(i love them like) i love coffee", "(mickey is my favorite and) i love going to disneyland": the thing after the
  // verb
  let thing = stripFiller(
    raw.trim().replace(/^i (?:(?:also|really|just|do|still) )?(?:love|like|enjoy|adore|play)\s+(?=\S)/, ''),
  )
    .replace(/\s+(?:though|too|also|anyway)$/, '')
    // the article stripFiller kept before a name's number ("the three body problem")
    .replace(THE_BEFORE_NUMBER, '')
  // "(grow) my own vegetables": the person's own things, not a person of theirs
  const mine = /^my\s+(?!own\b)/.test(raw.trim())
  // "the office", "the doors", "the who": a title the lexicons know with its article, which the fillers would drop
  const article = /^the\s+(.+)$/.exec(raw.trim())
  const withArticle = article && !lookupExact(article[1]!) ? lookupExact(raw.trim()) : undefined
  if (withArticle) return { category: withArticle, value: raw.trim(), weight: 1 }
  // "the works of picasso", "the music of bach": the maker, of the kind the works are
  const works = WORKS_OF.exec(thing)
  if (works) return { category: WORKS_KIND[works[1]!] ?? 'other', value: works[2]!, weight: 0.85 }
  const titled = TITLE_AFTER_KIND.exec(raw.trim())
  // the kind says the category, whatever a lexicon calls the title ("the band queen", "the movie cars")
  if (titled) return { category: TITLE_KINDS[titled[1]!]!, value: titled[2]!, weight: lookup(titled[2]!) ? 1 : 0.9 }
  if (!thing || GENERIC.has(thing) || GENERIC.has(singular(thing))) return undefined
  if (FUNCTION_WORD_START.test(thing)) return undefined
  // "(that i love) either", "(i like) almost everything", "(i love) both": function words, not things
  if (QUANTIFIER_ONLY.test(thing)) return undefined
  if (/^[\d\s.,]+$/.test(thing)) return undefined // "i read 1 every week": a count, not a thing
  // "(i eat) to much", "(i love) like humans", "(running) strengthens me": amounts, comparisons, clauses about oneself
  if (
    /^(?:(?:to|too|so) (?:much|many)|much|many|plenty|lots|like|as|than)\b/.test(thing) ||
    /\s(?:me|myself|it|them|him|her|us)$/.test(thing)
  )
    return undefined
  if (thing.split(' ').length > 5) return undefined
  if (mine && !PET_WORDS.has(singular(thing.split(' ').slice(-1)[0]))) return undefined
  const col = /^colou?rs? (\w+)$/.exec(thing)
  if (col) return { category: 'other', value: col[1], weight: 1 }
  // "jazz music" -> "jazz" when the first part is itself a genre, and not a word of everyday use alone ("country")
  const match = /^(.+?) music$/.exec(thing)
  if (match && CATEGORY_OF.get(match[1]) === 'music' && !GENRES_OF_EVERYDAY_WORDS.has(match[1])) thing = match[1]
  const hit = lookup(thing)
  // "mickey mouse": a pet's word after a first name names a character of a cartoon, not a pet
  const character = hit?.category === 'pets' && thing !== hit.term && nlpHas(thing.split(' ')[0]!, '#FirstName')
  if (character) return { category: 'movies_tv', value: thing, weight: 1 }
  if (hit) {
    const value = hit.category === 'pets' ? singular(thing) : thing
    return { category: hit.category, value: thing.split(' ').length > 4 ? hit.term : value, weight: 1 }
  }
  if (isPlace(thing)) return { category: 'travel', value: thing, weight: 0.9 }
  const tags = thing.includes(' ') ? [] : (termsOf(thing)[0]?.tags ?? [])
  if ((tags.includes('Adjective') || tags.includes('Adverb')) && !tags.includes('Noun')) return undefined
  if (/^[a-z]+ing$/.test(thing.split(' ')[0]) && thing.split(' ').length <= 3)
    return { category: 'hobbies', value: thing, weight: 0.8 }
  if (thing.split(' ').length > 3) return undefined
  return { category: fallback, value: thing, weight: fallbackWeight }
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
export function splitGerund(phrase: string): [string, string] | undefined {
  const match = /^([a-z]{2,}ing)\b\s*(.*)$/.exec(phrase)
  if (!match || NOT_GERUNDS.has(match[1]) || lookupExact(phrase)) return undefined
  return [lemmaOfGerund(match[1]), match[2]]
}

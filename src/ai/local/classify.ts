// Turns the object of "I love ...", "I play ...", "my favorite X is ..." into short, categorised interest values.
import { CATEGORY_OF } from './lexicon-interests.js'
import { termsOf } from './nlp.js'
import {
  classifyNoun,
  cutPhrase,
  EXAMPLES,
  GENERIC,
  lookup,
  lookupExact,
  splitGerund,
  splitList,
  stripFiller,
  type Item,
} from './phrase.js'
import { baseOfThirdPerson, gerund as gerundOf } from './text.js'
import { BOOKS_ONLY, verbItems } from './verbs.js'

export { classifyNoun, cutPhrase, lookup, lookupExact, splitList, verbItems, type Item }

/** The category the lexicons give exactly this term (or its singular), when it is one of `kinds`. */
export function knownAs(term: string, kinds: readonly string[]): string | undefined {
  const category = lookupExact(term)
  return category && kinds.includes(category) ? category : undefined
}

function startsWithVerb(phrase: string): boolean {
  const terms = termsOf(phrase)
  const tags = terms[0]?.tags ?? []
  if (
    !tags.includes('Verb') ||
    tags.includes('Noun') ||
    tags.includes('Gerund') ||
    tags.includes('Auxiliary') ||
    tags.includes('Copula')
  )
    return false
  // "frozen the movie", "liked it": a participle or past form names no activity; nor does "like humans" (a comparison)
  if (tags.includes('PastTense') || tags.includes('Participle') || /^(?:like|likes)$/.test(terms[0]!.text)) return false
  // "strengthens me", "thrill seeking": a pronoun object, or an -ing word next, makes no activity of the verb
  const next = terms[1]
  return (
    !next ||
    !(
      /^(?:me|it|them|him|her|us|you|myself|this|that)$/.test(next.text) ||
      next.tags.includes('Gerund') ||
      /ing$/.test(next.text)
    )
  )
}

/** Verbs the interest rules know what to do with ("play" + "softball" -> sports). */
const KNOWN_VERBS = new Set(
  `play listen watch read eat drink taste cook bake grill go visit travel explore tour collect do practice learn study
  make take spend hike swim surf ski dance sing run jog fish hunt camp bike cycle climb skate golf bowl paint draw knit
  sew write garden ride walk volunteer meditate sail row dive shop`.split(/\s+/),
)

const isBareVerb = (word: string) => {
  if (KNOWN_VERBS.has(word)) return true
  if (GENERIC.has(word) || CATEGORY_OF.has(word)) return false
  const tags = termsOf(word)[0]?.tags ?? []
  return tags.includes('Infinitive') && !tags.includes('Plural') && !tags.includes('Noun')
}

/** The verb of a pastime of two words, said after its noun: "rock climb", "line dance", "scuba dive". */
const SECOND_OF_COMPOUND = /^(?:climb|dance|skate|dive|watch|fish|surf|ski|jump|board|ride|hunt|sail)$/

/** A pastime the lexicons know as two words or one: "rock climbing", "sky diving" (as "skydiving"). */
function knownCompound(noun: string, verbing: string): Item | undefined {
  for (const value of [`${noun} ${verbing}`, `${noun}${verbing}`]) {
    const category = lookupExact(value)
    if (category && category !== 'other') return { category, value, weight: 1 }
  }
  return undefined
}

/** Everything the object of a "like" verb says: "to hike and swim", "jazz, especially bebop", "playing guitar". */
/** "(i love) to eat", "(i love my dogs and) eating": eating itself, liked, with nothing said of what. */
function eatingAlone(verb: string, rest: string): Item[] | undefined {
  return verb === 'eat' && !rest.trim() ? [{ category: 'hobbies', value: 'eating', weight: 0.9 }] : undefined
}

export function interpretObject(phrase: string, verbHint?: string): Item[] {
  const [main, ...examples] = phrase.split(EXAMPLES)
  const out: Item[] = []
  let verb = verbHint
  let infinitive = false
  // the item before was a verb alone ("to garden"): a next item that can be a verb is one ("and fish")
  let verbAlone = false
  for (const raw of splitList(cutPhrase(main))) {
    const inf = /^to\s+([a-z]+)\s*(.*)$/.exec(raw.trim())
    if (inf) {
      infinitive = true
      verbAlone = !inf[2]
      verb = inf[1]
      // "to rock climb", "to scuba dive": a known pastime of a noun and a verb, not "rocking" something
      const compound = SECOND_OF_COMPOUND.test(inf[2]!) ? knownCompound(verb!, gerundOf(inf[2]!)) : undefined
      out.push(...(compound ? [compound] : (eatingAlone(verb!, inf[2]!) ?? verbItems(verb, inf[2]))))
      continue
    }
    const stripped = stripFiller(raw)
    // "(i am addicted to the internet and) love roleplaying games": what the second verb of liking names
    const liked = /^(?:love|loves|like|likes|enjoy|enjoys|adore|adores)\s+(.+)$/.exec(stripped)
    if (liked) {
      out.push(...interpretObject(liked[1]!))
      continue
    }
    const gerund = splitGerund(stripped)
    if (gerund) {
      verb = gerund[0]
      out.push(...(eatingAlone(gerund[0], gerund[1]) ?? verbItems(gerund[0], gerund[1])))
      continue
    }
    const first = stripped.split(' ')[0]
    if (GENERIC.has(stripped)) continue
    if (
      (infinitive || !stripped.includes(' ') || KNOWN_VERBS.has(first)) &&
      isBareVerb(first) &&
      (!lookupExact(stripped) || (verbAlone && stripped === first))
    ) {
      verb = first
      out.push(...verbItems(first, stripped.slice(first.length)))
      continue
    }
    if (verb === 'read' && BOOKS_ONLY.test(stripped)) {
      out.push({ category: 'books', value: 'reading', weight: 1 })
      continue
    }
    // "(i play) in a band", "(i read) about horchata": the verb says what a preposition's object is to the person
    if (verb && (!lookup(stripped) || /^(?:in|with|about|for)\s/.test(stripped))) {
      out.push(...verbItems(verb, stripped))
      continue
    }
    // "(i love jazz and) play the piano": a coordinated verb phrase
    if (
      !lookupExact(stripped) &&
      stripped.includes(' ') &&
      !/^(?:a|an|the|some|my|your)\s/.test(raw.trim()) &&
      startsWithVerb(stripped)
    ) {
      verb = baseOfThirdPerson(first)
      out.push(...verbItems(verb, stripped.slice(first.length).trim()))
      continue
    }
    const noun = classifyNoun(raw)
    if (noun) out.push(noun)
  }
  for (const ex of examples) {
    for (const raw of splitList(cutPhrase(ex))) {
      const noun = classifyNoun(raw)
      if (noun && noun.category !== 'other') out.push(noun)
    }
  }
  return out
}

// The people in a person's life, from how they name them: "my sister went there" says the person has a sister, "our
// kids" that they have children. A reader of a chat takes these in passing, and an assistant asks after them. Each
// becomes an undated low-importance memory ("has a sister", "has two sons"), weaker than a fact said outright, and only
// when no other memory already names that relative ("their sister lives in Oslo" says it). Parents and grandparents
// are left out: everyone has them. So are former and late relatives ("my ex-wife", "my late husband").
import { PET_WORDS } from './lexicon-interests.js'
import type { RuleContext } from './rules-common.js'
import { pattern } from './regex.js'
import { singular } from './text.js'
import type { Span } from './trace.js'

/** Inferred from a passing mention: below a standing fact said outright (0.55). */
const CONFIDENCE = 0.5

/** Relatives whose mention says something of the person's life, singular -> plural. */
const KIN: Record<string, string> = {
  wife: 'wives',
  husband: 'husbands',
  girlfriend: 'girlfriends',
  boyfriend: 'boyfriends',
  fiance: 'fiances',
  fiancee: 'fiancees',
  partner: 'partners',
  son: 'sons',
  daughter: 'daughters',
  kid: 'kids',
  kiddo: 'kiddos',
  child: 'children',
  twin: 'twins',
  newborn: 'newborns',
  toddler: 'toddlers',
  teenager: 'teenagers',
  stepson: 'stepsons',
  stepdaughter: 'stepdaughters',
  grandson: 'grandsons',
  granddaughter: 'granddaughters',
  grandchild: 'grandchildren',
  grandkid: 'grandkids',
  brother: 'brothers',
  sister: 'sisters',
  sibling: 'siblings',
  niece: 'nieces',
  nephew: 'nephews',
  cousin: 'cousins',
}
const SINGULAR = new Map(Object.entries(KIN).flatMap(([one, many]) => [[one, one] as const, [many, one] as const]))
/** Children are the person's when "our" or "we have" names them ("our kids"); a sibling or a spouse is not. */
const CHILDREN = new Set(
  'son daughter kid kiddo child twin newborn toddler teenager stepson stepdaughter grandson granddaughter'.split(' '),
)

const NOUNS = [...SINGULAR.keys()].sort((a, b) => b.length - a.length).join('|')
const COUNTS = pattern`two|three|four|five|six|2|3|4|5|6`
/** Words between "my" and the relative that the memory keeps. */
const KEPT = pattern`older|younger|big|little|baby|twin|step|adult|grown|teenage|teen`
/** Words of fondness before a relative, left out of the memory: "my awesome grandchildren". */
const FOND = pattern`awesome|amazing|wonderful|beautiful|lovely|sweet|adorable|cute|precious|crazy|wild|dear|darling`

/**
 * "my sister", "my two older brothers", "our kids", "we have three kids", "we have a newborn": 1 whose, 2 a count, 3
 * the kept words, 4 the noun. Not "my ex-wife", "my late husband", "my sister in law", "my friend's son" (the
 * friend's), "my son's friend" (the friend).
 */
const MENTION = new RegExp(
  `\\b(my|our|we have) (?:(?<=have )(?:a|an) )?(?:(${COUNTS}) )?(?:(?:${FOND}) )?((?:(?:${KEPT}) )*)` +
    '(?:(?:oldest|youngest|eldest|only|new|first|second|third|fourth|fifth) )?' +
    `(${NOUNS})\\b(?!-| in law|'s? (?:ex|late)\\b)`,
  'g',
)

/** What the person's own words say of the people in their life, read from one clause. */
export interface KinMention {
  /** The memory's words: "a sister", "two older brothers", "kids". */
  phrase: string
  /** The singular noun, to tell whether another memory names them. */
  noun: string
  span: Span
}

/** What a relative is said to own, right after "my sisters" when the apostrophe is left out. */
const POSSESSED = new Set(
  `car house home place room friend friends husband wife boyfriend girlfriend kid kids son daughter birthday wedding
  job`.split(/\s+/),
)

/** Words that may follow a child the household has ("we have a toddler and a dog"), where a noun would go on. */
const AFTER_CHILD_HAD = new Set('and but so who named called with now too already together at in on that'.split(' '))

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a')

/** A clause of a loss or a parting: "my wife left me", "i lost my husband" says no one is there now. */
const GONE = new RegExp(pattern`\b(?:left me|left us|divorced?|divorcing|separated|passed away|passed on|died|dead|lost|
  funeral|miss|missed|killed|buried|estranged|broke up)\b`)

/** The relatives one clause of the person's own mentions. */
export function kinMentions(text: string): KinMention[] {
  const found: KinMention[] = []
  if (GONE.test(text)) return found
  for (const match of text.matchAll(MENTION)) {
    const [said, whose, count, kept, written] = match
    const noun = SINGULAR.get(written!)!
    if (whose !== 'my' && !CHILDREN.has(noun)) continue
    const before = text.slice(Math.max(0, match.index - 8), match.index)
    if (/\b(?:ex|late|former)[ -]?$/.test(before)) continue
    // "my sisters cat", "my brothers car": a possessive without its apostrophe, naming the relative's thing
    const next = /^ ([a-z]+)/.exec(text.slice(match.index + said!.length))?.[1]
    if (written !== noun && next && (PET_WORDS.has(singular(next)) || POSSESSED.has(next))) continue
    // "we have a child advocacy group": a noun after the child's says what the household has
    if (whose === 'we have' && next && !AFTER_CHILD_HAD.has(next)) continue
    const plural = count !== undefined || written !== noun
    const words = `${kept ?? ''}${plural ? KIN[noun] : noun}`
    const phrase = count ? `${count} ${words}` : plural ? words : `${article(words)} ${words}`
    found.push({ phrase, noun, span: said })
  }
  return found
}

/**
 * The relatives mentioned, as memories, when no memory of the extraction names them yet: "has a sister", unless
 * "their sister lives in Oslo" (or "has two sisters") is already there. One memory a relative, the first mention's.
 */
export function addKin(mentions: readonly KinMention[], memories: readonly string[], ctx: RuleContext): void {
  const named = (noun: string) => memories.some((event) => new RegExp(`\\b(?:${noun}|${KIN[noun]})\\b`).test(event))
  const seen = new Set<string>()
  for (const mention of mentions) {
    if (seen.has(mention.noun) || named(mention.noun)) continue
    seen.add(mention.noun)
    const event = `has ${mention.phrase}`
    ctx.acc.addMemory({ event, importance: 'low', confidence: CONFIDENCE }, 'memory.kin', mention.span)
  }
}

// Statements: what the person says of themselves in a plain first-person clause that no other rule read. "I do stunt
// work", "I am pursuing my spirituality full time", "I have been to Carnegie Hall": a reader of a chat takes each as a
// fact, though no field holds it and no vocabulary names it. Each becomes an undated low-importance memory in the
// third person ("does stunt work"). Read last, from the shape of the clause alone, and only when nothing else was
// taken from it: a clause that gave an interest, a job or a memory says no more here.
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { ADV } from './rules-common.js'
import { isVerbAfterI, lexiconTag, termsOf } from './nlp.js'
import { pattern } from './regex.js'
import { factPhrase, NOT_HAD, thirdPerson } from './standing.js'
import { PET_WORDS } from './lexicon-interests.js'
import { PEOPLE_NOUNS } from './others.js'
import { singular } from './text.js'
import { ownWordsInThirdPerson } from './third-person.js'

/** Below the standing facts' 0.55: the verb is any verb, not one of a list. */
const CONFIDENCE = 0.45

/**
 * Verbs after "i" that tell of the talk or a passing thought, not of a life ("i think so", "i agree", "i see"), or
 * that other rules read and left out on purpose (likes, wishes, needs).
 */
const NOT_STATEMENT = new Set(
  `think guess know mean agree bet suppose understand believe wonder hope wish feel see hear say tell ask need want
  love like enjoy hate adore prefer dislike remember forget imagine doubt appreciate care promise apologize thank
  recommend suggest figure realize realise notice try let laugh mind cry get got would could should will can may
  might must shall am was were have had did be been call assume expect reckon trust admit swear meant find
  totally read born use used sure kind happen speak`.split(/\s+/),
)

/** "i do stunt work", "i take naps to relieve stress": 1 the verb, 2 what follows it. */
const PRESENT = new RegExp(`^i ${ADV}([a-z]+) (.+)$`)
/** "i do stunt work" or "i do race my bike": "do" and what follows (1), where "do" may be the verb. */
const DO = new RegExp(`^i ${ADV}do (.+)$`)

/**
 * The verb and what follows when "do" is the verb ("i do stunt work"), not the one that stresses the next ("i do race
 * my bike"): the words are tagged in their clause, where compromise tells the two apart.
 */
function doneAsVerb(text: string): [string, string] | undefined {
  const done = DO.exec(text)
  if (!done) return undefined
  const head = text.split(' ').slice(0, 8).join(' ')
  const tags = termsOf(head).find((term) => term.text === 'do')?.tags ?? []
  return tags.includes('Auxiliary') ? undefined : ['do', done[1]!]
}

/**
 * "i am pursuing my spirituality full time": 1 the verb in -ing, 2 what follows. Not a plan, a thought of the moment
 * or the talk itself ("i am going to", "i am thinking", "i am doing well").
 */
const UNDER_WAY = new RegExp(`^i am ${ADV}([a-z]+ing) (.+)$`)
const NOT_UNDER_WAY = new Set(
  `going thinking wondering trying hoping kidding joking talking asking saying telling feeling waiting guessing
  meaning getting having doing sitting being dying loving liking hating wishing missing
  planning considering`.split(/\s+/),
)
/**
 * What one does for a moment rather than in a life: "i am opening a jar", "i am moving the couch". A job, a move or a
 * business under way ("opening a restaurant") is the under-way rule's, read before this one.
 */
const MOMENT_UNDER_WAY = new Set(
  `moving opening eating drinking holding carrying typing texting grabbing heading leaving relaxing chilling lying
  laying standing sipping petting folding putting packing unpacking wearing washing cleaning`.split(/\s+/),
)

/**
 * "i have been to carnegie hall", "i have always loved fruits", "i have played tetris": 1 the adverbs, kept
 * ("has always loved"), 2 the verb, 3 the rest.
 */
const PERFECT = new RegExp(`^i have (${ADV})(been to|been|[a-z]+ed) (.+)$`)
/** Participles of the talk or of what others said: "i have heard", "i have noticed". */
const NOT_PERFECT =
  /^(?:heard|noticed|realized|realised|wondered|asked|talked|decided|tried|wanted|needed|used|agreed)$/

/** "i was raised around water", "i was in somalia until ...": 1 how, 2 the rest. */
const PAST_STATE = new RegExp(`^i was ${ADV}(in|raised|adopted|homeschooled|brought up|part of) (.+)$`)
/** "i was poor growing up", "i was a bit of a nerd in high school": 1 what the person was, 2 when in their life. */
const EARLIER_LIFE = new RegExp(pattern`^i was ${ADV}((?:[a-z'-]+ ){0,4}[a-z'-]+) (growing up|as a (?:kid|child|teen|
  teenager|boy|girl)|in (?:high school|middle school|grade school|elementary school|college|
  my (?:teens|twenties|20s)))\b`)
/** What one is in as a member or went through: "a band", "an accident", "the army". */
const BELONGED = /^(?:a|an|the (?:army|navy|marines|military|air force|coast guard|peace corps|war|service))\b/
/** Where one is for a moment: "i was in the shower", "i was in a hurry". */
const MOMENT = new RegExp(pattern`^(?:a hurry|the shower|bed|the middle|trouble|love|shock|tears|
  (?:a |an |the )?(?:[a-z]+ )?mood|a rush|a meeting|class)\b`)

/**
 * "i will be moving to ohio": 1 the verb, 2 the rest. "i will bring my music" is left out: said in a chat, a plain
 * "will" is most often a promise to the other speaker, not a plan of a life.
 */
const FUTURE = new RegExp(`^i will ${ADV}be ([a-z]+ing) (.+)$`)

/** Words before "i" or "my" that open a statement without changing it: "sometimes i", "and now i", "but my". */
const LEAD = new RegExp(pattern`^(?:(?:sometimes|usually|often|mostly|now|also|and|but|so|well|yeah|yes|honestly|
  actually|lately|then|plus|anyway|haha|lol|oh|ok|okay|right now|these days|nowadays) )+(i|my) `)

/** "i try to be thrifty", "i try to walk three miles a day": 1 the verb, 2 the rest. */
const TRIES = new RegExp(`^i ${ADV}try to ${ADV}([a-z]+) (.+)$`)

/** "i had two roommates in college": 1 what was had. Not "had to", nor a passing thing ("i had a great time"). */
const HAD = new RegExp(`^i ${ADV}had (?!to\\b)(.+)$`)

/** "i have to give up chocolate", "i have got to stay in shape": 1 the verb, 2 the rest. */
const OBLIGED = new RegExp(`^i (?:have|have got|got) to ${ADV}([a-z]+) (.+)$`)

/** "i do not own a tv": 1 the verb, 2 the rest. */
const NOT_DONE = new RegExp(`^i do not ${ADV}([a-z]+) (.+)$`)

/**
 * "my natural hair color is blond", "my favorite food was cheeseburgers": 1 what of the person's it is said of, 2 the
 * copula, 3 what is said. People and pets are the family facts' (standing.ts), read before this.
 */
const OWN_THING = new RegExp(`^my ((?:[a-z'-]+ ){0,2}[a-z'-]+) (is|was|are|were) ${ADV}(.+)$`)
/**
 * What of the person's says nothing of them when described: the talk itself ("my guess is", "my point was"), a
 * moment ("my day was long", "my phone is dead"), or a word that only says where the rest is ("my place is").
 */
const NOT_OWN_THING = new RegExp(pattern`\b(?:bad|guess|point|question|answer|pleasure|thoughts?|opinion|advice|
  turn|day|week|weekend|morning|afternoon|evening|night|year|month|time|phone|battery|internet|wifi|computer|laptop|
  coffee|lunch|dinner|breakfast|food|meal|head|place|problem|issue|thing|things|stuff|concern|fault|excuse|
  response|reply|plan|plans|mind|mood|life|experience|name|names|age)$`)
/** What makes any thing a lasting fact: "my favorite food was", "my dream job is", "my natural hair color is". */
const LASTING = /^(?:all[- ]time )?(?:favou?rite|fave|dream|natural|biggest|worst|best|least favou?rite|first) /
/** A copula that opens a clause of its own, or points: "my goal is to ...", "my point is that", "mine is here". */
const NOT_OWN_SAID = /^(?:to|that|what|where|why|how|over|here|there|like|so|too|not|named|called)\b/

/** What follows a verb when the clause is about the talk or a moment: "i am doing well", "i have been good". */
const NOT_SAID = new RegExp(pattern`^(?:well|good|great|fine|ok|okay|alright|better|worse|awesome|amazing|pretty|so|
  not|the same|nothing|anything|something|everything|that|this|it|there|here|too|very|really|just|a bit|about|
  busy$|lucky$|thinking|wondering|is|are|was|were|am|doing (?:ok|okay|well|good|great|fine|alright|better|much|
  nothing|anything|that|this|it))\b`)

/** What follows "do" when it does no thing: a verb it stresses, or where and how. */
const NOT_DONE_THING = /^(?:in|as|on|at|for|with|so|too|care|not|it|that|this|what|whatever|well|good|better|fine)\b/

/** Words that point at something said elsewhere: a statement is read away from its conversation. */
const POINTING = /\b(?:it|its|them|him|her|he|she|they|this|that|these|those|there|one|ones|his|hers|theirs)\b/

/** What follows the verb, up to where the fact ends, when it points at nothing said elsewhere. */
function statedPhrase(rest: string): string | undefined {
  // a space first: a clause word right after the verb ends the fact there ("i am training right now")
  const phrase = factPhrase(` ${rest}`)
  return phrase && !POINTING.test(phrase) ? phrase : undefined
}

/** Whether `verb` is a verb in the present where the clause says it ("i race my bike"; not "i liked", "i gizmos"). */
function presentVerb(text: string, verb: string): boolean {
  if (!isVerbAfterI(verb)) return false
  const head = text.split(' ').slice(0, 8).join(' ')
  const tags = termsOf(head).find((term) => term.text === verb)?.tags ?? []
  // "i lives", "i has": a verb already in the third person is a slip, and its form is no guide
  return tags.includes('Infinitive') && !tags.includes('PastTense') && !tags.includes('Noun')
}

function add(ctx: RuleContext, event: string, span: RegExpExecArray): void {
  const text = ctx.cases.restore(ownWordsInThirdPerson(event))
  ctx.acc.addMemory({ event: text, importance: 'low', confidence: CONFIDENCE }, 'memory.statement', span)
}

/** A form of statement: its pattern, and the event it reads from a match (undefined when it reads none). */
interface Form {
  pattern: RegExp
  read: (match: RegExpExecArray, clause: ClauseInfo) => string | undefined
}

/** "i have been to carnegie hall" -> "has been to Carnegie Hall". */
function readPerfect([, adverbs, verb, rest]: RegExpExecArray): string | undefined {
  const phrase = NOT_PERFECT.test(verb!) || NOT_SAID.test(rest!) ? undefined : statedPhrase(rest!)
  return phrase && `has ${adverbs}${verb} ${phrase}`
}

/** "i am serving time for shoplifting" -> "is serving time for shoplifting". */
function readUnderWay([, verb, rest]: RegExpExecArray): string | undefined {
  // "i am looking for a watch" is a search under way; "i am looking forward to it" is not
  const looking = verb === 'looking' && !/^(?:for|into) /.test(rest!)
  // "i am starting a band" is begun; "i am starting to feel better", "starting my day" are not
  const begun = verb !== 'starting' || !/^(?:to|out|off|over|on|my day|the day|our day)\b/.test(rest!)
  const left = looking || !begun || NOT_UNDER_WAY.has(verb!) || MOMENT_UNDER_WAY.has(verb!) || NOT_SAID.test(rest!)
  const phrase = left ? undefined : statedPhrase(rest!)
  return phrase && `is ${verb} ${phrase}`
}

/**
 * "i was raised around water" -> "was raised around water". "in" only with what one belongs to or went through ("i
 * was in a band", "i was in the navy"), not a moment ("i was in the shower") nor a stay, kept by the stays rule when
 * dated ("i was in paris", "i was in the hospital last year").
 */
function readPastState([, how, rest]: RegExpExecArray): string | undefined {
  if (how === 'in' && (MOMENT.test(rest!) || !BELONGED.test(rest!))) return undefined
  return NOT_SAID.test(rest!) ? undefined : withPhrase(`was ${how}`, rest!)
}

/** "i was poor growing up" -> "was poor growing up". */
function readEarlierLife([, was, when]: RegExpExecArray): string | undefined {
  if (NOT_SAID.test(was!) || /^(?:in|at|on|with|to|there|here)\b/.test(was!)) return undefined
  return withPhrase('was', `${was} ${when}`)
}

/** "i will be travelling to paris soon" -> "will be travelling to Paris soon". */
function readFuture([, going, rest]: RegExpExecArray): string | undefined {
  return NOT_UNDER_WAY.has(going!) || NOT_SAID.test(rest!) ? undefined : withPhrase(`will be ${going}`, rest!)
}

/** "i have to give up chocolate" -> "has to give up chocolate"; not the talk's "i have to say". */
function readObliged(match: RegExpExecArray, clause: ClauseInfo): string | undefined {
  const [, verb, rest] = match
  if (NOT_STATEMENT.has(verb!) || !presentVerb(clause.text, verb!) || NOT_SAID.test(rest!)) return undefined
  return withPhrase(`has to ${verb}`, rest!)
}

/** "i try to be thrifty" -> "tries to be thrifty". */
function readTries(match: RegExpExecArray, clause: ClauseInfo): string | undefined {
  const [, verb, rest] = match
  const verbOk = verb === 'be' || (!NOT_STATEMENT.has(verb!) && presentVerb(clause.text, verb!))
  return verbOk && !NOT_SAID.test(rest!) ? withPhrase(`tries to ${verb}`, rest!) : undefined
}

/** "i had two roommates in college" -> "had two roommates in college". */
function readHad([, rest]: RegExpExecArray): string | undefined {
  return NOT_HAD.test(rest!) || NOT_SAID.test(rest!) ? undefined : withPhrase('had', rest!)
}

/** "i do not own a tv" -> "does not own a tv". */
function readNotDone(match: RegExpExecArray, clause: ClauseInfo): string | undefined {
  const [, verb, rest] = match
  if (NOT_STATEMENT.has(verb!) || !presentVerb(clause.text, verb!) || NOT_SAID.test(rest!)) return undefined
  return withPhrase(`does not ${verb}`, rest!)
}

/** "i do stunt work", "i do race my bike", "i take naps to relieve stress", in the third person. */
function readPresent(match: RegExpExecArray, clause: ClauseInfo): string | undefined {
  const [verb, rest] = doneAsVerb(clause.text) ?? [match[1]!, match[2]!]
  // "i do care", "i do in my spare time": "do" with no thing done
  if (verb === 'do' && NOT_DONE_THING.test(rest)) return undefined
  // "i spray painted my hair": a verb run into a past participle is a compound in the past, no present
  if (/^[a-z]+ed\b/.test(rest)) return undefined
  if (NOT_STATEMENT.has(verb) || !presentVerb(clause.text, verb) || NOT_SAID.test(rest)) return undefined
  // "i watch dramas and war documentaries": a verb given back its subject may be a noun of a list, so it must be one
  // the lexicon knows as a verb first
  if (clause.elided && lexiconTag(verb) !== 'Infinitive') return undefined
  return withPhrase(thirdPerson(verb), rest)
}

/** Whether the words name someone, a pet or what is someone's ("my ex", "my dogs", "my mom's arthritis"). */
function namesSomeone(thing: string): boolean {
  const head = singular(thing.split(' ').at(-1)!)
  return /'s?\b/.test(thing) || head === 'ex' || Object.hasOwn(PEOPLE_NOUNS, head) || PET_WORDS.has(head)
}

/**
 * "my natural hair color is blond" -> "their natural hair color is blond". A lone word after the copula describes a
 * moment ("my test is hard", "my room is clean") unless what it describes lasts ("my favorite color was blue").
 */
function readOwnThing([, thing, copula, rest]: RegExpExecArray): string | undefined {
  const lasting = LASTING.test(thing!)
  if ((NOT_OWN_THING.test(thing!) && !lasting) || namesSomeone(thing!)) return undefined
  if (NOT_OWN_SAID.test(rest!) || NOT_SAID.test(rest!)) return undefined
  const phrase = statedPhrase(rest!)
  if (!phrase || (!lasting && !phrase.includes(' '))) return undefined
  return `their ${thing} ${copula} ${phrase}`
}

const withPhrase = (head: string, rest: string): string | undefined => {
  const phrase = statedPhrase(rest)
  return phrase && `${head} ${phrase}`
}

/** The forms, in the order they are tried: the first whose pattern matches reads the clause, or nothing does. */
const FORMS: Form[] = [
  { pattern: PERFECT, read: readPerfect },
  { pattern: UNDER_WAY, read: readUnderWay },
  { pattern: PAST_STATE, read: readPastState },
  { pattern: EARLIER_LIFE, read: readEarlierLife },
  { pattern: FUTURE, read: readFuture },
  { pattern: OBLIGED, read: readObliged },
  { pattern: TRIES, read: readTries },
  { pattern: HAD, read: readHad },
  { pattern: NOT_DONE, read: readNotDone },
  { pattern: PRESENT, read: readPresent },
  { pattern: OWN_THING, read: readOwnThing },
]

/** A first-person statement no other rule read, as a memory in the third person. */
export function ruleStatement(said: ClauseInfo, ctx: RuleContext): void {
  if (said.question || said.hedged || said.joined || said.desire) return
  // "sometimes i punch the clock": the words before "i" say when or how, and the statement is what follows
  const clause = { ...said, text: said.text.replace(LEAD, '$1 ') }
  for (const form of FORMS) {
    const match = form.pattern.exec(clause.text)
    if (!match) continue
    // "not" is read only by the form that says it
    if (clause.negated && form.pattern !== NOT_DONE) return
    const event = form.read(match, clause)
    if (event) add(ctx, event, match)
    return
  }
}

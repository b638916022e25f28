// What every rule receives, and the regex fragments they share.
import type { ProfileContent } from '../../domain/profile.js'
import type { Acc } from './acc.js'
import type { CaseMap, Clause } from './text.js'
import { pattern } from './regex.js'

export interface RuleContext {
  acc: Acc
  cases: CaseMap
  /** The profile before this submission (to recognise negations of existing interests). */
  profile?: ProfileContent
  /** "Now" for relative dates ("last year"). */
  referenceDate: Date
}

/** One clause with what the rules need to know about it. */
export interface ClauseInfo extends Clause {
  /** Modal hedge ("maybe", "might", "if"): the clause asserts nothing firm. */
  hedged: boolean
  /**
   * Wish or plan ("I want to learn piano", "I am going to start piano"): weak evidence of an interest, an aspiration
   * at most for the occupation, nothing else.
   */
  desire: boolean
  /** Contains a negation word. */
  negated: boolean
}

export { ADV, ADVERB_WORD } from './adverbs.js'

const HEDGE_RE = new RegExp(pattern`
  \b(?:might|maybe|perhaps|possibly|probably|not sure|unsure|wonder|wondering|if|whether|i may|supposedly|i guess|
  i suppose|could be|would be|should i|i doubt)\b`)
const DESIRE_RE = new RegExp(pattern`
  \b(?:want to|wanted to|wanting to|would like to|would love to|hope to|hoping to|plan to|planning to|planning on|
  dream of|dreaming of|dream is to|wish i|wish to|thinking about|thinking of|considering|someday|some day|one day|
  going to try|would like|aspire|aspiring|trying to get into|want a|wants? to be|
  (?:am|are) (?:going|about) to (?:start|begin|try|take up|learn|get into|be|become|study|major in|move|apply|retire|
  finish|graduate|get married|get engaged|marry|elope|relocate|go back to|adopt|open|launch|
  buy (?:a|our|my) (?:first )?(?:house|home|condo|apartment|car))|
  will (?:start|begin|take up|learn|get into|become))\b`)
const NEGATION_RE = /\b(?:not|never|no longer|no|none|neither|nor|nothing|without|hardly|barely|stopped|quit|gave up)\b/
/**
 * Where a clause's main statement ends: a "no" or a "maybe" after it is another statement's ("i raise my own food, no
 * pool", "i am working on a robot, maybe i can make her one") or a condition's ("i tend the fields when i do not
 * ride"). A thing the person is without says what they are, not that they are not ("i am single with no kids").
 */
const MAIN_END = /,|\s(?:when|whenever|while|until|unless|if|so|with no|without)\s/

/** A clause up to where its main statement ends (MAIN_END), or all of it. */
function mainStatement(text: string): string {
  const end = text.search(MAIN_END)
  return end > 0 ? text.slice(0, end) : text
}

/** "no i live in ohio", "nope, i am a nurse": an answer's "no" before "i", which negates nothing said after it. */
const ANSWER_NO = /^(?:no|nope|nah|naw|not really|no way)\s+(?=i\b)/

export function describe(clause: Clause): ClauseInfo {
  const main = mainStatement(clause.text).replace(ANSWER_NO, '')
  return {
    ...clause,
    hedged: HEDGE_RE.test(main),
    desire: DESIRE_RE.test(main),
    negated: NEGATION_RE.test(main),
  }
}

/** Words that end a noun phrase taken after a verb ("new york and i love it" -> "new york"). */
export const PHRASE_END = new RegExp(pattern`
  \s*(?:,|;|\.|!|\?|\s(?:and|but|or|so|because|since|when|where|while|which|who|that|with|for|until|though|although|as|
  now|nowadays|currently|yet|too|also|anymore|ago|lol|haha|though|if|than|whenever|then|btw|tbh|fyi|imo|lmao)\b).*$`)

/** Words a chat opens with before the person gives their name: "hi", "good, i am nancy", "hey girl, kim here". */
export const GREETING = pattern`(?:(?:hi|hello|hey|greetings|good|well|oh|yes|yeah|ok|okay|girl|guys|everyone|friend)
  (?: there| all| everyone| girl| guys)?)`
/** Titles said before a name: "coach danny here", "chef larry here". */
export const TITLES = 'coach|chef|doctor|dr|nurse|officer|pastor|professor|captain|sergeant|farmer|teacher'

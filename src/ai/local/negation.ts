// Negations: "I don't like jazz anymore" removes an interest; "I hate jazz" is a dislike, never an interest.
//
// Decision: an explicit change ("anymore", "no longer", "stopped", "gave up", "not ... these days") is a removal.
// A plain dislike ("I don't like X", "I hate X") removes X only if the profile currently lists it as an
// interest (it contradicts it); otherwise it is recorded as a low-confidence topic to avoid (0.4-0.5), since a
// conversation partner would do well not to push it. A negated thing is never added as an interest.
import type { ProfileContent } from '../../domain/profile.js'
import { cutPhrase, interpretObject, type Item } from './classify.js'
import { TRAITS } from './lexicon-core.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import { pattern, rx } from './regex.js'
import type { RuleId } from './rules.js'
import type { Span } from './trace.js'

const VERBS = 'like|love|enjoy|care for|care about|play|eat|drink|watch|listen to|do|go|read|collect|practice|follow'
const CHANGE = /\b(?:anymore|any more|these days|nowadays|no more)\b/

function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim()
}

/**
 * The interest the profile holds for `value`, with its category, if it holds one: the same words, one of them plural,
 * or the same genre with or without "music" ("country" for "country music").
 */
function existingInterest(
  profile: ProfileContent | undefined,
  value: string,
): { category: string; value: string } | undefined {
  if (!profile) return undefined
  const musicWord = (text: string) => / music$/.test(normal(text))
  const form = (text: string) =>
    normal(text)
      .replace(/ music$/, '')
      .replace(/s$/, '')
  const wanted = form(value)
  for (const [category, list] of Object.entries(profile.interests ?? {})) {
    const held = list.find((e) => form(e.value) === wanted)
    // the value as the profile holds it when the two differ by "music", which the merge's keys do not equate
    if (held) return { category, value: musicWord(held.value) === musicWord(value) ? value : held.value }
  }
  return undefined
}

function itemsOf(verb: string | undefined, obj: string): Item[] {
  const object = obj
    .replace(CHANGE, '')
    .replace(/\s+(?:now|either|at all|really)$/, '')
    .trim()
  if (!object) return []
  if (!verb || verb === 'like' || verb === 'love' || verb === 'enjoy' || verb === 'care for' || verb === 'care about')
    return interpretObject(object)
  if (verb === 'listen to') return interpretObject(`listening to ${object}`)
  return interpretObject(`to ${verb} ${object}`)
}

function removeAll(items: Item[], ctx: RuleContext, rule: RuleId, span: Span): void {
  for (const it of items) {
    const held = existingInterest(ctx.profile, it.value)
    ctx.acc.remove('interests', held?.value ?? it.value, held?.category, rule, span)
  }
}

/** "not anymore", "i do not like it now": the second half of "i used to love jazz, but not anymore". */
const NOT_ANYMORE = new RegExp(pattern`
  ^(?:(?:i|i do) )?(?:not anymore|not any more|no more|no longer|i do not anymore|
  i do not (?:like|love|enjoy) (?:it|them) (?:anymore|now)|now i (?:hate|do not like|can not stand) (?:it|them))$`)

/** Handles "I used to love jazz, but not anymore" across the two clauses. */
export function ruleUsedTo(clause: ClauseInfo, prev: ClauseInfo | undefined, ctx: RuleContext): void {
  if (!prev || prev.sentence !== clause.sentence) return
  if (!NOT_ANYMORE.test(clause.text)) return
  const match = rx`\\bi ${ADV}used to (${VERBS}) (.+)$`.exec(prev.text)
  // the trace's clause is this one ("not anymore"), its match the clause before
  if (match) removeAll(itemsOf(match[1], match[2]), ctx, 'negation.used-to-not-anymore', match)
}

/** "i am no longer into jazz": the negation (1) and what (2). */
const NOT_INTO = new RegExp(pattern`
  \bi am (not|no longer) (?:really |very |that |so |usually |much )?(?:into|a fan of|a big fan of|interested in|
  fond of|crazy about|big on|keen on) (.+)$`)

/** "i do not like jazz", "i am sick of reality tv": the verb (1) and what (2). */
const I_DISLIKE = new RegExp(
  `\\b(?:i|we both|we all) ${ADV}(hate|hates|detest|despise|loathe|can not stand|dislike|do not like|do not enjoy|` +
    'do not care for|' +
    'do not care about|am not interested in|am tired of|am sick of|have no interest in)\\s+(.+)$',
)

/**
 * What follows "i hate" that is no topic: talk itself, a pronoun, and the polite "i hate to admit it", "i hate to
 * bother you", "i hate to say it".
 */
const NOT_DISLIKED = new RegExp(pattern`^(?:talking|speaking|discussing|hearing|when|it|that|this|being|having|
  people|how|to (?:admit|say|tell|break|bother|ask|interrupt|complain|disappoint|sound|see|hear|think|burst))\b`)

export function ruleNegation(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged) return
  const text = clause.text
  // traits: "I am not shy anymore", "I am no longer lazy"
  let match = /\bi am (?:not|no longer) (?:as |so |that |very )?([a-z -]+?)(?: anymore| any more)?$/.exec(text)
  if (match && (CHANGE.test(text) || /no longer/.test(text)) && TRAITS.has(match[1])) {
    ctx.acc.remove('traits', match[1], undefined, 'negation.no-longer-trait', match)
    return
  }
  match = rx`\\bi ${ADV}(?:do not|can not|no longer|never) ${ADV}(${VERBS}) (.+)$`.exec(text)
  if (match && (CHANGE.test(text) || /\bno longer\b/.test(text))) {
    removeAll(itemsOf(match[1], match[2]), ctx, 'negation.verb-anymore', match)
    return
  }
  match =
    rx`\\bi ${ADV}(?:have )?(?:stopped|quit|gave up|given up|am giving up|am quitting|am done with|am over) (.+)$`.exec(
      text,
    )
  if (
    match &&
    !/^(?:my (?:job|work)|work|school|college|smoking|drinking|caring|trying|talking|working)\b/.test(match[1])
  ) {
    removeAll(itemsOf(undefined, match[1]), ctx, 'negation.stopped', match)
    return
  }
  match = NOT_INTO.exec(text)
  if (match) {
    if (match[1] === 'no longer' || CHANGE.test(text))
      removeAll(itemsOf(undefined, match[2]), ctx, 'negation.not-into', match)
    else dislike(itemsOf(undefined, match[2]), ctx, 0.4, 'negation.not-into', match)
    return
  }
  match = /^(.+?) (?:is|are) (?:no longer|not) my favorites?\b/.exec(text)
  if (match) {
    removeAll(itemsOf(undefined, match[1]), ctx, 'negation.not-my-favorite', match)
    return
  }
  match = I_DISLIKE.exec(text)
  if (match && !NOT_DISLIKED.test(match[2])) {
    const strong = /hate|detest|despise|loathe|stand|sick/.test(match[1])
    const items = itemsOf(undefined, match[2])
    // "i hate my job", "i hate school": too general to be an interest, still a topic worth avoiding
    const bare = cutPhrase(match[2])
      .replace(/^(?:my|the|our|his|her|their)\s+/, '')
      .replace(/\s+(?:so much|at all|anymore|either|now)$/, '')
      .trim()
    if (
      !items.length &&
      bare &&
      bare.split(' ').length <= 2 &&
      !/^(?:it|that|this|them|him|her|you|me|everything|anything|nothing|everyone|people|myself)$/.test(bare)
    ) {
      ctx.acc.addAvoid(ctx.cases.restore(bare), strong ? 0.5 : 0.4, 'negation.dislike', match)
    } else dislike(items, ctx, strong ? 0.5 : 0.4, 'negation.dislike', match)
  }
}

function dislike(items: Item[], ctx: RuleContext, conf: number, rule: RuleId, span: Span): void {
  for (const it of items) {
    const held = existingInterest(ctx.profile, it.value)
    if (held) ctx.acc.remove('interests', held.value, held.category, rule, span)
    else ctx.acc.addAvoid(it.value, conf, rule, span)
  }
}

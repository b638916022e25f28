// personality: traits ("I am shy and very organized", "I'm an introvert") and mood ("I'm so tired today").
import { cutPhrase } from './classify.js'
import { MOODS, MOOD_FIRST, OCCUPATIONS, TRAITS } from './lexicon-core.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import { pattern } from './regex.js'
import { singular } from './text.js'

const DEGREE = new RegExp(pattern`
  ^(?:(?:a bit of an?|kind of an?|sort of an?|very|really|pretty|quite|super|extremely|kind of|kinda|sort of|a bit|
  a little|a little bit|so|too|fairly|
  rather|incredibly|always|usually|generally|naturally|truly|totally|definitely|somewhat|slightly|mostly|often|
  sometimes|also|just|such|a|an|more|most|bit|little|overly|way too|feeling|quite a|an extremely|a very|a really|
  a pretty|a super)\s+)+`)
/** A degree before a trait said as a noun: "a strong feminist", "a total introvert", "a proud nerd". */
const DEGREE_BEFORE_NOUN = new RegExp(pattern`^(?:strong|total|proud|complete|true|real|huge|big|hardcore|
  self[- ]proclaimed) (?!(?:for|and|but|or|to|with)\b)(?=[a-z])`)
const TRAIT_MARKER = new RegExp(pattern`
  \b(?:person|people|by nature|naturally|always|generally|usually|tend to be|in general|type|kind of guy|kind of girl|
  personality|character|since i was|all my life|my whole life)\b`)
const MOOD_MARKER = new RegExp(pattern`
  \b(?:today|tonight|right now|now|at the moment|lately|these days|this week|this morning|this evening|this afternoon|
  feeling|feel|recently|currently|so much|a lot|again|still)\b`)
const PERSON_NOUN = /\s+(?:person|guy|girl|woman|man|individual|soul|type|one|human|kid|at heart)$/

/** "... today", "... at times": time words after a trait. */
const TRAIT_TIME_TAIL = new RegExp(pattern`
  \s+(?:today|tonight|now|right now|at the moment|lately|these days|this week|this morning|again|all the time|sometimes|
  too|as well|in general|by nature|at times)$`)

function chunks(rest: string): string[] {
  return rest
    .replace(/\s+(?:but|because|so|when|if|though|which|who|that)\b.*$/, '')
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+/)
    .map((x) => x.replace(DEGREE, '').replace(PERSON_NOUN, '').replace(TRAIT_TIME_TAIL, '').trim())
    .filter(Boolean)
}

/** "people say i am stubborn", "my friends call me funny": what they say (1). */
const OTHERS_SAY_I_AM = new RegExp(pattern`
  \b(?:people|everyone|my friends|others|my family|my wife|my husband|they) (?:say|think|tell me|describe me as|call me|
  consider me)(?: that)?(?: i am)? (?:a |an |very |really |too )?(.+)$`)
/** "my dad says i am lazy", "he told me i am a genius" (a reported clause): what follows "i am" (1). */
const SAID_I_AM = /\bi am (?:a |an |very |really |too |so )?(.+)$/

/**
 * What others say the person is: weak evidence of a trait, and of nothing else. Reads "people say i am stubborn" in
 * any clause, and what follows "i am" in a clause that reports someone else's words (`reported`).
 */
export function rulePeopleSay(clause: ClauseInfo, ctx: RuleContext): boolean {
  // "my mom does not think i am smart": no trait either way
  if (clause.hedged || clause.desire || clause.negated) return false
  const match = OTHERS_SAY_I_AM.exec(clause.text) ?? (clause.reported ? SAID_I_AM.exec(clause.text) : null)
  if (!match) return false
  for (const ch of chunks(match[1])) if (TRAITS.has(ch)) ctx.acc.addTrait(ch, 0.6, 'personality.people-say', match)
  return true
}

/** Feelings that take "with" or "for" ("happy with", "sad for") and still say how the person feels. */
const FEELING_WORD = new RegExp(pattern`
  ^(?:happy|excited|grateful|thankful|nervous|worried|sad|angry|mad|upset|glad|proud|scared|bored|frustrated|annoyed|
  content)$`)

/** "i consider myself a shy person": what (1). */
const CONSIDER_MYSELF = new RegExp(
  `\\bi ${ADV}(?:tend to be|consider myself to be|consider myself|would describe myself as|would say i am|` +
    'am known (?:for being|as)|see myself as|view myself as|find myself to be|pride myself on being) (?:a |an )?(.+)$',
)
/** "i am a proud animal rights activist": the cause and the noun (1). */
const ACTIVIST = new RegExp(
  // "as an animal activist": who the person speaks as
  `(?:\\bi am ${ADV}|^(?:i [a-z' ]{1,30} )?as |\\bi [a-z]+ [a-z' ]{0,30}as )(?:a |an )` +
    '(?:(?:proud|passionate|dedicated|committed|avid|vocal|big|strong|staunch) )*' +
    '((?:[a-z]+ ){0,2}(?:activist|advocate|campaigner|environmentalist|conservationist|humanitarian|' +
    'philanthropist))\\b',
)
/** "i love meeting new people". */
const LIKES_PEOPLE = new RegExp(
  `\\bi ${ADV}(?:love|like|enjoy|adore) ` +
    '(?:being around|being with|meeting|talking to|hanging out with|spending time with) ' +
    '(?:new |other |lots of |a lot of )?(?:people|strangers|crowds|others)\\b',
)
/** "i do not have many friends", "i am alone most of the time". */
const FEW_FRIENDS = new RegExp(
  `\\bi ${ADV}(?:do not have (?:many|any|a lot of)|have (?:no|few|very few)) (?:real |close |good )?friends\\b|` +
    `\\bi am ${ADV}(?:always |often )?(?:alone|by myself) (?:all the time|most of the time|a lot)\\b`,
)
/** "i am terrified of heights": what (1). */
const AFRAID_OF = new RegExp(
  `(?:\\bi am ${ADV}(?:so |very |really |super |deathly |extremely )?` +
    '(?:scared|afraid|terrified|frightened|fearful|petrified) of|' +
    // "my biggest fear is heights"
    '\\bmy (?:biggest |greatest |worst |only |one )?(?:fear|phobia) is) (.+)$',
)
/** "i am feeling tired", "i can get moody": the verb (1) and what follows (2). */
const I_AM_FEELING = new RegExp(
  `\\bi (?:${ADV})(am|feel|am feeling|have been feeling|have been|keep feeling|get|become|can be|can get)` +
    `\\s+(?:${ADV})(.+)$`,
)

/**
 * A mood said without "I feel": "ugh, worst week ever", "best day ever!!". Only as the whole clause, since "the
 * worst week ever" inside a sentence is often about something else ("the movie had the worst ending ever").
 */
const INFORMAL_MOODS: [RegExp, string][] = [
  [
    new RegExp(pattern`^(?:(?:ugh|urgh|argh|omg|man|honestly|seriously)[, ]+)*(?:this is |what a |such a |having a |
      i am having a |having the )?(?:the )?(?:worst|rough|crappy|crap|shitty|terrible|awful|horrible|long)
      (?: \w+)? (?:day|week|month|year|shift|night)(?: ever| of my life)?$`),
    'frustrated',
  ],
  [
    // "ugh this week has been a nightmare", "today was rough": the time the person is living through, judged
    new RegExp(pattern`^(?:(?:ugh|urgh|argh|omg|man|honestly|seriously)[, ]+)*(?:this (?:day|week|month|year|shift)|
      today|tonight|the (?:last|past) (?:few )?(?:days|weeks|months)|work) (?:has been|was|is|have been)
      (?: (?:a|an|so|such a|an absolute|a total|an actual|a complete|really|pretty))*
      \s(?:nightmare|hell|rough|brutal|awful|terrible|horrible|exhausting|a mess|chaos|insane|a disaster|crap)
      (?: honestly| lol| tbh)*$`),
    'frustrated',
  ],
  [
    new RegExp(pattern`^(?:(?:omg|wow|yay|honestly)[, ]+)*(?:this is |what a |having a |i am having the |having the )?
      (?:the )?best (?:day|week|news|night|weekend)(?: ever| of my life)$`),
    'happy',
  ],
  [/^(?:ugh|urgh|argh|meh|blah|sigh)[!.]*$/, 'annoyed'],
]

function ruleInformalMood(text: string, ctx: RuleContext): boolean {
  for (const [regex, mood] of INFORMAL_MOODS) {
    const match = regex.exec(text)
    if (!match) continue
    ctx.acc.setMood(mood, mood === 'annoyed' ? 0.4 : 0.6, 'personality.informal-mood', match)
    return true
  }
  return false
}

export function rulePersonality(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged || clause.desire) return
  const text = clause.text
  if (ruleInformalMood(text, ctx)) return
  let match = CONSIDER_MYSELF.exec(text)
  if (match) {
    for (const ch of chunks(match[1]))
      if (TRAITS.has(ch) || MOOD_FIRST.has(ch)) ctx.acc.addTrait(ch, 0.8, 'personality.consider-myself', match)
    return
  }
  if (rulePeopleSay(clause, ctx)) return
  // causes one stands for: "an animal rights activist", "a human rights advocate"
  match = ACTIVIST.exec(text)
  if (match && !/\b(?:not|never|no longer)\b/.test(text)) {
    ctx.acc.addTrait(match[1], 0.75, 'personality.activist', match)
    return
  }
  // sociability from how one spends time with others
  match = LIKES_PEOPLE.exec(text)
  if (match && !clause.negated) {
    ctx.acc.addTrait('social', 0.6, 'personality.social', match)
    return
  }
  match = FEW_FRIENDS.exec(text)
  if (match) {
    ctx.acc.addTrait('lonely', 0.5, 'personality.lonely', match)
    return
  }
  match = AFRAID_OF.exec(text)
  if (match) {
    // "being attacked by scorpions": the passive's "by" names what is feared, where a phrase is cut otherwise
    const passive = /^(being [a-z]+(?:ed|en)) by ((?:the |a |an )?[a-z]+)\b/.exec(match[1])
    const what = passive ? `${passive[1]} by ${passive[2]}` : cutPhrase(match[1]).replace(/^(?:the|a|an)\s+/, '')
    // A fear is something to steer around rather than a personality trait: "afraid of heights" -> avoid "heights".
    if (
      what &&
      what.split(' ').length <= (passive ? 5 : 3) &&
      !/^(?:it|that|this|them|you|him|her|me|everything|anything|nothing)$/.test(what)
    )
      ctx.acc.addAvoid(ctx.cases.restore(what), 0.5, 'personality.afraid-of', match)
    return
  }
  match = I_AM_FEELING.exec(text)
  if (!match) return
  const verb = match[1]
  const rest = match[2]
  if (/^(?:not|never|no longer)\b/.test(rest)) return
  if (/^(?:feeling\s+)?like\b/.test(rest)) return
  const traitContext =
    TRAIT_MARKER.test(text) || /^(?:a|an)\s/.test(rest) || verb === 'can be' || verb === 'get' || verb === 'can get'
  const moodContext = MOOD_MARKER.test(text) || /feel|feeling/.test(verb) || verb === 'have been'
  for (const full of chunks(rest)) {
    // "a strong feminist", "a total introvert": how much, before a trait said as a noun
    const words = full.replace(DEGREE_BEFORE_NOUN, '').split(' ')
    let ch = ''
    let after = ''
    for (let n = Math.min(3, words.length); n >= 1; n--) {
      const phrase = words.slice(0, n).join(' ')
      if (TRAITS.has(phrase) || Object.hasOwn(MOODS, phrase)) {
        ch = phrase
        after = words.slice(n).join(' ')
        break
      }
    }
    if (!ch) break
    // "i am loving retirement", "i am caring for my mom": a verb under way with its object, no trait
    if (/ing$/.test(ch) && after && !/^(?:a|an)\s/.test(rest)) break
    // "a social worker", "a public speaker": the adjective names a job, not the person's temper
    if (OCCUPATIONS.has(`${ch} ${singular(after.split(' ')[0] ?? '')}`)) break
    // "happy to help", "tired of", "good at math", "sick of": not a feeling about oneself
    // "strong for my age", "fit for a 60 year old": the trait, measured against others
    const forAge = /^for (?:my age|someone my age|a |an |\d+)/.test(after)
    if (/^(?:to|of|at|in|on)\b/.test(after) || (/^(?:with|for)\b/.test(after) && !FEELING_WORD.test(ch) && !forAge))
      continue
    const isTrait = TRAITS.has(ch)
    const mood = Object.hasOwn(MOODS, ch) ? MOODS[ch] : undefined
    if (traitContext && !moodContext && (isTrait || MOOD_FIRST.has(ch))) {
      ctx.acc.addTrait(ch, 0.8, 'personality.trait-marked', match)
      continue
    }
    if (mood && (moodContext || !isTrait || MOOD_FIRST.has(ch))) {
      const weak = ['good', 'okay', 'great'].includes(mood) && !moodContext
      ctx.acc.setMood(mood, weak ? 0.5 : moodContext ? 0.85 : 0.7, 'personality.mood', match)
      continue
    }
    if (isTrait) {
      ctx.acc.addTrait(ch, verb === 'am' ? 0.85 : 0.7, 'personality.am-trait', match)
      continue
    }
    break
  }
}

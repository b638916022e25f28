// core_info: name, age, gender and location from first-person statements.
import { GENDER_CUES, GENDER_EXPLICIT, GENERIC_PLACES, MOODS, OCCUPATIONS, TRAITS } from './lexicon-core.js'
import { CATEGORY_OF } from './lexicon-interests.js'
import { nlpHas, placesIn } from './nlp.js'
import { ADV, PHRASE_END, type ClauseInfo, type RuleContext } from './rules-common.js'
import type { RuleId } from './rules.js'
import { NUMBER_RE, parseNumber } from './text.js'
import { rx } from './regex.js'

// ---------------------------------------------------------------- name

const NOT_NAMES = new Set(
  `not a an the very so really just here there back home ok okay fine good great sure sorry new from in at on with of
  and but also too still glad happy tired sick busy done ready going gonna married single retired alone currently
  always never now only your you me him her it this that what who crazy lucky later tomorrow anytime whatever anything
  soon tonight again maybe please old young sir madam mom dad baby honey dear bro buddy dude man i am is was were we they
  he she my`.split(/\s+/),
)

function cleanName(raw: string): string | undefined {
  const words: string[] = []
  for (const w of raw.trim().split(/\s+/)) {
    if (!/^[a-z][a-z'-]*$/.test(w) || NOT_NAMES.has(w) || words.length === 3) break
    words.push(w)
  }
  if (!words.length) return undefined
  return words.join(' ')
}

const looksLikeWord = (w: string) =>
  TRAITS.has(w) || w in MOODS || OCCUPATIONS.has(w) || CATEGORY_OF.has(w) || GENERIC_PLACES.has(w)

export function ruleName(c: ClauseInfo, ctx: RuleContext): void {
  const t = c.text
  let m = /\bmy (?:full |first |real |given )?name(?: is| =|:)\s+(.+)$/.exec(t) ?? /\bname's\s+(.+)$/.exec(t)
  if (m) {
    const n = cleanName(m[1])
    if (n) ctx.acc.setCore('name', ctx.cases.restore(n, true), 0.95, 'name.my-name-is', m)
    return
  }
  m =
    /\b(?:(?:you can |please |just )?call me|i am called|i go by|people call me|everyone calls me|friends call me)\s+(.+)$/.exec(
      t,
    )
  if (m) {
    const n = cleanName(m[1])?.split(' ')[0]
    if (n && !looksLikeWord(n)) {
      const sure = nlpHas(n, '#Person') || ctx.cases.isCapitalised(n)
      // "call me lazy", "call me pretty old school": an idiom about oneself, unless written as a name
      if (!sure && nlpHas(n, '(#Adjective|#Adverb)')) return
      ctx.acc.setCore('name', ctx.cases.restore(n, true), sure ? 0.85 : 0.6, 'name.call-me', m)
    }
    return
  }
  m =
    /^(?:hi|hello|hey)?[, ]*(?:this is|i am)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)\s*(?:$|,|\band\b|\bfrom\b|\bhere\b)/.exec(
      t,
    )
  if (m && !c.hedged) {
    const words = m[1].split(' ').filter((w) => !looksLikeWord(w) && !NOT_NAMES.has(w))
    if (!words.length || words.length !== m[1].split(' ').length) return
    // "i am considering denver", "i am visiting paris": a verb, whatever follows it
    if (nlpHas(words[0]!, '#Gerund')) return
    const person = nlpHas(m[1], '#Person') && !nlpHas(m[1], '#Place')
    const capital =
      words.every((w) => ctx.cases.isCapitalised(w)) &&
      !nlpHas(m[1], '(#Adjective|#Verb|#Demonym|#Place|#Organization)') &&
      !/(?:ian|ese|ish|ean)$/.test(m[1])
    if (person || capital) ctx.acc.setCore('name', ctx.cases.restore(m[1], true), person ? 0.8 : 0.6, 'name.i-am', m)
  }
}

// ---------------------------------------------------------------- age

const N = `(${NUMBER_RE})`
/** [rule, pattern, confidence, bare: a number with no unit, so small or large ones are no age] */
const AGE_RULES: [RuleId, RegExp, number, boolean][] = [
  ['age.years-old', rx`\\bi am ${ADV}(?:a |an )?${N}[- ](?:years?|yrs?)[- ](?:old|young|of age)\\b`, 0.95, false],
  ['age.year-old', rx`\\bi am ${ADV}(?:a |an )?${N}[- ]year[- ]old\\b`, 0.95, false],
  ['age.bare-end', rx`\\bi am ${N}(?: years| yrs| yo| y/o)?\\s*$`, 0.9, true],
  ['age.turned', rx`\\bi ${ADV}turned ${N}\\b`, 0.85, false],
  ['age.my-age-is', rx`\\b(?:my age is|i am aged|i am age)\\s+${N}\\b`, 0.95, false],
  ['age.i-comma-n', rx`^i,? \\(?${N}\\)?,`, 0.9, false],
  ['age.almost', rx`\\bi am (?:almost|nearly|about|around|turning) ${N}\\b`, 0.6, false],
  // "i am a male 45 year old", "my 56 year old body" (not "my 3 year old son")
  ['age.adjective-years-old', rx`\\bi am (?:a |an )?(?:[a-z]+ ){1,2}${N}[- ](?:years?|yrs?)[- ]old\\b`, 0.8, false],
  [
    'age.my-n-year-old-body',
    rx`\\bmy ${N}[- ](?:years?|yrs?)[- ]old (?:body|self|bones|knees|back|joints|legs|hands|eyes|heart|brain|mind)\\b`,
    0.8,
    false,
  ],
  // "i am only 24 , so", "i am 45 now", "i am 12 and the kids ...", "i am 100 after all": a number right after
  // "i am" with nothing that would make it a measure ("i am 6 feet tall", "i am 2 hours away")
  [
    'age.bare',
    rx`\\bi am ${ADV}${N}(?= ?(?:,|now\\b|and\\b|so\\b|but\\b|with\\b|after all\\b|already\\b|myself\\b|baby\\b|lol\\b|haha\\b|!|\\.|$))`,
    0.85,
    true,
  ],
  // "i am wanda , age 60", "in california , age 46"
  ['age.comma-age', rx`(?:^|, )age ${N}\\b(?! (?:of|group|range|limit|gap))`, 0.85, false],
  // "i just finished my 100th birthday", "at 24 i need ...", "being 13 and all", "turning 40 is a bummer"
  ['age.birthday', rx`\\bmy ${N}(?:st|nd|rd|th) birthday\\b`, 0.7, false],
  ['age.at-n', rx`^(?:even )?at ${N}(?= (?:i\\b|,))`, 0.7, true],
  ['age.being-n', rx`\\bbeing ${N}(?= (?:and|,|years?)\\b|$)`, 0.7, true],
  ['age.turning', rx`^turning ${N}\\b`, 0.6, true],
]

export function ruleAge(c: ClauseInfo, ctx: RuleContext): void {
  if (c.hedged || c.desire) return
  // "i was born in 1990": the age follows from the reference date, give or take a year
  const born = /\bi was born\b(?:[^.]*?\b)((?:19|20)\d\d)\b(?!s)/.exec(c.text)
  if (born) {
    const age = ctx.referenceDate.getUTCFullYear() - Number(born[1])
    if (age >= 1 && age <= 120) ctx.acc.setCore('age', age, 0.6, 'age.born-in', born)
  }
  for (const [rule, re, conf, bare] of AGE_RULES) {
    const m = re.exec(c.text)
    if (!m) continue
    const n = parseNumber(m[1])
    if (n === undefined) continue
    if (
      n < 1 ||
      n > 120 ||
      (bare &&
        (n > 110 ||
          n <
            (/^i am (?:only |just )?\S+$|\bi am (?:only|just) (?:\d+|[a-z]+)\b(?! (?:feet|foot|inches|miles|minutes|hours|days|blocks|km|kilometers|meters|pounds|lbs))/.test(
              c.text,
            )
              ? 2
              : 10)))
    )
      continue
    ctx.acc.setCore('age', n, conf, rule, m)
    return
  }
}

// ---------------------------------------------------------------- gender

const GENDER_WORDS = Object.keys(GENDER_EXPLICIT)
  .sort((a, b) => b.length - a.length)
  .join('|')
const CUE_WORDS = Object.keys(GENDER_CUES)
  .sort((a, b) => b.length - a.length)
  .join('|')
const BLOCKERS = /\b(?:of|for|with|to|who|that|and|fan|friend|lover|like|than|the)\b/

export function ruleGender(c: ClauseInfo, ctx: RuleContext): void {
  if (c.hedged || c.desire) return
  const t = c.text
  let m = /\b(?:my gender is|i identify as|i am identifying as)\s+(?:a |an )?([a-z- ]+)/.exec(t)
  if (m) {
    const g = Object.entries(GENDER_EXPLICIT).find(([k]) => m![1].startsWith(k))
    if (g) ctx.acc.setCore('gender', g[1], 0.95, 'gender.identify-as', m)
    return
  }
  m = rx`\\bi am ${ADV}(?:(a|an) )?((?:[a-z0-9-]+ ){0,4}?)(${GENDER_WORDS})\\b`.exec(t)
  if (m && !BLOCKERS.test(m[2]) && !(m[3] === 'man' && /\benough\b/.test(t))) {
    const article = !!m[1]
    if (
      article ||
      ['female', 'male', 'non-binary', 'nonbinary', 'non binary', 'enby', 'genderqueer', 'genderfluid'].includes(m[3])
    ) {
      ctx.acc.setCore(
        'gender',
        GENDER_EXPLICIT[m[3]],
        m[3] === 'girl' || m[3] === 'boy' ? 0.85 : 0.9,
        'gender.i-am-a',
        m,
      )
      return
    }
  }
  m = rx`\\bas an? (woman|man|female|male|girl|guy|mother|father|mom|dad)\\b`.exec(t)
  if (m) {
    const g = GENDER_EXPLICIT[m[1]] ?? GENDER_CUES[m[1]]
    ctx.acc.setCore('gender', g, GENDER_EXPLICIT[m[1]] ? 0.8 : 0.5, 'gender.as-a', m)
    return
  }
  m = rx`\\bi am ${ADV}(?:a |an )((?:[a-z0-9-]+ ){0,3}?)(${CUE_WORDS})\\b`.exec(t)
  if (m && !BLOCKERS.test(m[1])) ctx.acc.setCore('gender', GENDER_CUES[m[2]], 0.5, 'gender.cue', m)
}

// ---------------------------------------------------------------- location

const NOT_PLACE_FIRST = new Set([
  'my',
  'your',
  'his',
  'her',
  'our',
  'their',
  'it',
  'this',
  'that',
  'fear',
  'peace',
  'love',
])
const NOT_PLACES = new Set(
  `the moment, the past, the present, the future, a bubble, a dream, a world, a box, the dark, work, school, college,
  bed, family, a family, a big family, a small family, a large family, a good family, heaven, hell, denial, sin, hope,
  harmony, debt, poverty, luxury, a long line, a line, a lot, the same`
    .split(/\s*,\s*/)
    .map((x) => x.trim()),
)
/** [rule, pattern, confidence, how sure the phrase must be to count as a place] */
const LOC_RULES: [RuleId, RegExp, number, 'strict' | 'loose'][] = [
  [
    'location.live-in',
    rx`\\bi ${ADV}(?:live|am living|reside|am residing|am located|am based|am settled|have lived|have been living)(?: with (?:my |our )?[a-z]+(?: [a-z]+)?)? (?:here )?(?:in|at|near|outside(?: of)?|around|on) (.+)$`,
    0.9,
    'loose',
  ],
  [
    'location.never-been-outside',
    rx`\\bi ${ADV}(?:have )?never (?:been|left|lived) (?:out(?:side)? of|anywhere but|anywhere except) (.+)$`,
    0.6,
    'strict',
  ],
  [
    'location.moved-to',
    rx`\\bi ${ADV}(?:moved|relocated|immigrated|emigrated|have moved|just moved) (?:back |over |out |here |down |up )?(?:to|into) (.+)$`,
    0.85,
    'strict',
  ],
  ['location.am-from', rx`\\bi am ${ADV}(?:originally )?from (.+)$`, 0.8, 'strict'],
  ['location.come-from', rx`\\bi ${ADV}(?:originally )?come from (.+)$`, 0.8, 'strict'],
  ['location.a-x-from', rx`\\bi am (?:a |an )(?:[a-z0-9-]+ ){1,6}?from (.+)$`, 0.75, 'strict'],
  ['location.my-city-is', /\bmy (?:home ?town|home city|current city|city) is (.+)$/, 0.8, 'strict'],
  ['location.grew-up-in', rx`\\bi ${ADV}(?:grew up|was raised) (?:in|on|near) (.+)$`, 0.55, 'strict'],
  [
    'location.moved-from',
    rx`\\bi ${ADV}(?:moved|came|immigrated|emigrated) (?:here |over |out )?from (.+)$`,
    0.55,
    'strict',
  ],
  ['location.born-in', rx`\\bi was born (?:and raised )?in (.+)$`, 0.5, 'strict'],
  // conversation: "i am in canada", "i am in the city now", "here in colorado", "hello from alabama", "colorado where
  // i live", "we are from alabama", "i have never left ohio" (strict: only what reads as a place)
  ['location.am-in', rx`\\bi am ${ADV}(?:now |currently |still )?(?:in|near|outside(?: of)?) (.+)$`, 0.6, 'strict'],
  ['location.here-in', /\bhere in (.+)$/, 0.65, 'strict'],
  [
    'location.hello-from',
    /^(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening|day))[ ,!]*(?:there )?from (.+)$/,
    0.7,
    'strict',
  ],
  ['location.where-i-live', /\b([a-z]+(?: [a-z]+)?) ,? ?(?:is )?where i live\b/, 0.7, 'strict'],
  ['location.we-are-from', rx`\\bwe are ${ADV}(?:originally )?from (.+)$`, 0.6, 'strict'],
  ['location.never-left', rx`\\bi ${ADV}(?:have )?never left (.+)$`, 0.6, 'strict'],
  // "i am chiamaka , 23 , a software engineer in lagos" (the clause "i am a software engineer in lagos"), "i am a
  // teacher based in leeds", "i work as a nurse in nairobi": only after a job noun (see ruleLocation). Weak: where a
  // person works is not always where they live, so any other statement of a place wins ("i live in the country")
  [
    'location.job-in',
    rx`\\bi (?:am|work as|am working as) ${ADV}(?:a |an )(?:[a-z0-9-]+ ){0,3}?([a-z]+) (?:(?:who is |and )?(?:based|living|working|located|settled) )?(?:in|near) (.+)$`,
    0.5,
    'strict',
  ],
]

/** What follows "a teacher in" without being a place: subjects, languages, fields and wards ("a teacher in English"). */
const NOT_JOB_PLACES = new Set(
  `english spanish french german italian portuguese chinese mandarin japanese korean arabic russian hindi latin greek
  hebrew swahili yoruba igbo hausa math maths science history art music it tech sales marketing finance hr retail
  healthcare education training law medicine government politics charge residence town school college uni
  university army navy marines military police church parliament congress senate ministry icu er`.split(/\s+/),
)
/** Job nouns the occupation lexicon leaves out, after which "in X" still tells where the person is. */
const JOB_HEADS = new Set([
  'student',
  'freelancer',
  'retiree',
  'intern',
  'resident',
  'worker',
  'employee',
  'volunteer',
  'founder',
  'owner',
])

/** The place named by a phrase after "live in", or undefined if it does not look like a place. */
export function placeOf(
  raw: string,
  mode: 'strict' | 'loose',
  ctx: RuleContext,
): { value: string; factor: number } | undefined {
  let p = raw
    .replace(/\b(?:in|since|back in) (?:19|20)\d\d\b.*$/, '')
    .replace(/\b(?:for|with|during|in the (?:summer|winter|spring|fall)|every) .*$/, '')
    // "new jersey i like going to parks": a new clause
    .replace(/\s+i\s.*$/, '')
    // "ohio working as a doctor": a participle goes on about something else
    .replace(
      /\s+(?:working|looking|studying|going|trying|waiting|teaching|staying|doing|hoping|planning|thinking|raising|attending|visiting|having|getting|making|taking|searching|saving|training)\b.*$/,
      '',
    )
  // "austin, texas" / "paris, france": keep "X, Y" when the pair reads as places
  const pair = /^([a-z .'-]+?),\s*([a-z .'-]+?)(?:$|[,.!?]|\s(?:and|but|with|for|since)\b)/.exec(p)
  const pairPlaces = pair ? placesIn(`${pair[1]}, ${pair[2]}`) : []
  if (
    pair &&
    pair[1].split(' ').length <= 3 &&
    pair[2].split(' ').length <= 3 &&
    pairPlaces.length &&
    nlpHas(pair[2], '#Place')
  )
    p = `${pair[1]}, ${pair[2]}`
  else p = p.replace(PHRASE_END, '')
  p = p
    .replace(
      /\b(?:(?:last|this|next) (?:year|month|week|summer|winter|spring|fall|morning|evening)|\d+ (?:years?|months?|weeks?) ago|a (?:year|month|while) ago|recently|right now|at the moment|today|tonight|tomorrow|yesterday|lately|these days)\b.*$/,
      '',
    )
    .trim()
  p = p.replace(/^(?:the (?:city|town|state|country|village) of )/, '').trim()
  p = p.replace(/\s+(?:myself|yourself|too|either|now|right|originally|anymore|though|lol|haha)$/, '').trim()
  // "1990 in manila", "a small hospital in ohio": the place is after the last "in"
  const inner = /\s(?:in|near)\s+(.+)$/.exec(p)
  if (inner && placesIn(inner[1]).length) p = inner[1]
  // "colorado near pueblo": the place, not what it is near
  else if (inner && placesIn(p.slice(0, inner.index)).length) p = p.slice(0, inner.index)
  p = p.replace(/^(?:(?:19|20)\d\d|the \d0s)\b\s*/, '').trim()
  if (!p || p.split(/\s+/).length > 5) return undefined
  const first = p.split(' ')[0]
  if (NOT_PLACES.has(p) || NOT_PLACE_FIRST.has(first)) return undefined
  const placeWords = placesIn(p)
  const core = p.replace(/^(?:a|an|the)\s+/, '')
  // a dwelling is no location ("i live in a big old house")
  if (
    /^(?:[a-z-]+ ){0,3}(?:house|home|apartment|flat|condo|trailer|cabin|dorm|tent|van|car|mansion|basement|townhouse|studio|bungalow|cottage|room|shelter|rv|camper|motel|hotel|building|place)s?(?: (?:downtown|uptown|nearby|here|there|alone|now|too|by myself|together))?$/.test(
      core,
    )
  )
    return undefined
  if (placeWords.length) {
    // "visit colorado": a verb before the place is not part of it
    const value = /,/.test(p) ? p : p.split(' ').length <= 4 && !nlpHas(first, '#Verb') ? core : placeWords.join(' ')
    return { value: ctx.cases.restore(value, true).replace(/^The /, 'the '), factor: 1 }
  }
  if (
    GENERIC_PLACES.has(p) ||
    GENERIC_PLACES.has(core) ||
    /\b(?:city|town|village|suburbs?|countryside|farm|state|country|island|coast|area|region|neighborhood)$/.test(core)
  ) {
    return { value: core, factor: 0.6 }
  }
  const words = core.split(' ')
  if (words.every((w) => ctx.cases.isCapitalised(w))) return { value: ctx.cases.restore(core), factor: 0.9 }
  if (mode === 'loose' && words.length <= 2 && !nlpHas(core, '(#Verb|#Adjective|#Pronoun)') && !looksLikeWord(core)) {
    return { value: ctx.cases.restore(core, true), factor: 0.55 }
  }
  return undefined
}

export function ruleLocation(c: ClauseInfo, ctx: RuleContext): void {
  if (c.hedged || c.desire) return
  for (const [rule, re, conf, mode] of LOC_RULES) {
    const m = re.exec(c.text)
    if (!m) continue
    if (rule === 'location.job-in') {
      jobPlace(m, conf, ctx)
      return
    }
    const place = placeOf(m[1], mode, ctx)
    if (place) ctx.acc.setCore('location', place.value, conf * place.factor, rule, m)
    return
  }
}

/**
 * "a <job> in <place>": the head noun must be a job, and the place one that the place lexicon knows, or a
 * capitalised name that is no acronym ("an analyst in IT"), language or subject ("a teacher in English").
 */
function jobPlace(m: RegExpExecArray, conf: number, ctx: RuleContext): void {
  if (!OCCUPATIONS.has(m[1]) && !JOB_HEADS.has(m[1])) return
  const place = placeOf(m[2], 'strict', ctx)
  if (!place) return
  const v = place.value
  if (!placesIn(v.toLowerCase()).length) {
    if (
      NOT_JOB_PLACES.has(v.toLowerCase()) ||
      /^[A-Z0-9]{2,}$/.test(v) ||
      /(?:ish|ese|ian|ics)$/i.test(v) ||
      nlpHas(v, '(#Demonym|#Language)')
    )
      return
  }
  ctx.acc.setCore('location', v, conf * place.factor, 'location.job-in', m)
}

// memories: events told in the past tense or with a date ("I graduated from college in 2015",
// "last year I ran a marathon", "we got married on June 3, 2019").
//
// Dates: chrono-node, relative to the injected reference date. A date is recorded only when the year is known
// (stated, or implied by a relative expression such as "last year" or "two months ago"); month and day that
// chrono merely guessed are replaced by 01 ("in 2015" -> 2015-01-01, "in March 2020" -> 2020-03-01). A bare
// month or weekday dates only an event told in the past tense (pastDateOf): "I broke my arm in April" said in June
// 2024 gives 2024-04-01, "last Saturday" the Saturday before. chrono ignores a bare year ("in 2015"), so a year on its
// own (1900 .. reference year + 10) is read by a regex.
import * as chrono from 'chrono-node'
import type { Importance } from '../../domain/profile.js'
import { tokens } from '../../domain/normalise.js'
import { ADV, type ClauseInfo, describe, type RuleContext } from './rules-common.js'
import { afterPrepositions, placeAfter, placeAtStart } from './gazetteer.js'
import { termsOf } from './nlp.js'
import { PEOPLE_NOUNS } from './others.js'
import { pattern, rx, rxg } from './regex.js'
import { ownWordsInThirdPerson } from './third-person.js'
import { MONTHS, WEEKDAYS } from './text.js'

const LIFE = new RegExp(pattern`
  \b(?:born|married|marry|wedding|engaged|propose|proposed|proposal|divorced?|graduated?|graduation|moved|relocated|
  immigrated|emigrated|hired|accepted (?:to|into|at)|promoted|promotion|fired|laid off|retired|died|passed away|
  funeral|pregnant|
  had (?:a|my|our) (?:first )?
  (?:baby|child|son|daughter|kid)|gave birth|adopted|diagnosed|cancer|surgery|accident|broke up|
  bought (?:a|our|my|my first|our first) (?:house|home|apartment|condo)|tore my|broke my|sprained|fractured|
  dislocated|injured|concussion|(?:job )?interview|new job|got (?:a|my|the) (?:new )?job|first job|
  started (?:a new job|working|my own|college|university|school|a business|a company)|enlisted|
  joined the (?:army|navy|military|air force|marines)|served in|deployed|phd|degree|
  lost my (?:job|mother|father|mom|dad|wife|husband|son|daughter|brother|sister|parents?|grandmother|grandfather)|
  became a (?:mother|father|parent|mom|dad|grandmother|grandfather|grandparent|grandma|grandpa|citizen)|quit my job|
  opened (?:a|my own))\b`)
const MEDIUM = new RegExp(pattern`
  \b(?:traveled|travelled|visited|ran a|climbed|met|won|learned|learnt|finished|completed|competed|performed|published|
  built|sold|toured|hiked|started|began|founded|volunteered|studied|lived|worked|trained|wrote|recorded)\b`)
/** Words of an event told otherwise that make it worth keeping a while: a trip taken, a class signed up for. */
const MEDIUM_EVENT = /\b(?:trip|vacation|holiday|honeymoon|camping|signed up)\b/
/** Past-tense verbs that tell no event ("I thought", "I said"). */
const TRIVIAL = new Set(
  `thought said meant guessed wondered figured knew noticed asked answered replied told mentioned forgot felt heard was
  were had did liked loved wanted needed used looked seemed hoped enjoyed realized realised decided`.split(/\s+/),
)
/**
 * Common past-tense verbs that tell an event only with what follows them: "I went to a pottery class", "we made a
 * quilt for my sister" are events; "I went there", "I got it" are not (selfContained leaves them out).
 */
const LIGHT = new Set(`got saw tried came made watched ate read played went found took`.split(/\s+/))
const IRREGULAR_PAST = new Set(
  `got went made took came saw met won lost left bought sold began became grew wrote ran swam flew drove rode fell broke
  gave found built taught caught brought fought spent sent kept slept held led hurt beat chose did drew drank ate forgot
  quit tore
  froze hid knew paid rang rose sang sat shot shook spoke stole stood struck swore threw understood woke wore`.split(
    /\s+/,
  ),
)
const RELATIVE_TIME = new RegExp(
  pattern`
  \s*\b(?:yesterday|today|last (?:night|week|month|year|summer|winter|spring|fall|weekend|time)|
  this (?:morning|week|month|year|summer|past \w+)|(?:over the|this) weekend|
  (?:last|on) (?:${WEEKDAYS.join('|')})(?! ?s\b)
  (?: night| morning| afternoon| evening)?|
  (?:(?:about|around|almost|nearly|over|roughly|like) )?(?:a|one|two|three|four|five|six|seven|eight|nine|ten|few|
  couple of|
  \d+) (?:days?|weeks?|months?|years?|decades?) ago|a (?:little )?(?:bit|while) ago|recently|just)\b`,
  'g',
)

function iso(year: number, mo?: number, day?: number): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${year}-${pad(mo ?? 1)}-${pad(day ?? 1)}`
}

/** The reference date's own day (YYYY-MM-DD): when an event told in the present is dated "when said". */
const dayOf = (ref: Date): string => iso(ref.getUTCFullYear(), ref.getUTCMonth() + 1, ref.getUTCDate())

/** YYYY-MM-DD when the clause names a date with a known year (see the note at the top). */
const DATE_HINT = new RegExp(pattern`
  \b(?:\d{1,4}(?:st|nd|rd|th)?|jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|may|june?|july?|aug(?:ust)?|
  sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|
  saturdays?|sundays?|yesterday|today|tonight|tomorrow|ago|last|next|this|weekend|week|month|year|christmas|spring|
  summer|fall|autumn|winter)\b`)

const AMOUNT = pattern`(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|
  thirty|forty|fifty|a few|a couple of|couple of|few|several|many)`
/**
 * How long something lasted, no date: "for 15 years", "over the last 3 months", "the past two weeks" (never "3 years
 * ago").
 */
const DURATION = new RegExp(
  String.raw`\b(?:(?:for|over|after|within)\s+(?:the\s+)?(?:(?:past|last|next)\s+)?|` +
    String.raw`the\s+(?:past|last|next)\s+|(?<=\bbeen\s+[a-z]+\s+))${AMOUNT}` +
    String.raw`\s+(?:days?|weeks?|months?|years?|decades?)\b(?!\s+ago)`,
  'g',
)

/** "in 2015", "back in 1999": a year (1), not an amount ("2000 dollars") or a decade ("1990s"). */
const YEAR_MENTION = new RegExp(pattern`
  \b(?:in|since|back in|around|of|during|circa|from|year)?\s*((?:19|20)\d\d)\b(?!s|'s|\s*
  (?:dollars|people|miles|feet|km|pounds))`)

export function dateOf(raw: string, ref: Date): string | undefined {
  // chrono reads "for 15 years" and "after 40 years" as so many years after the reference
  const text = raw.replace(DURATION, ' ')
  if (!DATE_HINT.test(text)) return undefined
  for (const r of chrono.parse(text, ref)) {
    const start = r.start
    if (!start.isCertain('year')) continue
    const year = start.get('year')
    if (year === null) continue
    const month = start.isCertain('month') ? (start.get('month') ?? undefined) : undefined
    const day = month !== undefined && start.isCertain('day') ? (start.get('day') ?? undefined) : undefined
    return iso(year, month, day)
  }
  const match = YEAR_MENTION.exec(text)
  if (match) {
    const year = Number(match[1])
    if (year >= 1900 && year <= ref.getUTCFullYear() + 10) return iso(year)
  }
  return undefined
}

/** "last saturday", "on friday night": a day of the past week (1); not "on fridays". */
const PAST_WEEKDAY = new RegExp(`\\b(?:last|this past|on) (${WEEKDAYS.join('|')})\\b(?!s)`)
/** "last weekend", "over the weekend", "this weekend" in the past tense: the weekend before (1 says which words). */
const PAST_WEEKEND = /\b(last|this past|over the|this) weekend\b/
/** "in january", "back in march": a month with no year (1); not "next january". */
const PAST_MONTH = new RegExp(`\\b(?:in|last|this past|back in|early|late|mid) (${MONTHS.join('|')})\\b(?! \\d)`)

/**
 * The date of an event told in the past tense by a weekday, a weekend, a month with no year or "this morning", which
 * dateOf leaves out: the last such day before the reference date (a weekend by its Saturday), the last such month up
 * to its month ("in january" said in november), the reference date itself.
 */
function pastDateOf(text: string, ref: Date): string | undefined {
  if (/\b(?:this (?:morning|afternoon|evening)|earlier today)\b/.test(text)) return dayOf(ref)
  const weekend = PAST_WEEKEND.exec(text)
  if (weekend) {
    // the Saturday before the reference date; "last weekend" said on a Sunday is the one before that, "this weekend"
    // said on a weekend is the one under way
    const saturday = (ref.getUTCDay() + 1) % 7 || 7
    const current = weekend[1] === 'this' && (ref.getUTCDay() === 6 || ref.getUTCDay() === 0)
    const back = current ? saturday % 7 : saturday + (weekend[1] === 'last' && ref.getUTCDay() === 0 ? 7 : 0)
    const day = new Date(ref.getTime() - back * 86_400_000)
    return iso(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate())
  }
  const weekday = PAST_WEEKDAY.exec(text)
  if (weekday) {
    const back = (ref.getUTCDay() - WEEKDAYS.indexOf(weekday[1]!) + 7) % 7 || 7
    const day = new Date(ref.getTime() - back * 86_400_000)
    return iso(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate())
  }
  const month = PAST_MONTH.exec(text)
  if (!month || /\b(?:19|20)\d\d\b/.test(text)) return undefined
  const index = MONTHS.indexOf(month[1]!)
  return iso(ref.getUTCFullYear() - (index > ref.getUTCMonth() ? 1 : 0), index + 1)
}

/** "in october", "next march": a month with no year (1); not "in october 2027". */
const COMING_MONTH = new RegExp(`\\b(?:in|on|this|next|early|late|mid|by) (${MONTHS.join('|')})\\b(?! \\d)`)
/** Holidays of a fixed day (month, day), as people name them. */
const HOLIDAY_DAYS: Record<string, [number, number]> = {
  christmas: [12, 25],
  'christmas eve': [12, 24],
  xmas: [12, 25],
  "new year's eve": [12, 31],
  "new year's day": [1, 1],
  "valentine's day": [2, 14],
  valentines: [2, 14],
  halloween: [10, 31],
}
const HOLIDAYS = Object.keys(HOLIDAY_DAYS)
  .sort((a, b) => b.length - a.length)
  .join('|')
/** "at christmas", "on valentine's day": a holiday ahead (1). */
const COMING_HOLIDAY = new RegExp(`\\b(?:at|on|for|over|by) (${HOLIDAYS})\\b`)
/** "next spring", "this summer": a season ahead (1). */
const COMING_SEASON = /\b(?:this|next|in the|this coming) (spring|summer|fall|autumn|winter)\b/
/** The month a season begins, as the northern hemisphere counts it. */
const SEASON_START: Record<string, number> = { spring: 3, summer: 6, fall: 9, autumn: 9, winter: 12 }
/** "on friday", "next saturday": a day of the coming week (1); not "on fridays". */
const COMING_WEEKDAY = new RegExp(`\\b(?:on|this|next|this coming) (${WEEKDAYS.join('|')})\\b(?!s)`)

/**
 * The date of a plan told by a month or a weekday with no year, which dateOf leaves out: the next such month after
 * the reference date's ("in october" said in november is next year's), the next such day (one to seven days on).
 */
function futureDateOf(text: string, ref: Date): string | undefined {
  const holiday = COMING_HOLIDAY.exec(text)
  if (holiday) {
    const [month, day] = HOLIDAY_DAYS[holiday[1]!]!
    const thisYear = iso(ref.getUTCFullYear(), month, day)
    return thisYear >= dayOf(ref) ? thisYear : iso(ref.getUTCFullYear() + 1, month, day)
  }
  const season = COMING_SEASON.exec(text)
  if (season && !/\b(?:19|20)\d\d\b/.test(text)) {
    const month = SEASON_START[season[1]!]!
    return iso(ref.getUTCFullYear() + (month <= ref.getUTCMonth() + 1 ? 1 : 0), month)
  }
  const weekday = COMING_WEEKDAY.exec(text)
  if (weekday) {
    const ahead = (WEEKDAYS.indexOf(weekday[1]!) - ref.getUTCDay() + 7) % 7 || 7
    const day = new Date(ref.getTime() + ahead * 86_400_000)
    return iso(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate())
  }
  const month = COMING_MONTH.exec(text)
  if (!month || /\b(?:19|20)\d\d\b/.test(text)) return undefined
  const index = MONTHS.indexOf(month[1]!)
  return iso(ref.getUTCFullYear() + (index <= ref.getUTCMonth() ? 1 : 0), index + 1)
}

function importance(event: string, dated: boolean): Importance {
  if (LIFE.test(event)) return 'high'
  if (dated || MEDIUM.test(event) || MEDIUM_EVENT.test(event)) return 'medium'
  return 'low'
}

/** "was born", "was laid off", "were in a car accident": an event in the passive. */
const PASSIVE_EVENT = new RegExp(pattern`
  ^(?:was|were) (?:born|married|engaged|divorced|diagnosed|fired|hired|promoted|raised|adopted|laid off|deployed|
  injured|hospitalized|elected|awarded|accepted|drafted|in (?:the )?(?:army|navy|military|air force|marines|
  a (?:car )?accident))\b`)

/**
 * "had" that tells an event: "had a baby", "had surgery", "had a job interview today", "had a blast at the fair" (a
 * good time had somewhere; "had a great time" alone tells no event).
 */
const HAD_EVENT =
  new RegExp(pattern`^had (?:(?:a|an|my|our) )?(?:first |second |big |major |minor |small )?(?:baby|child|
  son|daughter|kid|surgery|operation|job interview|interview|accident|car accident|heart attack|stroke|miscarriage|
  wedding|audition|seizure|panic attack|breakdown|picnic|party|birthday party|surprise party|dinner party|barbecue|bbq|
  cookout|sleepover|reunion|family reunion|baby shower|housewarming|garage sale|yard sale|bake sale|recital|
  graduation party|game night|movie night|road trip|camping trip|photo ?shoot|gig|concert|tournament)\b|
  ^had (?:my|our) (?:first|last|final) [a-z]+|
  ^had (?:(?:a|an) (?:great|good|fun|amazing|wonderful|awesome|lovely|fantastic) time|a blast) (?:at|in)
  \s(?!(?:it|that|this|them|mine|yours|theirs|his|hers|ours)\b)[a-z]|
  ^had (?:a|an|my|our) (?:[a-z]+ ){0,2}?(?:practice|rehearsal|lesson|appointment|check-?up|date|sale|encounter|
  recital|game|match|race|meet|show|performance|exam|test|presentation)\b|
  ^had (?:cancer|covid|the flu|pneumonia|a concussion|an injury|a bad fall|a health scare|(?:some |serious |major )?
  (?:medical|health|heart|back|knee) (?:issues|problems))\b`)

/**
 * The first "i/we <past verb>" of the clause: `at` the index of the verb in the text, `verb` the verb, and for the
 * present perfect ("i have taken a break") `perfect`, the auxiliary said ("have" or "had").
 */
function pastVerb(text: string): { at: number; verb: string; perfect?: 'have' | 'had' } | undefined {
  for (const m of text.matchAll(rxg`\\b(?:i|we) (${ADV})(?:once )?([a-z]+)\\b`)) {
    const verb = m[2]
    const at = m.index + m[0].length - verb.length
    const rest = text.slice(at)
    if (verb === 'was' || verb === 'were') {
      if (PASSIVE_EVENT.test(rest)) return { at, verb }
      continue
    }
    if (verb === 'used' && /^used to\b/.test(rest)) return { at, verb }
    // "i use to work for the cia": "used to", as chat often spells it
    if (verb === 'use' && /^use to\b/.test(rest)) return { at, verb: 'used' }
    if (verb === 'have' || verb === 'had') {
      if (
        /^(?:have|had) (?:just |recently |finally )(?:[a-z]+ed|got|won|become|bought|moved|run|done|been)\b/.test(rest)
      )
        return { at, verb }
      if (HAD_EVENT.test(rest)) return { at, verb }
      const perfect = PERFECT_EVENT.exec(rest)
      // the participle decides, as a past verb would: "i have decided" tells no event, "i have bought a house" does
      const participle = perfect?.[1]
      if (participle && (isPastTense(participle) || PARTICIPLES.has(participle)) && text.search(DURATION) < 0)
        return { at: at + perfect[0].length - participle.length, verb: participle, perfect: verb }
      continue
    }
    if (isPastTense(verb)) return { at, verb }
  }
  // "i was driving the bmw, got arrested": a past verb that goes on with the person's subject after a comma
  if (!/^(?:i|we) /.test(text)) return undefined
  const after = /, (?:then |and )?([a-z]+) /.exec(text)
  if (!after || !isPastTense(after[1]!) || TRIVIAL.has(after[1]!) || PARTICIPLE_AFTER.test(after[1]!)) return undefined
  return { at: after.index + after[0].length - after[1]!.length - 1, verb: after[1]! }
}

/** A participle that opens an aside after a comma, no event: "..., compared to the winter olympics". */
const PARTICIPLE_AFTER = new RegExp(pattern`^(?:compared|based|related|located|called|named|considered|supposed|given|
  known|mixed|combined|included|dressed|tired|bored|excited|scared|worried|stressed|obsessed|interested|surprised|
  amazed|shocked|pleased|relieved|blessed|stuck|done|finished|involved|used)$`)

/**
 * "i have bought lots of doge coin", "we have adopted a puppy": the present perfect tells an event as the past tense
 * does (1 the participle). Not "have been", "have had", "have got" (a possession), "have seen" or "have heard", which
 * say too little on their own, and not a lasting state ("have lived here for years"), which DURATION reads.
 */
const PERFECT_EVENT =
  /^(?:have|had) (?:already |now |also )?(?!been\b|had\b|got\b|seen\b|heard\b|done\b|known\b)([a-z]+)\b/

/** Participles that are not also past-tense forms (isPastTense reads those). */
const PARTICIPLES = new Set(
  `written become begun taken given gone grown run flown driven ridden fallen broken chosen drawn eaten forgotten
  beaten spoken stolen thrown shaken sung swum worn frozen hidden risen gotten read`.split(/\s+/),
)

const isPastTense = (verb: string) =>
  (/ed$/.test(verb) && !/eed$/.test(verb) && verb.length > 3) || IRREGULAR_PAST.has(verb)

/**
 * "my son was born" (1: who), "my late father passed away" (2: who); an event of a relative's that is the
 * household's too: "my boyfriend proposed", "my son broke his arm".
 */
const FAMILY_EVENT = new RegExp(pattern`
  \bmy (?:(?:first|second|third|youngest|oldest|eldest|baby|little) )?(son|daughter|baby|child|kid|twins|grandson|
  granddaughter) (?:was|were) born\b|\bmy (?:(?:late|dear|beloved|old|sweet|little|sweet old) )?(mother|mom|father|dad|
  grandmother|grandma|grandfather|grandpa|husband|wife|brother|sister|partner|best friend|
  (?:dog|cat|puppy|kitten|rabbit|bunny|hamster|horse|parrot)(?: (?!just\b|suddenly\b|finally\b)[a-z]+)?)
  (?: also| just| suddenly| finally| recently)? (?:died|passed away|passed)\b|
  \bmy (?:(?:older|younger|little|big|oldest|youngest) )?(?:son|daughter|kid|husband|wife|boyfriend|girlfriend|
  partner|fiance|fiancee|mom|dad|mother|father|brother|sister|grandma|grandpa|best friend) (?:just |finally )?
  (?:broke (?:his|her|their) [a-z]+|proposed|won [a-z]+|graduated|retired|got (?:married|engaged|promoted))\b`)

/**
 * Something that happened to what the person owns or lives in: "my car got totaled", "my basement flooded"; 0 the
 * event itself, without what the clause goes on to say.
 */
const POSSESSION_EVENT = new RegExp(pattern`
  \bmy (?:(?:new|old|first) )?(?:car|truck|van|bike|motorcycle|house|home|apartment|flat|basement|phone|laptop|wallet|
  purse|bag|garage|roof|kitchen) (?:just )?(?:got|was|has been) (?:totaled|totalled|stolen|broken into|towed|flooded|
  repossessed|wrecked|burglarized|burgled|robbed|vandalized|destroyed|damaged|hacked|hit|rear[- ]ended|keyed)\b|
  \bmy (?:house|home|apartment|flat|basement|garage|kitchen) (?:just )?(?:flooded|burned down|burnt down|caught fire)
  \b|\bmy (?:car|truck|van|tractor|boat|motorcycle|computer|laptop|tv|fridge|washer|dryer|furnace|oven|dishwasher|
  (?:lawn )?mower|air conditioner|heater|water heater) (?:just )?(?:broke down|died|stopped working)\b`)

/** A doubt added after a comma, which is no part of the event: "started at a diner, not sure my position yet". */
const HEDGED_TAIL =
  /,\s*(?:not sure|unsure|maybe|probably|perhaps|i think|i guess|i suppose|i believe|fingers crossed|wish me luck)\b.*$/
/** What followed from the event, which is no part of it: "got laid off last month so money is tight". */
const CONSEQUENCE = /\sso\s(?=(?:i|we|you|he|she|they|it|that|this|my|our|the|money|things|now|there)\b).*$/
/** A statement of another subject joined by "and": "moved to austin in march and the heat is brutal". */
const AND_ANOTHER = new RegExp(pattern`\sand (?:honestly |really |now |so |yet |still )?(?:the [a-z]+|it|that|this|
  there|he|she|they|you) (?:is|are|was|were|has|had|will|would)\b.*$`)
/**
 * A clause of its own run on without a stop: "took my dogs out for a walk it was gorgeous weather". Not after a word
 * that binds it to the event ("went where it was warm").
 */
const RUN_ON = new RegExp(pattern`(?<!\b(?:where|when|whenever|because|if|that|since|as|while|until|til|till|so|and|
  but|or|which|who|what|how|why|though|although|before|after|once|than|like))\s(?:it|he|she|they|we) (?:was|were|is|are|
  decided|said|says|thought|think|has|have|had|died|hated|loved|got|went|did|does|really|also|just|still|never|always)
  \b.*$`)
/**
 * A second statement run on without a stop, from its "i" on (and a "now" or "then" before it): "(i compete)
 * individually i started doing it", "(i do not wear) helmets i wear watermelons on my head". Not after a word that
 * binds the clause to what came before ("a dog that i love", "how much time i need"), and not a short clause about a
 * thing ("the house i just bought", "people i know on facebook").
 */
export const RUN_ON_I =
  new RegExp(pattern`(?<=[a-z0-9'])(?<!\b(?:that|which|who|whom|when|where|because|so|and|but|or|if|as|than|since|
  until|til|till|while|what|how|why|once|before|after|anytime|everytime|whenever|the|a|an|think|know|knew|hope|hoped|
  guess|wish|wished|confess|admit|say|said|feel|felt|believe|mean|suppose|swear|out|decided|figured|realized|realised|
  learned|noticed|thought|told|promised|forgot|remembered|heard|discovered|found|saw|understood|glad|sure|sorry|
  afraid|everything|anything|something|nothing|all|one|ones|stuff|thing|things|way|more|less|better|much|many))
  (?<!\b(?:how|what|which|whatever) (?:[a-z']+ ){0,2}[a-z']+)(?:\s+(?:now|then))?\s+i\s+
  (?=(?:am|was|would|will|have|had|never|bet|guess|think|started|decided)\b|(?:[a-z']+\s+){3}[a-z']).*$`)

/** A reason that only points back: "got a pay cut because of it" (a reason named stays: "because of a storm"). */
const POINTED_REASON = /\s(?:because of|due to) (?:it|them|that|this|those|these|him|her)[,.;:!?]*$/
/** A word to the other speaker after a comma: "got hired as a life coach, thanks for asking". */
const THANKS_AFTER = /,\s*(?:thanks|thank you|thx|ty)\b.*$/
/** What holds now, after an event: "was born and raised in texas, now stuck in minnesota". */
const NOW_AFTER = /,\s*(?:but |and )?now\b.*$/
/**
 * How the person feels about the event, or a remark on it, after a comma: "got laid off, kind of freaking out", "got
 * my wisdom teeth out, face is huge".
 */
const FEELING_AFTER = new RegExp(pattern`,\s*(?:(?:kind of|kinda|sort of|super|totally|pretty|a bit|a little|
  still|really|feeling|feel) |(?!(?:and|then|which|who|where|when|but)\b)(?:[a-z']+ ){1,2}(?:is|are|was|were|
  have been|has been)\s).*$`)
/** Words a chat message trails off with, which end no phrase: "went to Disneyland a", "graduated, and". */
const TRAILING = new RegExp(pattern`(?:[\s,;:-]+(?:a|an|the|and|but|or|so|just|also|however|though|tho|lol|haha|
  lmao|ugh|omg|yay|tbh|btw|smh|(?<!\b(?:i|we|they|you|he|she)\s)like))+$`)
/**
 * A phrase cut off in the middle: it ends on a word that needs another after it ("used to go to", "used to be"), or
 * on an adjective after a number or a quantifier, with no noun ("has many old").
 */
const OPEN_END = new RegExp(
  pattern`\b(?:to|of|in|on|at|for|with|from|by|about|into|onto|than|my|your|their|our|
  its|is|are|was|were|be|been|being|am|should|would|could|will|can|might|must|that|which|who|because|if|when|
  while|do|does|did|have|has|had|some|no|not|very|really|as|
  (?:many|few|several|more|most|both|two|three|four|five) (?:old|new|good|great|big|small|little|nice|other|
  different))$`,
  'i',
)
/**
 * Words run together where others were cut from between them: a copula and a modal ("is will be playing a farmer"),
 * a verb and a list's next item ("got and an old lab").
 */
const RUN_TOGETHER =
  /^(?:(?:is|am|are|was|were) (?:will|would|can|could|should|must|might|gonna)|[a-z]+ (?:and|or) (?:a|an|the|some))\b/
/**
 * A preposition or a copula left at the end of a clause of its own is whole: "bought the car I was looking at", "when
 * the meeting was"; so is a verb's particle ("moved in").
 */
const STRANDED = new RegExp(
  pattern`\b(?:(?:i|we|you|he|she|they)\s+(?:\w+\s+){0,3}(?:to|in|on|at|for|with|from|by|
  about|into)|(?:when|where|what|how|who|whoever)\s+(?:\w+\s+){0,3}(?:was|is|were|are|am|did|does|do)|
  (?:moved|checked|signed|logged|settled|dropped|chipped|pitched|joined|tuned|kicked|moving|checking) (?:in|on))$`,
  'i',
)
/** Whether a phrase is cut off in the middle: it ends on a word that needs another after it (OPEN_END, STRANDED). */
export const cutOff = (phrase: string): boolean => OPEN_END.test(phrase) && !STRANDED.test(phrase)

/** A phrase that ends pointing at a place or a thing said elsewhere. */
const POINTS_AT_END = /\b(?:here|there|it|them|that|this)$/

/** Words that stand for something said elsewhere ("did it", "chose them", "visited there"), not "the us" (the USA). */
export const STAND_IN_WORDS = 'it|them|him|her|me|(?<!the )us|that|this|those|these|there|here|one|stuff|things?'
const STAND_IN = new RegExp(`\\b(?:${STAND_IN_WORDS})\\b`, 'g')

/**
 * A memory is read on its own, away from the conversation: it must say what happened in words of its own. The words a
 * message trails off with are cut ("went to Disneyland a"). Left out: a phrase cut off in the middle, and one whose
 * only content is its verb once the words that stand for something said elsewhere are set aside ("hated it", "did
 * it", "invented them"). A life event stays even when short ("retired", "got married"): the event is its verb.
 * Returns the event to keep, or undefined.
 */
export function selfContained(said: string): string | undefined {
  const event = said.replace(TRAILING, '').trim()
  const life = LIFE.test(event)
  if (event.split(' ').length < 2 && !life) return undefined
  if (cutOff(event) || RUN_TOGETHER.test(event)) return undefined
  const ownWords = tokens(event.replace(STAND_IN, ' ')).length
  // "had a party": the noun is the event
  if (!life && ownWords < 2 && !HAD_EVENT.test(event)) return undefined
  // "found one that helps LGBTQ folks", "got one for my birthday", "finished watching it": the thing is only pointed at
  if (POINTED_ONE.test(event) || /^[a-z]+ [a-z]+ing (?:it|them)$/.test(event)) return undefined
  // "was born here", "moved there": a life event whose place is only pointed at; "was born" alone says nothing
  if (life && ownWords < 2 && (POINTS_AT_END.test(event) || /^(?:was|were) born$/.test(event))) return undefined
  return event
}

/** "found one that helps", "bought one yesterday": "one" as the object, not "one of" or "one day". */
const POINTED_ONE = /^[a-z]+ (?:a new |another )?one(?= (?:that|which|who|for|at|in|from|yesterday|today|last)\b|$)/
/**
 * An event whose object, right after its verb or its verb and a gerund, is only pointed at: "took it to the beach",
 * "quit eating them" (not "made it to").
 */
const POINTED_OBJECT = /^(?!(?:made|make) it\b)([a-z]+(?: [a-z]+ing)?) (it|them)\b/
/** Noun phrases that may be pointed at: a determiner (1) and up to three words after it (2). */
const NOUN_PHRASE =
  /\b(a|an|the|my|our|your|this|that|two|three|four|five|some|these|those) ((?:[a-z-]+ ){0,2}[a-z-]+)/g
/** How many of the clause's last noun phrases are looked at for what "it" or "them" points to. */
const MAX_POINTED_PHRASES = 3
/** Words that are no thing pointed at, though they may read as nouns. */
const NOT_POINTED = /^(?:lot|bit|while|time|day|week|month|year|way|thing|things|one|ones|kind|sort|few|couple)$/

/**
 * The event with "it" or "them" after its verb replaced by what the clause before named, when it named one thing of
 * the same number: "took it to the beach" after "i bought a new camera" -> "took the new camera to the beach"; "my"
 * and "your" become "their". Unchanged when nothing fits.
 */
function resolvePointed(event: string, before: string | undefined): string {
  if (!before) return event
  const person = POINTED_PERSON.exec(event)
  if (person) return resolvePerson(event, person[2] === 'him' ? 'male' : 'female', before)
  const pointed = POINTED_OBJECT.exec(event)
  if (!pointed) return event
  const plural = pointed[2] === 'them'
  // the nearest phrases first, and only a few of them: each is read by the tagger
  for (const [, determiner, words] of [...before.matchAll(NOUN_PHRASE)].slice(-MAX_POINTED_PHRASES).reverse()) {
    const phrase = words!.split(' ')
    // the longest start of the phrase that ends in a thing: "new camera last" -> "new camera"
    for (let end = phrase.length; end > 0; end--) {
      const head = phrase[end - 1]!
      if (NOT_POINTED.test(head)) continue
      if ((/[^s]s$/.test(head) || head === 'people' || head === 'children') !== plural) continue
      // read in its phrase: "bike" is a noun after "my new"
      const tags = termsOf(`${determiner} ${phrase.slice(0, end).join(' ')}`).at(-1)?.tags ?? []
      if (!tags.includes('Noun') || tags.some((tag) => /^(?:Pronoun|Date|Value|Adjective)$/.test(tag))) continue
      // "gave them a few rounds": a phrase of the event itself is not what "them" points to
      const named = phrase.slice(0, end).join(' ')
      if (event.includes(named)) continue
      const owner = /^(?:my|our|your)$/.test(determiner!) ? 'their' : 'the'
      return event.replace(POINTED_OBJECT, `$1 ${owner} ${named}`)
    }
  }
  return event
}

/** An event whose object, right after its verb, is a person pointed at: "met her in italy", "visited him". */
const POINTED_PERSON = new RegExp(pattern`^([a-z]+) (him|her)(?=$| (?:in|at|on|to|for|with|from|last|yesterday|today|
  when|after|before|again|back|up|out|every|once|twice|through|over)\b)`)
/** "my wife", "our new neighbor": the one or two words (1, 2) after an owner, where a person may be named. */
const OWN_PERSON = /\b(?:my|our) ([a-z-]+)(?: ([a-z-]+))?/g

/**
 * The event with "him" or "her" after its verb replaced by the person of the clause before, when it named one of that
 * gender or of none: "met her in italy" after "my wife is a model" -> "met their wife in italy".
 */
function resolvePerson(event: string, gender: 'female' | 'male', before: string): string {
  const fits = (word: string | undefined) =>
    !!word && Object.hasOwn(PEOPLE_NOUNS, word) && (PEOPLE_NOUNS[word] ?? gender) === gender
  const named = [...before.matchAll(OWN_PERSON)].flatMap(([, first, second]) =>
    fits(first) ? [first!] : fits(second) ? [second!] : [],
  )
  const last = named.at(-1)
  return last ? event.replace(POINTED_PERSON, `$1 their ${last}`) : event
}

/** A light verb's event names something of its own: two content words after the verb ("went to a pottery class"). */
function lightEvent(event: string): boolean {
  if (LIFE.test(event) || MEDIUM.test(event)) return true
  // "found it hard", "found them boring": an opinion, no event
  if (/^found (?:it|them|that|this|him|her|myself)\b/.test(event)) return false
  const rest = event.replace(/^\S+\s*/, '').replace(STAND_IN, ' ')
  return tokens(rest).length >= 2
}

/** A pregnancy is told in the present ("we're expecting twins!!"): an event of the day it is said. */
const EXPECTING = new RegExp(pattern`^(?:(?:i|we) (?:just )?(?:found out|learned) (?:that )?)?
  (?:i am|we are|my (wife|partner|girlfriend|fiancee)(?: is|'s)) ${ADV}
  (?:(?:expecting|pregnant with|having|(?:going|about) to have) (twins|triplets|a baby|
  a (?:baby )?(?:boy|girl)|our (?:first|second|third|fourth) (?:child|baby|kid)|(?:my|our) (?:first|second|third|
  fourth)|another baby)|
  (pregnant))\b(?! (?:shower|sitter|gender|monitor|registry|food|clothes)\b)`)

/** "we are trying for a baby", "we have been ttc for a year": a pregnancy hoped for, under way. */
const TRYING_FOR_BABY = new RegExp(pattern`^(?:i am|we are|i have been|we have been) ${ADV}(?:trying (?:for a baby|
  to (?:conceive|get pregnant|have a baby|start a family))|ttc)\b`)

function ruleExpecting(text: string, ctx: RuleContext): boolean {
  const trying = TRYING_FOR_BABY.exec(text)
  if (trying) {
    const event = 'is trying for a baby'
    ctx.acc.addMemory(
      { event, date: dayOf(ctx.referenceDate), importance: 'high', confidence: 0.8 },
      'memory.expecting',
      trying,
    )
    return true
  }
  const match = EXPECTING.exec(text)
  if (!match) return false
  const ref = ctx.referenceDate
  const date = dayOf(ref)
  // "my wife's pregnant with our second": the household's event, said as the person's
  const expected = match[2]
  const event = expected
    ? ownWordsInThirdPerson(
        `is expecting ${expected.replace(/^(?:my|our) (first|second|third|fourth)$/, 'their $1 child')}`,
      )
    : match[1]
      ? 'is expecting a baby'
      : 'is pregnant'
  ctx.acc.addMemory({ event, date, importance: 'high', confidence: 0.85 }, 'memory.expecting', match)
  return true
}

/**
 * A life event under way, told in the present ("i'm getting a divorce", "we are moving to denver"): dated by the
 * clause ("retiring this year") or else the day it is said, as a pregnancy is. 1 the event: a step that changes a
 * life, not a moment ("getting ready", "moving the couch").
 */
const UNDER_WAY = new RegExp(pattern`^(?:i (?:just )?(?:found out|learned|heard) (?:that )?)?(?:i am|we are|i will be|
  we will be) ${ADV}(
  (?:going to be|becoming) (?:a )?(?:first[- ]time )?(?:parents?|mom|mother|dad|father|grandparents?|grandmother|
  grandfather|grandma|grandpa|aunt|uncle|big (?:sister|brother))|(?:opening|starting|launching) (?:a|an|my own|our own)
  (?: new| small)? (?:restaurant|business|company|shop|store|bakery|cafe|salon|clinic|practice|studio|bar|brewery|
  food truck|nonprofit|charity|startup|firm|agency|daycare)|(?:starting|beginning) (?:a |my )?new (?:job|career|
  position|role)|marrying (?:my |a |an |the )?(?:[a-z]+ ){0,2}?[a-z]+|
  (?:getting|going through) (?:a divorce|divorced|married|engaged|separated|a separation|a breakup|promoted|
  a promotion|chemo|chemotherapy|radiation|dialysis|rehab|therapy|menopause)|
  (?:buying|closing on) (?:a|our|my|the) (?:first |new |dream )?(?:house|home|condo|apartment|flat)|
  (?:getting|adopting) (?:a|an|another|our first|my first) (?:new )?(?:puppy|dog|kitten|cat|pet)|
  (?:moving|relocating) (?:from [a-z]+(?: [a-z]+){0,2}? )?(?:abroad|overseas|back home|out of state|out|
  out of (?:my|our) (?:[a-z']+ )?(?:house|place|home|apartment|flat)|
  (?:back )?to [a-z]+(?: [a-z]+){0,2}?)|moving in (?:together|with (?:my|our|a|an|the) (?:[a-z]+ ){0,2}?[a-z]+)|
  moving(?=$|,| soon\b| (?:this|next) [a-z]+$| in (?:the )?(?:spring|summer|fall|autumn|winter)$|
  \sin a (?:few|couple)\b)|retiring|
  graduating)(?=$|,| (?:and|but|so|because|soon|now|finally|too|again|this|next|in|on|with|after|from|as)\b)`)

/** "i start a new job on monday", "we move to denver next month": a step of a life said in the present, with when. */
const PRESENT_STEP = /^(i|we) (start|begin|move|retire|graduate|close on) (.*)$/
/** When that is still to come: "tomorrow", "on monday", "next month", "this weekend". */
const STILL_TO_COME = new RegExp(
  `\\b(?:tomorrow|tonight|on (?:${WEEKDAYS.join('|')})|(?:next|this coming|this) (?:week|weekend|month|year|` +
    `spring|summer|fall|autumn|winter|${WEEKDAYS.join('|')})|in (?:${MONTHS.join('|')}))\\b`,
)
const GERUND_OF_STEP: Record<string, string> = {
  start: 'starting',
  begin: 'beginning',
  move: 'moving',
  retire: 'retiring',
  graduate: 'graduating',
  'close on': 'closing on',
}

/** Where an event under way happens: "in october in tuscany". */
const IN_OR_AT = afterPrepositions(['in', 'at'])

/** The clause as an event under way: "i start a new job on monday" is read as "i am starting a new job on monday". */
function asUnderWay(text: string): string {
  const step = PRESENT_STEP.exec(text)
  if (!step || !STILL_TO_COME.test(step[3]!)) return text
  return `${step[1] === 'we' ? 'we are' : 'i am'} ${GERUND_OF_STEP[step[2]!]} ${step[3]}`.trim()
}

function ruleUnderWay(text: string, ctx: RuleContext): boolean {
  const match = UNDER_WAY.exec(text)
  if (!match) return false
  const ref = ctx.referenceDate
  const date = futureDateOf(text, ref) ?? dateOf(text, ref) ?? dayOf(ref)
  // "we are going to be parents": one person of the two, in the words of the one
  const step = match[1]!.replace(/\b(?:a )?(parent|grandparent)s$/, 'a $1')
  // "we are getting married in october in tuscany": where, when the gazetteer knows it
  const rest = text.slice(match.index + match[0].length)
  const place = / to /.test(step) ? undefined : placeAfter(rest, IN_OR_AT, (word) => ctx.cases.isCapitalised(word))
  const event = ctx.cases.restore(ownWordsInThirdPerson(`is ${step}${place ? ` in ${place}` : ''}`))
  // a pet on its way matters less than a child, a move or a divorce
  const importance = /^(?:getting|adopting) [a-z ]*(?:puppy|dog|kitten|cat|pet)$/.test(step) ? 'medium' : 'high'
  ctx.acc.addMemory({ event, date, importance, confidence: 0.8 }, 'memory.under-way', match)
  return true
}

/**
 * Sobriety counted in time, which matters to an assistant: "been sober 3 years", "2 years clean today", "i have been
 * sober for 18 months". 1/2 the amount and unit said before the state; 3 how near, 4/5 the amount and unit after it.
 */
const SOBER_FOR = new RegExp(pattern`(?:^|(?<=^(?:i|we) [^,]{0,80}),\s*)
  (?:i am |i have been |i have |been |i am now |now )?(?:
  (${AMOUNT}) (days?|weeks?|months?|years?) (?:sober|clean(?=$| (?:and sober|today|now|as of)\b)|drug[- ]free|
  alcohol[- ]free)|(?:sober|clean and sober|drug[- ]free|alcohol[- ]free|clean(?= for)) (?:for )?
  (almost |nearly |over |about )?(${AMOUNT})\s(days?|weeks?|months?|years?))\b`)

/** "been sober 3 years as of today" -> "has been sober for 3 years", dated when said. */
function ruleSoberFor(text: string, ctx: RuleContext): boolean {
  const match = SOBER_FOR.exec(text)
  if (!match) return false
  const [amount, unit] = match[1] ? [match[1], match[2]!] : [`${match[3] ?? ''}${match[4]!}`, match[5]!]
  const ref = ctx.referenceDate
  const date = dayOf(ref)
  const event = `has been sober for ${amount} ${unit}`
  ctx.acc.addMemory({ event, date, importance: 'high', confidence: 0.8 }, 'memory.sober-for', match)
  return true
}

/** "i was in portugal a few months ago", "we were at disney world last year": 1 where, a known place to be dated. */
const WAS_AT = rx`^(?:i|we) ${ADV}(?:was|were) (?:in|at) (.+)$`

/** A time of life that places a stay in the past without a date: "when i was younger" (1). */
const WHEN_I_WAS = new RegExp(pattern`\bwhen i was ((?:a )?(?:younger|little|small|young|kid|child|teenager|teen|
  student)|in (?:high school|college|school|my (?:teens|twenties|thirties)))\b`)

/**
 * A dated stay at a known place: "was" alone makes no event ("i was tired"), a place and a date do, or a place and a
 * time of life ("i was in paris when i was younger").
 */
function ruleWasAt(text: string, ctx: RuleContext): boolean {
  const match = WAS_AT.exec(text)
  if (!match) return false
  const date = dateOf(text, ctx.referenceDate)
  const when = date ? undefined : WHEN_I_WAS.exec(text)
  const place = (date || when) && placeAtStart(match[1]!, (word) => ctx.cases.isCapitalised(word))
  if (!place) return false
  const where = `was in ${ctx.cases.restore(place, true)}`
  const event = when ? `${where} when they were ${when[1]}` : where
  ctx.acc.addMemory(
    { event, ...(date ? { date } : {}), importance: 'medium', confidence: 0.8 },
    'memory.past-event',
    match,
  )
  return true
}

/** "i was a teacher for 20 years": a role held for a while, in the past (1: the role and how long). */
const WAS_FOR = new RegExp(`^i ${ADV}was ((?:a|an) [a-z][a-z' -]{1,40}? for ${AMOUNT} (?:years?|decades?))\\b(?! ago)`)

/** A past role held for a while: "was" alone makes no event ("i was tired for a week"), a role and years do. */
function ruleWasFor(text: string, ctx: RuleContext): boolean {
  const match = WAS_FOR.exec(text)
  if (!match) return false
  const event = ctx.cases.restore(ownWordsInThirdPerson(`was ${match[1]}`))
  ctx.acc.addMemory({ event, importance: 'medium', confidence: 0.8 }, 'memory.lasting', match)
  return true
}

/** "i am going to lisbon in may with my wife": a trip planned (1: where, and what follows). */
const TRIP = new RegExp(pattern`^(?:i am|we are) ${ADV}(?:going to visit|visiting|
  (?:going|heading|flying|traveling|travelling|driving|off)\s(?:back |over |out )?to) (.+)$`)
/** "we are planning a road trip through utah": how (1), the trip (2), the preposition (3) and where (4). */
const TRIP_PLANNED = new RegExp(
  `^(?:i am|we are) ${ADV}(planning|taking|doing|going on) ((?:a|an|our|my) (?:[a-z0-9-]+ ){0,2}trip) ` +
    '(to|through|around|across|in) (.+)$',
)
/** "i am planning on going to florida", "we plan to visit japan": the verb (1) and where, with what follows (2). */
const TRIP_INTENDED = new RegExp(pattern`^(?:i|we) ${ADV}(?:am |are )?(?:planning|plan) (?:on |to )(going|go|visiting|
  visit|traveling|travel|moving|move|flying|fly|heading|head)(?: to)? (.+)$`)
/** The base form of a verb of travel said as a gerund. */
const TRAVEL_VERB: Record<string, string> = { going: 'go', visiting: 'visit', traveling: 'travel', moving: 'move' }
/** Where a trip's words end: punctuation, or a clause word. */
const TRIP_END = /\s*[,;.!?].*$|\s(?:and|but|so|because|since|if|when|while|lol|haha)\b.*$/

/** A trip planned to a place the gazetteer knows, undated: a month alone gives no year ("in may"). */
function ruleTrip(text: string, ctx: RuleContext): boolean {
  const planned = TRIP_PLANNED.exec(text)
  const intended = planned ? null : TRIP_INTENDED.exec(text)
  const match = planned ?? intended ?? TRIP.exec(text)
  if (!match) return false
  const trip = (planned ? planned[4]! : intended ? intended[2]! : match[1]!).replace(TRIP_END, '')
  // "utah's national parks": the place before its possessive
  const place = placeAtStart(trip.replace(/'s\b/, ''), (word) => ctx.cases.isCapitalised(word))
  if (!place) return false
  const rest = trip.slice(place.length)
  const verb = intended ? (TRAVEL_VERB[intended[1]!] ?? intended[1]!.replace(/ing$/, '')) : ''
  // the words before the place: "i am visiting", "we are going to visit", "i am flying to"
  const lead = match[0].slice(0, -match[1]!.length)
  const how = planned
    ? `is ${planned[1]} ${planned[2]} ${planned[3]}`
    : intended
      ? `plans to ${verb}${verb === 'visit' ? '' : ' to'}`
      : / visiting $/.test(lead)
        ? 'is visiting'
        : / going to visit $/.test(lead)
          ? 'is going to visit'
          : 'is going to'
  const event = ctx.cases.restore(ownWordsInThirdPerson(`${how} ${place}${rest}`))
  ctx.acc.addMemory({ event, importance: 'medium', confidence: 0.75 }, 'memory.trip', match)
  return true
}

/** Events kept on a calendar, said by their noun: "my knee surgery", "our wedding", "my finals". */
const SCHEDULED_EVENT = pattern`surgery|operation|procedure|wedding|interview|exams?|finals|test|recital|audition|
  race|marathon|appointment|due date|birthday|anniversary|defen[cs]e|presentation|flight|move|first day|baby shower|
  party|concert|tournament|competition|deadline|court date|hearing|scan|biopsy|mri|check-?up|induction|c-section|
  graduation|funeral|reunion|vacation|orientation|performance|trip|triathlon|ironman|[0-9]+k run|[0-9]+k|class|
  lesson|workshop|conference|retreat|camp|meeting|potluck|barbecue|bbq|cookout|book club|game night|sleepover|date|
  playdate|hike|cruise|festival|parade|ceremony|talk|speech|exhibition|gallery opening|show|gig|match|game`
/** A time ahead: "tomorrow", "next week", "on friday", "in october", "in two weeks"; not "as soon as". */
const COMING_TIME = pattern`tomorrow|tonight|(?:at|on|for|over|by) (?:${HOLIDAYS})|(?<!as )soon(?! as)|
  this (?:weekend|week|month|year|spring|summer|fall|autumn|winter|coming [a-z]+)|next [a-z]+|
  (?:on|this|next) (?:${WEEKDAYS.join('|')})|
  (?:in|next|early|late|mid) (?:${MONTHS.join('|')})|
  in (?:a|an|one|two|three|four|five|six|a few|a couple of|\d+) (?:days?|weeks?|months?)`
/** When an event of the calendar is or was: a time ahead, or one past ("yesterday", "last week", "in 2019"). */
const SCHEDULED_WHEN = pattern`${COMING_TIME}|today|yesterday|soon|(?:this|next|last) [a-z]+|
  last (?:${WEEKDAYS.join('|')})|on (?:${MONTHS.join('|')})|in (?:19|20)\d\d|on the \d{1,2}(?:st|nd|rd|th)`
/**
 * "ugh my knee surgery is next week", "our wedding was in june", "my son's soccer game is on saturday": an event of
 * the person's calendar, or of someone close named with it, said of the event. 1 the possessive, 2 what, 3 the verb,
 * 4 when.
 */
const SCHEDULED = new RegExp(pattern`^(?:(?:ugh|omg|so|and|but|well|also|yay|ok|okay|sigh|welp) )*((?:my|our)\s)?
  ((?:[a-z]+'s )?(?:[a-z]+ ){0,2}?(?:${SCHEDULED_EVENT})) (is|was|are|were) (?:finally |coming up |)?
  ((?:${SCHEDULED_WHEN})\b.*)$`)

/** "any tips for my first marathon next month?": the person's event (1) and when it is (2), asked about. */
const ASKED_EVENT = new RegExp(pattern`\b((?:my|our) (?:[a-z]+'s )?(?:[a-z]+ ){0,2}?(?:${SCHEDULED_EVENT}))
  \s((?:${COMING_TIME})(?: (?:morning|afternoon|evening|night))?)$`)

/** How a person awaits an event: "nervous about", "so excited for", "studying for", "getting ready for". */
const AWAITING = new RegExp(pattern`\b(?:nervous|excited|anxious|worried|scared|stressed|terrified|pumped|hyped|
  dreading|preparing|prepping|studying|training|cramming|practicing|practising|ready|looking forward)
  \s(?:about|for|to) (?:my|our)\b`)

/**
 * A question or request about an event of the person's own that says when it is, as the statement it makes: "how do
 * i prepare for my job interview tomorrow?" -> "my job interview is tomorrow". Undefined when it names no such event.
 */
export function eventAskedAbout(text: string): string | undefined {
  const match = ASKED_EVENT.exec(text)
  return match ? `${match[1]} is ${match[2]}` : undefined
}

/** "my knee surgery is next week" -> "their knee surgery is next week", dated by the day or the month it names. */
function ruleScheduled(text: string, ctx: RuleContext): boolean {
  const match = SCHEDULED.exec(text)
  // "wedding is next fall" said without "my" is the person's only for a milestone of a life
  if (!match || (!match[1] && !LIFE.test(match[2]!))) return false
  const [what, verb] = [match[2]!, match[3]!]
  const when = match[4]!.replace(TRIP_END, '')
  const ref = ctx.referenceDate
  const date = dateOf(when, ref) ?? (verb === 'was' || verb === 'were' ? pastDateOf : futureDateOf)(when, ref)
  const event = ctx.cases.restore(`their ${what} ${verb} ${when}`)
  // said with its time, so at least medium, as a dated event is
  ctx.acc.addMemory(
    { event, ...(date ? { date } : {}), importance: importance(what, true), confidence: 0.8 },
    'memory.scheduled',
    match,
  )
  return true
}

/** When a plan is to happen: a time ahead anywhere in it. */
const COMING_WHEN = new RegExp(`\\b(?:${COMING_TIME})\\b`)
/** What a plan is for: an event kept on a calendar or a milestone of a life. */
const PLANNED_EVENT = new RegExp(`\\b(?:${SCHEDULED_EVENT})\\b|${LIFE.source}`)
/**
 * "i am going to run the chicago marathon in october", "i'm having surgery next week", "we will fly out for my
 * cousin's wedding in june": how (1) and what (2), kept when it names an event and when it will be.
 */
const PLANNED = new RegExp(pattern`^(?:i am|we are|i|we) ${ADV}(going to|planning to|plan to|will|about to|
  [a-z]+ing)\s(.+)$`)

/** A step of a life said as the verb of a plan: "going to propose at christmas", "will retire next year". */
export const LIFE_STEP =
  /^(?:propose|marry|retire|elope|relocate|emigrate|graduate|get (?:married|engaged)|move (?:to|back|abroad))\b/

/** Verbs in -ing of a wish or a try, not a plan. */
const WISHING = /^(?:hoping|wanting|wishing|dreaming|thinking|trying|considering|looking(?! forward)|aiming|debating)\b/

/** Words that close a plan without telling it: "soooo much", "though". */
const PLAN_TAIL = /\s(?:so+|very|really) much\b.*$|\s(?:though|tho|lol|haha)\b.*$/

/** A plan with a time ahead and an event: "is going to run the Chicago marathon in October", dated when it can be. */
function rulePlanned(text: string, ctx: RuleContext): boolean {
  const match = PLANNED.exec(text)
  // "i am hoping to", "i am looking to": a wish, not a plan
  // a plan that names the other speaker ("i will let you know") is about the conversation
  if (!match || /\b(?:not|never|if|maybe|might|you)\b/.test(text) || WISHING.test(`${match[1]} ${match[2]}`))
    return false
  const how = match[1]!
  const what = match[2]!.replace(TRIP_END, '').replace(PLAN_TAIL, '')
  // after "will" or "going to" the first word is the verb ("will move out soon"), not the event
  const object = /ing$/.test(how) ? what : what.replace(/^\S+\s?/, '')
  const event = PLANNED_EVENT.test(object) || (object !== what && LIFE_STEP.test(what))
  if (!COMING_WHEN.test(what) || !event || /^have to\b/.test(what)) return false
  const verb = how === 'will' ? 'will' : how === 'plan to' ? 'plans to' : `is ${how}`
  const ref = ctx.referenceDate
  const date = dateOf(what, ref) ?? futureDateOf(what, ref)
  const said = ctx.cases.restore(ownWordsInThirdPerson(`${verb} ${what}`))
  ctx.acc.addMemory(
    { event: said, ...(date ? { date } : {}), importance: importance(what, true), confidence: 0.75 },
    'memory.planned',
    match,
  )
  return true
}

/**
 * Something the people around the person did for them: "my friends threw me a surprise party", "my dad took us to
 * the zoo". Who (1), the verb (2), the rest (3).
 */
const DONE_FOR_ME = new RegExp(pattern`^(?:and |so )?my (?:(?:best|close|old|whole|older|younger|little|big) )?
  (friends?|family|parents|mom|mum|dad|mother|father|husband|wife|partner|boyfriend|girlfriend|fiance|fiancee|
  brothers?|sisters?|sons?|daughters?|kids|children|grandma|grandpa|grandparents|aunt|uncle|cousin|boss|manager|
  coworkers?|colleagues?|team|neighbou?rs?|roommates?|ex|mentor|teacher|coach|therapist|grandmother|grandfather|nana|
  granny|in-laws|bestie|bff) (?:just |finally |even |all )?(threw|took|gave|bought|made|
  got|sent|showed|brought|taught|surprised|invited|drove|cooked|baked|treated|kicked|helped|fired|hired|dumped|left|
  visited|raised|adopted|picked) (?:me|us)\b(.*)$`)

/** Verbs of DONE_FOR_ME that are an event without an object: "my boss fired me", "my parents kicked me out". */
const WHOLE_EVENT_VERBS = new Set(['fired', 'hired', 'dumped', 'left', 'kicked', 'visited', 'adopted', 'raised'])

/** "my friends threw me a surprise party" -> "their friends threw them a surprise party", dated when said. */
function ruleDoneForMe(text: string, ctx: RuleContext): boolean {
  const match = DONE_FOR_ME.exec(text)
  if (!match) return false
  const rest = match[3]!
    .replace(HEDGED_TAIL, '')
    .replace(THANKS_AFTER, '')
    .replace(FEELING_AFTER, '')
    .replace(RELATIVE_TIME, '')
    .replace(TRAILING, '')
    .replace(/\s+/g, ' ')
    .trim()
  // "my mom made me laugh", "my boss got me thinking": no event of its own; "my boss fired me" is one
  const whole = WHOLE_EVENT_VERBS.has(match[2]!) && /^(?:out|up|off|on|)$/.test(rest)
  if (!whole && tokens(rest).length === 0) return false
  if (/^(?:laugh|cry|smile|think|feel|wonder|realize|so|very|really)\b/.test(rest)) return false
  const ref = ctx.referenceDate
  const date = dateOf(text, ref) ?? pastDateOf(text, ref)
  const said = `their ${match[1]} ${match[2]} them ${rest}`.replace(/[\s,.;:!?]+$/, '')
  const event = ctx.cases.restore(ownWordsInThirdPerson(said))
  const importance = LIFE.test(rest) || /^(?:fired|dumped|left|kicked)$/.test(match[2]!) ? 'high' : 'medium'
  ctx.acc.addMemory({ event, ...(date ? { date } : {}), importance, confidence: 0.75 }, 'memory.done-for-them', match)
  return true
}

/**
 * `before`: the clause read just before this one, where a pronoun of the event may point ("we adopted two kittens.
 * i named them salt and pepper").
 */
export function ruleMemories(clause: ClauseInfo, ctx: RuleContext, before?: string): void {
  // "i started my new job yesterday i really like it so far": each statement run on without a stop, on its own
  // (only after a statement of the person's own: "for a couple of years i have been retired" is one)
  const runOn = /^(?:i|we) /.test(clause.text) ? clause.text.search(RUN_ON_I) : -1
  if (runOn <= 0) {
    memoriesOfClause(clause, ctx, before)
    return
  }
  const first = clause.text.slice(0, runOn)
  memoriesOfClause(describe({ ...clause, text: first }), ctx, before)
  ruleMemories(
    describe({ ...clause, text: clause.text.slice(runOn).replace(/^\s+(?:(?:now|then)\s+)?/, '') }),
    ctx,
    first,
  )
}

function memoriesOfClause(clause: ClauseInfo, ctx: RuleContext, before?: string): void {
  if (clause.hedged) return
  const text = clause.text
  // "i am going to be a grandparent" is an event under way, said as a plan
  const ahead = asUnderWay(text)
  // a trip planned is said as a wish ("i plan to visit japan"), and is read before wishes are left out
  if (TRIP_INTENDED.test(text) && ruleTrip(text, ctx)) return
  if (ruleUnderWay(ahead, ctx) || rulePlanned(ahead, ctx) || clause.desire) return
  if (ruleExpecting(text, ctx) || ruleWasAt(text, ctx) || ruleWasFor(text, ctx) || ruleTrip(text, ctx)) return
  if (ruleScheduled(text, ctx) || ruleSoberFor(text, ctx)) return
  // "i am so nervous about my driving test on monday": the event, said by how the person awaits it
  const ownEvent = AWAITING.test(text) ? eventAskedAbout(text) : undefined
  if (ownEvent && ruleScheduled(ownEvent, ctx)) return
  if (text.split(' ').length < 3) return
  if (/\b(?:did not|was not|were not|never|have not|had not|am not|are not|will not)\b/.test(text)) return
  const ref = ctx.referenceDate
  // family events that are the person's own milestones
  const fam = FAMILY_EVENT.exec(text)
  if (fam) {
    // a family event is told in the past: "on monday" is the last one
    const date = dateOf(text, ref) ?? pastDateOf(text, ref)
    const event = ctx.cases.restore(
      ownWordsInThirdPerson(
        text
          .slice(fam.index)
          .replace(/^my /, 'their ')
          .replace(RUN_ON, '')
          .replace(RUN_ON_I, '')
          .replace(RELATIVE_TIME, '')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    )
    ctx.acc.addMemory(
      { event, ...(date ? { date } : {}), importance: 'high', confidence: 0.85 },
      'memory.family-event',
      fam,
    )
    return
  }
  if (ruleDoneForMe(text, ctx)) return
  const lost = POSSESSION_EVENT.exec(text)
  if (lost) {
    const date = dateOf(text, ref)
    const event = ownWordsInThirdPerson(lost[0].replace(/^my /, 'their ').replace(/ just /, ' '))
    ctx.acc.addMemory(
      { event, ...(date ? { date } : {}), importance: 'medium', confidence: 0.8 },
      'memory.possession-event',
      lost,
    )
    return
  }
  const pv = pastVerb(text)
  const said = dateOf(text, ref) ?? (pv && pv.verb !== 'used' ? pastDateOf(text, ref) : undefined)
  // Something told in the past tense happened by the reference date: a later date is a misreading ("finished it next
  // month")
  const date = pv && said && said > dayOf(ref) ? undefined : said
  let eventStart: number | undefined
  let usedTo = false
  let lasting = false
  if (pv) {
    if (pv.verb === 'used' && /^used? to\b/.test(text.slice(pv.at))) usedTo = true
    // "i used my savings to buy a car": a thing used for an end is an event when it says enough
    else if (pv.verb === 'used' && /^used (?:[a-z]+ ){1,4}to [a-z]+/.test(text.slice(pv.at))) {
      if (!date && !lightEvent(text.slice(pv.at))) return
    } else if (
      TRIVIAL.has(pv.verb) &&
      !LIFE.test(text.slice(pv.at)) &&
      !MEDIUM.test(text.slice(pv.at)) &&
      !date &&
      // "had a rehearsal with my band": "had" that tells an event is one undated too
      !(pv.verb === 'had' && HAD_EVENT.test(text.slice(pv.at)))
    )
      return
    else if (LIGHT.has(pv.verb) && !date && !lightEvent(text.slice(pv.at))) return
    eventStart = pv.at
  } else if (date && (LIFE.test(text) || MEDIUM.test(text))) {
    // a dated plan or present-perfect milestone: "I am getting married next June"; of two verb phrases ("i am trans
    // and just started hrt last month") each is read on its own
    if (clause.joined) return
    const match = rx`\\b(?:i|we) ${ADV}(?:am|are|will|have|plan to|start|begin)\\b`.exec(text)
    if (!match) return
    eventStart = match.index + 2
  } else if (!date && (LIFE.test(text) || MEDIUM.test(text))) {
    // done for a while up to now: "I have worked as a nurse for 15 years", "we have lived here for two decades"
    const match =
      rx`\\b(?:i|we) ${ADV}(?:have|had) (?:been [a-z]+ing|[a-z]+ed|taught|run|done|grown|known|served|been)\\b`.exec(
        text,
      )
    if (!match || text.search(DURATION) < 0) return
    eventStart = match.index + 2
    lasting = true
  }
  if (eventStart === undefined) return
  let event = text
    .slice(eventStart)
    .trimStart()
    .replace(HEDGED_TAIL, '')
    .replace(CONSEQUENCE, '')
    .replace(AND_ANOTHER, '')
    .replace(RUN_ON, '')
    .replace(RUN_ON_I, '')
    .replace(THANKS_AFTER, '')
    .replace(NOW_AFTER, '')
    .replace(FEELING_AFTER, '')
    .replace(POINTED_REASON, '')
    .replace(/^(?:i|we) /, '')
    .replace(/^have\b/, 'has')
    .replace(/^am\b/, 'is')
    .replace(/^use to\b/, 'used to')
    .replace(RELATIVE_TIME, '')
    .replace(/\s+/g, ' ')
    .trim()
  event = resolvePointed(event, before)
  // "watched it like 10 times": what "it" is, nothing before said, so the memory would not read on its own
  if (POINTED_OBJECT.test(event)) return
  const whole = selfContained(event.replace(/[,.;:!?]+$/, ''))
  if (!whole) return
  // "i have taken a break": the event is read from the participle, as a past verb's is, and keeps its auxiliary
  event = pv?.perfect ? `${pv.perfect === 'had' ? 'had' : 'has'} ${whole}` : whole
  if (event.length > 160) event = event.slice(0, 157).replace(/\s+\S*$/, '') + '...'
  const imp = usedTo ? 'low' : importance(event, !!date)
  const confidence = usedTo ? 0.6 : imp === 'high' ? 0.9 : imp === 'medium' ? 0.8 : 0.6
  const rule = usedTo ? 'memory.used-to' : pv ? 'memory.past-event' : lasting ? 'memory.lasting' : 'memory.dated-plan'
  ctx.acc.addMemory(
    { event: ctx.cases.restore(ownWordsInThirdPerson(event)), ...(date ? { date } : {}), importance: imp, confidence },
    rule,
  )
}

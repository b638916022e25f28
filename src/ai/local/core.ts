// core_info: name, age, gender and location from first-person statements.
import { BUSINESSES, GENDER_CUES, GENDER_EXPLICIT, GENERIC_PLACES, MOODS, OCCUPATIONS, TRAITS } from './lexicon-core.js'
import { CATEGORY_OF, HOBBY_AGENTS } from './lexicon-interests.js'
import { isFaith } from './faith.js'
import { placeKind, type PlaceKind } from './gazetteer.js'
import { nlpHas, placesIn } from './nlp.js'
import { PEOPLE_NOUNS } from './others.js'
import { ADV, GREETING, PHRASE_END, TITLES, type ClauseInfo, type RuleContext } from './rules-common.js'
import type { RuleId } from './rules.js'
import { STOP_WORDS } from '../../domain/normalise.js'
import { MONTHS, NUMBER_RE, parseNumber, titleCase, WEEKDAYS } from './text.js'
import { pattern, rx } from './regex.js'

// ---------------------------------------------------------------- name

const NOT_NAMES = new Set(
  `not a an the very so really just here there back home ok okay fine good great sure sorry new from in at on with of
  and but also too still glad happy tired sick busy done ready going gonna married single retired alone currently
  always never now only your you me him her it this that what who crazy lucky later tomorrow anytime whatever anything
  soon tonight again maybe please old young sir madam mom dad baby honey dear bro buddy dude man i am is was were we
  they he she my btw lol haha tho though by how where when why which whats nice thanks hello hi hey nobody everyone
  everybody someone somebody anyone human veteran legend bi latina latino well alright`.split(/\s+/),
)

function cleanName(raw: string): string | undefined {
  const words: string[] = []
  // the name ends where its clause does: "emily, could i get yours"
  for (const w of raw
    .split(/[,;:.!?]/, 1)[0]!
    .trim()
    .split(/\s+/)) {
    if (!/^[a-z][a-z'-]*$/.test(w) || NOT_NAMES.has(w) || words.length === 3) break
    words.push(w)
  }
  if (!words.length) return undefined
  return words.join(' ')
}

const looksLikeWord = (w: string) =>
  TRAITS.has(w) || w in MOODS || OCCUPATIONS.has(w) || CATEGORY_OF.has(w) || GENERIC_PLACES.has(w)

/** What compromise tags a word as when it is no name: "it's cold here", "it's me again", "it's raining again". */
const NOT_A_NAME_TAGS =
  '(#Adjective|#Verb|#Adverb|#Pronoun|#Determiner|#Date|#Value|#Place|#Preposition|#Conjunction|#Organization)'

/** A greeting that opens a message, before the person says who they are ("hi, i'm dawn"). */
export const GREETED = /^(?:hi|hello|hey|greetings)(?: there| all| everyone| guys)?\b/
/** "i'm dawn, nice to meet you": an introduction, whatever opened the message. */
const NICE_TO_MEET = /,? (?:nice|pleased|good|great) to meet you\b/
/** Endings of peoples and languages: "italian", "japanese", "irish", "korean". */
const DEMONYM_END = /(?:ian|ese|ish|ean)$/

/** "call me sam", "i go by sam": the name (1). */
const CALL_ME = new RegExp(pattern`
  \b(?:(?:you can |please |just )?call me|i am called|i go by|people call me|everyone calls me|friends call me)\s+
  (.+)$`)
/**
 * "hi, this is sam", "i am sam and ...", "hello i am sara who are you", "i am george i farm bees": the name (1),
 * followed by the end, a new clause or a question back.
 */
const THIS_IS_NAME = new RegExp(pattern`
  ^${GREETING}?[, ]*(?:this is|i am)\s+([a-z][a-z'-]*(?:\s+[a-z][a-z'-]*)?)\s*(?:$|,|\band\b|\bfrom\b|\bhere\b|
  \bby the way\b|\bbtw\b|\b(?:who|what|how|where|and) (?:are|about|is|do)\b|\bi\b|\bnice to\b)`)
/**
 * "alan here", "hey girl, chelsea here" (1), "hey it's maya again" (2): a name at the start of a message; "it's
 * sarah" said alone (3).
 */
const NAME_HERE = new RegExp(pattern`^${GREETING}?[, ]*(?:(?:i am |(?:${TITLES}) )?([a-z][a-z'-]*) here\b|
  it(?: i)?s ([a-z][a-z'-]*)(?: here| again)\b|it(?: i)?s ([a-z][a-z'-]*)$)`)
/** A clause that gives the name even when it ends in a question: "my name is larry what is yours?". */
export const GIVES_NAME = new RegExp(pattern`^${GREETING}?[, ]*(?:my name is|this is|i am)\b`)

/**
 * `greeted`: the clause follows a greeting that opens its message ("hi, i'm dawn"), where "i am" and one bare word
 * that is no other kind of word introduces the person.
 */
export function ruleName(clause: ClauseInfo, ctx: RuleContext, greeted = false): void {
  const text = clause.text
  let match =
    /\bmy (?:full |first |real |given )?name(?: is| =|:)\s+(.+)$/.exec(text) ??
    /\bname's\s+(.+)$|^names ([a-z]+) (?:by the way|btw)\b/.exec(text)
  if (match) {
    const name = cleanName(match[1] ?? match[2]!)
    if (name) ctx.acc.setCore('name', ctx.cases.restore(name, true), 0.95, 'name.my-name-is', match)
    return
  }
  match = CALL_ME.exec(text)
  if (match) {
    const name = cleanName(match[1])?.split(' ')[0]
    if (name && !looksLikeWord(name)) {
      const sure = nlpHas(name, '#Person') || ctx.cases.isCapitalised(name)
      // "call me lazy", "call me pretty old school": an idiom about oneself, unless written as a name
      if (!sure && nlpHas(name, '(#Adjective|#Adverb)')) return
      ctx.acc.setCore('name', ctx.cases.restore(name, true), sure ? 0.85 : 0.6, 'name.call-me', match)
    }
    return
  }
  match = NAME_HERE.exec(text)
  // a first name compromise knows; "it's sarah" alone only as the message's first words ("my favorite? it's sarah")
  const here = match && (match[1] ?? match[2] ?? (clause.sentence === 0 ? match[3] : undefined))
  if (here && !NOT_NAMES.has(here) && nlpHas(here, '#FirstName') && !nlpHas(here, '#Place')) {
    ctx.acc.setCore('name', ctx.cases.restore(here, true), 0.7, 'name.here', match!)
    return
  }
  // "hey it's Maya again": a name no list knows, written with its capital, in words only a name fits
  const unknown = match?.[2]
  if (unknown && ctx.cases.isCapitalised(unknown) && !looksLikeWord(unknown) && !nlpHas(unknown, NOT_A_NAME_TAGS)) {
    ctx.acc.setCore('name', ctx.cases.restore(unknown, true), 0.6, 'name.here', match!)
    return
  }
  match = THIS_IS_NAME.exec(text)
  // "i am priya btw": the name, without what closes the clause
  if (match) match[1] = match[1].replace(/ (?:btw|lol|haha|tho|though|by)$/, '')
  if (match && !clause.hedged) {
    const words = match[1].split(' ').filter((w) => !looksLikeWord(w) && !NOT_NAMES.has(w))
    if (!words.length || words.length !== match[1].split(' ').length) return
    // "i am considering denver", "i am visiting paris": a verb, whatever follows it
    if (nlpHas(words[0]!, '#Gerund')) return
    // "i am muslim and i pray": a faith (faith.ts); "this is christian" stays a name
    if (isFaith(match[1]) && /^i am\b/.test(match[0])) return
    const person = nlpHas(match[1], '#Person') && !nlpHas(match[1], '#Place')
    const nameLike =
      !nlpHas(match[1], '(#Adjective|#Verb|#Demonym|#Place|#Organization)') && !DEMONYM_END.test(match[1])
    const capital = words.every((w) => ctx.cases.isCapitalised(w)) && nameLike
    const introduced =
      (greeted || GREETED.test(text) || NICE_TO_MEET.test(text)) &&
      words.length === 1 &&
      nameLike &&
      !Object.hasOwn(PEOPLE_NOUNS, words[0]!) &&
      !HOBBY_AGENTS[words[0]!] &&
      !nlpHas(words[0]!, `(${NOT_A_NAME_TAGS}|#Plural)`)
    if (person || capital || introduced)
      ctx.acc.setCore('name', ctx.cases.restore(match[1], true), person ? 0.8 : 0.6, 'name.i-am', match)
  }
}

// ---------------------------------------------------------------- age

const AGE = `(${NUMBER_RE})`
const BODY_PARTS = 'body|self|bones|knees|back|joints|legs|hands|eyes|heart|brain|mind'
/** A word of how someone is before their age ("pretty", "average looking"), none that leads to someone else. */
const HOW_WORD = '(?!(?:of|to|with|for|and|my|his|her|their|our|a|an|the)\\b)[a-z]+ '
/** [rule, pattern, confidence, bare: a number with no unit, so small or large ones are no age] */
const AGE_RULES: [RuleId, RegExp, number, boolean][] = [
  ['age.years-old', rx`\\bi am ${ADV}(?:a |an )?${AGE}[- ](?:years?|yrs?)[- ](?:old|young|of age)\\b`, 0.95, false],
  // "i am a 34-year-old nurse", "as a 46 year old engineer i can relate": the person described
  ['age.year-old', rx`(?:\\bi am ${ADV}|^as )(?:a |an )?${AGE}[- ]year[- ]old\\b`, 0.95, false],
  ['age.lived-for', rx`\\bi (?:have|had) lived (?:on (?:this )?earth |in this world )?for ${AGE} years\\b`, 0.6, false],
  ['age.bare-end', rx`\\bi am ${AGE}(?: years| yrs| yo| y/o)?\\s*$`, 0.9, true],
  ['age.turned', rx`\\bi ${ADV}turned ${AGE}\\b`, 0.85, false],
  [
    'age.my-age-is',
    rx`\\b(?:my age is|i am aged|i am age|i am (?:around |about )?the age of)\\s+${AGE}\\b`,
    0.95,
    false,
  ],
  ['age.i-comma-n', rx`^i,? \\(?${AGE}\\)?,`, 0.9, false],
  ['age.almost', rx`\\bi am (?:almost|nearly|about|around) ${AGE}\\b`, 0.6, false],
  [
    'age.turn',
    rx`\\bi (?:am turning|turn|will turn|am going to turn) ${AGE}\\b(?! (?:minutes|hours|days|degrees))`,
    0.6,
    false,
  ],
  // "i am a male 45 year old", "my 56 year old body" (not "my 3 year old son")
  // "i am a pretty average looking 19 year old": up to three words of how, none that leads to someone else's age
  [
    'age.adjective-years-old',
    rx`\\bi am (?:a |an )?(?:${HOW_WORD}){1,3}${AGE}[- ](?:years?|yrs?)[- ]old\\b`,
    0.8,
    false,
  ],
  ['age.my-n-year-old-body', rx`\\bmy ${AGE}[- ](?:years?|yrs?)[- ]old (?:${BODY_PARTS})\\b`, 0.8, false],
  // "i am only 24 , so", "i am 45 now", "i am 12 and the kids ...", "i am 100 after all": a number right after
  // "i am" with nothing that would make it a measure ("i am 6 feet tall", "i am 2 hours away"); "(since) i am only 23
  // there is time", "(because) i am 70 my kids worry": or with the next clause run on, its subject first
  [
    'age.bare',
    new RegExp(
      `\\bi am ${ADV}${AGE}(?= ?(?:,|now\\b|and\\b|so\\b|but\\b|with\\b|after all\\b|already\\b|myself\\b|baby\\b|` +
        'lol\\b|haha\\b|btw\\b|fyi\\b|tbh\\b|by the way\\b|!|\\.|$|(?:there (?:is|are)|my|i|we|they)\\b))',
    ),
    0.85,
    true,
  ],
  // "i am wanda , age 60", "in california , age 46"
  ['age.comma-age', rx`(?:^|, )age ${AGE}\\b(?! (?:of|group|range|limit|gap))`, 0.85, false],
  // "i just finished my 100th birthday", "at 24 i need ...", "being 13 and all", "turning 40 is a bummer"
  ['age.birthday', rx`\\bmy ${AGE}(?:st|nd|rd|th) birthday\\b`, 0.7, false],
  [
    'age.in-my-years',
    rx`\\bin (?:all )?my ${AGE} years (?:on|in|of) (?:this|the|god's) [a-z ]{0,20}?(?:planet|earth|world|life)\\b`,
    0.7,
    false,
  ],
  ['age.at-n', rx`^(?:even )?at ${AGE}(?= (?:i\\b|,))`, 0.7, true],
  ['age.being-n', rx`\\bbeing ${AGE}(?= (?:and|,|years?)\\b|$)`, 0.7, true],
  ['age.turning', rx`^turning ${AGE}\\b`, 0.6, true],
  // "19 and still no idea what to major in", "35, stay at home dad to two boys": an age that opens a message
  [
    'age.n-and',
    new RegExp(pattern`^${AGE},? (?:(?:and )?(?:still|already|just|newly|recently|single|married|divorced|retired|
      never|living|working|unemployed|broke|i am|i have|i still)|stay[- ]at[- ]home|mom|mum|dad|mother|father|student|
      a (?:mom|dad|student|single|married))\b`),
    0.6,
    true,
  ],
  // "27f, looking for advice", "(34m)": age and sex as forums write them
  ['age.n-sex', rx`^\\(?${AGE} ?/?[fm]\\)?(?=$|[ ,.:])`, 0.85, true],
]

/**
 * Years between an age the clause names and now: "my 18th birthday ten years ago" was 10 years ago, "turning 30" is a
 * year before 30. NaN when the clause dates it in a way that gives no number ("years ago"), so no age is taken; 0 for
 * the other rules.
 */
function yearsSince(rule: RuleId, text: string): number {
  // "i am turning 30 next month": 29 until that birthday
  if (rule === 'age.turn' || rule === 'age.turning') return -1
  if (rule !== 'age.birthday') return 0
  const ago = /\b([a-z]+|\d+) years? ago\b/.exec(text)
  if (!ago) return 0
  return parseNumber(ago[1]) ?? Number.NaN
}

/** "i am 30", "i am only thirty": a bare number after "i am", not a distance or a time. */
const I_AM_ONLY_NUMBER = new RegExp(pattern`
  ^i am (?:only |just )?\S+$|\bi am (?:only|just) (?:\d+|[a-z]+)\b(?! (?:feet|foot|inches|miles|minutes|hours|days|
  blocks|km|kilometers|meters|pounds|lbs))`)

/** "i was born on march 3rd 1990", "born in 1985, so", "my birthday is 3 march": what follows (1). */
const BORN = /(?:\bi was born\b|^(?:i |i am )?born\b|\bmy (?:birthday|date of birth|dob|birth ?date) is\b)(.*)$/
const BIRTH_YEAR = /\b((?:19|20)\d\d)\b(?!s)/
const MONTH_NAMES = MONTHS.join('|')
/** A day and a month in either order: "march 3rd" (1, 2), "3rd of march" (3, 4). */
const DAY_AND_MONTH = new RegExp(
  `\\b(${MONTH_NAMES}) (\\d\\d?)(?:st|nd|rd|th)?\\b|\\b(\\d\\d?)(?:st|nd|rd|th)? (?:of )?(${MONTH_NAMES})\\b`,
)

/**
 * The age from a birth year, exact when the day is said too ("i was born on march 3rd 1990"), give or take a year
 * otherwise; and the birthday as a memory when its day is said ("my birthday is march 3rd").
 */
function ruleBirth(text: string, ctx: RuleContext): void {
  const born = BORN.exec(text)
  if (!born) return
  const said = born[1]!.replace(/[,!?].*$/, '')
  const year = BIRTH_YEAR.exec(said)
  const dayMonth = DAY_AND_MONTH.exec(said)
  const month = dayMonth ? MONTHS.indexOf((dayMonth[1] ?? dayMonth[4])!) : -1
  const day = dayMonth ? Number(dayMonth[2] ?? dayMonth[3]) : 0
  const valid = month >= 0 && day >= 1 && day <= 31
  if (year) {
    const reference = ctx.referenceDate
    const before = valid && reference.getUTCMonth() * 100 + reference.getUTCDate() < month * 100 + day
    const age = reference.getUTCFullYear() - Number(year[1]) - (before ? 1 : 0)
    if (age >= 1 && age <= 120) ctx.acc.setCore('age', age, valid ? 0.85 : 0.6, 'age.born-in', born)
  }
  // "i was born on ..." is a past event of its own (memories.ts): the birthday memory is for "my birthday is"
  if (valid && born[0].startsWith('my ')) {
    ctx.acc.addMemory(
      { event: `their birthday is ${titleCase(MONTHS[month]!)} ${day}`, importance: 'medium', confidence: 0.85 },
      'memory.birthday',
      born,
    )
  }
}

/**
 * "i am in my mid 30s", "mid 30s, engineer", "in my twenties": an age said by its decade; 1 where in it, 2 the decade
 * in digits, 3 in words. Not a decade of music or of a life told ("80s music", "90s kid").
 */
const DECADE = new RegExp(pattern`(?:\bi am (?:only |just |still |almost |nearly |already )?(?:in )?(?:my )?|
  ^(?:in my )?)(?:(early|mid|late)[- ]?)?
  (?:([2-9]0)'?s|(twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties))
  (?=$|,| (?:and|so|but|now|lol|haha|here|btw|myself|with)\b)`)
const DECADE_WORDS = ['twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties']
/** Where in its decade an age said as "early", "mid" or "late" is taken to be; the middle when none is said. */
const IN_DECADE: Record<string, number> = { early: 2, mid: 5, late: 8 }
/** A decade is an estimate: weaker than any age said as a number. */
const DECADE_CONFIDENCE = 0.5

function ruleDecade(text: string, ctx: RuleContext): void {
  const match = DECADE.exec(text)
  if (!match) return
  const decade = match[2] ? Number(match[2]) : (DECADE_WORDS.indexOf(match[3]!) + 2) * 10
  ctx.acc.setCore('age', decade + IN_DECADE[match[1] ?? 'mid']!, DECADE_CONFIDENCE, 'age.decade', match)
}

/** Words that say who a person is, after an age in a bio ("22, junior at ohio state"), beside the jobs. */
const BIO_WORDS = new Set(
  `student freshman sophomore junior senior grad undergrad single married divorced widowed retired mom dad mum parent
  newlywed`.split(/\s+/),
)
/** "22, junior at ohio state", "me: 41, nurse": an age opening a bio (1), and who the person is after it (2). */
const BIO_AGE =
  /^(?:[a-z' ]{1,30}:\s*)?\(?(\d{2})\)?,\s*(?:a |an )?((?:[a-z-]+ ){0,2}[a-z-]+)(?=$|[,.!]| (?:at|in|from|and|of)\b)/

/** An age that opens a bio, when what follows it says who the person is: true when it set the age. */
function ruleBioAge(clause: ClauseInfo, ctx: RuleContext): boolean {
  const bio = BIO_AGE.exec(clause.text)
  const who = bio ? bio[2]!.split(' ').at(-1)! : ''
  if (!bio || (!BIO_WORDS.has(who) && !OCCUPATIONS.has(who))) return false
  const age = Number(bio[1])
  if (age < 10) return false
  ctx.acc.setCore('age', age, 0.8, 'age.bio', bio)
  return true
}

export function ruleAge(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged || clause.desire) return
  ruleBirth(clause.text, ctx)
  ruleDecade(clause.text, ctx)
  if (ruleBioAge(clause, ctx)) return
  for (const [rule, re, conf, bare] of AGE_RULES) {
    const match = re.exec(clause.text)
    if (!match) continue
    const said = parseNumber(match[1])
    if (said === undefined) continue
    const age = said + yearsSince(rule, clause.text)
    if (Number.isNaN(age)) continue
    if (age < 1 || age > 120 || (bare && (age > 110 || age < (I_AM_ONLY_NUMBER.test(clause.text) ? 2 : 10)))) continue
    ctx.acc.setCore('age', age, conf, rule, match)
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

/**
 * The gender word opens a name or a fandom, not the person: "a Man United supporter", "a man city fan". A name is
 * told by the capital of the word after it; a fandom by a fan word within two words.
 */
function modifiesNext(text: string, match: RegExpExecArray, ctx: RuleContext): boolean {
  const after = text.slice(match.index + match[0].length)
  const next = /^ ([a-z][a-z'-]*)/.exec(after)
  return (
    next !== null &&
    !STOP_WORDS.has(next[1]!) &&
    (ctx.cases.isCapitalised(next[1]!) || /^(?: [a-z'-]+){1,2}? (?:fan|supporter|lover|fanatic)s?\b/.test(after))
  )
}

/** "27f", "(34m)": the sex (1) after an age, at the start of a clause. */
const AGE_AND_SEX = /^\(?(?:1[3-9]|[2-9]\d) ?\/?([fm])\)?(?=$|[ ,.:])/

export function ruleGender(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged || clause.desire) return
  const text = clause.text
  // "27f, looking for advice": the sex after the age, as forums write it
  const sex = AGE_AND_SEX.exec(text)
  if (sex) {
    ctx.acc.setCore('gender', sex[1] === 'f' ? 'female' : 'male', 0.8, 'gender.age-and-sex', sex)
    return
  }
  let match = /\b(?:my gender is|i identify as|i am identifying as)\s+(?:a |an )?([a-z- ]+)/.exec(text)
  if (match) {
    const gender = Object.entries(GENDER_EXPLICIT).find(([k]) => match![1].startsWith(k))
    if (gender) ctx.acc.setCore('gender', gender[1], 0.95, 'gender.identify-as', match)
    return
  }
  match = rx`\\bi am ${ADV}(?:(a|an) )?((?:[a-z0-9-]+ ){0,4}?)(${GENDER_WORDS})\\b`.exec(text)
  if (
    match &&
    !BLOCKERS.test(match[2]) &&
    !(match[3] === 'man' && /\benough\b/.test(text)) &&
    !modifiesNext(text, match, ctx)
  ) {
    // "i am 56 year old woman": an age before the word reads as the article left out
    const article = !!match[1] || /^\d+[- ]years?[- ]old $/.test(match[2])
    if (
      article ||
      ['female', 'male', 'non-binary', 'nonbinary', 'non binary', 'enby', 'genderqueer', 'genderfluid'].includes(
        match[3],
      )
    ) {
      ctx.acc.setCore(
        'gender',
        GENDER_EXPLICIT[match[3]],
        match[3] === 'girl' || match[3] === 'boy' ? 0.85 : 0.9,
        'gender.i-am-a',
        match,
      )
      return
    }
  }
  match = AS_A_GENDER.exec(text)
  if (match) {
    const gender = GENDER_EXPLICIT[match[1]] ?? GENDER_CUES[match[1]]
    ctx.acc.setCore('gender', gender, GENDER_EXPLICIT[match[1]] ? 0.8 : 0.5, 'gender.as-a', match)
    return
  }
  match = rx`\\bi am ${ADV}(?:a |an )((?:[a-z0-9-]+ ){0,3}?)(${CUE_WORDS})\\b`.exec(text)
  if (match && !BLOCKERS.test(match[1])) ctx.acc.setCore('gender', GENDER_CUES[match[2]], 0.5, 'gender.cue', match)
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
/** "as a woman", "as a single dad working two jobs": the word that says the gender (1). */
const AS_A_GENDER = new RegExp(pattern`\bas an? (?:(?:single|proud|busy|working|new|young|older|first[- ]time|
  stay[- ]at[- ]home|tired) )*(woman|man|female|male|girl|guy|mother|father|mom|dad)\b`)
/** [rule, pattern, confidence, how sure the phrase must be to count as a place] */
const LOC_RULES: [RuleId, RegExp, number, PlaceMode][] = [
  [
    'location.live-in',
    new RegExp(
      `\\bi ${ADV}(?:live|am living|reside|am residing|am located|am based|am settled|have lived|have been living)` +
        '(?: with (?:my |our )?[a-z]+(?: [a-z]+)?)? (?:here )?(?:just |right )?' +
        // "in the suburbs of chicago": the city the suburbs are of
        '(?:in|at|near|outside(?: of)?|around|on)(?: the (?:suburbs|outskirts|outer suburbs) of)? (.+)$',
    ),
    0.9,
    'loose',
  ],
  [
    // "we live in nebraska": the person's household, so the person's place, but only a place the lexicon knows
    'location.we-live-in',
    new RegExp(
      `^(?:we|my family and i|me and my [a-z]+) ${ADV}(?:live|are living|are based|have lived|have been living) ` +
        '(?:here )?(?:just |right )?(?:in|near|outside(?: of)?|around|on|at) (.+)$',
    ),
    0.75,
    'strict',
  ],
  [
    'location.never-been-outside',
    rx`\\bi ${ADV}(?:have )?never (?:been|left|lived) (?:out(?:side)? of|anywhere but|anywhere except) (.+)$`,
    0.6,
    'strict',
  ],
  [
    'location.moved-to',
    new RegExp(
      `\\b(?:i|we) ${ADV}(?:moved|relocated|immigrated|emigrated|have moved|just moved) ` +
        "(?:back |over |out |here |down |up )?(?:home )?(?:from (?:[a-z.'-]+ ){1,4}?)?(?:to|into) (.+)$",
    ),
    0.85,
    'strict',
  ],
  // "we just moved in together in leeds", "moved into a tiny flat in leeds": the home's place, known by name only
  [
    'location.moved-into-in',
    new RegExp(
      `\\b(?:i|we) ${ADV}(?:moved|have moved) (?:in together |into (?:a|an|our|my|the) (?:[a-z'-]+ ){0,3}?` +
        '(?:flat|apartment|house|home|place|condo|studio|townhouse|dorm) )(?:in|near) (.+)$',
    ),
    0.8,
    'known',
  ],
  // "we just bought our first house in austin": a home bought, where the person lives, known by name only (not "a
  // vacation home in florida")
  [
    'location.bought-home-in',
    new RegExp(
      `\\b(?:i|we) ${ADV}(?:have )?(?:bought|purchased|closed on) (?:a|an|our|my|the) ` +
        "(?:(?!(?:vacation|holiday|summer|beach|lake|second|rental|investment|weekend)\\b)[a-z'-]+ ){0,2}?" +
        '(?:house|home|condo|flat|apartment|townhouse|place) (?:in|near) (.+)$',
    ),
    0.75,
    'known',
  ],
  // "i just started grad school in toronto", "i go to college in boston": where the person studies, a known place
  [
    'location.school-in',
    new RegExp(
      `\\bi ${ADV}(?:go to|attend|am at|am in|(?<=(?:just|recently) )started|am starting) ` +
        '(?:grad school|graduate school|college|university|uni|med school|law school|nursing school) (?:in|near) (.+)$',
    ),
    0.6,
    'known',
  ],
  // "went from phoenix to seattle last year": where they went, a place known by name only
  ['location.went-from-to', rx`\\b(?:i|we) ${ADV}(?:went|came) from (?:[a-z.'-]+ ){1,3}?to (.+)$`, 0.7, 'known'],
  // "we left seattle for portland": where they went
  ['location.left-for', rx`\\b(?:i|we) ${ADV}left (?:[a-z.'-]+ ){1,3}?for (.+)$`, 0.8, 'strict'],
  ['location.am-from', rx`\\bi am ${ADV}(?<!originally )from (?!.* originally\\b)(.+)$`, 0.8, 'strict'],
  // "i'm in dublin but originally from lagos", "i'm from brazil originally": where the person came from, weaker than
  // where they are now (am-in)
  ['location.originally-from', rx`\\bi am ${ADV}(?:originally from (.+)|from (.+?) originally\\b.*)$`, 0.5, 'strict'],
  ['location.come-from', rx`\\bi ${ADV}(?:originally )?come from (.+)$`, 0.8, 'strict'],
  // "i came from somalia": where the person started from, below where they are now ("i am in the united states")
  ['location.came-from', rx`\\bi ${ADV}(?:originally )?came from (.+)$`, 0.5, 'strict'],
  ['location.a-x-from', rx`\\bi am (?:a |an )(?:[a-z0-9-]+ ){1,6}?from (.+)$`, 0.75, 'strict'],
  ['location.my-city-is', /\bmy (?:home ?town|home city|current city|city) is (.+)$/, 0.8, 'strict'],
  ['location.grew-up-in', rx`\\bi ${ADV}(?:grew up|was raised) (?:in|on|near) (.+)$`, 0.55, 'strict'],
  ['location.born-in', rx`\\bi was born (?:and raised )?in (.+)$`, 0.5, 'strict'],
  // conversation: "i am in canada", "i am in the city now", "here in colorado", "hello from alabama", "colorado where
  // i live", "we are from alabama", "i have never left ohio" (strict: only what reads as a place)
  ['location.am-in', rx`\\bi am ${ADV}(?:now |currently |still )?(?:in|near|outside(?: of)?) (.+)$`, 0.6, 'strict'],
  ['location.here-in', /\bhere in (.+)$/, 0.65, 'strict'],
  // "florida here, everybody is old", "hi all, leeds here too": a place opening a message, as a name does ("alan
  // here"); only a place the gazetteer knows by its whole name
  [
    'location.place-here',
    new RegExp(`^${GREETING}?[, ]*((?:[a-z.'-]+ ){0,2}[a-z.'-]+) here(?:$|,| too\\b| as well\\b| and\\b| so\\b)`),
    0.6,
    'known',
  ],
  // "glasgow weather is doing its thing again": the weather the person lives in, weakly (not on a trip)
  [
    'location.local-weather',
    /^(?:the )?([a-z][a-z .'-]{1,30}?) weather (?:is|has been|today|lately)\b/,
    0.45,
    'strict',
  ],
  // "stuck in minnesota for the winter", "spending the winter in arizona": where the person is for a season
  [
    'location.staying-in',
    rx`\\bi am ${ADV}(?:staying|stuck|spending (?:the|this) (?:winter|summer|year|semester)) (?:in|at) (.+)$`,
    0.55,
    'known',
  ],
  // "i am new to the united states", "still new to leeds": a place just moved to, known by name
  ['location.new-to', rx`\\bi am ${ADV}(?:fairly |pretty |quite |very |so )?new to (.+)$`, 0.55, 'known'],
  // "hiking around my native colorado", "just here at my house in michigan"
  [
    'location.my-native',
    new RegExp(
      "\\bmy (?:native|home state of|home ?town of|home country of) ((?:[a-z.'-]+ ){0,3}?[a-z.'-]+)" +
        '(?: (?:is|was|are)\\b.*)?$',
    ),
    0.6,
    'strict',
  ],
  [
    'location.my-home-in',
    /\b(?:at|in) my (?:house|home|place|apartment|flat) (?:in|near|outside) (.+)$/,
    0.6,
    'strict',
  ],
  [
    'location.hello-from',
    /^(?:hi|hello|hey|greetings|howdy|good (?:morning|afternoon|evening|day))[ ,!]*(?:there )?from (.+)$/,
    0.7,
    'strict',
  ],
  [
    'location.where-i-live',
    new RegExp(pattern`\b(?:(?:in|from|to) )?([a-z]+(?: [a-z]+)?) ?,? (?:(?:that|which) )?(?:is )?where i
      \s(?:live|am from|grew up|was raised)\b`),
    0.7,
    'strict',
  ],
  ['location.we-are-from', rx`\\bwe are ${ADV}(?:originally )?from (.+)$`, 0.6, 'strict'],
  ['location.never-left', rx`\\bi ${ADV}(?:have )?never left (.+)$`, 0.6, 'strict'],
  // "i am chiamaka , 23 , a software engineer in lagos" (the clause "i am a software engineer in lagos"), "i am a
  // teacher based in leeds", "i work as a nurse in nairobi": only after a job noun (see ruleLocation). Weak: where a
  // person works is not always where they live, so any other statement of a place wins ("i live in the country")
  // "i am a nurse at a clinic in leeds": the job (1), then the place (2) of the workplace; weaker than job-in
  [
    'location.job-at-place-in',
    new RegExp(
      `\\bi (?:am|work as|am working as) ${ADV}(?:a |an )(?:[a-z0-9-]+ ){0,3}?([a-z]+) ` +
        "(?:at|for|with) (?:(?:a|an|the) )?(?:[a-z0-9&'-]+ ){0,3}?[a-z0-9&'-]+ (?:in|near) (.+)$",
    ),
    0.45,
    'strict',
  ],
  [
    'location.job-in',
    new RegExp(
      `\\bi (?:am|work as|am working as) ${ADV}(?:a |an )(?:[a-z0-9-]+ ){0,3}?([a-z]+) ` +
        '(?:(?:who is |and )?(?:based|living|working|located|settled) )?(?:in|near) (.+)$',
    ),
    0.5,
    'strict',
  ],
  // The forms below name a place in passing: each is weak, and a trip ("next week", "on vacation") is none.
  // "i work at a clinic in leeds", "i work for a bank in lisbon": a place known by name only
  [
    'location.work-at-in',
    new RegExp(
      `\\bi ${ADV}(?:work|am working|have worked|have been working)` +
        '(?: (?:nights|days|weekends|evenings|mornings|shifts|night shifts|full[- ]time|part[- ]time))? ' +
        '(?:at|for) (?:a|an|the) ' +
        "(?:[a-z0-9&'-]+ ){0,3}?[a-z0-9&'-]+ (?:in|near) (.+)$",
    ),
    0.45,
    'known',
  ],
  // "i run a small bakery in lyon": the business (1) must be one, not "a marathon"; the place (2) known by name
  [
    'location.business-in',
    new RegExp(
      `\\bi ${ADV}(?:run|manage|own|opened) (?:a|an|the|my|our) (?:[a-z0-9&'-]+ ){0,3}?([a-z]+(?: [a-z]+)?) ` +
        '(?:in|near) (.+)$',
    ),
    0.45,
    'known',
  ],
  // "i have been in toronto for two years now", "been here in leeds since 2019": a stay of months or more. Not
  // "had been" (no longer), nor someone else's stay ("my sister has been in oslo for years")
  [
    'location.been-in-for',
    new RegExp(
      `(?:\\bi ${ADV}have|^) ?${ADV}been (?:living |based |settled )?(?:here )?in (.+?) ` +
        `(?:for ${ADV}(?:(?:about|almost|nearly|over|around|like|more than|the (?:last|past)) )?` +
        '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|many|\\d+) ' +
        '(?:years?|months?|decades?)|since (?:(?:19|20)\\d\\d|i was|birth|childhood))\\b',
    ),
    0.6,
    'strict',
  ],
  // "working from lisbon these days", "i work remotely from lisbon": a place known by name ("from home" is none)
  [
    'location.working-from',
    rx`(?:\\bi ${ADV}(?:am |have been )?|^)(?:working|work) (?:remotely |remote |full[- ]time )?from (.+)$`,
    0.5,
    'known',
  ],
  // "back home in manila", "i miss my family back home in manila": where the person calls home. Only after "i" or
  // opening the clause: "my sister is back home in oslo" says where the sister is
  ['location.back-home-in', /(?:^|\bi\b.*?\s)back home in (.+)$/, 0.5, 'strict'],
  // "i teach 7th grade science in austin": where the person teaches or coaches (a known place, weak)
  ['location.teach-in', rx`\\bi ${ADV}(?:teach|coach|tutor) (?:[a-z0-9-]+ ){0,4}?in (.+)$`, 0.45, 'known'],
  // "might have to move out of brooklyn", "i need to move out of leeds": a place left only in plans is still home
  [
    'location.move-out-of',
    // a wish or a plan ("i want to", "i plan to") is a clause the location rules skip: these are the forms left
    new RegExp(pattern`(?:\bi ${ADV}|(?:^|, )(?:i )?)(?:might|may|will|(?:need|have|am trying|can not wait) to)
      \s${ADV}(?:have to )?(?:move|moving) (?:out of|away from) (.+)$`),
    0.5,
    'known',
  ],
  // "back in denver after two weeks visiting my parents": home again after a trip (a known place, weak)
  ['location.back-in-after', /^(?:i am |finally |just |now )?back in (.+?) (?:after|from)\b/, 0.5, 'known'],
]

/** Words the rules said in passing need: a clause without them skips the rule's pattern. */
const NEEDS: Partial<Record<RuleId, string>> = {
  'location.job-at-place-in': ' in ',
  'location.work-at-in': 'work',
  'location.went-from-to': ' from ',
  'location.school-in': ' in ',
  'location.business-in': ' in ',
  'location.been-in-for': 'been ',
  'location.working-from': 'from ',
  'location.back-home-in': 'back home in ',
  'location.local-weather': ' weather ',
  'location.place-here': ' here',
  'location.teach-in': ' in ',
  'location.move-out-of': 'mov',
  'location.back-in-after': 'back in ',
}

/** Rules that a trip defeats: "i am in paris next week", "working from lisbon on vacation". */
const TRIP_SENSITIVE = new Set<RuleId>([
  'location.am-in',
  'location.here-in',
  'location.place-here',
  'location.staying-in',
  'location.new-to',
  'location.work-at-in',
  'location.went-from-to',
  'location.been-in-for',
  'location.working-from',
  'location.local-weather',
  'location.teach-in',
])
/** A stay that is a trip, not where the person lives. */
const TRIP = new RegExp(pattern`
  \b(?:(?:next|this|last) (?:week|weekend|month)|(?:for|over) (?:a|the|one|two|three|a few|a couple of) (?:days?|
  nights?|weeks?|weekend)|on (?:vacation|holiday|a trip|business|tour|a visit|a layover|my honeymoon)|
  for (?:work|a conference|a wedding|a funeral|a visit|the holidays)|visiting|vacation|holiday|trip|layover|
  honeymoon)\b`)

/**
 * What follows "a teacher in" without being a place: subjects, languages, fields and wards ("a teacher in English").
 */
const NOT_JOB_PLACES = new Set(
  `english spanish french german italian portuguese chinese mandarin japanese korean arabic russian hindi latin greek
  hebrew swahili yoruba igbo hausa math maths science history art music it tech sales marketing finance hr retail
  healthcare education training law medicine government politics charge residence town school college uni
  university army navy marines military police church parliament congress senate ministry icu er`.split(/\s+/),
)
/**
 * Nouns the occupation lexicon leaves out, after which "in X" still tells where the person is: "a student in leeds",
 * "a first-time homeowner in austin".
 */
const PLACED_HEADS = new Set(
  `student freelancer retiree intern resident worker employee volunteer founder owner homeowner renter tenant mom mum
  dad parent dev`.split(/\s+/),
)

/** "ohio working as a doctor": a participle that goes on about something else. */
const PARTICIPLE_AFTER_PLACE = new RegExp(pattern`
  \s+(?:working|looking|studying|going|trying|waiting|teaching|staying|doing|hoping|planning|thinking|raising|attending|
  visiting|having|getting|making|taking|searching|saving|training)\b.*$`)
/** "texas last year", "paris right now": a time after the place. */
const TIME_AFTER_PLACE = new RegExp(pattern`
  \b(?:(?:last|this|next) (?:year|month|week|summer|winter|spring|fall|morning|evening)|
  (?:\d+|a few|a couple of|several|two|three|four|five|six|seven|eight|nine|ten) (?:years?|months?|weeks?) ago|
  a (?:year|month|while) ago|recently|right now|at the moment|today|tonight|tomorrow|
  yesterday|lately|these days)\b.*$|
  \s(?:in|on|since|until|by|last|this|next) (?:${[...MONTHS, ...WEEKDAYS].join('|')})\b.*$`)
/** "a big old house", "an apartment downtown": a dwelling, not a location. */
const DWELLING = new RegExp(pattern`
  ^(?:[a-z-]+ ){0,3}(?:house|home|apartment|flat|condo|trailer|cabin|dorm|tent|van|car|mansion|basement|townhouse|
  studio|bungalow|cottage|room|shelter|rv|camper|motel|hotel|building|place)s?
  (?: (?:downtown|uptown|nearby|here|there|alone|now|too|by myself|together))?$`)

/** What the gazetteer knows the whole phrase as ("leeds", "the netherlands"; "Bath" only capitalised). */
function gazetteerKind(phrase: string, ctx: RuleContext): PlaceKind | undefined {
  if (/^(?:a|an) /.test(phrase)) return undefined
  return placeKind(phrase, (word) => ctx.cases.isCapitalised(word))
}

const inGazetteer = (phrase: string, ctx: RuleContext): boolean => gazetteerKind(phrase, ctx) !== undefined

/** Whether a phrase names a place that compromise finds in it, or is one that the gazetteer knows. */
function knownPlace(phrase: string, ctx: RuleContext): boolean {
  return placesIn(phrase).length > 0 || inGazetteer(phrase, ctx)
}

/**
 * How sure a phrase must be to count as a place: `known`, a place compromise or the gazetteer knows; `strict`, also
 * a generic place ("a small town") or a capitalised name; `loose`, also a short noun phrase ("i live in bellwood").
 */
export type PlaceMode = 'known' | 'strict' | 'loose'

/** A count of places, which names no one place: "i have lived in 6 countries", "several different states". */
const MANY_PLACES =
  /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|many|multiple|various|a few|a couple of)\b/

/** The place named by a phrase after "live in", or undefined if it does not look like a place. */

export function placeOf(raw: string, mode: PlaceMode, ctx: RuleContext): { value: string; factor: number } | undefined {
  let place = raw
    .replace(/\b(?:in|since|back in) (?:19|20)\d\d\b.*$/, '')
    .replace(/\b(?:for|with|during|in the (?:summer|winter|spring|fall)|every) .*$/, '')
    // "new jersey i like going to parks", "manila we eat rice": a new clause
    .replace(/\s+(?:i|we|you|he|she|they)\s.*$/, '')
    // "ohio working as a doctor": a participle goes on about something else
    .replace(PARTICIPLE_AFTER_PLACE, '')
    // "here in glasgow is awful": the place is the subject of a verb of its own
    .replace(/\s(?:is|are|was|were|has|have|had|gets|feels|looks|seems)\b.*$/, '')
    // "portland two years ago and ...": a time, before the phrase's end is looked for
    .replace(TIME_AFTER_PLACE, '')
  // "austin, texas" / "paris, france": keep "X, Y" when the pair reads as places
  const pair = /^([a-z .'-]+?),\s*([a-z .'-]+?)(?:$|[,.!?]|\s(?:and|but|with|for|since|far|from|near)\b)/.exec(place)
  const pairPlaces = pair ? placesIn(`${pair[1]}, ${pair[2]}`) : []
  if (
    pair &&
    pair[1].split(' ').length <= 3 &&
    pair[2].split(' ').length <= 3 &&
    ((pairPlaces.length && nlpHas(pair[2], '#Place')) || (knownPlace(pair[1], ctx) && inGazetteer(pair[2], ctx)))
  )
    place = `${pair[1]}, ${pair[2]}`
  else place = place.replace(PHRASE_END, '')
  place = place.replace(TIME_AFTER_PLACE, '').trim()
  place = place.replace(/^(?:the (?:city|town|state|country|village) of )/, '').trim()
  place = place
    .replace(/\s+(?:myself|yourself|too|either|now|right|originally|anymore|though|tho|lol|haha|lmao|ngl|imo)$/, '')
    .trim()
  // "i live in florida man": a word the other speaker is called by, after a known place
  const calledBy = /^(.+?)\s+(?:man|dude|bro|bruh|mate|buddy|girl|friend)$/.exec(place)
  if (calledBy && knownPlace(calledBy[1]!, ctx)) place = calledBy[1]!
  // "the states" said of a home is the country, as "the us" is
  place = place.replace(/^the states\b/, 'the us')
  // "porto from lisbon" ("i moved to porto from lisbon"): the place they went to, not the one they left
  const left = /\sfrom\s/.exec(place)
  const gone = left ? place.slice(0, left.index) : ''
  if (left && (gone === 'the us' || knownPlace(gone, ctx))) place = gone
  // "1990 in manila", "a small hospital in ohio": the place is after the last "in"
  const inner = /\s(?:in|near)\s+(.+)$/.exec(place)
  if (inner && knownPlace(inner[1], ctx)) place = inner[1]
  // "colorado near pueblo": the place, not what it is near
  else if (inner && knownPlace(place.slice(0, inner.index), ctx)) place = place.slice(0, inner.index)
  place = place.replace(/^(?:(?:19|20)\d\d|the \d0s)\b\s*/, '').trim()
  if (!place || place.split(/\s+/).length > 5) return undefined
  const first = place.split(' ')[0]
  if (NOT_PLACES.has(place) || NOT_PLACE_FIRST.has(first) || MANY_PLACES.test(place)) return undefined
  const placeWords = placesIn(place)
  const core = place.replace(/^(?:a|an|the)\s+/, '')
  // a dwelling is no location ("i live in a big old house")
  if (DWELLING.test(core)) return undefined
  // "from the us": the pronoun "us" is the country only after "the"
  if (/^the us$/.test(place)) return { value: 'US', factor: 1 }
  // "uk", "usa": a short country name is an acronym
  if (core.length <= 3 && gazetteerKind(core, ctx) === 'country') return { value: core.toUpperCase(), factor: 1 }
  if (placeWords.length) {
    // "visit colorado": a verb before the place is not part of it
    const value = /,/.test(place)
      ? place
      : place.split(' ').length <= 4 && !nlpHas(first, '#Verb')
        ? core
        : placeWords.join(' ')
    return { value: ctx.cases.restore(value, true).replace(/^The /, 'the '), factor: 1 }
  }
  const kind = gazetteerKind(place, ctx)
  if (kind) return { value: ctx.cases.restore(core, true), factor: 1 }
  if (mode === 'known') return undefined
  if (
    GENERIC_PLACES.has(place) ||
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

/** A memory of where the person comes from: said outright, as a standing fact is (memory.is). */
const ORIGIN_CONFIDENCE = 0.55

export function ruleLocation(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged || clause.desire) return
  for (const [rule, re, conf, mode] of LOC_RULES) {
    const needs = NEEDS[rule]
    if (needs && !clause.text.includes(needs)) continue
    const match = re.exec(clause.text)
    if (!match) continue
    if (TRIP_SENSITIVE.has(rule) && TRIP.test(clause.text)) return
    // "i love paris here": the place must be the whole phrase; "tracy here", "austin here" may be a person
    if (rule === 'location.place-here' && (!inGazetteer(match[1]!, ctx) || nlpHas(match[1]!, '#Person'))) return
    if (rule === 'location.job-in' || rule === 'location.job-at-place-in') {
      jobPlace(match, rule, conf, ctx)
      return
    }
    // "i run a marathon in boston": no business, so the rules below may still read the clause
    const head = match[1] ?? ''
    const business = rule !== 'location.business-in' || BUSINESSES.has(head) || BUSINESSES.has(head.split(' ').pop()!)
    if (!business) continue
    // "i live in us": after "live in", "us" can only be the country
    // "from brazil originally": the place in the second group
    const said = rule === 'location.live-in' ? head.replace(/^us(?=$|[ ,.!?])/, 'the us') : (match[1] ?? match[2])!
    const place = placeOf(rule === 'location.business-in' ? match[2]! : said, mode, ctx)
    if (!place) return
    ctx.acc.setCore('location', place.value, conf * place.factor, rule, match)
    // where the person comes from outlasts the weak location that where they live replaces
    if (rule === 'location.originally-from') {
      const event = `is originally from ${place.value}`
      ctx.acc.addMemory({ event, importance: 'low', confidence: ORIGIN_CONFIDENCE }, rule, match)
    }
    return
  }
}

/**
 * "a <job> in <place>": the head noun must be a job, and the place one that the place lexicon knows, or a
 * capitalised name that is no acronym ("an analyst in IT"), language or subject ("a teacher in English").
 */
function jobPlace(match: RegExpExecArray, rule: RuleId, conf: number, ctx: RuleContext): void {
  if (!OCCUPATIONS.has(match[1]) && !PLACED_HEADS.has(match[1])) return
  const place = placeOf(match[2], 'strict', ctx)
  if (!place) return
  const value = place.value
  if (!knownPlace(value.toLowerCase(), ctx)) {
    if (
      NOT_JOB_PLACES.has(value.toLowerCase()) ||
      /^[A-Z0-9]{2,}$/.test(value) ||
      /(?:ish|ese|ian|ics)$/i.test(value) ||
      nlpHas(value, '(#Demonym|#Language)')
    )
      return
  }
  ctx.acc.setCore('location', value, conf * place.factor, rule, match)
}

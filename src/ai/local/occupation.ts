// core_info.occupation: "I work as a nurse", "I am a software engineer", "I teach math", "I run a bakery",
// "I'm retired", "I'm a student". Pastime agent nouns ("an avid reader") become interests instead.
import { BUSINESSES, JOB_SUFFIX, NOT_JOBS, OCCUPATIONS, TRAITS, VERB_TO_JOB } from './lexicon-core.js'
import { HOBBY_AGENTS } from './lexicon-interests.js'
import { termsOf } from './nlp.js'
import { ADV, GREETING, TITLES, type ClauseInfo, type RuleContext } from './rules-common.js'
import type { RuleId } from './rules.js'
import type { Span } from './trace.js'
import { gerund, lemmaOfGerund, MONTHS, NUMBER_RE, singular, titleCase } from './text.js'
import { knownAs, lookupExact } from './classify.js'
import { isLanguage } from './languages.js'
import { otherSubject } from './others.js'
import { placeKind } from './gazetteer.js'
import { dict, pattern, rx } from './regex.js'

/** Interest categories of what a "player" plays or a coach teaches. */
const PLAYED = ['sports', 'music', 'hobbies']

type Finding = { kind: 'job'; value: string; conf: number } | { kind: 'hobby'; category: string; value: string }

const MODIFIERS = new Set(
  `retired registered licensed senior junior head chief assistant freelance substitute elementary middle high medical
  dental legal social veterinary pediatric graphic financial professional former certified special kindergarten
  preschool private personal executive associate lead principal graduate college university grad phd nursing law art
  music math english science history physics chemistry biology computer software civil mechanical electrical chemical
  aerospace structural school public general family emergency trauma flight commercial airline truck bus taxi delivery
  construction factory office farm real estate insurance travel customer sales marketing data web mobile game video
  sous pastry line night part-time full-time volunteer youth sports fitness yoga dance piano guitar dog pet tattoo hair
  nail makeup wedding portrait fashion interior landscape stay-at-home home health care daycare store bank shop cafe
  restaurant hotel hospital police fire army navy marine military government city county state federal local
  swim ski surf tennis golf soccer football basketball baseball hockey track running climbing boxing skating
  dive martial backend back-end frontend front-end full-stack fullstack`.split(/\s+/),
)
const HOBBY_QUALIFIER = new RegExp(pattern`\b(?:avid|big|huge|keen|passionate|amateur|weekend|casual|hobby|hobbyist|
  enthusiastic|aspiring|wannabe|lifelong|devoted|dedicated|obsessive|occasional|serious)\b`)
const FILLER = new RegExp(pattern`^(?:very|really|pretty|quite|proud|happy|busy|good|great|hard working|hardworking|
  hard-working|successful|young|new|small town|full time|full-time|part time|part-time|local|single|tired|overworked|
  underpaid|struggling|starving|working|practicing|practising|certified|(?:first|second|third|fourth|final|last|
  \d(?:st|nd|rd|th))[- ]year)\s+`)
const CUT = new RegExp(pattern`\s(?:at|for|in|from|with|who|that|and|but|since|because|when|so|by|on|of|living|working|
  here|there|now|currently|like|studying|majoring|pursuing|specializing|specialising|doing|trying|looking|hoping|
  planning|getting|finishing|taking|learning|mostly|mainly|primarily|usually)\b.*$|,.*$`)

/** Nouns after which the phrase names what the person likes or belongs to: "a packer fan", "a choir member". */
const FAN_WORDS =
  /^(?:fan|lover|buff|enthusiast|nut|freak|junkie|addict|member|supporter|follower|collector|nerd|geek)s?$/

/** Jobs said by their letters. */
const SHORT_JOBS: Record<string, string> = {
  swe: 'software engineer',
  rn: 'registered nurse',
  np: 'nurse practitioner',
  lpn: 'licensed practical nurse',
  cna: 'certified nursing assistant',
}

/** Whether tags read a word as a noun and no adjective. */
const plainNoun = (wordTags: readonly string[]) => wordTags.includes('Noun') && !wordTags.includes('Adjective')
/** Whether a word read alone is a noun and no adjective ("animal", not "civil" or "good"). */
const nounAlone = (word: string) => plainNoun(termsOf(word)[0]?.tags ?? [])

/** "phd in marine biology", "3rd year phd", "masters candidate": a degree under way said as a role. */
const DEGREE_AS_ROLE = new RegExp(pattern`^(?:(?:first|second|third|fourth|fifth|final|last|\d(?:st|nd|rd|th))[- ]year
  \s)?(?:phd|doctoral|doctorate|masters|master's|mba)(?: (?:candidate|researcher))?(?: (?:in|at) [a-z].*)?$`)

/** Reads an occupation out of a noun phrase ("retired school teacher from ohio" -> "retired school teacher"). */
export function occupationFrom(phrase: string, strict: boolean): Finding | undefined {
  if (/^stay[- ]at[- ]home\b/.test(phrase)) return { kind: 'job', value: 'stay-at-home parent', conf: 0.85 }
  let cleaned = phrase
    .replace(rx`\\b(?:${NUMBER_RE})[- ](?:years?|yrs?)[- ]old\\b`, '')
    .replace(/\bas well\b.*$/, '')
    .replace(CUT, '')
    .replace(/\s+/g, ' ')
    .trim()
  for (let i = 0; i < 4; i++) cleaned = cleaned.replace(FILLER, '')
  // "a software dev", "a vet tech", "an RN": chat's short forms
  cleaned = cleaned
    .replace(/\bdevs?$/, 'developer')
    .replace(/(?<=\S) techs?$/, ' technician')
    .replace(/^(?:rn|np|lpn|cna|swe)$/, (short) => SHORT_JOBS[short]!)
  if (/^stay[- ]at[- ]home\b/.test(cleaned)) return { kind: 'job', value: 'stay-at-home parent', conf: 0.85 }
  // "a freshman at ohio state", "a sophomore in high school": a year of school said as a role
  // "a junior at ohio state", "a senior in high school": "junior" and "senior" only with the school ("a senior" may
  // be an older person)
  const schoolYear = /^(freshman|sophomore|junior|senior)\b/.exec(cleaned)
  if (schoolYear) {
    const school =
      /\b(?:in|at) (high school|college|uni|university)\b/.exec(phrase)?.[1] ??
      /\bat (?:the )?(?:university of [a-z]+|[a-z]+(?: [a-z]+)? (?:state|university|college|tech))\b/.exec(phrase)?.[0]
    const value = school === 'high school' ? 'high school student' : school ? 'college student' : 'student'
    if (school || /^(?:freshman|sophomore)$/.test(schoolYear[1]!)) return { kind: 'job', value, conf: 0.8 }
  }
  // "a 3rd year phd in marine biology": a degree under way said as a role
  if (DEGREE_AS_ROLE.test(cleaned)) return { kind: 'job', value: 'graduate student', conf: 0.8 }
  if (/^(?:housewife|homemaker|house wife|househusband)$/.test(cleaned))
    return { kind: 'job', value: 'homemaker', conf: 0.85 }
  const words = cleaned.split(' ').filter(Boolean).slice(0, 6)
  if (!words.length) return undefined
  const agent = HOBBY_AGENTS[words.slice(-2).join(' ')] ?? HOBBY_AGENTS[words[words.length - 1]]
  const qualified = HOBBY_QUALIFIER.test(cleaned)
  if (agent && (qualified || !OCCUPATIONS.has(words[words.length - 1]))) {
    return { kind: 'hobby', category: agent[0], value: agent[1] }
  }
  // "a free spirit", "a people person": who the person is, which the personality rules read; "homecoming queen": a
  // title won, no work
  if (TRAITS.has(cleaned) || TITLE_WON.test(cleaned)) return undefined
  const pro = /^(?:professional|pro) ([a-z ]{2,30}) (player|athlete)$/.exec(cleaned)
  if (pro) return { kind: 'job', value: `professional ${pro[1]} ${pro[2]}`, conf: 0.9 }
  if (qualified && strict) return undefined
  // "a tennis player", "a piano player": someone who plays it, not a job unless said so ("professionally")
  if (words.length > 1 && words[words.length - 1] === 'player') {
    const played = words.slice(0, -1).join(' ')
    const category = knownAs(played, PLAYED)
    if (category) return { kind: 'hobby', category, value: played }
  }
  // "a green bay packer fan", "a choir member": the job word names what the person likes or belongs to
  const last = words[words.length - 1]
  if (FAN_WORDS.test(last)) return undefined
  // the head: the last word that is a job, a multi-word job ending there, or (loosely) a job-like noun
  const tags = termsOf(words.join(' ')).map((t) => ({ terms: [t] }))
  let head = -1
  let known = false
  for (let i = words.length - 1; i >= 0; i--) {
    const word = singular(words[i])
    // "a freelance videographer": a modifier that is also a job ("freelance") is no head before a job-like noun
    if (i < words.length - 1 && MODIFIERS.has(words[i]) && JOB_SUFFIX.test(words[i + 1]!)) continue
    const multi = [3, 2].some((n) => i - n + 1 >= 0 && OCCUPATIONS.has([...words.slice(i - n + 1, i), word].join(' ')))
    if (multi || OCCUPATIONS.has(word) || OCCUPATIONS.has(words[i]) || word === 'student' || word === 'major') {
      head = i
      known = true
      break
    }
  }
  if (head < 0) {
    if (NOT_JOBS.has(last) || NOT_JOBS.has(singular(last))) return undefined
    const lastIndex = words.length - 1
    const actor = tags[lastIndex]?.terms[0]?.tags.includes('Actor')
    if (strict && !actor) return undefined
    const noun =
      tags[lastIndex]?.terms[0]?.tags.includes('Noun') && !tags[lastIndex]?.terms[0]?.tags.includes('Adjective')
    if (!strict && !actor && (!noun || (!JOB_SUFFIX.test(last) && words.length > 3))) return undefined
    head = lastIndex
  }
  if (NOT_JOBS.has(words[head])) return undefined
  let start = head
  while (start > 0 && head - start < 3) {
    const word = words[start - 1]
    const wordTags = tags[start - 1]?.terms[0]?.tags ?? []
    // "animal rights worker": in a compound "rights" reads as a verb and "animal" as an adjective; a plural before
    // a noun is a noun, and a word that is a noun on its own is one before a plural noun
    const isNoun =
      plainNoun(wordTags) ||
      (wordTags.includes('PresentTense') && /[a-z]{3}s$/.test(word)) ||
      (/[a-z]{3}s$/.test(words[start]!) && start < head && (nounAlone(word) || lookupExact(word) !== undefined))
    // "2nd grade teacher", "third grade teacher": the grade with its number
    const grade = words[start] === 'grade' && /^(?:\d{1,2}(?:st|nd|rd|th)|[a-z]+(?:st|nd|rd|th))$/.test(word)
    if (MODIFIERS.has(word) || grade || (isNoun && !NOT_JOBS.has(word))) start--
    else break
  }
  const multiStart = [3, 2]
    .map((n) => head - n + 1)
    .find((s) => s >= 0 && OCCUPATIONS.has([...words.slice(s, head), singular(words[head])].join(' ')))
  if (multiStart !== undefined && multiStart < start) start = multiStart
  let value = [...words.slice(start, head), singular(words[head])].join(' ')
  if (words[head] === 'major') value = 'college student'
  if (/\bstudents?$/.test(words[head])) value = [...words.slice(start, head), 'student'].join(' ')
  const conf = known ? 0.9 : strict ? 0.6 : 0.75
  return { kind: 'job', value, conf }
}

const BRANCHES = 'army|navy|air force|marines|marine corps|military|national guard|coast guard'
const SUBJECTS =
  new RegExp(pattern`^(?:math|maths|mathematics|english|science|history|physics|chemistry|biology|art|music|
  spanish|french|german|kindergarten|preschool|yoga|piano|guitar|dance|swimming|pe|gym|special education|special ed|
  elementary school|middle school|high school|college|\w+ grade(?:rs?)?)\b`)

function emit(finding: Finding | undefined, ctx: RuleContext, rule: RuleId, span: Span): boolean {
  if (!finding) return false
  if (finding.kind === 'hobby') ctx.acc.addInterest(finding.category, finding.value, 0.85, rule, span)
  else {
    ctx.acc.setCore('occupation', finding.value, finding.conf, rule, span)
    // "a swim coach", "a yoga instructor": who teaches an activity cares about it
    const taught = /^(?:([a-z]+) )?([a-z]+) (?:coach|instructor|teacher|trainer)$/.exec(finding.value)
    if (taught) {
      const pair = taught[1] ? `${taught[1]} ${taught[2]}` : undefined
      const activity = [pair, gerund(taught[2]!), taught[2]!]
        .filter((w): w is string => w !== undefined)
        .map((w) => ({ w, category: knownAs(w, PLAYED) }))
        .find((x) => x.category)
      if (activity) ctx.acc.addInterest(activity.category!, activity.w, 0.6, 'interest.taught-activity', span)
    }
  }
  return true
}

/** "i am in the canadian army", "i just joined the navy": the branch (1). */
const MILITARY = new RegExp(
  `\\bi (?:am |serve |am serving |have |have just |just )?${ADV}(?:in|joined|enlisted in|signed up for) the ` +
    `(?:(?:us|american|canadian|british|royal|indian|australian|french|german) )?(${BRANCHES})\\b`,
)
/**
 * Service that is over: "i was in the air force for 8 years" (branch 1, length 2), "i am an army veteran" (branch 3),
 * "i am a veteran of the marines" (branch 4).
 */
const SERVED = new RegExp(
  pattern`\bi (?:was|used to be) ${ADV}in the (?:(?:us|british|royal|canadian) )?(${BRANCHES})
  \b(?: for ((?:[a-z0-9]+ )?(?:years?|months?)))?|\bi am (?:a|an) (?:[a-z]+ )?(army|navy|air force|marine|marine corps|
  coast guard|national guard) veteran\b|\bi am a veteran of the (${BRANCHES})\b`,
)
const BRANCH_NAMES: Record<string, string> = { marine: 'Marines', military: 'military' }

/** "i was in the air force" -> a memory "served in the Air Force" (not the job: it is over). */
function ruleServed(text: string, ctx: RuleContext): void {
  const match = SERVED.exec(text)
  if (!match) return
  const branch = match[1] ?? match[3] ?? match[4]!
  const name = BRANCH_NAMES[branch] ?? titleCase(branch)
  const event = `served in the ${name}${match[2] ? ` for ${match[2]}` : ''}`
  ctx.acc.addMemory({ event, importance: 'high', confidence: 0.85 }, 'memory.served', match)
}

/** "i want to become a nurse", "i am going to be a nurse": the job (1). */
const WANT_TO_BE = new RegExp(
  `\\bi ${ADV}(?:(?:want|hope|plan|would like|would love|aspire|am hoping|am wanting|` +
    `am planning|am trying|am going|am about) ` +
    'to|will) (?:go (?:back )?to (?:college|school|university|law school|med school) to )?' +
    '(?:be|become) (?:a |an )?(.+)$',
)
/** "i am studying to become a nurse", "i am going to college to be a vet": the job studied for (1). */
const STUDYING_TO_BE = new RegExp(pattern`\bi am (?:studying|training|in (?:school|college)|at (?:college|university)|
  going (?:back )?to (?:school|college|university|uni|nursing school|law school|med school|medical school))
  \sto (?:be|become) (?:a |an )?(.+)$`)
/** "i just got promoted to head chef", "i was promoted to sergeant", "i finally made sous chef": the new job (1). */
const PROMOTED_TO = new RegExp(
  `\\bi ${ADV}(?:got |have been |have |was |am being )?(?:just |recently |finally )?(?:(?:promoted|been promoted|` +
    'moved up|stepped up) to (?:be |become )?(?:a |an |the |our |my )?(?:new )?|' +
    // "i finally made sous chef": a rank reached, said without an article
    'made (?!(?:a|an|the|it|some|my|our|them|him|her|me|you|sure|up|out|friends|money|time)\\b))(.+)$',
)
/** A promotion names the job that replaces the old one: surer than "i am a X" (0.9) said earlier. */
const PROMOTED_CONFIDENCE = 0.95
/** The school years by name: "third grade", "my fourth graders". */
const SCHOOL_YEARS = 'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth'
/** "my students", "my 3rd graders" (not "my fellow students", not "my class", which a student says too). */
const MY_STUDENTS = new RegExp(pattern`\bmy (?:(?:(?:\w+ )?grade |high school |college )?(?:students|pupils)|
  (?:kindergarten|preschool|(?:\w+ )?grade) class|(?:\d+(?:st|nd|rd|th)|${SCHOOL_YEARS})\sgraders|
  kindergart(?:e)?ners)\b`)
/** "night shifts on the cardiac ward again", "i pulled a double shift in the icu": a nurse's words, the person's. */
const WARD_SHIFTS = new RegExp(pattern`(?:^(?:back |again )?(?:on )?|\bi (?:work|am working|have been working|pulled|
  did|am doing|have|am on|am back on|worked) )(?:(?:another|more|back[- ]to[- ]back|a|a double|double|\d+|two|three|
  four|five|the) )?(?:(?:night|day|long|
  late|early|\d+[- ]hour) )?shifts? (?:on|in) (?:the )?(?:[a-z]+ )?(?:ward|icu|nicu|picu|er|emergency room|
  labor and delivery)\b`)
/** "i bartend", "been freelancing since": a job said as its verb (1), or its gerund after "am" or "have been" (2). */
const NOUN_VERB = new RegExp(pattern`\bi ${ADV}(?:(bartend|waitress|nanny|tutor|babysit|freelance|nurse|coach)|
  (?:am|have been) (?:${ADV})?(bartending|waitressing|nannying|tutoring|babysitting|freelancing))\b`)
const GERUND_OF_JOB_VERB: Record<string, string> = {
  bartending: 'bartend',
  waitressing: 'waitress',
  nannying: 'nanny',
  tutoring: 'tutor',
  babysitting: 'babysit',
  freelancing: 'freelance',
}
/** "i work at the bank as a teller": the job (1). */
const WORK_AS = new RegExp(
  `\\bi ${ADV}(?:work|am working|have worked|have been working|currently work|am employed|started working|` +
    'began working|have started working|spend (?:my|most of my) (?:time|days)|got hired|was hired|have been hired)' +
    '(?: (?:the |a )?(?:night|day|morning|evening|graveyard|late|early|weekend|double|long|\\d+[- ]hour) shifts?)?' +
    '(?: nights| days| evenings| weekends| mornings| overnights| remotely| from home)?' +
    "(?: (?:at|for|in|from) [a-z0-9&' -]{1,40}?)? as (?:a |an )?(.+)$",
)
/** Words of someone other than the person: a role said beside them is theirs ("as a teacher he was great to me"). */
const OTHER_PERSON_WORDS = 'he|she|they|you|we|his|her|their|your|our'
/**
 * "being a doctor, it is hard to get time off", "as a nurse i see it daily", "i taught kids being a teacher": a role
 * the person speaks from, at a clause's start before what they say (1) or at its end after their own verb (2); not
 * "being a nurse must be hard" or "as a coach, what do you ...", said to someone else.
 */
const SPEAKS_AS = new RegExp(pattern`^(?:and |but |so |well )?(?:being|as) (?:a|an) ([a-z]+(?: [a-z]+){0,3}?)
  (?=,? (?:i|my|myself|it is)\b|,? (?:(?!(?:${OTHER_PERSON_WORDS}|it)\b)[a-z']+ ){1,8}?(?:me|myself)\b)|
  (?:^i (?:[a-z]+ ){1,5}being|^i [^,]+, as) (?:a|an) ([a-z]+(?: [a-z]+){0,3}?)
  (?=,|$| (?:and|but|so|lol|haha)\b)`)
/** What makes SPEAKS_AS's role no role spoken from: a verb of a clause about it, or someone else. */
const NOT_SPOKEN_AS = new RegExp(`\\b(?:is|was|would|will|must|can|could|${OTHER_PERSON_WORDS})\\b`)
/** A role spoken from is weaker than one stated ("i am a ..."). */
const SPEAKS_AS_CONFIDENCE = 0.6
/** "i used to be a nurse", "i was a gym teacher": a job that is over (1). */
const PAST_JOB = new RegExp(`\\bi ${ADV}(?:used to (?:be|work as) (?:a |an )?|was (?:a |an ))(.+)$`)
/** "i am happily retired", "i retired last year"; not "i retired a car". */
const RETIRED = new RegExp(
  `(?:\\bi (?:am |have )?been|(?:^|, )been|^being|\\bi (?:am|have been)) ${ADV}` +
    '(?:(?:happily|recently|semi|early|now|finally) )?' +
    'retired' +
    '(?!\\s+(?:a|an|school|army|navy|military|police|nurse|teacher)\\b)|' +
    // "i retired a year ago": a time, not what was retired
    `\\bi ${ADV}(?:retired|was able to retire|got to retire)\\b` +
    '(?! (?:a|an|the|my|his|her) (?!(?:year|few|couple|decade|while|long (?:time|while))\\b))',
)
/** When a person retired: "after 30 years", "a year ago", "last year", "in 2015". */
const RETIRED_WHEN = pattern`(?:after (?:${NUMBER_RE}|\d+|many|a few) (?:years?|decades?)|(?:${NUMBER_RE}|\d+|a|an|
  a few|a couple of) (?:years?|months?|decades?) ago|last year|this year|in \d{4}|early|recently) `
/** "i am retired": surer than a job said in the past tense, which it completes ("retired gym teacher"). */
const RETIRED_CONFIDENCE = 0.9
/**
 * "(retired) after 30 years as a firefighter", "(retired) a year ago as a teacher", "(retired) now, spent 30 years as
 * an engineer": the job (1).
 */
const RETIRED_AS = new RegExp(pattern`^(?: (?:${RETIRED_WHEN})?as|(?: now)?,? (?:after |and )?(?:i )?
  (?:spent|worked|served) (?:${NUMBER_RE}|\d+|many|a few) (?:years?|decades?) as) (?:a |an )?(.+)$`)
/** "i am looking for a new job", "i am job hunting". */
const JOB_SEEKER = new RegExp(
  `\\bi (?:am|have been) ${ADV}(?:looking|searching|hunting) for (?:a |an )?` +
    '(?:new |better |full[- ]time |part[- ]time |good )?(?:job|work|employment)\\b|' +
    `\\bi am ${ADV}job hunting\\b`,
)
/** "i am a nurse", "i finished school and am a lawyer", "i am the best baker in town": the noun phrase (1). */
const I_AM_A = new RegExp(
  `(?:\\bi|^i [a-z ]{1,40}? and(?: now)?) (?:am|have been|have always been) ${ADV}` +
    '((?:a|an) .+|the (?:best|only|top|head|lead|youngest|oldest) [a-z]+(?: [a-z]+){0,2})$',
)
/** "i became a professional tennis player": the job (1). */
// "i love that i get to be a musician": a job the person has
const BECAME = new RegExp(`\\bi ${ADV}(?:became|have become|finally became|get to be) (?:a|an) (.+)$`)
/** "i used to teach gym in school": what was taught (1). */
const USED_TO_TEACH = new RegExp(`\\bi ${ADV}used to teach\\b\\s*(.*)$`)
/** "working as a doctor" after another statement of the person's: the job (1). */
const WORKING_AS = /(?:^(?:currently |now |still )?|\bi (?:[a-z]+ ){1,5})working as (?:a|an) (.+)$/
/** Jobs whose workplace says what they are: "a manager at a supermarket", "a cashier at the local grocery". */
const JOB_WITH_PLACE = new RegExp(pattern`^(?:manager|assistant manager|store manager|shift manager|cashier|clerk|
  worker|employee|supervisor|waiter|waitress|server|cook|bartender|receptionist|janitor|custodian|stocker)$`)
/** "at my neighborhood supermarket": the workplace after a job, its article (1) and up to three words (2). */
const AT_WORKPLACE = new RegExp(pattern`\bat (a|an|the|my|our) ((?:[a-z'&-]+ ){0,2}[a-z'&-]+)
  (?=$|,| (?:and|but|so|in|near|downtown|for|now|lol)\b)`)
/** "i am chef and an avid fisherman": a job chat writes without its article (1), one or two words. */
const I_AM_BARE_JOB = new RegExp(`\\bi am ${ADV}([a-z]+(?: [a-z]+)?)(?= and\\b| at\\b| in\\b| for\\b| here\\b|,|$)`)
/** "make a living as a librarian": the job (1); chat leaves out the "i". */
const MAKE_A_LIVING = new RegExp(`(?:\\bi ${ADV}|^)(?:make|earn) (?:a|my) living as (?:a |an )?(.+)$`)
/** "i make about 50k a year as a teacher's aide": the job (1) a pay is earned as. */
const PAID_AS = new RegExp(
  `(?:\\bi ${ADV}|^)(?:make|earn|get paid|am paid) (?:about |around |like |only |just )?[$£€]?\\d[\\d,.]*k?` +
    '(?: (?:dollars|pounds|euros|bucks|an hour|a year|a month|a week|per hour|per year|hourly|yearly))*' +
    ' as (?:a |an )?(.+)$',
)
/** "when i finish school i will be a programmer": a job ahead (1), as weak as one wished for. */
const WILL_BE = new RegExp(`\\bi ${ADV}(?:will|am going to) (?:be|become) (?:a|an) (.+)$`)
/** "i play tennis professionally": the sport (1). */
const PLAY_PROFESSIONALLY = new RegExp(`\\bi ${ADV}play ([a-z]+(?: [a-z]+)?) (?:professionally|for a living)\\b`)
/** "i go to law school", "i am in 3rd grade": the school or the school year (1). */
const IN_SCHOOL = new RegExp(
  `\\bi ${ADV}(?:am in|attend|go to|am going to|am attending|am enrolled in|am at|(?<=(?:just|recently) )started|` +
    'am starting) (?:the |my (?:first|second|third|fourth|final|last|\\d(?:st|nd|rd|th)) year (?:of|at|in) )?' +
    '(college|university|uni|high school|grad school|graduate school|med school|medical school|law school|' +
    'nursing school|community college|(?:art|culinary|cooking|photography|beauty|film|design|music|dental|' +
    'veterinary|vet|pharmacy|business|acting|dance|flight|cosmetology) school|' +
    // "i am in 3rd grade": a school year
    `(?:\\d{1,2}(?:st|nd|rd|th)|${SCHOOL_YEARS}) grade)\\b`,
)
/**
 * "i am studying computational biology", "i'm majoring in history": the field studied (1), which makes the person a
 * student of it; not a language (languages.ts), an exam, a place or a time ("studying for my exams", "abroad").
 */
const STUDYING = new RegExp(pattern`^(?:i ${ADV}(?:am studying|study|am majoring in|major in|am doing a degree in|
  (?:go|am going|am in) (?:back )?to (?:school|college|university|uni) for)|
  (?:studying|majoring in|going (?:back )?to (?:school|college|university|uni) for))
  \s(?!(?:for|to|at|with|in|on|hard|all|my|the|a|an|it|them|that|this|these|those|abroad|online|now|right|again|late|
  every|so|too|a lot|together|while|many|several|some|more|other|different|languages?)\b)
  ([a-z][a-z-]*(?: [a-z][a-z-]*){0,2}?)(?= and\b| at\b| in\b| btw\b| now\b| (?:part|full)[- ]time\b| online\b|
  \swhile\b| because\b| but\b| so\b|,|$)`)
/** "i am doing my masters in data science", "i am finishing my phd": the degree (1). */
const DOING_DEGREE = new RegExp(
  `\\bi (?:am )?${ADV}(?:doing|finishing|pursuing|getting|working on|studying for|working towards|in|` +
    'struggling with|halfway through|almost done with) ' +
    '(?:my|a|an|the) (?:first |second |third |final )?(?:year of (?:my |a |an )?)?' +
    "(masters?|master's|phd|doctorate|mba|bachelors?|bachelor's|undergrad|undergraduate degree|degree|college|" +
    'university|uni|high school)\\b',
)
/** "i am a tennis player professionally": the activity (1) and the agent noun (2). */
const PROFESSIONALLY = new RegExp(
  `\\bi am ${ADV}(?:a |an )([a-z]+(?: [a-z]+)?) ` +
    '(player|athlete|dancer|singer|musician|photographer|artist|writer|chef|golfer|boxer|wrestler|cyclist|runner|' +
    'swimmer) professionally\\b',
)
/** "i run a small bakery": the verb (1) and the business (2). */
const RUN_A_BUSINESS = new RegExp(
  `\\bi ${ADV}(run|own|manage|have|opened|started|co-own|operate|have been running|have run|have owned) ` +
    '(?:a |an |my own |our own |the |a small |my |our )(?:small |little |local |family |online |own )*' +
    "([a-z0-9&' -]+?)(?=$|\\s*,)",
)
/**
 * "i work the night shift at a hospital", "i just started working at a gas station", "i am just a guy who works at
 * a supermarket": the preposition (1) and the place (2).
 */
const WORK_AT = new RegExp(
  // "i am living in ohio and working for a local supermarket": the person's second verb phrase
  `(?:\\band (?:now |currently )?working(?= (?:at|for|in) )|` +
    `\\bi ${ADV}(?:work|am working|have a (?:part[- ]time |full[- ]time |new |second )?job|am employed|` +
    '(?:have )?(?:started|began|been) working|have worked|' +
    '(?:have to |need to |must )?(?:go|head|am going|am heading|went|got) (?:in )?to work|' +
    '(?:finished|got done|am done|got off) working|spend (?:all |most )?(?:of )?my (?:time|days) working|' +
    'am (?:always |too |so |very )*(?:busy|stuck(?: inside| at home| here)?) working)|' +
    '\\bi am (?:just |only )?(?:a |an |the )?(?:[a-z]+ )?(?:guy|girl|man|woman|lady|dude|person|mom|dad|gal) ' +
    'who (?:works|is working))' +
    '(?: (?:the |a )?(?:night|day|morning|evening|graveyard|late|early|weekend) shifts?| nights| weekends)?' +
    '(?: full[- ]?time| part[- ]?time)?(?: with (?:my|our) [a-z]+(?: [a-z]+)?)? (at|for|in|by|on) (.+)$',
)
/** "on the farm", "on an oil rig": the places one works on (1). */
const WORKED_ON = new RegExp(pattern`^(?:a|an|the|our|my|my (?:family's|parents'|dad's|family)) (farm|ranch|
  (?:oil )?rig|(?:cruise )?ship|boat|railroad|docks?)\b`)
/** "my job at the bank keeps me busy": the workplace (1), cut before the verb that follows it. */
const MY_JOB_AT = new RegExp(
  pattern`(?:\bmy (?:new |day |part[- ]time |full[- ]time |second )?(?:job|work|shift)|
  ^(?:after|before|between) work) (?:at|in) ((?:the |a |an )?[a-z'&-]+
  (?: [a-z'&-]+)?)
  (?= (?:keeps|is|was|has|pays|sucks|makes|gets|takes|starts|ends|and|but|so)\b|,|$)`,
)
/** "my job is a nurse", "my trade is mechanical engineer": the job (1). */
const MY_JOB_IS = new RegExp(pattern`\bmy (?:(?:part[- ]time|full[- ]time|new|current|second) )?(?:job|profession|
  occupation|career|day job|role|trade|line of work) is (?:a |an |being a |being an )?(.+)$`)
/** "a new job in the insurance business": the field (1) of a job the person got or has. */
const JOB_IN_FIELD =
  new RegExp(pattern`\bi ${ADV}(?:have |had )?(?:got|get|found|started|took|landed|have|had)(?: to get)?
  \s(?:a |an |my )?(?:new |first |better )?job in (?:the )?([a-z]+(?: [a-z]+)?) (?:business|industry|field|sector)\b`)
/** Subjects and owners a clause may speak of before "as a": "i", "my", or someone else. */
const SUBJECT_WORD = /\b(?:i|my|me|you|your|he|his|she|her|they|their|we|our)\b/g

/**
 * Whether the last subject before "as a" is the person: "i love classical music as a librarian", "my first job as a
 * nurse"; not "i bet you meet people as a waitress", where the job is the other speaker's.
 */
function lastSubjectIsOwn(said: string): boolean {
  const last = [...said.matchAll(SUBJECT_WORD)].at(-1)?.[0]
  return last === 'i' || last === 'my' || last === 'me'
}

/** "i love classical music as a librarian", "when not working as a librarian": the role (1) a clause ends with. */
const AS_A_JOB = /\bas an? ((?:[a-z-]+ ){0,2}[a-z-]+)$/
/**
 * "the best thing about my job as a teacher is the kids", "my job as a nurse is exhausting": the job (1) said of the
 * person's job now (not "my first job as a waiter was ...").
 */
const MY_JOB_AS = new RegExp(pattern`\bmy (?:(?:current|new|day|full[- ]time|part[- ]time) )?(?:job|work|career|role)
  \sas an? ((?:[a-z-]+ ){0,2}?[a-z-]+)(?= (?:is|has|keeps|pays|makes|can|means|takes|involves)\b|,|$)`)
/** "as a 46 year old recording engineer i can relate": a job (1) the person speaks as, before their "i". */
const AS_A_JOB_FIRST = /^(?:well |and |so |but )?as an? (?:\d{1,3} years? old )?((?:[a-z-]+ ){0,2}[a-z-]+) (?=i )/
/** What makes "as a" no job of the person's: a costume, a part played, a view ("i went as a nurse for halloween"). */
const NOT_AS_A_JOB = new RegExp(pattern`\b(?:dress|dressed|dressing|went|go|going|costume|disguised|pose|posed|posing|
  play|played|playing|act|acted|acting|cosplay|see|saw|think of|thought of|treat|treated|known|seen|describe|
  described|work|worked|hired|started)\b`)
/** Fields of work said with "i work in": "sales", "ux design", "hr". */
const FIELDS = pattern`sales|
  marketing|finance|accounting|it|tech|hr|human resources|real estate|insurance|retail|healthcare|health care|
  construction|banking|consulting|advertising|logistics|hospitality|pr|public relations|recruiting|recruitment|
  software|journalism|publishing|tech support|customer service|customer support|payroll|bookkeeping|cybersecurity|
  devops|data science|data analytics|web development|(?:ux|ui|ux/ui|graphic|web|product|interior|game) design|
  product management|project management|it support|data entry|hvac|landscaping|plumbing|admin|administration|tax|
  transcription|translation|childcare|security|catering|video editing|copywriting|content creation|social media|
  event planning|property management|quality assurance|qa|procurement|compliance|claims|underwriting|nursing|
  education|law|engineering|academia|government|media|fashion`
/**
 * "just switched careers from accounting to ux design", "left my job in finance to become a chef", "ended up in
 * accounting": the new job or field (1), which replaces any job said before it.
 */
const CAREER_SWITCH = new RegExp(pattern`(?:\bi |^)${ADV}(?:(?:switched|changed|moved|pivoted|transitioned|retrained)
  (?: my)?(?: careers?| jobs?| fields?| industries| over)?(?: from (?:[a-z'&/-]+ ){0,2}?[a-z'&/-]+)? (?:to|into)|
  (?:left|quit)
  (?: my)? (?:job|career|work)(?: [a-z'&/-]+){0,4}? to (?:become|be)|ended up(?: working)? (?:in|as)) (?:a |an )?(.+)$`)
/** "i am in sales", "i do IT for a hospital": a field of work (1), said without a job. */
const IN_FIELD = new RegExp(pattern`^(?:now |these days |currently )?i ${ADV}(?:am in|do|work (?:online |remotely |
  from home )?in|work) (${FIELDS})
  (?= for\b| at\b| so\b| and\b| now\b| all day\b| full[- ]time\b| part[- ]time\b| these days\b|,|$)`)

/** Where a workplace's name ends: a clause word or a comma. */
const WORKPLACE_END = new RegExp(pattern`\s(?:and|but|so|because|since|as|where|when|which|who|with|for|on|during|
  every|all|from|to|while|though|although|at|in|helping|working|taking|making|doing|serving|teaching|caring|looking|
  trying|saving)\b.*$|,.*$|\s(?:they|he|she|we|i|you|it) [a-z]+\b.*$|
  \s(?:last|this past|this|next) (?:week|weekend|month|year|summer|spring|fall|winter|night|[a-z]+day)\b.*$|
  \s(?:yesterday|today|tonight|tomorrow|recently|lately|most days|some days|these days)\b.*$|
  \s(?:(?:about|almost|over) )?(?:a|an|one|two|three|four|five|six|\d+|a few|several) (?:days?|weeks?|months?|years?)
  \sago\b.*$`)
/** "(i work for) myself walking dogs": what the self-employed person does (1), if said. */
const SELF_EMPLOYED = new RegExp(pattern`^myself(?: ([a-z]+ing(?: (?!(?:and|or|but|for|to|in|at|so|because)\b)[a-z]+)
  {0,2}))?(?=$|[ ,.!?])(?! (?:would|could|might|will|someday|one day|is|was)\b)`)
/** "i work at night", "i work at home": a time or a place that is not a workplace. */
const NOT_A_WORKPLACE =
  new RegExp(pattern`^(?:my|your|home|the same\b|the (?:morning|evening|afternoon|night|moment)|night|nights|
  the weekend|weekends|least|times?|a (?:bit|while)|noon|midnight|lunch(?:time)?|dawn|dusk|[a-z]+ o'clock|
  with|to|for|at|in|on|by|those|these|them|myself|yourself|ourselves|money|free|fun|a living|most)\b`)
/** "i drive for uber on the weekends": the verb (1) and whom for (2), a name of one or two words. */
const DRIVE_FOR = new RegExp(
  `\\bi ${ADV}(drive|deliver|do deliveries) for ([a-z][a-z&'-]*(?: [a-z][a-z&'-]*)?)` +
    '(?= on\\b| to\\b| at\\b| in\\b| part\\b| full\\b| now\\b| and\\b|$)',
)
/** Apps people drive or deliver for, as their makers write them: chat often writes them in lower case. */
const GIG_APPS = dict({
  uber: 'Uber',
  'uber eats': 'Uber Eats',
  lyft: 'Lyft',
  doordash: 'DoorDash',
  grubhub: 'Grubhub',
  instacart: 'Instacart',
  deliveroo: 'Deliveroo',
  postmates: 'Postmates',
  'amazon flex': 'Amazon Flex',
  gopuff: 'Gopuff',
  shipt: 'Shipt',
  bolt: 'Bolt',
})
/** "i just got home from work at the mall": "as" or "at" (1) and what follows (2). */
const FROM_WORK = new RegExp(pattern`^(?:i (?:am |was )?)?${ADV}(?:got|get|getting|came|come|coming|went|headed|
  heading|back|home|off|tired|exhausted|just)\b(?: [a-z]+){0,2} (?:from|off) work (as|at) (.+)$`)

/** A month, a season or a year, which "my job in" may be followed by. */
const TIME_OF_YEAR = new RegExp(`^(?:the )?(?:${MONTHS.join('|')}|spring|summer|fall|autumn|winter|(?:19|20)\\d\\d)$`)
/** A job the person no longer has: "i lost my job at the bank", "after i quit my job at amazon". */
const JOB_GONE = /\b(?:lost|quit|left|leaving|quitting|fired from|laid off from|let go from) my (?:[a-z-]+ )?job\b/

/** The workplace a phrase after "work at" names, cut where the clause goes on; none for a time or a pronoun. */
function workplace(phrase: string): string | undefined {
  const place = phrase
    // "my local supermarket" is a workplace like any other ("my desk" is none)
    .replace(/^my local /, 'the local ')
    // "the a traveling circus": one determiner of two
    .replace(/^(?:the|a|an) (?=(?:the|a|an) )/, '')
    .replace(WORKPLACE_END, '')
    .replace(/\s+(?:now|currently|today|nights?|also|too|though|anyway|as well|lol|haha)$/, '')
    .trim()
  // "i work for them": whom is said elsewhere
  if (/^(?:though|also|too|anyway|lol|haha|it|that|this|there|here|them|him|her|us|you|me|myself|then)$/.test(place))
    return undefined
  if (!place || NOT_A_WORKPLACE.test(place) || place.split(' ').length > 5) return undefined
  // "i work in the industry": which one was said before, and "works in the industry" names none
  if (/^the (?:industry|business|field|sector|trade)$/.test(place)) return undefined
  // "i get off work at 2 pm": a time of day; "my job in march": a time of the year
  if (/^\d+(?::\d\d)?(?: ?[ap]\.?m\.?| ?o'clock)?$/.test(place) || TIME_OF_YEAR.test(place)) return undefined
  return place
}
/**
 * "i got a new job as a cook", "i have taken a second job as a stunt double", "i am starting a new job as a nurse on
 * monday": "as" (1), what follows (2).
 */
const GOT_A_JOB = new RegExp(
  `\\bi ${ADV}(?:got|landed|found|started|took|accepted|have|have (?:taken|got|gotten|landed|found|accepted)|` +
    'am starting|start|will start|am beginning) (?:a|my) ' +
    '(?:new |part[- ]time |full[- ]time |second )?(?:job|role|position) ' +
    '(working |as (?:a |an )?)?(.+)$',
)
/** "chef larry here": the title (1) before the name the person opens with. */
const TITLE_NAME_HERE = new RegExp(pattern`^${GREETING}?[, ]*(?:there )?(${TITLES}) [a-z][a-z'-]* here\b`)
/** "i just started as a life coach": a job begun (1); "just" or "recently" says it is the job now. */
const JUST_STARTED_AS = /\bi (?:actually |only )?(?:have )?(?:just|recently) started (?:out )?as (?:a |an )?(.+)$/
/** "the gas station where i work", "a museum that i work at": the place with its article (1). */
/** Words a workplace's name has none of: a preposition, or a word that names no place of its own ("the place"). */
const NOT_WORKPLACE_WORD = 'at|in|on|to|for|of|with|from|and|or|place|one|same|spot|area|job|time'
const WHERE_I_WORK = new RegExp(
  // "the local supermarket is where i work": the place before "is"
  `\\b((?:the|a|an)(?: (?!(?:${NOT_WORKPLACE_WORD}|is|was)\\b)[a-z][a-z'&-]*){1,4}) (?:is where|where|that) i ${ADV}` +
    `work(?: at)?` +
    `(?!\\s+(?:out|on|it)\\b)(?=$|[\\s,.!?])`,
)
/** "at a gas station and i love it": the place (1). */
const JOB_PLACE = new RegExp(pattern`^(?:at|in|for|with) (?:a |an |the |my |our )?([a-z0-9&' -]{2,40}?)
  (?:\s(?:and|but|so|because|to|while|since|for|on|every|last|this|next|yesterday|today|tonight|recently|earlier|
  lol|haha|(?:a|an|one|two|three|four|five|six|\d+|a few|a couple of) (?:days?|weeks?|months?|years?) ago)\b.*)?$`)

/** A title won or given, which names no job: "homecoming queen", "a drama queen", "prom king". */
const TITLE_WON = /\b(?:homecoming|prom|drama|beauty|pageant|rodeo) (?:queen|king|princess|prince)$/

/** A job written without its article: one known job title, which no reading takes for an adjective ("chef"). */
function isBareJob(phrase: string): boolean {
  const words = phrase.split(' ')
  const last = words[words.length - 1]!
  return (
    OCCUPATIONS.has(last) && !NOT_JOBS.has(last) && (words.length === 1 ? nounAlone(last) : OCCUPATIONS.has(phrase))
  )
}

/** The student a school or a degree makes: "grad school", "my masters" -> graduate student; "undergrad" -> college. */
function studentAt(schoolOrDegree: string): string {
  // "3rd grade student", as said
  if (/ grade$/.test(schoolOrDegree)) return `${schoolOrDegree} student`
  if (/high/.test(schoolOrDegree)) return 'high school student'
  if (/^(?:grad|master|phd|doctorate|mba)/.test(schoolOrDegree)) return 'graduate student'
  if (/med/.test(schoolOrDegree)) return 'medical student'
  if (/law/.test(schoolOrDegree)) return 'law student'
  // "photography school", "nursing school": a student of the field
  const field = /^(\w+) school$/.exec(schoolOrDegree)?.[1]
  if (field) return `${field} student`
  return 'college student'
}

/**
 * The business a phrase opens with, with at most two words that say what kind ("electrical business for 10 years" ->
 * "electrical business"), or undefined.
 */
/** "dog walking business", "cleaning company": a trade said by what is done (2), to what (1), ending the phrase. */
const TRADE = /^(?:([a-z]+) )?([a-z]+ing) (?:business|company|service)$/
/** The job of a trade's gerund: "walking" -> "walker". */
const JOB_OF_GERUND = new Map(Object.entries(VERB_TO_JOB).map(([verb, job]) => [gerund(verb), job]))
/** Jobs named with what they work on: "dog walker", "house cleaner". */
const OBJECT_JOBS = new Set(['driver', 'walker', 'cleaner', 'repairer', 'sitter', 'painter', 'builder'])

/** "my plumbing business", "our little cleaning company": the business (1) said as the person's own. */
const MY_TRADE_BUSINESS = /\b(?:my|our) (?:own |small |little |family )*((?:[a-z]+ )?[a-z]+ing (?:business|company))\b/

/**
 * The job of who runs `biz`: its trade's agent ("a dog walking business" -> "dog walker", as "i walk dogs for a
 * living" is), else its manager or owner.
 */
function businessJob(biz: string, managed: boolean): string {
  const trade = TRADE.exec(biz)
  const agent = trade ? JOB_OF_GERUND.get(trade[2]!) : undefined
  if (agent) return [trade![1] && OBJECT_JOBS.has(agent) ? trade![1] : '', agent].join(' ').trim()
  return managed ? `${biz} manager` : `${biz} owner`
}

function businessAt(phrase: string): string | undefined {
  const words = phrase.split(' ')
  for (let skip = 0; skip <= 2 && skip < words.length; skip++) {
    if (skip && /^(?:for|in|at|with|and|of|to|from|on|since|that|which)$/.test(words[skip - 1]!)) return undefined
    const rest = words.slice(skip).join(' ')
    const biz = [...BUSINESSES]
      .filter((b) => rest === b || rest.startsWith(b + ' '))
      .sort((a, b) => b.length - a.length)[0]
    if (biz) return [...words.slice(0, skip), biz].join(' ')
  }
  return undefined
}

/** "what i love about being a librarian", "the worst part of being a nurse": up to three words after "being a" (1). */
const BEING_A_JOB = new RegExp(pattern`\b(?:i (?:love|like|hate|enjoy)|(?:best|worst|hardest|only|fun) (?:part|thing)s?|
  perks?) (?:about|of) being an? ((?:[a-z-]+ ){0,2}[a-z-]+)`)

/** A job the person says what being one is like, the shortest run of words that ends on a known job. */
function ruleBeingAJob(text: string, ctx: RuleContext): boolean {
  const match = BEING_A_JOB.exec(text)
  if (!match || otherSubject(text)) return false
  const words = match[1]!.split(' ')
  for (let end = 1; end <= words.length; end++) {
    const job = words.slice(0, end).join(' ')
    if (!OCCUPATIONS.has(singular(words[end - 1]!)) || NOT_JOBS.has(job)) continue
    ctx.acc.setCore('occupation', job, 0.6, 'occupation.being-a', match)
    return true
  }
  return false
}

/** "selling cars": what the job does, a gerund (1) and its object (2); not a word that says what it is like. */
const JOB_DONE = new RegExp(pattern`^(?!(?:boring|amazing|interesting|exhausting|demanding|rewarding|tiring|annoying|
  frustrating|challenging|fulfilling|stressing|relaxing|exciting|thrilling|draining|depressing)\b)([a-z]+ing)
  (?: (?!(?:them|it|him|her|us|me|you|this|that|those|these)$)([a-z]+(?: [a-z]+)?))?$`)

/** Jobs said by a verb and its object, where the verb alone names another job or none ("build websites"). */
const VERB_OBJECT_JOB: Record<string, string> = dict({
  'produce music': 'music producer',
  'make music': 'musician',
  'build websites': 'web developer',
  'design websites': 'web designer',
  'make websites': 'web developer',
  'write code': 'programmer',
  'write software': 'software developer',
  'cut hair': 'hairdresser',
  'do hair': 'hairdresser',
  'do nails': 'nail technician',
  'fix computers': 'computer technician',
  'do taxes': 'tax preparer',
  'sell houses': 'real estate agent',
  'sell real estate': 'real estate agent',
  'take photos': 'photographer',
  'take pictures': 'photographer',
})

/** The job of one who does `verb` (to `object`): "sell" "cars" gives "car seller", "teach" "kids" gives "teacher". */
function jobOfVerb(verb: string, object: string | undefined): string | undefined {
  const said = VERB_OBJECT_JOB[`${verb.replace(/s$/, '')} ${object ?? ''}`]
  if (said) return said
  const job = VERB_TO_JOB[verb] ?? VERB_TO_JOB[verb.replace(/s$/, '')]
  if (!job) return undefined
  const obj = object?.replace(/^(?:a|an|the|other people's|people's)\s+/, '')
  const withObj =
    ['driver', 'walker', 'cleaner', 'repairer', 'salesperson', 'sitter'].includes(job) && obj && !obj.includes(' ')
  return withObj ? `${singular(obj)} ${job === 'salesperson' ? 'seller' : job}` : job
}

/** "my electrician salary", "my tailor job": a job (1) named by what it gives or is. */
const MY_JOB_NOUN = /\bmy ((?:[a-z]+ ){0,2}[a-z]+) (?:career|salary|paycheck|wages?|uniform|job)\b/

/** "art is my major", "my major is history": the field studied (1). */
const MY_MAJOR = new RegExp(pattern`(?:^|\band )(?:(?!(?:what|which|who|how|that|this|it)\b)([a-z]+(?: [a-z]+)?)
  \sis my (?:college )?major|my (?:college )?major is (?!undecided|still|not\b)([a-z]+(?: [a-z]+)?))$`)

/** "being a lawyer is my dream": a job (1) wished for, said first. */
const DREAM_SAID_FIRST = /^(?:being|to be|becoming) (?:a |an )?([a-z]+(?: [a-z]+){0,2}) is my (?:dream|goal|ambition)\b/

const SWITCHED_FIELD = new RegExp(`^(?:${FIELDS})$`)

/**
 * A field of work as the person wrote it, with the initials chat writes in lower case in capitals ("hr", "ux design");
 * undefined for "it" not written as "IT" ("i do it", "i switched to it").
 */
function writtenField(said: string, ctx: RuleContext): string | undefined {
  const field = ctx.cases.restore(said)
  if (said === 'it' && field !== 'IT') return undefined
  return field.replace(/^(?:hvac|qa|hr|pr|it|ux|ui)\b/, (initials) => initials.toUpperCase())
}

/** A new job or field of work the person switched to: true when it set the occupation. */
function ruleCareerSwitch(clause: ClauseInfo, ctx: RuleContext): boolean {
  const match = clause.negated ? null : CAREER_SWITCH.exec(clause.text)
  if (!match) return false
  const said = match[1]!.replace(/\s+(?:last|this|a|two|three|\d+) (?:week|month|year|years|months)\b.*$/, '')
  const job = occupationFrom(said, true)
  if (job?.kind === 'job') {
    ctx.acc.setCore('occupation', job.value, PROMOTED_CONFIDENCE, 'occupation.career-switch', match)
    return true
  }
  const field = said.replace(/,.*$|\s+(?:and|but|so|because|since|at|for|with|after|now)\b.*$/, '')
  const written = SWITCHED_FIELD.test(field) ? writtenField(field, ctx) : undefined
  if (!written) return false
  ctx.acc.setCore('occupation', `works in ${written}`, PROMOTED_CONFIDENCE, 'occupation.career-switch', match)
  return true
}

/**
 * What follows a student said by level or year ("a grad student studying x", "a sophomore in college studying x"):
 * the words (1) that may name the subject.
 */
const STUDENT_THEN = new RegExp(pattern`\b(?:student|freshman|sophomore|junior|senior)(?: (?:in|at) (?:college|
  university|uni|high school))?,? (?:who is |and )?(.+)$`)

/** A student named by the level of study alone, which a subject makes precise. */
const LEVEL_STUDENT =
  /^(?:phd|grad|graduate|masters?|master's|doctoral|undergrad|undergraduate|college|university|uni) student$/

/** "i am studying biology", "majoring in history": "biology student"; true when it set the occupation. */
function ruleStudying(clause: ClauseInfo, ctx: RuleContext): boolean {
  const match = clause.negated ? null : (STUDYING.exec(clause.text) ?? MY_MAJOR.exec(clause.text))
  const studied = match ? (match[1] ?? match[2]!) : ''
  // "studying french next": a language, whatever follows it; a school said before it names the student already
  const field = studied.split(' ')
  // "i'm a student, going to school for nursing": the subject makes a student said before it precise, and replaces
  // it; a level of study stays ("a grad student studying marine biology": "marine biology grad student")
  const current = String(ctx.acc.coreValue('occupation') ?? '')
  const plainStudent = current === 'student'
  const level = LEVEL_STUDENT.test(current) ? current : undefined
  const known = ctx.acc.hasCore('occupation') && !plainStudent && !level
  if (!match || known || field.some((word) => isLanguage(word) || word === 'next')) return false
  const confidence = plainStudent || level ? 0.95 : 0.7
  // a college student of history is a history student
  const kind = level && !/^(?:college|university|uni) /.test(level) ? level : 'student'
  const student = `${ctx.cases.restore(studied)} ${kind}`
  ctx.acc.setCore('occupation', student, confidence, 'occupation.studying', match)
  return true
}

/**
 * "i am finishing my degree in psychology": a psychology student, read as "i am studying psychology" is; not a place
 * or a time ("my degree in london", "in may", "in two years").
 */
function degreeSubject(degree: RegExpExecArray, clause: ClauseInfo, ctx: RuleContext): void {
  const subject = /^ in ([a-z][a-z ]*)/.exec(clause.text.slice(degree.index + degree[0].length))?.[1]
  if (subject && namesSubject(subject, ctx)) ruleStudying({ ...clause, text: `i am studying ${subject}` }, ctx)
}

/** Whether what follows "in" may be a subject of study: not a place, a month or a count ("in london", "in may"). */
function namesSubject(phrase: string, ctx: RuleContext): boolean {
  const first = phrase.split(' ')[0]!
  if (MONTHS.includes(first) || /^(?:the|a|an|my|our|one|two|three|\d)\b/.test(first)) return false
  return !placeKind(first, (word) => ctx.cases.isCapitalised(word)) && !ctx.cases.isCapitalised(first)
}

export function ruleOccupation(clause: ClauseInfo, ctx: RuleContext): void {
  const text = clause.text
  if (clause.hedged) return
  const dream = DREAM_SAID_FIRST.exec(text)
  // "i will be a doctor if i pass": a condition, which asserts nothing
  const ahead = dream || clause.desire || (WILL_BE.test(text) && !/\b(?:if|unless)\b/.test(text))
  const study = STUDYING_TO_BE.exec(text)
  if (ahead || study) {
    // "I am studying to become a nurse": a student; "I want to be a lawyer": an aspiration, weaker than any real job
    const goal = study
      ? undefined
      : (dream ??
        WANT_TO_BE.exec(text) ??
        WILL_BE.exec(text) ??
        /\bmy (?:dream|goal|plan|ambition) (?:job )?is to (?:be|become) (?:a |an )?(.+)$/.exec(text))
    const finding = study || goal ? occupationFrom((study ?? goal)![1], true) : undefined
    const job =
      finding?.kind === 'job' && !/^(?:student|college student|retired|former\b)/.test(finding.value)
        ? finding.value
        : undefined
    if (study)
      ctx.acc.setCore(
        'occupation',
        job ? `student (aspiring ${job})` : 'student',
        0.6,
        'occupation.studying-to-be',
        study,
      )
    else if (job) ctx.acc.setCore('occupation', `aspiring ${job}`, 0.45, 'occupation.want-to-be', goal ?? undefined)
    return
  }
  // "i just got promoted to head chef": the new job, surer than any earlier statement of the old one
  let match = PROMOTED_TO.exec(text)
  if (match) {
    const finding = occupationFrom(match[1], true)
    if (finding?.kind === 'job') {
      ctx.acc.setCore('occupation', finding.value, PROMOTED_CONFIDENCE, 'occupation.promoted-to', match)
      return
    }
  }
  if (ruleCareerSwitch(clause, ctx)) return
  match = MY_JOB_AS.exec(text)
  if (match && OCCUPATIONS.has(singular(match[1]!.split(' ').at(-1)!)) && !NOT_JOBS.has(match[1]!)) {
    ctx.acc.setCore('occupation', match[1]!, 0.7, 'occupation.my-job-as', match)
    return
  }
  match = WORK_AS.exec(text) ?? MAKE_A_LIVING.exec(text) ?? PAID_AS.exec(text) ?? WORKING_AS.exec(text)
  if (match && emit(occupationFrom(match[1], false), ctx, 'occupation.work-as', match)) return
  match = MY_JOB_IS.exec(text)
  // "one part of my job is walking them": what "them" is was said before, so no job is named
  if (match && /^[a-z]+ing (?:them|it|him|her|us|me|you|this|that|those|these)$/.test(match[1]!)) return
  // "my job is selling cars": the job of the verb, as "i sell cars for a living" says it
  const doing = match ? JOB_DONE.exec(match[1]!) : null
  const jobDone = doing ? jobOfVerb(lemmaOfGerund(doing[1]!), doing[2]) : undefined
  if (jobDone) {
    ctx.acc.setCore('occupation', jobDone, 0.75, 'occupation.my-job-is', match!)
    return
  }
  // "my new job is with a naturopath", "my job is at a bank": where or with whom the person works
  const jobPlaceSaid = match ? /^(at|with|for|in) (.+)$/.exec(match[1]!) : null
  if (jobPlaceSaid) {
    const place = workplace(jobPlaceSaid[2]!)
    const said = place ? `works ${jobPlaceSaid[1]} ${ctx.cases.restore(place)}` : undefined
    if (said) ctx.acc.setCore('occupation', said, 0.55, 'occupation.my-job-is', match!)
    return
  }
  if (match && !doing && emit(occupationFrom(match[1], false), ctx, 'occupation.my-job-is', match)) return
  // "chef is my job": a known job said first
  match = /^(?:a |an |being a |being an )?([a-z]+(?: [a-z]+)?) is my (?:job|profession|occupation|day job)\b/.exec(text)
  const saidFirst = match && !clause.negated ? occupationFrom(match[1]!, true) : undefined
  if (saidFirst?.kind === 'job' && emit(saidFirst, ctx, 'occupation.my-job-is', match!)) return
  // "stay fit for my professional wrestler career", "my electrician salary": a known job named by what it gives
  match = MY_JOB_NOUN.exec(text)
  // a "not" after it is of something else: "my electrician salary could not afford that"
  const deniedBefore = match ? /\b(?:not|never|no|nor)\b/.test(text.slice(0, match.index)) : false
  const career = match && !deniedBefore ? occupationFrom(match[1]!, true) : undefined
  // "my tailor job was so flexible": a job of the past
  const past = match ? /^ (?:was|were|used to)\b/.test(text.slice(match.index + match[0].length)) : false
  if (career?.kind === 'job' && past) {
    ctx.acc.setCore('occupation', `former ${career.value}`, 0.45, 'occupation.career', match!)
    return
  }
  if (career?.kind === 'job' && emit({ ...career, conf: SPEAKS_AS_CONFIDENCE }, ctx, 'occupation.career', match!))
    return
  // "electrician by trade": chat leaves out "i am" at a clause's start
  match =
    rx`\\bi am (?:a |an )?(.+?) by (?:profession|trade)\\b`.exec(text) ??
    rx`^(?:a |an )?([a-z]+(?: [a-z]+)?) by (?:profession|trade)\\b`.exec(text)
  if (match && emit(occupationFrom(match[1], false), ctx, 'occupation.by-profession', match)) return
  match = SPEAKS_AS.exec(text)
  const spokenAs = match ? (match[1] ?? match[2]!) : undefined
  // "being a lawyer is something i want": a clause about the job, not one spoken from it; "as a teacher he was great
  // to me": someone else's
  const role = spokenAs && !NOT_SPOKEN_AS.test(spokenAs) ? occupationFrom(spokenAs, true) : undefined
  if (role?.kind === 'job' && emit({ ...role, conf: SPEAKS_AS_CONFIDENCE }, ctx, 'occupation.speaks-as', match!)) return
  match = RETIRED.exec(text)
  if (match) {
    // "just retired after 30 years as a firefighter": the job retired from
    const from = RETIRED_AS.exec(text.slice(match.index + match[0].length))
    const job = from ? occupationFrom(from[1]!, true) : undefined
    // "i just retired. i was a gym teacher": the job said before in the same text
    const before = String(ctx.acc.coreValue('occupation') ?? '')
    const formerJob = /^former (.+)$/.exec(before)?.[1]
    const value = job?.kind === 'job' ? `retired ${job.value}` : formerJob ? `retired ${formerJob}` : 'retired'
    ctx.acc.setCore('occupation', value, RETIRED_CONFIDENCE, 'occupation.retired', match)
    return
  }
  match = rx`\\bi am ${ADV}(?:unemployed|jobless|between jobs|out of work)\\b`.exec(text)
  if (match) {
    ctx.acc.setCore('occupation', 'unemployed', 0.85, 'occupation.unemployed', match)
    return
  }
  // someone looking for a (new) job may still have one: say what is known
  match = JOB_SEEKER.exec(text)
  if (match) {
    ctx.acc.setCore('occupation', 'job seeker', 0.6, 'occupation.job-seeker', match)
    return
  }
  match = rx`\\bi am ${ADV}self[- ]employed\\b`.exec(text)
  if (match) {
    ctx.acc.setCore('occupation', 'self-employed', 0.9, 'occupation.self-employed', match)
    return
  }
  ruleServed(text, ctx)
  match = MILITARY.exec(text)
  if (match) {
    const branch = match[1] === 'military' ? 'military' : `military (${match[1]})`
    ctx.acc.setCore('occupation', branch, 0.85, 'occupation.military', match)
    return
  }
  match = I_AM_A.exec(text)
  if (match && /^the /.test(match[1]))
    match[1] = match[1]
      .replace(/^the (?:best|only|top|youngest|oldest) /, 'a ')
      .replace(/^the /, 'a ')
      .replace(/\s+(?:around|in town|ever|here|there|in the world)$/, '')
  if (match) {
    let found = false
    const jobs: Finding[] = []
    for (const [i, part] of match[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/).entries()) {
      // "a teacher and waitress", "a gardener and hiker": a second job or pastime may leave out its article
      const bare = i > 0 && (isBareJob(part) || !!HOBBY_AGENTS[singular(part)])
      const np = /^(?:a|an) (.+)$/.exec(part)?.[1] ?? (bare ? part : undefined)
      const finding = np ? occupationFrom(np, true) : undefined
      if (finding?.kind === 'job') jobs.push(finding)
      else if (np) found = emit(finding, ctx, 'occupation.i-am-a', match) || found
    }
    // two jobs held at once are one value: "teacher and waitress"
    const values = jobs.map((j) => j.value)
    const joined = values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}` : ''
    const place = jobs.length === 1 && JOB_WITH_PLACE.test(jobs[0]!.value) ? AT_WORKPLACE.exec(match[1]) : null
    // "a cashier at the local supermarket": where says what the job is
    const at = place ? ` at ${/^(?:my|our)$/.test(place[1]!) ? 'a' : place[1]} ${place[2]}` : ''
    const both = jobs.length > 1 ? { ...jobs[0]!, value: joined } : jobs[0] && { ...jobs[0], value: jobs[0].value + at }
    found = emit(both, ctx, 'occupation.i-am-a', match) || found
    // "i am a college student majoring in history": the subject after the student, read as a clause of its own
    // "a phd student in neuroscience": the subject after "in", when it is no place or time
    // "a junior at ohio state majoring in econ": the school said before the subject
    const after = STUDENT_THEN.exec(text)?.[1]
      ?.replace(/^am /, '')
      .replace(/^(?:at|in) (?:the )?(?:[a-z]+ ){1,4}?(?=(?:majoring|studying)\b)/, '')
    const subject = after && /^in ([a-z].*)$/.exec(after)?.[1]
    const studied = subject ? (namesSubject(subject, ctx) ? `studying ${subject}` : undefined) : after
    if (found && studied) ruleStudying({ ...clause, text: `i am ${studied}` }, ctx)
    if (found) return
  }
  match = BECAME.exec(text)
  if (match && emit(occupationFrom(match[1]!, true), ctx, 'occupation.i-am-a', match)) return
  match = I_AM_BARE_JOB.exec(text)
  if (match && isBareJob(match[1]!) && emit(occupationFrom(match[1]!, true), ctx, 'occupation.i-am-a', match)) return
  match = (clause.negated ? null : DOING_DEGREE.exec(text)) ?? IN_SCHOOL.exec(text)
  // "i am going to college next year": a plan
  if (
    match &&
    /\bgoing to\b/.test(match[0]) &&
    /\b(?:next|soon|someday|one day|in the fall|after|in (?:a|an|one|two|\d+) (?:years?|months?))\b/.test(text)
  )
    match = null
  if (match) {
    ctx.acc.setCore('occupation', studentAt(match[1]), 0.75, 'occupation.school', match)
    degreeSubject(match, clause, ctx)
    return
  }
  if (ruleStudying(clause, ctx)) return
  // "i coach swimming at the pool": a coach, and someone who cares about swimming
  match = rx`\\bi ${ADV}(?:coach|am coaching|instruct|train people in) ([a-z]+(?: [a-z]+)?)\\b`.exec(text)
  if (match && !/^(?:my|our|his|her|their|the|a|an|kids|children|people|at|in|for)\b/.test(match[1])) {
    // "competitive swimming", "youth soccer": the sport after the level it is coached at
    const act = match[1].replace(/^(?:competitive|youth|junior|varsity|college|school|kids|local) /, '').split(' ')[0]!
    const category = knownAs(act, PLAYED)
    if (category) {
      ctx.acc.setCore('occupation', `${act} coach`, 0.75, 'occupation.coach', match)
      ctx.acc.addInterest(category, act, 0.7, 'occupation.coach', match)
      return
    }
  }
  // "i am a tennis player professionally"
  match = PROFESSIONALLY.exec(text)
  if (match) {
    ctx.acc.setCore('occupation', `professional ${match[1]} ${match[2]}`, 0.85, 'occupation.professionally', match)
    return
  }
  match = PLAY_PROFESSIONALLY.exec(text)
  if (match && knownAs(match[1]!, ['sports'])) {
    ctx.acc.setCore('occupation', `professional ${match[1]} player`, 0.85, 'occupation.professionally', match)
    ctx.acc.addInterest('sports', match[1]!, 0.8, 'occupation.professionally', match)
    return
  }
  match = rx`\\bi ${ADV}(?:teach|am teaching|have taught)\\s*(.*)$`.exec(text)
  if (match) {
    const subj = SUBJECTS.exec(match[1].replace(/^(?:at |in )?(?:a |an |the )?/, ''))
    const at = /^(?:at|in) (?:a |an |the )?(?:school|college|university|high school)/.test(match[1])
    // "i teach fourth graders": a fourth grade teacher
    const taught = subj?.[0].replace(/ graders?$/, ' grade')
    ctx.acc.setCore('occupation', taught && !at ? `${taught} teacher` : 'teacher', 0.85, 'occupation.teach', match)
    return
  }
  match = RUN_A_BUSINESS.exec(text)
  if (match) {
    const biz = businessAt(match[2]!)
    // "i have a bakery" may be one nearby; "i have a dog walking business" names its trade
    const trade = biz ? TRADE.exec(biz) : null
    if (biz && !(match[1] === 'have' && !/\bmy own\b/.test(text) && !trade)) {
      ctx.acc.setCore('occupation', businessJob(biz, match[1] === 'manage'), 0.85, 'occupation.business', match)
      return
    }
  }
  // "i've been so busy with my plumbing business": a business of the person's, named by its trade
  match = MY_TRADE_BUSINESS.exec(text)
  if (match && TRADE.test(match[1]!)) {
    ctx.acc.setCore('occupation', businessJob(match[1]!, false), 0.75, 'occupation.business', match)
    return
  }
  // "i get paid to walk dogs", "i walk dogs on the side": what is done for a living too
  match =
    rx`\\bi ${ADV}([a-z]+)(?: ([a-z]+(?: [a-z]+)?))? (?:for a living|on the side|for extra (?:money|cash))\\b`.exec(
      text,
    ) ?? rx`\\bi ${ADV}(?:get|am|got|have been) paid to ([a-z]+)(?: ([a-z]+(?: [a-z]+)?))?$`.exec(text)
  // "i drive for uber on the side": for whom is no object, and the rules below name the employer
  if (match && !/^for\b/.test(match[2] ?? '')) {
    const job = jobOfVerb(match[1], match[2])
    if (job) {
      ctx.acc.setCore('occupation', job, 0.85, 'occupation.for-a-living', match)
      return
    }
  }
  match = NOUN_VERB.exec(text)
  if (match && !/\bcoach(?:ing)? (?:my|our)\b/.test(text)) {
    const verb = match[1] ?? GERUND_OF_JOB_VERB[match[2]!]!
    ctx.acc.setCore('occupation', VERB_TO_JOB[verb], 0.7, 'occupation.noun-verb', match)
    return
  }
  // "i got a new job in the insurance business": the field of a job found
  match = JOB_IN_FIELD.exec(text)
  if (match) {
    ctx.acc.setCore('occupation', `works in ${match[1]}`, 0.55, 'occupation.in-field', match)
    return
  }
  // "i love classical music as a librarian": a known job the person speaks as, weakly
  const atEnd = AS_A_JOB.exec(text)
  const opening = atEnd ? null : AS_A_JOB_FIRST.exec(text)
  match = atEnd ?? opening
  const said = match ? text.slice(0, match.index) : ''
  // the person's clause ("my dad works as an electrician" is the dad's), not a view of someone ("i like him as a
  // teacher")
  const speaksAs =
    match &&
    // "as a nurse i ...": the subject follows
    (opening !== null || lastSubjectIsOwn(said)) &&
    !otherSubject(text) &&
    !NOT_AS_A_JOB.test(said) &&
    !/\b(?:him|her|them|you|it|us|one|that|this)\s*$/.test(said)
  if (speaksAs && OCCUPATIONS.has(singular(match![1]!.split(' ').at(-1)!)) && !NOT_JOBS.has(match![1]!)) {
    ctx.acc.setCore('occupation', match![1]!, 0.55, 'occupation.as-a', match!)
    return
  }
  if (ruleBeingAJob(text, ctx)) return
  match = IN_FIELD.exec(text)
  const written = match ? writtenField(match[1], ctx) : undefined
  if (match && written) {
    ctx.acc.setCore('occupation', `works in ${written}`, 0.55, 'occupation.in-field', match)
    return
  }
  match = WORK_AT.exec(text)
  if (match?.[1] === 'on') {
    // "i work with my parents on the farm": a farm or a ship, not "i work on weekends"
    const on = WORKED_ON.exec(match[2]!)
    if (on) ctx.acc.setCore('occupation', `works on a ${on[1]}`, 0.55, 'occupation.work-at', match)
    return
  }
  // "i work for myself walking dogs": self-employed, and at what; not "working for myself would give more flexibility"
  const self = match?.[1] === 'for' ? SELF_EMPLOYED.exec(match[2]!) : null
  if (self) {
    const value = self[1] ? `self-employed, ${self[1]}` : 'self-employed'
    ctx.acc.setCore('occupation', value, 0.55, 'occupation.work-at', match!)
    return
  }
  if (match) {
    const place = workplace(match[2])
    if (place)
      ctx.acc.setCore(
        'occupation',
        `works ${match[1] === 'by' ? 'for' : match[1]} ${ctx.cases.restore(place)}`,
        0.55,
        'occupation.work-at',
        match,
      )
    return
  }
  match = MY_JOB_AT.exec(text)
  const jobPlace = match && !clause.negated && !JOB_GONE.test(text) ? workplace(match[1]!) : undefined
  if (match && jobPlace) {
    ctx.acc.setCore('occupation', `works at ${ctx.cases.restore(jobPlace)}`, 0.5, 'occupation.work-at', match)
    return
  }
  // "i drive for Uber on the weekends": a company written as a name, which a driver works for
  match = DRIVE_FOR.exec(text)
  // a company written with a capital, or an app chat writes in lower case ("now i drive for uber")
  const app = match ? GIG_APPS[match[2]!] : undefined
  if (match && (app || ctx.cases.isCapitalised(match[2]!.split(' ')[0]!)) && !clause.negated) {
    const job = `${match[1] === 'drive' ? 'drives' : 'delivers'} for ${app ?? ctx.cases.restore(match[2]!)}`
    ctx.acc.setCore('occupation', job, 0.55, 'occupation.drive-for', match)
    return
  }
  // "just got home from work at burger king", "got off work as a tour guide": work as a noun, the job or the place
  match = FROM_WORK.exec(text)
  if (match && !clause.negated) {
    if (match[1] === 'as') {
      if (emit(occupationFrom(match[2], false), ctx, 'occupation.from-work', match)) return
    } else {
      const place = workplace(match[2])
      if (place) {
        ctx.acc.setCore('occupation', `works at ${ctx.cases.restore(place)}`, 0.5, 'occupation.from-work', match)
        return
      }
    }
  }
  // "he keeps sending guys to the gas station where i work": the workplace, said in passing
  match = WHERE_I_WORK.exec(text)
  if (match && !clause.negated && !NOT_A_WORKPLACE.test(match[1].replace(/^\S+ /, ''))) {
    ctx.acc.setCore('occupation', `works at ${ctx.cases.restore(match[1])}`, 0.5, 'occupation.where-i-work', match)
    return
  }
  // "i (just) got a job (working) at a gas station"
  match = JUST_STARTED_AS.exec(text)
  if (match && emit(occupationFrom(match[1]!, false), ctx, 'occupation.got-a-job', match)) return
  // "i am their teacher", "i am his nurse": a known job, said of the people it serves
  match = /\bi am (?:their|his|her) ([a-z]+)$/.exec(text)
  if (match && OCCUPATIONS.has(match[1]!)) {
    ctx.acc.setCore('occupation', match[1]!, 0.6, 'occupation.their-job', match)
    return
  }
  // "chef larry here", "hey there coach danny here": the title the person signs with
  match = TITLE_NAME_HERE.exec(text)
  if (match && emit(occupationFrom(match[1]!, false), ctx, 'occupation.title-here', match)) return
  match = GOT_A_JOB.exec(text)
  if (match) {
    // the job only after "as" or "working": "a new job next week" names a time, not a job
    const finding = match[1] && !/^(?:at|in|for)\b/.test(match[2]) ? occupationFrom(match[2], false) : undefined
    if (emit(finding, ctx, 'occupation.got-a-job', match)) return
    // "a new job at a hospital as a pharmacist": the job after where it is
    const asJob = /^(?:at|in|for) .+? as (?:a |an )?(.+)$/.exec(match[2])
    if (asJob && emit(occupationFrom(asJob[1]!, false), ctx, 'occupation.got-a-job', match)) return
    const place = JOB_PLACE.exec(match[2])
    // "a job in San Francisco" says where the job is, not whom it is for
    const town = place && placeKind(place[1], (word) => ctx.cases.isCapitalised(word))
    if (place && place[1].split(' ').length <= 4 && !town)
      ctx.acc.setCore('occupation', `works at ${ctx.cases.restore(place[1])}`, 0.55, 'occupation.got-a-job', match)
    return
  }
  // "my students were wild today": only a teacher says so; weaker than any job the person names
  // a nurse's shifts on a ward: weaker than any job the person names
  match = WARD_SHIFTS.exec(text)
  if (match && !clause.negated && !/\b(?:used to|miss|former|retired|when i|back when)\b/.test(text)) {
    ctx.acc.setCore('occupation', 'nurse', 0.4, 'occupation.ward-shifts', match)
    return
  }
  match = MY_STUDENTS.exec(text)
  // "when i was a teacher" is a past job; "when i try to explain it to them" is not
  if (match && !clause.negated && !/\b(?:used to|miss|former|retired|when i (?:was|taught)|back when)\b/.test(text)) {
    ctx.acc.setCore('occupation', 'teacher', 0.4, 'occupation.my-students', match)
    return
  }
  const pastJob = PAST_JOB.exec(text)
  const usedToTeach = pastJob ? null : USED_TO_TEACH.exec(text)
  match = pastJob ?? usedToTeach
  if (match) {
    // "i used to teach gym in school": a gym teacher
    const subject = usedToTeach ? SUBJECTS.exec(usedToTeach[1]!.replace(/^(?:at |in )/, '')) : null
    const finding: Finding | undefined = usedToTeach
      ? { kind: 'job', value: subject ? `${subject[0]} teacher` : 'teacher', conf: 0.9 }
      : occupationFrom(pastJob![1]!, true)
    const now = ctx.acc.coreValue('occupation')
    // "i just retired. i was a gym teacher": the retired person's job; otherwise a former job, when none is known
    // a hair above "retired": the accumulator keeps an equal confidence's first value
    if (finding?.kind === 'job' && now === 'retired')
      ctx.acc.setCore(
        'occupation',
        `retired ${finding.value}`,
        RETIRED_CONFIDENCE + 0.01,
        'occupation.used-to-be',
        match,
      )
    else if (finding?.kind === 'job' && now === undefined && !/\bstudent$/.test(finding.value))
      ctx.acc.setCore('occupation', `former ${finding.value}`, 0.45, 'occupation.used-to-be', match)
  }
}

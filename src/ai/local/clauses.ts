// Clause shapes the rules do not read directly, rewritten into plain first-person clauses: coordinated verb
// phrases, appositions, subjectless fragments, "my husband and i ...", adverbs after "i am".
import { OCCUPATIONS } from './lexicon-core.js'
import { nlpHas } from './nlp.js'
import { CATEGORY_OF, HOBBY_AGENTS } from './lexicon-interests.js'
import { pattern } from './regex.js'
import { ADV, ADVERB_WORD } from './adverbs.js'
import { HOUSEHOLD_COUNT, SHARED_VERBS, singular, THE_HOUSEHOLD } from './text.js'

/** A clause's own verb phrases: what comes before the first coordinated verb, and each clause made from the rest. */
export interface Coordinated {
  /** The clause up to its first coordinated verb ("i drive a truck"), when it has one. */
  head?: string
  /** That verb ("live"). */
  headVerb?: string
  clauses: string[]
}

/**
 * A verb phrase coordinated with the person's own ("i drive a truck and live in the country") as a clause of its
 * own ("i live in the country"), so that rules anchored on "i <verb>" see it, and the first phrase alone ("i drive a
 * truck"), so that no fact runs on into the next ("drives a truck and live in the country"). Also the apposition of
 * "i am oskar, a 52 year old plumber" ("i am a 52 year old plumber"). `isVerb` tells a verb after "i";
 * `isVerbAnywhere`, a word that is a verb wherever it stands, where one phrase ends and the next begins.
 */
export function coordinatedClauses(
  text: string,
  isVerb: (word: string) => boolean,
  isVerbAnywhere: (word: string) => boolean = isVerb,
): Coordinated {
  if (!/(?:^|\s)i\s/.test(text)) return { clauses: [] }
  const out: string[] = []
  let head: string | undefined
  let headVerb: string | undefined
  const app = /^(?:.*\s)?i am [a-z0-9]+(?: [a-z0-9-]+){0,3},\s*(.+)$/.exec(text)
  if (app) {
    for (const seg of app[1].split(/\s*,\s*(?:and\s+)?/)) {
      if (APPOSED.test(seg)) out.push(`i am ${seg}`)
      // "i am 28, female, just got my first apartment": an event said without "i"
      else if (FRAGMENT_PAST.test(seg.replace(/^(?:just|recently|finally) /, ''))) out.push(`i ${seg}`)
    }
  }
  // "i am 19 and in my first year of college": a second state that shares "i am"
  const state = /^i am [^,]+? and ((?:in|from|living|based|married|single|retired|a|an) .+)$/.exec(text)
  if (state) out.push(`i am ${state[1]}`)
  const phrases: { at: number; verbAt: number; verb: string }[] = []
  for (const m of text.matchAll(COORDINATED_VERB)) {
    const verb = m[2]!
    if (NOT_VERB_AFTER_AND.has(verb) || !isVerb(verb)) continue
    // "i hike, bike and swim": a comma joins verbs only in a list that "and" closes
    if (!m[1] && !/\s(?:and|&)\s/.test(text.slice(m.index + m[0].length))) continue
    if (anotherObject(text, m.index, m.index + m[0].length)) continue
    // "born and raised": one state, not two
    if (verb === 'raised' && /\bborn$/.test(text.slice(0, m.index))) continue
    if (!sharesMySubject(text, m.index, verb)) continue
    if (head === undefined) [head, headVerb] = [text.slice(0, m.index), verb]
    phrases.push({ at: m.index, verbAt: m.index + m[0].length - verb.length, verb })
  }
  // each phrase ends where a verb that is one whatever it follows begins: "i knit, paint landscapes and bake bread"
  // paints no bread, and "i play the guitar and piano" still plays the piano
  phrases.forEach((phrase, index) => {
    const end = phrases.slice(index + 1).find((next) => isVerbAnywhere(next.verb))?.at
    out.push(`i ${text.slice(phrase.verbAt, end)}`)
  })
  return { head, headVerb, clauses: out }
}

/** A verb coordinated with the person's: after "and" (1), or after a comma (1 unset), the verb (2). */
const COORDINATED_VERB = new RegExp(
  pattern`(?:\s(and|&)\s+|\s?,\s+)(?:(?:also|now|still|currently|often|usually|then|really|just|recently|
  finally)\s+)*([a-z]+)\b`,
  'g',
)

/**
 * Verbs whose objects a list may continue: "i love cats and fish" and "i like to eat rice and fish" name two things,
 * not fishing.
 */
const OBJECT_LIST_VERB = new RegExp(pattern`^i (?:[a-z]+ )?(?:(?:love|like|enjoy|want|need|prefer)
  \sto (?:eat|drink|cook|bake|try|have|own)\b|
  (?:love|like|enjoy|adore|eat|hate|have|own|prefer|miss|want|need)\b(?! to\b))`)

/**
 * Whether the word after the join (from `at` to `end`) is one more item of a list of things after a verb of liking
 * or having: a thing the lexicon knows that can be a verb too ("fish", "golf"), taken as the thing.
 */
function anotherObject(text: string, at: number, end: number): boolean {
  const word = text.slice(at, end).split(' ').at(-1)!
  return (
    OBJECT_LIST_VERB.test(text.slice(0, at)) &&
    /^\s*(?:$|,|(?:and|or)\b)/.test(text.slice(end)) &&
    CATEGORY_OF.has(word)
  )
}

/** Words that say too little to be a thing of the person's own: "the one i went to", "the time i lived in". */
const GENERIC_RELATIVE =
  'one|ones|thing|things|stuff|way|time|times|day|days|reason|person|people|guy|girl|man|woman|kind|sort|type|part|' +
  'only|first|last|place|places|same|other|whole|most|best|worst|few|lot'

/**
 * "the bar i work at", "the marathon i am training for": a thing (2) after its determiner (1), then the person's verb
 * (3) and the preposition it takes (4), at the end of a clause or before its own verb.
 */
const OWN_RELATIVE = new RegExp(pattern`\b(the|a|an|this|that|my) (?!(?:${GENERIC_RELATIVE})\b)
  ((?:(?!that |which )[a-z'-]+ ){0,2}(?!that |which )[a-z'-]+) (?:that |which )?i
  \s((?:am |have been |was )?(?!am |was )[a-z]+(?: up| out| back)?) (at|for|in|on|with|to|from)
  (?=(?: (?:then|too|now|lol|haha))?(?:$|[,.!?])| (?:is|was|are|and|but|so|because|every|each|now|today)\b)`)

/** Words a thing's name does not run through: "the winter since i retired" names no winter retired. */
const THING_ENDS = '(?:that|which|since|because|when|after|before|until|while|as|so|and|but|if|once|though)'
/** Verbs in the past that take no object of their own: "the band i worked with" is no band worked. */
const NO_OBJECT_PAST = 'worked|lived|stayed|moved|traveled|travelled|walked|talked|arrived|returned|started|used'
/**
 * "the band i formed with my friends", "the house we bought in 2010": a thing (2) after its determiner (1) that the
 * person's verb in the past (3) acts on, and what follows the verb (4), up to the clause's end or its own verb.
 */
const OWN_RELATIVE_OBJECT = new RegExp(pattern`\b(the|a|an|this|that|my) (?!(?:${GENERIC_RELATIVE})\b)
  ((?:(?!${THING_ENDS} )[a-z'-]+ ){0,2}(?!${THING_ENDS} )[a-z'-]+) (?:that |which )?i
  \s((?!(?:${NO_OBJECT_PAST})\b)[a-z]+ed|made|built|bought|wrote|drew|took|found|sold|won|sewed|caught|brought)
  ((?: (?:with|for|in|at|to|on|from|last|when|as|during|back|years?|months?|weeks?)\b(?:(?! (?:is|was|are|were)\b)
  [^,.!?])*)?)(?=$|[,.!?]| (?:is|was|are|were)\b)`)

/**
 * The person's own clause in a relative one ("the company i work for is hiring": "i work for the company"; "i play
 * banjo in the band i formed with my friends": "i formed the band with my friends"), and the clause without it ("the
 * company is hiring"); undefined when there is none.
 */
export function ownRelative(text: string): { own: string; rest: string } | undefined {
  const stranded = OWN_RELATIVE.exec(text)
  const found = stranded ?? OWN_RELATIVE_OBJECT.exec(text)
  if (!found) return undefined
  const thing = `${found[1]} ${found[2]}`
  return {
    // the preposition left at the end goes before the thing; a verb that acts on the thing takes it as its object
    own: stranded ? `i ${found[3]} ${found[4]} ${thing}` : `i ${found[3]} ${thing}${found[4]}`,
    rest: `${text.slice(0, found.index)}${thing}${text.slice(found.index + found[0].length)}`,
  }
}

/** What an apposition after "i am x," says of the person ("i am 34, recently divorced, and trying to run"). */
const APPOSED = new RegExp(pattern`^(?:a|an|\d{1,3}(?=$| (?:years?|yrs?|yo|now|and|but|so|with)\b)|female|male|
  non-?binary|living|based|from|originally|currently|working|retired|married|single|divorced|widowed|engaged|
  separated|recently|newly|happily|trying|getting|learning|studying|training|raising|expecting|pregnant)\b`)

/** A subject between the person's "i" and "and": "who", "she", a relative clause ("a friend who is a chef"). */
const ANOTHER_SUBJECT = /\b(?:who|whose|which|where|he|she|they|you)\b/

/**
 * Whether the verb after the "and" at `andAt` shares the person's "i": no other subject comes between the last "i"
 * and the "and" ("i have a friend who is a chef and loves cooking": "loves" is the friend's), and the verb has no
 * third-person -s ("i think my sister lives there and loves it").
 */
function sharesMySubject(text: string, andAt: number, verb: string): boolean {
  if (THIRD_PERSON_VERB.test(verb)) return false
  const lastI = text.lastIndexOf(' i ', andAt - 2)
  const from = lastI >= 0 ? lastI + 2 : text.startsWith('i ') ? 1 : -1
  return from >= 0 && !ANOTHER_SUBJECT.test(text.slice(from, andAt))
}

/** "loves", "works", "has", "goes", "studies": a present-tense verb whose subject is not "i". */
const THIRD_PERSON_VERB = /^(?:has|does|goes|is|[a-z]+[^s\W]s)$/

const FRAGMENT_VERB = new RegExp(pattern`
  ^(?:love|loves|like|likes|enjoy|enjoys|adore|hate|hates|play|plays|live|lives|work|works|have|has|collect|collects|
  watch|listen|read|prefer|own|teach|teaches|run|runs|grew up|moved|born|replaying|playing|living|
  study|practice|volunteer|coach|deliver|used to|learning|teaching|trying to|do not|can not|never|been [a-z]+ing|
  been an?|been (?:(?:so|really|super|very|pretty|totally|quite|big|hugely|deeply|kinda|kind of) )?into|
  been (?:vegan|vegetarian|pescatarian|gluten[- ]free|dairy[- ]free|sober|married|single|divorced|retired)|
  training for|training to|getting (?:married|engaged|divorced)|planning (?:a|an|my|our|to)|
  (?:going|heading|flying|moving|relocating) (?:back )?to|
  (?:moving|relocating) from [a-z]+(?: [a-z]+){0,2}? to|spending (?:the|this) (?:winter|summer|year|semester)|
  (?:starting|beginning) (?:a |my )?new (?:job|role|position|career)|quitting|cutting (?:back|down) on|
  recovering from)
  \s+(?!(?:is|are|was|were|has|will|would|can|could|sucks|seems|feels|looks|keeps|gets|got)\b)`)
/** A past event said without "i": "just got back from a trip to japan", "finished my degree last month". */
const FRAGMENT_PAST = new RegExp(pattern`^(?:got(?! to\b)|came back|went|visited|finished|started|bought|graduated|
  retired|quit|adopted|ran|met|spent|took|broke|tore|sprained|injured|hurt|booked|signed up|joined|won|lost|passed|
  watched|saw|tried|made|cooked|baked|hiked|climbed|flew|drove|had|celebrated|hosted|threw|attended|gave|turned|
  brought home|paid off|signed|sold|opened|launched|published|completed|earned|landed|renovated|planted|wrote)
  \s+(?!is\b|was\b|it\b|that\b|this\b|you\b)`)
const FRAGMENT_STATE = new RegExp(pattern`
  ^(?:big into|huge into|really into|totally into|into|not a fan|not into|a (?:big |huge )?fan|huge fan|big fan|
  (?:huge|big|massive|die[- ]?hard|avid|lifelong|long[- ]time) [a-z0-9][a-z0-9'&-]*(?: [a-z0-9][a-z0-9'&-]*)?
  \s(?:fan|supporter)|
  currently|living in|based in|stuck in|staying in|originally from|from|married|single|divorced|retired|vegan|
  vegetarian|proud|obsessed|
  addicted|(?:(?:a|an) )?(?=\S+ (?:by day|by trade|by profession))|
  working (?:as|at|in|for|on (?=(?:a|an|the|our|my) (?:farm|ranch|boat|ship)\b))|in (?=[a-z]+$)|
  thinking (?:about|of)|(?:a )?(?:proud )?(?:mom|mum|dad|mother|father|parent) of|more of an?|
  (?:so |really |super |very )?(?:stressed|exhausted|anxious|nervous|worried|burned out|burnt out)|
  in recovery (?:from|for)|in remission|in therapy|
  (?:first|second|third|fourth|final|last|\d(?:st|nd|rd|th))[- ]year)\b`)
/** FRAGMENT_STATE's roles that take the article chat leaves out: "dad of two", "nurse by trade". */
const ROLE_WITHOUT_ARTICLE = new RegExp(pattern`^(?=(?:proud )?(?:mom|mum|dad|mother|father|parent) of|
  (?:first|second|third|fourth|final|last|\d(?:st|nd|rd|th))[- ]year|[a-z-]+ (?:by day|by trade|by profession))`)
/**
 * "nurse here", "retired teacher here", "freelance graphic designer": a job said as a label; 1 the job, which must end
 * in a known occupation.
 */
const ROLE_LABEL = new RegExp(pattern`^((?:[a-z'-]+ ){0,2}[a-z'-]+) here(?=,|$| lol\b| haha\b)|
  ^((?:freelance|self-employed|retired|stay at home|stay-at-home|[a-z]+-based) (?:[a-z'-]+ ){0,2}[a-z'-]+)
  (?=,|$| of | to )|
  ^((?:[a-z'-]+ ){0,2}[a-z'-]+)(?= (?:at|in|for) [a-z])`)
/** A noun phrase of someone or something named before: "the custodian at the hospital". */
const DETERMINER_FIRST = /^(?:the|a|an|this|that|these|those|my|your|his|her|its|our|their|some|any|every|no)\b/

/** Whether a label names a job: its last word is one, or a short form of one ("vet tech", "swe"), or a parent's. */
function isJobTitle(label: string): boolean {
  const last = label.split(' ').at(-1)!
  if (/^stay[- ]at[- ]home /.test(label)) return true
  return OCCUPATIONS.has(singular(last)) || /^(?:student|rn|np|lpn|cna|swe|tech|dev)$/.test(last)
}

/** Roles after an age that opens a message ("35, stay at home dad"), besides a job ("29, a nurse"). */
const ROLE_AFTER_AGE = new RegExp(pattern`^(?:stay[- ]at[- ]home|single (?:mom|mum|dad|mother|father)|
  proud (?:mom|mum|dad)|(?:mom|mum|dad|mother|father) of|retired [a-z]+|[a-z]+ student\b)`)

/** "currently doing my masters": a degree under way, the one fragment with "my" of the person's own. */
const DEGREE_FRAGMENT = new RegExp(pattern`^(?:currently |still |just )?(?:doing|finishing|pursuing|working on|
  struggling with|halfway through|almost done with) my (?:
  masters?|master's|phd|doctorate|mba|bachelors?|bachelor's|degree|undergrad)\b`)

/** A time said with "this" or "that", which is no subject: "this year", "that weekend". */
const TIME_WITH_THIS = new RegExp(
  pattern`\b(?:this|that|these|those) (?:year|week|month|morning|afternoon|evening|
  night|weekend|summer|winter|spring|fall|autumn|semester|term|season|time|day)s?\b`,
  'g',
)
/** "two kids", "3 cats" said alone. */
/** "two kids", "two boys, 5 and 8": a household counted, with the children's ages if said. */
const COUNTED_HOUSEHOLD = new RegExp(
  `^${HOUSEHOLD_COUNT}(?:,? (?:ages? |aged )?\\d{1,2}(?:,? (?:and )?\\d{1,2}){0,5})?$`,
)
/** Words that make a fragment someone's statement, not a subjectless one of the person's. */
const PERSON_WORDS = /\b(?:i|we|you|he|she|they|it|my|your|his|her|our|their|this|that|there|these|those)\b/
/**
 * As PERSON_WORDS less the possessives, which after a verb name what the verb was done to; "it" only where words of
 * its own follow ("learning it is a challenge"), not as the object that ends a phrase ("just turned 40 and feeling
 * it", "loved it so much").
 */
const SUBJECT_WORDS = new RegExp(pattern`\b(?:i|we|you|he|she|they|this|that|there|these|those)\b|
  \bit\b(?!\s*(?:[,.!?;]|$)| (?:and|but|so|too|again|now|lol|haha|already|yet|a lot|more)\b)`)

/** "as a nurse", "as a mom of two": the role (1), a clause of its own (split at its comma). */
const AS_A = /^as (an? [a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3})$/
/**
 * Roles said with "as a" that are no identity now (a time of life, a figure of speech, a group), or that the gender
 * rule reads as said ("as a mother of three", core.ts).
 */
const NOT_A_ROLE = new RegExp(pattern`\b(?:kid|child|boy|girl|teen|teenager|baby|youngster|student|result|matter|
  woman|man|mother|father|mom|mum|dad|wife|husband|lady|guy|
  whole|rule|bonus|treat|gift|joke|friend|side|reminder|favor|favour|family|group|team|society|species|country|
  nation|people|couple|way|thank|surprise|gesture|token|sign|symbol)\b`)

/**
 * "as a nurse, i work nights": the role, said of the subject of the clause after it, as the person's own clause ("i
 * am a nurse"). Undefined when that subject is not the person ("as a life coach, what do you tell clients?").
 */
export function roleBefore(text: string, next: string | undefined): string | undefined {
  const role = AS_A.exec(text)
  if (!role || NOT_A_ROLE.test(role[1]!) || !next) return undefined
  const subject = /\b(?:i|my|me|you|your)\b/.exec(next)?.[0]
  return subject && !subject.startsWith('you') ? `i am ${role[1]}` : undefined
}

/**
 * A subjectless fragment of a bio or a chat ("big into bouldering", "love hiking", "vegan for 5 years", "am a nurse")
 * read as the person's own statement; undefined if it does not look like one.
 */
/** "one sister for me", "two dogs for me": what the person has (1), said as an answer. */
const FOR_ME = new RegExp(pattern`^((?:a|an|one|two|three|four|five|six|\d) (?:sisters?|brothers?|siblings?|kids?|
  children|child|sons?|daughters?|boys?|girls?|dogs?|cats?|grandkids?|grandchildren)) for me$`)

/**
 * A first word that is the clause's subject: a verb of its own comes after it, alone, after "and X", or after a name
 * ("coach enfield is a bum").
 */
const NOUN_SUBJECT = new RegExp(pattern`^[a-z]+ (?:(?:and|or) [a-z]+ |(?!it |that |this |what |how |me )[a-z]+ )?
  (?:is|are|was|were|should|could|would|can|will|must|makes)\b`)

/** A gerund phrase of up to four words before a verb it is the subject of: "working for myself would give". */
const GERUND_SUBJECT = /^[a-z]+ing(?: [a-z']+){0,3} (?:would|could|will|might|should|can|is|was|makes|made|helps)\b/

export function fragmentClause(text: string): string | undefined {
  if (DEGREE_FRAGMENT.test(text)) return `i am ${text}`
  // "one sister for me", "two kids for me": what the person has, said as an answer
  const forMe = FOR_ME.exec(text)
  if (forMe) return `i have ${forMe[1]}`
  // "favorite band is radiohead": the person's own favourite, said without "my"
  if (/^(?:all[- ]time )?favorite (?:[a-z]+ ){1,3}(?:is|are|has to be|would be)\b/.test(text)) return `my ${text}`
  // "35, stay at home dad to two boys": an age, then who the person is
  const aged = /^(\d{1,2}|(?:early|mid|late)[- ]?[2-9]0'?s), (an? )?/.exec(text)
  const afterAge = aged ? text.slice(aged[0].length) : ''
  const roleAfterAge = /^((?:[a-z'-]+ ){0,3}?[a-z'-]+)(?=,| (?:in|at|for|from|of|to)\b|$)/.exec(afterAge)?.[1]
  if (aged && (ROLE_AFTER_AGE.test(afterAge) || (roleAfterAge && isJobTitle(roleAfterAge))))
    return `i am ${aged[1]}, ${aged[2] ?? 'a '}${afterAge}`
  // a subject in a clause of its own does not count: "working as a barista while i finish my phd"
  // nor does a time said with "this" ("teaching 3rd grade this year")
  const main = text
    .replace(/\s(?:while|when|because|since|until|after|before|once|so that)\s.*$/, '')
    .replace(TIME_WITH_THIS, '')
  // "just moved to berlin": a fragment may open with an adverb of when
  const verb = text.replace(/^(?:just|recently|finally|also|still|currently)\s+/, '')
  // "divorced, two kids": a household counted, said alone
  if (COUNTED_HOUSEHOLD.test(text)) return `i have ${text}`
  // "texas born and raised": where the person was born
  const born = /^([a-z][a-z' ]{1,30}?) born and raised(?=,|$)/.exec(text)
  if (born) return `i was born and raised in ${born[1]}${text.slice(born[0].length)}`
  if (/^born and raised (?:in|on)\b/.test(text)) return `i was ${text}`
  // "a nurse at a clinic in leeds, ...": a role with its article, when its words have no verb ("a nurse at the clinic
  // said" is someone else) and name no family ("a nurse in the family")
  const head = text.split(',')[0]!
  const said =
    /^an? /.test(text) && !/ family\b/.test(head) && !nlpHas(head, '#Verb') ? text.replace(/^an? /, '') : text
  const label = ROLE_LABEL.exec(said)
  const job = label?.[1] ?? label?.[2] ?? (label?.[3] && !PERSON_WORDS.test(said.split(',')[0]!) ? label[3] : undefined)
  // "seattle-based dev here": the job, and where it is done
  const based = job ? /^([a-z]+)-based (.+)$/.exec(job) : null
  const role = based ? based[2]!.replace(/\bdev$/, 'developer') : job
  // "total swiftie here", "avid reader here": a pastime said as a label
  if (label?.[1] && !DETERMINER_FIRST.test(label[1]) && HOBBY_AGENTS[singular(label[1].split(' ').at(-1)!)])
    return `i am a ${label[1]}${said.slice(label[0].length).replace(/^ (?:lol|haha)\b/, '')}`
  if (role && !DETERMINER_FIRST.test(role) && isJobTitle(role)) {
    const where = based ? ` based in ${based[1]}` : ''
    // "nurse at a clinic in leeds here": "here" closes the label, it is no part of the place
    const rest = said.slice(label![0].length).replace(/ here(?=,|$)/, '')
    return `i am ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}${where}${rest}`
  }
  // after the word that opens the fragment, "my" is what the person did it to ("tore my acl", "stressed about my
  // thesis")
  // "working for myself would give more flexibility": a gerund that is the subject of what follows
  if (GERUND_SUBJECT.test(verb)) return undefined
  const state = FRAGMENT_STATE.test(text) || FRAGMENT_STATE.test(verb)
  const opened = FRAGMENT_VERB.test(verb) || FRAGMENT_PAST.test(verb) || state
  if ((opened ? SUBJECT_WORDS : PERSON_WORDS).test(main)) return undefined
  // "diagnosed with adhd last year": the passive, said without "i was"
  if (/^diagnosed with\b/.test(verb)) return `i was ${verb}`
  if (FRAGMENT_VERB.test(verb)) {
    // "love and acceptance should be everywhere", "love is all you need": the word is the subject, not a verb
    if (NOUN_SUBJECT.test(verb)) return undefined
    if (/^been\b/.test(verb)) return `i have ${verb}`
    // "learning spanish", "playing stardew valley": under way now; not the subject of "learning it is a challenge"
    if (!/^[a-z]+ing\b/.test(verb)) return `i ${text}`
    return /\b(?:is|are|was|were|seems|sounds|makes|can|will)\b/.test(verb) ? undefined : `i am ${verb}`
  }
  if (FRAGMENT_PAST.test(verb)) return `i ${text}`
  // "dad of two": the article chat leaves out
  // "recently divorced": a state after an adverb of when, as a verb may be
  if (state) return `i am ${text.replace(ROLE_WITHOUT_ARTICLE, 'a ')}`
  // "am a custodian to pay the bills": "am" has no subject but the person
  if (/^am (?:a|an|in|from|married|single|retired|still|currently|now|also)\b/.test(text)) return `i ${text}`
  return undefined
}

/** A relative: "my sister", "my best friend"; the second word is never an adverb ("my girlfriend just"). */
const RELATIVE = `(?:my|our) [a-z]+(?: (?!${ADVERB_WORD}\\b)[a-z]+)?`
/** "my husband and i love", "sam and i moved", "both my friend and i love": who else (1) and the verb (2). */
const PARTNER_AND_I = new RegExp(`^(?:both )?(${RELATIVE}|${THE_HOUSEHOLD}|[a-z]+) and i ${ADV}(${SHARED_VERBS})\\b`)
/** "me and my friend love hiking", "me and sam moved", "me and the family took": who else (1) and the verb (2). */
const ME_AND_PARTNER = new RegExp(`^me and (${RELATIVE}|${THE_HOUSEHOLD}|[a-z]+) ${ADV}(${SHARED_VERBS})\\b`)

/**
 * Who did it with the person when the subject names both ("my kids and i went to the museum"), in the third person
 * ("their kids", "sam"); undefined for "i" alone or "we", who name no one.
 */
export function partnerOf(text: string): string | undefined {
  const partner = (PARTNER_AND_I.exec(text) ?? ME_AND_PARTNER.exec(text))?.[1]
  if (!partner || /^(?:you|he|she|they|we|it)$/.test(partner)) return undefined
  return partner.replace(/^(?:my|our) /, 'their ').replace(/^the (?=(?:family|fam|wife|husband|hubby)$)/, 'their ')
}

/** "our family is going to italy": the household on the move, the person with it (not "my family is from italy"). */
const FAMILY_ON_THE_MOVE = new RegExp(
  `^(?:our|my) family is (?=${ADV}(?:going|moving|heading|flying|driving|visiting|travell?ing|taking a trip)\\b)`,
)

/** "i am both teachers", "i am nurses" (from "we are both nurses"): a job two people share, in the plural. */
const SHARED_JOB = /^i (am|was) (?:both |all )?((?:[a-z-]+ ){0,2}?)([a-z-]+s)\b/

/** "i am both software engineers" -> "i am a software engineer": one of the two, when the noun is a job or a fan. */
function oneOfTheTwo(said: string, be: string, before: string, plural: string): string {
  const job = singular(plural)
  if (job === plural || (!OCCUPATIONS.has(job) && job !== 'fan')) return said
  return `i ${be} ${/^[aeiou]/.test(before || job) ? 'an' : 'a'} ${before}${job}`
}

/** "my husband and i love to travel" -> "i love to travel": the person is part of the subject. */
export function ownPartOfSubject(text: string): string {
  const asI = (_m: string, _who: string, v: string) => `i ${v === 'are' ? 'am' : v === 'were' ? 'was' : v}`
  return text
    .replace(PARTNER_AND_I, asI)
    .replace(ME_AND_PARTNER, asI)
    .replace(FAMILY_ON_THE_MOVE, 'we are ')
    .replace(/^i are\b/, 'i am')
    .replace(/^i were\b/, 'i was')
    .replace(SHARED_JOB, oneOfTheTwo)
}

/** Degree and time adverbs after "i am" (global: String#replace starts every search from the beginning). */
const COPULA_ADVERBS = new RegExp(
  pattern`
    \bi am ((?:(?:currently|really|still|now|just|also|actually|totally|definitely|truly|honestly|seriously|literally|
    basically|kind of|sort of|pretty|quite|so|very|super|extremely|incredibly|a bit of(?= an?\s)|a bit(?! of\b)|
    a little(?! (?:girl|boy|kid|child|baby|one|guy|lady|man|woman|sister|brother)s?\b)|a little bit|somewhat|
    fairly|rather|now|finally|already|officially|happily|more of)\s+)+)
    (?!(?:a|an)\s+(?:bit|lot)\b)`,
  'g',
)

/** "i am currently learning" -> "i am learning": degree and time adverbs after "i am" that rules need not see. */
export function dropCopulaAdverbs(text: string): string {
  return text.replace(COPULA_ADVERBS, 'i am ')
}

const NOT_VERB_AFTER_AND = new Set(
  (
    'i a an the my your his her our their we he she they you it this that these those some many all no not to of in ' +
    'on at for with so then me him them us'
  ).split(' '),
)

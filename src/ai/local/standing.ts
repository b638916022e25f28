// Standing facts: how the person's life is set up, said in the present. What they have ("i have two jobs", "i have a
// son in junior high"), what they do as a habit ("i stay at home", "i drive a big truck") and how the people and pets
// around them are ("my son is in junior high", "my wife works"). A reader of a chat takes these first, and no field
// holds them: they become undated low-importance memories, in words that read on their own ("has two jobs", "their
// son is in junior high"). A fact about a relative or a pet names them, so it is never read as the person's own.
// Likes, jobs, places and events have rules of their own (interests.ts, occupation.ts, location in rules.ts,
// memories.ts); the verbs those rules read are not read here (docs/architecture/local-extractor.md).
import { tokens } from '../../domain/normalise.js'
import type { ClauseInfo, RuleContext } from './rules-common.js'
import { ADV } from './rules-common.js'
import { cutOff, LIFE_STEP, RUN_ON_I, STAND_IN_WORDS } from './memories.js'
import { nlpHas } from './nlp.js'
import { peopleOfLanguage } from './languages.js'
import { PET_WORDS } from './lexicon-interests.js'
import { PEOPLE_NOUNS } from './others.js'
import type { RuleId } from './rules.js'
import { pattern } from './regex.js'
import { titleCase } from './text.js'
import { OWN_TO_THIRD, ownWordsInThirdPerson } from './third-person.js'

/** Below every field rule: a standing fact is read from the shape of a clause, not from a vocabulary. */
const CONFIDENCE = 0.55
/** Words of a standing fact at most: a longer one is cut at a word boundary. */
const MAX_WORDS = 14

/** Where the fact ends: a clause of its own, a reason, a comparison, a tag question, an aside of many words. */
const FACT_END = new RegExp(pattern`
  \s*(?:[,;.!?:]|\((?![^()]{1,25}\))|(?<!\b(?:more|less|fewer))\sthan\b|\s(?:but|or|so|because|since|when|
  whenever|where|while|which|that|until|though|although|if|then|before|after|who (?:are|is|do|does|did)|lol|haha|
  lmao|btw|(?<!own )right|too|as well|now|anymore|sadly|unfortunately|honestly|tbh|lately|these days|at the moment)\b|
  \s(?:and )?(?:there|it|that|this|then|i|we|you|he|she|they) (?:am|is|are|was|were|need|want|have|has|had|will|
  can|think|feel)\b|\sand (?:there|it|that|this|then|i|we|you|he|she|they)\b|
  \sand (?:the|a|an|my|his|her|their) (?!rest |others? )[a-z]+ (?:whose|who|which|is|are|was|were|will)\b|
  \sand [a-z]+s (?:are|were)\b).*$`)

/**
 * Words a fact cannot stand on: those a memory cannot (memories.ts), the other speaker, counts, and when ("has two of
 * them", "goes every year").
 */
const STAND_IN = new RegExp(
  pattern`\b(?:${STAND_IN_WORDS}|you|two|three|four|five|same|\d+|every|each|day|days|week|weeks|month|months|
  year|years|time|times|night|nights|morning|weekend|weekends|today|tonight|lot|lots|much|more|all|anything|
  everything|something|nothing|once|twice|least|most|often|always|never|ever|
  again|basically|really|kinds?|types?|sorts?|different|various)\b`,
  'g',
)

/**
 * A phrase whose head noun was said elsewhere: "has one in middle school", "has a couple", "has two currently", "has
 * them a couple times a week".
 */
const HEADLESS = new RegExp(pattern`^(?:one|ones|them|it|those|these|that|this|(?:a )?(?:couple|few)|some|any|
  two|three|four|five|six|\d+)(?: (?:in|at|of|currently|now|named|called|and|who|with|too|also|already|left|a|
  more|all)\b|$)`)

/** A last word that stands for something said elsewhere. */
const POINTS_BACK = /\b(?:it|them|him|her|you|me|(?<!the )us|there|here|this|that|these|those|one)$/

/** Past participles: "i have seen", "i have been": a perfect tense, which memories.ts reads, not a possession. */
const PARTICIPLE = new RegExp(pattern`^(?:[a-z]+ed|been|done|seen|heard|made|read|gone|taken|given|known|won|lost|met|
  told|thought|found|left|eaten|written|become|begun|brought|bought|caught|taught|felt|kept|slept|spent|sent|built|run|
  come|gotten|had|held|put|said|sat|stood|understood|forgotten|driven|ridden|flown|grown|thrown|worn|sung|swum|drunk|
  broken|chosen|spoken|fallen|hidden|stolen|got to|got no)\b`)

/** What "i have" is followed by when it says no possession: an obligation, an idea, a passing ailment, a pleasantry. */
export const NOT_HAD =
  new RegExp(pattern`^(?:to|got to|no idea|any idea|an idea|a feeling|the feeling|a chance|the chance|
  a look|(?:a |a few |some |more |additional |other )?questions?|a cold|a headache|a fever|the flu|a hangover|
  a migraine|a sore throat|a (?:good|great) (?:one|day|night|time|weekend)|a nice|a lovely|a wonderful|a fantastic|
  fun|time|a blast|the time|a lot of fun|plenty of time|mixed feelings|my doubts|doubts|trouble|a hard time|
  a tough time|no clue|a clue|heard|never|ever|always|not|nothing|anything|something|everything|enough|faith|
  hope)\b`)

/** "i have two jobs", "i have got a pet cow", "i own a food truck": 1 is what the person has. */
const HAS = new RegExp(`^i ${ADV}(?:have got|have|own) (.+)$`)

/** "i do not have any kids", "i have no car", "i do not own a tv": what follows (1), without its article (2). */
const HAS_NONE = new RegExp(`^i ${ADV}(?:do not ${ADV}have|have no|do not ${ADV}own) ((?:a |an |any )?(.+))$`)

/**
 * Verbs of a habit or of how a life is run, in the first person present. Likes are interests; so are watching,
 * listening, reading and playing, kept here only when no interest rule placed them ("listens to a bit of everything")
 * and when not done ("does not play video games"). "work as" and "live in" are the job and the place.
 */
const HABITS = pattern`get out|go out|do drugs|listen to|stay|work|drive|ride|help|volunteer|raise|teach|coach|go|
  spend|walk|cook|bake|eat|drink|grow|collect|visit|attend|train|take care of|care for|look after|live with|rent|use|
  babysit|homeschool|commute|shop|run|practice|practise|study|sell|sing|paint|dance|swim|hike|fish|hunt|knit|sew|
  garden|camp|travel|exercise|jog|bike|foster|mentor|wear|keep|feed|build|fix|repair|manage|lead|serve|save|share|
  make|live|compete|deliver|donate|clean|mow|tutor|pray|browse|organize|organise|host|stream|write|coordinate|perform|
  compose|record|play|watch|read|smoke|gamble`

/**
 * The person as a subject: "i", or "we", who include them ("we go to yosemite every summer"); not "we all", which is
 * often everyone ("we all need more sleep").
 */
const WE_OR_I = '(?:i|we(?! all\\b))'

/**
 * What "we" do that is not the person's alone: done to each other ("we live together", "we share an interest"), or
 * with a pronoun that points outside the clause ("we play with his toys").
 */
const JOINT = /\b(?:together|apart|each other|one another|it|him|her|his|hers|them|they|he|she)\b/

/**
 * Whether what "we" do (`said`, read as `phrase`) says something of the person: nothing JOINT, a thing named ("we
 * sell tacos", not "we sell first"), and a trip or an activity ("we go to yosemite", "we go camping"; not "go home").
 */
function weSaysSomething(verb: string, said: string, phrase: string): boolean {
  if (verb === 'share' || JOINT.test(said) || !nlpHas(phrase, '#Noun')) return false
  return verb !== 'go' || /^(?:to|for a|for an|[a-z]+ing)\b/.test(phrase)
}

/** "i stay at home", "i usually drive my truck", "i try to walk every day": 1 "try to", 2 the verb, 3 what follows. */
const HABIT = new RegExp(`^${WE_OR_I} ${ADV}(try to )?(${HABITS}) (.+)$`)

/** What "live" qualifies when it is no verb: "do live action roleplaying", "we do live music on fridays". */
const LIVE_THING = /^(?:action|music|streams?|streaming|chats?|tv|theat(?:er|re)|shows?|concerts?|events?|gigs?)\b/

/** What reads badly after "has no": "has no car", never "has no lot of free time", "has no their car". */
const NOT_NONE = new RegExp(pattern`^(?:idea|clue|time|choice|problem|doubt|plans?|words|bunch|lots?|many|much|
  enough|them|it|that|this|those|these|the|their|my|too|so|as|such|favou?rites?|preference|opinion)\b`)

/**
 * "i have never been to colorado", "i have not seen an owl": what the person has never done (1 how it is said, 2 the
 * participle, 3 what follows). A reader keeps it: an assistant suggesting a trip or a dish reads it first.
 */
const NEVER_DONE = new RegExp(
  `^(?:no |nope |well |oh |haha |lol )?i ${ADV}(have never|have not|had never|never) ` +
    pattern`(been to|been outside(?: of)?|visited|seen|tried|eaten|had|owned|met|played|read|watched|ridden|flown|
    driven|broken|worked in|worked at|worked as|gone to|traveled to|
    travelled to|lived in|left|heard of|heard|used|made|cooked|taken|learned|won|lost) (.+)$`,
)
/** What "never been" says that no other rule reads: a trip, a thing tried, a person met. */
const NOT_DONE = /^(?:that|this|it|them|him|her|one|any|anything|such|so|there|here|better|you|your)\b/

/**
 * "i do not drive", "i never cook", "i can not swim", "i would never eat a snail": a habit the person does not have or
 * an ability they lack (1 how it is said, 2 the verb, 3 what follows, if anything).
 */
const NO_HABIT = new RegExp(`^i ${ADV}(do not|never|can not|would never) (${HABITS}|have(?= (?!to\\b)))(?: (.+))?$`)
/** How each way of saying no reads in the third person. */
const NO_HABIT_WORDS: Record<string, string> = {
  'do not': 'does not',
  never: 'does not',
  'can not': 'cannot',
  'would never': 'would never',
}
/** Verbs whose "not" says something alone: "does not drive", "does not cook". */
const ALONE = new Set([
  ...`drive cook drink swim travel exercise dance work eat sing smoke ride bike hike fish compete read
  gamble`.split(/\s+/),
  'get out',
  'go out',
  'do drugs',
])

/** "i am not a morning person", "i am not religious": what the person is not (1). */
const IS_NOT = /^i am not (?:(?:really|very|much of|at all) )*((?:a |an )?[a-z]+(?: person| fan| type)?)(?: yet)?$/

/**
 * "i am working on a robot", "we are saving up for a car": something the person is in the middle of (1 the tense,
 * 2 the verb, 3 what), not a moment ("i am going to the store").
 */
const ONGOING = new RegExp(pattern`^${WE_OR_I} (am|are|have been) ${ADV}(working on|making|building|writing|learning|
  studying|saving up for|saving for|training for|renovating|restoring|raising|recovering from|going through|
  dealing with|applying to|applying for|taking classes in|taking lessons in|volunteering at|volunteering for|mentoring|
  tutoring|coaching|fostering|caring for|looking into|researching|preparing for|practicing|practising|organizing|
  organising|searching for|experimenting with|traveling through|travelling through|traveling around|travelling around|
  backpacking through|backpacking around|planning|working) (.+)$`)
/** What is under way beyond the interest another rule read: "training for my first marathon", not only running. */
const ONGOING_FOR = new RegExp(pattern`^(?:training for|preparing for|saving up for|saving for|recovering from|planning|
  volunteering at|volunteering for|fostering|caring for|applying to|applying for|mentoring|tutoring|coaching)$`)
/** A trip planned is memories.ts's to read, to a place it knows ("a trip to the store" is none). */
const TRIP_PLANNED = /^(?:planning|organizing|organising) (?:a|an|our|my|the) (?:[a-z]+ )?trips?\b/
/** "i need help planning my wedding": what the person is doing, asked help with (1 the doing, 2 what). */
const HELP_WITH = new RegExp(pattern`^i ${ADV}(?:need|could use|would like|want) (?:some )?help (?:with )?(planning|
  organizing|organising|preparing for|training for|moving|renovating) (.+)$`)

/** Where the verb leads elsewhere: a job ("work as"), a statement about the other speaker ("help you"). */
const NOT_HABIT = /^(?:as|you|your|it|them|that|this|there|here|him|her|us|me)\b/

/** "i like to go to the playground with friends": a liking no interest rule could place (1 the verb, 2 what). */
const LIKES = new RegExp(`^i ${ADV}(like|love|enjoy|adore) (.+)$`)

/**
 * "i hate when people chew loudly", "i can't stand it when drivers don't signal": what others do that the person
 * hates (2) or loves, 1 the verb. Only people as the subject: "i love it when you explain" is about the talk.
 */
const WHEN_OTHERS = new RegExp(pattern`^i ${ADV}(hate|can not stand|love) (?:it )?when ((?:people|someone|anyone|
  strangers|drivers|kids|coworkers|my [a-z]+|other people|others) [a-z].*)$`)
/** How each verb of WHEN_OTHERS reads in the third person. */
const WHEN_OTHERS_VERB: Record<string, string> = { hate: 'hates', 'can not stand': 'cannot stand', love: 'loves' }

/** What a liking says of the other speaker or of the talk: "i love how you ...", "i like that", "i love your idea". */
const NOT_LIKED = new RegExp(pattern`^(?:how|what|when|where|that|this|it|her|him|them|the way|your|you|hearing|
  talking|reading about|to hear|to see you)\b`)

/** "i am in remission", "i am an old man", "i am in school": 1 what the person is. */
const IS = /^i am (?:(?:really|also|still|actually|currently|now|originally|just) )*(.+)$/
/** "i am a proud mom of 3": the parent's word (1) and the children (2). */
const PARENT_OF = new RegExp(pattern`^i am (?:(?:really|also|still|now|just) )*(?:a |an )?(?:\d{1,3} year old )?
  (?:(?:proud|busy|single|
  working|tired|exhausted|new|first[- ]time|stay[- ]at[- ]home) )*(mom|mum|dad|mother|father|parent) of (.+)$`)

/** States said in one word that compromise reads as a verb: "i am married" describes the person all the same. */
const STATES = new Set('married divorced engaged widowed separated remarried adopted'.split(' '))

/**
 * What "i am" is followed by when it says nothing that stands: a reaction to the other speaker, a passing state, an
 * activity of the moment, a plan. Jobs, traits, moods and ages have rules of their own and are not read here.
 */
const NOT_IS = new RegExp(pattern`^(?:not|going|gonna|about to|trying|sure|sorry|glad|happy to|sad to|kidding|
  joking|thinking|wondering|curious|looking|doing|here|there|back|ok|okay|good|fine|well|great|alright|all right|
  right|the same|with you|so|too|impressed|surprised|jealous|lucky|ready|able|allowed|supposed|used to|on my way|
  down|up|in for|agree|[a-z]+ing|done|finished|a fan|a big fan|into|interested|familiar|aware|confused|jk|lol|haha|
  hoping|afraid|scared of you|the one|one of|like|just like|more|less|also|home now|off|out|at work now|on it|
  in the same|in love with it|all|a little|bit|free|hooked|from|primarily|mainly|mostly|too|cool|awesome|nice|
  thanks|shocked|amazed|speechless|honou?red|flattered|a in|an in|for sure|as well|either|definitely|will|would|can|
  could|should|must|might)\b`)

const PEOPLE = Object.keys(PEOPLE_NOUNS)
  .filter((noun) => !['guy', 'man', 'girl', 'woman', 'lady', 'person', 'teacher', 'doctor'].includes(noun))
  .sort((a, b) => b.length - a.length)
  .join('|')

/** Where "my" opens a fact: the clause's start, or after an interjection ("i am ok my husband is a doctor"). */
const AROUND =
  '(?:^|\\b(?:ok|okay|yes|yeah|yep|well|so|and|but|oh|lol|haha|actually|cool|nice|wow|awesome|great|true|hi|hey|' +
  "(?:that is|that's|it is|it's) (?:funny|cool|nice|great|awesome|true|sweet|sad|crazy|interesting)) )my "
/** The pets a family fact may be about ("my fish is called bubbles"), longest first. */
const PETS = [...PET_WORDS]
  .filter((word) => word !== 'pet')
  .sort((a, b) => b.length - a.length)
  .join('|')
/** Who a family fact is about: a relative, a friend or a pet, with the words that tell which one. */
const WHO =
  `(?:(?:older|younger|big|little|oldest|youngest|eldest|two|three|best|pet|new|old|only) )*` +
  `(?:${PEOPLE}|${PETS}|pet [a-z]+|pet|parents|kids|children|family|twins)`
/**
 * "my son is in junior high", "my wife works at a bank", "my dogs love the beach": 1 who (a relative, a friend or a
 * pet), 2 what is said of them. A copula, or a verb in the third person or the past. Where AROUND says.
 */
/** The verbs a family fact reads after who it is about, and the adverbs that may come first. */
const FACT_VERBS =
  `(?:(?:just|recently|finally|also|still|already) )?` +
  `((?:is|are|was|were|has|have|had|owned|works|lives|loves|likes|goes|plays|runs|owns|stays|studies|` +
  `teaches|worked|lived|raised|taught|helps|helped|gets|got|does|did|makes|made|travels|travel|live|` +
  `work|love|like|play|go|started|adores|adore|enjoys|enjoy|hates|prefers|collects|graduated|` +
  `turned|moved|joined|finished|began|start|starts)`
const FAMILY = new RegExp(`${AROUND}(${WHO}s?) ${FACT_VERBS}(?: .+)?)$`)
/** What is said of someone right after their name: a verb a family fact reads. */
const FACT_VERB_FIRST = new RegExp(`^${FACT_VERBS} )`)
/** "she is from italy", "he works nights": 1 the pronoun, 2 what is said (a verb a family fact reads, and more). */
const SAID_OF_IT = new RegExp(`^(she|he) ${FACT_VERBS} .+)$`)

/** "my dog's name is tyson", "my sons name is jack": 1 who, 2 their name (one word). */
const NAMED = new RegExp(`${AROUND}(${WHO})(?:(?:'s|s)? name is| is (?:called|named)) ([a-z][a-z'-]*)$`)
/** "spook is the name of my cat": 1 the name (one word), 2 who. */
const NAME_OF_MY = new RegExp(`^([a-z][a-z'-]*) is the name of my (${WHO})$`)

/** "her name is mochi", said right after a pet or a relative: the name (2), and whose the pronoun says (1). */
const NAME_OF_IT = /^(?:(her|his|its|their) name is|(she|he|it) is (?:called|named)) ([a-z][a-z'-]*)$/
/** The pets and relatives a clause names ("we got a puppy", "my son is six"): the last one is who "her" means. */
const NAMED_IN = new RegExp(`\\b(?:my|our|a|an|the|new) (?:[a-z]+ )?(${WHO})\\b`, 'g')
/** Who "her" or "his" cannot mean: the relatives of the other gender. */
const NOT_HERS = /^(?:son|husband|brother|father|dad|grandfather|grandpa|uncle|nephew|boyfriend|stepson|stepdad)$/
const NOT_HIS = /^(?:daughter|wife|sister|mother|mom|mum|grandmother|grandma|aunt|niece|girlfriend|stepdaughter)$/

/**
 * The pet or relative the clause before named last, when `pronoun` can mean them ("her" is no son's); "my pet will
 * not travel" names a pet, "will" being no kind of one.
 */
function namedBefore(before: string, pronoun: string): string | undefined {
  const named = [...before.matchAll(NAMED_IN)].at(-1)?.[1]
  if (!named) return undefined
  const kind = /^pet ([a-z]+)$/.exec(named)?.[1]
  const who = kind && !nlpHas(kind, '#Noun') ? 'pet' : named
  const head = who.split(' ').at(-1)!
  if (/^(?:her|she)$/.test(pronoun) ? NOT_HERS.test(head) : /^(?:his|he)$/.test(pronoun) && NOT_HIS.test(head))
    return undefined
  return who
}

/**
 * A name given to the pet or relative the clause before named: "we got a puppy last week! her name is mochi" reads
 * "my puppy's name is mochi". Undefined when the clause gives no name, or the one before names no one it can be.
 */
export function nameOfNamedBefore(before: string, text: string): string | undefined {
  const name = NAME_OF_IT.exec(text)
  const who = name && namedBefore(before, name[1] ?? name[2]!)
  return who ? `my ${who}'s name is ${name[3]}` : undefined
}

/**
 * What is said of the pet or relative the clause before named: "i have a wife, she is from italy" reads "my wife is
 * from italy", a fact of hers and not the person's. Undefined when the pronoun cannot mean the one named last.
 */
export function factOfNamedBefore(before: string, text: string): string | undefined {
  const said = SAID_OF_IT.exec(text)
  const who = said && namedBefore(before, said[1]!)
  return who ? `my ${who} ${said[2]}` : undefined
}

/** "my cat luna keeps waking me up", "our son jake is six": 1 who, 2 the name said right after (capitalised). */
const NAMED_AFTER = new RegExp(
  `\\b(?:my|our|i (?:have|own|got|adopted) (?:a|an|one)) (?:[a-z]+ )??(${WHO}),? ([a-z][a-z'-]*)(?:[ ,]|$)`,
)
/** "we just brought home a beagle puppy named waffles": the pet (1) and its name (2), of the person's household. */
const GOT_NAMED = new RegExp(
  `^(?:i|we) ${ADV}(?:have|own|got|adopted|rescued|brought home) (?:a|an|our|my) (?:[a-z]+ )??(${WHO}) ` +
    "(?:named|called) ([a-z][a-z'-]*)",
)
/**
 * "i play with my german shepherd named barnaby": who (1) and the name (2) "named" gives, anywhere in the clause and
 * in any case, since "named" leaves no other reading. Not "named after" or "named for" someone.
 */
const MY_NAMED = new RegExp(
  `\\b(?:my|our) (?:[a-z]+ )??(${WHO}) named (?!(?:after|for|by|in|as|a|an|the|one|it|him|her|them)\\b)` +
    "([a-z][a-z'-]*)",
)
/** "i have two cats, salt and pepper": who (1, plural) and the two names (2, 3), after a comma. */
const NAMED_PAIR = new RegExp(
  `\\b(?:i (?:have|own|got|adopted)|my|our) (?:two|2|a pair of) ((?:${PETS})s|kids|sons|daughters|boys|girls),? ` +
    "([a-z][a-z'-]*) and ([a-z][a-z'-]*)(?=,|$)",
)

/** The name said right after a relative or a pet: written with a capital, and a word no other way ("my dog Max"). */
function nameAfter(text: string, ctx: RuleContext): RegExpExecArray | undefined {
  const match = NAMED_AFTER.exec(text)
  if (!match || !ctx.cases.isCapitalised(match[2]!)) return undefined
  const name = match[2]!
  // "my sister, Matt and Kim played": after a comma, a name and another is a list of three people, no apposition
  const rest = text.slice(match.index + match[0].length - (match[0].endsWith(' ') ? 1 : 0))
  const listed = /^ and ([a-z][a-z'-]*)/.exec(rest)
  if (match[0].includes(',') && listed && ctx.cases.isCapitalised(listed[1]!)) return undefined
  if (nlpHas(name, '(#Date|#Value|#Holiday)')) return undefined
  if (!nlpHas(name, '#Person') && nlpHas(name, '(#Verb|#Adjective|#Adverb|#Preposition|#Determiner|#Pronoun|#Place)'))
    return undefined
  return match
}

/** "their dog is named Max", from a match of who (1) and the name (2), or the two given apart. */
function addName(ctx: RuleContext, named: RegExpExecArray, who = named[1]!, said = named[2]!): void {
  const name = ctx.cases.restore(said)
  add(ctx, `their ${who} is named ${name[0]!.toUpperCase()}${name.slice(1)}`, 'memory.family-fact', named)
}

/** Third person of a verb said in the first person: "have" -> "has", "watch" -> "watches", "study" -> "studies". */
export function thirdPerson(verb: string): string {
  const [head, ...rest] = verb.split(' ')
  const tail = rest.length ? ` ${rest.join(' ')}` : ''
  if (head === 'have') return `has${tail}`
  if (head === 'do' || head === 'go') return `${head}es${tail}`
  if (/(?:s|sh|ch|x|z)$/.test(head!)) return `${head}es${tail}`
  if (/[^aeiou]y$/.test(head!)) return `${head!.slice(0, -1)}ies${tail}`
  return `${head}s${tail}`
}

/** The fact up to its end (FACT_END), at most MAX_WORDS words; undefined when nothing of its own is left. */
export function factPhrase(rest: string): string | undefined {
  const words = rest.replace(FACT_END, '').replace(RUN_ON_I, '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS)
  while (
    words.length &&
    /^(?:and|a|an|the|my|of|to|in|on|at|for|with|very|really|just|like|also|however)$/.test(words.at(-1)!)
  )
    words.pop()
  const phrase = words
    .filter((word) => word !== 'myself')
    .map((word) => OWN_TO_THIRD[word] ?? word)
    .join(' ')
  // a fact that names the other speaker ("would love to show you around") is about the talk, not the person
  if (!phrase || cutOff(phrase) || HEADLESS.test(phrase) || /\b(?:you|your|yours)\b/.test(phrase)) return undefined
  const content = tokens(phrase.replace(STAND_IN, ' ')).length
  // "is proud of her", "has a stroller for her": a phrase that ends pointing elsewhere needs two words of its own
  if (content < (POINTS_BACK.test(phrase) ? 2 : 1)) return undefined
  return phrase
}

/** A verb that says nothing without what follows it: "my wife is", "my cousin loves (that game)". */
const VERB_ALONE = new RegExp(pattern`^(?:is|are|was|were|has|have|does|did|got|gets|go|goes|loves?|likes?|hates?|
  enjoys?|wants?|needs?|prefers?|makes?|takes?|plays?|watches|buys?|says?|thinks?|knows?)$`)

/**
 * What is said of the people around the person, in words of its own. "My" reads as the person's ("makes fun of their
 * career choice"); an "i" or "me" left is a clause of its own to misread ("made me laugh" is a moment), as is "you".
 */
function familyFact(who: string, said: string): string | undefined {
  if (/^(?:was|were) born\b|^(?:died|passed)\b/.test(said)) return undefined // memories.ts: a family event
  if (/\b(?:i|me|you|your)\b/.test(said.replace(FACT_END, ''))) return undefined
  const phrase = factPhrase(said)
  if (!phrase) return undefined
  // "my wife works" says something; "my wife is" and "my cousin loves (that game)" do not
  if (phrase.split(' ').length < 2 && VERB_ALONE.test(phrase)) return undefined
  return `their ${who} ${phrase}`
}

function add(ctx: RuleContext, event: string, rule: RuleId, span: RegExpExecArray, confidence = CONFIDENCE): void {
  const text = ctx.cases.restore(ownWordsInThirdPerson(event))
  ctx.acc.addMemory({ event: text, importance: 'low', confidence }, rule, span)
}

/** A goal is weaker than a fact: it may change, and "want" is said lightly. */
const GOAL_CONFIDENCE = 0.5

/** "i want to go to culinary school", "i want a robot servant": 1 how it is wanted, 2 what. */
const GOAL = new RegExp(
  `^i ${ADV}(want to|want(?= (?:a|an|my own|another) )|would like to|would love to|hope to|plan to|am planning to|` +
    'am going to|am trying to|am hoping to|am thinking about|am thinking of|have been thinking about|' +
    'have been thinking of|dream of|have always wanted to|' +
    'have wanted to|always wanted to) (.+)$',
)

/** "we are planning to move abroad": a plan of the household the person is part of, with 1 how and 2 what. */
const OUR_PLAN = new RegExp(`^we ${ADV}(plan to|are planning to|are going to|are hoping to) (.+)$`)

/** Goals of the conversation itself, not of a life: "i want to know more", "i would love to hear about it". */
const NOT_GOAL = new RegExp(pattern`^(?:know|say|ask|hear|thank|tell|talk|chat|let|make sure|check|mention|share|
  think|believe|imagine|guess|add|apologi[sz]e|meet you|see you|get back to you|help you|wish you|be honest|clarify|
  point out|read more)\b`)

/** What a goal is called in the third person, by how it was said. */
const GOAL_VERBS: Record<string, string> = {
  'want to': 'wants to',
  want: 'wants',
  'would like to': 'would like to',
  'would love to': 'would love to',
  'hope to': 'hopes to',
  'plan to': 'plans to',
  'am planning to': 'plans to',
  'dream of': 'dreams of',
  'am going to': 'is going to',
  'are going to': 'is going to',
  'are planning to': 'plans to',
  'are hoping to': 'hopes to',
  'am trying to': 'is trying to',
  'am hoping to': 'hopes to',
  'am thinking about': 'is thinking about',
  'am thinking of': 'is thinking of',
  'have been thinking about': 'has been thinking about',
  'have been thinking of': 'has been thinking of',
  'have always wanted to': 'has always wanted to',
  'have wanted to': 'has wanted to',
  'always wanted to': 'has always wanted to',
}

/**
 * A word that names no goal alone: a moment ("i want to go to bed", "i am going to be late"), or where and when
 * ("i want to go back", "i would love to come along", "i would love to try it someday").
 */
const NO_GOAL = new Set(
  tokens(`bed sleep nap home lunch dinner breakfast shower bath rest bathroom toilet back along out over away around
  someday sometime soon again more too late early ready fine`),
)

/** "my dream is to meet mickey mouse", "my goal is to run a 5k": 1 the word, 2 what is wanted. */
const MY_GOAL = new RegExp(pattern`^my (?:(?:biggest|big|main|life|lifelong|only|one|ultimate|current) )?(dream|goal|
  plan|ambition|wish) (?:is|has always been|would be) to (.+)$|^it(?: is| has)?(?: always)?(?: been)? (?:a|my)
  (?: (?:lifelong|big|long-time|longtime))? (dream|goal|wish)(?: of mine)? to (.+)$`)

/** "i want to go to culinary school" -> "wants to go to culinary school", when no other rule read the wish. */
function ruleGoal(text: string, ctx: RuleContext, before: ReadBefore): void {
  const mine = MY_GOAL.exec(text)
  if (mine) {
    const [kind, what] = mine[1] ? [mine[1], mine[2]!] : [mine[3]!, mine[4]!]
    const phrase = before.any || NOT_GOAL.test(what) ? undefined : factPhrase(what)
    if (phrase) add(ctx, `their ${kind} is to ${phrase}`, 'memory.goal', mine, GOAL_CONFIDENCE)
    return
  }
  const goal = GOAL.exec(text) ?? OUR_PLAN.exec(text)
  if (!goal || before.any || NOT_GOAL.test(goal[2]!)) return
  const phrase = factPhrase(goal[2]!)
  // a goal names what is wanted: a word of its own after the verb, not a moment's ("move to the city", not "go to
  // bed"); a step of a life is one alone ("retire early", "get married"), when done to nobody else ("marry them off")
  const object = phrase ? tokens(phrase.replace(/^\S+/, '').replace(STAND_IN, ' ')) : []
  const lifeStep = phrase && LIFE_STEP.test(phrase) && !/\b(?:them|him|her|it)\b/.test(phrase)
  if (!phrase || (object.every((word) => NO_GOAL.has(word)) && !lifeStep)) return
  add(ctx, `${GOAL_VERBS[goal[1]!]} ${phrase}`, 'memory.goal', goal, GOAL_CONFIDENCE)
}

/** What the person has none of, does not do or is not: "has no car", "does not drive", "is not a morning person". */
function ruleNegatedFact(text: string, ctx: RuleContext, before: ReadBefore): void {
  if (before.any) return
  const never = NEVER_DONE.exec(text)
  if (never) {
    const [, how, done, rest] = never
    const phrase = NOT_DONE.test(rest!) ? undefined : factPhrase(rest!)
    const negation = how === 'have not' ? 'has not' : 'has never'
    if (phrase) add(ctx, `${negation} ${done} ${phrase}`, 'memory.never-done', never)
    return
  }
  const none = HAS_NONE.exec(text)
  if (none) {
    if (NOT_HAD.test(none[1]!)) return
    const phrase = factPhrase(none[2]!)
    if (phrase && !NOT_NONE.test(phrase)) add(ctx, `has no ${phrase}`, 'memory.has', none)
    return
  }
  const habit = NO_HABIT.exec(text)
  if (habit) {
    const [, how, verb, rest] = habit
    // "i can not swim though": what follows the verb may end the fact at once
    const kept =
      rest === undefined
        ? ''
        : ` ${rest}`
            .replace(FACT_END, '')
            // "i don't play video games much": how much, after what is not done ("i don't eat much" says little)
            .replace(/(?<=\S)\s+(?:much|very much|a lot|that much|often|anymore|any more)$/, '')
            .replace(/^\s*(?:at all|very well|that well|so well|well)$/, '')
            .trim()
    // "i don't get out much": going out is said with how much
    const outing = /^(?:get|go) out$/.test(verb!) && /^(?:much|a lot|often)$/.test(kept)
    const phrase = outing ? rest : kept ? factPhrase(kept) : ''
    if (phrase === undefined || (!phrase && !ALONE.has(verb!)) || NOT_HABIT.test(rest ?? '')) return
    return add(ctx, `${NO_HABIT_WORDS[how!]} ${verb}${phrase ? ` ${phrase}` : ''}`, 'memory.habit', habit)
  }
  const isNot = IS_NOT.exec(text)
  if (isNot && !NOT_IS.test(isNot[1]!) && !/^(?:sure|a fan|into|that|this|the)\b/.test(isNot[1]!))
    add(ctx, `is not ${isNot[1]}`, 'memory.is', isNot)
}

/** What the other rules took from a clause before this one: any value, and a memory among them. */
export interface ReadBefore {
  any: boolean
  memory: boolean
}

/**
 * The names of the person's pets and people said in passing, whatever else the clause says: "i love hiking with my
 * dog Max", "two rabbits, Mochi and Bean" (names are read only when written with a capital).
 */
export function ruleNamesSaid(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.question || clause.hedged || clause.joined) return
  const text = clause.text
  const called = nameAfter(text, ctx)
  // "my friend sarah lives in paris": what is said of them names them ("their friend Sarah lives in Paris")
  const after = called ? text.slice(called.index + called[0].length) : ''
  const fact = FACT_VERB_FIRST.test(after) ? familyFact(`${called![1]} ${called![2]}`, after) : undefined
  if (fact) add(ctx, fact, 'memory.family-fact', called!)
  else if (called && !NAMED.test(text)) addName(ctx, called)
  const got = GOT_NAMED.exec(text) ?? MY_NAMED.exec(text)
  if (got && !called) addName(ctx, got)
  const pair = NAMED_PAIR.exec(text)
  if (pair && ctx.cases.isCapitalised(pair[2]!) && ctx.cases.isCapitalised(pair[3]!)) {
    const [first, second] = [pair[2]!, pair[3]!].map((name) => ctx.cases.restore(name))
    add(ctx, `their ${pair[1]} are named ${first} and ${second}`, 'memory.family-fact', pair)
  }
}

/**
 * The person's standing facts in one clause: what they have, do as a habit, are, and how their people are. Nothing is
 * said twice: a possession or a relative's fact that is already a memory ("i have a peanut allergy", "my son was
 * born"), and a habit or a state that is already a value ("i go hiking", "i am a nurse"), are left out.
 */
export function ruleStandingFacts(clause: ClauseInfo, ctx: RuleContext, before: ReadBefore): void {
  if (clause.question || clause.hedged || clause.joined) return
  const text = clause.text
  ruleNamesSaid(clause, ctx)
  const help = HELP_WITH.exec(text)
  if (help && !clause.negated && !before.memory && !TRIP_PLANNED.test(`${help[1]} ${help[2]}`)) {
    const phrase = NOT_HABIT.test(help[2]!) ? undefined : factPhrase(help[2]!)
    if (phrase) return add(ctx, `is ${help[1]} ${phrase}`, 'memory.ongoing', help)
  }
  // "i am trying to lose weight": an aim, read as a goal though not as a wish
  if (clause.desire || MY_GOAL.test(text) || /^i am trying to\b/.test(text)) return ruleGoal(text, ctx, before)
  const peeve = WHEN_OTHERS.exec(text)
  const done = peeve && !before.any ? factPhrase(peeve[2]!) : undefined
  if (done) return add(ctx, `${WHEN_OTHERS_VERB[peeve![1]!]} it when ${done}`, 'memory.when-others', peeve!)
  if (clause.negated) return ruleNegatedFact(text, ctx, before)
  const ongoing = ONGOING.exec(text)
  const planned = ongoing && !TRIP_PLANNED.test(`${ongoing[2]} ${ongoing[3]}`)
  if (planned && (!before.any || (!before.memory && ONGOING_FOR.test(ongoing[2]!)))) {
    // "i am working": the job says where; "i have been working 60 hour weeks": how long it has gone on
    const phrase = ongoing[2] === 'working' && ongoing[1] !== 'have been' ? undefined : factPhrase(ongoing[3]!)
    const be = ongoing[1] === 'have been' ? 'has been' : 'is'
    const said = phrase && (!/^we\b/.test(text) || weSaysSomething(ongoing[2]!, ongoing[3]!, phrase))
    if (said) return add(ctx, `${be} ${ongoing[2]} ${phrase}`, 'memory.ongoing', ongoing)
  }
  const has = HAS.exec(text)
  if (has) {
    if (before.memory) return
    const had = has[1]!
    if (PARTICIPLE.test(had) || NOT_HAD.test(had)) return
    // "i have way too many houseplants": "way" says how many, it is no thing had
    const phrase = factPhrase(had.replace(/^way (?=too (?:many|much)\b)/, ''))
    if (phrase) add(ctx, `has ${phrase}`, 'memory.has', has)
    return
  }
  const habit = HABIT.exec(text)
  if (habit) {
    if (before.any) return
    const [, tries, verb, rest] = habit
    // "i use to work for the cia": "used to", misspelt (memories.ts reads the past)
    if (NOT_HABIT.test(rest!) || (verb === 'use' && /^to\b/.test(rest!))) return
    // "do live action roleplaying": "live" before a noun is no place lived in
    if (verb === 'live' && LIVE_THING.test(rest!)) return
    const phrase = factPhrase(rest!)
    if (!phrase || (/^we\b/.test(text) && !weSaysSomething(verb!, rest!, phrase))) return
    add(ctx, `${tries ? `tries to ${verb}` : thirdPerson(verb!)} ${phrase}`, 'memory.habit', habit)
    return
  }
  const likes = LIKES.exec(text)
  if (likes) {
    if (before.any || NOT_LIKED.test(likes[2]!) || NOT_GOAL.test(likes[2]!.replace(/^to /, ''))) return
    const phrase = factPhrase(likes[2]!)
    // "likes to go at least twice a year": a verb needs a word of its own after it
    const object = phrase?.replace(/^to \S+/, '').replace(STAND_IN, ' ')
    if (phrase && object && tokens(object).length)
      add(ctx, `${thirdPerson(likes[1]!)} ${phrase}`, 'memory.likes', likes)
    return
  }
  // "mom of twin toddlers here": the children, which the gender read from the same words does not say
  const parent = PARENT_OF.exec(text)
  if (parent && !before.memory) {
    const said = parent[2]!.replace(/\s+here$/, '')
    // "a dad of 3": a number alone counts the children
    const children = /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten)$/.test(said) ? said : factPhrase(said)
    if (children) return add(ctx, `is a ${parent[1]} of ${children}`, 'memory.is', parent)
  }
  const is = IS.exec(text)
  if (is && !before.any && !NOT_IS.test(is[1]!)) {
    const phrase = factPhrase(is[1]!)
    // one word stands when it describes the person ("i am biracial", "i am married"), not when it may name them
    if (phrase && (phrase.includes(' ') || STATES.has(phrase) || nlpHas(phrase, '#Adjective')))
      return add(ctx, `is ${phrase}`, 'memory.is', is)
    // "i'm canadian", "i am somali": a nationality or a people, written as a name is
    if (phrase && nlpHas(phrase, '#Demonym')) return add(ctx, `is ${titleCase(phrase)}`, 'memory.is', is)
    const people = phrase ? peopleOfLanguage(phrase) : undefined
    if (people) return add(ctx, `is ${people}`, 'memory.is', is)
  }
  const named = NAMED.exec(text)
  if (named && !before.memory) return addName(ctx, named)
  const nameFirst = NAME_OF_MY.exec(text)
  if (nameFirst && !before.memory) return addName(ctx, nameFirst, nameFirst[2], nameFirst[1])
  const family = FAMILY.exec(text)
  if (family && !before.memory) {
    const fact = familyFact(family[1]!, family[2]!)
    if (fact) add(ctx, fact, 'memory.family-fact', family)
  }
}

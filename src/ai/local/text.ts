// Text plumbing for the local extractor: normalisation (lower case, expanded contractions), sentence and
// clause splitting that does not rely on capital letters, number words, gerunds and case restoration.
import { opensStory, reportsSomeoneElse } from './others.js'
import { pattern } from './regex.js'
import { ADV } from './adverbs.js'
import { dict } from './regex.js'

/** One clause of the person's text, normalised to lower case. */
export interface Clause {
  text: string
  /** The clause belongs to a question ("do you like jazz?") and says nothing about the person. */
  question: boolean
  /** Index of the sentence in the submission (order of appearance). */
  sentence: number
  /** Index of the paragraph (a stretch between line breaks; a turn of a conversation) the clause is in. */
  paragraph?: number
  /** Someone else's words or a story's ("my dad says i am ...", "in the game i am an elf"): nothing of the person. */
  reported: boolean
  /** The clause joins verb phrases that are read as clauses of their own ("i drive a truck and live in the city"). */
  joined?: boolean
  /** A verb phrase of a joined clause, given its subject back ("i live in the city"): the verb is a guess. */
  elided?: boolean
  /** Who shares the subject with the person ("their kids" in "my kids and i went"), in the third person. */
  companion?: string
}

/** Contracted and chat spellings, each with what it is rewritten to, applied in order. */
const EXPANSIONS: [RegExp, string][] = [
  [/\b(don|doesn|didn|can|won|isn|aren|wasn|weren|haven|hasn|hadn|couldn|wouldn|shouldn|ain) t\b/g, "$1't"],
  [/\b(do|does|did|ca|is|are|was|were|have|has|had|could|would|should)nt\b/g, "$1n't"],
  [/\b(i) (m|ve|ll|d)\b/g, "$1'$2"],
  [/\bim\b/g, "i'm"],
  [/\bive\b/g, "i've"],
  [/\bwon't\b/g, 'will not'],
  [/\bcan't\b/g, 'can not'],
  [/\bcannot\b/g, 'can not'],
  [/\bain't\b/g, 'am not'],
  [/\b(\w+)n't\b/g, '$1 not'],
  [/\bi'm\b/g, 'i am'],
  [/\bi've\b/g, 'i have'],
  [/\bi'll\b/g, 'i will'],
  [/\bi'd\b/g, 'i would'],
  [/\b(you|we|they)'re\b/g, '$1 are'],
  [/\b(you|we|they)'ve\b/g, '$1 have'],
  [/\b(he|she|it|that|there|what|who|where|here)'s\b/g, '$1 is'],
  [/\b(what|that|how|where|who|there)s\b/g, '$1 is'],
  // "and its always rewarding": "it's" written without its apostrophe, before what only a verb's phrase has
  [
    new RegExp(
      pattern`\bits (?=(?:always|so|been|really|very|not|just|like|going|getting|too|ok|okay|fine|a lot|hard|fun|my|a|
        an|the|your|our|pretty|kind of|sort of|also|still|actually|definitely|probably|literally|honestly)\b)`,
      'g',
    ),
    'it is ',
  ],
  // "my husband's a firefighter": "is" before an article or a state, never a possessive ("my husband's car")
  [
    /\b(my (?:[a-z]+ )?[a-z]+)'s (?=(?:a|an|the|so|very|really|not|from|in|at|always|still|also|now|pregnant)\b)/g,
    '$1 is ',
  ],
  // "i myself am a dog person": the stress, which says nothing a rule reads
  [/\bi myself (?=(?:am|was|have|had|do|did|love|like|enjoy|prefer|work|live)\b)/g, 'i '],
  [/\blet's\b/g, 'let us'],
  [/\bgonna\b/g, 'going to'],
  [/\bwanna\b/g, 'want to'],
  [/\bgotta\b/g, 'have to'],
  // a parent's job in the letters forums write it in
  [/\bsahm\b/g, 'stay at home mom'],
  [/\bsahd\b/g, 'stay at home dad'],
  [/\bkinda\b/g, 'kind of'],
  [/\batleast\b/g, 'at least'],
  [/\bsorta\b/g, 'sort of'],
  [/\bluv\b/g, 'love'],
  // "two kids (6 and 9)": the children's ages in brackets, which the household count reads past
  [/\b(kids|children|boys|girls|sons|daughters) \((?:ages? )?\d{1,2}(?: ?(?:,|and|&) ?\d{1,2}){0,5}\)/g, '$1'],
  // "i do not think i have ever left ohio" says "i have never left ohio"
  [/\bi (?:really )?(?:do|did) not think (?:that )?i (have|had|will|would|could|can) ever\b/g, 'i $1 never'],
  // the misspellings chat makes most often, of words the rules read
  [/\bliek(s|d)?\b/g, 'like$1'],
  [/\b(?:realy|rly)\b/g, 'really'],
  [/\balot\b/g, 'a lot'],
  [/\bthier\b/g, 'their'],
  [/\bfreind(s?)\b/g, 'friend$1'],
  [/\b(?:becuase|becasue|bcuz)\b/g, 'because'],
  [/\bdefinate?ly\b/g, 'definitely'],
  // "2 kids n a dog", "rock n roll": "and" between two words
  [/(?<=[a-z0-9] )n(?= [a-z0-9])/g, 'and'],
  [/\b(favourite|fave|fav)\b/g, 'favorite'],
  [/\bfavourites\b/g, 'favorites'],
  [/\bcolour(s?)\b/g, 'color$1'],
  // the breed as chat often spells it ("german shepards"); "Shepard" alone may be a name
  [/\bgerman shep(?:ard|erd|ord)(s?)\b/g, 'german shepherd$1'],
  // "i try to hit the gym regularly": going there, said as chat says it
  [/\bhit the (gym|slopes|trails|beach|pool)\b/g, 'go to the $1'],
  [/\bhitting the (gym|slopes|trails|beach|pool)\b/g, 'going to the $1'],
  // "w/ my gf", "live in brooklyn w my wife": "with", as chat shortens it
  [/\bw\/(?=\s|$)/g, 'with'],
  [/\bw (?=(?:my|our|his|her|their|the|a|an|some|friends|family|kids)\b)/g, 'with '],
  [/\bb\/c\b/g, 'because'],
  [/\bgf\b/g, 'girlfriend'],
  [/\bbf\b/g, 'boyfriend'],
  [/\bu\b/g, 'you'],
  [/\bur\b/g, 'your'],
  // "(i) can't stop playing stardew valley": a habit of late, as "(i) have been playing" says it
  [/\bi can not stop (playing|replaying|watching|rewatching|listening to|reading)\b/g, 'i have been $1'],
  [/(^|[,.!?;]\s*)can not stop (playing|replaying|watching|rewatching|listening to|reading)\b/gm, '$1been $2'],
]

/** Lower-cases and expands contractions; keeps punctuation that matters for splitting. */
export function normalize(text: string): string {
  let normalized = text
    .replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/[\u2013\u2014]|--+/g, ' - ')
    .toLowerCase()
  normalized = normalized
    .replace(/\bu\.s\.a?\.?/g, 'usa')
    .replace(/\be\.g\./g, 'eg')
    .replace(/\bi\.e\./g, 'ie')
    // "from 6 p.m. to 9 p.m.": a time of day, no end of a sentence
    .replace(/\b([ap])\.m\.(?=\s+[a-z0-9])/g, '$1m')
    .replace(/\b([ap])\.m\./g, '$1m.')
  normalized = normalized.replace(/\b(mr|mrs|ms|dr|st|jr|sr|prof|vs|etc|approx|mt|ft|no)\.(?=\s+[a-z0-9])/g, '$1')
  for (const [pattern, expanded] of EXPANSIONS) normalized = normalized.replace(pattern, expanded)
  normalized = normalized.replace(/\b(\d+)(years?|yrs?|yo|y\/o)\b/g, '$1 $2')
  // "a 41 y/o dad", "my 3yo": the abbreviations of "year old"
  normalized = normalized.replace(/\b(\d+) (?:y\/o|y\.o\.?|yo|yrs? old)(?![a-z/])/g, '$1 year old')
  // "we both volunteer", "we are both teachers": said of the person as much as of the other
  normalized = normalized.replace(/\bwe (?:are both|both are)\b/g, 'i am').replace(/\bwe both (?=[a-z])/g, 'i ')
  // tokenised punctuation of chat logs: "word , word ." -> "word, word." The lookbehind starts a match only at a
  // run's first space, so a long run of spaces is scanned once, not once per space.
  normalized = normalized.replace(/(?<!\s)\s+([,.!?;:])/g, '$1').replace(/[ \t]+/g, ' ')
  // "i went to a, um, support group": a sound of hesitation says nothing, and would cut the phrase it falls in
  normalized = normalized.replace(/,? (?:um+|uh+|uhm|erm)(?:,|(?= ))/g, '')
  return normalized.trim()
}

const SUBJECT_START = '(?:i|my|we|our|he|she|they|you|it|his|her|their|me|mine)'
/** Verbs of a subject the person is part of ("my husband and i love ...", "my kids and i went ..."). */
export const SHARED_VERBS = pattern`are|were|have|live|love|like|enjoy|moved|went|got|own|adopted|bought|visit|visited|
  travel|traveled|travelled|play|played|go|met|took|saw|watched|made|built|spent|had|tried|started|ran|celebrated|
  baked|cooked|joined|painted|drove|flew|hiked|stayed|attended|ate|finished|volunteered|decided`
/** The person's household said with "the": "the kids", "the family", "the wife". */
export const THE_HOUSEHOLD = 'the (?:kids|family|fam|wife|husband|hubby|boys|girls|children|dogs?)'
/** "my kids and i went": the relative who shares the subject, a clause of its own with the person (clauses.ts). */
const PARTNER_FIRST =
  `(?<!^(?:both )?(?:(?:my|our) [a-z]+(?: [a-z]+)?|${THE_HOUSEHOLD})` + `(?=\\s+and\\s+i ${ADV}(?:${SHARED_VERBS})\\b))`
const QUESTION_START = new RegExp(pattern`
  ^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|are|is|was|were|have|has|had|can|could|would|will|should|
  shall|may|am|you)\b`)

/** Children or pets counted: "two kids", "3 cats" (a clause of its own after a comma, and said alone). */
export const HOUSEHOLD_COUNT =
  '(?:\\d|one|two|three|four|five|six) (?:kids|children|boys|girls|sons|daughters|grandkids|grandchildren|dogs|cats)'

/** Where a sentence splits into clauses (splitClauses). */
const CLAUSE_BREAK = new RegExp(
  ';|\\s*(?:,\\s*)?\\b(?:but|because(?! of\\b)|although|though|however|cause|cuz)\\s+|,\\s*yet\\s+|' +
    `,\\s*(?=(?:and |so |then |plus |now |but now )?(?:${SUBJECT_START}|what|how|where|who|why|when|which|` +
    'do|does|did|are|is|have|can|could|would|should|will|any|anything|anyone|best|ideas?|tips|advice|' +
    'suggestions?|recommendations?|thoughts|please|pls|plz)\\b)|' +
    // "i love to go rock climbing my fav summer activity": a comment on the activity, run on without a comma
    '\\s+(?=my (?:fav|favou?rite)\\b)(?<=[a-z]{2}ing\\s+)' +
    '(?<!\\b(?:th|dur|noth|someth|everyth|anyth|spr|br|morn|even|ceil|build|wedd|be|go|sett|cloth)ing\\s+)|' +
    // "a lakers fan born and raised in la": where the person is from, said after who they are
    '\\s+(?=born and raised (?:in|on)\\b)(?<!\\b(?:was|were|am|is|are|i|we|and|been|me|you|he|she|they)\\s+)|' +
    // "divorced, two kids": a household counted after a comma
    `,\\s*(?=(?:and )?${HOUSEHOLD_COUNT}\\b)|` +
    // "she/her, 31, nurse": pronouns that open a bio, a clause of their own
    ',(?<=^\\(?(?:she|he|they|xe|ze|fae)/(?:her|him|them|they|she|he|hers|his|theirs|xem|zir|faer|any)' +
    '(?:/[a-z]+)?\\)?,)\\s*|' +
    // "34f, product manager in austin": an age and a sex that open a bio, a clause of their own
    ",(?<=^(?:[a-z' ]{1,30}:\\s*)?\\(?\\d{1,2} ?/?[fm]\\)?,)\\s*|" +
    // "nurse, love hiking": a liking said without "i" after a comma, a clause of its own
    ',\\s*(?=(?:also |and )?(?:love|like|enjoy|adore) [a-z])|' +
    // "two kids, trying to get back into running": an aim said without "i am", a clause of its own
    ',\\s*(?=(?:and |but |now |currently |also )?(?:trying|hoping|looking) to [a-z])|' +
    // "hey, jefferson here, just got off work": a label that opens the message, a clause of its own
    ",(?<=^(?:[a-z'-]+,? ){0,3}[a-z'-]+ here,)\\s*|" +
    // "as a software engineer i sit all day": the role, a clause of its own as if a comma followed it
    '(?=\\s+i\\s)(?<=^as an? (?:(?!(?:what|which|how|should|do|does|can|could|would|where|when|why|any)\\b)' +
    "[a-z'-]+ ){0,3}[a-z'-]+)\\s+|" +
    // "since i retired i travel a lot": the time the statement holds from, a clause of its own
    '(?=\\s+(?:i|we)\\s)(?<=^(?:and |but |so )?(?:ever since|since|after|before|once) (?:i|we|my [a-z]+) ' +
    "(?:[a-z'-]+ ){0,5}[a-z'-]+)\\s+|" +
    // "when i got fired i got a new job": a time in the past, not a habit ("when i see needles i faint")
    '(?=\\s+(?:i|we)\\s)(?<=^(?:and |but |so )?when (?:i|we|my [a-z]+) (?:(?:just|recently|first|finally) )?' +
    '(?:[a-z]+ed|was|were|got|had|did|went|lost|left|died|met|came|saw|became|began|took|made|found|heard)' +
    "(?: [a-z'-]+){0,5})\\s+|" +
    // "as a diabetic what snacks should i keep?": the role, and the question after it
    "(?<=^as an? [a-z'-]+(?: (?!(?:what|which|how|should|do|does|can|could|any)\\b)[a-z'-]+){0,2})" +
    '\\s+(?=(?:what|which|how|should|do|does|can|could|any)\\s)|' +
    // "grew up in nairobi, now living in toronto"; "i love novels, le guin is my favorite author"
    // "single dad of two, work nights as a security guard": when the work is done may come before where or what
    ',\\s*(?=(?:but |and )?(?:now |currently )?(?:living|based|working|live|work|residing)' +
    '(?: (?:nights|days|evenings|weekends|mornings|overnights|part[- ]time|full[- ]time|remotely))? ' +
    '(?:in|at|as|for)\\b|' +
    '(?:but |and )?(?:now|currently) (?:in|an?)\\b)|' +
    // "i am retired, used to be a pilot", "just moved here, do not speak german yet"
    ',\\s*(?=(?:used to|do not|did not|can not|have never|never|thinking about|thinking of) [a-z])|' +
    // "my cat threw up on my keyboard anyway im trying to learn rust": "anyway" turns to a statement of its own
    '\\s+anyway,?\\s+(?=(?:i|we|my)\\s)|' +
    // "turning 42 next week and thinking about a career change": a second thought, hedged on its own
    ',?\\s+and\\s+(?=(?:(?:honestly|seriously|really|also|now|kind of|kinda) )?' +
    '(?:thinking|wondering|hoping|planning) (?:about|of|if|whether|to) [a-z]|' +
    // "i want to become an art teacher and maybe sell some paintings": a second thought, hedged on its own
    '(?:maybe|perhaps|possibly|probably) [a-z])|' +
    ',\\s*(?=(?:a )?(?:proud )?(?:mom|mum|dad|mother|father|parent) of\\b|more of an?\\b)|' +
    // "i tried sushi last week and loved it": the liking, a clause of its own that "it" points back from
    '\\s+and\\s+(?=(?:i )?(?:really |totally |absolutely |just )?(?:loved|liked|enjoyed|adored) (?:it|them)\\b)|' +
    // "i am learning the piano, started last month": a second event said without "i"
    ',\\s*(?=(?:just )?(?:started|began|finished|quit|moved) [a-z]|been [a-z]+ing\\b|' +
    // "i speak spanish and english, learning french": a second thing under way, said without "i am"; "we are a
    // military family, moving to germany next summer": a move under way
    '(?:now |also |currently )?(?:learning|studying|majoring in|moving to|relocating to|heading to|flying to) [a-z])|' +
    // "junior at ohio state, obsessed with formula 1": a passion said without "i am"
    ',\\s*(?=(?:also |and |so |totally |kinda |kind of )?(?:obsessed with|addicted to|passionate about|' +
    '(?:really|big|huge|super) into) [a-z])|' +
    // "just got back from japan, kyoto was amazing": a comment on what was said
    ',\\s*(?=(?!(?:which|who|that|what|it|this|there)\\b)[a-z]+ (?:was|were|is|are) ' +
    '(?:so |really |very |just )?' +
    '(?:amazing|great|awesome|beautiful|fun|nice|cool|incredible|lovely|gorgeous|stunning|the best)\\b)|' +
    ",\\s*(?=(?:[a-z0-9'-]+ ){1,4}(?:is|are|was) (?:also |definitely |probably )?(?:one of )?my\\b)|" +
    // not "me and my friend love hiking": the person is part of that subject
    `(?<!(?:^|\\s)me)${PARTNER_FIRST}\\s+(?:and|so|then|plus)\\s+(?=${SUBJECT_START}\\b)|` +
    ',?\\s+(?:and|so|then)\\s+(?=(?:[a-z0-9]+\\s+){1,3}i\\s)|' +
    // "how do i tell my boss i am pregnant": what the person would tell, a statement of their own
    '\\s+(?:that\\s+)?(?=i (?:am|have|was|had|got|lost|need|want|feel|think|do not|did not|can not|will)\\b)' +
    '(?<=\\b(?:(?:how|should|do|can|could) (?:do |can |should |would )?i|to) (?:[a-z]+ ){0,2}' +
    '(?:tell|explain to|break it to|admit to|confess to|let) (?!me\\b)' +
    "(?:[a-z'-]+ ){0,2}[a-z'-]+(?: know)?(?: that)?\\s+)|" +
    // "better now that i am in remission": the reason, a clause of the person's own
    ',?\\s+now that\\s+(?=(?:i|we)\\s)|' +
    '\\s+-\\s+',
)

/** Splits normalised text into clauses, marking those that are questions. */
export function splitClauses(normalized: string): Clause[] {
  const out: Clause[] = []
  const sentences = normalized.split(/\n+/).flatMap((paragraph, index) =>
    paragraph
      .split(/(?<=[.!?])\s+|(?<=[!?])(?=[a-z])/)
      .flatMap((s) => chunk(s.trim(), MAX_SENTENCE_CHARS))
      .filter((s) => /[a-z]/.test(s))
      .map((text) => ({ text, paragraph: index })),
  )
  sentences.forEach(({ text: sentence, paragraph }, index) => {
    const isQuestion = /\?\s*["')]*$/.test(sentence)
    const story = opensStory(sentence)
    const parts = sentence
      .split(CLAUSE_BREAK)
      .flatMap((part) => splitAskedBack(part))
      .flatMap((part) => splitCondition(part))
      .map((p) => cleanClause(p))
      .flatMap((part) => splitRunOn(part))
      .filter((p) => p.length > 0)
    parts.forEach((part, position) => {
      const question =
        (isQuestion && (position === parts.length - 1 || QUESTION_START.test(part)) && !UPTALK.test(part)) ||
        ASKS_YOU.test(part) ||
        ASKED_BACK.test(` ${part}`)
      out.push({ text: part, question, sentence: index, paragraph, reported: story || reportsSomeoneElse(part) })
    })
  })
  return out
}

/**
 * Longest stretch read as one sentence. compromise's matching and some clause patterns grow with the square of a
 * sentence's length, so a long text without a full stop would take very long; real sentences are far shorter.
 */
export const MAX_SENTENCE_CHARS = 500

/** `text` cut at spaces into pieces of at most `max` characters (a longer word is cut where it must be). */
export function chunk(text: string, max: number): string[] {
  if (text.length <= max) return [text]
  const out: string[] = []
  let rest = text
  while (rest.length > max) {
    const cut = rest.lastIndexOf(' ', max)
    const at = cut > max / 2 ? cut : max
    out.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trimStart()
  }
  if (rest) out.push(rest)
  return out
}

/**
 * A statement said with a rising tone, as chat writes it: "my favorite watch is the rolex?", "i'm deathly afraid of
 * clowns?". It is the person's own and asks nothing of the other speaker.
 */
const UPTALK = new RegExp(pattern`^(?:i|my)\s(?!.*\b(?:you|your|yours|or|what|which|who|how|where|why|when|if|whether|
  wonder|should|could|would|can|right|ok|okay|huh|maybe)\b)`)

const ASKS_YOU = /^(?:do|does|did|are|is|have|has|can|could|would|will|what|how|where|who|why|which)\s+(?:you|your)\b/

/**
 * Where chat runs a question back into a statement without a stop: "i love ice cream what is your favorite?", "i
 * enjoy mountain biking in my spare time you ?" (a bare "you ?" only after three words of a statement).
 */
const ASKED_BACK = new RegExp(pattern`(?<!\s)\s+(?=(?:
  (?:what|how|where|when|which)\s+(?:do|did|are|have|can|would|will)\s+(?:you|your)|
  (?:do|did|are|have|can|would|will|what|how|where|which)\s+(?:you|your)|
  (?:what|how)\s+(?:about|is|are)\s+(?:you|your))\b|
  (?=(?:and\s+)?(?:you|u)\s*\?+\s*$)(?<=\S+\s+\S+\s+\S+\s+))`)

/**
 * A statement of the person's own and the question it runs into, as two parts: "i love board games would you be up
 * for that?" -> "i love board games", "would you be up for that?"; with or without the question mark chat often
 * leaves out ("i am a tennis player what do you do in spare time"). The statement needs two words after "i", which
 * may follow an answer's first word.
 */
/** A question to the other speaker that runs into the person's own statement: "how old are you i am 19". */
const ASKED_FIRST = /^(?:how|what|where|who|do|are|have)\b[a-z ]{0,40}?\byou\s+(?=i (?:am|have|live|work|love|like)\b)/

function splitAskedBack(part: string): string[] {
  const first = ASKED_FIRST.exec(part)
  if (first) return [first[0].trimEnd(), part.slice(first[0].length)]
  // "no i live in ohio how about you": an answer's first word before the statement
  if (!/^(?:(?:no|yes|yeah|yep|nope|nah|well|oh|ok|okay|sure|lol|haha)\s+)?i\s+\S+\s+\S/.test(part)) return [part]
  const at = part.search(ASKED_BACK)
  return at > 0 ? [part.slice(0, at), part.slice(at).trimStart()] : [part]
}

/** The person's statement, where a run-on one starts: "i am ...", "i love ...". */
const OWN_STATEMENT = /^i (?:am|have|was|love|like|work|live|do|go|play|own|enjoy|want|need)\b/
/**
 * A second statement run on after a word (1), with a complement of its own (not "the color i like on everything");
 * the words it must not follow are in BINDS_CLAUSE.
 */
const RUN_ON = new RegExp(
  pattern`([a-z']+) (?=i (?:(?:am|have|love|like|work|live|play|own|enjoy)
  \s(?!(?:on|in|at|to|for|with|about|it|that|them)\b)|go (?:to|out|for) (?!(?:it|that|them)\b)))`,
  'g',
)
/** Words after which "i am ..." is part of the clause before: "the dog i have", "i think i am", "so i love". */
const BINDS_CLAUSE = new Set(
  `that which who whom whose when whenever if because cause so and but or what how where why think thought know knew
  guess hope wish mean meant say said feel felt believe sure glad since until while as than whether even only just like
  about before after once unless though although whatever wherever also too then now`.split(/\s+/),
)

/**
 * A statement with a second one run on without a stop, as two parts: "i am an animal rights worker i am very trendy"
 * -> "i am an animal rights worker", "i am very trendy". Only in a part that opens with a statement of the person's
 * own, and never after a word that binds what follows to it ("the dog i have", "i think i am").
 */
function splitRunOn(part: string): string[] {
  const first = OWN_STATEMENT.exec(part)
  if (!first) return [part]
  const from = first.index + first[0].length
  for (const match of part.slice(from).matchAll(RUN_ON)) {
    if (BINDS_CLAUSE.has(match[1]!)) continue
    const at = from + match.index! + match[0].length
    return [part.slice(0, at).trimEnd(), ...splitRunOn(part.slice(at))]
  }
  return [part]
}

/** A main clause that itself says what might be: "i would move if i could" stays one hedged clause. */
const MODAL = /\b(?:would|could|might|may|will|should|can|must|maybe)\b/
const CONDITION = /\s+(?=(?:if|unless)\s+(?:i|you|we|he|she|they|it|there|my|your|the|a|an)\b)/

/**
 * A statement of fact and the condition it runs into, as two parts: "i work at a gas station if you want snacks" ->
 * "i work at a gas station", "if you want snacks". The condition is hedged; the statement before it stands, unless it
 * has a modal of its own.
 */
function splitCondition(part: string): string[] {
  const at = part.search(CONDITION)
  if (at <= 0 || MODAL.test(part.slice(0, at))) return [part]
  return [part.slice(0, at), part.slice(at).trimStart()]
}

const INTERJECTION = new RegExp(pattern`
  ^(?:(?:yes|yeah|yep|yup|no(?=[,!.]|\s+(?:i|we|it|that|this|not|thanks|way)\b)|nope|nah|well|oh|ah|aw|wow|lol|
  haha|hahaha|hehe|hey|hi|hello|ok|okay|sure|so|and|but|also|actually|honestly|cool|nice|great|awesome|really|hmm|
  um|uh|ugh|ughh|omg|oof|welp|sigh|yikes|phew|true|same|me too|wow|oh well|anyway|anyways|plus|then|now|though|
  not really(?=[,!.])|
  that is cool|that is great|
  that is awesome|that is nice|sounds fun)(?:[,!.]+\s*|\s+)|i see[,!.]+\s+)+`)

/**
 * Openers that date nothing and say nothing of the statement after them: "after that i have an internship", "luckily
 * my job is remote", "now that i am single". Only before the person's own subject, so that "currently living in"
 * keeps its word.
 */
const OPENER = new RegExp(pattern`^(?:after that|now that|right now|these days|nowadays|lately|at the moment|for now|
  currently|
  luckily|fortunately|unfortunately|sadly|thankfully|personally|basically|in fact|of course|by the way|btw),?\s+
  (?=(?:i|my|we)\b)`)

/** "context: i am a nurse", "quick background - i teach": a label that opens a message's statement about the person */
const LABEL = new RegExp(pattern`^(?:some |a bit of |quick |brief |a little )?(?:context|background|about me|intro|
  introduction|bio|fyi|update|tl;?dr|ps|p\.s\.?|edit)\s*(?::\s*|-\s*(?=(?:i|my|we)\b))`)

/** "hello from florida?": a greeting that says where the person is, with a rising tone that asks nothing. */
const GREETING_FROM =
  /^(?:hi|hello|hey|greetings|howdy)(?: there| all| everyone)?[ ,!]*from (?:sunny |rainy |snowy |lovely )?(?=[a-z])/

/** The days of the week, in the order Date.getUTCDay numbers them. */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
/** The months, January first. */
export const MONTHS = 'january february march april may june july august september october november december'.split(' ')

/** "this weekend i am running a 5k": a time said before a plan's "i am", which the plan rules read after it. */
const TIME_BEFORE_PLAN = new RegExp(pattern`^((?:this|next|on|every) (?:weekend|week|month|year|summer|winter|spring|
  fall|autumn|morning|afternoon|evening|night|${WEEKDAYS.join('|')})|today|tonight|
  tomorrow(?: morning| night)?),?\s+(?=(?:i am|we are|i will|we will)\b)`)

function cleanClause(part: string): string {
  let cleaned = part.trim().replace(/^[,.;:!?"'()\s-]+|[,.;:!?"'()\s-]+$/g, '')
  // "yes .i was raised catholic": chat's stray stop after an interjection
  cleaned = cleaned
    .replace(GREETING_FROM, 'i am from ')
    .replace(OPENER, '')
    .replace(INTERJECTION, '')
    .replace(/^[,.;:!?\s]+/, '')
    .replace(LABEL, '')
    .replace(OPENER, '')
  const time = TIME_BEFORE_PLAN.exec(cleaned)
  if (time) cleaned = `${cleaned.slice(time[0].length)} ${time[1]}`
  return cleaned.trim()
}

const UNITS: Record<string, number> = dict({
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
})
const TENS: Record<string, number> = dict({
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
})

/** Regex source matching a number written in digits or English words (up to the hundreds). */
export const NUMBER_RE =
  `(?:\\d{1,3}|(?:(?:one|a) hundred(?:\\s+and)?\\s+)?(?:(?:${Object.keys(TENS).join('|')})` +
  `(?:[-\\s](?:${Object.keys(UNITS).slice(1, 10).join('|')}))?|${Object.keys(UNITS).join('|')})|(?:one|a) hundred)`

/** Parses "34", "thirty-four", "thirty four", "a hundred and two"; undefined if not a number. */
export function parseNumber(text: string): number | undefined {
  const normalised = text.trim().toLowerCase()
  if (/^\d+$/.test(normalised)) return Number.parseInt(normalised, 10)
  let total = 0
  let seen = false
  for (const w of normalised.split(/[-\s]+/)) {
    if (w === 'and') continue
    if (w === 'a' || w === 'one') {
      if (!seen) {
        total += 1
        seen = true
        continue
      }
    }
    if (w === 'hundred') {
      total = (total || 1) * 100
      seen = true
      continue
    }
    if (w in UNITS) {
      total += UNITS[w]
      seen = true
      continue
    }
    if (w in TENS) {
      total += TENS[w]
      seen = true
      continue
    }
    return undefined
  }
  return seen ? total : undefined
}

const GERUND_EXCEPTIONS: Record<string, string> = dict({
  be: 'being',
  see: 'seeing',
  ski: 'skiing',
  die: 'dying',
  lie: 'lying',
  tie: 'tying',
  free: 'freeing',
  canoe: 'canoeing',
  agree: 'agreeing',
  flee: 'fleeing',
  dye: 'dyeing',
  visit: 'visiting',
  travel: 'traveling',
  garden: 'gardening',
  listen: 'listening',
  open: 'opening',
  happen: 'happening',
  offer: 'offering',
  color: 'coloring',
  cover: 'covering',
  wander: 'wandering',
  water: 'watering',
  bbq: 'barbecuing',
  barbecue: 'barbecuing',
  picnic: 'picnicking',
  workout: 'working out',
  panic: 'panicking',
  kayak: 'kayaking',
  hang: 'hanging',
})

/** "hike" -> "hiking", "swim" -> "swimming", "play" -> "playing"; a word already ending in -ing is returned. */
export function gerund(verb: string): string {
  const lowered = verb.toLowerCase()
  if (GERUND_OF_LEMMA.has(lowered)) return GERUND_OF_LEMMA.get(lowered)!
  if (lowered.endsWith('ing') && lowered.length > 4) return lowered
  if (GERUND_EXCEPTIONS[lowered]) return GERUND_EXCEPTIONS[lowered]
  if (lowered.endsWith('ie')) return lowered.slice(0, -2) + 'ying'
  if (/[^aeiou]e$/.test(lowered) || /[^e]ue$/.test(lowered)) return lowered.slice(0, -1) + 'ing'
  // one-syllable consonant-vowel-consonant: double the final consonant (run, swim, jog, shop)
  if (/^[^aeiou]*[aeiou][bdgklmnprt]$/.test(lowered)) return lowered + lowered.slice(-1) + 'ing'
  return lowered + 'ing'
}

const LEMMA_EXCEPTIONS: Record<string, string> = dict({
  running: 'run',
  swimming: 'swim',
  shopping: 'shop',
  jogging: 'jog',
  skiing: 'ski',
  biking: 'bike',
  hiking: 'hike',
  dancing: 'dance',
  baking: 'bake',
  riding: 'ride',
  writing: 'write',
  skating: 'skate',
  diving: 'dive',
  driving: 'drive',
  making: 'make',
  having: 'have',
  taking: 'take',
  coming: 'come',
  living: 'live',
  giving: 'give',
  using: 'use',
  cycling: 'cycle',
  hanging: 'hang',
  sewing: 'sew',
  being: 'be',
  seeing: 'see',
  going: 'go',
  doing: 'do',
  playing: 'play',
  reading: 'read',
  eating: 'eat',
  cooking: 'cook',
  watching: 'watch',
  listening: 'listen',
  visiting: 'visit',
  traveling: 'travel',
  travelling: 'travel',
  collecting: 'collect',
  drawing: 'draw',
  painting: 'paint',
  singing: 'sing',
  drinking: 'drink',
  spending: 'spend',
  learning: 'learn',
  exploring: 'explore',
  sketching: 'sketch',
  camping: 'camp',
  fishing: 'fish',
  hunting: 'hunt',
  building: 'build',
  knitting: 'knit',
  studying: 'study',
})

const GERUND_OF_LEMMA = new Map<string, string>()

/** Rough base form of a gerund ("hiking" -> "hike"). */
export function lemmaOfGerund(gerundForm: string): string {
  if (LEMMA_EXCEPTIONS[gerundForm]) return LEMMA_EXCEPTIONS[gerundForm]
  const lemma = lemmaRule(gerundForm)
  // remember the original spelling so that gerund(lemma) gives it back
  if (!GERUND_OF_LEMMA.has(lemma) && GERUND_OF_LEMMA.size < 10000) GERUND_OF_LEMMA.set(lemma, gerundForm)
  return lemma
}

function lemmaRule(gerundForm: string): string {
  const stem = gerundForm.slice(0, -3)
  // "running" -> "run", "travelling" -> "travel"; a word of one syllable keeps its "ll" ("selling", "calling")
  if (/([bdgklmnprt])\1$/.test(stem) && !/^[^aeiou]*[aeiou]+ll$/.test(stem)) return stem.slice(0, -1)
  // one syllable ending consonant-vowel-consonant lost an e: wak(e), rid(e), bak(e)
  if (/^[^aeiou]*[aeiou][bcdgkmnprstvz]$/.test(stem)) return stem + 'e'
  return stem
}

const IRREGULAR_3RD: Record<string, string> = dict({ is: 'am', has: 'have', does: 'do', goes: 'go', was: 'was' })

/** Third-person present -> base form: "loves" -> "love", "watches" -> "watch", "studies" -> "study". */
export function baseOfThirdPerson(word: string): string {
  const irregular = IRREGULAR_3RD
  if (irregular[word]) return irregular[word]
  if (/[^aeiou]ies$/.test(word)) return word.slice(0, -3) + 'y'
  if (/(?:ch|sh|ss|x|z|o)es$/.test(word)) return word.slice(0, -2)
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

/** Candidate singular forms, most likely first ("movies" -> movie/movy, "boxes" -> box/boxe, "dogs" -> dog). */
export function singulars(word: string): string[] {
  if (word.length <= 3 || /(?:ss|us|is)$/.test(word)) return [word]
  const out: string[] = []
  if (word.endsWith('ies')) out.push(word.slice(0, -1), word.slice(0, -3) + 'y')
  else if (/(?:ch|sh|x|z|ss|o)es$/.test(word)) out.push(word.slice(0, -2), word.slice(0, -1))
  else if (word.endsWith('s')) out.push(word.slice(0, -1))
  return out.length ? out : [word]
}

/** Naive English singular ("dogs" -> "dog", "puppies" -> "puppy", "boxes" -> "box"). */
export function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4)
    return /(?:vies|kies|zies|bies|pies|ties)$/.test(word) &&
      !/(?:puppies|kitties|bunnies|ponies|babies|parties|cities|countries|hobbies|candies|berries|huskies)$/.test(word)
      ? word.slice(0, -1)
      : word.slice(0, -3) + 'y'
  return singulars(word)[0]
}

/** Title Case for names and places written in lower case ("new york city" -> "New York City"). */
export function titleCase(text: string): string {
  return text.replace(/(^|[\s-])([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase())
}

/** Remembers how words were capitalised in the original text, to restore it on extracted phrases. */
export class CaseMap {
  private readonly forms = new Map<string, string>()
  private readonly weak = new Set<string>()
  constructor(original: string) {
    for (const m of original.matchAll(/[A-Za-z][\w'-]*/g)) {
      const word = m[0]
      if (word === 'I' || !/[A-Z]/.test(word)) continue
      const before = original.slice(Math.max(0, m.index - 3), m.index)
      const sentenceStart = m.index === 0 || /[.!?:\n"]\s*$/.test(before)
      const key = word.toLowerCase()
      if (sentenceStart && this.forms.has(key)) continue
      // "A friend made it": the article's capital is the sentence's, as a capitalised word's first letter is
      const sentenceCapital = word === 'A' || (word.length > 1 && word.slice(1) === word.slice(1).toLowerCase())
      if (sentenceStart && sentenceCapital) {
        if (!this.forms.has(key)) this.weak.add(key)
      } else this.weak.delete(key)
      this.forms.set(key, word)
    }
  }
  /** Whether the word appeared capitalised somewhere other than at the start of a sentence. */
  isCapitalised(word: string): boolean {
    const lowered = word.toLowerCase()
    return this.forms.has(lowered) && !this.weak.has(lowered)
  }
  /** Restores the original capitalisation of every word that had one; titleCases the rest if asked. */
  restore(phrase: string, forceTitle = false): string {
    const out = phrase.replace(/[a-z][\w'-]*/g, (word) => {
      const form = this.forms.get(word)
      if (form && (!this.weak.has(word) || forceTitle)) return form
      return word
    })
    return forceTitle ? titleCase(out) : out
  }
}

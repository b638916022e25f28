// interests.<category>: "I love/like/enjoy X", "my favorite X is Y", "I play X", "I have a dog", "I go hiking", ...
import {
  classifyNoun,
  cutPhrase,
  interpretObject,
  knownAs,
  lookup,
  lookupExact,
  splitList,
  verbItems,
  type Item,
} from './classify.js'
import { OCCUPATIONS } from './lexicon-core.js'
import { ACTIVITY_ALIASES, FAVORITE_HEADS, INSTRUMENTS, PET_WORDS, TITLE_KINDS } from './lexicon-interests.js'
import { isVerbAfterI, isVerbAfterTo, nlpHas, termsOf } from './nlp.js'
import { isPeopleNoun, withoutPeopleClause } from './others.js'
import { ADV, type ClauseInfo, type RuleContext } from './rules-common.js'
import { placeAtStart, placeKind } from './gazetteer.js'
import { saysLanguages } from './languages.js'
import { gerund, MONTHS, singular, titleCase, WEEKDAYS } from './text.js'
import { BOOKS_ONLY, ON_THE_WEB, watchedOffScreen } from './verbs.js'
import { stripFiller } from './phrase.js'
import { pattern, re, rx } from './regex.js'
import type { RuleId } from './rules.js'
import type { Span } from './trace.js'

const STRONG =
  'love|loves|adore|adores|live for|have a passion for|have a love for|can not get enough of|can not live without'
const MILD = [
  'like|likes|enjoy|enjoys|dig|fancy|prefer|appreciate',
  'have a (?:major |huge |big |real |serious |total )?(?:soft spot|weakness|thing) for|have an interest in',
].join('|')
const AM_STRONG =
  'in love with|passionate about|obsessed with|crazy about|addicted to|mad about|nuts about|' +
  // "a total sucker for rom coms", "a huge nerd for star wars"
  'an? (?:total |huge |big |complete |real |massive )?(?:sucker|nerd|geek) for'
const AM_MILD = pattern`into|fond of|interested in|keen on|hooked on|big on|
  (?:a |an )?(?:big |huge |massive |great |die[- ]hard |long[- ]time |lifelong )?fan of`
/** Degree words between "i am" and "into": "i am really big into", "i am heavily into". */
const AM_INTO_DEGREE = '(?:so |very |quite |super |totally |pretty |big |huge |heavily |deeply |hugely |more |mostly )?'

/**
 * Ways of being reached or answered, which no one likes as a pastime: "i prefer text over calls", "i like email
 * better", "i prefer short answers with bullet points" (a style). A title that starts with such a word is none ("call
 * of duty").
 */
const COMMUNICATION = new RegExp(pattern`^(?:text|texts|texting|email|emails|e-mail|calls?|phone calls?|voice notes?|
  video calls?|(?:(?:short|shorter|long|longer|brief|detailed|quick|simple|concise|clear|direct|plain|straight)\s+)*
  (?:answers?|responses?|replies|explanations?|summaries|bullet points))\b(?! of\b)`)

/** A comparison after what is liked: "..., just like your pet cow", "... like you do". */
const LIKE_COMPARED = /,?\s*(?:just|exactly|much) like\b.*$|\s+like (?:your|you)\b.*$/

const LIKE_RULES: [RuleId, RegExp, number][] = [
  // "we like bird watching", "me and my wife love camping": "we" holds the person
  ['interest.love', rx`\\b(?:i|we|^me and (?:my )?[a-z]+) ${ADV}(?:${STRONG})\\s+(.+)$`, 0.9],
  ['interest.like', rx`\\b(?:i|we|^me and (?:my )?[a-z]+) ${ADV}(?:${MILD})\\s+(.+)$`, 0.85],
  [
    'interest.am-passionate-about',
    rx`\\bi am ${ADV}(?:so |very |quite |super |totally |pretty )?(?:${AM_STRONG})\\s+(.+)$`,
    0.9,
  ],
  // "i am really into", "i have always been more into sports"
  ['interest.am-into', rx`\\bi (?:am|have (?:always )?been) ${ADV}${AM_INTO_DEGREE}(?:${AM_MILD})\\s+(.+)$`, 0.85],
  // "i am an american chef that also loves fishing": a like said of who the person is
  ['interest.who-loves', rx`^i am (?:a|an) (?:[a-z]+ ){1,4}(?:that|who) ${ADV}(?:loves|likes|enjoys)\\s+(.+)$`, 0.85],
]

// "pet" followed by a word is no pet of its own: "a pet clown fish" reads on to the fish
// a word that ends in "y" takes "ies" in the plural ("my huskies")
const PET_ALT = [...PET_WORDS]
  .sort((a, b) => b.length - a.length)
  .map((word) => (word === 'pet' ? 'pet(?! [a-z])' : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}(?:y|ies)` : word))
  .join('|')
/** A number of pets, in words or digits, with how near it is: "three", "12", "more than ten", "over a dozen". */
const PET_NUMBER =
  '(?:(?:more than|less than|fewer than|over|about|around|almost|nearly|at least) )?' +
  '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|a dozen|\\d+)'
/** How many pets: "a", "two", "a couple of", "3", "more than ten". */
const PET_COUNT =
  `(?:a lot of |a bunch of |a few |a couple (?:of )?|a |an |${PET_NUMBER} |several |some |many |lots of |` +
  'plenty of )?'
const PET_HAVE = re(
  `\\b(i|we) ${ADV}(?:have|own|got|adopted|rescued|have got|brought home|keep|raise|take care of|foster) ` +
    `${PET_COUNT}` +
    `((?:[a-z-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`,
)
const PET_GENERIC = rx`\\b(?:i|we) ${ADV}(?:have|own) (?:a |an |two |three |\\d+ )?pet ([a-z]+)`
/** "two cats and a dog": each pet counted, with its modifiers (1) and the pet (2). Built once: the list is long. */
const COUNTED_PETS = new RegExp(
  `\\b(?:a|an|${PET_NUMBER}|some)\\s+((?:[a-z-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`,
  'g',
)
const MY_PET = rx`\\b(?:my|our) ((?:[a-z0-9-]+ ){0,2}?)(?:pet )?(${PET_ALT})(?:s|es)?\\b`
/** "(my cats) and dogs": a second pet (1) that the same "my" owns. */
const AND_PET = rx`^ (?:and|&) (?:my )?(${PET_ALT})(?:s|es)?\\b`
/** "my only pet is a cow", "our pets are two rabbits": the pet (2), after its count and modifiers (1). */
const MY_PET_IS = new RegExp(
  `\\b(?:my|our) (?:only |first |new )?pets? (?:is|are) ${PET_COUNT}((?:[a-z-]+ ){0,2}?)(${PET_ALT})(?:s|es)?\\b`,
)
/** What follows a pet that names a trade with pets, not one: "a dog walking business", "a cat sitting service". */
const PET_TRADE = /^ (?:[a-z]+ing )?(?:business|service|company|shop|store|salon|agency)\b/
const NOT_PET_CONTEXT =
  /\b(?:no|not|never|allergic|afraid|scared|died|dead|passed away|lost|ran away|put down|miss|used to)\b/

const ACTIVITY_VERBS = [
  'cook|bake|grill|garden|walk|workout|knit|paint|draw|sew|hike|swim|surf|ski|snowboard|dance|sing|run|jog|fish|hunt',
  'camp|bike|cycle|climb|skate|golf|bowl|meditate|write|travel|kayak|crochet|quilt|sketch|box|wrestle|row|sail|blog',
  'vlog|volunteer|work out|exercise|lift weights|act|sculpt|tinker|skateboard|rollerblade|scrapbook|birdwatch|backpack',
  'canoe|dive|fence|juggle|ride horses|ride my bike|compose music|rap|sketch|play music|take|party|shop for|ride',
  'produce music|make music|make beats|produce beats|gamble',
].join('|')
const ACTIVITY_VERB_SET = new Set(ACTIVITY_VERBS.split('|'))

/** A pastime said by a verb of two words ("work out", "ride horses"); none on the way to work or school. */
function phrasalPastime(verb: string, rest: string, after: string): Item[] {
  // "i work out of my house": where the work is done
  if (/\bto (?:work|school|college|class|the office)\b/.test(after) || /^ of\b/.test(after)) return []
  // "i make beats", "i produce music": music made, not heard ("make music videos" is something else)
  if (/^(?:make|produce) (?:music|beats)$/.test(`${verb} ${rest}`))
    return /^ videos?\b/.test(after) ? [] : [{ category: 'music', value: 'music production', weight: 1 }]
  return verbItems(verb, rest)
}

/** "i vacation at the beach", "we summer in maine": where (1). */
const VACATION_AT = rx`\\b(?:i|we) ${ADV}(?:vacation|holiday|summer|winter) (?:at|in|on) (.+)$`
/** "i do follow football", "i keep up with the nba": a sport (1) followed. */
const FOLLOW_SPORT = new RegExp(pattern`\bi ${ADV}(?:follow|keep up with|am following) (?:the )?
  ([a-z0-9]+(?: [a-z]+)?)(?=$|,| (?:and|but|so|on|a lot|closely|religiously|every|too)\b)`)
/** Dances whose first word is a verb or an adjective as well: "i line dance", "i swing dance". */
const DANCE_WORDS = new Set(['line', 'swing', 'break', 'tap', 'square', 'street', 'folk'])
/** What a word before "dance" is when it names no dance: "i also dance", "i can dance", "i love to dance". */
const NOT_A_DANCE = '(#Adverb|#Verb|#Modal|#Pronoun|#Adjective|#Preposition|#Conjunction|#Determiner)'
/** "i rock climb", "i line dance": the noun (1) and the verb (2) of a pastime of two words. */
const COMPOUND_VERB = rx`\\bi ${ADV}([a-z]+) (climb|dance|skate|dive|watch|fish|surf|ski|jump|board|ride|hunt|sail)\\b`

/** Adds interest items at `base` confidence (times each item's weight), restoring the case of names and titles. */
export function addItems(items: Item[], ctx: RuleContext, base: number, rule: RuleId, span?: Span): void {
  for (const it of items) {
    const named =
      it.category === 'travel' || it.category === 'music' || it.category === 'books' || it.category === 'movies_tv'
    // place and people names written in lower case get capitals ("paris" -> "Paris", "taylor swift" -> "Taylor Swift")
    const proper =
      named &&
      /^[a-z]/.test(it.value) &&
      !/^the\s/.test(it.value) &&
      nlpHas(it.value, it.category === 'travel' ? '^#Place+$' : '^#Person+$')
    const value = named ? ctx.cases.restore(it.value, proper) : it.value
    ctx.acc.addInterest(it.category, value, base * it.weight, rule, span)
  }
}

/** "my favorite food is pizza", "my all-time favorite band has to be queen": the head (1) and the value (2). */
const MY_FAVORITE_IS = new RegExp(pattern`\bmy (?:(?:all[- ]time|absolute|very|most|top|current|personal|new|biggest) )*
  (?:favorites?|preferred|go-to|go to)(?: (.+?))? (?:is|are|has to be|have to be|would be|=|:|of all time is) (.+)$`)
/**
 * "i am watching my favorite movie star wars": the clause splits before "my" (splitClauses), so the title follows its
 * kind with no verb; head (1) and value (2) as above. Not a compound the kind opens ("my favorite movie night").
 */
const MY_FAVORITE_NAMED = new RegExp(pattern`^my (?:all[- ]time )?favorites? (movie|film|show|series|book|novel|album|
  game|band),? (?!(?:theaters?|theatres?|nights?|genres?|characters?|quotes?|lines?|scenes?|series|franchise|studio|
  store|shop|club|tonight|today|now|again|lately|of|ever|right|at|to|for|in|is|are|was|were|has|had|would|will)\b)
  ([a-z0-9].*)$`)
/** "i think the best movie is mean girls": a favorite said as the best of its kind, head (1) and value (2). */
const BEST_IS = new RegExp(pattern`^(?:i think |imo |honestly |personally )?the (?:best|greatest) (movie|film|show|
  series|book|novel|band|song|album|singer|food|sport|game|team|drink)(?: ever| of all time| in the world)? is (.+)$`)
/**
 * "horror movies are my favorite", "pizza is one of my favorite foods", "sushi is my other favorite": the value (1) and
 * the head (2).
 */
const IS_MY_FAVORITE = new RegExp(pattern`^(.+?) (?:is|are) (?:definitely |probably |also |still |easily )?(?:one of )?
  my (?:(?:all[- ]time|absolute|very|most|top|other|second) )*(?:favorites?|preferred)(?:\s+([^,]+?))?(?:,.*)?$`)
/** "a favorite of mine", "another all-time fave of mine": said as "my favorite", with its degree (1). */
const FAVORITE_OF_MINE = /\b(?:a|another) ((?:all[- ]time |real |personal |big )?)(?:favou?rite|fave|fav) of mine\b/
/** "painting is my passion", "baking is a guilty pleasure of mine": the value (1), and an empty head (2). */
const IS_MY_PASSION =
  new RegExp(pattern`^([a-z][a-z ,'-]+?) (?:is|are) (?:really |definitely |truly )?(?:(?:my|a) (?:passion|
  hobby|hobbies|thing|jam|obsession|guilty pleasure|love|first love|true love|happy place|escape)(?: of mine)?|
  the loves? of my life)()(?=,|$)`)

/** "my hobby is fishing", "my main passions are hiking and baking": the value (1), and an empty head (2). */
const MY_PASSION_IS = new RegExp(pattern`\bmy (?:(?:main|biggest|big|new|latest|current|only|greatest|true|real|
  newest|other) )?(?:hobby|hobbies|passion|passions|obsession) (?:is|are|has to be|would be|these days is|
  right now is|lately is) (.+)$()`)

/**
 * Words a favourite film or book cannot open or end with: what points elsewhere ("it", "that one"), says nothing yet
 * ("something with action", "hard to say") or is cut off ("the").
 */
const NOT_TITLE_START = new RegExp(pattern`^(?:it|that|this|those|these|one|ones|the one|any|anything|something|
  everything|nothing|whatever|too|so|hard|tough|probably|either|your|yours|mine|same|the same|not|no)\b`)
const NOT_TITLE_END = /\b(?:the|a|an|of|and|or|to|with|in|on|for|by|is|was|my|your)$/

/**
 * A film's or a book's title said in lower case with words of any kind: "clueless", "friday", "old yeller". Its start
 * is checked with every title's (NOT_TITLE_START, in ruleFavorite).
 */
const readsAsTitle = (item: string) => item.split(' ').length <= 6 && !NOT_TITLE_END.test(item) && /[a-z]{3}/.test(item)

/** "..., my favorite color": an aside that calls what came before a favorite of a kind (1). */
const FAVORITE_ASIDE = /^(?:(.*?),? )?my (?:all time )?favorite (colou?r|[a-z]+)(?: ever| of all time)?$/

/**
 * "new kids on the block, my favorite", "spiderman has always been my favorite": a phrase (1, or the clause before)
 * called a favorite with no kind ("x is my favorite" is ruleFavorite's).
 */
const BARE_FAVORITE = new RegExp(pattern`^(?:(.+?)(?:,? (?:has (?:always )?been|have (?:always )?been|was|were|
  will always be)|,)? )?(?:definitely |totally |always )?my (?:all time )?(?:favorite|fave|fav)$`)
/** A phrase of up to five words. */
const LIKED_PHRASE = /^(?:[a-z'-]+ ){0,4}[a-z'-]+$/
/** A phrase that is a clause or points elsewhere, not a thing: "i am", "that is", "it", "spiderman has". */
const NOT_A_LIKED_PHRASE = new RegExp(pattern`^(?:i|we|you|he|she|they|it|that|this|there|what|which|who|mine|yours|
  one|the one)\b|\b(?:is|are|was|were|has|have|been|be)\b`)

/**
 * "i painted the kitchen red, my favorite color": the aside as a clause of its own, "my favorite color is red", after
 * the words before it in the clause (if any). The favorite is the last word or two before the aside, when the
 * lexicons know it as a thing of the aside's kind. Undefined when the clause is no such aside.
 */
export function favoriteAside(text: string, before: string | undefined): string[] | undefined {
  // "new kids on the block, my favorite": a short phrase called a favorite with no kind is liked
  const bare = BARE_FAVORITE.exec(text)
  const liked = bare ? (bare[1] ?? before) : undefined
  if (liked && LIKED_PHRASE.test(liked) && !NOT_A_LIKED_PHRASE.test(liked)) return [`i love ${liked}`]
  const aside = FAVORITE_ASIDE.exec(text)
  const said = aside?.[1] ?? before
  if (!aside || !said) return undefined
  const head = aside[2]!
  const kind = /^colou?r$/.test(head) ? 'other' : FAVORITE_HEADS[singular(head)]
  const words = said.split(' ')
  const candidates = [words.slice(-2).join(' '), words.at(-1)!]
  const favorite = kind ? candidates.find((c) => lookupExact(c) === kind) : undefined
  if (!favorite) return undefined
  const stated = `my favorite ${head} is ${favorite}`
  return aside[1] ? [aside[1], stated] : [stated]
}

/** "i really liked it", "i do it in all my spare time": a liking (1) or doing (2) of what "it" points back to. */
const LIKED_IT = new RegExp(pattern`^(?:i )?(?:really |truly |absolutely |just |also |totally )?(?:(love|loved|like|
  liked|enjoy|enjoyed|adore|adored)|(do|did)) (?:it|them)(?: (?:so much|a lot|very much|too|as well|all the time|
  every day|in (?:all )?my (?:spare|free) time))*$`)
/** A clause about something done, that "it" may point back to: "i tried yoga last week", "about to go gambling". */
const DONE_BEFORE =
  new RegExp(pattern`^(?:(?:i|we) |you should (?:learn to |try to |really )?|(?:have|did|do) you (?:ever )?)?
  (?:just |finally |recently |first |also )?
  (?:tried|started|took up|
  picked up|got into|went|go|going|am going|do|did|played|play|have been|been|about to go|watched|saw|read|
  listened to|took)\b`)

/**
 * "i tried yoga last week. i really liked it": "i like yoga". The pastime is the last one the lexicons know in the
 * clause before, which tells of something done; undefined when there is none ("i bought a new car. i love it").
 */
export function likedOfBefore(before: string, text: string): string | undefined {
  const liked = LIKED_IT.exec(text)
  // "i do not like golf. i love it": a clause that denies points at nothing liked
  if (!liked || !DONE_BEFORE.test(before) || /\b(?:not|never|no)\b/.test(before)) return undefined
  // a title is left out ("the office" is a show or a place), and so is a kind of event when a word before it says
  // what it was of ("a jazz concert")
  const span = lastKnownSpan(
    before,
    (said, kind, start) => POINTED_KINDS.has(kind) && !(EVENT_WORD.test(said) && start > 0),
  )
  if (!span) return undefined
  // "loved" -> "love": the liking holds now; doing it in one's spare time is a liking too
  return liked[1] ? `i ${PRESENT_LIKE[liked[1]] ?? liked[1]} ${span}` : `i enjoy ${span}`
}

/** "my friend hates sushi", "sarah said she does not like jazz": someone else's dislike that "but i love it" turns. */
const SOMEONE_DISLIKES = new RegExp(pattern`^(?:[a-z]+ (?:said|says|thinks) )?(?:my [a-z]+|our [a-z]+|(?!i\b)[a-z]+)
  \s(?:really )?(?:hates?|dislikes?|(?:does|do) not (?:like|love|enjoy)|can not stand|is not (?:a fan of|into))\b`)

/** "my friend hates sushi but i love it": "i love sushi". Undefined when the clause before names no such pastime. */
export function contrastedLike(before: string, text: string): string | undefined {
  const liked = LIKED_IT.exec(text)
  if (!liked?.[1] || !SOMEONE_DISLIKES.test(before)) return undefined
  const words = before.split(' ')
  // "my mom hates my car": a thing someone has is no pastime
  const owned = (start: number) => /^(?:my|our|your|his|her|their)$/.test(words[start - 1] ?? '')
  const span = lastKnownSpan(
    before,
    (_said, kind, start) => (POINTED_KINDS.has(kind) || kind === 'movies_tv') && !owned(start),
  )
  return span ? `i ${PRESENT_LIKE[liked[1]] ?? liked[1]} ${span}` : undefined
}

/** "(my boyfriend is obsessed with formula 1 and) i kind of got into it too": a liking taken up of "it". */
const GOT_INTO_IT =
  new RegExp(pattern`^i (?:kind of |sort of |also |really |eventually |finally )?(?:(?:got|am|have been)
  \s(?:into|hooked on)|(?:started|began) (?:playing|watching|reading|doing|listening to)) (?:it|them)(?: too| as well|
  \snow)?$`)
/** A clause that says someone likes something: "my boyfriend is obsessed with formula 1", "my kids love lego". */
const SOMEONE_LIKES = new RegExp(pattern`^(?:i|we|my [a-z]+|our [a-z]+|[a-z]+) (?:is|are|was|were|has been|have been)
  \s(?:really |so |totally )?(?:obsessed with|into|crazy about|hooked on|(?:a )?(?:big |huge )?fans? of)\b|
  ^(?:my|our) [a-z]+ (?:really )?(?:loves?|likes?|enjoys?|adores?)\b`)

/** "my boyfriend is obsessed with formula 1 and i got into it too": "i got into formula 1". */
export function gotIntoBefore(before: string, text: string): string | undefined {
  if (!GOT_INTO_IT.test(text) || !SOMEONE_LIKES.test(before) || /\b(?:not|never|no)\b/.test(before)) return undefined
  const span = lastKnownSpan(before, (_said, kind) => POINTED_KINDS.has(kind) || kind === 'movies_tv')
  return span ? `i got into ${span}` : undefined
}

/**
 * The last run of one to three words of `clause` that the lexicons know and `accepts` takes (given the run, its kind
 * and the index of its first word), the longest first at each end: what "it" or "which" in the clause after points
 * back to. Undefined when there is none.
 */
function lastKnownSpan(
  clause: string,
  accepts: (span: string, kind: string, start: number) => boolean,
): string | undefined {
  const words = clause.split(' ')
  for (let end = words.length; end > 0; end--) {
    for (let size = Math.min(3, end); size >= 1; size--) {
      const span = words.slice(end - size, end).join(' ')
      const kind = lookupExact(span)
      if (kind && accepts(span, kind, end - size)) return span
    }
  }
  return undefined
}
/** "it is my favorite sport ever": a favorite of a kind said (1), of something "it" points back to. */
const IT_IS_MY_FAVORITE = new RegExp(pattern`^(?:but |and |so )?(?:it|that|they|those) (?:is|are|was|were)
  \s(?:also |so |really |definitely |probably |still )?(?:my|one of my) (?:all time |all-time |absolute )?
  (?:fav|fave|favou?rite)s? ([a-z]+)(?: ever| of all time| by far)?$`)

/**
 * "do your kids like gymnastics? it is my favorite sport ever": "my favorite sport is gymnastics". The favorite is
 * the last thing of the kind said in the clause before, in the lexicons; undefined when there is none ("i saw a
 * movie. it is my favorite sport" names nothing).
 */
export function favoriteOfKindBefore(before: string, text: string): string | undefined {
  const favorite = IT_IS_MY_FAVORITE.exec(text)
  const head = favorite ? singular(favorite[1]!) : ''
  const kind = FAVORITE_HEADS[head]
  if (!kind || !POINTED_KINDS.has(kind)) return undefined
  const span = lastKnownSpan(before, (_said, spanKind) => spanKind === kind)
  return span ? `my favorite ${head} is ${span}` : undefined
}
/** "which i love to eat": a liking (1) of what "which" points back to, done as a verb (2) if said. */
const WHICH_I_LIKE = new RegExp(pattern`^(?:which|that) i (?:really |also |just |absolutely )?(love|like|enjoy|adore)
  (?: to (eat|drink|watch|play|listen to|read|cook|bake|make|do))?(?: so much| a lot| very much| too)?$`)

/**
 * "they have good fish and chips here, which i love to eat": "i love fish and chips". What is liked is the last thing
 * the lexicons know in the clause before; undefined when there is none.
 */
export function likedWhichBefore(before: string, text: string): string | undefined {
  const liked = WHICH_I_LIKE.exec(text)
  // "i bought a new car, which i love": a thing owned, liked as such
  if (!liked || /\b(?:i|we) (?:just |finally )?(?:bought|got|have|had|own|purchased|found|received)\b/.test(before))
    return undefined
  // food is eaten, a show watched; a verb not listed takes any kind
  const wanted = liked[2] ? VERB_KINDS[liked[2]] : undefined
  const span = lastKnownSpan(before, (_said, kind) => kind !== 'other' && (!wanted || wanted === kind))
  return span ? `i ${liked[1]} ${span}` : undefined
}
const VERB_KINDS: Record<string, string> = {
  eat: 'food',
  drink: 'food',
  cook: 'food',
  bake: 'food',
  watch: 'movies_tv',
  read: 'books',
  'listen to': 'music',
}

/** "tacos i just like": a thing (1) said before the person's liking (2) of it. */
const FRONTED_LIKE =
  /^([a-z][a-z' ]{0,40}?) i (?:just |really |also |do |totally |absolutely )?(like|love|enjoy|adore)$/

/** "tacos i just like": "i like tacos", when the lexicons know the thing; undefined for anything else. */
export function frontedLike(text: string): string | undefined {
  const fronted = FRONTED_LIKE.exec(text)
  return fronted && lookupExact(fronted[1]!) ? `i ${fronted[2]} ${fronted[1]}` : undefined
}

/** "i eat a lot of it": eating or drinking (1) of what "it" points back to. */
const EATS_IT =
  new RegExp(pattern`^i (?:really |also |just )?(eat|drink|love eating|love drinking)(?: a lot of| lots of|
  \stons of)? (?:it|them)(?: a lot| all the time| every day| too)?$`)

/**
 * "i am not allergic to papaya, i eat a lot of it": "i eat papaya". The food is the last one the lexicons know in the
 * clause before; undefined when there is none.
 */
export function eatenOfBefore(before: string, text: string): string | undefined {
  const eats = EATS_IT.exec(text)
  const span = eats ? lastKnownSpan(before, (_said, kind) => kind === 'food') : undefined
  return eats && span ? `i ${eats[1]} ${span}` : undefined
}

/** A clause that only narrows the one before: "especially spaghetti" (1). */
const NARROWED =
  /^(?:especially|specifically|particularly|in particular)\s+(?!(?:just|to|when|if|because|since|do|it|i|you)\b)(.+)$/
/** A liking said in the clause before (2), by the person (1). */
const LIKE_BEFORE = new RegExp(pattern`^(i|we) (?:really |also |just |totally |absolutely )?(love|like|enjoy|adore)
  \s(?!it\b|that\b|this\b|them\b|you\b)`)

/**
 * "i love food. specifically spaghetti": "i love spaghetti". The clause before says what the person likes; the
 * fragment after it narrows it. Undefined for anything else, and after a denial ("i do not like food").
 */
export function narrowedLike(before: string, text: string): string | undefined {
  const narrowed = NARROWED.exec(text)
  const liked = narrowed ? LIKE_BEFORE.exec(before) : null
  return liked ? `${liked[1]} ${liked[2]} ${narrowed![1]}` : undefined
}
const POINTED_KINDS = new Set(['hobbies', 'sports', 'music', 'food'])
const EVENT_WORD = /^(?:concerts?|shows?|games?|class(?:es)?|lessons?|matches)$/
const PRESENT_LIKE: Record<string, string> = { loved: 'love', liked: 'like', enjoyed: 'enjoy', adored: 'adore' }

/** When a favourite holds, said after its kind: "(my favorite show) right now", "(my favorite band) of all time". */
const FAVORITE_WHEN = /\s+(?:right now|at the moment|currently|lately|these days|of all time|ever|so far|atm|rn)$/

/** "my favorite food is pizza", "horror movies are my favorite", "my favorite thing to do is hike". */
function ruleFavorite(clause: ClauseInfo, ctx: RuleContext): boolean {
  const text = clause.text.replace(FAVORITE_OF_MINE, 'my $1favorite')
  let head: string | undefined
  let value: string | undefined
  let rule: RuleId = 'interest.my-favorite-is'
  let match = MY_FAVORITE_IS.exec(text) ?? MY_FAVORITE_NAMED.exec(text)
  if (!match) {
    match = BEST_IS.exec(text)
    if (match) rule = 'interest.best-is'
  }
  // "my favorite show right now is severance": when the favourite holds is no part of its kind
  if (match) [head, value] = [match[1]?.replace(FAVORITE_WHEN, ''), match[2]]
  // "my favorite is pizza" names the favourite's kind by the value; "my go-to is pizza" leaves it open
  if (match && head === undefined && !/\bfavorite/.test(match[0])) return false
  if (!match) {
    rule = 'interest.is-my-favorite'
    match = IS_MY_FAVORITE.exec(text)
    // "i also do gymnastics it is my fave": a clause of the person's run on into "it is my favorite", which the
    // other rules read
    if (match && /\bi\b/.test(match[1]!) && /\s(?:it|that|this|they)$/.test(match[1]!)) return false
  }
  if (!match) {
    rule = 'interest.is-my-passion'
    match = IS_MY_PASSION.exec(text) ?? MY_PASSION_IS.exec(text)
  }
  if (match && !value) [head, value] = [match[2] ?? '', match[1]]
  // "kind of ashamed to admit that mean girls is my fave": the favourite is the subject after "that"
  if (rule === 'interest.is-my-favorite' && value) value = value.replace(/^.*\b(?:admit|say|think|guess) that /, '')
  // "his uniform is my favorite color": the favourite is a color said of someone else's thing, no interest
  if (!match || value === undefined || /^(?:his|her|their|your|its)\b/.test(value)) return false
  const past = /\bwas\b/.test(text)
  const conf = past ? 0.6 : 0.9
  const headText = (head ?? '')
    .replace(/\b(?:kind|type|sort|genre|style|brand|flavor) of\s+/, '')
    .replace(/^(?:thing|things|activity|activities|way)\b/, 'thing')
    .replace(/\s+(?:ever|of all time)$/, '')
    .trim()
  const toVerb = /\bto (eat|drink|cook|watch|read|listen to|play|visit|go|do|see)\b/.exec(headText)?.[1]
  const headWord = singular(
    headText
      .replace(/\s+to\s+.*$/, '')
      .split(' ')
      .pop() ?? '',
  )
  let category: string | undefined = FAVORITE_HEADS[headWord]
  if (toVerb === 'eat' || toVerb === 'drink' || toVerb === 'cook') category = 'food'
  else if (toVerb === 'watch') category = category === 'sports' ? 'sports' : 'movies_tv'
  else if (toVerb === 'read') category = 'books'
  else if (toVerb === 'listen to') category = 'music'
  else if (toVerb === 'visit' || toVerb === 'go') category = 'travel'
  const said = value.replace(/^(?:definitely|probably|easily|either|by far)\s+/, '')
  // "my baking is the love of my life": the pastime, without the "my" that says it is the person's
  const raw = rule === 'interest.is-my-passion' ? said.replace(/^my\s+/, '') : said
  if (category === 'hobbies' || (!category && (!headText || /^thing/.test(headText)))) {
    const items = interpretObject(raw, toVerb === 'play' ? 'play' : undefined)
    // "Attack on Titan is my favorite": a title of two words or more that no lexicon knows, of no kind it says
    const title = headText || items.some((item) => item.weight === 1) ? undefined : titleAt(raw, ctx)
    if (title?.includes(' ')) ctx.acc.addInterest('other', title, conf * 0.8, rule, match)
    else addItems(items, ctx, conf, rule, match)
    return true
  }
  if (!category) {
    // "my favorite shirts are ...": an unknown kind of thing; keep short values under "other"
    for (const item of splitList(cutPhrase(raw))) {
      const noun = classifyNoun(item, 'other', 0.8)
      if (noun && noun.value.split(' ').length <= 3)
        ctx.acc.addInterest(noun.weight === 1 ? noun.category : 'other', noun.value, conf * 0.8, rule, match)
    }
    return true
  }
  // "pizza with black olives", "coffee with cream": a dish with what goes on it is one food
  const dish =
    category === 'food'
      ? /^(?:a |an |the )?([a-z]+(?: [a-z]+)?) (with|and) ([a-z]+(?: [a-z]+)?)$/.exec(raw.replace(/[.!?]+$/, '').trim())
      : null
  if (
    dish &&
    dish[2] === 'with' &&
    classifyNoun(dish[1], 'food', 1)?.category === 'food' &&
    !/\b(?:my|friends|family|kids|everyone)\b/.test(dish[3])
  ) {
    ctx.acc.addInterest('food', `${dish[1]} with ${dish[3]}`, conf, rule, match)
    return true
  }
  const titled = category === 'books' || category === 'movies_tv' || category === 'music'
  // titles keep their words ("the who", "gone with the wind"): cut only at punctuation and clause words
  const cutRaw = titled
    ? raw
        .replace(
          /\s*[,.!?;].*$|\s(?:because|since|but|and i|so i|as it|lol|haha|by far|of all time|again|tonight)\b.*$/,
          '',
        )
        .split(' ')
        .slice(0, 7)
        .join(' ')
    : cutPhrase(raw)
  for (const item of titled ? [cutRaw] : splitList(cutRaw)) {
    const noun =
      classifyNoun(item, category, 1) ??
      (titled && /^the \S/.test(item) ? { category, value: item, weight: 0.9 } : undefined) ??
      (titled && category !== 'music' && readsAsTitle(item) ? { category, value: item, weight: 0.8 } : undefined)
    if (!noun || (titled && NOT_TITLE_START.test(item))) continue
    const asTitle = category === 'books' || category === 'movies_tv' || (category === 'music' && noun.weight < 1)
    const title = asTitle ? item.replace(/^(?:a|an|my)\s+/, '').trim() : noun.value
    ctx.acc.addInterest(category, ctx.cases.restore(title), conf, rule, match)
  }
  return true
}

const PET_MODIFIERS = new Set(
  `old new little big sweet cute lovely beloved adorable two three four five black white brown grey gray orange golden
  baby rescue rescued senior young first fat lazy fluffy tiny small large giant huge crazy silly spoiled adopted pet
  female male boy girl furry miniature mini pure purebred bred mixed breed pit german therapy service support emotional
  show guard family farm working few couple several many only dozen`.split(/\s+/),
)
const modifiersOnly = (s: string) =>
  s
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .every((word, position, words) => {
      if (PET_MODIFIERS.has(word) || /^\d+$/.test(word) || /(?:ian|ese|ish)$/.test(word)) return true
      // "pet clown fish": the word after "pet" names the kind
      if (words[position - 1] === 'pet') return true
      const tags = termsOf(word)[0]?.tags ?? []
      // "a very grumpy parrot"
      return (tags.includes('Adjective') || tags.includes('Adverb')) && !tags.includes('Noun')
    })

/** "i am a dog mom to two huskies", "proud cat dad": the kind (1) of a pet parent, and of what pets (2) if said. */
const PET_PARENT = new RegExp(pattern`^i am (?:a |the )?(?:proud |crazy |)?(dog|cat) (?:mom|mum|mama|dad|papa|
  parent|mother|father)\b(?: (?:to|of) (.+))?`)

/** After "have": a past participle, which makes it an auxiliary ("i have needed"), unless the verb keeps pets. */
const NOT_AUXILIARY_HAVE = pattern`(?! (?!(?:adopted|rescued|owned|fostered|raised|bred)\b)(?:[a-z]+ed|been|seen|
  done|gone|known|heard|made|found|thought|told|given|taken|said|spent|met)\b)`

function rulePets(clause: ClauseInfo, ctx: RuleContext): void {
  const text = clause.text
  if (NOT_PET_CONTEXT.test(text)) return
  const parent = PET_PARENT.exec(text)
  if (parent) {
    // the pets named after "to" are the person's, as if said with "i have"
    const before = ctx.acc.taken
    if (parent[2]) rulePets({ ...clause, text: `i have ${parent[2]}` }, ctx)
    if (ctx.acc.taken === before) ctx.acc.addInterest('pets', parent[1]!, 0.85, 'interest.pet-parent', parent)
    return
  }
  // "i have needed a good movie ... that is two birds with one stone": "have" before another verb owns nothing
  const have = rx`\\b(i|we) ${ADV}(?:have|own|got|adopted|rescued|have got|brought home)\\b${NOT_AUXILIARY_HAVE}`.exec(
    text,
  )
  if (have) {
    // "i have a sister who has a dog": the pets of a person the clause names are theirs
    const rest = withoutPeopleClause(text.slice(have.index))
    let found = false
    for (const p of rest.matchAll(COUNTED_PETS)) {
      // "i have a pet": no kind of pet said
      if (modifiersOnly(p[1]) && p[2] !== 'pet' && !PET_TRADE.test(rest.slice(p.index + p[0].length))) {
        ctx.acc.addInterest('pets', singular(p[2]), have[1] === 'we' ? 0.75 : 0.9, 'interest.pet-have-a', p)
        found = true
      }
    }
    if (found) return
  }
  let match = PET_HAVE.exec(text)
  const trade = match && PET_TRADE.test(text.slice(match.index + match[0].length))
  if (match && !trade && modifiersOnly(match[2]) && match[3] !== 'pet') {
    ctx.acc.addInterest('pets', singular(match[3]), match[1] === 'we' ? 0.75 : 0.9, 'interest.pet-have', match)
    return
  }
  // "two cats live with me"
  match = PET_LIVES_WITH_ME.exec(text)
  if (match) ctx.acc.addInterest('pets', match[2], 0.8, 'interest.pet-lives-with-me', match)
  match = PET_GENERIC.exec(text)
  // "i have a pet snake", not "i have a pet though"
  if (match && lookup(singular(match[1]!))?.category === 'pets') {
    ctx.acc.addInterest('pets', singular(match[1]), 0.85, 'interest.pet-have-pet-x', match)
    return
  }
  match = MY_PET_IS.exec(text)
  if (match && modifiersOnly(match[1]!)) {
    ctx.acc.addInterest('pets', singular(match[2]!), 0.85, 'interest.pet-my', match)
    return
  }
  for (const mention of petsOwned(text)) ctx.acc.addInterest('pets', mention.pet, 0.7, 'interest.pet-my', mention.span)
}

/** The pets "my" names: "my cat", and each of "my cats and dogs". */
function petsOwned(text: string): PetMention[] {
  const found: PetMention[] = []
  for (const p of text.matchAll(re(MY_PET.source, 'g'))) {
    if (p[2] === 'pet' || !modifiersOnly(p[1]!)) continue
    found.push({ pet: singular(p[2]!), span: p[0] })
    const next = AND_PET.exec(text.slice(p.index + p[0].length))
    if (next && next[1] !== 'pet') found.push({ pet: singular(next[1]!), span: `${p[0]}${next[0]}` })
  }
  return found
}

/** A loss or a past: "i miss my dog", "my cat died", "i used to walk my dog" say no pet is there now. */
const PET_GONE = /\b(?:died|dead|passed away|passed on|lost|ran away|put down|put to sleep|miss|missed|used to|gone)\b/

/** A pet the person names in passing: the pet and the words that name it. */
export interface PetMention {
  pet: string
  span: Span
}

/**
 * The pets one clause of the person's own names in passing, whatever else it says ("can you watch my cats?", "i can
 * not leave my cats alone", "i guess you can afford more than my pet fish"): "my dog" says the person has a dog. A
 * relative's or a friend's pet ("my sister's cat") is not, and neither is one in a clause of a loss.
 */
export function petMentions(text: string): PetMention[] {
  if (!/\b(?:my|our) /.test(text) || PET_GONE.test(text)) return []
  return petsOwned(text)
}

/** The pets named in passing, below a pet the person says they have (0.7 and up). */
export function addPetMentions(mentions: readonly PetMention[], ctx: RuleContext): void {
  for (const mention of mentions) ctx.acc.addInterest('pets', mention.pet, 0.6, 'interest.pet-mention', mention.span)
}

/** "two cats live with me": the modifiers (1) and the pet (2). */
const PET_LIVES_WITH_ME = new RegExp(
  `^(?:(?:a|an|one|two|three|four|five|my|\\d+) )?((?:[a-z-]+ )?)(${PET_ALT})(?:s|es)? ` +
    '(?:live|lives|lived) with (?:me|us)\\b',
)
/** "i do yoga", not "i do not", "i do a lot". */
const I_DO = new RegExp(
  `\\bi ${ADV}do (?!not\\b|so\\b|too\\b|it\\b|that\\b|this\\b|what\\b|well\\b|my\\b|the same\\b|same\\b|a lot\\b|` +
    'is\\b|anything\\b|nothing\\b|everything\\b)(.+)$',
)
/** "i can sew", "i know how to surf": the activity (1) and what follows (2). */
const I_CAN_DO = new RegExp(
  `\\bi ${ADV}(?:can|could always|know how to|am able to|am good at|am great at|learned (?:how )?to) ` +
    `(${ACTIVITY_VERBS})(?:ing)?\\b(.*)$`,
)
/** What one runs as work, not for sport: "my own business", "a small cafe", "the household". */
const RUN_AT_WORK = new RegExp(pattern`^(?:my|our|a|an|the) (?:own )?(?:[a-z-]+ ){0,2}(?:business|company|shop|store|
  restaurant|cafe|bar|farm|team|household|house|errands|department|office|practice|firm|clinic|channel|blog|podcast|
  campaign|show|site|website|bakery|salon|studio|agency|startup)\b`)
/** "i am training for a marathon": the event (1). */
const TRAINING_FOR = new RegExp(
  `\\bi (?:am|have been) ${ADV}training for (?:a |an |the |my (?:first |next )?)?(?:[a-z]+ ){0,2}?` +
    '(marathon|half marathon|triathlon|ironman|5k|10k|race|bike race|swim meet)\\b',
)
/** "i love spending time with my family": who with (1). */
const TIME_WITH_FAMILY = new RegExp(
  `\\bi ${ADV}(?:(?:love|like|enjoy|adore) (?:to )?)?(?:spend|spending) ` +
    '(?:quality |a lot of |lots of |all my |most of my |my )?(?:free |spare )?time with (?:my )?' +
    '(family|friends|kids|children|grandchildren|grandkids)\\b',
)
/** "i volunteer at the animal shelter": where (1). */
const VOLUNTEER_AT = new RegExp(
  `\\bi ${ADV}(?:volunteer|help out|do volunteer work|am volunteering|help) (?:at|in) (?:a |an |the |my |our )?` +
    '(?:local )?((?:[a-z]+ ){0,2}(?:shelter|bank|kitchen|hospital|church|library|school|zoo|museum|center|centre|' +
    'clinic|home|pantry|rescue|hospice))\\b',
)
/** What one reads about: "books", "journals", ... */
const READING_MATTER = '(?:books|novels|journals|articles|magazines|guides|stories|papers|blogs)'
/** "i read journals about psychology": the subject (1). */
const READ_ABOUT = new RegExp(
  `\\bi ${ADV}(?:read|like reading|love reading|enjoy reading|like to read|love to read)\\s+(?:[a-z]+ )?` +
    `${READING_MATTER}(?: and (?:[a-z]+ )?${READING_MATTER})? (?:about|on|related to|regarding) ([a-z][a-z ]+)$`,
)
/** "i grow tomatoes", "i grow roses in my garden". */
const I_GROW = new RegExp(
  `\\bi ${ADV}(?:grow|am growing|have grown) (?:my own |our own |some |a lot of )?(?:[a-z]+ )?` +
    '(?:vegetables|veggies|herbs|flowers|roses|tomatoes|tomatos|plants|fruit|fruits|tulips|orchids|succulents|' +
    'peppers|lettuce|potatoes|food)\\b',
)
/** "i listen to jazz", "i just sat down to listen to jazz", "listening to jazz": what (1). */
const LISTEN_TO = new RegExp(pattern`(?:\b(?:i|we) ${ADV}(?:listen|am listening|are listening|have been listening|
  been listening)|
  ^(?:just |currently )?listening|\bi (?:[a-z]+ ){1,4}to listen)\s+to\s+(.+)$`)
/** "i saw the rolling stones in concert": who (1). */
const SAW_IN_CONCERT = new RegExp(
  `(?:\\bi ${ADV}(?:see|saw|have seen|went to see|go to see|love seeing)|^(?:getting ready |going )?to see) (.+?) ` +
    '(?:in concert|live in concert|perform live|on tour)\\b',
)
/** "i am going to a taylor swift concert tomorrow": whose concert, or what kind of music (1). */
const CONCERT_OF = new RegExp(
  `(?:\\bi ${ADV}(?:am going|went|go|have been|got tickets|bought tickets|have tickets|am|was)|` +
    '\\bi (?:[a-z]+ ){1,6}going|^(?:just )?(?:going|got tickets|have tickets)) ' +
    "(?:to |for )(?:a |an |the |another )?([a-z][a-z'& ]{1,30}?) (?:concert|gig)s?\\b",
)
/** What a concert is, not whose: "a great concert", "the school concert", "my first concert". */
const NOT_A_PERFORMER = new RegExp(pattern`^(?:(?:really |very |so )?(?:great|good|big|huge|amazing|awesome|local|
  free|live|school|church|christmas|holiday|first|last|outdoor|small|charity|benefit|private|sold out|loud|fun|
  little|new|kids|band|music|rock and roll|summer|winter|spring|fall|weekend|late|lunchtime|evening|night))$`)
/** "i do a lot of hiking around colorado": the activity and what follows (1). */
const DO_A_LOT_OF = new RegExp(
  `\\bi ${ADV}(?:do|have done|have been doing) (?:a lot of|lots of|a bit of|a little|some|plenty of|tons of|` +
    'a ton of|loads of|quite a bit of|quite a lot of) ([a-z]+ing\\b.*)$',
)
/** "i coach my son's little league team", "i help coach a soccer team": the sport (1), before "team". */
const COACH_TEAM = new RegExp(pattern`\bi ${ADV}(?:coach|am coaching|have been coaching|have coached|coached|help coach|
  helped coach|am an assistant coach for|volunteer as (?:a |an )?(?:assistant )?coach for) (?:my [a-z]+'s |our |a |an |
  the |my [a-z]+ )?((?:[a-z-]+ ){1,2}?)teams?\b`)
/** "i run a small youtube channel about woodworking": what it is about (1). */
const CHANNEL_ABOUT = new RegExp(
  `\\bi ${ADV}(?:run|have|started|host|make|write|am starting|am running) (?:a |an |my (?:own )?|our )` +
    '(?:(?:small|little|tiny|new|popular|growing|weekly) )*(?:youtube channel|channel|blog|podcast|vlog|newsletter|' +
    'substack|website|instagram|tiktok|twitch channel) (?:about|on|for|dedicated to) (.+)$',
)
/** "i dm a d&d campaign", "i run a dnd group for friends": the game (1). */
const RUN_A_GAME = new RegExp(pattern`\bi ${ADV}(?:dm|gm|run|am running|have been running|ran|host|am hosting|
  am dming|have been dming|am the (?:dm|gm|dungeon master|game master) (?:for|of)) (?:a |an |our |my |the |two )?
  (?:(?:weekly|biweekly|monthly|new|long[- ]running|homebrew|online|small) )*(d&d|dnd|dungeons and dragons|
  tabletop|ttrpg|rpg) (?:campaigns?|games?|groups?|sessions?|one[- ]shots?)\b`)
/** Rules whose object counts only as an activity the lexicons know ("i do a lot of thinking" gives nothing). */
const KNOWN_ACTIVITY: [RegExp, number, RuleId][] = [
  // what a channel or a blog is about is what its maker cares about
  [CHANNEL_ABOUT, 0.75, 'interest.channel-about'],
  [DO_A_LOT_OF, 0.8, 'interest.do-a-lot-of'],
  [COACH_TEAM, 0.7, 'interest.coach-team'],
  [RUN_A_GAME, 0.8, 'interest.run-a-game'],
]
/** "i took up knitting": what (1). */
const TOOK_UP = new RegExp(
  `\\bi ${ADV}(?:started|began|have started|have begun|took up|have taken up|picked up|` +
    `(?:got|am getting|have ${ADV}gotten|have been getting) ${ADV}into) (.+)$`,
)
/**
 * "i spend most of my free time on reading", "i prefer spending my weekends fishing": on what (1, after "time"; 2, a
 * gerund after other spans of time).
 */
const SPEND_TIME = new RegExp(
  `\\bi ${ADV}(?:(?:love|like|enjoy|prefer) (?:to )?)?(?:spend|spending|spent) ` +
    '(?:a lot of |most of |all of |all |much of |lots of |some )?(?:my |the )?(?:free |spare |extra |leisure )?' +
    '(?:time (?:on |doing )?(.+)|(?:weekends|evenings|nights|mornings|afternoons|summers|winters|days off|sundays|' +
    'saturdays|morning|afternoon|evening|weekend|day|' +
    '(?:(?:\\d+|a few|two|three|four|five|six|many|several|countless) )?hours(?: a day| a week)?) ' +
    '((?:[a-z]+ing|at|in)\\b.*))$',
)
/** What the person eats or drinks (1). */
const EAT_DRINK = new RegExp(pattern`(?:\bi ${ADV}(?:eat|drink|am ${ADV}(?:eating|drinking|sipping)|can eat|could eat)|
  ^(?:just |currently |now )?(?:eating|drinking|sipping)|^all i (?:ever )?(?:eat|drink) (?:is|are))\s+(.+)$`)
/**
 * "doing ok, drinking some coffee", "i just ate a bowl of ramen", "i have eaten a dozen donuts": a food had now or
 * lately (1), weak evidence of a taste; only a food the lexicons know, as "having" and "had" take anything.
 */
const HAVING_FOOD = new RegExp(pattern`(?:^|\s)(?:(?:just|now|currently) )?(?:having|eating|drinking|sipping(?: on)?|
  munching on|snacking on)\s(.+)$|\bi ${ADV}(?:ate|had|drank|have eaten|have had|have been eating|have been drinking)
  \s(.+)$`)
/** A meal is when, not what: "i had dinner". */
const MEAL = /^(?:breakfast|brunch|lunch|dinner|supper|a meal|meals?|food|snacks?|something|dessert|drinks?)$/

/** The longest run of up to four words opening a phrase that the lexicons know as a food, but no meal. */
function knownFoodAtStart(phrase: string): string | undefined {
  const amount = /^(?:a |an |some )?(?:(?:only|just|mostly|mainly|nothing but|few|couple of|couple|more) )?/
  const words = phrase.replace(amount, '').split(' ')
  for (let n = Math.min(4, words.length); n > 0; n--) {
    const food = classifyNoun(words.slice(0, n).join(' '), 'other', 0.5)
    if (food?.category === 'food' && food.weight === 1) return MEAL.test(food.value) ? undefined : food.value
  }
  return undefined
}

/** "i have been to paris": where (1). */
const I_VISIT = new RegExp(
  `\\bi ${ADV}(?:visit|travel to|have been to|have visited|have traveled to|have travelled to|love visiting)` +
    '\\s+(.+)$',
)
/**
 * "before our trip to tokyo in april", "help me plan a trip to japan", "we are flying to italy next month", "just got
 * back from a week in lisbon": a place (1) the person is going to or went to; only a place the gazetteer knows.
 */
const TRIP_TO = new RegExp(pattern`\b(?:(?:my|our) (?:upcoming |next |first |big |last |recent )?(?:trip|vacation|
  holiday|honeymoon|getaway) to|(?:plan|planning|booked|booking|book|take|taking|going on|went on|took) (?:a|an|my|
  our) (?:[a-z0-9-]+ ){0,2}(?:trip|vacation|holiday|honeymoon|getaway) to|
  (?:i am|we are) (?:going to visit|visiting|(?:going|flying|heading|off) to)|
  (?:got|came|am|are|just) back from(?: (?:a|an|one|two|three|\d+|a few|our|my) (?:weeks?|months?|days?|weekend|
  trip|vacation|holiday|honeymoon) (?:in|to|at))?)(?: the)? ([a-z.'-]+(?: [a-z.'-]+){0,3})`)
/** "i have been on many cruises", "been on a few road trips": journeys (1) taken more than once. */
const BEEN_ON_TRIPS = new RegExp(pattern`(?:\bi (?:have )?|^)been on (?:many|a few|several|lots of|a lot of|so many|
  countless|\d+|two|three|four|five|ten) (cruises|road trips|safaris|camping trips|hiking trips|fishing trips|
  ski trips)\b`)
/** "she got me into eating papaya", "my dad got me into fishing": what the person was brought to like (1). */
const GOT_ME_INTO = /\bgot me (?:into|hooked on) (.+)$/
/** "i loved the time i spent in portugal", "i enjoyed my time in japan": a place (1) the person liked being in. */
const LOVED_TIME_IN = rx`\\bi ${ADV}(?:loved|enjoyed) (?:the|my) time (?:i spent |we spent )?in (.+)$`
/** One part of "i am ...": "a huge jazz fan", "a die-hard yankees fan": what of (1), and the word for fan (2). */
const FAN_OF = new RegExp(pattern`^(?:a |an )?(?:(?:big|huge|massive|die[- ]?hard|avid|real|true|total|complete|
  lifelong|long[- ]time) )*([a-z0-9][a-z0-9 '&-]*?) (fan|lover|enthusiast|buff|junkie|addict|fanatic|nut|aficionado|
  supporter|nerd|geek)(?: here| for life| btw| lol| haha| lmao| tbh)*(?: since [a-z0-9' ]{1,40})?$`)

/** "i take piano lessons", "i'm doing a pottery class", "signed up for a salsa course": what is learnt (1). */
const TAKES_CLASS = new RegExp(pattern`\bi ${ADV}(?:take|am taking|have been taking|am doing|do|signed up for|started|
  joined|am in|go to) (?:a |an |some |the )?((?:[a-z'-]+ ){0,2}[a-z'-]+) (?:lessons?|class(?:es)?|courses?|workshops?)
  \b`)
/** A subject of school or a kind of class, which is no pastime: "a math class", "an online course". */
const SCHOOL_SUBJECT = new RegExp(pattern`^(?:my|your|his|her|their|our|this|that|math|maths|english|history|science|
  biology|chemistry|physics|calculus|algebra|statistics|stats|econ|economics|online|night|evening|summer|college|
  university|required|intro|first|second|last|new|few|couple|lot)\b`)
/** "ted lasso is such a good show": a title (1) praised as what it is (2). */
const TITLE_PRAISED = new RegExp(pattern`^([a-z0-9][a-z0-9'&:-]*(?: [a-z0-9'&:-]+){0,5}?) (?:is|was|has been)
  (?: (?:such|so|really|truly|honestly|definitely|the|a|an|my|one|of|all-time|time|tv))*
  (?: (?:best|greatest|good|great|amazing|awesome|fantastic|favorite|favourite|fave|underrated|brilliant|incredible|
  perfect|classic|fun|funny))+ (show|series|sitcom|movie|film|book|novel|game|song|album|band|podcast|anime|manga)s?
  (?=$|,| ever\b| of all time\b| lol\b| honestly\b| and\b)`)
/** Subjects that are no title: "this is such a good show", "my dad is the best band dad". */
const NOT_A_TITLE_SUBJECT =
  /^(?:it|this|that|these|those|he|she|they|you|we|i|there|my|his|her|their|our|your|what|the thing|one thing)\b/

/** "i play in a rec volleyball league", "i'm on a bowling team": the sport (1) of a league or a team joined. */
const IN_A_LEAGUE =
  new RegExp(pattern`\bi ${ADV}(?:play in|play on|am in|am on|joined|am playing in|play for|have joined)
  (?: (?:a|an|the|my|our|this))?(?: (?:rec|recreational|local|company|office|work|adult|beer|amateur|weekend|pub|
  church|community|city|summer|winter|indoor|outdoor|coed|co-ed|competitive|casual|new))*
  \s([a-z]+(?: [a-z]+)?) (?:league|team|club)\b`)

/** "more of a sushi guy", "a beach person": a taste (1) said as the kind of person one is. */
const KIND_OF_PERSON = new RegExp(pattern`^(?:more of |kind of |kinda |definitely |totally |such |very much |
  always been |always )?(?:a|an) ([a-z][a-z'-]*(?: [a-z][a-z'-]*)?) (?:guy|girl|gal|dude|person|kind of (?:guy|
  girl|person))(?: myself| honestly| tbh| lol| at heart)*$`)

/**
 * Whether what a fan follows, written with capitals, reads as a sports team: a city's name ("Liverpool fan"), or of
 * no kind a lexicon knows and supported ("Arsenal supporter") or a plural ("Celtics", "Green Bay Packers").
 */
function isTeam(category: string, value: string, fanWord: string, ctx: RuleContext): boolean {
  const capitalised = (word: string) => ctx.cases.isCapitalised(word)
  // "arsenal supporter": people support a team, in whatever case chat writes it
  if (fanWord === 'supporter' && category === 'other') return true
  if (!/^(?:fan|supporter)$/.test(fanWord) || !value.split(' ').every(capitalised)) return false
  if (category === 'travel') return placeKind(value, capitalised) === 'city'
  return category === 'other' && (fanWord === 'supporter' || /[^s]s$/.test(value))
}

/**
 * "i am out bouldering", "i am usually out fishing on sundays": the pastime (1). Not a one-off ("i was just out
 * walking"), nor a chore with an object ("out walking my dogs", "out running errands").
 */
const OUT_DOING = rx`\\bi (?:am|have been) ${ADV}out ([a-z]+ing)\\b(?! (?:errands|my|the|a|an|his|her|our|their)\\b)`
/**
 * "i am going fishing later", "we could go hiking", "about to go gambling": going to do a pastime (1), which names
 * it, whenever it is.
 */
const GO_DOING = new RegExp(pattern`(?:\b(?:i|we) ${ADV}(?:am |are )?(?:going|go|went|will go|can go|could go|
  often go|usually go|am about to go|are about to go|gonna go|am getting ready to go|am heading out to go)|
  ^(?:about to |going to |gonna |getting ready to |heading out to )?go)(?: out)?
  \s((?:[a-z]+ )?[a-z]+ing)\b(?! (?:to|for) (?:work|school|class|bed))`)
/**
 * "i am bird watching with my animals", "i am grilling out today": a pastime under way (1), said with no object
 * but where or when ("i am running late" and "i am reading your message" say nothing of one).
 */
const DOING_NOW = new RegExp(pattern`(?:\bi (?:am|was)|^was) ${ADV}(?:just |currently |now |still )?
  ((?:[a-z]+ )?[a-z]+ing)(?: out)?
  (?=$|,| (?:in|at|with|on the|outside|outdoors|today|tonight|now|right now|later|this (?:morning|afternoon|evening|
  weekend)|again|all day|a lot|some more)\b)`)
/**
 * "for now i am traveling the world": travel under way as a way of life (a journey to a place is a memory: "i am
 * traveling through europe").
 */
const TRAVELING_NOW = new RegExp(pattern`\bi am ${ADV}(?:currently |now |still )?(?:traveling|travelling|backpacking)
  (?: (?:around )?the (?:world|globe)| abroad| overseas)?(?:$|,)`)
/**
 * "just got back from mountain biking", "got in from walking my dog": a pastime (1) come back from, or a dog
 * walked (2).
 */
const BACK_FROM = new RegExp(pattern`(?:\bi ${ADV}|^|\bjust )(?:got back|came back|came home|got home|
  got in|am back|am home|back|home) from (?:a |my |some )?(?:((?:[a-z]+ )?[a-z]+ing)(?= (?:my|our|the) dogs?\b()|,|$|
  \s(?:and|with|at|in|on|so|today|tonight|this)\b)|([a-z]+) (?:class|lesson|practice)\b)`)
/** Gerunds a person is doing that are chores or errands, not pastimes. */
const NOT_A_PASTIME_NOW = /^(?:cooking|cleaning|shopping|eating|working|studying|walking|driving|running|sleeping)/
/**
 * "my chess tournaments", "my soccer practice", "my daily 3 mile walk": a pastime named by what one does of it
 * (1: the activity, or 2: the outing).
 */
const MY_PRACTICE = new RegExp(pattern`\bmy (?:(?:daily|morning|evening|nightly|weekly|usual|regular|weekend|
  sunday|saturday) )?(?:(?:\d+|one|two|three|four|five|ten)[- ](?:miles?|km|k|hours?)[- ])?(?:([a-z]+(?: [a-z]+)?)
  \s(?:tournaments?|matches|games|practices?|lessons|recitals?|classes|class|league|club|meets?|competitions?|hobby|
  passion|buddies|buddy|partners?|crew|group|pals|friends)|
  (walk|run|jog|swim|ride|bike ride|hike|workout))\b`)
/** "a break from my knitting", "back to my painting": a pastime (1) said as the person's own. */
const MY_GERUND = /\b(?:from|to|for|on|with|at|about) my ([a-z]{3,}ing)\b/

/** The pastime an outing is: "my daily walk" -> walking. */
const OUTING: Record<string, string> = {
  walk: 'walking',
  run: 'running',
  jog: 'jogging',
  swim: 'swimming',
  ride: 'cycling',
  'bike ride': 'cycling',
  hike: 'hiking',
  workout: 'working out',
}
/** "i go for long hikes", "we went on a bike ride": an outing (1) gone on, not with the dog (see DOG_WALKS). */
const GO_FOR = new RegExp(pattern`\b(?:i|we) ${ADV}(?:go|went|like to go|love to go|love going|like going|enjoy going)
  \s(?:for|on) (?:(?:a|an|long|short|daily|morning|evening|nice|quick|some|my) )*
  (walk|run|jog|swim|bike ride|ride|hike|workout)s?\b(?! with (?:my|our|the) dogs?\b)`)
/**
 * "i take my dog for walks", "i go on long walks with my dogs": walking the dog, as a habit or a liking ("i was out
 * walking my dogs" is an errand).
 */
const DOG_WALKS = new RegExp(pattern`\bi ${ADV}(?:take|took) (?:my|our) dogs? (?:out )?(?:for|on) (?:a |long )?walks?\b|
  \bi ${ADV}(?:go|went|love going|like going) (?:on|for) (?:long |daily )?walks with (?:my|our) dogs?\b|
  \bi ${ADV}(?:love|like|enjoy) (?:taking|going on) (?:long )?walks with (?:my|our) dogs?\b|
  \bi ${ADV}(?:love|like|enjoy) walking (?:my|our|the) dogs?\b`)
/** "other hobbies like playing chess", "my hobbies include knitting": the pastimes (1). */
const HOBBIES_LIKE = /\b(?:my |other |the |some )?hobbies (?:like|such as|include|including|are) (.+)$/
/** "board games are the best", "hiking is my thing": a pastime (1) the lexicons know, praised. */
const PASTIME_PRAISED = new RegExp(pattern`^(?!(?:that|this|these|those|your|his|her|their) )((?:[a-z]+ )?[a-z]+)
  \s(?:is|are) (?:the best|awesome|my thing|my jam|
  so much fun|the most fun|my life)\b`)
/**
 * "i am practicing my guitar", "been practising yoga every day": a pastime (1) practised, said with nothing after it
 * but when or where ("practicing law" names no pastime the lexicons know).
 */
const PRACTICING =
  new RegExp(pattern`(?:\bi ${ADV}(?:am |have been )?|^(?:just |still |been )?)(?:practicing|practising|
  practice|practise) (?:my |on my |the |some )?([a-z]+(?: [a-z]+)?)(?=$|,| (?:every|a lot|all|today|tonight|again|
  more|at|in|on|with|for|lately|daily|now)\b)`)
/** "i am a gambling man", "i am more of a hiking kind of person": a pastime (1) that says who the person is. */
const KIND_OF_DOER = new RegExp(pattern`\bi am ${ADV}(?:more of )?an? (?:(?:big|huge|real|total|true) )?([a-z]+ing)
  \s(?:man|woman|guy|girl|gal|person|type|(?:kind|sort) of (?:guy|girl|gal|person))\b`)
/**
 * "i am a big reader, mostly sci-fi and fantasy", "huge gamer, mainly rpgs" (a bio says no "i am"): who the person is
 * as a fan (1), and what kind they mostly take (2), read as the verb of the fan would read it.
 */
const FAN_OF_KINDS = new RegExp(pattern`^(?:i am ${ADV})?(?:an? )?(?:(?:big|huge|avid|voracious|massive|keen|serious) )?
  (reader|bookworm|gamer|movie buff|film buff|music lover)(?:,| and)? (?:mostly|mainly|especially|usually|largely|
  primarily|all about|into) (.+)$`)
/** The verb a fan's kinds are read with. */
const FAN_VERB: Record<string, string> = {
  reader: 'read',
  bookworm: 'read',
  gamer: 'play',
  'movie buff': 'watch',
  'film buff': 'watch',
  'music lover': 'listen',
}
/** "besides running i surf": the pastime named beside another (1). */
const BESIDES_DOING =
  /\b(?:(?:besides|apart from|aside from|other than|when i am not) ([a-z]+ing)\b,? i\b|\bwhen i am not ([a-z]+ing)\b)/
/** "i give back by volunteering", "just got home from volunteer work": volunteering, where unnamed. */
const VOLUNTEERING = new RegExp(pattern`\b(?:i (?:\w+ ){0,3}by volunteering|(?:my|from|do|doing) volunteer work|
  i do (?:a lot of|lots of|some) volunteer work)\b`)

/** The interest a word names when it is a pastime a lexicon knows exactly: sports, hobbies, music or books. */
const PASTIME_KINDS = ['sports', 'hobbies', 'music', 'books']
function pastime(word: string): { category: string; value: string } | undefined {
  const category = knownAs(word, PASTIME_KINDS)
  return category ? { category, value: word } : undefined
}

/** "the thing i love most is skateboarding", "what i enjoy best is a long hike": what is loved (1). */
const LOVE_MOST = new RegExp(pattern`^(?:what|the (?:one )?thing|one thing|something) i (?:really )?(?:love|like|enjoy)
  (?: doing)? (?:the )?(?:most|best)(?: of all| in life| in the world)? (?:is|are|would be|has to be) (.+)$`)
/**
 * "walking is something i enjoy", "hiking and camping are things i love": what is enjoyed (1), said first; not a
 * pronoun ("that is what i like") or someone's thing ("my job is something i enjoy").
 */
const IS_WHAT_I_ENJOY = new RegExp(pattern`^(?!(?:it|that|this|these|those|which|there|he|she|they|you|we|my|your|his|
  her|their|our)\b)((?:[a-z'-]+ ){0,3}[a-z'-]+) (?:is|are) (?:something|what|one thing|a thing|the thing|things) i
  \s(?:really |truly |just |also )?(?:enjoy|love|like|do for fun)(?: doing)?(?: a lot| very much| so much|
  (?: the)? (?:most|best))?(?: ?,.*)?$`)
/**
 * "my garden takes most of my free time", "knitting takes up all my spare time": a pastime (1) the person's free time
 * goes to.
 */
const TAKES_MY_TIME = new RegExp(pattern`^(?:my )?((?:[a-z'-]+ ){0,2}[a-z'-]+) (?:takes|took|eats|fills) (?:up )?
  (?:most|all|a lot|much|so much|a big chunk|a good chunk) (?:of )?my (?:free |spare )?time\b`)
/** "gotta have my coffee", "i need my tea in the morning": a food or drink (1) the person will not go without. */
const MUST_HAVE = new RegExp(pattern`(?:^(?:oh |ah |man |lol |haha )?|\bi )(?:have |always )?(?:got to have|
  gotta have|have to have|need to have|need|can not (?:start|go through) (?:my|the) day without)
  \smy (?:morning |daily |evening )?([a-z]+(?: [a-z]+)?)
  (?=$|,| (?:in|every|each|before|after|first|or|and|at)\b)`)
/** "nothing beats a bowl of pho", "can't beat fresh sushi", "there is nothing like a hike": the thing (1). */
const NOTHING_BEATS = new RegExp(pattern`
  (?:^|\s)(?:nothing (?:beats|compares to|is better than|tops)|(?:you )?can not beat|
  ^there is nothing (?:quite )?like) (?:a |an |some )?
  (?:(?:good|hot|big|cold|fresh|nice) )?
  (?:(?:bowl|plate|cup|slice|glass|pint|mug|piece|round|game) of )?(.+)$`)

/**
 * "i miss cheese", "i miss the comfort of a good old cheeseburger": a food the person misses is one they like (1: what
 * follows; the food must open it).
 */
const MISS_FOOD = new RegExp(pattern`\bi (?:really |still |so |kind of |kinda |sometimes |do )?miss\s
  (?:the (?:comfort|taste|smell) of |eating |having )?(?:a |some )?(?:good (?:old )?|real |homemade |fresh )?(.+)$`)

/** Characters one plays in a game, a show or a play ("an elf mage", "the villain"), besides jobs and relatives. */
const ROLE_NOUNS = new Set(
  `character role part villain hero heroine lead mage wizard witch elf dwarf orc knight warrior paladin rogue healer
  druid ranger sorcerer necromancer bard cleric monk thief assassin princess prince king queen pirate vampire zombie
  ghost monster robot alien superhero`.split(/\s+/),
)

/** "a doctor on tv", "an elf mage in the game", "the villain": a role played, not a sport or an instrument. */
function playsARole(object: string): boolean {
  const phrase = /^(?:a|an|the) ([a-z -]+?)(?= (?:in|on|at|for|with|from|of|and|who|that)\b|[,.!?]|$)/.exec(object)
  if (!phrase || phrase[1].split(' ').length > 4) return false
  const head = singular(phrase[1].split(' ').pop()!)
  return ROLE_NOUNS.has(head) || OCCUPATIONS.has(head) || isPeopleNoun(head)
}

/** Words a title may hold in lower case between capitalised ones ("The Last of Us", "Baldur's Gate 3"). */
const TITLE_JOINERS = new Set(['of', 'the', 'and', '&', 'a', 'in', 'on', 'to', 'with'])
/** Words of a title at most. */
const MAX_TITLE_WORDS = 6

/**
 * The title at the start of an object, as the person capitalised it ("elden ring all weekend" written "Elden Ring
 * all weekend" -> "Elden Ring"), or undefined. A first name alone is a person ("playing with Sam" never gets here).
 */
export function titleAt(object: string, ctx: RuleContext): string | undefined {
  const words = object.split(' ')
  const title: string[] = []
  for (const [index, written] of words.entries()) {
    const word = written.replace(/[,.!?;:]+$/, '')
    const capital = word !== 'i' && ctx.cases.isCapitalised(word)
    const number = /^\d+$/.test(word) && title.length > 0
    // "Gone with the Wind": joiners in a row, up to a capitalised word
    let after = index + 1
    while (after < words.length && TITLE_JOINERS.has(words[after]!)) after++
    const next = words[after]?.replace(/[,.!?;:]+$/, '')
    const joiner = title.length > 0 && TITLE_JOINERS.has(word) && !!next && ctx.cases.isCapitalised(next)
    if (!capital && !number && !joiner) break
    title.push(word)
    if (word !== written || title.length === MAX_TITLE_WORDS) break
  }
  if (!title.length || (title.length === 1 && nlpHas(title[0]!, '#Person'))) return undefined
  return ctx.cases.restore(title.join(' '))
}

/**
 * "i love the Great British Bake Off": a title of capitalised words that no lexicon knows keeps all its words, where
 * the object's one weak item would have dropped some ("british bake off").
 */
function titledItems(object: string, items: Item[], ctx: RuleContext): Item[] {
  const title = items.length === 1 && items[0]!.weight < 1 ? titleAt(object.replace(/^the /, ''), ctx) : undefined
  return title?.includes(' ') ? [{ ...items[0]!, value: title }] : items
}

/** "i am learning spanish", "been teaching myself guitar": what (1). */
const LEARNING = new RegExp(pattern`\bi ${ADV}(?:am learning|have been learning|learn|
  (?:am|have been) teaching myself|taught myself|teach myself) (.+)$`)

/** "i play", "i have been replaying", "been playing" (a fragment): the game or the sport played (1). */
const PLAYING = new RegExp(pattern`\bi ${ADV}(?:play|am playing|have been playing|have played for|am replaying|
  have been replaying|replay|been playing|been replaying|playing|replaying)\s+(.+)$`)

/** "i read", "i have been reading", "been rereading" (a fragment): what is read (1), if said. */
const READING = new RegExp(pattern`\bi ${ADV}(?:read|am reading|have been reading|been reading|reread|am rereading)
  (?:\s+(?:at (?:least|most) )?(.+))?$`)
/** What follows a verb of watching or reading when it names where, when or with whom, not what. */
const NO_OBJECT = /^(?:on|in|at|while|during|before|after|to|with|from|for|since|when|until)\b/
/** How often, said where the object would be: "i read every night", "i read all the time". */
const HOW_OFTEN = /^(?:every|all the time|daily|nightly|a lot(?! of)|constantly|whenever)\b/

/** "i watch", "i have been rewatching", "been watching" (a fragment): what is watched (1). */
// "we" holds the person: "we have been watching a show about drug cartels"
const WATCHING = new RegExp(pattern`\b(?:i|we) ${ADV}(?:watch|am watching|are watching|have been watching|
  been watching|rewatch|am rewatching|have been rewatching|been rewatching|binge[- ]watch|binge|
  (?:am|are|have been) (?:binging|bingeing|binge[- ]watching))
  \s+(.+)$`)

/**
 * "just finished Crash Landing on You", "started reading Project Hail Mary": a title written as one after a verb of
 * getting through it; 1 the medium's verb, if said, 2 the object.
 */
const FINISHED_TITLE =
  new RegExp(pattern`(?:^|\bi ${ADV}(?:have )?)(?:just |finally )?(?:(?:finished|started) (watching|
  reading|playing|listening to)|finished)\s+(.+)$`)
/**
 * Capitalised words that open no title: days, months, holidays, schooling and treatment ("finished Christmas shopping",
 * "finished Uni").
 */
const NOT_A_TITLE =
  new RegExp(pattern`^(?:${[...WEEKDAYS, ...MONTHS].join('|')}|christmas|thanksgiving|easter|halloween|
  hanukkah|diwali|eid|ramadan|new year|school|high school|college|uni|university|grad school|med school|law school|
  chemo|chemotherapy|radiation|rehab|therapy|work|year \d+|grade \d+)\b`)
/** "reading Dune", "currently rewatching The Office": a subjectless fragment; 1 the verb, 2 what follows. */
const TITLE_UNDER_WAY = new RegExp(pattern`^(?:(?:just|currently|now|still|been|also|and|so|ok|okay|lol|haha) )*
  (watching|rewatching|reading|rereading|listening to|playing|replaying)\s+(.+)$`)
/** The category of a title by the verb said before it. */
const TITLE_CATEGORY: Record<string, string> = {
  watching: 'movies_tv',
  reading: 'books',
  playing: 'hobbies',
  'listening to': 'music',
}

/** "weekends are for fishing", "sundays are for football": what the time is kept for (1). */
const TIME_IS_FOR = new RegExp(pattern`^(?:my |most )?(?:weekends|saturdays|sundays|evenings|mornings|nights|
  summers|winters) (?:are|are all) (?:for|about) (.+)$`)
/** "you will find me on the lake fishing": the pastime (1), a gerund said after where. */
const FIND_ME = new RegExp(pattern`\byou(?: will|'ll) (?:usually |always |often |probably )?find me
  (?: (?:on|at|in|out) (?:the |a )?[a-z]+)? ([a-z]+ing)\b`)

/**
 * "i have been baking", "just been traveling so much" (chat leaves out "i have"): the activity (1), one of
 * ACTIVITY_VERBS as a gerund ("bake" -> "baking").
 */
const BEEN_WITHOUT_I = '(?:^|, )(?:just |lately |recently |mostly |mainly |also |still )?been'
const HAVE_BEEN_DOING = rx`(?:\\bi have been|${BEEN_WITHOUT_I}) ${ADV}(${ACTIVITY_VERBS.split('|')
  .filter((verb) => !verb.includes(' '))
  .map((verb) => gerund(verb))
  .join('|')})\\b(?! (?:the )?(?:internet|web|net|channels)\\b)`

function ruleActivities(clause: ClauseInfo, ctx: RuleContext): void {
  const text = clause.text
  const kept = TIME_IS_FOR.exec(text) ?? FIND_ME.exec(text)
  if (kept) addItems(interpretObject(kept[1]!), ctx, 0.8, 'interest.time-kept-for', kept)
  let match = PLAYING.exec(text)
  if (match && !playsARole(match[1])) {
    const items = interpretObject(match[1], 'play')
    // a title the lexicons do not know, written as one: "been replaying Baldur's Gate", "playing Elden Ring"
    const title = items.some((item) => item.weight === 1) ? undefined : titleAt(match[1], ctx)
    if (title) ctx.acc.addInterest('hobbies', title, 0.6, 'interest.play-title', match)
    else addItems(items, ctx, 0.85, 'interest.play', match)
  }
  // "reading Dune right now", "rewatching The Office": a fragment that names a title written as one
  match = TITLE_UNDER_WAY.exec(text)
  const current = match ? titleAt(match[2]!, ctx) : undefined
  if (match && current && !NOT_A_TITLE.test(current.toLowerCase()))
    ctx.acc.addInterest(
      TITLE_CATEGORY[match[1]!.replace(/^re(?=watching|reading|playing)/, '')]!,
      current,
      0.55,
      'interest.title-under-way',
      match,
    )
  match = FINISHED_TITLE.exec(text)
  const finished = match ? titleAt(match[2]!, ctx) : undefined
  // a title, not a day or a holiday ("finished Christmas shopping")
  if (match && finished && !NOT_A_TITLE.test(finished.toLowerCase())) {
    // "just finished The Road by Cormac McCarthy": a title by a named author is a book
    const after = match[2]!.slice(match[2]!.indexOf(finished.toLowerCase()) + finished.length)
    const author = /^ by ([a-z]+) [a-z]+/.exec(after)
    const kind = match[1] ?? (author && ctx.cases.isCapitalised(author[1]!) ? 'reading' : 'watching')
    ctx.acc.addInterest(TITLE_CATEGORY[kind]!, finished, 0.55, 'interest.finished-title', match)
  }
  // "i just sat down to listen to some jazz", "listening to jazz" (chat leaves out "i am")
  match = LISTEN_TO.exec(text)
  if (match) addItems(interpretObject(match[1], 'listen'), ctx, 0.85, 'interest.listen-to', match)
  match = WATCHING.exec(text)
  // "been watching since i was a kid": when, not what
  if (match && !NO_OBJECT.test(match[1])) {
    const items = watchedOffScreen(stripFiller(match[1])) ?? interpretObject(match[1], 'watch')
    // "been watching Severance": a title the lexicons do not know, written as one; one of two words or more even
    // when they know its words ("The Bear")
    const title = titleAt(match[1], ctx)
    if (title && (title.includes(' ') || !items.some((item) => item.weight === 1)))
      ctx.acc.addInterest('movies_tv', title, 0.6, 'interest.watch-title', match)
    else addItems(items, ctx, 0.8, 'interest.watch', match)
  }
  match = READING.exec(text)
  // "i am reading on my phone": where or when, not what
  // "i read every night": how often, so reading itself
  const object = match?.[1] && !HOW_OFTEN.test(match[1]) ? match[1] : undefined
  if (match && !NO_OBJECT.test(object ?? '')) {
    // "i read a really good book last week": a book, of no kind, is reading
    const book = object && BOOKS_ONLY.test(object.replace(/\s+(?:last|this|yesterday|today|every|each)\b.*$/, ''))
    const items = object && !book && cutPhrase(object) ? interpretObject(object, 'read') : verbItems('read', '')
    // "currently reading Dune for the first time": a title the lexicons do not know, written as one
    const title = object && !items.some((item) => item.weight === 1) ? titleAt(object, ctx) : undefined
    if (title) ctx.acc.addInterest('books', title, 0.6, 'interest.read-title', match)
    else addItems(items, ctx, 0.8, 'interest.read', match)
  }
  match = rx`\\bi ${ADV}(?:collect|am collecting)\\s+(.+)$`.exec(text)
  if (match) addItems(verbItems('collect', cutPhrase(match[1])), ctx, 0.9, 'interest.collect', match)
  // "i am always eating burgers", "i can eat ice cream by the gallon", "just sipping tea" (chat leaves out "i am")
  match = EAT_DRINK.exec(text)
  if (match)
    // "eating more fruits has helped": the food is the subject of the verb after it
    for (const it of splitList(cutPhrase(match[1].replace(/\s(?:has|have|is|are|was|were|helps|helped)\b.*$/, ''))))
      addItems(verbItems('eat', it), ctx, 0.6, 'interest.eat-drink', match)
  match = clause.negated ? null : HAVING_FOOD.exec(text)
  for (const item of match ? splitList(cutPhrase(match[1] ?? match[2]!)) : []) {
    const food = knownFoodAtStart(item)
    if (food) ctx.acc.addInterest('food', food, 0.5, 'interest.having-food', match!)
  }
  for (const [known, confidence, rule] of KNOWN_ACTIVITY) {
    const found = known.exec(text)
    if (found)
      addItems(
        interpretObject(ACTIVITY_ALIASES.get(found[1]!.trim()) ?? found[1]!).filter((item) => item.weight === 1),
        ctx,
        confidence,
        rule,
        found,
      )
  }
  // "we usually go to local music festivals", "my family goes to disney world yearly": the household's outings are
  // the person's
  match = rx`\\b(?:i|we|(?:^|\\s)(?:my|our) family) ${ADV}(?:go|goes|often go|like going|try to go)\\s+(.+)$`.exec(text)
  if (
    match &&
    !/^(?:to (?:work|school|college|bed|sleep|class|the (?:store|doctor|office))|home|back|out of)\b/.test(match[1])
  )
    addItems(verbItems('go', cutPhrase(match[1])), ctx, 0.8, 'interest.go', match)
  // "most saturdays i am out bouldering", "i am usually out fishing": a pastime the lexicon knows
  match = OUT_DOING.exec(text)
  const outdoor = match ? knownAs(match[1]!, ['sports', 'hobbies']) : undefined
  if (match && outdoor) ctx.acc.addInterest(outdoor, match[1]!, 0.7, 'interest.out-doing', match)
  ruleActivityMentioned(clause, ctx)
  match = IN_A_LEAGUE.exec(text)
  const sport = match ? classifyNoun(match[1]!, 'other', 0.75) : undefined
  // a sport or a game a lexicon knows: "a company team" and "a book club" are no pastime said
  if (sport && sport.weight === 1 && (sport.category === 'sports' || sport.category === 'hobbies'))
    ctx.acc.addInterest(sport.category, sport.value, 0.8, 'interest.league', match!)
  match = TITLE_PRAISED.exec(text)
  if (match && !NOT_A_TITLE_SUBJECT.test(match[1]!)) {
    const title = ctx.cases.restore(match[1]!)
    // a sentence opens in capitals whatever the word: a title written in lower case reads as one
    const written = /^[a-z]/.test(title) ? titleCase(title) : title
    ctx.acc.addInterest(TITLE_KINDS[match[2]!]!, written, 0.7, 'interest.title-praised', match)
  }
  // "nothing beats a bowl of pho": a thing the lexicon knows, in any category but "other"
  match = LOVE_MOST.exec(text)
  if (match && !clause.negated) addItems(interpretObject(cutPhrase(match[1]!)), ctx, 0.85, 'interest.love-most', match)
  match = TAKES_MY_TIME.exec(text)
  const pastimes = match ? interpretObject(match[1]!).filter((item) => item.weight === 1) : []
  if (pastimes.length) addItems(pastimes, ctx, 0.7, 'interest.takes-my-time', match!)
  match = IS_WHAT_I_ENJOY.exec(text)
  if (match && !clause.negated) addItems(interpretObject(match[1]!), ctx, 0.8, 'interest.is-what-i-enjoy', match)
  match = MUST_HAVE.exec(text)
  // "i can not start my day without my coffee" is negated only in form
  if (match && clause.negated && !/\bwithout my\b/.test(match[0])) match = null
  const needed = match ? knownFoodAtStart(match[1]!) : undefined
  if (needed && needed === match![1]) ctx.acc.addInterest('food', needed, 0.6, 'interest.must-have', match!)
  match = MISS_FOOD.exec(text)
  const missed = match && !clause.negated ? knownFoodAtStart(match[1]!) : undefined
  if (missed) ctx.acc.addInterest('food', missed, 0.6, 'interest.miss-food', match!)
  match = NOTHING_BEATS.exec(text)
  if (match) {
    const item = classifyNoun(cutPhrase(match[1]))
    if (item && item.category !== 'other') addItems([item], ctx, 0.7, 'interest.nothing-beats', match)
  }
  match = I_DO.exec(text)
  // "i do wear western clothes": "do" that stresses the verb after it
  const stressed = match?.[1]?.split(' ')[0] ?? ''
  if (match && !(isVerbAfterI(stressed) && isVerbAfterTo(stressed) && !knownAs(stressed, PASTIME_KINDS)))
    addItems(
      splitList(cutPhrase(match[1]))
        .flatMap((done) => verbItems('do', done))
        .filter((i) => i.weight === 1 && (i.category === 'sports' || i.category === 'hobbies')),
      ctx,
      0.85,
      'interest.do',
      match,
    )
  // "i try to workout a couple days a week": a habit tried at is one
  match = rx`\\bi ${ADV}(?:(?:try|tend) to )?(${ACTIVITY_VERBS})\\b(.*)$`.exec(text)
  if (
    match &&
    !(
      match[1] === 'run' &&
      /^\s+(?:a(?! lot\b)|an|the|my|our|his|her|into|out|late|away|errands)\b/.test(match[2]) &&
      !/\b(?:marathon|race|mile|5k|10k)/.test(match[2])
    )
  ) {
    // "i grill outdoors", "i paint at home": where, not what; "i grill, gamble and have fun": after a comma come more
    // verbs, none of them what is grilled
    const obj = /^\s*,/.test(match[2])
      ? ''
      : cutPhrase(match[2].trim()).replace(
          /^(?:outdoors|outside|indoors|inside|at home|alone|together|daily|a lot)$/,
          '',
        )
    const [verb, ...verbRest] = match[1].split(' ')
    // "i work out daily", "i ride horses": a verb of two words is the pastime itself, whatever follows it
    // a clause of several verb phrases ("i hike and fish") is read phrase by phrase too: no verb takes the next one
    const items = verbRest.length
      ? phrasalPastime(verb!, verbRest.join(' '), match[2])
      : // "i ride the bus": what is ridden says whether it is a pastime
        (/^(?:a|an|the|my|our|for|at|in|on|with)\b/.test(obj) && !ON_THE_WEB.test(obj) && verb !== 'ride') ||
          !obj ||
          clause.joined
        ? verbItems(verb!, '')
        : splitList(obj).flatMap((o) => verbItems(verb!, o))
    addItems(items, ctx, 0.8, 'interest.activity-verb', match)
  }
  match = VACATION_AT.exec(text)
  if (match) addItems(verbItems('visit', cutPhrase(match[1]!)), ctx, 0.8, 'interest.vacation-at', match)
  match = FOLLOW_SPORT.exec(text)
  if (match && knownAs(match[1]!, ['sports'])) ctx.acc.addInterest('sports', match[1]!, 0.7, 'interest.follow', match)
  // "i rock climb", "when i line dance", "i scuba dive": a noun and a verb that name a pastime the lexicons know
  match = COMPOUND_VERB.exec(text)
  const compound = match ? `${match[1]} ${gerund(match[2]!)}` : ''
  // "i pole dance", "i belly dance": a noun before "dance" names a dance, whether the lexicons know it or not
  const style = match?.[1] ?? ''
  const dance =
    match?.[2] === 'dance' && (DANCE_WORDS.has(style) || (nlpHas(style, '#Noun') && !nlpHas(style, NOT_A_DANCE)))
  const compoundKind = compound ? (knownAs(compound, PASTIME_KINDS) ?? (dance ? 'hobbies' : undefined)) : undefined
  if (compoundKind) ctx.acc.addInterest(compoundKind, compound, 0.8, 'interest.activity-verb', match!)
  // abilities and ongoing activities: "i can sew", "i know how to surf", "i have been traveling the world"
  match = I_CAN_DO.exec(text)
  if (match && !clause.negated) {
    const obj = cutPhrase(match[2].trim())
    addItems(
      verbItems(match[1].split(' ')[0], /^(?:a|an|the|my|our|for|at|in|on|with)\b/.test(obj) ? '' : obj).filter(
        (i) => i.category !== 'other',
      ),
      ctx,
      0.7,
      'interest.can-do',
      match,
    )
  }
  match = HAVE_BEEN_DOING.exec(text)
  // "i have been running my own business": what is run is work, no pastime of running
  const managed = match?.[1] === 'running' && RUN_AT_WORK.test(text.slice(match.index + match[0].length).trim())
  if (
    match &&
    !managed &&
    !clause.negated &&
    !/\b(?:for a living|to pay|right now|at the moment|today|tonight)\b/.test(text)
  ) {
    const activity = match[1]
    const hit = lookup(activity)
    if (hit && hit.category !== 'other' && hit.term === activity)
      ctx.acc.addInterest(hit.category, activity, 0.7, 'interest.have-been-doing', match)
  }
  // "i am training for a marathon"
  match = TRAINING_FOR.exec(text)
  if (match)
    ctx.acc.addInterest(
      'sports',
      /triathlon|ironman/.test(match[1])
        ? 'triathlon'
        : /bike/.test(match[1])
          ? 'cycling'
          : /swim/.test(match[1])
            ? 'swimming'
            : 'running',
      0.75,
      'interest.training-for',
      match,
    )
  // "i relax by knitting", "to unwind i paint"
  match =
    rx`\\bi ${ADV}(?:relax|unwind|de-stress|destress|decompress|chill) (?:by|with) ([a-z]+ing(?: [a-z]+)?)\\b`.exec(
      text,
    ) ?? rx`^(?:to (?:relax|unwind)|for fun),? i ${ADV}([a-z]+(?: [a-z]+)?)`.exec(text)
  if (match && !clause.negated)
    addItems(
      interpretObject(match[1]).filter((i) => i.weight >= 0.8),
      ctx,
      0.8,
      'interest.relax-by',
      match,
    )
  // "i love spending time with my family", "i volunteer at the animal shelter"
  match = TIME_WITH_FAMILY.exec(text)
  if (match && !clause.negated)
    ctx.acc.addInterest('hobbies', `spending time with ${match[1]}`, 0.75, 'interest.time-with-family', match)
  match = VOLUNTEER_AT.exec(text)
  if (match && !clause.negated) {
    ctx.acc.dropInterest('volunteering')
    ctx.acc.addInterest('hobbies', `volunteering at ${match[1]}`, 0.8, 'interest.volunteer-at', match)
  }
  // "i read journals about psychology": the subject is the interest
  match = READ_ABOUT.exec(text)
  if (match) {
    const topic = cutPhrase(match[1]).replace(/^(?:the|a|an)\s+/, '')
    if (topic && topic.split(' ').length <= 3) ctx.acc.addInterest('books', topic, 0.75, 'interest.read-about', match)
  }
  // "i grow tomatoes", "i grow roses in my garden"
  match = I_GROW.exec(text)
  if (match) {
    ctx.acc.addInterest('hobbies', 'gardening', 0.7, 'interest.grow', match)
  }
  // "i saw the rolling stones in concert"
  match = SAW_IN_CONCERT.exec(text)
  if (match) {
    const name = match[1].replace(/^(?:my favorite band|my favourite band)\s*/, '').trim()
    if (name && name.split(' ').length <= 5 && !/^(?:them|him|her|it|a band|bands|a show|shows|concerts)$/.test(name))
      ctx.acc.addInterest('music', ctx.cases.restore(name, true), 0.7, 'interest.saw-in-concert', match)
  }
  match = CONCERT_OF.exec(text)
  if (match && !NOT_A_PERFORMER.test(match[1])) {
    // a genre by its name ("a country music concert"), a performer as written ("Taylor Swift")
    const kind = classifyNoun(match[1], 'music', 0.7)
    const known = kind?.category === 'music' && kind.weight === 1
    const value = known ? ctx.cases.restore(kind.value) : ctx.cases.restore(match[1], true)
    if (kind) ctx.acc.addInterest('music', value, 0.7, 'interest.concert-of', match)
  }
  match = TAKES_CLASS.exec(text)
  if (match && !SCHOOL_SUBJECT.test(match[1])) {
    const subject = match[1]
    const hit = lookup(gerund(subject))
      ? { category: lookup(gerund(subject))!.category, value: gerund(subject) }
      : classifyNoun(subject, 'hobbies', 0.8)
    if (hit) ctx.acc.addInterest(hit.category, hit.value, 0.8, 'interest.take-lessons', match)
  }
  match = LEARNING.exec(text)
  if (match) {
    const to = /^(?:how )?to\s+([a-z]+)\s*(.*)$/.exec(match[1])
    addItems(
      to ? verbItems(to[1], cutPhrase(to[2])) : verbItems('learn', cutPhrase(match[1])),
      ctx,
      0.7,
      'interest.learning',
      match,
    )
  }
  match = TOOK_UP.exec(text)
  // "i just started at what a burger": a workplace, not a pastime
  if (match && !/^(?:a |an |the |my |at |in |on |with |for |to work|working|school|college|dating)/.test(match[1]))
    addItems(
      interpretObject(match[1]).filter((i) => i.weight >= 0.8),
      ctx,
      0.7,
      'interest.took-up',
      match,
    )
  match = SPEND_TIME.exec(text)
  const spentOn = match && (match[1] ?? match[2])!
  // "i spend time with my aunt": whom with, not a pastime (TIME_WITH_FAMILY reads the family ones)
  const place = spentOn ? /^(?:at|in) (.+)$/.exec(spentOn) : null
  // "a lot of time at the gym", "my weekends at the beach": a place the lexicons know as a pastime's
  const spentAt = place ? interpretObject(place[1]!).filter((i) => i.weight === 1 && i.category !== 'other') : []
  if (spentAt.length) addItems(spentAt, ctx, 0.7, 'interest.spend-time', match!)
  else if (spentOn && !place && !/^with\b/.test(spentOn))
    addItems(interpretObject(spentOn), ctx, 0.8, 'interest.spend-time', match!)
  match = BEEN_ON_TRIPS.exec(text)
  if (match) addItems(interpretObject(match[1]!), ctx, 0.7, 'interest.been-on-trips', match)
  match = clause.negated ? null : GOT_ME_INTO.exec(text)
  // "got me into trouble", "got me into college": what the lexicons know as a pastime or a taste only
  const broughtTo = match ? interpretObject(match[1]!).filter((i) => i.weight >= 0.8 && i.category !== 'other') : []
  if (broughtTo.length) addItems(broughtTo, ctx, 0.7, 'interest.got-me-into', match!)
  match = LOVED_TIME_IN.exec(text)
  if (match)
    addItems(
      verbItems('visit', cutPhrase(match[1]!)).filter((i) => i.weight >= 0.9),
      ctx,
      0.7,
      'interest.loved-time-in',
      match,
    )
  match = I_VISIT.exec(text)
  if (match)
    for (const it of splitList(cutPhrase(match[1])))
      addItems(
        verbItems('visit', it).filter((i) => i.weight >= 0.9),
        ctx,
        0.75,
        'interest.visit',
        match,
      )
  match = rx`\\bi am ${ADV}(.+)$`.exec(text)
  if (match) {
    for (const part of match[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
      const kind = KIND_OF_PERSON.exec(part)
      const taste = kind ? classifyNoun(kind[1]!, 'other', 0.75) : undefined
      // only a taste a lexicon knows: "a people person", "a morning person" say how, not what
      if (taste && taste.category !== 'other' && taste.weight === 1)
        ctx.acc.addInterest(taste.category, taste.value, 0.75, 'interest.kind-of-person', match)
      const fanMatch = FAN_OF.exec(part)
      // "a fan of mine", "a nerd for details": not a taste; "a lord of the rings nerd" is one the lexicon knows
      if (!fanMatch || (/\b(?:of|for|with|not|no)\b/.test(fanMatch[1]) && !lookupExact(fanMatch[1]))) continue
      const noun = classifyNoun(fanMatch[1], 'other', 0.75)
      const team = !!noun && isTeam(noun.category, noun.value, fanMatch[2]!, ctx)
      const restored = ctx.cases.restore(noun?.value ?? '')
      if (noun)
        ctx.acc.addInterest(
          team ? 'sports' : noun.category,
          // a team is a name: "arsenal supporter" -> "Arsenal"
          team && restored === noun.value
            ? titleCase(restored)
            : ['music', 'movies_tv', 'books', 'travel', 'sports'].includes(noun.category) ||
                noun.value.split(' ').every((word) => ctx.cases.isCapitalised(word))
              ? restored
              : noun.value,
          0.85 * noun.weight,
          'interest.fan',
          match,
        )
    }
  }
}

/** "i would love to try surfing", "i plan to learn how to knit": what (1). */
const I_WISH_TO = new RegExp(pattern`\bi (?:would (?:love|like) to|want to|hope to|am hoping to|
  am wanting to|plan to|am planning to|dream of|
  wish i could|am going to|am about to|will) (?:(?:try|start|begin|take up|get into|learn (?:how )?to) )?(.+)$`)

/** Wishes and plans are weak evidence of an interest: "I would love to visit Japan" -> travel: Japan (0.5). */
function ruleDesire(clause: ClauseInfo, ctx: RuleContext): void {
  const match = I_WISH_TO.exec(clause.text)
  if (!match) return
  const obj = match[1].replace(/^(?:learn)\s+/, 'learning ')
  const items = /^(?:[a-z]+ing)\b/.test(obj) ? interpretObject(obj) : interpretObject(`to ${obj}`)
  addItems(
    items.filter((i) => i.weight >= 0.8),
    ctx,
    0.5,
    'interest.wish',
    match,
  )
}

/**
 * A pastime mentioned in passing: going to do it, doing it now, its practice or outing, beside another one,
 * volunteering. Weaker than a pastime said to be liked or done habitually.
 */
function ruleActivityMentioned(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.negated) return
  const text = clause.text
  const found = (value: string | undefined, match: RegExpExecArray, rule: RuleId, confidence: number) => {
    // "my dance class": the pastime of a noun that is also its verb; "my salsa dance lessons": of its last word
    const words = value?.split(' ') ?? []
    // "my kids soccer league": someone else's pastime
    if (words.length > 1 && [words[0]!, words[0]!.replace(/s$/, '')].some(isPeopleNoun)) return
    const last = words.at(-1) ?? ''
    const verbNoun = words.length === 1 ? /^[a-z]+$/.test(last) : ACTIVITY_VERB_SET.has(last)
    const hit = value
      ? (pastime(value) ??
        (words.length > 1 ? pastime(last) : undefined) ??
        (verbNoun ? pastime(gerund(last)) : undefined))
      : undefined
    if (hit) ctx.acc.addInterest(hit.category, hit.value, confidence, rule, match)
  }
  let match = GO_DOING.exec(text)
  if (match) found(match[1], match, 'interest.go-doing', 0.6)
  match = BACK_FROM.exec(text)
  if (match?.[2] !== undefined) ctx.acc.addInterest('hobbies', 'walking the dog', 0.6, 'interest.back-from', match!)
  else if (match && !/^(?:cooking|cleaning|shopping|eating|working|studying|driving|sleeping)$/.test(match[1] ?? ''))
    found(match[1] ?? match[3], match, 'interest.back-from', 0.6)
  match = DOING_NOW.exec(text)
  // "bird watching" as one pastime, else its last word ("just hiking")
  const now = match ? [match[1]!, match[1]!.split(' ').pop()!].find((words) => pastime(words)) : undefined
  if (match && now && !NOT_A_PASTIME_NOW.test(now)) found(now, match, 'interest.doing-now', 0.5)
  match = TRAVELING_NOW.exec(text)
  if (match) ctx.acc.addInterest('travel', 'traveling', 0.6, 'interest.traveling-now', match)
  match = MY_PRACTICE.exec(text)
  if (match) found(match[1] ?? OUTING[match[2]!], match, 'interest.my-practice', 0.6)
  // "i have taken a break from my knitting": a pastime the person calls theirs
  match = MY_GERUND.exec(text)
  if (match) found(match[1], match, 'interest.my-practice', 0.6)
  match = GO_FOR.exec(text)
  if (match) found(OUTING[match[1]!], match, 'interest.go-for', 0.6)
  match = BESIDES_DOING.exec(text)
  if (match) found(match[1] ?? match[2], match, 'interest.besides-doing', 0.6)
  match = PRACTICING.exec(text)
  // "practicing my swing": a genre is no practice, an instrument or singing is
  const genre = match && knownAs(match[1]!, ['music']) && !INSTRUMENTS.has(match[1]!) && !/[a-z]{3}ing$/.test(match[1]!)
  if (match && !genre) found(match[1], match, 'interest.practicing', 0.6)
  match = KIND_OF_DOER.exec(text)
  if (match) found(match[1], match, 'interest.kind-of-doer', 0.7)
  match = FAN_OF_KINDS.exec(text)
  if (match) addItems(interpretObject(match[2]!, FAN_VERB[match[1]!]), ctx, 0.8, 'interest.fan-of-kinds', match)
  match = VOLUNTEERING.exec(text)
  if (match) ctx.acc.addInterest('hobbies', 'volunteering', 0.6, 'interest.volunteering', match)
  match = DOG_WALKS.exec(text)
  if (match) ctx.acc.addInterest('hobbies', 'walking the dog', 0.7, 'interest.dog-walks', match)
  match = HOBBIES_LIKE.exec(text)
  if (match) addItems(interpretObject(match[1]!), ctx, 0.8, 'interest.hobbies-like', match)
  match = PASTIME_PRAISED.exec(text)
  if (match) found(match[1], match, 'interest.pastime-praised', 0.7)
}

/** A trip's place, planned or taken: read before the rules that leave plans and languages out. */
function ruleTrip(clause: ClauseInfo, ctx: RuleContext): void {
  const match = clause.negated ? null : TRIP_TO.exec(clause.text)
  const place = match ? placeAtStart(match[1]!, (word) => ctx.cases.isCapitalised(word)) : undefined
  if (place) addItems([{ category: 'travel', value: place, weight: 1 }], ctx, 0.7, 'interest.trip-to', match!)
}

/**
 * "getting better at chess", "working on my golf swing", "improve my guitar playing": a skill worked at (1 or 2),
 * which the person does (PRACTICING reads practice itself). Hoped for too: only someone who does it can get better.
 */
const IMPROVING = new RegExp(pattern`\b(?:get|getting|become|becoming) better at (?:my |playing |the )?
  ([a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2})|
  \b(?:improve|improving|work on|working on) (?:my|our) ([a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2})`)
/** A word after a skill that names a part of it: "golf swing", "guitar playing", "running pace". */
const SKILL_PARTS = new RegExp(pattern`^(?:swing|playing|game|skills?|technique|form|pace|serve|stroke|times?|speed|
  endurance|stamina|strength|shots?|putting|aim|tone|chops|practice|routine|moves|footwork|vocals)$`)
/** What a skill is, in the lexicons: a sport, a pastime or music. */
const SKILL_KINDS = ['sports', 'hobbies', 'music']

function ruleImproving(clause: ClauseInfo, ctx: RuleContext): void {
  const match = clause.negated ? null : IMPROVING.exec(clause.text)
  if (!match) return
  // "golf swing" is golf, "guitar playing" guitar: the longest start of the phrase the lexicons know
  const words = cutPhrase(match[1] ?? match[2]!).split(' ')
  for (let count = words.length; count >= 1; count--) {
    const skill = words.slice(0, count).join(' ')
    const category = knownAs(skill, SKILL_KINDS)
    // only a part of the skill may follow it, so "my art degree" is no art; and "my swing" alone is no music
    if (!category || SKILL_PARTS.test(skill) || !words.slice(count).every((word) => SKILL_PARTS.test(word))) continue
    const kind = INSTRUMENTS.has(skill) ? 'music' : category
    ctx.acc.addInterest(kind, skill, 0.6, 'interest.improving', match)
    return
  }
}

export function ruleInterests(clause: ClauseInfo, ctx: RuleContext): void {
  if (clause.hedged) return
  ruleTrip(clause, ctx)
  ruleImproving(clause, ctx)
  if (clause.desire) {
    ruleDesire(clause, ctx)
    return
  }
  // "i am learning to speak spanish": a language (languages.ts), not a pastime "speaking spanish"
  if (saysLanguages(clause.text)) return
  // "i walk dogs for a living": work, not a pastime
  if (/\bfor a living\b|\bto pay (?:the|my|for) (?:bills|rent|tuition|college|school)\b/.test(clause.text)) return
  if (ruleFavorite(clause, ctx)) return
  for (const [rule, re, conf] of LIKE_RULES) {
    const match = re.exec(clause.text)
    // "i prefer text over calls", "i like short answers": how to be reached or answered, not a pastime
    if (match && COMMUNICATION.test(match[1]!)) return
    // "i love your dog", "i love the name kathleen": the other speaker's thing, a name, no pastime
    if (match && /^(?:your|the name)\b/.test(match[1]!)) return
    if (match) {
      // "i like to lay in the shade, just like your pet cow": a comparison ends what is liked
      const liked = match[1]!.replace(LIKE_COMPARED, '')
      addItems(titledItems(liked, interpretObject(liked), ctx), ctx, conf, rule, match)
      break
    }
  }
  rulePets(clause, ctx)
  ruleActivities(clause, ctx)
}

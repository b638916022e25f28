// Who said it, and about whom: the parts of the person's own words that belong to someone else. A quote of another
// speaker, reported speech ("my dad says i am a great cook"), a scene of a book or a game, and a clause whose subject
// is another person ("my sister lives in oslo and loves skiing") state nothing about the person. The rules read
// "i ..." clauses, so most such clauses give nothing by themselves; these helpers close the ways in which they still
// reached a rule (see docs/architecture/local-extractor.md).
import { RELATIVES } from './lexicon-core.js'
import { pattern } from './regex.js'

/** Nouns for the people around the person; with "my", "her", "tom's" before them, a clause is about one of them. */
export const PEOPLE_NOUNS: Record<string, 'female' | 'male' | undefined> = {
  ...RELATIVES,
  friend: undefined,
  partner: undefined,
  boss: undefined,
  manager: undefined,
  coworker: undefined,
  'co-worker': undefined,
  colleague: undefined,
  neighbor: undefined,
  neighbour: undefined,
  roommate: undefined,
  flatmate: undefined,
  kid: undefined,
  child: undefined,
  cousin: undefined,
  parent: undefined,
  teacher: undefined,
  doctor: undefined,
  therapist: undefined,
  spouse: undefined,
  fiance: undefined,
  fiancee: 'female',
  classmate: undefined,
  student: undefined,
  baby: undefined,
  sibling: undefined,
  grandson: 'male',
  granddaughter: 'female',
  stepmom: 'female',
  stepdad: 'male',
  guy: 'male',
  man: 'male',
  girl: 'female',
  woman: 'female',
  lady: 'female',
  person: undefined,
}

const PEOPLE_ALT = Object.keys(PEOPLE_NOUNS)
  .sort((a, b) => b.length - a.length)
  .join('|')

/**
 * "my sister ...", "our neighbour's kid ...", "his wife ...", "tom's brother ...", "he ...", "they ...": a clause
 * whose subject is someone else (1: the people noun, when one is named). Not "my sister and i" (the person is part
 * of it; clauses.ts reads that as "i").
 */
const OTHER_SUBJECT = new RegExp(
  `^(?:(?:my|our|his|her|their|your|[a-z]+'s) (?:(?:best|older|younger|big|little|old|new|late|ex|step|[a-z]+'s) )*` +
    `(${PEOPLE_ALT})s?\\b(?! and i\\b)|(?:he|she|they)\\b)`,
)

/** The people noun or pronoun a clause opens with when its subject is someone else; undefined otherwise. */
export function otherSubject(clauseText: string): string | undefined {
  const match = OTHER_SUBJECT.exec(clauseText)
  if (!match) return undefined
  return match[1] ?? match[0]
}

/** "a sister who has a dog", "a guy that plays golf": a relative clause about one of them, to the clause's end. */
const PEOPLE_CLAUSE = new RegExp(`\\b(?:${PEOPLE_ALT})s? (?:who|whose|that)\\b.*$`)

/** The clause without what it says about someone it names ("i have a sister who has a dog" -> "i have a sister"). */
export function withoutPeopleClause(clauseText: string): string {
  return clauseText.replace(PEOPLE_CLAUSE, '')
}

/** Whether a word names one of the people around the person ("sister", "boss", "friend"). */
export function isPeopleNoun(word: string): boolean {
  return Object.hasOwn(PEOPLE_NOUNS, word)
}

/** The gender a people noun gives its pronoun ("sister" -> female), when it gives one. */
export function genderOfPeopleNoun(noun: string): 'female' | 'male' | undefined {
  return Object.hasOwn(PEOPLE_NOUNS, noun) ? PEOPLE_NOUNS[noun] : undefined
}

/** Verbs that introduce what someone says, wrote or thinks. */
const SPEECH_VERB = pattern`
  said|says|say|saying|told (?:me|us|him|her|them)|tells (?:me|us|him|her|them)|tell (?:me|us)|asked|asks|wrote|writes|
  replied|replies|answered|answers|yelled|shouted|screamed|whispered|texted|messaged|added|explained|insisted|joked|
  goes|went|was like|is like`
/** Adverbs and auxiliaries between the speaker and the verb ("mom keeps saying", "he always says"). */
const SPEAKER_ADVERBS = new Set(
  'always often once just then also even still would will keeps kept keep never really usually sometimes'.split(' '),
)
/** Words before a speech verb that leave the speaker unknown (a subject said earlier): the quote is kept. */
const NO_SPEAKER = new Set('and but so then or that who which'.split(' '))

/** "... my friend said", "... mom keeps saying:": the words before a quote, ending with a speech verb (1). */
const SAID_BEFORE = new RegExp(`\\b(${SPEECH_VERB})\\s*[:,]?\\s*$`)
/** Verbs that end a quote's sentence with its speaker ('"...," my friend said'). */
const SAID_AFTER_VERB = 'said|says|asked|asks|replied|replies|wrote|writes|added|explained|answered|told me|yelled'
/** '"...," my friend said', '"...," said tom', '"...", she wrote': the speaker (1 or 2) after a quote. */
const SAID_AFTER = new RegExp(
  `^\\s*[,.!?]?\\s*(?:([a-z']+(?: [a-z']+)?) (?:${SAID_AFTER_VERB})\\b|(?:${SAID_AFTER_VERB}) ([a-z']+))`,
)

/**
 * Whether the speaker of a quote is someone else: the words before it name a speaker other than the person
 * ("my friend said"), or the words after it do ('"...," my friend said'). Quotes the person says ("i always say
 * ...") and quotes with no speaker (titles: 'my favorite book is "dune"') are the person's.
 */
function quotesSomeoneElse(before: string, after: string): boolean {
  const said = SAID_BEFORE.exec(before)
  if (said) return !isPersonSpeaker(before.slice(0, said.index))
  const later = SAID_AFTER.exec(after)
  if (!later) return false
  const speaker = (later[1] ?? later[2] ?? '').split(' ')[0]!
  return speaker !== 'i' && speaker !== 'we' && !NO_SPEAKER.has(speaker)
}

/** Whether the words before a speech verb end with the person as its speaker ("i always", "we"). */
function isPersonSpeaker(before: string): boolean {
  const words = before.trim().split(/\s+/)
  let index = words.length - 1
  while (index >= 0 && SPEAKER_ADVERBS.has(words[index]!)) index--
  const speaker = words[index] ?? ''
  return speaker === 'i' || speaker === 'we' || speaker === '' || NO_SPEAKER.has(speaker)
}

/** A quoted span on one line; the class is negated and the length bounded, so the scan is linear. */
const QUOTE = /"([^"\n]{1,400})"/g
/** How far before and after a quote its speaker is looked for. */
const SPEAKER_WINDOW = 60

/**
 * The normalised text without the quotes that someone else says: 'my friend said "i love paris" but i prefer
 * london' reads 'my friend said "" but i prefer london'. Only double quotes count: an apostrophe is no quote mark.
 */
export function withoutOthersQuotes(normalized: string): string {
  if (!normalized.includes('"')) return normalized
  return normalized.replace(QUOTE, (whole: string, _inner: string, offset: number) => {
    const before = normalized.slice(Math.max(0, offset - SPEAKER_WINDOW), offset)
    const end = offset + whole.length
    const after = normalized.slice(end, end + SPEAKER_WINDOW)
    return quotesSomeoneElse(before, after) ? '""' : whole
  })
}

/**
 * "my dad says i am a great cook", "he told me i should be a doctor", "mom keeps saying i am lazy": someone else's
 * words about the person (the verb, 1). Not "i said i love jazz", "i think i am shy": the person's own.
 */
const REPORTED_ABOUT_ME = new RegExp(pattern`
  \b(say|says|said|saying|think|thinks|thought|believe|believes|believed|tell me|tells me|told me|told us|insist|
  insists|insisted|claim|claims|claimed|swear|swears|swore|reckon|reckons)(?: that)? i\b`)

/** Whether the clause reports what someone else says or thinks of the person. */
export function reportsSomeoneElse(clauseText: string): boolean {
  const match = REPORTED_ABOUT_ME.exec(clauseText)
  if (!match) return false
  return !isPersonSpeaker(clauseText.slice(0, match.index))
}

/**
 * "in the book, ...", "in my game i am ...", "in my dream i was ...": a sentence that opens inside a story, a game or
 * a dream tells what happens there, not what the person is.
 */
const STORY_FRAME = new RegExp(pattern`
  ^(?:and |but |so )?in (?:the|my|this|that|our|his|her|their|a|one) (?:[a-z]+ )?(?:book|novel|story|game|video game|
  movie|film|show|series|dream|play|comic|episode|manga|anime|campaign|fanfic|cartoon|musical|song)s?
  (?=,|\s(?:i|the|a|an|my|he|she|they|there|you|we|his|her|their|everyone|someone|it)\b)`)

/** Whether a sentence opens inside a story, a game or a dream. */
export function opensStory(sentence: string): boolean {
  return STORY_FRAME.test(sentence)
}

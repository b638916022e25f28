// Text about one person in the third person ("Maria is a 34 year old nurse from Lisbon. She loves jazz.") is
// rewritten into the first person so that the same rules apply; the name and pronouns are evidence themselves.
import { OCCUPATIONS } from './lexicon-core.js'
import { nlpHas, peopleIn } from './nlp.js'
import { genderOfPeopleNoun, otherSubject } from './others.js'
import { ADV } from './rules-common.js'
import { baseOfThirdPerson, chunk, MAX_SENTENCE_CHARS } from './text.js'
import { pattern, re, rxg } from './regex.js'

export interface ThirdPerson {
  /** The text rewritten in the first person. */
  text: string
  name?: string
  gender?: 'female' | 'male'
}

const VERB_AFTER_NAME = new RegExp(pattern`
  ^(?:,|'s\b|\s+(?:is|was|has|had|lives|lived|works|worked|loves|likes|enjoys|grew|moved|plays|teaches|runs|owns|
  studies|studied|recently|just|also|often|never|does|did|will|can|used|got|became|started|graduated|married|comes|came|
  goes|went|prefers|hates|wants|speaks|writes|reads|spends|visits|travels|collects|believes|feels|thinks|turned|
  turns)\b)`)
const NOT_VERBS = new Set([
  'us',
  'this',
  'its',
  'yes',
  'perhaps',
  'plus',
  'thus',
  'less',
  'unless',
  'across',
  'whereas',
  'various',
  'famous',
  'serious',
  'nervous',
  'anxious',
  'was',
])
const HER_AS_OBJECT = new RegExp(pattern`
  ^(?:$|[,.!?;]|and\b|or\b|but\b|to\b|for\b|with\b|about\b|at\b|in\b|on\b|from\b|so\b|because\b|too\b|a lot\b|very\b|
  again\b|back\b|up\b|out\b|off\b|when\b|that\b|if\b|the\b|a\b|an\b|how\b|what\b|why\b|as\b|like\b)`)

/** "Ted Lasso is such a good show": a title said of what it is, never a person's name. */
const TITLE_AFTER_NAME = new RegExp(pattern`^\s+(?:is|was|has been)\s+(?:(?:such|so|really|truly|honestly|definitely|
  the|a|an|my|one|of|best|greatest|good|great|amazing|awesome|fantastic|favorite|favourite|fave|underrated|overrated|
  classic|new|old|tv|fun|funny|brilliant|incredible|perfect|top|all-time|time)\s+){0,6}(?:show|series|sitcom|movie|
  film|book|novel|game|song|album|band|podcast|anime|manga|comic|franchise|musical|play|documentary)s?\b`)
/** "Christopher Columbus is a distant relative": someone the person is related to or knows, never the person. */
const RELATION_AFTER_NAME = new RegExp(pattern`^\s+(?:is|was)\s+(?:actually\s+|also\s+|really\s+)?(?:a|an|my|our)\s+
  (?:(?:distant|close|good|best|old|great|dear|childhood|family)\s+){0,2}(?:relative|relation|ancestor|cousin|friend|
  neighbou?r|hero|idol|role model)s?\b`)
/** "Ew, dogs!", "Ugh, Mondays": a word said before a comma that is a sound of feeling, never a name. */
const INTERJECTION = new RegExp(pattern`^(?:e+w+|u+g+h+|w+o+w+|o+h+|a+h+|a+w+h?|hey|hi|hello|howdy|ruff|woof|boy|man|
  dude|gee|golly|lol|omg|ya+y|yikes|h+m+|meh|nah|yeah|yep|yup|nope|oops|(?:ha)+|welp|whoa|gosh|geez|jeez|dang|ouch|
  phew|ok|okay|congrats|wo+t|ye+s|no+)$`)
/** "Maria, 34, nurse", "Sam, a retired pilot": what a bio that opens as a list goes on with after the name. */
const LIST_AFTER_NAME = /^,\s*(?:\d{1,3}\b|an? |from |born |originally |retired\b|married\b|single\b|mother\b|father\b)/

/** Verbs said only of people after a name: "Priya lives in Lisbon" (not "is" or "has": "Food is important"). */
const PERSON_VERB_AFTER = new RegExp(pattern`^\s+(?:lives|lived|works|worked|loves|likes|enjoys|grew up|moved|teaches|
  taught|studies|studied|graduated|married|became|speaks|believes|feels|thinks|turned|turns|was born|is \d|is from)\b`)

/** Whether the words after a name say what a person does or is: a verb of people, or a job ("is a nurse"). */
function saidOfAPerson(after: string): boolean {
  if (PERSON_VERB_AFTER.test(after)) return true
  const role = /^\s+(?:is|was) an? ((?:[a-z-]+ ){0,3}[a-z-]+)/.exec(after)
  return !!role && role[1]!.split(' ').some((word) => OCCUPATIONS.has(word))
}

/** "He said he is moving", "she told me": a text that reports someone's words is no bio of them. */
const REPORTING_OPENER = /^\s*(?:she|he) (?:said|says|told|tells|texted|asked|asks|thinks|thought|keeps saying)\b/

/** Finds the person's name at the start of the text ("Maria Lopez is ...", "maria, 34, ..."). */
function leadingName(normalized: string, original: string, knownName?: string): string | undefined {
  const match = /^\s*([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2})/.exec(original)
  const after = match ? original.slice(match.index + match[0].length).toLowerCase() : ''
  // "Maria, you are great", "Tom, how was the trip?": the name of whom the text speaks to
  if (
    match &&
    /^,\s*(?:you|your|u|thanks|thank|please|how|what|where|when|why|do|did|are|can|could|would)\b/.test(after)
  )
    return undefined
  if (match && (TITLE_AFTER_NAME.test(after) || RELATION_AFTER_NAME.test(after))) return undefined
  // "Dolly, of course!": a name said as an answer; a bio's list goes on with an age, a job or where from
  if (
    match &&
    /^,/.test(after) &&
    !LIST_AFTER_NAME.test(after) &&
    !OCCUPATIONS.has(/^,\s*([a-z]+)/.exec(after)?.[1] ?? '')
  )
    return undefined
  if (match && VERB_AFTER_NAME.test(after)) {
    const cand = match[1].toLowerCase()
    // "Dad is a pilot": a relative the person writes about, not a name
    if (KIN_AS_NAME.test(cand)) return undefined
    const first = cand.split(' ')[0]!
    if (INTERJECTION.test(first)) return undefined
    // "Europe is so much fun", "Aerosmith is a classic band": a place or a band, not the person
    if (!nlpHas(first, '#Person') && nlpHas(first, '(#Place|#Organization)')) return undefined
    if (nlpHas(first, '#Person')) return cand
    // a word compromise knows as no name's ("Food is important", "College is the place"): a name only when a pronoun
    // points back at it later, an age follows it ("Zainab, 34, nurse") or what follows is said of people ("Zainab
    // lives in Leeds", "Priya is a nurse")
    const pointedBack = /\b(?:she|her|he|him|his)\b/.test(after) || /^,\s*\d{1,3}\b/.test(after) || saidOfAPerson(after)
    if (
      pointedBack &&
      !nlpHas(
        first,
        '(#Pronoun|#Determiner|#Conjunction|#Adverb|#Preposition|#Date|#Value|#Adjective|#Verb|#Possessive|' +
          '#QuestionWord|#Expression)',
      )
    )
      return cand
  }
  if (knownName) {
    const known = knownName.toLowerCase()
    if (normalized.startsWith(known) || normalized.startsWith(known.split(' ')[0] + ' '))
      return normalized.startsWith(known) ? known : known.split(' ')[0]
  }
  // The opening sentence, bounded: a leading name is near the start, and compromise's cost grows with the square of it.
  const first = chunk(normalized.split(/[.!?\n]/, 1)[0]!, MAX_SENTENCE_CHARS)[0] ?? ''
  const people = peopleIn(first)
  const person = people[0]
    ?.toLowerCase()
    .replace(/[^a-z' -]/g, '')
    .trim()
  const rest = person ? first.slice(person.length) : ''
  const notThePerson = TITLE_AFTER_NAME.test(rest) || RELATION_AFTER_NAME.test(rest)
  if (person && first.startsWith(person) && VERB_AFTER_NAME.test(rest) && !notThePerson) return person
  return undefined
}

export function toFirstPerson(normalized: string, original: string, knownName?: string): ThirdPerson | undefined {
  if (/\b(?:i|me|my|mine|myself)\b/.test(normalized)) return undefined
  // "Judy Davis is a force of nature in the role... melt you away, was it the Etudes?": a message that asks the
  // reader something is talk about someone, not a bio of the person
  if (/\b(?:you|your|u)\b[^.!?]*\?|\?[^.!?]*\b(?:you|your|u)\b/.test(normalized)) return undefined
  const name = leadingName(normalized, original, knownName)
  const segments = segmentsOf(normalized, name)
  // the person's pronouns: all of those in parts about them, the opening possessive of parts about a relative
  const ownText = segments
    .map((segment) =>
      segment.about === 'person' ? segment.text : segment.about === 'relative' ? openingWord(segment.text) : '',
    )
    .join(' ')
  const she = (ownText.match(/\b(?:she|her|hers|herself)\b/g) ?? []).length
  const he = (ownText.match(/\b(?:he|him|his|himself)\b/g) ?? []).length
  // a bio opens with its pronoun ("She lives in Lisbon."); one after a fragment points back at what the fragment
  // named ("watched Oppenheimer last night, he was a physicist")
  const pronounOpens =
    segments[0]?.about === 'person' &&
    /^\s*(?:she|he)\s/.test(segments[0].text) &&
    !REPORTING_OPENER.test(segments[0].text) &&
    (name !== undefined || pronounBio(normalized))
  if (!name && !pronounOpens) return undefined
  const pronoun = she >= he ? 'she' : 'he'
  let text = segments.map((segment) => rewriteSegment(segment, pronoun)).join('')
  if (name) {
    const names = [name, ...(name.includes(' ') ? [name.split(' ')[0]] : [])]
    for (const n of names) {
      const escaped = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      text = text.replace(re(`\\b${escaped}'s\\b`, 'g'), 'my').replace(re(`\\b${escaped}\\b`, 'g'), 'i')
    }
  }
  // "Maria, 34, nurse from Lisbon": the name opened a list of what she is, which reads without it
  text = text.replace(/^(\s*)i,\s*/, '$1')
  // agreement: "i is" -> "i am", "i loves" -> "i love"
  text = text
    .replace(/\bi is\b/g, 'i am')
    .replace(rxg`\\bi (${ADV})([a-z]+s)\\b`, (m, adv: string, verb: string) =>
      NOT_VERBS.has(verb) || verb.endsWith('ss') || verb.endsWith('us') ? m : `i ${adv}${baseOfThirdPerson(verb)}`,
    )
  const gender = she > he ? 'female' : he > she ? 'male' : undefined
  return { text, ...(name ? { name } : {}), ...(gender ? { gender } : {}) }
}

/**
 * Whether a text with no name, opened by a pronoun, reads as a bio: every sentence of two or more opens with the same
 * pronoun ("She lives in Lisbon. She loves jazz."), and the text speaks to no one and of no "we". A chat message that
 * opens with one is about whoever the message before named: "He's a sweet black lab", "She's 26. Do you play?".
 */
function pronounBio(normalized: string): boolean {
  if (/\b(?:you|your|u|we|us|our)\b/.test(normalized)) return false
  const sentences = normalized.split(/[.!?\n]+/).filter((sentence) => sentence.trim())
  const pronoun = /^\s*(she|he)\b/.exec(sentences[0] ?? '')?.[1]
  return sentences.length >= 2 && sentences.every((sentence) => new RegExp(`^\\s*${pronoun}\\b`).test(sentence))
}

/** The first word of a part ("her" of "her brother is a pilot."). */
function openingWord(segment: string): string {
  return /^\s*(?:(?:and|but|so|then) )?([a-z']+)/.exec(segment)?.[1] ?? ''
}

/**
 * One part in the first person: all of the person's pronouns in a part about them; only the opening possessive of a
 * part about a relative ("her brother loves his dog" -> "my brother loves his dog"); nothing in a part about someone
 * else ("she loves skiing" after "his sister lives in oslo").
 */
function rewriteSegment(segment: Segment, pronoun: 'she' | 'he'): string {
  if (segment.about === 'other') return segment.text
  if (segment.about === 'relative') {
    const possessive = pronoun === 'she' ? 'her' : 'his'
    return segment.text.replace(re(`^(\\s*(?:(?:and|but|so|then) )?)${possessive}\\b`), '$1my')
  }
  let text = segment.text.replace(re(`\\b${pronoun}\\b`, 'g'), 'i').replace(/\b(?:herself|himself)\b/g, 'myself')
  if (pronoun === 'he') text = text.replace(/\bhis\b/g, 'my').replace(/\bhim\b/g, 'me')
  else
    text = text.replace(
      /\bher\b(\s*)(.{0,12})/g,
      (_m, sp: string, rest: string) => (HER_AS_OBJECT.test(rest) ? 'me' : 'my') + sp + rest,
    )
  return text
}

/** A part of the text: a sentence, or a clause that opens with a pronoun ("..., and she loves skiing"). */
interface Segment {
  /** The part with the spaces after it, so that the parts joined give the text back. */
  text: string
  /**
   * Whom it is about: `relative`, a person it names ("his sister lives in oslo", "dad is a pilot"); `other`, that
   * person again by a pronoun ("she loves skiing"); `person`, the person the text is about.
   */
  about: 'person' | 'relative' | 'other'
}

/** Where a part ends: a sentence's end, or before a pronoun after a comma or a conjunction. */
const SEGMENT_END = /[.!?;\n]\s*|,\s*(?=(?:and |but |so |then )?(?:she|he)\b)|\s(?=(?:and|but|so|then) (?:she|he)\b)/g
/** Family words used as names ("Dad is a pilot."): a relative, never the person the text is about. */
const KIN_AS_NAME = /^(?:mom|mum|mommy|mother|dad|daddy|father|grandma|grandpa|granny|nana|papa|auntie)\b/

/**
 * The text cut into parts, each marked with whom it is about. A part whose subject is a relative or a friend makes
 * the next parts that open with a pronoun of their gender theirs too, until a part opens with the name or with the
 * other pronoun.
 */
function segmentsOf(normalized: string, name: string | undefined): Segment[] {
  const segments: Segment[] = []
  let other: 'female' | 'male' | 'any' | undefined
  let start = 0
  const cut = (end: number) => {
    const text = normalized.slice(start, end)
    start = end
    if (!text) return
    const body = text.trim().replace(/^(?:and|but|so|then) /, '')
    const pronoun = /^(?:she|he)\b/.exec(body)?.[0]
    const noun = pronoun ? undefined : (otherSubject(body) ?? KIN_AS_NAME.exec(body)?.[0])
    let about: Segment['about'] = 'person'
    if (noun) {
      other = genderOfPeopleNoun(noun) ?? 'any'
      about = 'relative'
    } else if (pronoun) {
      const gender = pronoun === 'she' ? 'female' : 'male'
      if (other !== 'any' && other !== gender) other = undefined
      if (other) about = 'other'
    } else if (name && body.startsWith(name.split(' ')[0]!)) other = undefined
    segments.push({ text, about })
  }
  for (const match of normalized.matchAll(SEGMENT_END)) cut(match.index + match[0].length)
  cut(normalized.length)
  return segments
}

/** The person's own words and what they are in the third person. */
export const OWN_TO_THIRD: Record<string, string> = {
  my: 'their',
  mine: 'theirs',
  me: 'them',
  myself: 'themself',
  our: 'their',
  ours: 'theirs',
  ourselves: 'themselves',
}

/**
 * A memory's words about the person, in the third person as the rest of the memory is ("went to the ocean with their
 * fiance", "took baths when they were recovering"): a reader of the profile or the context is not the person, and
 * "my" there would read as the reader's. Lower-case text, as the rules read it.
 */
export function ownWordsInThirdPerson(event: string): string {
  return event
    .replace(/\bi (am|was)\b/g, (_, be: string) => (be === 'am' ? 'they are' : 'they were'))
    .replace(/\bi\b/g, 'they')
    .replace(/\b(?:my|mine|me|myself|our|ours|ourselves)\b/g, (word) => OWN_TO_THIRD[word]!)
}

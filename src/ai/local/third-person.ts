// Text about one person in the third person ("Maria is a 34 year old nurse from Lisbon. She loves jazz.") is
// rewritten into the first person so that the same rules apply; the name and pronouns are evidence themselves.
import { nlpHas, peopleIn } from './nlp.js'
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

/** Finds the person's name at the start of the text ("Maria Lopez is ...", "maria, 34, ..."). */
function leadingName(normalized: string, original: string, knownName?: string): string | undefined {
  const match = /^\s*([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2})/.exec(original)
  if (match && VERB_AFTER_NAME.test(original.slice(match.index + match[0].length).toLowerCase())) {
    const cand = match[1].toLowerCase()
    const first = cand.split(' ')[0]
    if (
      nlpHas(first, '#Person') ||
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
  if (person && first.startsWith(person) && VERB_AFTER_NAME.test(first.slice(person.length))) return person
  return undefined
}

export function toFirstPerson(normalized: string, original: string, knownName?: string): ThirdPerson | undefined {
  if (/\b(?:i|me|my|mine|myself)\b/.test(normalized)) return undefined
  const name = leadingName(normalized, original, knownName)
  const she = (normalized.match(/\b(?:she|her|hers|herself)\b/g) ?? []).length
  const he = (normalized.match(/\b(?:he|him|his|himself)\b/g) ?? []).length
  if (!name && !/(?:^|[.!?]\s+)(?:she|he)\s/.test(normalized)) return undefined
  let text = normalized
  if (name) {
    const names = [name, ...(name.includes(' ') ? [name.split(' ')[0]] : [])]
    for (const n of names) {
      const escaped = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      text = text.replace(re(`\\b${escaped}'s\\b`, 'g'), 'my').replace(re(`\\b${escaped}\\b`, 'g'), 'i')
    }
  }
  const pronoun = she >= he ? 'she' : 'he'
  const poss = pronoun === 'she' ? 'her' : 'his'
  text = text.replace(re(`\\b${pronoun}\\b`, 'g'), 'i').replace(/\b(?:herself|himself)\b/g, 'myself')
  if (poss === 'his') text = text.replace(/\bhis\b/g, 'my').replace(/\bhim\b/g, 'me')
  else
    text = text.replace(
      /\bher\b(\s*)(.{0,12})/g,
      (_m, sp: string, rest: string) => (HER_AS_OBJECT.test(rest) ? 'me' : 'my') + sp + rest,
    )
  // agreement: "i is" -> "i am", "i loves" -> "i love"
  text = text
    .replace(/\bi is\b/g, 'i am')
    .replace(rxg`\\bi (${ADV})([a-z]+s)\\b`, (m, adv: string, verb: string) =>
      NOT_VERBS.has(verb) || verb.endsWith('ss') || verb.endsWith('us') ? m : `i ${adv}${baseOfThirdPerson(verb)}`,
    )
  const gender = she > he ? 'female' : he > she ? 'male' : undefined
  return { text, ...(name ? { name } : {}), ...(gender ? { gender } : {}) }
}

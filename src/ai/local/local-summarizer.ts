// Template summary (docs/guides/summary-instructions.md): 1-4 sentences, present tense, third person, only what the
// profile holds. Sentence 1 is who the person is; then interests, personality and mood, preferences; a key memory if
// room is left.
import nlp from 'compromise'
import type { CoreInfo, ProfileContent, Scored } from '../../domain/profile.js'
import { byConfidence, clean, rankMemories, values } from '../profile-text.js'
import type { Summarizer } from '../types.js'
import { planSummary, type SummaryPart, type SummarySection } from '../../domain/summary-instructions.js'

const MAX_INTERESTS = 5
const MAX_TRAITS = 3
const MAX_AVOID = 3
const MAX_SENTENCES = 4

export const EMPTY_SUMMARY = 'No profile information has been extracted yet.'

// Occupations that are states, not job titles: "is retired", not "is a retired".
const STATUS =
  /^(retired|semi-retired|unemployed|employed|self[- ]employed|jobless|between jobs|on disability|freelanc\w*)$/i
// Occupations given as a verb phrase: "works at a bank", "teach kindergarten".
const VERBS: Record<string, string> = {
  work: 'works',
  teach: 'teaches',
  run: 'runs',
  own: 'owns',
  manage: 'manages',
  study: 'studies',
  volunteer: 'volunteers',
  sell: 'sells',
  drive: 'drives',
  write: 'writes',
  help: 'helps',
  make: 'makes',
  do: 'does',
  build: 'builds',
  fix: 'fixes',
  care: 'cares',
  serve: 'serves',
}
const THIRD_PERSON = new Set(Object.values(VERBS))

/** "a"/"an" before a noun phrase, unless it already has a determiner or number, or reads as a plural. */
function withArticle(phrase: string): string {
  if (/^(a|an|the|my|his|her|their|some|two|three|several|many)\s/i.test(phrase) || /^\d/.test(phrase)) return phrase
  return `${/^[aeiou]/i.test(phrase) && !/^(uni|use|eu|one)/i.test(phrase) ? 'an' : 'a'} ${phrase}`
}

/** "a", "a and b", "a, b and c". */
function list(items: string[], conj = 'and'): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`
}

/** Verb phrases joined with a serial comma when there are several: "enjoy x, and have a dog". */
function phrases(items: string[]): string {
  if (items.length <= 2) return items.join(', and ')
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`
}

function capitalise(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}

function text(scored: Scored<string> | undefined): string | undefined {
  const value = scored ? clean(String(scored.value)) : ''
  return value === '' ? undefined : value
}

function genderNoun(gender: string | undefined, age: number | undefined): string | undefined {
  const lowered = gender?.toLowerCase()
  const young = age !== undefined && age < 18
  if (lowered === 'female' || lowered === 'woman' || lowered === 'f') return young ? 'girl' : 'woman'
  if (lowered === 'male' || lowered === 'man' || lowered === 'm') return young ? 'boy' : 'man'
  return undefined
}

/** "Maria is a 34-year-old nurse who lives in Lisbon." Undefined when nothing about identity is known. */
function identity(subject: string, core: CoreInfo): string | undefined {
  const age = core.age && Number.isFinite(core.age.value) ? Math.round(core.age.value) : undefined
  const occupation = text(core.occupation)
  const location = text(core.location)
  const gender = text(core.gender)
  // "a 34-year-old", "an 18-year-old", "an 8-year-old"
  const ageArticle = age !== undefined && /^(8|11|18|8\d)$|^8\d\d$/.test(String(age)) ? 'an' : 'a'
  const predicates: string[] = []
  let noun: string | undefined
  let occupationVerb: string | undefined
  if (occupation && STATUS.test(occupation)) predicates.push(`is ${occupation.toLowerCase()}`)
  else if (occupation) {
    const [first, ...rest] = occupation.split(' ')
    const lower = first.toLowerCase()
    if (rest.length && VERBS[lower]) occupationVerb = [VERBS[lower], ...rest].join(' ')
    else if (rest.length && THIRD_PERSON.has(lower)) occupationVerb = occupation
    else noun = occupation.replace(/^(a|an)\s+/i, '')
  }
  noun ??= genderNoun(gender, age)
  if (noun)
    predicates.unshift(age !== undefined ? `is ${ageArticle} ${age}-year-old ${noun}` : `is ${withArticle(noun)}`)
  else {
    if (age !== undefined) predicates.unshift(`is ${age} years old`)
    if (gender) predicates.push(`is ${gender.toLowerCase()}`)
  }
  if (occupationVerb) predicates.push(occupationVerb)
  if (location) predicates.push(`lives in ${location}`)
  if (predicates.length === 0) {
    return core.name ? `This person's name is ${subject}.` : undefined
  }
  // A noun phrase reads best with a relative clause: "is a nurse who lives in Lisbon".
  if (noun && predicates.length === 2) return `${subject} ${predicates[0]} who ${predicates[1]}.`
  return `${subject} ${list(predicates)}.`
}

type Verb = { base: string; third: string; item?: (value: string) => string }
const ENJOY: Verb = { base: 'enjoy', third: 'enjoys' }
const VERB_BY_CATEGORY: [RegExp, Verb][] = [
  [/pet/, { base: 'have', third: 'has', item: (v) => (/s$/i.test(v) ? v : withArticle(v)) }],
  [/music|song|band/, { base: 'listen to', third: 'listens to' }],
  [/book|read|literat/, { base: 'read', third: 'reads' }],
  [/movie|film|tv|show|series/, { base: 'watch', third: 'watches' }],
  [/food|drink|cuisine|dish/, { base: 'like', third: 'likes' }],
  [/travel|place|destination/, { base: 'like to visit', third: 'likes to visit', item: (v) => v }],
]

function verbFor(category: string): Verb {
  const lowered = category.toLowerCase()
  return VERB_BY_CATEGORY.find(([re]) => re.test(lowered))?.[1] ?? ENJOY
}

/** "They enjoy hiking and jazz, and have a dog." Top interests by confidence, grouped by what one does with them. */
function interests(subject: string, singular: boolean, all: Record<string, Scored<string>[]>): string | undefined {
  const flat = Object.entries(all).flatMap(([category, items]) =>
    items.map((i) => ({ category, value: clean(String(i.value)), confidence: i.confidence })),
  )
  const seen = new Set<string>()
  const top = byConfidence(flat.filter((i) => i.value !== '')).filter((item) => {
    const key = item.value.toLowerCase()
    return seen.has(key) ? false : (seen.add(key), true)
  })
  if (top.length === 0) return undefined
  const groups = new Map<Verb, string[]>()
  for (const i of top.slice(0, MAX_INTERESTS)) {
    let verb = verbFor(i.category)
    // "likes to visit hiking trips" reads wrong: activities are enjoyed.
    if (verb.item && verb.base.startsWith('like to') && /(ing|trips?|travel)\b/i.test(i.value)) verb = ENJOY
    // "reads reading", "listens to singing": an activity is enjoyed, whatever its category
    if (
      !verb.item &&
      /^[a-z]+ing$/i.test(i.value) &&
      !/^(?:ring|king|thing|string|spring|wing|sing|bling)$/i.test(i.value)
    )
      verb = ENJOY
    const items = groups.get(verb) ?? []
    items.push(verb.item ? verb.item(i.value) : i.value)
    groups.set(verb, items)
  }
  const parts = [...groups].map(([verb, items]) => `${singular ? verb.third : verb.base} ${list(items)}`)
  return `${subject} ${phrases(parts)}.`
}

/** Adjectives stay bare, role nouns get an article: "kind, curious and an animal activist". */
function trait(phrase: string): string {
  const terms = nlp(phrase).terms().json() as { terms: { tags: string[] }[] }[]
  const last = terms[terms.length - 1]?.terms[0]?.tags ?? []
  const isRole =
    last.includes('Actor') || (terms.length > 1 && last.includes('Singular') && !last.includes('Adjective'))
  return isRole ? withArticle(phrase) : phrase
}

function personality(subject: string, singular: boolean, profile: ProfileContent): string | undefined {
  const traits = values(profile.personality.traits, MAX_TRAITS).map(trait)
  const mood = text(profile.personality.mood_trends.recent)
  const be = singular ? 'is' : 'are'
  const feel = singular ? 'feels' : 'feel'
  if (traits.length && mood) return `${subject} ${be} ${list(traits)}, and lately ${feel} ${mood}.`
  if (traits.length) return `${subject} ${be} ${list(traits)}.`
  if (mood) return `Lately ${subject === 'They' ? 'they' : subject} ${feel} ${mood}.`
  return undefined
}

function preferences(subject: string, profile: ProfileContent): string | undefined {
  const style = text(profile.preferences.conversation_style)
  const avoid = values(profile.preferences.topics_to_avoid, MAX_AVOID)
  const possessive = subject === 'They' ? 'Their' : `${subject}'s`
  const styleText = style ? `${possessive} preferred conversation style is ${style}` : undefined
  const avoidText = avoid.length ? `avoid talking about ${list(avoid, 'or')}` : undefined
  if (styleText && avoidText) return `${styleText}; ${avoidText}.`
  if (styleText) return `${styleText}.`
  if (avoidText) return `${capitalise(avoidText)}.`
  return undefined
}

function memory(profile: ProfileContent): string | undefined {
  const keyEvent = rankMemories(profile.memories)[0]
  if (!keyEvent) return undefined
  return `A key event in their life: ${clean(keyEvent.event)}${keyEvent.date ? ` (${keyEvent.date})` : ''}.`
}

/** The profile without the parts the instructions leave out (a copy; the stored profile is never touched). */
function without(profile: ProfileContent, omit: Set<SummaryPart>): ProfileContent {
  if (!omit.size) return profile
  const core: CoreInfo = { ...profile.core_info }
  for (const f of ['name', 'age', 'gender', 'location', 'occupation'] as const) if (omit.has(f)) delete core[f]
  return {
    core_info: core,
    interests: omit.has('interests') ? {} : profile.interests,
    personality: {
      traits: omit.has('traits') ? [] : profile.personality.traits,
      mood_trends: omit.has('mood') ? {} : profile.personality.mood_trends,
    },
    memories: omit.has('memories') ? [] : profile.memories,
    preferences: {
      ...(omit.has('conversation_style') || !profile.preferences.conversation_style
        ? {}
        : { conversation_style: profile.preferences.conversation_style }),
      topics_to_avoid: omit.has('topics_to_avoid') ? [] : profile.preferences.topics_to_avoid,
    },
  }
}

/**
 * Builds the summary from profile content alone. Same content and instructions, same summary. The instructions the
 * template understands (src/domain/summary-instructions.ts) leave parts out, put sections first, or make sure a section
 * is written even past the sentence limit; the others are ignored here (an LLM summarizer reads them all).
 */
export function summarizeProfile(input: ProfileContent, instructions?: readonly string[]): string {
  const plan = planSummary(instructions)
  const profile = without(input, plan.omit)
  const name = text(profile.core_info.name)
  const make: Record<SummarySection, (subject: string, singular: boolean) => string | undefined> = {
    // The identity sentence names the person wherever it stands.
    identity: () => identity(name ?? 'This person', profile.core_info),
    interests: (s, one) => interests(s, one, profile.interests),
    personality: (s, one) => personality(s, one, profile),
    preferences: (s) => preferences(s, profile),
    memories: () => memory(profile),
  }
  // Which sections get a sentence: those with something to say, covered ones before the others, at most MAX_SENTENCES.
  const probe = (s: SummarySection) => make[s]('They', false) !== undefined
  const present = plan.order.filter(probe)
  const chosen = new Set(
    [...present.filter((s) => plan.cover.has(s)), ...present.filter((s) => !plan.cover.has(s))].slice(0, MAX_SENTENCES),
  )
  // The first sentence names the person; later ones say "They".
  const sentences: string[] = []
  for (const s of plan.order) {
    if (!chosen.has(s)) continue
    const out = sentences.length === 0 ? make[s](name ?? 'This person', true) : make[s]('They', false)
    if (out) sentences.push(out)
  }
  return sentences.length ? sentences.join(' ') : EMPTY_SUMMARY
}

export class LocalSummarizer implements Summarizer {
  readonly name = 'local'

  async summarize(
    profile: ProfileContent,
    signal?: AbortSignal,
    instructions?: readonly string[],
  ): Promise<{ summary: string }> {
    signal?.throwIfAborted()
    return { summary: summarizeProfile(profile, instructions) }
  }
}

// Summary instructions per app (docs/guides/summary-instructions.md): a few short sentences saying what a profile's
// summary must cover or leave out. Pure: checking them, and reading the forms the template (local) summarizer
// understands.
import { invalid } from './errors.js'

export const MAX_INSTRUCTIONS = 5
export const MAX_INSTRUCTION_CHARS = 200

/** Refused in an instruction: control, private-use, unassigned-surrogate and invisible format characters. */
const REFUSED = /[\p{Cc}\p{Cs}\p{Co}\p{Zl}\p{Zp}\uFFFE\uFFFF]|(?![\u200C\u200D])\p{Cf}/u

/**
 * The instructions as stored: each NFC, trimmed, runs of spaces as one; at most 5 of 1-200 characters; duplicates
 * (ignoring case) dropped. Throws VALIDATION_FAILED with what is wrong.
 */
export function checkInstructions(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw invalid('Summary instructions must be a list of strings')
  if (raw.length > MAX_INSTRUCTIONS)
    throw invalid(`At most ${MAX_INSTRUCTIONS} summary instructions (got ${raw.length})`)
  const out: string[] = []
  const seen = new Set<string>()
  for (const [i, given] of raw.entries()) {
    if (typeof given !== 'string') throw invalid(`Summary instruction ${i + 1} must be a string`)
    const bad = REFUSED.exec(given)
    if (bad) {
      const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')
      throw invalid(`Summary instruction ${i + 1} must not contain control or invisible characters (found U+${cp})`)
    }
    const instruction = given
      .normalize('NFC')
      .replace(/\p{Zs}+/gu, ' ')
      .trim()
    if (!instruction) throw invalid(`Summary instruction ${i + 1} must not be empty`)
    const chars = [...instruction].length
    if (chars > MAX_INSTRUCTION_CHARS)
      throw invalid(`Summary instruction ${i + 1} must be at most ${MAX_INSTRUCTION_CHARS} characters (got ${chars})`)
    const key = instruction.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(instruction)
  }
  return out
}

/** What a summary is made of, as the template summarizer builds it. */
export type SummaryPart =
  | 'name'
  | 'age'
  | 'gender'
  | 'location'
  | 'occupation'
  | 'interests'
  | 'traits'
  | 'mood'
  | 'conversation_style'
  | 'topics_to_avoid'
  | 'memories'

/** The sentences of the template summary, in their default order. */
export type SummarySection = 'identity' | 'interests' | 'personality' | 'preferences' | 'memories'
export const SECTIONS: SummarySection[] = ['identity', 'interests', 'personality', 'preferences', 'memories']

const SECTION_OF: Record<SummaryPart, SummarySection> = {
  name: 'identity',
  age: 'identity',
  gender: 'identity',
  location: 'identity',
  occupation: 'identity',
  interests: 'interests',
  traits: 'personality',
  mood: 'personality',
  conversation_style: 'preferences',
  topics_to_avoid: 'preferences',
  memories: 'memories',
}

/** Words for each part (a word names one part or a whole section). Matched whole, case-insensitive, plural or not. */
const WORDS: [RegExp, SummaryPart[]][] = [
  [/^(names?|first names?)$/, ['name']],
  [/^(ages?|how old)$/, ['age']],
  [/^(genders?|sex)$/, ['gender']],
  [/^(locations?|where (they|he|she) lives?|home ?towns?|cit(y|ies)|places? of residence|residence)$/, ['location']],
  [/^(occupations?|jobs?|work|professions?|careers?)$/, ['occupation']],
  [/^(identity|core info|basics?|who they are|demographics?)$/, ['name', 'age', 'gender', 'location', 'occupation']],
  [/^(interests?|hobb(y|ies)|likes?|passions?)$/, ['interests']],
  [/^(personality|character)$/, ['traits', 'mood']],
  [/^(traits?|personality traits?)$/, ['traits']],
  [/^(moods?|feelings?|emotions?|mood trends?)$/, ['mood']],
  [/^(preferences?)$/, ['conversation_style', 'topics_to_avoid']],
  [/^(conversation styles?|communication styles?|styles?)$/, ['conversation_style']],
  [/^(topics to avoid|avoided topics|sensitive topics|topics they avoid)$/, ['topics_to_avoid']],
  [/^(memor(y|ies)|key events?|events?|life events?|milestones?)$/, ['memories']],
]

function partsOf(phrase: string): SummaryPart[] | undefined {
  const cleaned = phrase
    .toLowerCase()
    .replace(/^(the|their|his|her|any|all)\s+/, '')
    .replace(/^(person's|user's)\s+/, '')
    .trim()
  return WORDS.find(([re]) => re.test(cleaned))?.[1]
}

/** A list of things: "age and location", "age, location, or gender". Undefined when any item is not a known part. */
function listOf(text: string): SummaryPart[] | undefined {
  const items = text
    .split(/\s*(?:,|;|\band\b|\bor\b|\bnor\b|&|\/)\s*/i)
    .map((s) => s.trim())
    .filter(Boolean)
  if (!items.length) return undefined
  const out: SummaryPart[] = []
  for (const item of items) {
    const parts = partsOf(item)
    if (!parts) return undefined
    out.push(...parts)
  }
  return [...new Set(out)]
}

/** One instruction as the template summarizer reads it. */
export type Directive = { kind: 'omit' | 'first' | 'cover'; parts: SummaryPart[] }

/** The verbs that ask the summary to leave a part out. */
const OMIT_VERBS = [
  'leave out',
  'omit',
  'exclude',
  'skip',
  'drop',
  'hide',
  'ignore',
  'never (?:mention|include|say)',
  "(?:do not|don't|dont) (?:mention|include|say|talk about|cover|state|reveal)",
  'no',
]
const OMIT = new RegExp(
  String.raw`^(?:please\s+)?(?:${OMIT_VERBS.join('|')})\s+(.+?)(?:\s+(?:from|in) the summary)?$`,
  'i',
)
/** The two ways to ask for a part first: "<verb> X first" and "start with X". */
const FIRST_FORMS = [
  String.raw`(?:mention|put|start with|lead with|begin with|open with|cover|describe)\s+(.+?)\s+first`,
  String.raw`(?:start|lead|begin|open) with\s+(.+?)`,
]
const FIRST = new RegExp(String.raw`^(?:please\s+)?(?:${FIRST_FORMS.join('|')})(?:\s+in the summary)?$`, 'i')
/** The verbs that ask the summary to cover a part. */
const COVER_VERBS = ['cover', 'include', 'mention', 'describe', 'talk about', 'say something about', 'keep']
const COVER = new RegExp(
  String.raw`^(?:please\s+)?(?:always\s+)?(?:${COVER_VERBS.join('|')})\s+(.+?)(?:\s+in the summary)?$`,
  'i',
)

/** The instruction as a directive of the template summarizer, or undefined when it is not one of its forms. */
export function parseInstruction(instruction: string): Directive | undefined {
  const cleaned = instruction
    .trim()
    .replace(/[.!]+$/, '')
    .trim()
  const omit = OMIT.exec(cleaned)
  if (omit) {
    const parts = listOf(omit[1]!)
    return parts ? { kind: 'omit', parts } : undefined
  }
  const first = FIRST.exec(cleaned)
  if (first) {
    const parts = listOf((first[1] ?? first[2])!)
    return parts ? { kind: 'first', parts } : undefined
  }
  const cover = COVER.exec(cleaned)
  if (cover) {
    const parts = listOf(cover[1]!)
    return parts ? { kind: 'cover', parts } : undefined
  }
  return undefined
}

/** What the template summarizer does with a list of instructions; the forms it does not know are left to an LLM. */
export interface SummaryPlan {
  omit: Set<SummaryPart>
  /** The sentences in the order they are written (sections asked for first come first, in the order asked). */
  order: SummarySection[]
  /** Sections that must be written even when the sentence limit would leave them out. */
  cover: Set<SummarySection>
}

export function planSummary(instructions: readonly string[] | undefined): SummaryPlan {
  const omit = new Set<SummaryPart>()
  const first: SummarySection[] = []
  const cover = new Set<SummarySection>()
  for (const instruction of instructions ?? []) {
    const directive = parseInstruction(instruction)
    if (!directive) continue
    if (directive.kind === 'omit') directive.parts.forEach((p) => omit.add(p))
    else {
      for (const part of directive.parts) {
        const section = SECTION_OF[part]
        cover.add(section)
        if (directive.kind === 'first' && !first.includes(section)) first.push(section)
      }
    }
  }
  // An omitted part is not also covered: leaving something out wins.
  for (const section of SECTIONS) if (partsIn(section).every((p) => omit.has(p))) cover.delete(section)
  const order = [...first.filter((s) => cover.has(s)), ...SECTIONS.filter((s) => !first.includes(s) || !cover.has(s))]
  return { omit, order, cover }
}

function partsIn(section: SummarySection): SummaryPart[] {
  return (Object.keys(SECTION_OF) as SummaryPart[]).filter((p) => SECTION_OF[p] === section)
}

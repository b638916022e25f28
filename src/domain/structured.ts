// input_type "structured" (docs/guides/submitting-data.md): a JSON object shaped like a partial Profile, taken as
// given. Hand-written checks rather than a schema library so every message names the exact field ("core_info.age ...").
import { DomainError } from './errors.js'
import type { CoreInfo, Extraction, Importance, Memory, Scored } from './profile.js'

/** A VALIDATION_FAILED domain error, so every transport already maps it to 400. */
export class StructuredInputError extends DomainError {
  /** Dotted path of the offending field ("core_info.age", "interests.music[2]"); undefined for the whole document. */
  readonly field?: string

  constructor(message: string, field?: string) {
    super('VALIDATION_FAILED', message)
    this.name = 'StructuredInputError'
    this.field = field
  }
}

type Json = Record<string, unknown>

const IMPORTANCES: Importance[] = ['low', 'medium', 'high']
const TEXT_CORE_FIELDS = ['name', 'gender', 'location', 'occupation'] as const

function fail(field: string, problem: string): never {
  throw new StructuredInputError(`${field} ${problem}`, field)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A known key: absent and null both mean "not given". */
function field(obj: Json, key: string): unknown {
  return Object.hasOwn(obj, key) && obj[key] !== null ? obj[key] : undefined
}

function object(value: unknown, path: string): Json {
  if (!isObject(value)) fail(path, `must be an object (got ${describe(value)})`)
  return value
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, `must be an array (got ${describe(value)})`)
  return value
}

function confidence(obj: Json, path: string): number {
  const given = field(obj, 'confidence')
  if (given === undefined) return 1
  if (typeof given !== 'number' || !Number.isFinite(given) || given < 0 || given > 1) {
    fail(`${path}.confidence`, 'must be a number between 0 and 1')
  }
  return given
}

/** How much a structured document may say: the longest value (PROFILER_PROFILE_MAX_VALUE_CHARS at POST time). */
export interface StructuredBounds {
  maxValueChars: number
}
const UNBOUNDED: StructuredBounds = { maxValueChars: Number.POSITIVE_INFINITY }

function text(value: string, path: string, bounds: StructuredBounds): string {
  if (value.length > bounds.maxValueChars)
    fail(path, `is longer than ${bounds.maxValueChars} characters (PROFILER_PROFILE_MAX_VALUE_CHARS)`)
  return value
}

/** A bare string (confidence 1.0) or {value, confidence?}. */
function scoredString(value: unknown, path: string, bounds: StructuredBounds): Scored<string> {
  if (typeof value === 'string') return { value: text(value, path, bounds), confidence: 1 }
  if (!isObject(value)) fail(path, `must be a string or an object {value, confidence} (got ${describe(value)})`)
  if (typeof value.value !== 'string') fail(`${path}.value`, `must be a string (got ${describe(value.value)})`)
  return { value: text(value.value, `${path}.value`, bounds), confidence: confidence(value, path) }
}

function integerAge(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(path, `must be an integer (got ${describe(value)})`)
  if (value < 0 || value > 150) fail(path, 'must be an integer between 0 and 150')
  return value
}

function scoredAge(value: unknown, path: string): Scored<number> {
  if (isObject(value))
    return { value: integerAge(field(value, 'value'), `${path}.value`), confidence: confidence(value, path) }
  return { value: integerAge(value, path), confidence: 1 }
}

function scoredStrings(value: unknown, path: string, bounds: StructuredBounds): Scored<string>[] {
  return array(value, path).map((item, i) => scoredString(item, `${path}[${i}]`, bounds))
}

/** A real calendar date written YYYY-MM-DD (a memory's date). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

function memory(value: unknown, path: string, bounds: StructuredBounds): Memory {
  if (typeof value === 'string') return { event: text(value, path, bounds), confidence: 1 }
  const given = object(value, path)
  const event = field(given, 'event')
  if (event === undefined) fail(`${path}.event`, 'is required')
  if (typeof event !== 'string') fail(`${path}.event`, `must be a string (got ${describe(event)})`)
  const out: Memory = { event: text(event, `${path}.event`, bounds) }
  const date = field(given, 'date')
  if (date !== undefined) {
    if (typeof date !== 'string' || !isCalendarDate(date)) fail(`${path}.date`, 'must be a date (YYYY-MM-DD)')
    out.date = date
  }
  const importance = field(given, 'importance')
  if (importance !== undefined) {
    const imp = typeof importance === 'string' ? importance.toLowerCase() : ''
    if (!IMPORTANCES.includes(imp as Importance)) fail(`${path}.importance`, 'must be one of low, medium, high')
    out.importance = imp as Importance
  }
  out.confidence = confidence(given, path)
  return out
}

function coreInfo(value: unknown, bounds: StructuredBounds): CoreInfo {
  const obj = object(value, 'core_info')
  const out: CoreInfo = {}
  for (const key of TEXT_CORE_FIELDS) {
    const given = field(obj, key)
    if (given !== undefined) out[key] = scoredString(given, `core_info.${key}`, bounds)
  }
  const age = field(obj, 'age')
  if (age !== undefined) out.age = scoredAge(age, 'core_info.age')
  return out
}

function interests(value: unknown, bounds: StructuredBounds): Record<string, Scored<string>[]> {
  const obj = object(value, 'interests')
  // fromEntries defines own properties, so a category named "__proto__" stays a plain key.
  return Object.fromEntries(
    Object.keys(obj)
      .filter((cat) => obj[cat] !== null)
      .map((cat) => [
        text(cat, `interests.${cat.slice(0, 40)}… (a category name)`, bounds),
        scoredStrings(obj[cat], `interests.${cat}`, bounds),
      ]),
  )
}

function personality(value: unknown, bounds: StructuredBounds): NonNullable<Extraction['personality']> {
  const obj = object(value, 'personality')
  const out: NonNullable<Extraction['personality']> = {}
  const traits = field(obj, 'traits')
  if (traits !== undefined) out.traits = scoredStrings(traits, 'personality.traits', bounds)
  const trends = field(obj, 'mood_trends')
  if (trends !== undefined) {
    const moodTrends = object(trends, 'personality.mood_trends')
    const recent = field(moodTrends, 'recent')
    const fallback = field(moodTrends, 'default')
    // One observation feeds both trends in the merge; the latest mood is the better single piece of evidence.
    if (recent !== undefined) out.mood = scoredString(recent, 'personality.mood_trends.recent', bounds)
    else if (fallback !== undefined) out.mood = scoredString(fallback, 'personality.mood_trends.default', bounds)
  }
  return out
}

function preferences(value: unknown, bounds: StructuredBounds): NonNullable<Extraction['preferences']> {
  const obj = object(value, 'preferences')
  const out: NonNullable<Extraction['preferences']> = {}
  const style = field(obj, 'conversation_style')
  if (style !== undefined) out.conversation_style = scoredString(style, 'preferences.conversation_style', bounds)
  const topics = field(obj, 'topics_to_avoid')
  if (topics !== undefined) out.topics_to_avoid = scoredStrings(topics, 'preferences.topics_to_avoid', bounds)
  return out
}

function language(value: unknown): string {
  const match = typeof value === 'string' ? /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(value.trim()) : null
  if (!match) fail('language', 'must be an ISO 639-1 language code such as "en"')
  return match[1].toLowerCase()
}

/**
 * Parses `data` of a structured submission into an Extraction. Bare values get confidence 1.0; unknown keys are
 * ignored; null means "not given". Throws StructuredInputError naming the field on anything else.
 */
export function parseStructured(data: string, bounds: StructuredBounds = UNBOUNDED): Extraction {
  let doc: unknown
  try {
    doc = JSON.parse(data)
  } catch (err) {
    throw new StructuredInputError(`data is not valid JSON: ${(err as Error).message}`)
  }
  if (!isObject(doc)) throw new StructuredInputError(`data must be a JSON object (got ${describe(doc)})`)

  const out: Extraction = {}
  const core = field(doc, 'core_info')
  if (core !== undefined) out.core_info = coreInfo(core, bounds)
  const ints = field(doc, 'interests')
  if (ints !== undefined) out.interests = interests(ints, bounds)
  const pers = field(doc, 'personality')
  if (pers !== undefined) out.personality = personality(pers, bounds)
  const mems = field(doc, 'memories')
  if (mems !== undefined) out.memories = array(mems, 'memories').map((m, i) => memory(m, `memories[${i}]`, bounds))
  const prefs = field(doc, 'preferences')
  if (prefs !== undefined) out.preferences = preferences(prefs, bounds)
  const lang = field(doc, 'language')
  if (lang !== undefined) out.language = language(lang)
  return out
}

/**
 * The error message for invalid structured data, or null when it parses (checked at POST time -> 400). A value longer
 * than `maxValueChars` is refused here; the merge would only drop it.
 */
export function validateStructured(data: string, bounds: StructuredBounds = UNBOUNDED): string | null {
  try {
    parseStructured(data, bounds)
    return null
  } catch (err) {
    if (err instanceof StructuredInputError) return err.message
    throw err
  }
}

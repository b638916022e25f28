// input_type "structured" (CONTRACT §5): a JSON object shaped like a partial Profile, taken as given.
// Hand-written checks rather than a schema library so every message names the exact field ("core_info.age ...").
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

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A known key: absent and null both mean "not given". */
function field(obj: Json, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== null ? obj[key] : undefined
}

function object(v: unknown, path: string): Json {
  if (!isObject(v)) fail(path, `must be an object (got ${describe(v)})`)
  return v
}

function array(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, `must be an array (got ${describe(v)})`)
  return v
}

function confidence(obj: Json, path: string): number {
  const c = field(obj, 'confidence')
  if (c === undefined) return 1
  if (typeof c !== 'number' || !Number.isFinite(c) || c < 0 || c > 1) {
    fail(`${path}.confidence`, 'must be a number between 0 and 1')
  }
  return c
}

/** How much a structured document may say: the longest value (PROFILER_PROFILE_MAX_VALUE_CHARS at POST time). */
export interface StructuredBounds {
  maxValueChars: number
}
const UNBOUNDED: StructuredBounds = { maxValueChars: Number.POSITIVE_INFINITY }

function text(v: string, path: string, b: StructuredBounds): string {
  if (v.length > b.maxValueChars)
    fail(path, `is longer than ${b.maxValueChars} characters (PROFILER_PROFILE_MAX_VALUE_CHARS)`)
  return v
}

/** A bare string (confidence 1.0) or {value, confidence?}. */
function scoredString(v: unknown, path: string, b: StructuredBounds): Scored<string> {
  if (typeof v === 'string') return { value: text(v, path, b), confidence: 1 }
  if (!isObject(v)) fail(path, `must be a string or an object {value, confidence} (got ${describe(v)})`)
  if (typeof v.value !== 'string') fail(`${path}.value`, `must be a string (got ${describe(v.value)})`)
  return { value: text(v.value, `${path}.value`, b), confidence: confidence(v, path) }
}

function integerAge(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, `must be an integer (got ${describe(v)})`)
  if (v < 0 || v > 150) fail(path, 'must be an integer between 0 and 150')
  return v
}

function scoredAge(v: unknown, path: string): Scored<number> {
  if (isObject(v)) return { value: integerAge(field(v, 'value'), `${path}.value`), confidence: confidence(v, path) }
  return { value: integerAge(v, path), confidence: 1 }
}

function scoredStrings(v: unknown, path: string, b: StructuredBounds): Scored<string>[] {
  return array(v, path).map((item, i) => scoredString(item, `${path}[${i}]`, b))
}

/** A real calendar date written YYYY-MM-DD (a memory's date). */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

function memory(v: unknown, path: string, b: StructuredBounds): Memory {
  if (typeof v === 'string') return { event: text(v, path, b), confidence: 1 }
  const m = object(v, path)
  const event = field(m, 'event')
  if (event === undefined) fail(`${path}.event`, 'is required')
  if (typeof event !== 'string') fail(`${path}.event`, `must be a string (got ${describe(event)})`)
  const out: Memory = { event: text(event, `${path}.event`, b) }
  const date = field(m, 'date')
  if (date !== undefined) {
    if (typeof date !== 'string' || !isCalendarDate(date)) fail(`${path}.date`, 'must be a date (YYYY-MM-DD)')
    out.date = date
  }
  const importance = field(m, 'importance')
  if (importance !== undefined) {
    const imp = typeof importance === 'string' ? importance.toLowerCase() : ''
    if (!IMPORTANCES.includes(imp as Importance)) fail(`${path}.importance`, 'must be one of low, medium, high')
    out.importance = imp as Importance
  }
  out.confidence = confidence(m, path)
  return out
}

function coreInfo(v: unknown, b: StructuredBounds): CoreInfo {
  const obj = object(v, 'core_info')
  const out: CoreInfo = {}
  for (const key of TEXT_CORE_FIELDS) {
    const f = field(obj, key)
    if (f !== undefined) out[key] = scoredString(f, `core_info.${key}`, b)
  }
  const age = field(obj, 'age')
  if (age !== undefined) out.age = scoredAge(age, 'core_info.age')
  return out
}

function interests(v: unknown, b: StructuredBounds): Record<string, Scored<string>[]> {
  const obj = object(v, 'interests')
  // fromEntries defines own properties, so a category named "__proto__" stays a plain key.
  return Object.fromEntries(
    Object.keys(obj)
      .filter((cat) => obj[cat] !== null)
      .map((cat) => [
        text(cat, `interests.${cat.slice(0, 40)}… (a category name)`, b),
        scoredStrings(obj[cat], `interests.${cat}`, b),
      ]),
  )
}

function personality(v: unknown, b: StructuredBounds): NonNullable<Extraction['personality']> {
  const obj = object(v, 'personality')
  const out: NonNullable<Extraction['personality']> = {}
  const traits = field(obj, 'traits')
  if (traits !== undefined) out.traits = scoredStrings(traits, 'personality.traits', b)
  const trends = field(obj, 'mood_trends')
  if (trends !== undefined) {
    const t = object(trends, 'personality.mood_trends')
    const recent = field(t, 'recent')
    const fallback = field(t, 'default')
    // One observation feeds both trends in the merge; the latest mood is the better single piece of evidence.
    if (recent !== undefined) out.mood = scoredString(recent, 'personality.mood_trends.recent', b)
    else if (fallback !== undefined) out.mood = scoredString(fallback, 'personality.mood_trends.default', b)
  }
  return out
}

function preferences(v: unknown, b: StructuredBounds): NonNullable<Extraction['preferences']> {
  const obj = object(v, 'preferences')
  const out: NonNullable<Extraction['preferences']> = {}
  const style = field(obj, 'conversation_style')
  if (style !== undefined) out.conversation_style = scoredString(style, 'preferences.conversation_style', b)
  const topics = field(obj, 'topics_to_avoid')
  if (topics !== undefined) out.topics_to_avoid = scoredStrings(topics, 'preferences.topics_to_avoid', b)
  return out
}

function language(v: unknown): string {
  const m = typeof v === 'string' ? /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(v.trim()) : null
  if (!m) fail('language', 'must be an ISO 639-1 language code such as "en"')
  return m[1].toLowerCase()
}

/**
 * Parses `data` of a structured submission into an Extraction. Bare values get confidence 1.0; unknown keys are
 * ignored; null means "not given". Throws StructuredInputError naming the field on anything else.
 */
export function parseStructured(data: string, b: StructuredBounds = UNBOUNDED): Extraction {
  let doc: unknown
  try {
    doc = JSON.parse(data)
  } catch (err) {
    throw new StructuredInputError(`data is not valid JSON: ${(err as Error).message}`)
  }
  if (!isObject(doc)) throw new StructuredInputError(`data must be a JSON object (got ${describe(doc)})`)

  const out: Extraction = {}
  const core = field(doc, 'core_info')
  if (core !== undefined) out.core_info = coreInfo(core, b)
  const ints = field(doc, 'interests')
  if (ints !== undefined) out.interests = interests(ints, b)
  const pers = field(doc, 'personality')
  if (pers !== undefined) out.personality = personality(pers, b)
  const mems = field(doc, 'memories')
  if (mems !== undefined) out.memories = array(mems, 'memories').map((m, i) => memory(m, `memories[${i}]`, b))
  const prefs = field(doc, 'preferences')
  if (prefs !== undefined) out.preferences = preferences(prefs, b)
  const lang = field(doc, 'language')
  if (lang !== undefined) out.language = language(lang)
  return out
}

/**
 * The error message for invalid structured data, or null when it parses (checked at POST time -> 400). A value longer
 * than `maxValueChars` is refused here; the merge would only drop it.
 */
export function validateStructured(data: string, b: StructuredBounds = UNBOUNDED): string | null {
  try {
    parseStructured(data, b)
    return null
  } catch (err) {
    if (err instanceof StructuredInputError) return err.message
    throw err
  }
}

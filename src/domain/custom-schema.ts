// An app's custom profile schema (docs/guides/custom-schema.md): its own sections and fields beside the standard ones,
// each with a type and a description that guides extraction. Pure: parsing/validation of the wire form, the vocabulary
// a description names, the fields a new version drops, and the cleaning of proposed values against the schema
// (untrusted model output).
import { invalid } from './errors.js'
import { checkStorable } from './validation.js'

/**
 * A value with its confidence (the shape of profile.ts's Scored, repeated here so the two modules do not import each
 * other).
 */
interface Scored<T> {
  value: T
  confidence: number
}

export const CUSTOM_FIELD_TYPES = ['string', 'string[]', 'integer', 'number', 'boolean', 'enum'] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]

export interface CustomField {
  type: CustomFieldType
  description?: string
  /** enum: the allowed values (required); string and string[]: an optional vocabulary the local extractor looks for. */
  values?: string[]
  /** integer and number: inclusive bounds. */
  min?: number
  max?: number
}

/** section -> field -> definition. */
export interface CustomSchema {
  sections: Record<string, Record<string, CustomField>>
}

/** A stored version of an app's schema. */
export interface AppSchemaVersion {
  appId: string
  version: number
  schema: CustomSchema
  createdAt: string
}

export type CustomScalar = string | number | boolean
/**
 * What a profile (or an extraction) holds for custom fields: section -> field -> scored value or list of scored
 * strings.
 */
export type CustomValues = Record<string, Record<string, Scored<CustomScalar> | Scored<string>[]>>

export const CUSTOM_LIMITS = {
  sections: 20,
  fields: 100,
  description: 500,
  enumValues: 100,
  valueChars: 100,
  schemaBytes: 32 * 1024,
} as const

export const NAME_RE = /^[a-z][a-z0-9_]{0,39}$/
/** A usable section or field name: NAME_RE, and not a name every object inherits ("constructor"). */
export const isCustomName = (n: string) => NAME_RE.test(n) && !(n in Object.prototype)
/** The standard profile's top-level names: a custom section may not shadow one. */
export const RESERVED_SECTIONS = [
  'core_info',
  'interests',
  'personality',
  'memories',
  'preferences',
  'custom',
  'summary',
  'language',
  'status',
  'update_log',
  'field_timestamps',
  'created_at',
  'last_updated',
  'profile_id',
]

const hasOwn = (o: object, k: string) => Object.hasOwn(o, k)
const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value)
const short = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s)

export function emptySchema(): CustomSchema {
  return { sections: {} }
}

/**
 * The wire form `{"sections": {"<section>": {"<field>": {"type", "description"?, "values"?, "min"?, "max"?}}}}` ->
 * a validated schema, or VALIDATION_FAILED naming the offending section/field. Work is linear in the input's size.
 * Only what passes is stored: names match NAME_RE and types come from a list, so the free-text strings (descriptions
 * and `values`) are the ones checked for characters PostgreSQL cannot store (checkStorable); a new free-text property
 * must be checked the same way.
 */
export function parseCustomSchema(input: unknown): CustomSchema {
  if (!isObject(input))
    throw invalid('schema must be a JSON object like {"sections": {"diet": {"restrictions": {"type": "string[]"}}}}')
  let bytes: number
  try {
    bytes = Buffer.byteLength(JSON.stringify(input), 'utf8')
  } catch {
    throw invalid('schema is not serializable JSON')
  }
  if (bytes > CUSTOM_LIMITS.schemaBytes)
    throw invalid(`schema is ${bytes} bytes; at most ${CUSTOM_LIMITS.schemaBytes} bytes of JSON are allowed`)
  for (const key of Object.keys(input))
    if (key !== 'sections') throw invalid(`schema: unknown property '${short(key)}' (only "sections" is allowed)`)
  const sections = input.sections ?? {}
  if (!isObject(sections)) throw invalid('schema.sections must be an object of sections')
  const names = Object.keys(sections)
  if (names.length > CUSTOM_LIMITS.sections)
    throw invalid(`schema has ${names.length} sections; at most ${CUSTOM_LIMITS.sections} are allowed`)
  const out: CustomSchema = { sections: {} }
  let fieldCount = 0
  for (const sectionName of names) {
    if (!isCustomName(sectionName))
      throw invalid(
        `schema: section name '${short(sectionName)}' is invalid ` +
          '(lower-case letter, then up to 39 of a-z, 0-9, _; not "constructor")',
      )
    if (RESERVED_SECTIONS.includes(sectionName))
      throw invalid(
        `schema: section '${sectionName}' would shadow the standard profile's '${sectionName}'; choose another name`,
      )
    const fields = sections[sectionName]
    if (!isObject(fields)) throw invalid(`schema.sections.${sectionName} must be an object of fields`)
    const fnames = Object.keys(fields)
    if (!fnames.length) throw invalid(`schema.sections.${sectionName} has no fields`)
    fieldCount += fnames.length
    if (fieldCount > CUSTOM_LIMITS.fields) throw invalid(`schema has more than ${CUSTOM_LIMITS.fields} fields in all`)
    const section: Record<string, CustomField> = {}
    for (const fieldName of fnames) {
      if (!isCustomName(fieldName))
        throw invalid(
          `schema: field name '${sectionName}.${short(fieldName)}' is invalid ` +
            '(lower-case letter, then up to 39 of a-z, 0-9, _; not "constructor")',
        )
      section[fieldName] = parseField(`${sectionName}.${fieldName}`, fields[fieldName])
    }
    out.sections[sectionName] = section
  }
  return out
}

function parseField(path: string, raw: unknown): CustomField {
  if (!isObject(raw)) throw invalid(`schema: field ${path} must be an object with a "type"`)
  for (const key of Object.keys(raw)) {
    if (!['type', 'description', 'values', 'min', 'max'].includes(key))
      throw invalid(`schema: field ${path} has an unknown property '${short(key)}'`)
  }
  const type = raw.type
  if (typeof type !== 'string' || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
    throw invalid(
      `schema: field ${path} has type ${JSON.stringify(type)?.slice(0, 40)}; ` +
        `expected one of ${CUSTOM_FIELD_TYPES.join(', ')}`,
    )
  }
  const field: CustomField = { type: type as CustomFieldType }
  if (raw.description !== undefined) {
    if (typeof raw.description !== 'string') throw invalid(`schema: field ${path}.description must be a string`)
    checkStorable(raw.description, `schema field ${path}.description`)
    if (raw.description.length > CUSTOM_LIMITS.description)
      throw invalid(`schema: field ${path}.description is over ${CUSTOM_LIMITS.description} characters`)
    if (raw.description.trim()) field.description = raw.description.trim()
  }
  if (raw.values !== undefined) {
    if (!['enum', 'string', 'string[]'].includes(type))
      throw invalid(`schema: field ${path}: "values" is only for enum, string and string[] fields`)
    if (!Array.isArray(raw.values)) throw invalid(`schema: field ${path}.values must be a list of strings`)
    if (raw.values.length > CUSTOM_LIMITS.enumValues)
      throw invalid(`schema: field ${path}.values has ${raw.values.length} values; at most ${CUSTOM_LIMITS.enumValues}`)
    const seen = new Set<string>()
    const values: string[] = []
    for (const [i, value] of raw.values.entries()) {
      if (typeof value !== 'string' || !value.trim())
        throw invalid(`schema: field ${path}.values must hold non-empty strings`)
      checkStorable(value, `schema field ${path}.values[${i}]`)
      if (value.length > CUSTOM_LIMITS.valueChars)
        throw invalid(`schema: field ${path}.values: '${short(value)}' is over ${CUSTOM_LIMITS.valueChars} characters`)
      const key = value.trim().toLowerCase()
      if (seen.has(key)) throw invalid(`schema: field ${path}.values lists '${short(value.trim())}' twice`)
      seen.add(key)
      values.push(value.trim())
    }
    field.values = values
  }
  if (type === 'enum' && !field.values?.length)
    throw invalid(`schema: enum field ${path} needs "values" (a non-empty list)`)
  for (const bound of ['min', 'max'] as const) {
    if (raw[bound] === undefined) continue
    if (type !== 'integer' && type !== 'number')
      throw invalid(`schema: field ${path}: "${bound}" is only for integer and number fields`)
    const limit = raw[bound]
    if (typeof limit !== 'number' || !Number.isFinite(limit))
      throw invalid(`schema: field ${path}.${bound} must be a finite number`)
    if (type === 'integer' && !Number.isInteger(limit))
      throw invalid(`schema: field ${path}.${bound} must be an integer`)
    field[bound] = limit
  }
  if (field.min !== undefined && field.max !== undefined && field.min > field.max)
    throw invalid(`schema: field ${path} has min greater than max`)
  return field
}

/** Every `section.field` of a schema. */
export function fieldPaths(schema: CustomSchema): string[] {
  return Object.entries(schema.sections).flatMap(([section, fs]) => Object.keys(fs).map((f) => `${section}.${f}`))
}

/** The fields of `before` that `after` no longer declares with the same type (a type change drops the old values). */
export function droppedFields(before: CustomSchema, after: CustomSchema): string[] {
  return fieldPaths(before).filter((path) => {
    const [section, fieldName] = path.split('.') as [string, string]
    const now =
      hasOwn(after.sections, section) && hasOwn(after.sections[section]!, fieldName)
        ? after.sections[section]![fieldName]
        : undefined
    return !now || now.type !== before.sections[section]![fieldName]!.type
  })
}

export const isListType = (t: CustomFieldType) => t === 'string[]'

/**
 * The vocabulary a field's description names: the list after its last colon, "e.g.", "such as", "like", "one of" or
 * "including" ("Dietary restrictions: vegetarian, vegan, gluten-free" -> vegetarian, vegan, gluten-free), plus the
 * field's explicit `values`. Items are 1-5 words of at most 40 characters.
 */
export function vocabularyOf(field: CustomField): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const add = (item: string) => {
    const cleaned = item
      .trim()
      .replace(/^(?:and|or)\s+/i, '')
      .replace(/[.)"'\s]+$/, '')
      .replace(/^["'(\s]+/, '')
      .trim()
    const key = cleaned.toLowerCase()
    if (!cleaned || cleaned.length > 40 || cleaned.split(/\s+/).length > 5 || seen.has(key)) return
    seen.add(key)
    out.push(cleaned)
  }
  for (const value of field.values ?? []) add(value)
  const description = field.description
  if (description && field.type !== 'integer' && field.type !== 'number' && field.type !== 'boolean') {
    const cue = /(?::|\be\.g\.|\bsuch as\b|\bone of\b|\bincluding\b|\blike\b)/gi
    let last = -1
    for (let cueMatch = cue.exec(description); cueMatch; cueMatch = cue.exec(description))
      last = cueMatch.index + cueMatch[0].length
    if (last >= 0) for (const item of description.slice(last).split(/,|;|\/|\bor\b|\band\b/i)) add(item)
  }
  return out
}

const MAX_LIST = 50

/** A confidence in [0, 1]; 0.5 when missing or unusable. */
function conf(confidence: unknown): number {
  return typeof confidence === 'number' && Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : 0.5
}

/** A value of the field's type, or undefined when it does not fit (wrong type, out of range, not an enum value). */
export function cleanCustomValue(field: CustomField, value: unknown): CustomScalar | undefined {
  switch (field.type) {
    case 'string':
    case 'string[]': {
      if (typeof value !== 'string') return undefined
      const text = value.trim().slice(0, 200)
      return text || undefined
    }
    case 'enum': {
      if (typeof value !== 'string') return undefined
      const key = value.trim().toLowerCase()
      return field.values!.find((x) => x.toLowerCase() === key)
    }
    case 'boolean':
      if (typeof value === 'boolean') return value
      if (value === 'true' || value === 'false') return value === 'true'
      return undefined
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value
      if (typeof number !== 'number' || !Number.isFinite(number)) return undefined
      if (field.type === 'integer' && !Number.isInteger(number)) return undefined
      if ((field.min !== undefined && number < field.min) || (field.max !== undefined && number > field.max))
        return undefined
      return number
    }
  }
}

/**
 * Proposed custom values (untrusted: a model's answer, a structured submission) kept only where they fit the schema:
 * unknown sections and fields, wrong types, out-of-range numbers and values outside an enum are dropped.
 * Accepts `{value, confidence}` or a bare value (confidence `bare`), and for lists an array of either.
 */
export function cleanCustomValues(schema: CustomSchema, raw: unknown, bare = 0.5): CustomValues {
  const out: CustomValues = {}
  if (!isObject(raw)) return out
  for (const [sectionName, fields] of Object.entries(schema.sections)) {
    const section = hasOwn(raw, sectionName) ? raw[sectionName] : undefined
    if (!isObject(section)) continue
    for (const [fieldName, def] of Object.entries(fields)) {
      if (!hasOwn(section, fieldName)) continue
      const given = section[fieldName]
      const scored = (item: unknown): Scored<CustomScalar> | undefined => {
        const value = cleanCustomValue(def, isObject(item) ? item.value : item)
        return value === undefined ? undefined : { value, confidence: isObject(item) ? conf(item.confidence) : bare }
      }
      if (isListType(def.type)) {
        const list = (Array.isArray(given) ? given : [given])
          .slice(0, MAX_LIST)
          .map(scored)
          .filter((x): x is Scored<string> => !!x)
        if (list.length) (out[sectionName] ??= {})[fieldName] = list
      } else if (!Array.isArray(given)) {
        const one = scored(given)
        if (one) (out[sectionName] ??= {})[fieldName] = one
      }
    }
  }
  return out
}

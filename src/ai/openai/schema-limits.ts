// What OpenAI's structured outputs accept of a schema's size (the structured-outputs guide, "Supported schemas" /
// limitations): at most 5,000 object properties in all, 10 levels of nesting, 1,000 enum values across the schema,
// 120,000 characters of property names, definition names, enum and const values together, and for one string enum of
// more than 250 values, 15,000 characters of values. A schema past any of them is refused with a 400 on every request,
// so an app's custom schema that would make the extraction schema pass one is refused when it is set
// (docs/guides/custom-schema.md), whatever the deployment points at today: a schema must keep working when it moves to
// OpenAI.
import type { CustomSchema } from '../../domain/custom-schema.js'
import { withCustomOutput } from './custom-output.js'
import { outputJsonSchema } from './output.js'

export const STRUCTURED_OUTPUT_LIMITS = {
  properties: 5_000,
  depth: 10,
  enumValues: 1_000,
  stringChars: 120_000,
  largeEnum: 250,
  largeEnumChars: 15_000,
} as const

export interface SchemaSize {
  properties: number
  depth: number
  enumValues: number
  stringChars: number
  /** The most characters of values in one enum of more than `largeEnum` values (0 when there is none). */
  largeEnumChars: number
}

type Schema = Record<string, unknown>
const isObject = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v)
const text = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

/**
 * The size of a JSON schema as those limits count it: every `properties` key and every enum value once where it is
 * written (a definition is counted once, however often it is referenced); depth in nested subschemas
 * (properties, items, anyOf, definitions), the root at 0.
 */
export function schemaSize(root: Schema): SchemaSize {
  const size: SchemaSize = { properties: 0, depth: 0, enumValues: 0, stringChars: 0, largeEnumChars: 0 }
  const walk = (node: unknown, depth: number) => {
    if (!isObject(node)) return
    size.depth = Math.max(size.depth, depth)
    if (Array.isArray(node.enum)) {
      size.enumValues += node.enum.length
      const chars = node.enum.reduce((n: number, v) => n + text(v).length, 0)
      size.stringChars += chars
      if (node.enum.length > STRUCTURED_OUTPUT_LIMITS.largeEnum)
        size.largeEnumChars = Math.max(size.largeEnumChars, chars)
    }
    if ('const' in node) size.stringChars += text(node.const).length
    if (isObject(node.properties)) {
      for (const [k, sub] of Object.entries(node.properties)) {
        size.properties++
        size.stringChars += k.length
        walk(sub, depth + 1)
      }
    }
    if (isObject(node.items)) walk(node.items, depth + 1)
    if (Array.isArray(node.anyOf)) for (const sub of node.anyOf) walk(sub, depth + 1)
    for (const defsKey of ['$defs', 'definitions']) {
      const defs = node[defsKey]
      if (!isObject(defs)) continue
      for (const [k, sub] of Object.entries(defs)) {
        size.stringChars += k.length
        walk(sub, depth + 1)
      }
    }
  }
  walk(root, 0)
  return size
}

const fmt = (n: number) => n.toLocaleString('en-US')

/** The first limit the schema exceeds, as a sentence naming it; undefined when it is accepted. */
export function structuredOutputProblem(schema: Schema): string | undefined {
  const limits = STRUCTURED_OUTPUT_LIMITS
  const size = schemaSize(schema)
  if (size.enumValues > limits.enumValues)
    return (
      `${fmt(size.enumValues)} enum values in all; ` +
      `structured outputs accept at most ${fmt(limits.enumValues)} per schema`
    )
  if (size.properties > limits.properties)
    return (
      `${fmt(size.properties)} object properties in all; ` +
      `structured outputs accept at most ${fmt(limits.properties)}`
    )
  if (size.depth > limits.depth)
    return `${size.depth} levels of nesting; structured outputs accept at most ${limits.depth}`
  if (size.stringChars > limits.stringChars) {
    return (
      `${fmt(size.stringChars)} characters of property names and enum values in all; ` +
      `structured outputs accept at most ${fmt(limits.stringChars)}`
    )
  }
  if (size.largeEnumChars > limits.largeEnumChars) {
    return (
      `an enum of more than ${limits.largeEnum} values with ${fmt(size.largeEnumChars)} characters of values; ` +
      `structured outputs accept at most ${fmt(limits.largeEnumChars)}`
    )
  }
  return undefined
}

let base: Schema | undefined

/**
 * Why the extraction schema with this app's custom fields would be refused by structured outputs (undefined: it would
 * not). The message names the limit and says what to change.
 */
export function customSchemaOutputProblem(custom: CustomSchema): string | undefined {
  if (!Object.keys(custom.sections).length) return undefined
  base ??= outputJsonSchema()
  const problem = structuredOutputProblem(withCustomOutput(base, custom))
  if (!problem) return undefined
  return (
    `schema: the extraction schema built from it would have ${problem}, so every extraction for this app would fail. ` +
    'Use fewer enum fields or values (a "string" field with "values" lists typical values without counting as an ' +
    'enum), or fewer fields'
  )
}

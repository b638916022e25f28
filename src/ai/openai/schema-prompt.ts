// The output schema written into the prompt (docs/guides/ai-providers.md), for providers without strict structured
// outputs (PROFILER_LLM_RESPONSE_FORMAT=json_object|none: DeepSeek, Groq's models without strict mode) and the app's
// custom fields for models behind servers that only constrain decoding to the schema (Ollama, vLLM, llama.cpp's server:
// the grammar keeps the answer inside the schema, but the model never reads the schema's descriptions).
import type { CustomField, CustomSchema } from '../../domain/custom-schema.js'
import { describeField } from './custom-output.js'

type Schema = Record<string, any>

/**
 * A JSON schema in TypeScript notation, on one line: `{a: string, b: {c: number | null}[]}`, enums as
 * `"x" | "y"`, descriptions as comments; a definition referred to more than once is named once (`where T1 = ...`).
 * About 40 % of the schema's JSON, and easier for a model to read.
 */
export function schemaInTypeNotation(schema: Schema): string {
  const defs: Schema = { ...(schema.definitions ?? {}), ...(schema.$defs ?? {}) }
  const uses = new Map<string, number>()
  const count = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(count)
    if (!node || typeof node !== 'object') return
    for (const [k, v] of Object.entries(node as Schema)) {
      if (k === '$ref' && typeof v === 'string') uses.set(v, (uses.get(v) ?? 0) + 1)
      else count(v)
    }
  }
  count({ ...schema, definitions: undefined, $defs: undefined })
  for (const ref of [...uses.keys()]) count(resolve(ref)) // refs inside definitions
  const aliases = new Map<string, string>()
  for (const [ref, n] of uses) if (n > 1) aliases.set(ref, `T${aliases.size + 1}`)

  function resolve(ref: string): Schema {
    const name = ref.split('/').pop() ?? ''
    return defs[name] ?? {}
  }
  const comment = (s: Schema) =>
    typeof s.description === 'string' && s.description.trim()
      ? ` /* ${s.description.trim().replace(/\*\//g, '* /')} */`
      : ''
  function render(node: Schema, seen: string[] = []): string {
    if (!node || typeof node !== 'object') return 'unknown'
    if (typeof node.$ref === 'string') {
      const alias = aliases.get(node.$ref)
      if (alias) return alias
      if (seen.includes(node.$ref)) return 'unknown'
      return render(resolve(node.$ref), [...seen, node.$ref])
    }
    const alts = node.anyOf ?? node.oneOf
    if (Array.isArray(alts)) return alts.map((a: Schema) => render(a, seen)).join(' | ')
    if (Array.isArray(node.enum)) return node.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
    if (node.const !== undefined) return JSON.stringify(node.const)
    if (Array.isArray(node.type)) return node.type.map((t: string) => render({ ...node, type: t }, seen)).join(' | ')
    if (node.type === 'object' || node.properties) {
      const props = Object.entries<Schema>(node.properties ?? {})
      return `{${props.map(([k, v]) => `${k}: ${render(v, seen)}${comment(v)}`).join(', ')}}`
    }
    if (node.type === 'array') {
      const item = render(node.items ?? {}, seen)
      return /[|]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`
    }
    return typeof node.type === 'string' ? node.type : 'unknown'
  }
  const main = render(schema)
  const where = [...aliases].map(([ref, name]) => `${name} = ${render(resolve(ref), [ref])}`)
  return where.length ? `${main}\nwhere ${where.join('; ')}` : main
}

/**
 * What the system prompt gets when the schema is not sent as structured outputs. Says "JSON" (DeepSeek and OpenAI
 * refuse `json_object` unless a message does).
 */
export function jsonAnswerInstructions(schema: Schema): string {
  return (
    'Answer with one JSON object and nothing else (no prose, no code fences), of exactly this shape (TypeScript ' +
    'notation; every key present, null or [] where nothing is stated):\n' +
    schemaInTypeNotation(schema)
  )
}

function typeOf(field: CustomField): string {
  return field.type === 'enum' ? `one of: ${(field.values ?? []).join(' | ')}` : field.type
}

/**
 * The app's custom fields for the prompt, `"section.field": "type; description"`: what each holds reaches the model
 * whatever the response format (a server that only constrains decoding never shows it the schema's descriptions).
 */
export function customFieldList(schema: CustomSchema): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [section, fields] of Object.entries(schema.sections)) {
    for (const [name, f] of Object.entries(fields)) {
      const description = describeField(f)
      out[`${section}.${name}`] = description ? `${typeOf(f)}; ${description}` : typeOf(f)
    }
  }
  return out
}

/**
 * The output schema as the prompt shows it: `custom`'s fields without their descriptions and enum values, which the
 * custom field list (in the user message) already gives.
 */
export function withoutCustomDetails(schema: Schema): Schema {
  const custom = schema?.properties?.submissions?.items?.properties?.custom
  if (!custom) return schema
  const out = structuredClone(schema)
  const strip = (node: Schema | undefined): void => {
    if (!node || typeof node !== 'object') return
    delete node.description
    delete node.enum
    for (const p of Object.values<Schema>(node.properties ?? {})) strip(p)
    for (const a of node.anyOf ?? []) strip(a)
    strip(node.items)
  }
  const customCopy = out.properties.submissions.items.properties.custom
  for (const section of Object.values<Schema>(customCopy.properties ?? {})) strip(section)
  return out
}

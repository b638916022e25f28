// An app's custom schema in the openai extractor's structured output (docs/guides/custom-schema.md): each submission's
// answer gets a `custom` object with one property per section and field, typed after the field and carrying its
// description, in strict mode (every property required; null or [] for "not stated"). What comes back is untrusted: it
// is checked against the app's schema and whatever does not fit is dropped.
import {
  cleanCustomValues,
  type CustomField,
  type CustomSchema,
  type CustomValues,
} from '../../domain/custom-schema.js'

const MAX_EVIDENCE = 300

function valueSchema(field: CustomField): Record<string, unknown> {
  switch (field.type) {
    case 'integer':
      return { type: 'integer' }
    case 'number':
      return { type: 'number' }
    case 'boolean':
      return { type: 'boolean' }
    case 'enum':
      return { type: 'string', enum: field.values }
    default:
      return { type: 'string' }
  }
}

/** A field's description for the model: its own, with its bounds and typical values. */
export function describeField(field: CustomField): string {
  const parts = [field.description ?? '']
  if (field.min !== undefined) parts.push(`minimum ${field.min}`)
  if (field.max !== undefined) parts.push(`maximum ${field.max}`)
  if (field.values && field.type !== 'enum') parts.push(`typical values: ${field.values.join(', ')}`)
  return parts.filter(Boolean).join('; ').slice(0, 1000)
}

function fieldSchema(field: CustomField): Record<string, unknown> {
  const item = {
    type: 'object',
    properties: { evidence: { type: 'string' }, value: valueSchema(field), confidence: { type: 'number' } },
    required: ['evidence', 'value', 'confidence'],
    additionalProperties: false,
  }
  const description = describeField(field)
  if (field.type === 'string[]') return { type: 'array', items: item, ...(description ? { description } : {}) }
  return { anyOf: [item, { type: 'null' }], ...(description ? { description } : {}) }
}

/** The JSON schema of `custom` in one submission's answer. */
export function customJsonSchema(schema: CustomSchema): Record<string, unknown> {
  const sections = Object.entries(schema.sections)
  return {
    type: 'object',
    description:
      "Values of the app's own profile fields stated in this submission: null (or [] for lists) when not stated",
    properties: Object.fromEntries(
      sections.map(([s, fields]) => [
        s,
        {
          type: 'object',
          properties: Object.fromEntries(Object.entries(fields).map(([f, def]) => [f, fieldSchema(def)])),
          required: Object.keys(fields),
          additionalProperties: false,
        },
      ]),
    ),
    required: sections.map(([s]) => s),
    additionalProperties: false,
  }
}

/** The batch output schema with `custom` added to every submission's answer (a copy; the base is not changed). */
export function withCustomOutput(base: Record<string, unknown>, schema: CustomSchema): Record<string, unknown> {
  const out = structuredClone(base) as any
  const item = out.properties.submissions.items
  item.properties.custom = customJsonSchema(schema)
  item.required = [...item.required, 'custom']
  return out
}

/** The model's `custom` answer kept where it fits the schema. */
export function customFromOutput(schema: CustomSchema, raw: unknown): CustomValues {
  return cleanCustomValues(schema, raw)
}

/** The raw `custom` answer with only the entries whose quoted evidence the submission supports (src/ai/evidence.ts). */
export function supportedCustom(raw: unknown, supported: (quote: string) => boolean): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw
  const ok = (v: unknown) =>
    !!v &&
    typeof v === 'object' &&
    typeof (v as { evidence?: unknown }).evidence === 'string' &&
    supported((v as { evidence: string }).evidence)
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).map(([s, fields]) => [
      s,
      fields && typeof fields === 'object' && !Array.isArray(fields)
        ? Object.fromEntries(
            Object.entries(fields as Record<string, unknown>).map(([f, v]) => [
              f,
              Array.isArray(v) ? v.filter(ok) : v === null || ok(v) ? v : null,
            ]),
          )
        : fields,
    ]),
  )
}

/** Evidence quoted for custom values, keyed custom.<section>.<field>. */
export function customEvidence(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!raw || typeof raw !== 'object') return out
  for (const [s, fields] of Object.entries(raw as Record<string, unknown>)) {
    if (!fields || typeof fields !== 'object') continue
    for (const [f, v] of Object.entries(fields as Record<string, unknown>)) {
      const first = Array.isArray(v) ? v[0] : v
      const evidence = first && typeof first === 'object' ? (first as { evidence?: unknown }).evidence : undefined
      if (typeof evidence === 'string' && evidence.trim())
        out[`custom.${s}.${f}`] = evidence.trim().slice(0, MAX_EVIDENCE)
    }
  }
  return out
}

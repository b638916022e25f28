// The subset of JSON Schema that OpenAI structured outputs (`response_format: json_schema, strict: true`) accept,
// checked the way the API checks it, plus a validator for instances of such a schema. The fake OpenAI server uses
// both: a schema the real API would reject gets the same 400, and the fake model's answer is checked against the
// schema the provider sent (a real model in strict mode never answers outside it).

type Schema = Record<string, any>

/** Keywords the API rejects in strict mode (see "Supported schemas" in the structured outputs guide). */
const UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'minLength',
  'maxLength',
  'oneOf',
  'default',
]

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'])

function resolve(root: Schema, s: Schema): Schema {
  let cur = s
  for (let i = 0; i < 32 && cur && typeof cur.$ref === 'string'; i++) {
    const ref: string = cur.$ref
    if (ref === '#') return root
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`)
    let target: any = root
    for (const part of ref.slice(2).split('/')) target = target?.[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    if (!target || typeof target !== 'object') throw new Error(`unresolvable $ref ${ref}`)
    cur = target
  }
  return cur
}

/** Problems that make the API answer 400 "Invalid schema for response_format". Empty when the schema is accepted. */
export function strictSchemaProblems(root: unknown): string[] {
  const problems: string[] = []
  if (!root || typeof root !== 'object' || Array.isArray(root)) return ['the schema must be a JSON object']
  const r = root as Schema
  if (r.type !== 'object' || r.anyOf)
    problems.push("context=(): the root schema must be of type 'object' and not anyOf")
  const seen = new Set<Schema>()
  const walk = (s: Schema, ctx: string[], depth: number) => {
    if (!s || typeof s !== 'object') {
      problems.push(`context=(${ctx.join(', ')}): a schema must be an object`)
      return
    }
    if (seen.has(s)) return
    seen.add(s)
    const where = `context=(${ctx.map((c) => `'${c}'`).join(', ')})`
    if (depth > 10) problems.push(`${where}: nesting deeper than 10 levels`)
    for (const k of UNSUPPORTED) if (k in s) problems.push(`${where}: '${k}' is not permitted`)
    if (typeof s.$ref === 'string') {
      try {
        walk(resolve(r, s), ctx, depth)
      } catch (e) {
        problems.push(`${where}: ${(e as Error).message}`)
      }
      return
    }
    if (Array.isArray(s.anyOf)) {
      s.anyOf.forEach((sub: Schema, i: number) => walk(sub, [...ctx, 'anyOf', String(i)], depth + 1))
      return
    }
    if ('enum' in s || 'const' in s) {
      if ('enum' in s && (!Array.isArray(s.enum) || s.enum.length === 0))
        problems.push(`${where}: 'enum' must be a non-empty array`)
      if (!('type' in s)) return
    }
    const types: string[] = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : []
    if (!types.length) {
      problems.push(`${where}: schema must have a 'type' key`)
      return
    }
    for (const t of types) if (!TYPES.has(t)) problems.push(`${where}: unknown type '${t}'`)
    if (types.includes('object')) {
      const props: Schema = s.properties ?? {}
      if (s.additionalProperties !== false) {
        problems.push(`${where}: 'additionalProperties' is required to be supplied and to be false`)
      }
      const required: unknown = s.required
      const keys = Object.keys(props)
      if (!Array.isArray(required)) {
        if (keys.length)
          problems.push(
            `${where}: 'required' is required to be supplied and to be an array including every key in properties`,
          )
      } else {
        const missing = keys.filter((k) => !required.includes(k))
        if (missing.length) {
          problems.push(
            `${where}: 'required' is required to be supplied and to be an array including every key in properties. ` +
              `Missing '${missing[0]}'.`,
          )
        }
        const extra = required.filter((k) => typeof k !== 'string' || !keys.includes(k))
        if (extra.length)
          problems.push(`${where}: 'required' names ${JSON.stringify(extra)}, which are not in properties`)
      }
      for (const [k, sub] of Object.entries(props)) walk(sub as Schema, [...ctx, 'properties', k], depth + 1)
    }
    if (types.includes('array')) {
      if (!s.items || typeof s.items !== 'object' || Array.isArray(s.items))
        problems.push(`${where}: an array needs 'items' (one schema)`)
      else walk(s.items, [...ctx, 'items'], depth + 1)
    }
  }
  walk(r, [], 0)
  for (const defsKey of ['$defs', 'definitions']) {
    const defs = r[defsKey]
    if (defs && typeof defs === 'object')
      for (const [k, sub] of Object.entries(defs)) walk(sub as Schema, [defsKey, k], 1)
  }
  problems.push(...sizeProblems(r))
  return problems
}

/**
 * The size limits of the structured-outputs guide ("Supported schemas"): at most 5,000 object properties in all, 1,000
 * enum values across all enum properties, 120,000 characters of property names, definition names, enum and const
 * values together, and for a single string enum of more than 250 values, 15,000 characters of values (nesting, 10
 * levels, is checked by the walk above). Each property and enum is counted once where it is written.
 */
function sizeProblems(root: Schema): string[] {
  let properties = 0
  let enumValues = 0
  let chars = 0
  const problems: string[] = []
  const str = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))
  const visit = (s: unknown) => {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return
    const o = s as Schema
    if (Array.isArray(o.enum)) {
      enumValues += o.enum.length
      const len = o.enum.reduce((n: number, v: unknown) => n + str(v).length, 0)
      chars += len
      if (o.enum.length > 250 && len > 15_000) {
        problems.push(
          `an enum property has ${o.enum.length} values with a total string length of ${len}; ` +
            'the limit for an enum of more than 250 values is 15000',
        )
      }
    }
    if ('const' in o) chars += str(o.const).length
    if (o.properties && typeof o.properties === 'object') {
      for (const [k, sub] of Object.entries(o.properties)) {
        properties++
        chars += k.length
        visit(sub)
      }
    }
    if (o.items) visit(o.items)
    if (Array.isArray(o.anyOf)) o.anyOf.forEach(visit)
    for (const defsKey of ['$defs', 'definitions']) {
      const defs = o[defsKey]
      if (defs && typeof defs === 'object') {
        for (const [k, sub] of Object.entries(defs)) {
          chars += k.length
          visit(sub)
        }
      }
    }
  }
  visit(root)
  if (properties > 5_000) problems.push(`the schema has ${properties} object properties in total; the limit is 5000`)
  if (enumValues > 1_000)
    problems.push(`the schema has ${enumValues} enum values across all enum properties; the limit is 1000`)
  if (chars > 120_000)
    problems.push(
      'the total string length of property names, definition names, enum values and const values ' +
        `is ${chars}; the limit is 120000`,
    )
  return problems
}

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

/** Where `value` violates `schema` (JSON paths); empty when it conforms. */
export function validateInstance(root: unknown, value: unknown): string[] {
  const errors: string[] = []
  const r = root as Schema
  const check = (s0: Schema, v: unknown, at: string) => {
    let s: Schema
    try {
      s = resolve(r, s0)
    } catch (e) {
      errors.push(`${at}: ${(e as Error).message}`)
      return
    }
    if (Array.isArray(s.anyOf)) {
      const ok = s.anyOf.some((sub: Schema) => {
        const before = errors.length
        check(sub, v, at)
        const fine = errors.length === before
        errors.length = before
        return fine
      })
      if (!ok) errors.push(`${at}: matches none of anyOf`)
      return
    }
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v))
      errors.push(`${at}: must be ${JSON.stringify(s.const)}`)
    if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v))) {
      errors.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`)
      return
    }
    if (s.type === undefined) return
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type]
    const t = typeOf(v)
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      errors.push(`${at}: expected ${types.join('|')}, got ${t}`)
      return
    }
    if (t === 'object') {
      const o = v as Record<string, unknown>
      const props: Schema = s.properties ?? {}
      for (const k of s.required ?? []) if (!(k in o)) errors.push(`${at}.${k}: missing`)
      for (const [k, val] of Object.entries(o)) {
        if (k in props) check(props[k], val, `${at}.${k}`)
        else if (s.additionalProperties === false) errors.push(`${at}.${k}: not allowed`)
      }
    } else if (t === 'array') {
      const a = v as unknown[]
      if (typeof s.minItems === 'number' && a.length < s.minItems) errors.push(`${at}: fewer than ${s.minItems} items`)
      if (typeof s.maxItems === 'number' && a.length > s.maxItems) errors.push(`${at}: more than ${s.maxItems} items`)
      if (s.items) a.forEach((item, i) => check(s.items, item, `${at}[${i}]`))
    } else if (t === 'number' || t === 'integer') {
      const n = v as number
      if (typeof s.minimum === 'number' && n < s.minimum) errors.push(`${at}: below ${s.minimum}`)
      if (typeof s.maximum === 'number' && n > s.maximum) errors.push(`${at}: above ${s.maximum}`)
      if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum)
        errors.push(`${at}: not above ${s.exclusiveMinimum}`)
      if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum)
        errors.push(`${at}: not below ${s.exclusiveMaximum}`)
    } else if (t === 'string' && typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v as string)) {
      errors.push(`${at}: does not match ${s.pattern}`)
    }
  }
  check(r, value, '$')
  return errors
}

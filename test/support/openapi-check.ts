// Checks real responses against the served OpenAPI document, the way a generated client would read them: the status
// is declared for the operation, every header we send is declared on that response, and the body validates against
// its schema (Ajv, JSON Schema 2020-12, formats on) with no property the document does not declare.
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** The headers of ours a response may carry: each must be declared where it is sent. */
const OURS = [
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'location',
  'www-authenticate',
  'allow',
  'content-disposition',
]

export interface Checked {
  operationId: string
  status: number
}

/** A stricter reading of the document's schemas: an object that lists its properties allows no others. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed)
  if (!schema || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v)
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false
  return out
}

export function openApiChecker(doc: any) {
  const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true })
  ;(addFormats as unknown as typeof addFormats.default)(ajv)
  const base = 'https://profiler.invalid/openapi.json'
  ajv.addSchema({ $id: base, components: closed(doc.components) })
  const deref = (x: any): any =>
    x?.$ref
      ? deref(
          x.$ref
            .split('/')
            .slice(1)
            .reduce((o: any, k: string) => o[k], doc),
        )
      : x
  const routes = Object.entries(doc.paths as Record<string, Record<string, any>>).map(([template, ops]) => ({
    re: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    template,
    ops,
  }))
  const validators = new Map<string, ReturnType<typeof ajv.compile>>()
  const validator = (key: string, schema: unknown) => {
    let v = validators.get(key)
    if (!v)
      validators.set(
        key,
        (v = ajv.compile(
          schema?.constructor === Object && (schema as any).$ref
            ? { $ref: `${base}${(schema as any).$ref}` }
            : { $id: `${base}/${validators.size}`, ...(closed(schema) as object) },
        )),
      )
    return v
  }

  /** Throws, naming the operation, when the response does not conform; returns the operation and status it matched. */
  return async function check(method: string, url: string, res: Response): Promise<Checked> {
    const path = new URL(url).pathname
    const route = routes.find((r) => r.re.test(path))
    const op = route?.ops[method.toLowerCase()]
    if (!route || !op) throw new Error(`${method} ${path}: no operation in the document`)
    const what = `${op.operationId} (${method} ${route.template}) ${res.status}`
    const declared = deref(op.responses[String(res.status)] ?? op.responses.default)
    if (!declared) throw new Error(`${what}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`)
    const headers = Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase())
    for (const h of OURS)
      if (res.headers.has(h) && !headers.includes(h)) throw new Error(`${what}: header ${h} sent but not declared`)
    if (!res.headers.has('x-request-id')) throw new Error(`${what}: no X-Request-Id`)
    const text = await res.clone().text()
    if (!declared.content) {
      if (text !== '') throw new Error(`${what}: a body where none is declared: ${text.slice(0, 200)}`)
      return { operationId: op.operationId, status: res.status }
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim()
    const media = declared.content[type]
    if (!media)
      throw new Error(`${what}: Content-Type ${type} not declared (${Object.keys(declared.content).join(', ')})`)
    if (type === 'application/json') {
      const v = validator(`${op.operationId} ${res.status}`, media.schema)
      if (!v(JSON.parse(text)))
        throw new Error(
          `${what}: body does not conform: ${ajv.errorsText(v.errors, { separator: '; ' })}\n${text.slice(0, 500)}`,
        )
    }
    return { operationId: op.operationId, status: res.status }
  }
}

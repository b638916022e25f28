// A REST route, declared once: its method and path, what it takes (path, query and header parameters, body), what it
// answers, who may call it, and its handler. Fastify registers it from the declaration (registerRoutes) and the OpenAPI
// document describes it from the same declaration (openApiPaths), so the two cannot list different routes.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify'
import { z } from 'zod'
import type { Config } from '../config.js'
import { DomainError } from '../domain/errors.js'
import { abortOnClose } from '../http/abort.js'
import { authenticateBearer } from '../http/auth.js'
import { setRateLimitHeaders } from '../http/rate-limit.js'
import { appBudgetKey } from '../services/budget.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'
import { componentRef, ErrorBody } from './schemas.js'

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext
  }
}

export type JsonSchema = Record<string, unknown>

/** What a handler works with besides its request. */
export interface RouteDeps {
  services: Services
  config: Config
  /** The OpenAPI document of the routes (GET /v1/openapi.json answers it). */
  openApiDocument: () => object
}

/** Response headers (components.headers), each declared where it is sent. */
export const HEADERS = {
  'X-Request-Id': {
    description: 'The request id (an incoming valid X-Request-Id is echoed); every response has one',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: "Operations of the app's budget per window", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Operations left in the window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window has room again', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  Location: { description: 'The profile the submission is for', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
  'Content-Disposition': { description: 'attachment; filename="..."', schema: { type: 'string' } },
} as const
export type HeaderName = keyof typeof HEADERS

/** A response of a route. */
export interface RouteResponse {
  description: string
  /** The body: JSON of a named schema (components.schemas), or another media type and its JSON Schema. */
  body?: z.ZodType | { media: string; schema: JsonSchema }
  /** Headers sent besides the request id and, after authentication, the budget's state (RateLimit-*). */
  headers?: HeaderName[]
}

export const ok = (description: string, body?: RouteResponse['body'], ...headers: HeaderName[]): RouteResponse => ({
  description,
  ...(body ? { body } : {}),
  ...(headers.length ? { headers } : {}),
})
export const err = (description: string, ...headers: HeaderName[]): RouteResponse =>
  ok(description, ErrorBody, ...headers)

/** The JSON Lines media types an import is read as (a stream, line by line). */
const JSON_LINES_TYPES = ['application/x-ndjson', 'application/jsonl', 'application/jsonlines']

/**
 * A request body: a JSON object (the service validates it with the named schema), or JSON Lines read as a stream by
 * the handler. A required body sent as another media type is refused with 415.
 */
export type RouteBody = { json: z.ZodType; required: boolean } | { jsonLines: true }

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface RestRoute<Params = Record<string, string>> {
  method: Method
  /** Fastify's form, below the prefix: /profile/:id. */
  path: string
  operationId: string
  summary: string
  description?: string
  /** The group the reference shows it in (a tag the document declares). */
  tag: string
  /** bearer: an API key as a Bearer token, and a request of the app's budget; none: anyone. */
  auth: 'bearer' | 'none'
  /** The path parameters, as many as the path names. */
  params?: z.ZodType<Params>
  query?: z.ZodType
  headers?: z.ZodType
  body?: RouteBody
  /** What the route answers; 401, 429 (bearer), 415 (a required body) and 503 are added when not declared. */
  responses: Record<number, RouteResponse>
  handler(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, deps: RouteDeps): Promise<unknown>
}

/** A declaration, its handler's path parameters typed by its params schema. */
export const route = <Params = Record<string, string>>(r: RestRoute<Params>): RestRoute => r as unknown as RestRoute

const requiredBody = (body: RouteBody | undefined): body is RouteBody =>
  !!body && ('jsonLines' in body || body.required)

/** The media type a required body must be sent as, as the 415's message and the document name it. */
function bodyMedia(body: RouteBody): { accepts: RegExp; name: string } {
  return 'jsonLines' in body
    ? { accepts: /^application\/(x-ndjson|jsonl|jsonlines)\b/i, name: 'application/x-ndjson' }
    : { accepts: /^application\/json\b/i, name: 'application/json' }
}

function requireMediaType(req: FastifyRequest, body: RouteBody): void {
  const { accepts, name } = bodyMedia(body)
  if (!accepts.test(String(req.headers['content-type'] ?? ''))) {
    const what = 'jsonLines' in body ? `${name} (an export, JSON Lines)` : name
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type: send ${what}`)
  }
}

/** The names a path gives its parameters (:id), in order. */
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!)

function checkDeclaration(restRoute: RestRoute): void {
  const declared = restRoute.params
    ? Object.keys(objectSchema(restRoute.params, `${restRoute.operationId} params`).properties)
    : []
  if (declared.join() !== pathParams(restRoute.path).join()) {
    throw new Error(
      `${restRoute.operationId}: the path names parameters ${pathParams(restRoute.path)}, params declares ${declared}`,
    )
  }
}

/**
 * Authentication first, so an unauthenticated caller learns nothing else (not even body errors); then the app's
 * budget, the same one its GraphQL operations draw on.
 */
function bearer(services: Services): onRequestHookHandler {
  return async (req, reply) => {
    // The signal stops the request's long work (a context, a re-extraction, an export) when its client goes away.
    req.ctx = { ...(await authenticateBearer(services, req)), signal: abortOnClose(reply.raw) }
    setRateLimitHeaders(reply, services.budget.charge(appBudgetKey(req.ctx)))
  }
}

/** Registers each route on `app` as its declaration says. */
export function registerRoutes(app: FastifyInstance, routes: readonly RestRoute[], deps: RouteDeps): void {
  // JSON Lines bodies are handed over as a stream, never read whole: the server's JSON body limit does not apply, the
  // route's own limits do.
  if (routes.some((r) => r.body && 'jsonLines' in r.body)) {
    app.addContentTypeParser(JSON_LINES_TYPES, (_req, payload, done) => done(null, payload))
  }
  const authenticate = bearer(deps.services)
  for (const r of routes) {
    checkDeclaration(r)
    app.route({
      method: r.method,
      url: r.path,
      ...(r.auth === 'bearer' ? { onRequest: authenticate } : {}),
      handler: async (req, reply) => {
        if (requiredBody(r.body)) requireMediaType(req, r.body)
        return r.handler(req as FastifyRequest<{ Params: Record<string, string> }>, reply, deps)
      },
    })
  }
}

const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))

/** The headers of every answer after authentication: the request id and the budget's state. */
const ANSWERED: HeaderName[] = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']

/** A response as the document says it; `answered`: the headers every response of its route carries. */
function responseObject(response: RouteResponse, answered: readonly HeaderName[]) {
  const content = !response.body
    ? undefined
    : response.body instanceof z.ZodType
      ? { 'application/json': { schema: componentRef(response.body) } }
      : { [response.body.media]: { schema: response.body.schema } }
  const headers = headerRefs([...answered, ...(response.headers ?? [])])
  return { description: response.description, headers, ...(content ? { content } : {}) }
}

/** components.responses: the answers many routes share, referred to by name. */
export function sharedResponses() {
  return {
    Unauthorized: responseObject(ok('Missing or invalid API key', ErrorBody, 'WWW-Authenticate'), ['X-Request-Id']),
    RateLimited: responseObject(err('Rate limit exceeded (Retry-After says when to retry)', 'Retry-After'), ANSWERED),
    Unavailable: responseObject(
      err('Database unreachable, or the AI provider needed for this request unavailable'),
      ANSWERED,
    ),
    MethodNotAllowed: responseObject(
      ok('A known path with a method it does not accept (any path below)', ErrorBody, 'Allow'),
      ['X-Request-Id'],
    ),
  }
}

const shared = (name: keyof ReturnType<typeof sharedResponses>) => ({ $ref: `#/components/responses/${name}` })

function responsesOf(restRoute: RestRoute) {
  const answered = restRoute.auth === 'bearer' ? ANSWERED : (['X-Request-Id'] as HeaderName[])
  const out: Record<string, unknown> = {}
  for (const [status, response] of Object.entries(restRoute.responses)) out[status] = responseObject(response, answered)
  if (requiredBody(restRoute.body)) {
    out['415'] ??= responseObject(err(`Body is not ${bodyMedia(restRoute.body).name}`), answered)
  }
  if (restRoute.auth === 'bearer') {
    out['401'] ??= shared('Unauthorized')
    out['429'] ??= shared('RateLimited')
  }
  out['503'] ??= shared('Unavailable')
  // Statuses are integer keys: an object lists them in ascending order whatever order they were added in.
  return out
}

function objectSchema(schema: z.ZodType, what: string) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>
    required?: string[]
  }
  if (!json.properties) throw new Error(`${what}: not an object schema`)
  return { properties: json.properties, required: json.required ?? [] }
}

/** A parameter is absent or a string, never null: the null branch of a nullish schema says nothing about it. */
function withoutNull(schema: JsonSchema): JsonSchema {
  const { anyOf, type, ...outer } = schema as { anyOf?: JsonSchema[]; type?: unknown }
  if (Array.isArray(type) && type.includes('null')) {
    const types = type.filter((t) => t !== 'null')
    return { ...outer, type: types.length === 1 ? types[0] : types }
  }
  const branches = anyOf?.filter((b) => b.type !== 'null')
  return anyOf && branches!.length === 1 && branches!.length < anyOf.length ? { ...branches![0], ...outer } : schema
}

/** OpenAPI parameters of one kind, one per property of the schema; its description is the parameter's. */
function parametersOf(where: 'path' | 'query' | 'header', schema: z.ZodType | undefined, what: string) {
  if (!schema) return []
  const { properties, required } = objectSchema(schema, what)
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = withoutNull(property)
    return {
      name,
      in: where,
      required: where === 'path' || required.includes(name),
      schema: rest,
      ...(description ? { description } : {}),
    }
  })
}

function requestBodyOf(body: RouteBody) {
  return 'jsonLines' in body
    ? { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' } } } }
    : { required: body.required, content: { 'application/json': { schema: componentRef(body.json) } } }
}

function operationOf(restRoute: RestRoute) {
  checkDeclaration(restRoute)
  const parameters = [
    ...parametersOf('path', restRoute.params, `${restRoute.operationId} params`),
    ...parametersOf('query', restRoute.query, `${restRoute.operationId} query`),
    ...parametersOf('header', restRoute.headers, `${restRoute.operationId} headers`),
  ]
  return {
    operationId: restRoute.operationId,
    tags: [restRoute.tag],
    summary: restRoute.summary,
    ...(restRoute.description ? { description: restRoute.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(restRoute.body ? { requestBody: requestBodyOf(restRoute.body) } : {}),
    responses: responsesOf(restRoute),
    // The document's default is the API key; a route without one says so.
    ...(restRoute.auth === 'none' ? { security: [] } : {}),
  }
}

/** The document's paths: each route under `prefix`, its path parameters as {name}. */
export function openApiPaths(routes: readonly RestRoute[], prefix: string): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {}
  const operationIds = new Set<string>()
  for (const r of routes) {
    const path = prefix + r.path.replace(/:(\w+)/g, '{$1}')
    const method = r.method.toLowerCase()
    if (paths[path]?.[method] || operationIds.has(r.operationId)) {
      throw new Error(`${r.method} ${path} (${r.operationId}) is declared twice`)
    }
    operationIds.add(r.operationId)
    ;(paths[path] ??= {})[method] = operationOf(r)
  }
  return paths
}

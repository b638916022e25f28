// A route declaration (src/rest/route.ts) makes both the Fastify route and the OpenAPI operation: what each says of
// the body's media type, of authentication and of the parameters follows from the declaration.
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Config } from '../../src/config.js'
import { rollbackBodySchema } from '../../src/domain/forget.js'
import { sendError } from '../../src/http/errors.js'
import { err, ok, openApiPaths, registerRoutes, route, type RestRoute } from '../../src/rest/route.js'
import { ProfileResponse } from '../../src/rest/schemas.js'
import type { Services } from '../../src/services/index.js'

/** A route anyone may call, with a path parameter, query parameters and a required JSON body. */
const open = route({
  method: 'POST',
  path: '/things/:thingId/echo',
  operationId: 'echoThing',
  summary: 'Echo',
  tag: 'Things',
  auth: 'none',
  params: z.object({ thingId: z.string().max(10) }),
  query: z.object({
    size: z.number().int().min(1).default(5).describe('How many'),
    note: z.string().nullish().describe('Any note'),
  }),
  body: { json: rollbackBodySchema, required: true },
  responses: { 404: err('No such thing'), 200: ok('The thing', ProfileResponse) },
  handler: async (req) => ({ thing: req.params.thingId, body: req.body }),
})

describe('route declarations', () => {
  it('the operation: parameters from the schemas, a 415 for the required body, no API key where none is asked', () => {
    const op = openApiPaths([open], '/api')['/api/things/{thingId}/echo']!.post as any
    expect(op.operationId).toBe('echoThing')
    expect(op.tags).toEqual(['Things'])
    expect(op.security).toEqual([])
    expect(op.parameters).toEqual([
      { name: 'thingId', in: 'path', required: true, schema: { type: 'string', maxLength: 10 } },
      {
        name: 'size',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: expect.any(Number), default: 5 },
        description: 'How many',
      },
      { name: 'note', in: 'query', required: false, schema: { type: 'string' }, description: 'Any note' },
    ])
    const body = { schema: { $ref: '#/components/schemas/RollbackRequest' } }
    expect(op.requestBody).toEqual({ required: true, content: { 'application/json': body } })
    expect(Object.keys(op.responses)).toEqual(['200', '404', '415', '503'])
    expect(op.responses['415'].description).toBe('Body is not application/json')
    expect(Object.keys(op.responses['200'].headers)).toEqual(['X-Request-Id'])
  })

  it('a route behind the API key answers 401 and 429 too, with the budget headers', () => {
    const body = { json: rollbackBodySchema, required: false }
    const keyed: RestRoute = { ...open, operationId: 'echoKeyed', auth: 'bearer', body }
    const op = openApiPaths([keyed], '')['/things/{thingId}/echo']!.post as any
    expect(op.security).toBeUndefined()
    expect(op.requestBody.required).toBe(false)
    expect(Object.keys(op.responses)).toEqual(['200', '401', '404', '429', '503'])
    const headers = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']
    expect(Object.keys(op.responses['200'].headers)).toEqual(headers)
  })

  it("refuses a declaration whose parameters are not its path's, a route declared twice, an unnamed body", () => {
    const renamed = { ...open, path: '/things/:id/echo' }
    expect(() => openApiPaths([renamed], '')).toThrow(/path names parameters id, params declares thingId/)
    expect(() => openApiPaths([open, { ...open, operationId: 'again' }], '')).toThrow(/declared twice/)
    expect(() => openApiPaths([{ ...open, body: { json: z.object({}), required: true } }], '')).toThrow(/must be named/)
  })

  it('Fastify serves it as declared: no key asked, a body of another media type refused with 415', async () => {
    const app = Fastify()
    app.setErrorHandler((e, req, reply) => sendError(req, reply, e))
    registerRoutes(app, [open], { services: {} as Services, config: {} as Config, openApiDocument: () => ({}) })
    const sent = await app.inject({ method: 'POST', url: '/things/t1/echo', payload: { to_seq: 2 } })
    expect(sent.statusCode).toBe(200)
    expect(sent.json()).toEqual({ thing: 't1', body: { to_seq: 2 } })
    const headers = { 'content-type': 'text/plain' }
    const plain = await app.inject({ method: 'POST', url: '/things/t1/echo', headers, payload: 'to_seq=2' })
    expect(plain.statusCode).toBe(415)
    expect(plain.json().message).toBe('Unsupported Content-Type: send application/json')
    await app.close()
  })
})

import { HEADERS, openApiPaths, sharedResponses } from './route.js'
import { componentSchemas } from './schemas.js'
import { V1_TAGS, v1Routes } from './v1.routes.js'

/**
 * The OpenAPI 3 document of /v1: its paths from the route declarations (v1.routes.ts), which Fastify registers too,
 * and its bodies from the named schemas (schemas.ts), among them the ones that validate the requests.
 */
export function openApiDocument(opts: { maxPageSize?: number } = {}) {
  const routes = v1Routes({ maxPageSize: opts.maxPageSize ?? 100 })
  const untagged = routes.filter((r) => !Object.hasOwn(V1_TAGS, r.tag))
  if (untagged.length) throw new Error(`${untagged.map((r) => r.operationId)}: a tag V1_TAGS does not declare`)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Profiler',
      version: '1.0.0',
      description: 'Structured, ever-growing profiles from what people write.',
    },
    tags: Object.entries(V1_TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: componentSchemas(),
      headers: HEADERS,
      responses: sharedResponses(),
    },
    security: [{ bearer: [] }],
    paths: openApiPaths(routes, '/v1'),
  }
}

// The OpenAPI document and the routes agree: every route the running server serves under /v1 is an operation of the
// document it serves, and every operation of the document is a route it serves. The routes are Fastify's own list
// (printRoutes), not the declarations they were made from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type TestService } from '../support/harness.js'

/**
 * "METHOD /path/:param" for every route of a printRoutes({ commonPrefix: false }) tree: each line is a path segment
 * under its parent's (4 characters of indentation a level), with the methods served there. HEAD is left out: Fastify
 * serves it wherever GET is.
 */
function servedRoutes(tree: string): string[] {
  const pathAt: string[] = []
  const routes: string[] = []
  for (const line of tree.split('\n')) {
    const node = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!node) continue
    const depth = node[1]!.length / 4
    const path = (depth ? pathAt[depth - 1]! : '') + node[2]!
    pathAt.splice(depth, pathAt.length, path)
    for (const method of node[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`)
  }
  return routes
}

/** "METHOD /path/:param" for every operation of an OpenAPI document. */
function documentedRoutes(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  )
}

describe('OpenAPI document and routes', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => svc?.close())

  it('every route served under /v1 is documented, and every documented operation is served', async () => {
    const all = servedRoutes(svc.profiler.server!.printRoutes({ commonPrefix: false }))
    // The tree was read whole: routes outside /v1, and nested ones, are there too.
    expect(all).toEqual(expect.arrayContaining(['GET /healthz', 'POST /mcp', 'GET /v1/schema/versions']))
    const served = all.filter((r) => r.split(' ')[1]!.startsWith('/v1/'))
    const res = await fetch(`${svc.url}/v1/openapi.json`, { headers: { authorization: `Bearer ${svc.key}` } })
    const documented = documentedRoutes((await res.json()) as Parameters<typeof documentedRoutes>[0])
    expect({
      undocumented: served.filter((r) => !documented.includes(r)),
      notServed: documented.filter((r) => !served.includes(r)),
    }).toEqual({ undocumented: [], notServed: [] })
    expect(served.length).toBe(documented.length)
    expect(served.length).toBeGreaterThanOrEqual(20)
  })
})

// The browsable API reference at /docs: Swagger UI over the service's own OpenAPI document. Its assets come from the
// swagger-ui-dist package and are served by this process, so the page works offline and loads nothing from a CDN.
import fs from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Config } from '../config.js'
import { openApiDocument } from './openapi.js'

const require = createRequire(import.meta.url)

/** The files of swagger-ui-dist the page loads, with their content types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Profiler API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`

// A file of its own rather than an inline script, so the page's policy allows scripts from this server only.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
})
`

// Swagger UI sets styles through the DOM and shows its icons as data: images.
const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

function hardened(reply: FastifyReply, type: string, cache: string): FastifyReply {
  return reply
    .header('content-type', type)
    .header('cache-control', cache)
    .header('content-security-policy', POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
}

function assetDirectory(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'))
}

const loaded = new Map<string, Promise<Buffer>>()

/** An asset's bytes, read once per process (a failed read is retried on the next request). */
function asset(name: string): Promise<Buffer> {
  let bytes = loaded.get(name)
  if (!bytes) {
    bytes = fs.readFile(path.join(assetDirectory(), name))
    loaded.set(name, bytes)
    bytes.catch(() => loaded.delete(name))
  }
  return bytes
}

/** GET /docs (the page), /docs/init.js, /docs/openapi.json and /docs/assets/<file>; none needs a key. */
export function registerApiDocs(app: FastifyInstance, config: Config): void {
  // Built on the first request: start-up does not pay for a page few processes serve.
  let document: string | undefined
  app.get('/docs', async (_req, reply) => hardened(reply, 'text/html; charset=utf-8', 'no-cache').send(PAGE))
  app.get('/docs/init.js', async (_req, reply) =>
    hardened(reply, 'text/javascript; charset=utf-8', 'no-cache').send(INIT),
  )
  app.get('/docs/openapi.json', async (_req, reply) =>
    hardened(reply, 'application/json; charset=utf-8', 'no-cache').send(
      (document ??= JSON.stringify(openApiDocument({ maxPageSize: config.limits.maxPageSize }))),
    ),
  )
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/docs/assets/${name}`, async (_req, reply) =>
      hardened(reply, type, 'public, max-age=86400').send(await asset(name)),
    )
  }
}

import crypto from 'node:crypto'
import http from 'node:http'
import type { FastifyInstance } from 'fastify'
import { bearerToken } from '../domain/keys.js'
import { DomainError } from '../domain/errors.js'
import type { Metrics } from '../metrics/metrics.js'
import { sendError } from './errors.js'

// Where Prometheus reads the metrics: GET /metrics on the API port behind its own bearer token
// (PROFILER_METRICS_TOKEN), and/or a small HTTP server of its own (PROFILER_METRICS_PORT, no auth: bind it where only
// the scraper reaches), which every role runs, the worker included. Neither path touches the request budgets.

const digest = (s: string) => crypto.createHash('sha256').update(s).digest()

/** Whether an Authorization header carries the token, compared in constant time (digests of equal length). */
export function metricsTokenMatches(expected: Buffer, header: string | undefined): boolean {
  const given = bearerToken(header)
  return given !== undefined && crypto.timingSafeEqual(digest(given), expected)
}

/** GET /metrics on the API server when a token is configured; without one the path does not exist (404). */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  if (!token) return
  const expected = digest(token)
  app.get('/metrics', async (req, reply) => {
    if (!metricsTokenMatches(expected, req.headers.authorization)) {
      return sendError(
        req,
        reply,
        new DomainError(
          'UNAUTHENTICATED',
          'Missing or invalid metrics token: send Authorization: Bearer <PROFILER_METRICS_TOKEN>',
        ),
      )
    }
    const { contentType, body } = await metrics.scrape()
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body)
  })
}

export interface MetricsServer {
  url: string
  close(): Promise<void>
}

/** The metrics port: GET (or HEAD) /metrics and nothing else. */
export async function startMetricsServer(
  metrics: Metrics,
  opts: { host: string; port: number },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '')
    if (path !== '/metrics') return end(res, 404, 'Not found: the metrics are at /metrics\n')
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD')
      return end(res, 405, 'Method not allowed\n')
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, {
          'Content-Type': contentType,
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
        })
        res.end(req.method === 'HEAD' ? undefined : body)
      },
      () => end(res, 500, 'Metrics collection failed\n'),
    )
  })
  // Scrapers reuse connections; idle ones must not hold the shutdown.
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const addr = server.address()
  const port = typeof addr === 'object' && addr ? addr.port : opts.port
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

function end(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

import crypto from 'node:crypto'
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import type { AiProviderStatus } from './ai/errors.js'
import type { Config } from './config.js'
import { DomainError } from './domain/errors.js'
import { dashboardEndpoint } from './dashboard/endpoint.js'
import { registerDashboardRoutes } from './dashboard/routes.js'
import type { EventBus } from './events/event-bus.js'
import { dashboardSchema, profilerSchema } from './graphql/schema.js'
import { apiEndpoint, registerGraphQL } from './graphql/server.js'
import { registerV1Routes } from './rest/v1.js'
import { registerMcpRoutes } from './mcp/http.js'
import type { Services } from './services/index.js'
import { clientErrorHandler, sendError } from './http/errors.js'
import { RouteTable } from './http/route-table.js'
import { registerMetricsRoute } from './http/metrics.js'
import { registerApiDocs } from './rest/api-docs.js'
import type { Metrics } from './metrics/metrics.js'
import { traceRequests } from './http/tracing.js'
import { ClientAddresses } from './http/client-address.js'
import { boundedServerFactory, connectionCap } from './http/connections.js'
import { tracingOn } from './tracing/tracing.js'

/** An incoming X-Request-Id is kept when it is this sane; anything else is replaced by a fresh id. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/

export interface HttpDeps {
  config: Config
  services: Services
  bus: EventBus
  log: Logger
  metrics: Metrics
  ready: () => Promise<boolean>
  /** The AI provider's state for /readyz (a remote provider only). */
  aiStatus?: () => AiProviderStatus
}

export async function buildServer(deps: HttpDeps): Promise<FastifyInstance> {
  const { config } = deps
  const routerOptions = { ignoreTrailingSlash: true, maxParamLength: 1024 }
  const addresses = new ClientAddresses(config.http.trustProxy)
  const cap = connectionCap(config.http)
  const app = Fastify({
    // request.ip: the client behind trusted proxies (the same function as upgrades and connections use).
    trustProxy: addresses.trust ?? false,
    serverFactory: boundedServerFactory(config.http, addresses, {
      cap,
      onRefused: (why) => deps.metrics.connectionRefused(why),
    }),
    loggerInstance: deps.log as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.limits.maxBodyBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : crypto.randomUUID()
    },
    routerOptions,
    frameworkErrors: (err, req, reply) => sendError(req, reply, err),
    clientErrorHandler,
  })

  // JSON bodies as Fastify parses them (prototype-poisoning checks included), except that an empty body is no body:
  // a DELETE or GET sent with `Content-Type: application/json` and nothing else is an ordinary request.
  // Every route, as registered: what a 405 names in `Allow`.
  const routes = new RouteTable(routerOptions)
  routes.watch(app)

  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : json(req, body as string, done),
  )

  if (tracingOn()) traceRequests(app)
  // Both hooks are synchronous (callback style): an async hook costs a promise on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id)
    done()
  })
  // One line per request (never the body or the key), and one observation labelled by the route's pattern, never the
  // URL: a request for /v1/profile/<anything> adds no series, nor does one that matches no route.
  const { metrics } = deps
  app.addHook('onResponse', (req, reply, done) => {
    const queryStart = req.url.indexOf('?')
    const ms = reply.elapsedTime
    req.log.info(
      {
        method: req.method,
        url: queryStart < 0 ? req.url : req.url.slice(0, queryStart),
        status: reply.statusCode,
        ms: Math.round(ms),
      },
      'request',
    )
    metrics.httpRequest(req.method, req.is404 ? undefined : req.routeOptions.url, reply.statusCode, ms / 1000)
    done()
  })
  app.setErrorHandler((err, req, reply) => sendError(req, reply, err))
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!
    const allowed = routes.allowed(path)
    if (allowed.length) {
      reply.header('Allow', allowed.join(', '))
      return sendError(
        req,
        reply,
        new DomainError(
          'METHOD_NOT_ALLOWED',
          `Method ${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
        ),
      )
    }
    return sendError(req, reply, new DomainError('NOT_FOUND', `No route ${req.method} ${path}`))
  })

  app.get('/healthz', async () => ({ status: 'ok' }))
  // Ready means the database answers and is migrated. A paused or failing AI provider does not make it 503: this
  // process still serves reads and accepts submissions (they wait), and taking every replica out of a load balancer for
  // it would turn a wrong key into a full outage. The provider's state is in the body, and in metrics.
  app.get('/readyz', async (_req, reply) => {
    const ok = await deps.ready().catch(() => false)
    if (!ok)
      return reply.code(503).send({ error: 503, message: 'Not ready: database unreachable or migrations pending' })
    const ai = deps.aiStatus?.()
    return reply.code(200).send(ai ? { status: 'ready', ai } : { status: 'ready' })
  })

  registerMetricsRoute(app, deps.metrics, config.metrics.token)
  registerApiDocs(app, config)

  await app.register(async (v1) => registerV1Routes(v1, deps.services, config), { prefix: '/v1' })
  // MCP (Streamable HTTP) at /mcp: the same services, key, limits and budget as /v1.
  await app.register(async (mcp) => registerMcpRoutes(mcp, deps.services, config))
  const { services, bus, metrics: m } = deps
  await registerGraphQL(app, config, services, bus, m, apiEndpoint(services, await profilerSchema()), addresses)
  await registerDashboardRoutes(app, config, deps.services)
  const dashboardGraphQL = dashboardEndpoint(services, await dashboardSchema(), config.dashboard)
  await registerGraphQL(app, config, services, bus, m, dashboardGraphQL, addresses)
  return app
}

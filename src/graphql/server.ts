import crypto from 'node:crypto'
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled'
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server'
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql'
import type { Context } from 'graphql-ws'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocket, WebSocketServer } from 'ws'
import type { Config } from '../config.js'
import { DomainError } from '../domain/errors.js'
import { bearerToken, credentialId } from '../domain/keys.js'
import { apiKeyCredential, authenticateBearer } from '../http/auth.js'
import type { ClientAddresses } from '../http/client-address.js'
import type { EventBus } from '../events/event-bus.js'
import { abortOnClose, CallerGone, workController } from '../http/abort.js'
import { rateLimitHeaders } from '../http/rate-limit.js'
import { routeUpgrade } from '../http/upgrade.js'
import type { RequestContext } from '../services/context.js'
import { appBudgetKey, RateLimitedError, type Credential } from '../services/budget.js'
import type { Services } from '../services/index.js'
import type { GqlContext } from './context.js'
import { formatGraphQLError, toGraphQLError } from './errors.js'
import { limitRules } from './limits.js'
import { MAX_CONTEXTS_PER_OPERATION, planOperation, tooManyContexts, type PlanOptions } from './plan.js'
import { operationMetrics } from './metrics.js'
import type { Metrics } from '../metrics/metrics.js'
import { failed, startSpan, tracingOn } from '../tracing/tracing.js'

/** Who a WebSocket connection acts for, decided once at connect. */
export interface WsAuth {
  ctx: RequestContext
  /**
   * Connections counted together for the socket and subscription limits (one app, one session); also the budget
   * their operations are charged to, the same as the credential's HTTP requests.
   */
  group: string
  /** The credential itself (a digest): its periodic re-check is shared by every socket that uses it. */
  credential: string
  /** More context for every operation of the connection. */
  extra?: Partial<GqlContext>
  /** Resolves false once the credential no longer holds (key revoked, session ended): the socket is then closed. */
  stillValid(): Promise<boolean>
  /** Close reason sent with 4403 when the credential goes. */
  goneReason: string
  /** The app whose key authenticated the connection: an apiKeysRevoked event for it closes the socket at once. */
  app?: { tenantId: string; appId: string }
}

/** One GraphQL endpoint: its path, schema and how requests on it are authenticated. */
export interface GraphQLEndpoint {
  path: string
  schema: GraphQLSchema
  methods: ('GET' | 'POST')[]
  /** The context of an HTTP request (its ctx carries `signal`); throw a DomainError to refuse it. */
  httpContext(req: FastifyRequest, reply: FastifyReply, signal: AbortSignal): Promise<GqlContext>
  /**
   * Who a WebSocket connection is; throw to refuse it (graphql-ws closes with 4403). `address`: the client's, as for
   * HTTP requests (behind trusted proxies, the forwarded one).
   */
  wsConnect(params: Record<string, unknown> | undefined, request: IncomingMessage, address: string): Promise<WsAuth>
  /** What the failure budget knows of a connection's credential before wsConnect checks it. */
  wsCredential(params: Record<string, unknown> | undefined, request: IncomingMessage): Credential
  /** Sent as WWW-Authenticate with a 401. */
  challenge?: string
}

interface SocketState {
  auth: WsAuth
  /**
   * Each running operation's abort controller, by id: aborted when the client sends `complete` for it or the socket
   * closes. `payload` tells an operation from a later one that reuses its id.
   */
  operations: Map<string, { payload: unknown; controller: AbortController }>
}

/** graphql-ws's per-socket extra for the ws adapter, plus ours. */
type Extra = {
  socket: WebSocket
  request: IncomingMessage
  state?: SocketState
  closed?: boolean
}

/** The API endpoint: /graphql, authenticated by an app's API key (Bearer). */
export function apiEndpoint(services: Services, schema: GraphQLSchema): GraphQLEndpoint {
  return {
    path: '/graphql',
    schema,
    methods: ['GET', 'POST'],
    challenge: 'Bearer',
    httpContext: async (req, _reply, signal) => {
      const ctx = { ...(await authenticateBearer(services, req)), signal }
      return { ctx, budgetKey: appBudgetKey(ctx), requestId: req.id, services, log: req.log }
    },
    wsCredential: (params) => apiKeyCredential(services, bearerToken(String(params?.authorization ?? ''))),
    wsConnect: async (params) => {
      const key = bearerToken(String(params?.authorization ?? ''))
      const ctx = await services.tenants.authenticate(key, crypto.randomUUID())
      return {
        ctx,
        group: appBudgetKey(ctx),
        credential: `key:${credentialId(key)}`,
        goneReason: 'Forbidden: API key revoked',
        app: { tenantId: ctx.tenantId, appId: ctx.appId },
        stillValid: () =>
          services.tenants.authenticate(key, ctx.requestId, { fresh: true }).then(
            () => true,
            (e) => !(e instanceof DomainError),
          ),
      }
    },
  }
}

/** A GraphQL endpoint over HTTP (Apollo) and WebSocket (graphql-ws) on the same path, over the one service layer. */
export async function registerGraphQL(
  app: FastifyInstance,
  config: Config,
  services: Services,
  bus: EventBus,
  metrics: Metrics,
  endpoint: GraphQLEndpoint,
  addresses: ClientAddresses,
) {
  const { schema } = endpoint
  const rules = limitRules(config.graphql, config.production)
  const planning: PlanOptions = { maxPageSize: config.limits.maxPageSize }
  const apollo = new ApolloServer<GqlContext>({
    schema,
    introspection: !config.production,
    allowBatchedHttpRequests: false,
    validationRules: rules,
    parseOptions: { maxTokens: config.graphql.maxTokens },
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError(config.production),
    // No cache hints are used: Apollo's default cache-control plugin would wrap every field's resolver to collect them.
    plugins: [
      fastifyApolloDrainPlugin(app),
      subscriptionsNeedWebSocket,
      chargeOperations(planning),
      operationMetrics(metrics, endpoint.path),
      ApolloServerPluginCacheControlDisabled(),
      ...(tracingOn() ? [traceOperations] : []),
    ],
  })
  await apollo.start()

  await app.register(async (gql) => {
    gql.addHook('onSend', async (_req, reply) => {
      if (reply.statusCode === 401 && endpoint.challenge) reply.header('WWW-Authenticate', endpoint.challenge)
    })
    gql.route({
      url: endpoint.path,
      method: endpoint.methods,
      // Apollo answers HEAD with 405, so the route does not claim it (nor does Allow).
      exposeHeadRoute: false,
      handler: fastifyApolloHandler(apollo, {
        context: async (req, reply) => {
          try {
            const context = await endpoint.httpContext(req, reply, abortOnClose(reply.raw))
            // Every authenticated request counts, even one whose document turns out invalid (it cost a key lookup);
            // the operation's other root fields are charged once it is resolved (chargeOperations).
            if (context.budgetKey) context.rate = services.budget.charge(context.budgetKey)
            return context
          } catch (err) {
            throw err instanceof DomainError ? toGraphQLError(err) : err
          }
        },
      }),
    })
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.graphql.wsMaxPayloadBytes })
  routeUpgrade(app.server, endpoint.path, wss)
  const format = formatGraphQLError(config.production)
  const { budget } = services
  const limits = config.graphql
  type WsContext = Context<Record<string, unknown>, Extra>
  // Live connections per credential: subscriptions are counted from graphql-ws's own bookkeeping at the moment of
  // the check, so a slot freed by a `complete` is free for a subscribe that arrives right after it.
  const byGroup = new Map<string, Set<WsContext>>()
  const liveOperations = (group: string) =>
    [...(byGroup.get(group) ?? [])].reduce((n, c) => n + Object.keys(c.subscriptions).length, 0)
  const sockets = new Set<WsContext>()
  // Read at scrape time: every open socket (authenticated or not yet), and the operations graphql-ws runs on them.
  metrics.webSockets(endpoint.path, () => {
    let operations = 0
    for (const c of sockets) operations += Object.keys(c.subscriptions).length
    return { connections: wss.clients.size, operations }
  })
  // One periodic re-check per credential, however many sockets use it (a CLI revocation in another process raises
  // no event): 500 sockets on one key cost one query per interval, not 500.
  const rechecks = new Map<string, { timer: NodeJS.Timeout; sockets: Set<WsContext> }>()
  const watch = (connection: WsContext, auth: WsAuth) => {
    let recheck = rechecks.get(auth.credential)
    if (!recheck) {
      const entry = {
        sockets: new Set<WsContext>(),
        timer: setInterval(() => {
          auth.stillValid().then(
            (ok) => {
              if (!ok) for (const s of entry.sockets) s.extra.socket.close(4403, auth.goneReason)
            },
            () => undefined,
          )
        }, limits.wsAuthRecheckMs),
      }
      entry.timer.unref()
      rechecks.set(auth.credential, (recheck = entry))
    }
    recheck.sockets.add(connection)
  }
  const unwatch = (connection: WsContext, auth: WsAuth) => {
    const recheck = rechecks.get(auth.credential)
    if (!recheck) return
    recheck.sockets.delete(connection)
    if (!recheck.sockets.size) {
      clearInterval(recheck.timer)
      rechecks.delete(auth.credential)
    }
  }
  // A rotated or revoked key (or a deleted app) ends its connections now, in this process and, through the bus,
  // in every other one.
  const stopRevocations = bus.subscribe('apiKeysRevoked', ({ tenantId, appId }) => {
    for (const c of sockets) {
      const connectedApp = c.extra.state?.auth.app
      if (connectedApp && connectedApp.tenantId === tenantId && connectedApp.appId === appId)
        c.extra.socket.close(4403, c.extra.state!.auth.goneReason)
    }
  })
  const tooMany = (message: string, retryAfterSeconds?: number) =>
    new GraphQLError(message, {
      extensions: {
        code: 'RATE_LIMITED',
        status: 429,
        ...(retryAfterSeconds ? { retryAfter: retryAfterSeconds } : {}),
      },
    })

  const cleanup = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (connection) => {
        const { request } = connection.extra
        const address = addresses.of(request)
        let auth: WsAuth
        try {
          const credential = endpoint.wsCredential(connection.connectionParams, request)
          const check = () => endpoint.wsConnect(connection.connectionParams, request, address)
          auth = await budget.authenticate(address, credential, check)
        } catch (err) {
          // Too many failed attempts from this address: say so (4429), otherwise graphql-ws closes with 4403 Forbidden.
          if (err instanceof RateLimitedError)
            connection.extra.socket.close(4429, 'Too many failed authentications; retry later')
          return false
        }
        // The socket may have gone while we checked: start nothing for it.
        if (connection.extra.closed || connection.extra.socket.readyState !== WebSocket.OPEN) return false
        let set = byGroup.get(auth.group)
        if (set && set.size >= limits.wsMaxSockets) {
          connection.extra.socket.close(
            4429,
            `Too many connections: at most ${limits.wsMaxSockets} per API key or session`,
          )
          return false
        }
        if (!set) byGroup.set(auth.group, (set = new Set()))
        const state: SocketState = { auth, operations: new Map() }
        connection.extra.state = state
        // graphql-ws answers a `complete` for a query or mutation only once it has finished: its work is stopped here.
        connection.extra.socket.on('message', (data, binary) => {
          const id = completedId(data, binary)
          if (id !== undefined)
            state.operations.get(id)?.controller.abort(new CallerGone('the client completed the operation'))
        })
        set.add(connection)
        sockets.add(connection)
        watch(connection, auth)
        return true
      },
      onSubscribe: async (connection, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        const state = connection.extra.state!
        let document: DocumentNode
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens })
        } catch (err) {
          return [withCode(err instanceof GraphQLError ? err : new GraphQLError(String(err)), 'GRAPHQL_PARSE_FAILED')]
        }
        const errors = validate(schema, document, [...specifiedRules, ...rules])
        if (errors.length) return errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'))
        const operation = getOperationAST(document, payload.operationName)
        if (!operation)
          return [withCode(new GraphQLError('No operation to run: name one with operationName'), 'BAD_REQUEST')]
        // Counted before anything runs: an operation over the context bound is refused having done nothing.
        const plan = planOperation(schema, document, operation, payload.variables, planning)
        if (plan.contexts > MAX_CONTEXTS_PER_OPERATION) return [toGraphQLError(tooManyContexts(plan))]
        // The same budget as the credential's HTTP requests: one per root field and per context. A subscription pays
        // for its root field now and for the contexts of each event as the event resolves (eventCost).
        try {
          budget.charge(state.auth.group, operation.operation === 'subscription' ? plan.rootFields : plan.cost)
        } catch (err) {
          if (err instanceof RateLimitedError) return [tooMany(err.message, err.decision.resetSeconds)]
          throw err
        }
        if (operation.operation === 'subscription') {
          // graphql-ws has already registered this operation, so it counts itself once.
          if (Object.keys(connection.subscriptions).length - 1 >= limits.wsMaxSubscriptionsPerSocket) {
            return [
              tooMany(
                `Too many subscriptions: at most ${limits.wsMaxSubscriptionsPerSocket} at once on one connection`,
              ),
            ]
          }
          if (liveOperations(state.auth.group) - 1 >= limits.wsMaxSubscriptions) {
            return [
              tooMany(`Too many subscriptions: at most ${limits.wsMaxSubscriptions} at once per API key or session`),
            ]
          }
        }
        const requestId = crypto.randomUUID()
        const controller = workController()
        state.operations.set(id, { payload, controller })
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: {
            ...state.auth.extra,
            ctx: { ...state.auth.ctx, requestId, signal: controller.signal },
            budgetKey: state.auth.group,
            requestId,
            services,
            log: app.log,
            ...(operation.operation === 'subscription' && plan.contexts ? { eventCost: plan.contexts } : {}),
          } satisfies GqlContext,
        }
      },
      // After an operation ended (on its own, or after the client's `complete`): nothing of it runs any more.
      onComplete: (connection, id, payload) => {
        const ops = connection.extra.state?.operations
        if (ops?.get(id)?.payload === payload) ops.delete(id)
      },
      onError: (_c, _id, _payload, errors) => errors.map((e) => format(e.toJSON(), e)),
      onNext: (_c, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => format(e.toJSON(), e)) } : undefined,
      onClose: (connection) => {
        connection.extra.closed = true
        const state = connection.extra.state
        sockets.delete(connection)
        if (!state) return
        for (const { controller } of state.operations.values())
          controller.abort(new CallerGone('the connection closed'))
        state.operations.clear()
        unwatch(connection, state.auth)
        byGroup.get(state.auth.group)?.delete(connection)
        if (!byGroup.get(state.auth.group)?.size) byGroup.delete(state.auth.group)
      },
    },
    wss,
  )

  // Before the HTTP server stops accepting and drains: upgraded sockets count as its connections, so they must be
  // closed first (with 1001 Going Away) or the drain would wait for them for ever.
  app.addHook('preClose', async () => {
    stopRevocations()
    for (const r of rechecks.values()) clearInterval(r.timer)
    for (const client of wss.clients) client.close(1001, 'Server shutting down')
    await cleanup.dispose()
    await new Promise<void>((r) => wss.close(() => r()))
    // A client that does not answer the close handshake is cut off.
    for (const client of wss.clients) client.terminate()
  })
}

/**
 * The operation's limits and cost over HTTP, once its document and variables are known and before anything runs: an
 * operation over the context bound is refused having done nothing; otherwise it is charged one per root field
 * (aliases included) and one per context field to the caller's key, the budget its REST requests and WebSocket
 * operations draw on (the request itself paid one already, in the context); RateLimit-* headers on every answer.
 */
const chargeOperations = (planning: PlanOptions): ApolloServerPlugin<GqlContext> => ({
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, document, contextValue, request, schema }) {
        if (!operation) return
        const plan = planOperation(schema, document, operation, request.variables, planning)
        if (plan.contexts > MAX_CONTEXTS_PER_OPERATION) throw toGraphQLError(tooManyContexts(plan))
        const more = plan.cost - 1
        if (!contextValue.budgetKey || more <= 0) return
        try {
          contextValue.rate = contextValue.services.budget.charge(contextValue.budgetKey, more)
        } catch (err) {
          if (err instanceof RateLimitedError) throw toGraphQLError(err)
          throw err
        }
      },
      async willSendResponse({ contextValue, response }) {
        if (!contextValue.rate) return
        for (const [k, v] of Object.entries(rateLimitHeaders(contextValue.rate))) response.http.headers.set(k, v)
      },
    }
  },
})

/** The id of a graphql-transport-ws `complete` message (small: the only one the client sends to stop an operation). */
function completedId(data: unknown, binary: boolean): string | undefined {
  if (binary) return undefined
  const text = String(data)
  if (text.length > 4096 || !text.includes('"complete"')) return undefined
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown }
    return message?.type === 'complete' && typeof message.id === 'string' ? message.id : undefined
  } catch {
    return undefined
  }
}

/** Same shape as Apollo's own: a code and the 400 status, locations kept. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code, status: 400 },
  })
}

/**
 * A span per GraphQL operation over HTTP, a child of the request's span: `query Name`, with the operation's type and
 * name (never its document or variables), failed when the answer carries errors. Only when tracing is on.
 */
const traceOperations: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    const span = startSpan('graphql.operation')
    return {
      async didResolveOperation({ operation, operationName }) {
        if (!span || !operation) return
        span.updateName(operationName ? `${operation.operation} ${operationName.slice(0, 100)}` : operation.operation)
        span.setAttribute('graphql.operation.type', operation.operation)
        if (operationName) span.setAttribute('graphql.operation.name', operationName.slice(0, 200))
      },
      async didEncounterErrors({ errors }) {
        span?.setAttribute('profiler.graphql.errors', errors.length)
        failed(span, errors[0])
      },
      async willSendResponse() {
        span?.end()
      },
    }
  },
}

/** Subscriptions are served over WebSocket only; over HTTP they would have no event stream. */
const subscriptionsNeedWebSocket: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'subscription') {
          throw new GraphQLError('Subscriptions need a WebSocket: connect to /graphql with graphql-ws', {
            extensions: { code: 'BAD_REQUEST', status: 400, http: { status: 400 } },
          })
        }
      },
    }
  },
}

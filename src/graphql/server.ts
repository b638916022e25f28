import crypto from 'node:crypto'
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server'
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type ExecutionArgs, type GraphQLSchema } from 'graphql'
import type { Context } from 'graphql-ws'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocket, WebSocketServer } from 'ws'
import type { Config } from '../config.js'
import { DomainError } from '../domain/errors.js'
import { bearerToken } from '../domain/keys.js'
import type { EventBus } from '../events/event-bus.js'
import { perKeyRateLimit } from '../http/rate-limit.js'
import { routeUpgrade } from '../http/upgrade.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'
import type { GqlContext } from './context.js'
import { formatGraphQLError, toGraphQLError } from './errors.js'
import { limitRules } from './limits.js'

/** Who a WebSocket connection acts for, decided once at connect. */
export interface WsAuth {
  ctx: RequestContext
  /** Connections counted together for the subscription limit (one API key, one session). */
  group: string
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
  methods: ('GET' | 'POST' | 'OPTIONS')[]
  /** The context of an HTTP request; throw a DomainError to refuse it. */
  httpContext(req: FastifyRequest, reply: FastifyReply): Promise<GqlContext>
  /** Who a WebSocket connection is; throw to refuse it (graphql-ws closes with 4403). */
  wsConnect(params: Record<string, unknown> | undefined, request: IncomingMessage): Promise<WsAuth>
  /** Sent as WWW-Authenticate with a 401. */
  challenge?: string
}

interface SocketState {
  auth: WsAuth
  recheck?: NodeJS.Timeout
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
    methods: ['GET', 'POST', 'OPTIONS'],
    challenge: 'Bearer',
    httpContext: async (req) => ({
      ctx: await services.tenants.authenticate(bearerToken(req.headers.authorization), req.id),
      requestId: req.id,
      services,
      log: req.log,
    }),
    wsConnect: async (params) => {
      const key = bearerToken(String(params?.authorization ?? ''))
      const ctx = await services.tenants.authenticate(key, crypto.randomUUID())
      return {
        ctx,
        group: `app:${ctx.tenantId}:${ctx.appId}`,
        goneReason: 'Forbidden: API key revoked',
        app: { tenantId: ctx.tenantId, appId: ctx.appId },
        stillValid: () =>
          services.tenants.authenticate(key, ctx.requestId).then(
            () => true,
            (e) => (e instanceof DomainError ? false : true),
          ),
      }
    },
  }
}

/** A GraphQL endpoint over HTTP (Apollo) and WebSocket (graphql-ws) on the same path, over the one service layer. */
export async function registerGraphQL(app: FastifyInstance, config: Config, services: Services, bus: EventBus, endpoint: GraphQLEndpoint) {
  const { schema } = endpoint
  const rules = limitRules(config.graphql, config.production)
  const apollo = new ApolloServer<GqlContext>({
    schema,
    introspection: !config.production,
    allowBatchedHttpRequests: false,
    validationRules: rules,
    parseOptions: { maxTokens: config.graphql.maxTokens },
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError(config.production),
    plugins: [fastifyApolloDrainPlugin(app), subscriptionsNeedWebSocket],
  })
  await apollo.start()

  await app.register(async (gql) => {
    await perKeyRateLimit(gql, config.limits.ratePerMinute)
    gql.addHook('onSend', async (_req, reply) => {
      if (reply.statusCode === 401 && endpoint.challenge) reply.header('WWW-Authenticate', endpoint.challenge)
    })
    gql.route({
      url: endpoint.path,
      method: endpoint.methods,
      handler: fastifyApolloHandler(apollo, {
        context: async (req, reply) => {
          try {
            return await endpoint.httpContext(req, reply)
          } catch (e) {
            throw e instanceof DomainError ? toGraphQLError(e) : e
          }
        },
      }),
    })
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.graphql.wsMaxPayloadBytes })
  routeUpgrade(app.server, endpoint.path, wss)
  const format = formatGraphQLError(config.production)
  type WsContext = Context<Record<string, unknown>, Extra>
  // Live connections per credential: subscriptions are counted from graphql-ws's own bookkeeping at the moment of
  // the check, so a slot freed by a `complete` is free for a subscribe that arrives right after it.
  const byGroup = new Map<string, Set<WsContext>>()
  const liveOperations = (group: string) =>
    [...(byGroup.get(group) ?? [])].reduce((n, c) => n + Object.keys(c.subscriptions).length, 0)
  const sockets = new Set<WsContext>()
  // A rotated or revoked key (or a deleted app) ends its connections now, in this process and, through the bus,
  // in every other one.
  const stopRevocations = bus.subscribe('apiKeysRevoked', ({ tenantId, appId }) => {
    for (const c of sockets) {
      const a = c.extra.state?.auth.app
      if (a && a.tenantId === tenantId && a.appId === appId) c.extra.socket.close(4403, c.extra.state!.auth.goneReason)
    }
  })

  const cleanup = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (c) => {
        let auth: WsAuth
        try {
          auth = await endpoint.wsConnect(c.connectionParams, c.extra.request)
        } catch {
          return false // graphql-ws closes with 4403 Forbidden
        }
        // The socket may have gone while we checked: start nothing for it.
        if (c.extra.closed || c.extra.socket.readyState !== WebSocket.OPEN) return false
        const state: SocketState = { auth }
        c.extra.state = state
        let set = byGroup.get(auth.group)
        if (!set) byGroup.set(auth.group, (set = new Set()))
        set.add(c)
        sockets.add(c)
        // The credential is re-checked periodically too (a CLI revocation in another process raises no event).
        state.recheck = setInterval(() => {
          auth.stillValid().then((ok) => {
            if (!ok) c.extra.socket.close(4403, auth.goneReason)
          }, () => undefined)
        }, config.graphql.wsAuthRecheckMs)
        state.recheck.unref()
        return true
      },
      onSubscribe: async (c, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        const state = c.extra.state!
        let document
        try {
          document = parse(payload.query, { maxTokens: config.graphql.maxTokens })
        } catch (e) {
          return [withCode(e instanceof GraphQLError ? e : new GraphQLError(String(e)), 'GRAPHQL_PARSE_FAILED')]
        }
        const errors = validate(schema, document, [...specifiedRules, ...rules])
        if (errors.length) return errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'))
        const isSubscription = getOperationAST(document, payload.operationName)?.operation === 'subscription'
        // graphql-ws has already registered this operation, so it counts itself once.
        if (isSubscription && liveOperations(state.auth.group) - 1 >= config.graphql.wsMaxSubscriptions) {
          return [
            new GraphQLError(`Too many subscriptions: at most ${config.graphql.wsMaxSubscriptions} at once per API key or session`, {
              extensions: { code: 'RATE_LIMITED', status: 429 },
            }),
          ]
        }
        const requestId = crypto.randomUUID()
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: { ...state.auth.extra, ctx: { ...state.auth.ctx, requestId }, requestId, services, log: app.log } satisfies GqlContext,
        }
      },
      onError: (_c, _id, _payload, errors) => errors.map((e) => format(e.toJSON(), e)),
      onNext: (_c, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => format(e.toJSON(), e)) } : undefined,
      onClose: (c) => {
        c.extra.closed = true
        const state = c.extra.state
        sockets.delete(c)
        if (!state) return
        clearInterval(state.recheck)
        byGroup.get(state.auth.group)?.delete(c)
        if (!byGroup.get(state.auth.group)?.size) byGroup.delete(state.auth.group)
      },
    },
    wss,
  )

  app.addHook('onClose', async () => {
    stopRevocations()
    for (const client of wss.clients) client.close(1001, 'Server shutting down')
    await cleanup.dispose()
    await new Promise<void>((r) => wss.close(() => r()))
  })
}

/** Same shape as Apollo's own: a code and the 400 status, locations kept. */
function withCode(e: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { ...e.extensions, code, status: 400 } })
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

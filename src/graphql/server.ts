import crypto from 'node:crypto'
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server'
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify'
import type { FastifyInstance } from 'fastify'
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type ExecutionArgs, type GraphQLSchema } from 'graphql'
import type { Context } from 'graphql-ws'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocket, WebSocketServer } from 'ws'
import type { Config } from '../config.js'
import { DomainError } from '../domain/errors.js'
import { bearerToken } from '../domain/keys.js'
import { perKeyRateLimit } from '../http/rate-limit.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'
import type { GqlContext } from './context.js'
import { formatGraphQLError, toGraphQLError } from './errors.js'
import { limitRules } from './limits.js'

interface SocketState {
  ctx: RequestContext
  key: string
  recheck?: NodeJS.Timeout
}

/** graphql-ws's per-socket extra for the ws adapter, plus ours. */
type Extra = {
  socket: WebSocket
  request: import('node:http').IncomingMessage
  state?: SocketState
  closed?: boolean
}

/** GraphQL over HTTP (Apollo) and WebSocket (graphql-ws) on /graphql of the same server, over the one service layer. */
export async function registerGraphQL(app: FastifyInstance, config: Config, services: Services, schema: GraphQLSchema) {
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
      if (reply.statusCode === 401) reply.header('WWW-Authenticate', 'Bearer')
    })
    gql.route({
      url: '/graphql',
      method: ['GET', 'POST', 'OPTIONS'],
      handler: fastifyApolloHandler(apollo, {
        context: async (req) => {
          try {
            return { ctx: await services.tenants.authenticate(bearerToken(req.headers.authorization), req.id), services, log: req.log }
          } catch (e) {
            throw e instanceof DomainError ? toGraphQLError(e) : e
          }
        },
      }),
    })
  })

  const wss = new WebSocketServer({ server: app.server, path: '/graphql', maxPayload: config.graphql.wsMaxPayloadBytes })
  const format = formatGraphQLError(config.production)
  type WsContext = Context<Record<string, unknown>, Extra>
  // Live connections per API key: subscriptions are counted from graphql-ws's own bookkeeping at the moment of the
  // check, so a slot freed by a `complete` is free for a subscribe that arrives right after it.
  const byKey = new Map<string, Set<WsContext>>()
  const liveOperations = (key: string) =>
    [...(byKey.get(key) ?? [])].reduce((n, c) => n + Object.keys(c.subscriptions).length, 0)

  const cleanup = useServer<Record<string, unknown>, Extra>(
    {
      schema,
      onConnect: async (c) => {
        const key = bearerToken(String(c.connectionParams?.authorization ?? ''))
        let ctx: RequestContext
        try {
          ctx = await services.tenants.authenticate(key, crypto.randomUUID())
        } catch {
          return false // graphql-ws closes with 4403 Forbidden
        }
        // The socket may have gone while we checked the key: start nothing for it.
        if (c.extra.closed || c.extra.socket.readyState !== WebSocket.OPEN) return false
        const state: SocketState = { ctx, key: key! }
        c.extra.state = state
        let set = byKey.get(state.key)
        if (!set) byKey.set(state.key, (set = new Set()))
        set.add(c)
        // A revoked or rotated key ends its open subscriptions: the socket re-checks the key.
        state.recheck = setInterval(() => {
          services.tenants.authenticate(key, ctx.requestId).catch((e) => {
            if (e instanceof DomainError) c.extra.socket.close(4403, 'Forbidden: API key revoked')
          })
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
        if (isSubscription && liveOperations(state.key) - 1 >= config.graphql.wsMaxSubscriptions) {
          return [
            new GraphQLError(`Too many subscriptions: at most ${config.graphql.wsMaxSubscriptions} at once per API key`, {
              extensions: { code: 'RATE_LIMITED', status: 429 },
            }),
          ]
        }
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: { ctx: { ...state.ctx, requestId: crypto.randomUUID() }, services, log: app.log } satisfies GqlContext,
        }
      },
      onError: (_c, _id, _payload, errors) => errors.map((e) => format(e.toJSON(), e)),
      onNext: (_c, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => format(e.toJSON(), e)) } : undefined,
      onClose: (c) => {
        c.extra.closed = true
        const state = c.extra.state
        if (!state) return
        clearInterval(state.recheck)
        byKey.get(state.key)?.delete(c)
        if (!byKey.get(state.key)?.size) byKey.delete(state.key)
      },
    },
    wss,
  )

  app.addHook('onClose', async () => {
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

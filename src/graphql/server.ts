import crypto from 'node:crypto'
import { ApolloServer } from '@apollo/server'
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify'
import type { FastifyInstance } from 'fastify'
import { GraphQLError, parse, specifiedRules, validate, type ExecutionArgs, type GraphQLSchema } from 'graphql'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocketServer } from 'ws'
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
  ctx?: RequestContext
  key?: string
  subscriptions: Set<string>
  recheck?: NodeJS.Timeout
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
    plugins: [fastifyApolloDrainPlugin(app)],
  })
  await apollo.start()

  await app.register(async (gql) => {
    await perKeyRateLimit(gql, config.limits.ratePerMinute)
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
  const perKey = new Map<string, number>() // live subscriptions per API key in this process
  const format = formatGraphQLError(config.production)

  const cleanup = useServer<Record<string, unknown>, { state?: SocketState }>(
    {
      schema,
      onConnect: async (c) => {
        const key = bearerToken(String(c.connectionParams?.authorization ?? ''))
        try {
          const ctx = await services.tenants.authenticate(key, crypto.randomUUID())
          const state: SocketState = { ctx, key, subscriptions: new Set() }
          c.extra.state = state
          // A revoked or rotated key ends its open subscriptions: the socket re-checks the key.
          state.recheck = setInterval(() => {
            services.tenants.authenticate(key, ctx.requestId).catch((e) => {
              if (e instanceof DomainError) c.extra.socket.close(4403, 'Forbidden: API key revoked')
            })
          }, config.graphql.wsAuthRecheckMs)
          state.recheck.unref()
          return true
        } catch {
          return false // graphql-ws closes with 4403 Forbidden
        }
      },
      onSubscribe: async (c, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        const state = c.extra.state!
        let document
        try {
          document = parse(payload.query, { maxTokens: config.graphql.maxTokens })
        } catch (e) {
          return [e instanceof GraphQLError ? e : new GraphQLError(String(e))]
        }
        const errors = validate(schema, document, [...specifiedRules, ...rules])
        if (errors.length) return errors
        const n = perKey.get(state.key!) ?? 0
        if (n >= config.graphql.wsMaxSubscriptions) {
          return [
            new GraphQLError(`Too many subscriptions: at most ${config.graphql.wsMaxSubscriptions} at once per API key`, {
              extensions: { code: 'RATE_LIMITED', status: 429 },
            }),
          ]
        }
        perKey.set(state.key!, n + 1)
        state.subscriptions.add(id)
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: { ctx: { ...state.ctx!, requestId: crypto.randomUUID() }, services, log: app.log } satisfies GqlContext,
        }
      },
      onError: (_c, _id, _payload, errors) => errors.map((e) => format(e.toJSON(), e)),
      onNext: (_c, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => format(e.toJSON(), e)) } : undefined,
      onComplete: (c, id) => {
        const state = c.extra.state
        if (!state?.subscriptions.delete(id)) return
        perKey.set(state.key!, Math.max(0, (perKey.get(state.key!) ?? 1) - 1))
      },
      onClose: (c) => {
        const state = c.extra.state
        if (!state) return
        clearInterval(state.recheck)
        const left = (perKey.get(state.key!) ?? 0) - state.subscriptions.size
        perKey.set(state.key!, Math.max(0, left))
        state.subscriptions.clear()
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

import { GraphQLError } from 'graphql'
import type { MiddlewareFn } from 'type-graphql'
import { DomainError, isConnectionError } from '../domain/errors.js'
import type { GqlContext } from './context.js'
import { toGraphQLError } from './errors.js'

/** Every resolver's errors leave as GraphQL errors with a code and status; unexpected ones are logged by request id. */
export const errorBoundary: MiddlewareFn<GqlContext> = async ({ context }, next) => {
  try {
    return await next()
  } catch (e) {
    if (e instanceof GraphQLError) throw e
    if (e instanceof DomainError) throw toGraphQLError(e)
    if (isConnectionError(e)) {
      throw new GraphQLError('Service unavailable: the database cannot be reached; retry shortly', {
        extensions: { code: 'DATABASE_UNAVAILABLE', status: 503 },
      })
    }
    const requestId = context?.requestId ?? 'unknown'
    context?.log?.error({ err: e, requestId }, 'resolver failed')
    throw new GraphQLError(`Internal error (request ${requestId})`, { extensions: { code: 'INTERNAL', status: 500 } })
  }
}

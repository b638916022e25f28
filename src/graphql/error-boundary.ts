import { GraphQLError } from 'graphql'
import type { MiddlewareFn } from 'type-graphql'
import { aiUnavailable } from '../ai/errors.js'
import { DomainError, isConnectionError } from '../domain/errors.js'
import type { GqlContext } from './context.js'
import { toGraphQLError } from './errors.js'
import { callerGone } from '../http/abort.js'

/** The operation's abort signal; none for a dashboard request without a session (reading its ctx throws). */
function signalOf(context: GqlContext | undefined): AbortSignal | undefined {
  try {
    return context?.ctx.signal
  } catch {
    return undefined
  }
}

/** Every resolver's errors leave as GraphQL errors with a code and status; unexpected ones are logged by request id. */
export const errorBoundary: MiddlewareFn<GqlContext> = async ({ context }, next) => {
  try {
    return await next()
  } catch (err) {
    if (err instanceof GraphQLError) throw err
    if (err instanceof DomainError) throw toGraphQLError(err)
    const ai = aiUnavailable(err)
    if (ai) throw toGraphQLError(ai)
    if (isConnectionError(err)) {
      throw new GraphQLError('Service unavailable: the database cannot be reached; retry shortly', {
        extensions: { code: 'DATABASE_UNAVAILABLE', status: 503 },
      })
    }
    const requestId = context?.requestId ?? 'unknown'
    // Work stopped because its caller went away is no failure (and nobody reads this answer).
    if (callerGone(signalOf(context))) context?.log?.info({ requestId }, 'operation cancelled')
    else context?.log?.error({ err, requestId }, 'resolver failed')
    throw new GraphQLError(`Internal error (request ${requestId})`, { extensions: { code: 'INTERNAL', status: 500 } })
  }
}

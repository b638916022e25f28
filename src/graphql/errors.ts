import { GraphQLError, type GraphQLFormattedError } from 'graphql'
import { DomainError, isConnectionError } from '../domain/errors.js'
import { rateLimitHeaders } from '../http/rate-limit.js'
import { RateLimitedError } from '../services/budget.js'

/**
 * A domain error as GraphQL reports it: `extensions.code` and the HTTP-like `extensions.status`
 * (docs/reference/errors.md).
 */
export function toGraphQLError(err: DomainError): GraphQLError {
  const headers = err instanceof RateLimitedError ? new Map(Object.entries(rateLimitHeaders(err.decision))) : undefined
  return new GraphQLError(err.message, {
    originalError: err,
    extensions: { code: err.code, status: err.status, http: { status: err.status, ...(headers ? { headers } : {}) } },
  })
}

/**
 * Apollo's and graphql-ws's last word on every error: domain codes kept, internals hidden, suggestions off in
 * production.
 */
export function formatGraphQLError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as GraphQLError)?.originalError ?? error
    if (original instanceof DomainError) {
      const retryAfter = original instanceof RateLimitedError ? { retryAfter: original.decision.resetSeconds } : {}
      return {
        ...formatted,
        message: original.message,
        extensions: { code: original.code, status: original.status, ...retryAfter },
      }
    }
    if (isConnectionError(original)) {
      return {
        message: 'Service unavailable: the database cannot be reached; retry shortly',
        extensions: { code: 'DATABASE_UNAVAILABLE', status: 503 },
      }
    }
    const code = String(formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR')
    if (code === 'INTERNAL_SERVER_ERROR')
      return { message: 'Internal error', extensions: { code: 'INTERNAL', status: 500 } }
    const message = production ? formatted.message.replace(/ ?Did you mean .*\?$/, '') : formatted.message
    const status = Number(formatted.extensions?.status ?? (code === 'INTERNAL' ? 500 : 400))
    const retryAfter =
      typeof formatted.extensions?.retryAfter === 'number' ? { retryAfter: formatted.extensions.retryAfter } : {}
    return {
      message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      extensions: { code, status, ...retryAfter },
    }
  }
}

import { GraphQLError, type GraphQLFormattedError } from 'graphql'
import { DomainError, isConnectionError } from '../domain/errors.js'

/** A domain error as GraphQL reports it: `extensions.code` and the HTTP-like `extensions.status` of CONTRACT §3. */
export function toGraphQLError(err: DomainError): GraphQLError {
  return new GraphQLError(err.message, { extensions: { code: err.code, status: err.status, http: { status: err.status } } })
}

/** Apollo's and graphql-ws's last word on every error: domain codes kept, internals hidden, suggestions off in production. */
export function formatGraphQLError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = (error as GraphQLError)?.originalError ?? error
    if (original instanceof DomainError) {
      return { ...formatted, message: original.message, extensions: { code: original.code, status: original.status } }
    }
    if (isConnectionError(original)) {
      return { message: 'Service unavailable: the database cannot be reached; retry shortly', extensions: { code: 'DATABASE_UNAVAILABLE', status: 503 } }
    }
    const code = String(formatted.extensions?.code ?? 'INTERNAL_SERVER_ERROR')
    if (code === 'INTERNAL_SERVER_ERROR') return { message: 'Internal error', extensions: { code: 'INTERNAL', status: 500 } }
    const message = production ? formatted.message.replace(/ ?Did you mean .*\?$/, '') : formatted.message
    const status = Number(formatted.extensions?.status ?? (code === 'INTERNAL' ? 500 : 400))
    return { message, ...(formatted.locations ? { locations: formatted.locations } : {}), extensions: { code, status } }
  }
}

import crypto from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { aiUnavailable } from '../ai/errors.js'
import { DomainError, isConnectionError } from '../domain/errors.js'
import { RateLimitedError } from '../services/budget.js'
import { callerGone } from './abort.js'
import { setRateLimitHeaders } from './rate-limit.js'

export interface ErrorBody {
  error: number
  message: string
}

const FASTIFY_MESSAGES: Record<string, (error: FastifyError) => string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'Malformed JSON in request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'Request body is empty; expected a JSON object',
  FST_ERR_CTP_BODY_TOO_LARGE: () => 'Request body is larger than the limit',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'Unsupported Content-Type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length does not match the body',
  FST_ERR_BAD_URL: () => 'Malformed URL: invalid percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: () => 'URI too long: a path segment is over 1024 characters',
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request did not arrive in time'],
  HPE_URI_TOO_LONG: [414, 'URI too long'],
}

/**
 * Node's `clientError`: a request too malformed to parse (no route, no Fastify request) still gets the contract's
 * body and an X-Request-Id, then the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Malformed HTTP request']
  if (socket.writable) {
    const body = JSON.stringify({ error: status, message })
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${crypto.randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy()
}

/**
 * Domain and framework errors -> the body and status of docs/reference/api-conventions.md, "Errors". Never leaks stack
 * traces, SQL or secrets.
 */
export function toHttpError(err: unknown, requestId: string): { status: number; body: ErrorBody; log: boolean } {
  if (err instanceof DomainError)
    return { status: err.status, body: { error: err.status, message: err.message }, log: false }
  const ai = aiUnavailable(err)
  if (ai) return { status: ai.status, body: { error: ai.status, message: ai.message }, log: false }
  if (isConnectionError(err)) {
    return {
      status: 503,
      body: { error: 503, message: 'Service unavailable: the database cannot be reached; retry shortly' },
      log: true,
    }
  }
  const fastifyError = err as FastifyError & { statusCode?: number }
  if (
    fastifyError &&
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    const status =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.name === 'SyntaxError'
        ? 400
        : fastifyError.statusCode
    const message =
      (fastifyError.code && FASTIFY_MESSAGES[fastifyError.code]?.(fastifyError)) ??
      (status === 400 && fastifyError.name === 'SyntaxError' ? 'Malformed JSON in request body' : fastifyError.message)
    return { status, body: { error: status, message }, log: false }
  }
  return { status: 500, body: { error: 500, message: `Internal error (request ${requestId})` }, log: true }
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const { status, body, log } = toHttpError(err, req.id)
  // Framework errors (bad URL encoding, a path over the length limit) come before the request hooks that set it.
  reply.header('X-Request-Id', req.id)
  // A request whose client went away stopped its work on purpose; nobody reads this answer.
  if (callerGone(req.ctx?.signal))
    req.log.info({ reason: (req.ctx.signal!.reason as Error).message }, 'request cancelled')
  else if (log) req.log.error({ err }, 'request failed')
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer')
  if (err instanceof RateLimitedError) setRateLimitHeaders(reply, err.decision)
  return reply.code(status).type('application/json').send(body)
}

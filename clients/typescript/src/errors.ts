/** What every error of this client carries. */
export interface ProfilerErrorInit {
  /** HTTP status of the answer; 0 when there was none (connection failed, timed out). */
  status: number
  /** A stable, machine-readable code: the body's own `code` when the service sends one, else named after the status. */
  code: string
  message: string
  /** The service's X-Request-Id of the answer (quote it when reporting a problem). */
  requestId?: string
  /** Seconds the service asked to wait (Retry-After), on 429 and 503. */
  retryAfterSeconds?: number
  /** The parsed error body, as received. */
  body?: unknown
  method?: string
  path?: string
  cause?: unknown
}

/** Base class of every error thrown by the client. */
export class ProfilerError extends Error {
  readonly status: number
  readonly code: string
  readonly requestId: string | undefined
  readonly retryAfterSeconds: number | undefined
  readonly body: unknown
  readonly method: string | undefined
  readonly path: string | undefined

  constructor(init: ProfilerErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.status = init.status
    this.code = init.code
    this.requestId = init.requestId
    this.retryAfterSeconds = init.retryAfterSeconds
    this.body = init.body
    this.method = init.method
    this.path = init.path
  }
}

/** 400: the request is invalid (the message names the field). */
export class ProfilerValidationError extends ProfilerError {}
/** 401: the API key is missing, unknown or revoked. */
export class ProfilerAuthenticationError extends ProfilerError {}
/** 403 */
export class ProfilerForbiddenError extends ProfilerError {}
/** 404: unknown profile (or value, history entry, route). */
export class ProfilerNotFoundError extends ProfilerError {}
/** 409: Idempotency-Key reused with another body, or a state conflict. */
export class ProfilerConflictError extends ProfilerError {}
/** 413: body or data over the size limit. */
export class ProfilerPayloadTooLargeError extends ProfilerError {}
/** 429: over the rate limit, after the client's retries (see `retryAfterSeconds`). */
export class ProfilerRateLimitError extends ProfilerError {}
/** 503: the service cannot reach its database or AI provider, after the client's retries. */
export class ProfilerUnavailableError extends ProfilerError {}
/** Any other 5xx. */
export class ProfilerServerError extends ProfilerError {}
/** No answer: the connection failed (status 0, code CONNECTION_FAILED). */
export class ProfilerConnectionError extends ProfilerError {}
/** No answer in time, or a wait that ran out (status 0, code TIMEOUT). */
export class ProfilerTimeoutError extends ProfilerError {}

const CODES: Record<number, string> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'SERVICE_UNAVAILABLE',
}

/** The code of a status when the body does not carry one. */
export const codeOfStatus = (status: number): string => CODES[status] ?? `HTTP_${status}`

/** The error class of an HTTP status. */
export function errorClassOf(status: number): new (init: ProfilerErrorInit) => ProfilerError {
  switch (status) {
    case 400:
    case 415:
      return ProfilerValidationError
    case 401:
      return ProfilerAuthenticationError
    case 403:
      return ProfilerForbiddenError
    case 404:
      return ProfilerNotFoundError
    case 409:
      return ProfilerConflictError
    case 413:
      return ProfilerPayloadTooLargeError
    case 429:
      return ProfilerRateLimitError
    case 503:
      return ProfilerUnavailableError
    default:
      return status >= 500 ? ProfilerServerError : ProfilerError
  }
}

/**
 * Every error code the service answers with: its HTTP status and when it is given. Domain errors carry a code; each
 * transport translates it (REST: the `{error, message}` body of docs/reference/api-conventions.md; GraphQL:
 * `extensions.code` and `extensions.status`). docs/reference/errors.md is generated from this table.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 400, when: 'A request is malformed: a field, parameter or body that breaks its rule.' },
  MISSING_API_KEY: { status: 401, when: 'No `Authorization: Bearer` key was sent.' },
  INVALID_API_KEY: { status: 401, when: 'The key is unknown, malformed or revoked.' },
  UNAUTHENTICATED: { status: 401, when: 'Dashboard: no valid session.' },
  INVALID_CREDENTIALS: {
    status: 401,
    when: 'Dashboard: wrong e-mail or password (one message for both, so it does not tell which accounts exist).',
  },
  FORBIDDEN: {
    status: 403,
    when: 'Dashboard: a request without its CSRF token, from another origin, or an operation served elsewhere.',
  },
  SIGNUP_CLOSED: { status: 403, when: 'Dashboard: sign-up is closed by configuration (accounts come from the CLI).' },
  INVALID_INVITE: { status: 403, when: 'Dashboard: an invite code that is unknown, used up or expired.' },
  PROFILE_NOT_FOUND: { status: 404, when: "No profile with that id in the key's tenant." },
  SUBMISSION_NOT_FOUND: { status: 404, when: 'No submission with that id in the profile.' },
  VALUE_NOT_FOUND: { status: 404, when: 'Forget: the profile does not hold that value.' },
  HISTORY_ENTRY_NOT_FOUND: { status: 404, when: 'Roll back: the profile has no history entry with that `seq`.' },
  TENANT_NOT_FOUND: { status: 404, when: 'CLI and dashboard: no tenant with that name or id.' },
  APP_NOT_FOUND: { status: 404, when: 'CLI and dashboard: no app with that slug, id or name.' },
  WEBHOOK_NOT_FOUND: { status: 404, when: 'Dashboard: no webhook with that id.' },
  NOT_FOUND: { status: 404, when: 'An unknown route, account or webhook delivery.' },
  METHOD_NOT_ALLOWED: { status: 405, when: 'A known path with another method; the `Allow` header lists the methods.' },
  IDEMPOTENCY_CONFLICT: { status: 409, when: 'An `Idempotency-Key` reused with a different body.' },
  CONFLICT: {
    status: 409,
    when:
      'The request clashes with the current state: a name already taken, a profile still processing or changed ' +
      'since a dry run, an edit that kept losing the race with the worker.',
  },
  NO_SNAPSHOT: { status: 409, when: 'Roll back: the history entry keeps no snapshot to return to.' },
  PAYLOAD_TOO_LARGE: { status: 413, when: 'A body or answer over its size limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'A POST body that is not `application/json`.' },
  RATE_LIMITED: { status: 429, when: 'A budget is spent; `Retry-After` says when to try again.' },
  INTERNAL: { status: 500, when: 'An unexpected error; the message names only the request id, which the log holds.' },
  AI_UNAVAILABLE: {
    status: 503,
    when: 'The AI provider could not summarise or embed a changed profile: nothing was changed.',
  },
  DATABASE_UNAVAILABLE: { status: 503, when: 'The database cannot be reached; the service recovers by itself.' },
} as const satisfies Record<string, { status: number; when: string }>

export type ErrorCode = keyof typeof ERRORS

/** The HTTP status of each error code. */
export const ERROR_STATUS = Object.fromEntries(Object.entries(ERRORS).map(([code, { status }]) => [code, status])) as {
  [Code in ErrorCode]: (typeof ERRORS)[Code]['status']
}

export class DomainError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'DomainError'
    this.status = ERROR_STATUS[code]
  }
}

export const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message)

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
])

/** Messages of drivers that lost the server or never reached it (any case). */
const CONNECTION_MESSAGE = new RegExp(
  [
    'Connection terminated',
    'connect ECONNREFUSED',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Connection closed',
  ].join('|'),
  'i',
)

/** True for errors that mean the database cannot be reached (-> 503), not that a query was wrong. */
export function isConnectionError(err: unknown): boolean {
  let cause: any = err
  for (let i = 0; cause && i < 4; i++) {
    if (typeof cause.code === 'string' && CONNECTION_CODES.has(cause.code)) return true
    // TypeORM's rollback after the server cut the connection mid-transaction (a restart): it hides the cause.
    if (cause.name === 'QueryRunnerProviderAlreadyReleasedError' || cause.name === 'QueryRunnerAlreadyReleasedError')
      return true
    const msg = String(cause.message ?? '')
    if (CONNECTION_MESSAGE.test(msg)) return true
    cause = cause.driverError ?? cause.cause
  }
  return false
}

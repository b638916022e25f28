/** Domain errors carry a code and the HTTP-like status of CONTRACT §3; each transport translates them. */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  PROFILE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  SUBMISSION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  TENANT_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  CONFLICT: 409,
  /** DELETE /v1/profile/{id}/values: the profile does not hold that value. */
  VALUE_NOT_FOUND: 404,
  /** Rollback: no history entry with that seq. */
  HISTORY_ENTRY_NOT_FOUND: 404,
  /** Rollback to a history entry written before snapshots were kept. */
  NO_SNAPSHOT: 409,
  /** The AI provider could not summarize or embed a changed profile: nothing was changed. */
  AI_UNAVAILABLE: 503,
  /** Dashboard: no valid session. */
  UNAUTHENTICATED: 401,
  /** Dashboard: wrong e-mail or password (one message for both, so it does not tell which accounts exist). */
  INVALID_CREDENTIALS: 401,
  /** Dashboard: a session without its CSRF token, or a request from another origin. */
  FORBIDDEN: 403,
  /** Dashboard: sign-up is closed by configuration (accounts come from the CLI). */
  SIGNUP_CLOSED: 403,
  /** Dashboard: an invite code that is unknown, used up or expired. */
  INVALID_INVITE: 403,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

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

/** True for errors that mean the database cannot be reached (-> 503), not that a query was wrong. */
export function isConnectionError(err: unknown): boolean {
  let e: any = err
  for (let i = 0; e && i < 4; i++) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true
    // TypeORM's rollback after the server cut the connection mid-transaction (a restart): it hides the cause.
    if (e.name === 'QueryRunnerProviderAlreadyReleasedError' || e.name === 'QueryRunnerAlreadyReleasedError')
      return true
    const msg = String(e.message ?? '')
    if (
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed/i.test(
        msg,
      )
    )
      return true
    e = e.driverError ?? e.cause
  }
  return false
}

/**
 * The dashboard's GraphQL client: queries and mutations over HTTP (POST /dashboard/graphql with the session cookie
 * and the x-csrf-token header), subscriptions over graphql-ws on the same path.
 */
import { createClient, type Client } from 'graphql-ws'
import type { TypedDocumentString } from './generated/graphql'
import { session } from './session'
import type { SessionState } from './types'

const GRAPHQL_PATH = '/dashboard/graphql'
const SESSION_PATH = '/dashboard/session'

export class ApiError extends Error {
  constructor(
    message: string,
    /** extensions.code of the GraphQL error, NETWORK_ERROR, or null */
    readonly code: string | null = null,
    readonly status: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

interface GraphQLErrorLike {
  message?: string
  extensions?: { code?: string; status?: number }
}

interface GraphQLResponse<T> {
  data?: T | null
  errors?: GraphQLErrorLike[]
}

let unauthenticatedHandler: (() => void) | null = null

/** Called whenever the server says the session has ended (error code UNAUTHENTICATED). */
export function setUnauthenticatedHandler(fn: () => void): void {
  unauthenticatedHandler = fn
}

function fromGraphQLError(error: GraphQLErrorLike | undefined, httpStatus: number | null): ApiError {
  const code = error?.extensions?.code ?? null
  const status = error?.extensions?.status ?? httpStatus
  return new ApiError(error?.message || 'The request failed.', code, status)
}

function isAbort(err: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (err instanceof DOMException && err.name === 'AbortError')
}

/** GET /dashboard/session: who is signed in, the CSRF token and whether sign-up is open. */
export async function fetchSession(): Promise<SessionState> {
  let res: Response
  try {
    res = await fetch(SESSION_PATH, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    })
  } catch {
    throw new ApiError('Could not reach the server. Check your connection and reload the page.', 'NETWORK_ERROR')
  }
  if (!res.ok) throw new ApiError(`Could not load the session (HTTP ${res.status}).`, null, res.status)
  const body = (await res.json()) as Partial<SessionState>
  return {
    account: body.account ?? null,
    csrfToken: body.csrfToken ?? null,
    signUpOpen: body.signUpOpen === true,
    signUpByInvite: (body as { signUp?: string }).signUp === 'invite',
  }
}

/**
 * A generated document's variables, then an optional AbortSignal: the variables may be left out only when the
 * operation has no required one.
 */
type OperationArgs<V> =
  Record<string, never> extends V ? [variables?: V, signal?: AbortSignal] : [variables: V, signal?: AbortSignal]

/**
 * Runs a query or mutation written with graphql() in ./queries; the result is typed from the schema. Throws ApiError
 * with the first GraphQL error's message and code.
 */
export async function gql<T, V>(
  document: TypedDocumentString<T, V>,
  ...[variables, signal]: OperationArgs<NoInfer<V>>
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (session.csrfToken) headers['x-csrf-token'] = session.csrfToken
  let res: Response
  let body: GraphQLResponse<T>
  try {
    res = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
      signal,
    })
  } catch (err) {
    if (isAbort(err, signal)) throw err
    throw new ApiError('Could not reach the server. Check your connection and try again.', 'NETWORK_ERROR')
  }
  try {
    body = (await res.json()) as GraphQLResponse<T>
  } catch (err) {
    if (isAbort(err, signal)) throw err
    throw new ApiError(`Unexpected response from the server (HTTP ${res.status}).`, null, res.status)
  }
  if (body.errors && body.errors.length > 0) {
    const error = fromGraphQLError(body.errors[0], res.status)
    if (error.code === 'UNAUTHENTICATED') unauthenticatedHandler?.()
    throw error
  }
  if (!res.ok || body.data === undefined || body.data === null) {
    throw new ApiError(`The request failed (HTTP ${res.status}).`, null, res.status)
  }
  return body.data
}

/** A readable message for anything thrown by gql() or elsewhere. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}

// --- live updates over graphql-ws ------------------------------------------------------------------------------

export type LiveState = 'idle' | 'connecting' | 'connected' | 'closed'

let client: Client | null = null
let liveState: LiveState = 'idle'
const liveListeners = new Set<(state: LiveState) => void>()

function setLiveState(state: LiveState): void {
  liveState = state
  for (const fn of liveListeners) fn(state)
}

/** Follows the WebSocket's state; the listener is called at once with the current state. */
export function onLiveState(fn: (state: LiveState) => void): () => void {
  liveListeners.add(fn)
  fn(liveState)
  return () => liveListeners.delete(fn)
}

function getClient(): Client {
  if (client) return client
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const created: Client = createClient({
    url: `${protocol}//${location.host}${GRAPHQL_PATH}`,
    // A function, so that a reconnect always sends the current token.
    connectionParams: () => ({ csrfToken: session.csrfToken }),
    lazy: true,
    retryAttempts: 8,
    // A refused connection (4401/4403: no session or bad CSRF token) is reported at once instead of being retried:
    // subscribe() then checks whether the session has ended.
    shouldRetry: (err) => !(isCloseEvent(err) && (err.code === 4401 || err.code === 4403)),
    on: {
      connecting: () => {
        if (client === created) setLiveState('connecting')
      },
      connected: () => {
        if (client === created) setLiveState('connected')
      },
      closed: () => {
        if (client === created) setLiveState('closed')
      },
    },
  })
  client = created
  return created
}

/** Closes the WebSocket (on sign-in and sign-out, so the next one carries the new session). */
export function resetRealtime(): void {
  const old = client
  client = null
  setLiveState('idle')
  if (old) void old.dispose()
}

function isCloseEvent(err: unknown): err is { code: number; reason: string } {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number' && 'reason' in err
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  if (Array.isArray(err)) return fromGraphQLError(err[0] as GraphQLErrorLike | undefined, null)
  if (isCloseEvent(err)) {
    const reason = err.reason ? `: ${err.reason}` : ''
    const code = err.code === 4401 || err.code === 4403 ? 'UNAUTHENTICATED' : 'CONNECTION_CLOSED'
    return new ApiError(`The live connection closed (${err.code}${reason}).`, code)
  }
  if (err instanceof Error) return new ApiError(err.message, 'CONNECTION_ERROR')
  return new ApiError('The live connection failed.', 'CONNECTION_ERROR')
}

/** After a failed subscription: if the session has ended, hand over to the UNAUTHENTICATED handler. */
async function checkSessionStillValid(): Promise<void> {
  try {
    const current = await fetchSession()
    if (current.account === null) unauthenticatedHandler?.()
  } catch {
    // offline: the caller retries
  }
}

export interface LiveHandlers<T> {
  next(data: T): void
  /** The subscription ended with an error; it is not retried here. */
  error(err: ApiError): void
  /** The server completed the subscription. */
  complete(): void
}

/** Starts a subscription; returns the function that stops it. */
export function subscribe<T, V extends Record<string, unknown>>(
  document: TypedDocumentString<T, V>,
  variables: NoInfer<V>,
  handlers: LiveHandlers<T>,
): () => void {
  let active = true
  const stop = getClient().subscribe<T>(
    { query: document.toString(), variables },
    {
      next: (result) => {
        if (!active) return
        if (result.data) {
          handlers.next(result.data)
        } else if (result.errors && result.errors.length > 0) {
          // No data at all: treat as the end of the subscription.
          active = false
          stop()
          const error = fromGraphQLError(result.errors[0] as GraphQLErrorLike, null)
          if (error.code === 'UNAUTHENTICATED') unauthenticatedHandler?.()
          handlers.error(error)
        }
      },
      error: (err) => {
        if (!active) return
        active = false
        const error = toApiError(err)
        if (error.code === 'UNAUTHENTICATED' || error.code === 'CONNECTION_CLOSED') void checkSessionStillValid()
        handlers.error(error)
      },
      complete: () => {
        if (!active) return
        active = false
        handlers.complete()
      },
    },
  )
  return () => {
    active = false
    stop()
  }
}

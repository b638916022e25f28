// waitUntilReady over the GraphQL subscription profileStatusChanged(id) (graphql-transport-ws protocol).
import type { Logger, ProfilerClient } from './client.js'
import { ProfilerNotFoundError } from './errors.js'
import type { Profile } from './types.js'

/** A WebSocket class: the `ws` package's, a browser's or Node 22's global one. */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => unknown

/** The given class, else globalThis.WebSocket, else the `ws` package (an optional peer dependency), else undefined. */
export async function resolveWebSocket(impl?: WebSocketConstructor): Promise<WebSocketConstructor | undefined> {
  if (impl) return impl
  const global = (globalThis as { WebSocket?: unknown }).WebSocket
  if (typeof global === 'function') return global as WebSocketConstructor
  try {
    const name = 'ws' // a variable: bundlers leave it alone, and a missing package is only a missing option
    const mod = (await import(name)) as { WebSocket?: unknown; default?: unknown }
    const ws = mod.WebSocket ?? mod.default
    return typeof ws === 'function' ? (ws as WebSocketConstructor) : undefined
  } catch {
    return undefined
  }
}

const STATUS = /* GraphQL */ `
  subscription ProfilerClientStatus($id: ID) {
    profileStatusChanged(id: $id) { profileId status }
  }
`

/** How often the profile is read again while waiting on the subscription: a safety net, not the mechanism. */
const RECHECK_MS = 5_000

export type ReadyOutcome = { profile: Profile } | { profile?: undefined; reason: string; cause?: unknown }

/**
 * Subscribes to the profile's status changes, then (once the server acknowledged the connection and the subscribe
 * message is out) reads the profile: ready already, or ready at the next READY event. Resolves `{reason}` instead when
 * the socket or the subscription cannot be used, so that the caller can poll; rejects on a deletion, on a failed read
 * and when `signal` aborts.
 */
export async function waitForReadyEvent(args: {
  client: ProfilerClient
  profileId: string
  wsUrl: string
  apiKey: string
  WebSocketImpl: WebSocketConstructor
  signal: AbortSignal
  logger?: Logger
}): Promise<ReadyOutcome> {
  const { client, profileId, signal, logger } = args
  signal.throwIfAborted()
  let createClient: typeof import('graphql-ws').createClient
  try {
    ;({ createClient } = await import('graphql-ws'))
  } catch (e) {
    return { reason: 'graphql-ws cannot be loaded', cause: e }
  }
  return new Promise<ReadyOutcome>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason) // aborted while graphql-ws was loading
    let settled = false
    let recheck: ReturnType<typeof setInterval> | undefined
    let reading = false
    const socket = createClient({
      url: args.wsUrl,
      webSocketImpl: args.WebSocketImpl,
      connectionParams: { authorization: `Bearer ${args.apiKey}` },
      lazy: true,
      retryAttempts: 0,
      on: {
        connected: () => {
          if (settled) return // ended (aborted) while connecting
          logger?.debug?.(`profiler: waitUntilReady(${profileId}): subscribed over WebSocket`)
          // After the subscribe message (sent once this callback returns): nothing that happens from here is missed.
          setTimeout(() => void read('current state'), 0)
          recheck = setInterval(() => void read('recheck'), RECHECK_MS)
        },
      },
    })
    const finish = (settle: () => void) => {
      if (settled) return
      settled = true
      clearInterval(recheck)
      signal.removeEventListener('abort', onAbort)
      unsubscribe()
      void Promise.resolve(socket.dispose()).catch(() => undefined)
      settle()
    }
    const onAbort = () => finish(() => reject(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    const read = async (why: string) => {
      if (settled || reading) return
      reading = true
      try {
        const profile = await client.get(profileId, { signal })
        if (profile.status === 'ready') {
          logger?.debug?.(`profiler: waitUntilReady(${profileId}): ready (${why})`)
          finish(() => resolve({ profile }))
        }
      } catch (e) {
        finish(() => reject(e))
      } finally {
        reading = false
      }
    }
    const unsubscribe = socket.subscribe<{ profileStatusChanged?: { profileId: string; status: string } }>(
      { query: STATUS, variables: { id: profileId } },
      {
        next: (r) => {
          if (r.errors?.length) return finish(() => resolve({ reason: `subscription refused: ${r.errors!.map((e) => e.message).join('; ')}`, cause: r.errors }))
          const status = r.data?.profileStatusChanged?.status
          if (status === 'READY') void read('READY event')
          else if (status === 'DELETED') {
            finish(() =>
              reject(new ProfilerNotFoundError({ status: 404, code: 'PROFILE_DELETED', message: `waitUntilReady(${profileId}): the profile was deleted while waiting` })),
            )
          }
        },
        error: (e) => finish(() => resolve({ reason: describeSocketError(e), cause: e })),
        complete: () => finish(() => resolve({ reason: 'the server ended the subscription' })),
      },
    )
  })
}

function describeSocketError(e: unknown): string {
  if (Array.isArray(e)) return `subscription refused: ${e.map((x) => (x as { message?: string })?.message).join('; ')}`
  const c = e as { code?: unknown; reason?: unknown; message?: unknown; type?: unknown } | null
  if (c && typeof c.code === 'number') return `socket closed (${c.code}${c.reason ? ` ${String(c.reason)}` : ''})`
  if (c && typeof c.message === 'string') return c.message
  if (c && c.type === 'error') return 'socket error (cannot connect)'
  return String(e)
}

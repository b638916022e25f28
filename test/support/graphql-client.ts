// GraphQL clients for the tests: one POST helper over HTTP (gql), one graphql-ws client factory (connect) whose
// operations record what they receive, and a raw graphql-transport-ws socket for frames no well-behaved client sends.
import { createClient, type Client as WsClient, type FormattedExecutionResult } from 'graphql-ws'
import WebSocket from 'ws'
import { waitFor } from './wait.js'

/** One answer to a GraphQL POST. */
export interface GqlResult {
  status: number
  headers: Headers
  /** The parsed JSON body (`{data?, errors?}`), or the text when it is not JSON. */
  body: any
}

export interface GqlOptions {
  /** The endpoint: /graphql unless given (the dashboard's is /dashboard/graphql). */
  path?: string
  /** More request headers; they win over the defaults. */
  headers?: Record<string, string>
  /** Sent instead of {query, variables} (a batch, say). */
  body?: unknown
}

/** One POST of a GraphQL operation, with `key` as a Bearer token (none when null or undefined). */
export async function gql(
  base: string,
  key: string | null | undefined,
  query: string,
  variables?: Record<string, unknown>,
  opts: GqlOptions = {},
): Promise<GqlResult> {
  const res = await fetch(`${base}${opts.path ?? '/graphql'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key == null ? {} : { authorization: `Bearer ${key}` }),
      ...opts.headers,
    },
    body: JSON.stringify(opts.body ?? { query, variables }),
  })
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.status, headers: res.headers, body }
}

export interface GqlApi {
  /** The raw HTTP result, errors and all. */
  raw(query: string, variables?: Record<string, unknown>): Promise<GqlResult>
  /** `data`, failing loudly when the response has errors. */
  data(query: string, variables?: Record<string, unknown>): Promise<any>
}

/** `gql` bound to one service and key. */
export function gqlApi(base: string, key: string): GqlApi {
  return {
    raw: (query, variables) => gql(base, key, query, variables),
    async data(query, variables) {
      const r = await gql(base, key, query, variables)
      if (r.status !== 200 || r.body?.errors) throw new Error(`GraphQL ${r.status}: ${JSON.stringify(r.body)}`)
      return r.body.data
    },
  }
}

export const SUBMIT = /* GraphQL */ `
  mutation Submit($id: ID!, $data: String!) {
    submitProfileData(id: $id, data: $data) { id profileId message }
  }
`
export const DELETE = /* GraphQL */ `
  mutation Delete($id: ID!) { deleteProfile(id: $id) }
`
export const STATUS = /* GraphQL */ `
  subscription Status($id: ID) {
    profileStatusChanged(id: $id) {
      profileId
      status
      profile {
        profileId tenantId status coreInfo { name { value confidence } location { value } }
        interests { category values { value } }
      }
    }
  }
`

/** A submitProfileData mutation over HTTP that must be accepted; returns the submission id. */
export async function submit(base: string, key: string, id: string, data: string): Promise<string> {
  const { status, body } = await gql(base, key, SUBMIT, { id, data })
  if (status !== 200 || body.errors || !body.data?.submitProfileData?.id) {
    throw new Error(`submitProfileData(${id}) failed: ${status} ${JSON.stringify(body)}`)
  }
  return body.data.submitProfileData.id
}

export interface StatusEvent {
  profileId: string
  status: 'PROCESSING' | 'READY' | 'DELETED'
  profile: any
}

/** The close event (or error) a socket or subscription ended with. */
export interface Ended {
  code?: number
  reason?: string
  error?: unknown
}

/** Everything one operation (a subscription, or a query or mutation over the socket) received, and waits on it. */
export interface Recorder<T = StatusEvent> {
  /** Every `next` payload, as received. */
  results: FormattedExecutionResult<any, unknown>[]
  /** The value of the first root field of each payload's data: the events of a subscription. */
  events: T[]
  /** GraphQL errors the server sent for this operation: in payloads, or as an error message (it was refused). */
  errors: any[]
  /** Set when the operation ended: by a `complete`, an error message, or the socket closing. */
  ended?: Ended
  completed: boolean
  /**
   * Resolves with the events once `pred` holds; rejects, with what was received, if the operation ends first or after
   * the deadline.
   */
  until(pred: (events: T[]) => boolean, timeoutMs?: number, what?: string): Promise<T[]>
  /** Resolves when the operation has ended (error, complete or close); rejects after the deadline. */
  untilEnded(timeoutMs?: number): Promise<Ended>
  dispose(): void
}

export interface Socket {
  client: WsClient
  /** Close events of the underlying socket, in order. */
  closes: Ended[]
  /** Resolves once the connection is acknowledged (connection_init accepted); rejects if it closes first. */
  connected: Promise<void>
  subscribe<T = StatusEvent>(query: string, variables?: Record<string, unknown>): Recorder<T>
  /** One query or mutation over the socket: its single result, or the errors it was refused with. */
  once(query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }>
  /** profileStatusChanged(id) (id omitted when undefined). */
  status(id?: string): Recorder<StatusEvent>
  close(): Promise<void>
}

export interface ConnectOptions {
  /** connectionParams.authorization exactly as given ('' included), instead of `Bearer <key>`. */
  authorization?: string
  /** connectionParams exactly as given, instead of an authorization (the dashboard sends its CSRF token). */
  connectionParams?: Record<string, unknown>
  /** The endpoint: /graphql unless given. */
  path?: string
  /** Headers of the upgrade request (a browser's cookie and Origin). */
  headers?: Record<string, string>
}

export const wsUrl = (base: string, path = '/graphql') => `${base.replace(/^http/, 'ws')}${path}`

const asEnded = (e: unknown): Ended => {
  const o = e as { code?: unknown; reason?: unknown } | null
  return o && typeof o === 'object' && typeof o.code === 'number'
    ? { code: o.code, reason: String(o.reason ?? '') }
    : { error: e }
}

/**
 * A real graphql-ws client on ws://…/graphql (or `opts.path`), authenticated by `connectionParams.authorization`. It
 * connects at once and never retries, so a refused or closed socket surfaces as the close event (code 4403 and so
 * on) in `closes` and in each recorder.
 */
export function connect(base: string, key: string | undefined, opts: ConnectOptions = {}): Socket {
  const closes: Ended[] = []
  let acked!: () => void
  let refused!: (e: Error) => void
  const connected = new Promise<void>((res, rej) => ((acked = res), (refused = rej)))
  connected.catch(() => undefined) // observed through `closes` by tests that expect a refusal
  const { headers } = opts
  const client = createClient({
    url: wsUrl(base, opts.path),
    webSocketImpl: headers
      ? class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers })
          }
        }
      : WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams:
      opts.connectionParams ??
      (opts.authorization !== undefined
        ? { authorization: opts.authorization }
        : key
          ? { authorization: `Bearer ${key}` }
          : {}),
    onNonLazyError: () => undefined, // reported through `closes`
    on: {
      connected: () => acked(),
      closed: (e) => {
        const ended = asEnded(e)
        closes.push(ended)
        refused(new Error(`socket closed before connection ack: ${JSON.stringify(ended)}`))
      },
    },
  })
  const sock: Socket = {
    client,
    closes,
    connected,
    subscribe<T>(query: string, variables?: Record<string, unknown>): Recorder<T> {
      const rec: Recorder<T> = {
        results: [],
        events: [],
        errors: [],
        completed: false,
        async until(pred, timeoutMs = 20_000, what = 'events') {
          await waitFor(
            () => `${what} (errors ${JSON.stringify(rec.errors)})`,
            () => rec.events,
            { until: (es) => pred(es) || rec.ended !== undefined, timeoutMs },
          )
          if (!pred(rec.events))
            throw new Error(
              `subscription ended (${JSON.stringify(rec.ended)}) while waiting for ${what}; ` +
                `got ${JSON.stringify(rec.events)}`,
            )
          return rec.events
        },
        untilEnded: (timeoutMs = 5_000) =>
          waitFor(
            () => `the operation to end; got ${JSON.stringify(rec.results)}`,
            () => rec.ended,
            { timeoutMs },
          ),
        dispose: () => stop(),
      }
      const stop = client.subscribe<any>(
        { query, variables },
        {
          next: (r) => {
            rec.results.push(r)
            if (r.errors) rec.errors.push(...r.errors)
            if (r.data) rec.events.push(Object.values(r.data)[0] as T)
          },
          error: (e) => {
            if (Array.isArray(e)) {
              rec.errors.push(...e)
              rec.ended = { error: e }
            } else rec.ended = asEnded(e)
          },
          complete: () => {
            rec.completed = true
            rec.ended ??= {}
          },
        },
      )
      return rec
    },
    once(query, variables) {
      return new Promise((resolve, reject) => {
        let result: { data?: any; errors?: any[] } | undefined
        client.subscribe<any>(
          { query, variables },
          {
            next: (r) => (result = { data: r.data ?? undefined, errors: r.errors ? [...r.errors] : undefined }),
            error: (e) =>
              Array.isArray(e)
                ? resolve({ errors: e })
                : reject(new Error(`socket ended: ${JSON.stringify(asEnded(e))}`)),
            complete: () => (result ? resolve(result) : reject(new Error('completed without a result'))),
          },
        )
      })
    },
    status(id?: string) {
      return sock.subscribe<StatusEvent>(STATUS, id === undefined ? {} : { id })
    },
    close: () => client.dispose() as Promise<void>,
  }
  return sock
}

/**
 * Makes sure the subscriptions opened on `sock` before `probe` are live on the server: `probe` must be a
 * tenant-wide subscription opened last on the same socket (the server handles one socket's messages in order);
 * a submission to a throw-away profile must reach it. Returns the probe profile id.
 */
export async function untilLive(
  probe: Recorder<StatusEvent>,
  post: (profileId: string) => Promise<unknown>,
  profileId: string,
  timeoutMs = 20_000,
) {
  await post(profileId)
  await probe.until((es) => es.some((e) => e.profileId === profileId), timeoutMs, `the probe event of ${profileId}`)
  return profileId
}

export interface RawSocket {
  ws: WebSocket
  /** Sends a protocol message (an object is JSON-encoded, a string or Buffer goes as is). */
  send(msg: unknown): void
  /** The next message received after this call, parsed. */
  nextMessage(timeoutMs?: number): Promise<any>
  /** Resolves with the close code and reason when the socket closes. */
  closed: Promise<{ code: number; reason: string }>
}

/** A raw graphql-transport-ws socket, initialised and acknowledged, for frames no well-behaved client would send. */
export async function rawSocket(base: string, key: string): Promise<RawSocket> {
  const ws = new WebSocket(wsUrl(base), 'graphql-transport-ws')
  const queue: any[] = []
  const waiters: ((m: any) => void)[] = []
  ws.on('message', (data) => {
    const m = JSON.parse(String(data))
    const w = waiters.shift()
    if (w) w(m)
    else queue.push(m)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
  ws.on('error', () => {}) // a refused frame ends in 'close'; the code is what the tests look at
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const sock: RawSocket = {
    ws,
    send: (msg) => ws.send(typeof msg === 'string' || Buffer.isBuffer(msg) ? msg : JSON.stringify(msg)),
    nextMessage(timeoutMs = 5000) {
      if (queue.length) return Promise.resolve(queue.shift())
      return new Promise((resolve, reject) => {
        const waiter = (m: any) => {
          clearTimeout(t)
          resolve(m)
        }
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error('no message within timeout'))
        }, timeoutMs)
        waiters.push(waiter)
      })
    },
    closed,
  }
  sock.send({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })
  const ack = await sock.nextMessage()
  if (ack.type !== 'connection_ack') throw new Error(`expected connection_ack, got ${JSON.stringify(ack)}`)
  return sock
}

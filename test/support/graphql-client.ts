import { createClient, type Client as WsClient } from 'graphql-ws'
import WebSocket from 'ws'
import { waitFor } from './wait.js'

/** POST /graphql with an app key; resolves with the parsed JSON body (status kept for assertions). */
export async function gql(base: string, key: string | undefined, query: string, variables?: Record<string, unknown>) {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables }),
  })
  return { status: r.status, body: (await r.json()) as { data?: any; errors?: any[] } }
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
      profile { profileId tenantId status coreInfo { name { value confidence } location { value } } interests { category values { value } } }
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

/** Everything one subscription received, and waits for what it will receive. */
export interface Recorder<T = StatusEvent> {
  events: T[]
  /** GraphQL errors (error message payloads) the server sent for this operation. */
  errors: any[]
  /** Set when the subscription ended: by a `complete`, an error message, or the socket closing. */
  ended?: Ended
  completed: boolean
  /** Resolves with the events once `pred` holds; rejects after the deadline with what was received. */
  until(pred: (events: T[]) => boolean, timeoutMs?: number, what?: string): Promise<T[]>
  /** Resolves when the subscription has ended (error, complete or close); rejects after the deadline. */
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

const asEnded = (e: unknown): Ended => {
  const o = e as { code?: unknown; reason?: unknown } | null
  return o && typeof o === 'object' && typeof o.code === 'number' ? { code: o.code, reason: String(o.reason ?? '') } : { error: e }
}

/**
 * A real graphql-ws client on ws://…/graphql, authenticated by `connectionParams.authorization`. No retries, so a
 * refused or closed socket surfaces as the close event (code 4403 and so on) in `closes` and in each recorder.
 */
export function connect(base: string, key: string | undefined, opts: { authorization?: string } = {}): Socket {
  const closes: Ended[] = []
  let acked!: () => void
  let refused!: (e: Error) => void
  const connected = new Promise<void>((res, rej) => ((acked = res), (refused = rej)))
  connected.catch(() => undefined) // observed through `closes` by tests that expect a refusal
  const client = createClient({
    url: base.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: opts.authorization !== undefined ? { authorization: opts.authorization } : key ? { authorization: `Bearer ${key}` } : {},
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
        events: [],
        errors: [],
        completed: false,
        async until(pred, timeoutMs = 20_000, what = 'events') {
          await waitFor(() => `${what} (errors ${JSON.stringify(rec.errors)})`, () => rec.events, { until: (es) => pred(es) || rec.ended !== undefined, timeoutMs })
          if (!pred(rec.events)) throw new Error(`subscription ended (${JSON.stringify(rec.ended)}) while waiting for ${what}; got ${JSON.stringify(rec.events)}`)
          return rec.events
        },
        untilEnded: (timeoutMs = 5_000) => waitFor(() => `the subscription to end; got ${JSON.stringify(rec.events)}`, () => rec.ended, { timeoutMs }),
        dispose: () => stop(),
      }
      const stop = client.subscribe<any>(
        { query, variables },
        {
          next: (r) => {
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
            error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(new Error(`socket ended: ${JSON.stringify(asEnded(e))}`))),
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
export async function untilLive(probe: Recorder<StatusEvent>, post: (profileId: string) => Promise<unknown>, profileId: string, timeoutMs = 20_000) {
  await post(profileId)
  await probe.until((es) => es.some((e) => e.profileId === profileId), timeoutMs, `the probe event of ${profileId}`)
  return profileId
}

import { createClient, type Client as WsClient, type FormattedExecutionResult, type SubscribePayload } from 'graphql-ws'
import WebSocket from 'ws'

/** Helpers for GraphQL tests: HTTP POSTs to /graphql, graphql-ws clients, raw graphql-transport-ws sockets. */

export interface GqlHttpResult {
  status: number
  headers: Headers
  /** The parsed JSON body (`{data?, errors?}`), or whatever the server sent. */
  body: any
}

/** One POST /graphql. `key` null sends no Authorization header; `body` replaces the usual {query, variables}. */
export async function gqlHttp(
  base: string,
  key: string | null,
  query: string,
  variables?: Record<string, unknown>,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<GqlHttpResult> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...opts.headers,
    },
    body: JSON.stringify(opts.body ?? { query, ...(variables ? { variables } : {}) }),
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
  raw(query: string, variables?: Record<string, unknown>): Promise<GqlHttpResult>
  /** `data`, failing loudly when the response has errors. */
  data(query: string, variables?: Record<string, unknown>): Promise<any>
}

export function gqlApi(base: string, key: string): GqlApi {
  return {
    raw: (query, variables) => gqlHttp(base, key, query, variables),
    async data(query, variables) {
      const r = await gqlHttp(base, key, query, variables)
      if (r.status !== 200 || r.body?.errors) throw new Error(`GraphQL ${r.status}: ${JSON.stringify(r.body)}`)
      return r.body.data
    },
  }
}

export const wsUrl = (base: string) => `${base.replace(/^http/, 'ws')}/graphql`

/** A graphql-ws client authenticated with `key` (connectionParams.authorization), no retries. */
export function wsClient(base: string, key: string): WsClient {
  return createClient({
    url: wsUrl(base),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: true,
  })
}

export interface WsOutcome {
  /** Every `next` payload received, in order. */
  results: FormattedExecutionResult[]
  /** The `error` message's errors (the operation was rejected; the socket stays open). */
  errors?: readonly any[]
  /** Set when the socket closed instead (close code and reason). */
  closed?: { code: number; reason: string }
  completed: boolean
  timedOut: boolean
}

/**
 * Runs one operation over `client` and settles on complete, error, socket close, or after `waitMs` (then it
 * unsubscribes). `during` runs once the subscribe message is on its way (e.g. to trigger events), and
 * `stopAfter` settles as soon as that many results arrived.
 */
export function wsRun(
  client: WsClient,
  payload: SubscribePayload,
  opts: { waitMs?: number; stopAfter?: number; during?: () => Promise<void> } = {},
): Promise<WsOutcome> {
  const out: WsOutcome = { results: [], completed: false, timedOut: false }
  return new Promise<WsOutcome>((resolve, reject) => {
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      unsubscribe()
      resolve(out)
    }
    const timer = setTimeout(() => {
      out.timedOut = true
      finish()
    }, opts.waitMs ?? 5000)
    const unsubscribe = client.subscribe(payload, {
      next: (v) => {
        out.results.push(v as FormattedExecutionResult)
        if (opts.stopAfter !== undefined && out.results.length >= opts.stopAfter) finish()
      },
      error: (e: unknown) => {
        if (Array.isArray(e)) out.errors = e
        else if (e && typeof e === 'object' && 'code' in e) {
          const c = e as { code: number; reason?: string }
          out.closed = { code: c.code, reason: String(c.reason ?? '') }
        } else out.errors = [{ message: String((e as Error)?.message ?? e) }]
        finish()
      },
      complete: () => {
        out.completed = true
        finish()
      },
    })
    opts.during?.().catch((e) => {
      clearTimeout(timer)
      unsubscribe()
      reject(e)
    })
  })
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

/** Every field of Profile except the paged history and submissions. */
export const PROFILE_FIELDS = `
  profileId tenantId status
  coreInfo {
    name { value confidence } age { value confidence } gender { value confidence }
    location { value confidence } occupation { value confidence }
  }
  interests { category values { value confidence } }
  personality { traits { value confidence } moodTrends { default { value confidence } recent { value confidence } } }
  memories { event date importance confidence }
  preferences { conversationStyle { value confidence } topicsToAvoid { value confidence } }
  language
  fieldTimestamps { field at }
  summary lastUpdated createdAt`

/** Drops null and undefined members (GraphQL's null for "absent" vs REST's omission), recursively. */
export function withoutNulls(v: any): any {
  if (Array.isArray(v)) return v.map(withoutNulls)
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined)
        .map(([k, x]) => [k, withoutNulls(x)]),
    )
  }
  return v
}

/**
 * A GraphQL Profile in REST's shape (snake_case, interests and field_timestamps as maps, lower-case status),
 * without update_log (GraphQL pages it as `history`).
 */
export function gqlProfileAsRest(p: any): any {
  return withoutNulls({
    profile_id: p.profileId,
    tenant_id: p.tenantId,
    status: String(p.status).toLowerCase(),
    core_info: p.coreInfo,
    interests: Object.fromEntries(p.interests.map((c: any) => [c.category, c.values])),
    personality: { traits: p.personality.traits, mood_trends: p.personality.moodTrends },
    memories: p.memories,
    preferences: { conversation_style: p.preferences.conversationStyle, topics_to_avoid: p.preferences.topicsToAvoid },
    language: p.language,
    field_timestamps: Object.fromEntries(p.fieldTimestamps.map((t: any) => [t.field, t.at])),
    summary: p.summary,
    last_updated: p.lastUpdated,
    created_at: p.createdAt,
  })
}

/** A REST profile without its update_log (and without search-only members), for comparing with gqlProfileAsRest. */
export function restProfileCore(p: any): any {
  const { update_log: _log, similarityScore: _score, ...rest } = p
  return withoutNulls(rest)
}

/** A GraphQL history entry in the REST update_log shape. */
export const gqlLogEntryAsRest = (e: any) => ({
  extracted_on: e.extractedOn,
  changes: e.changes,
  submission_ids: e.submissionIds,
  input_type: e.inputType,
})

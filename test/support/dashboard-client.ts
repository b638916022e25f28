import { createClient, type Client as WsClient } from 'graphql-ws'
import WebSocket from 'ws'
import { wsUrl } from './gql.js'

export interface DashResult {
  status: number
  headers: Headers
  body: any
}

/** What a browser holds for the dashboard: the session cookie and the CSRF token, sent the way the page sends them. */
export class DashboardBrowser {
  cookie?: string
  csrf?: string

  constructor(readonly base: string) {}

  /** POST /dashboard/graphql with the cookie and the CSRF header (unless overridden). */
  async gql(query: string, variables?: Record<string, unknown>, opts: { headers?: Record<string, string>; csrf?: string | null } = {}): Promise<DashResult> {
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf
    const r = await fetch(`${this.base}/dashboard/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...opts.headers,
      },
      body: JSON.stringify({ query, variables }),
    })
    this.keepCookie(r)
    return { status: r.status, headers: r.headers, body: await r.json() }
  }

  private keepCookie(r: Response) {
    const set = r.headers.get('set-cookie')
    if (!set) return
    const [pair] = set.split(';')
    const value = pair!.slice(pair!.indexOf('=') + 1)
    this.cookie = value ? pair : undefined
  }

  async signUp(email: string, password: string, inviteCode?: string): Promise<DashResult> {
    const r = await this.gql(`mutation($e: String!, $p: String!, $i: String) { signUp(email: $e, password: $p, inviteCode: $i) { csrfToken account { id email tenantId tenantName } } }`, {
      e: email,
      p: password,
      i: inviteCode ?? null,
    })
    if (r.body.data?.signUp) this.csrf = r.body.data.signUp.csrfToken
    return r
  }

  async signIn(email: string, password: string): Promise<DashResult> {
    const r = await this.gql(`mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken account { id email tenantId } } }`, { e: email, p: password })
    if (r.body.data?.signIn) this.csrf = r.body.data.signIn.csrfToken
    return r
  }

  async session(): Promise<{ status: number; headers: Headers; body: any }> {
    const r = await fetch(`${this.base}/dashboard/session`, { headers: this.cookie ? { cookie: this.cookie } : {} })
    return { status: r.status, headers: r.headers, body: await r.json() }
  }

  /** A graphql-ws client on /dashboard/graphql carrying the cookie (and Origin) as a browser would. */
  ws(opts: { csrf?: string | null; origin?: string } = {}): WsClient {
    const cookie = this.cookie
    const origin = opts.origin ?? this.base
    class BrowserLikeSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { ...(cookie ? { cookie } : {}), origin } })
      }
    }
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf
    return createClient({
      url: `${wsUrl(this.base).replace(/\/graphql$/, '')}/dashboard/graphql`,
      webSocketImpl: BrowserLikeSocket,
      connectionParams: csrf ? { csrfToken: csrf } : {},
      retryAttempts: 0,
      lazy: true,
    })
  }
}

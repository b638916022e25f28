import { connect, gql, type GqlResult, type Socket } from './graphql-client.js'

/** What a browser holds for the dashboard: the session cookie and the CSRF token, sent the way the page sends them. */
export class DashboardBrowser {
  cookie?: string
  csrf?: string

  constructor(readonly base: string) {}

  /** POST /dashboard/graphql with the cookie and the CSRF header (unless overridden). */
  async gql(
    query: string,
    variables?: Record<string, unknown>,
    opts: { headers?: Record<string, string>; csrf?: string | null } = {},
  ): Promise<GqlResult> {
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf
    const r = await gql(this.base, null, query, variables, {
      path: '/dashboard/graphql',
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...opts.headers,
      },
    })
    this.keepCookie(r)
    return r
  }

  private keepCookie(r: { headers: Headers }) {
    const set = r.headers.get('set-cookie')
    if (!set) return
    const [pair] = set.split(';')
    const value = pair!.slice(pair!.indexOf('=') + 1)
    this.cookie = value ? pair : undefined
  }

  async signUp(email: string, password: string, inviteCode?: string): Promise<GqlResult> {
    const r = await this.gql(
      `mutation($e: String!, $p: String!, $i: String) {
        signUp(email: $e, password: $p, inviteCode: $i) { csrfToken account { id email tenantId tenantName } }
      }`,
      {
        e: email,
        p: password,
        i: inviteCode ?? null,
      },
    )
    if (r.body.data?.signUp) this.csrf = r.body.data.signUp.csrfToken
    return r
  }

  async signIn(email: string, password: string): Promise<GqlResult> {
    const r = await this.gql(
      `mutation($e: String!, $p: String!) {
        signIn(email: $e, password: $p) { csrfToken account { id email tenantId } }
      }`,
      { e: email, p: password },
    )
    if (r.body.data?.signIn) this.csrf = r.body.data.signIn.csrfToken
    return r
  }

  async session(): Promise<{ status: number; headers: Headers; body: any }> {
    const r = await fetch(`${this.base}/dashboard/session`, { headers: this.cookie ? { cookie: this.cookie } : {} })
    return { status: r.status, headers: r.headers, body: await r.json() }
  }

  /** A graphql-ws client on /dashboard/graphql carrying the cookie (and Origin) as a browser would. */
  ws(opts: { csrf?: string | null; origin?: string } = {}): Socket {
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf
    return connect(this.base, undefined, {
      path: '/dashboard/graphql',
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), origin: opts.origin ?? this.base },
      connectionParams: csrf ? { csrfToken: csrf } : {},
    })
  }
}

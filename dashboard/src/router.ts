/**
 * Hash routing: #/signin, #/signup, #/apps, #/apps/<app id>/webhooks, #/apps/<app id>/retention, #/apps/<app
 * id>/summary, #/apps/<app id>/schema, #/profiles, #/profiles/<url-encoded id>, #/account.
 */

export type RouteName =
  | 'home'
  | 'signin'
  | 'signup'
  | 'apps'
  | 'webhooks'
  | 'retention'
  | 'summary'
  | 'schema'
  | 'profiles'
  | 'profile'
  | 'account'
  | 'notfound'

export interface Route {
  name: RouteName
  /** The decoded profile id for the 'profile' route. */
  profileId?: string
  /** The app id for the 'webhooks', 'retention', 'summary' and 'schema' routes. */
  appId?: string
}

/** Routes that need a signed-in account. */
export const PRIVATE_ROUTES: ReadonlySet<RouteName> = new Set([
  'apps',
  'webhooks',
  'retention',
  'summary',
  'schema',
  'profiles',
  'profile',
  'account',
])

/** Routes only for signed-out visitors. */
export const PUBLIC_ROUTES: ReadonlySet<RouteName> = new Set(['signin', 'signup'])

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, '')
  if (path === '' || path === '/') return { name: 'home' }
  if (path === '/signin') return { name: 'signin' }
  if (path === '/signup') return { name: 'signup' }
  if (path === '/apps') return { name: 'apps' }
  if (path === '/profiles' || path === '/profiles/') return { name: 'profiles' }
  if (path === '/account') return { name: 'account' }
  const hooks = /^\/apps\/([^/]+)\/webhooks$/.exec(path)
  if (hooks) return { name: 'webhooks', appId: decode(hooks[1]!) }
  const retention = /^\/apps\/([^/]+)\/retention$/.exec(path)
  if (retention) return { name: 'retention', appId: decode(retention[1]!) }
  const summary = /^\/apps\/([^/]+)\/summary$/.exec(path)
  if (summary) return { name: 'summary', appId: decode(summary[1]!) }
  const schema = /^\/apps\/([^/]+)\/schema$/.exec(path)
  if (schema) return { name: 'schema', appId: decode(schema[1]!) }
  if (path.startsWith('/profiles/')) {
    return { name: 'profile', profileId: decode(path.slice('/profiles/'.length)) }
  }
  return { name: 'notfound' }
}

export function profileHref(profileId: string): string {
  return `#/profiles/${encodeURIComponent(profileId)}`
}

export function webhooksHref(appId: string): string {
  return `#/apps/${encodeURIComponent(appId)}/webhooks`
}

export function navigate(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'))
  else location.hash = hash
}

/** What a page gets: where to render, and a way to clean up when the visitor leaves. */
export interface PageContext {
  root: HTMLElement
  route: Route
  /** Aborted when the page is left: pass to gql() and check before rendering late results. */
  signal: AbortSignal
  /** Registers something to do when the page is left (unsubscribe, clear timers). */
  onLeave(fn: () => void): void
}

export type Page = (ctx: PageContext) => void

export function schemaHref(appId: string): string {
  return `#/apps/${encodeURIComponent(appId)}/schema`
}

export function retentionHref(appId: string): string {
  return `#/apps/${encodeURIComponent(appId)}/retention`
}

export function summaryHref(appId: string): string {
  return `#/apps/${encodeURIComponent(appId)}/summary`
}

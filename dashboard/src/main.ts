/** The dashboard's entry point: loads the session, draws the header and routes between pages. */
import { errorMessage, fetchSession, resetRealtime, setUnauthenticatedHandler } from './api'
import { h, replace } from './dom'
import { accountPage } from './pages/account'
import { appsPage } from './pages/apps'
import { webhooksPage } from './pages/webhooks'
import { retentionPage } from './pages/retention'
import { summaryPage } from './pages/summary'
import { schemaPage } from './pages/schema'
import { profilePage } from './pages/profile'
import { profilesPage } from './pages/profiles'
import { signInPage, signUpPage } from './pages/signin'
import { PRIVATE_ROUTES, PUBLIC_ROUTES, parseHash, type Page, type Route, type RouteName } from './router'
import { isSignedIn, onSessionChange, session, setSession, signedOut } from './session'
import { signOut } from './signout'
import { announce, clearStaleAnnouncement, closeDialogs } from './ui'

const header = document.getElementById('site-header') as HTMLElement
const main = document.getElementById('main') as HTMLElement

const notFoundPage: Page = ({ root }) => {
  document.title = 'Not found · Profiler'
  root.append(
    h('h1', { tabindex: -1 }, 'Page not found'),
    h(
      'p',
      null,
      'There is nothing at this address. ',
      h('a', { href: isSignedIn() ? '#/apps' : '#/signin' }, 'Go to the start page'),
    ),
  )
}

const PAGES: Record<Exclude<RouteName, 'home'>, Page> = {
  signin: signInPage,
  signup: signUpPage,
  apps: appsPage,
  webhooks: webhooksPage,
  retention: retentionPage,
  summary: summaryPage,
  schema: schemaPage,
  profiles: profilesPage,
  profile: profilePage,
  account: accountPage,
  notfound: notFoundPage,
}

const NAV: [string, string, RouteName[]][] = [
  ['Apps', '#/apps', ['apps', 'webhooks', 'retention', 'summary', 'schema']],
  ['Profiles', '#/profiles', ['profiles', 'profile']],
  ['Account', '#/account', ['account']],
]

function renderHeader(route: Route): void {
  const account = session.account
  const brand = h('a', { class: 'brand', href: account ? '#/apps' : '#/signin' }, 'Profiler')
  if (!account) {
    replace(header, h('div', { class: 'header-inner' }, brand))
    return
  }
  const signOutButton = h('button', { type: 'button', class: 'button button--small' }, 'Sign out')
  signOutButton.addEventListener('click', () => void signOut())
  replace(
    header,
    h(
      'div',
      { class: 'header-inner' },
      brand,
      h(
        'nav',
        { class: 'main-nav', 'aria-label': 'Main' },
        h(
          'ul',
          null,
          NAV.map(([text, href, routes]) =>
            h('li', null, h('a', { href, 'aria-current': routes.includes(route.name) ? 'page' : null }, text)),
          ),
          // The service's own API reference (GET /docs), outside the dashboard's routes.
          h('li', null, h('a', { href: '/docs', 'data-testid': 'api-docs-link' }, 'API reference')),
        ),
      ),
      h(
        'div',
        { class: 'header-account' },
        h('span', { class: 'header-email', 'data-testid': 'header-email', title: account.tenantName }, account.email),
        signOutButton,
      ),
    ),
  )
}

let leaveCurrent: (() => void) | null = null
let firstPage = true

function show(): void {
  leaveCurrent?.()
  leaveCurrent = null
  closeDialogs()
  clearStaleAnnouncement()

  const route = parseHash(location.hash)
  if (route.name === 'home') return location.replace(isSignedIn() ? '#/apps' : '#/signin')
  if (PRIVATE_ROUTES.has(route.name) && !isSignedIn()) return location.replace('#/signin')
  if (PUBLIC_ROUTES.has(route.name) && isSignedIn()) return location.replace('#/apps')

  renderHeader(route)
  const controller = new AbortController()
  const cleanups: (() => void)[] = []
  leaveCurrent = () => {
    controller.abort()
    for (const fn of cleanups.splice(0)) {
      try {
        fn()
      } catch (err) {
        console.error(err)
      }
    }
  }
  main.replaceChildren()
  PAGES[route.name]({ root: main, route, signal: controller.signal, onLeave: (fn) => cleanups.push(fn) })
  // Move focus to the new page's heading (not on the first load: the browser starts at the top anyway).
  if (!firstPage) main.querySelector<HTMLElement>('h1')?.focus()
  firstPage = false
}

setUnauthenticatedHandler(() => {
  if (!isSignedIn()) return
  resetRealtime()
  signedOut()
  announce('Your session has ended. Please sign in again.', 'error')
  if (PRIVATE_ROUTES.has(parseHash(location.hash).name)) location.hash = '#/signin'
})

document.getElementById('skip-link')?.addEventListener('click', (event) => {
  // The fragment is used by the router; move focus instead of following the link.
  event.preventDefault()
  main.focus()
})

async function start(): Promise<void> {
  try {
    setSession(await fetchSession())
  } catch (err) {
    const retry = h('button', { type: 'button', class: 'button button--primary' }, 'Try again')
    retry.addEventListener('click', () => void start())
    replace(
      main,
      h('h1', { tabindex: -1 }, 'Profiler'),
      h('p', { class: 'error', role: 'alert' }, `The dashboard could not start: ${errorMessage(err)}`),
      retry,
    )
    return
  }
  onSessionChange(() => renderHeader(parseHash(location.hash)))
  window.addEventListener('hashchange', show)
  show()
}

void start()

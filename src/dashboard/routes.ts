import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Config } from '../config.js'
import type { Services } from '../services/index.js'
import { dashboardAssets } from './assets.js'
import { sessionToken } from '../http/cookies.js'

// Everything the page loads comes from this server: no inline script, no CDN, no framing. The WebSocket origin is
// named too: older browsers do not count ws:// as 'self'.
function csp(host: string | undefined) {
  const ws = host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? ` ws://${host} wss://${host}` : ''
  return (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    `connect-src 'self'${ws}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`
  )
}

function hardened(reply: FastifyReply, type: string, cache: string) {
  return reply
    .header('content-type', type)
    .header('cache-control', cache)
    .header('content-security-policy', csp(reply.request.headers.host))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
}

/** GET /dashboard (the page), its two assets, and GET /dashboard/session (who is signed in, and the CSRF token). */
export async function registerDashboardRoutes(app: FastifyInstance, config: Config, services: Services) {
  app.get('/dashboard', async (_req, reply) =>
    hardened(reply, 'text/html; charset=utf-8', 'no-store').send((await dashboardAssets()).html),
  )
  app.get('/dashboard/assets/app.js', async (_req, reply) =>
    hardened(reply, 'text/javascript; charset=utf-8', 'no-cache').send((await dashboardAssets()).js),
  )
  app.get('/dashboard/assets/app.css', async (_req, reply) =>
    hardened(reply, 'text/css; charset=utf-8', 'no-cache').send((await dashboardAssets()).css),
  )
  // Read by the page's own script; no CORS headers, so another site cannot read the token.
  app.get('/dashboard/session', async (req, reply) => {
    const session = await services.accounts.session(sessionToken(req.headers.cookie))
    hardened(reply, 'application/json; charset=utf-8', 'no-store')
    return {
      account: session
        ? {
            id: session.account.id,
            email: session.account.email,
            tenantId: session.account.tenantId,
            tenantName: session.account.tenantName,
          }
        : null,
      csrfToken: session?.csrfToken ?? null,
      signUpOpen: config.dashboard.signUp !== 'closed',
      signUp: config.dashboard.signUp,
    }
  })
}

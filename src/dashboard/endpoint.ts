import crypto from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyRequest } from 'fastify'
import type { GraphQLSchema } from 'graphql'
import type { DashboardConfig } from '../config.js'
import { addressKey } from '../domain/addresses.js'
import { DomainError } from '../domain/errors.js'
import { credentialId } from '../domain/keys.js'
import { anonymousContext, type GqlContext } from '../graphql/context.js'
import type { GraphQLEndpoint } from '../graphql/server.js'
import type { Session } from '../services/account.service.js'
import type { Services } from '../services/index.js'
import { clearSessionCookie, sessionToken } from '../http/cookies.js'

/** The app id recorded for work done from the dashboard (there is no API key behind it). */
export const DASHBOARD_APP_ID = 'dashboard'

function equalTokens(left: string, right: string): boolean {
  const leftBytes = Buffer.from(left)
  const rightBytes = Buffer.from(right)
  return leftBytes.length === rightBytes.length && crypto.timingSafeEqual(leftBytes, rightBytes)
}

/** A browser request from another site: its Origin names another host than the one it was sent to. */
export function crossOrigin(headers: IncomingMessage['headers']): boolean {
  const origin = headers.origin
  if (!origin) return false
  try {
    return new URL(origin).host !== headers.host
  } catch {
    return true
  }
}

export function secureRequest(req: FastifyRequest, setting: DashboardConfig['secureCookie']): boolean {
  if (setting !== 'auto') return setting === 'true'
  return (
    req.protocol === 'https' ||
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]!
      .trim() === 'https'
  )
}

/**
 * /dashboard/graphql: the session cookie authenticates, and every request with a session must carry its CSRF token
 * in `x-csrf-token` (WebSocket: `connectionParams.csrfToken`). App keys are not accepted here, and the account
 * operations exist only on this endpoint.
 */
export function dashboardEndpoint(services: Services, schema: GraphQLSchema, config: DashboardConfig): GraphQLEndpoint {
  const { accounts } = services
  const tenantContext = (s: Session, requestId: string, signal?: AbortSignal) => ({
    tenantId: s.account.tenantId,
    appId: DASHBOARD_APP_ID,
    requestId,
    signal,
  })
  return {
    path: '/dashboard/graphql',
    schema,
    methods: ['POST'],
    async httpContext(req, reply, signal): Promise<GqlContext> {
      if (crossOrigin(req.headers))
        throw new DomainError('FORBIDDEN', 'Cross-origin requests are not accepted by the dashboard')
      const secure = secureRequest(req, config.secureCookie)
      const token = sessionToken(req.headers.cookie)
      const session = await accounts.session(token)
      // Anonymous requests (sign-up, sign-in) share a budget per client address (request.ip: the forwarded one behind
      // trusted proxies).
      const anonymous = `ip:${addressKey(req.ip)}`
      const budgetKey = session ? `session:${session.account.id}` : anonymous
      const base = { requestId: req.id, services, log: req.log, budgetKey }
      const dashboard = {
        accounts,
        account: session?.account ?? null,
        sessionToken: session ? token : undefined,
        reply,
        ip: req.ip,
        secure,
      }
      if (!session) {
        if (token) reply.header('set-cookie', clearSessionCookie(secure)) // expired or signed out elsewhere
        return anonymousContext({ ...base, dashboard })
      }
      const given = req.headers['x-csrf-token']
      if (typeof given !== 'string' || !equalTokens(given, session.csrfToken)) {
        throw new DomainError(
          'FORBIDDEN',
          'Missing or wrong CSRF token: send the x-csrf-token header given at sign-in (GET /dashboard/session)',
        )
      }
      return { ...base, ctx: tenantContext(session, req.id, signal), dashboard }
    },
    // The HTTP endpoint reads the session of every request it is sent, so refusing this read from an address over the
    // failure limit would protect nothing, and would cut a signed-in user's live updates because of someone else.
    wsCredential: (_params, request) => ({
      digest: credentialId(sessionToken(request.headers.cookie)),
      mayExist: async () => true,
    }),
    async wsConnect(params, request, address) {
      if (crossOrigin(request.headers)) throw new DomainError('FORBIDDEN', 'Cross-origin WebSocket')
      const token = sessionToken(request.headers.cookie)
      const session = await accounts.session(token)
      if (!session) throw new DomainError('UNAUTHENTICATED', 'No session')
      const given = params?.csrfToken
      if (typeof given !== 'string' || !equalTokens(given, session.csrfToken))
        throw new DomainError('FORBIDDEN', 'Missing or wrong CSRF token')
      return {
        ctx: tenantContext(session, crypto.randomUUID()),
        group: `session:${session.account.id}`,
        credential: `session:${credentialId(token)}`,
        goneReason: 'Forbidden: session ended',
        extra: { dashboard: { accounts, account: session.account, sessionToken: token, ip: address, secure: false } },
        stillValid: async () => (await accounts.session(token)) !== null,
      }
    },
  }
}

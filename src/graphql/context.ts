import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import { DomainError } from '../domain/errors.js'
import type { Account, AccountService } from '../services/account.service.js'
import type { RequestContext } from '../services/context.js'
import type { ExportCap } from '../services/export.service.js'
import type { Services } from '../services/index.js'
import type { RateDecision } from '../services/rate-limiter.js'
import type { WholeAnswerAllowance } from '../services/search.service.js'

/** What every resolver gets: who is asking, and the one service layer. */
export interface GqlContext {
  /** The tenant the request acts for. On a dashboard request without a session, reading it throws UNAUTHENTICATED. */
  ctx: RequestContext
  requestId: string
  services: Services
  /** Whose request budget the operation is charged to (an app, a session, or an anonymous client address). */
  budgetKey?: string
  /** The budget decision, for the RateLimit-* headers of an HTTP answer. */
  rate?: RateDecision
  log?: FastifyBaseLogger
  /** Only on the dashboard endpoint (/dashboard/graphql). */
  dashboard?: DashboardRequest
  /**
   * A subscription's cost per event: the context fields each event resolves (counted before the subscription started;
   * each event pays them, as each would cost one over REST).
   */
  eventCost?: number
  /** The byte cap every exportProfile field of this operation shares (made by the first of them). */
  exportCap?: ExportCap
  /** Content bytes of the searchProfiles pages of this operation so far (bounded: the answer is built whole). */
  searchAnswer?: WholeAnswerAllowance
}

/** A dashboard request: the signed-in account (or none) and, over HTTP, the reply its cookie is set on. */
export interface DashboardRequest {
  accounts: AccountService
  account: Account | null
  sessionToken?: string
  /** HTTP only: sign-in and sign-out set the session cookie here. */
  reply?: FastifyReply
  ip: string
  /** Whether the session cookie gets `Secure`. */
  secure: boolean
}

/**
 * Reading `ctx` here throws. The getter sits on the prototype because Apollo copies each request's context with
 * Object.assign onto an object of the same prototype: an own getter would be invoked by that copy.
 */
const ANONYMOUS = Object.defineProperty({}, 'ctx', {
  get() {
    throw new DomainError('UNAUTHENTICATED', 'Sign in first: this operation needs a dashboard session')
  },
})

/** A context for a request with no tenant: any resolver that needs one fails with UNAUTHENTICATED. */
export function anonymousContext(base: Omit<GqlContext, 'ctx'>): GqlContext {
  return Object.assign(Object.create(ANONYMOUS), base) as GqlContext
}

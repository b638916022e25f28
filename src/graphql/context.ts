import type { FastifyBaseLogger } from 'fastify'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'

/** What every resolver gets: who is asking, and the one service layer. */
export interface GqlContext {
  ctx: RequestContext
  services: Services
  log?: FastifyBaseLogger
}

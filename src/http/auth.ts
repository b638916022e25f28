import type { FastifyRequest } from 'fastify'
import { bearerToken, credentialId } from '../domain/keys.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'

/**
 * The context of a request's `Authorization: Bearer` API key (REST and GraphQL over HTTP), through the failure budget
 * of its address. The key is digested once, for the budget and the key cache alike.
 */
export function authenticateBearer(services: Services, req: FastifyRequest): Promise<RequestContext> {
  const key = bearerToken(req.headers.authorization)
  const id = credentialId(key)
  return services.budget.authenticate(req.ip, id, () => services.tenants.authenticate(key, req.id, { id }))
}

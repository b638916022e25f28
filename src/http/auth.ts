import type { FastifyRequest } from 'fastify'
import { bearerToken, credentialId, parseApiKey } from '../domain/keys.js'
import type { Credential } from '../services/budget.js'
import type { RequestContext } from '../services/context.js'
import type { Services } from '../services/index.js'

/**
 * What the failure budget knows of an API key before it is checked: its digest (shared with the key cache, so a key is
 * digested once), and its public id with a check of that id against the known ones.
 */
export function apiKeyCredential(services: Services, key: string | undefined): Credential {
  const id = key ? parseApiKey(key) : null
  const digest = credentialId(key)
  return id ? { digest, id: `key:${id}`, mayExist: () => services.tenants.mayExist(id) } : { digest }
}

/**
 * The context of a request's `Authorization: Bearer` API key (REST, GraphQL over HTTP, MCP), through the failure
 * budget of its client address (request.ip: behind trusted proxies, the forwarded client's).
 */
export function authenticateBearer(services: Services, req: FastifyRequest): Promise<RequestContext> {
  const key = bearerToken(req.headers.authorization)
  const credential = apiKeyCredential(services, key)
  const check = () => services.tenants.authenticate(key, req.id, { id: credential.digest })
  return services.budget.authenticate(req.ip, credential, check)
}

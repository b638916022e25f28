import type { FastifyReply } from 'fastify'
import type { RateDecision } from '../services/rate-limiter.js'

/** RateLimit-* headers (IETF draft) of a budget decision; Retry-After when it refused. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  }
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds)
  return headers
}

export function setRateLimitHeaders(reply: FastifyReply, decision: RateDecision) {
  for (const [k, v] of Object.entries(rateLimitHeaders(decision))) reply.header(k, v)
}

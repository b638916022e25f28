import type { FastifyReply } from 'fastify'
import type { RateDecision } from '../services/rate-limiter.js'

/** RateLimit-* headers (IETF draft) of a budget decision; Retry-After when it refused. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
  }
  if (!d.allowed) h['Retry-After'] = String(d.resetSeconds)
  return h
}

export function setRateLimitHeaders(reply: FastifyReply, d: RateDecision) {
  for (const [k, v] of Object.entries(rateLimitHeaders(d))) reply.header(k, v)
}

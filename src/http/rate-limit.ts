import crypto from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'

/** The per-key request limit (CONTRACT §4) for an encapsulated group of routes; 429 with RateLimit-* headers. */
export async function perKeyRateLimit(instance: FastifyInstance, perMinute: number) {
  await instance.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => {
      const auth = req.headers.authorization
      return auth ? `key:${crypto.createHash('sha256').update(auth).digest('base64url')}` : `ip:${req.ip}`
    },
    enableDraftSpec: true,
    errorResponseBuilder: (_req, c) => ({
      statusCode: 429,
      error: 429,
      message: `Rate limit exceeded: ${c.max} requests per minute per API key; retry in ${Math.ceil(c.ttl / 1000)} s`,
    }),
  })
}

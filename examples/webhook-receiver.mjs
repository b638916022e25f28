// A Profiler webhook receiver in plain Node (no dependencies): verifies the signature, dedupes by event id, answers 2xx
// at once and re-reads what it needs from the API. The test suite imports `verifyProfilerSignature` from this file, so
// the code docs/guides/webhooks.md shows is the code that is tested.
//
//   PROFILER_WEBHOOK_SECRET=whsec_... node examples/webhook-receiver.mjs      # listens on :4000
import crypto from 'node:crypto'
import http from 'node:http'
import { pathToFileURL } from 'node:url'

/**
 * Whether `header` (the Profiler-Signature header: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`) signs `rawBody` (the
 * request body exactly as received, a string or Buffer) with one of `secrets`, and its timestamp is within
 * `toleranceSeconds` of now (a replay of an old delivery fails). Give both secrets while you roll over to a new one.
 */
export function verifyProfilerSignature(secrets, header, rawBody, { toleranceSeconds = 300, now = Date.now() } = {}) {
  if (typeof header !== 'string') return false
  const parts = header.split(',').map((p) => p.trim().split('='))
  const t = parts.find(([k]) => k === 't')?.[1]
  const signatures = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => Buffer.from(v, 'hex'))
  if (!t || !/^\d{1,12}$/.test(t) || !signatures.length) return false
  if (Math.abs(now / 1000 - Number(t)) > toleranceSeconds) return false
  const signed = Buffer.concat([Buffer.from(`${t}.`), Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody)])
  for (const secret of Array.isArray(secrets) ? secrets : [secrets]) {
    const expected = crypto.createHmac('sha256', secret).update(signed).digest()
    if (signatures.some((s) => crypto.timingSafeEqual(s, expected))) return true
  }
  return false
}

/** A receiver: 401 for a bad signature, 200 for a good one (a repeated event id is acknowledged and skipped). */
export function createReceiver(secrets, onEvent) {
  const seen = new Set() // keep this in your database in production
  return http.createServer((req, res) => {
    const chunks = []
    let size = 0
    req.on('data', (c) => {
      size += c.length
      if (size > 64 * 1024) req.destroy() // deliveries are small
      else chunks.push(c)
    })
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.method !== 'POST' || !verifyProfilerSignature(secrets, req.headers['profiler-signature'], body)) {
        res.writeHead(401).end()
        return
      }
      const eventId = req.headers['profiler-event-id']
      res.writeHead(200).end()
      if (seen.has(eventId)) return
      seen.add(eventId)
      onEvent(JSON.parse(body.toString('utf8')))
    })
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secrets = (process.env.PROFILER_WEBHOOK_SECRET ?? '').split(',').filter(Boolean)
  if (!secrets.length) throw new Error('set PROFILER_WEBHOOK_SECRET (comma-separated while rotating)')
  createReceiver(secrets, (event) => console.log(event.type, JSON.stringify(event.data))).listen(Number(process.env.PORT ?? 4000))
}

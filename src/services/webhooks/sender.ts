import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { SIGNATURE_HEADER, signatureHeader } from '../../domain/webhooks.js'
import { hostOf, UrlRefusedError, type UrlPolicy } from './url-policy.js'

/** What an attempt came to: the receiver's status code, or why there was none. */
export interface SendResult {
  statusCode: number | null
  error: string | null
  durationMs: number
}

export interface SendRequest {
  url: string
  body: string
  secrets: string[]
  eventId: string
  event: string
  deliveryId: string
  attempt: number
}

/** Response bytes read at most (for the error text of a refusal); the rest is not read. */
const MAX_RESPONSE_BYTES = 4096
const EXCERPT_CHARS = 200

/**
 * POSTs one signed delivery: the policy's lookup on the connection (so the address connected to is checked, whatever
 * the name resolves to now), no redirects followed, one deadline for the whole exchange, and at most a few KB of the
 * response read.
 */
export class WebhookSender {
  constructor(
    private readonly policy: UrlPolicy,
    private readonly timeoutMs: number,
  ) {}

  /** `signal`: ends the attempt at once (a shutdown); it counts as failed and is retried. */
  async send(request: SendRequest, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now()
    const done = (statusCode: number | null, error: string | null): SendResult => ({
      statusCode,
      error,
      durationMs: performance.now() - started,
    })
    let url: URL
    try {
      url = this.policy.parse(request.url)
      const host = hostOf(url)
      // An address in the URL is connected to without a lookup: check it here.
      if (net.isIP(host)) {
        const why = this.policy.refusal(host)
        if (why) throw new UrlRefusedError(`refused: ${why}`)
      }
    } catch (err) {
      return done(null, (err as Error).message)
    }
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(request.body)),
      'user-agent': 'Profiler-Webhooks/1',
      'profiler-event-id': request.eventId,
      'profiler-event': request.event,
      'profiler-delivery-id': request.deliveryId,
      'profiler-delivery-attempt': String(request.attempt),
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(request.secrets, request.body, Math.floor(Date.now() / 1000)),
    }
    const lib = url.protocol === 'https:' ? https : http
    return new Promise<SendResult>((resolve) => {
      let settled = false
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        req.destroy()
        resolve(done(statusCode, error))
      }
      const req = lib.request(
        url,
        { method: 'POST', headers, lookup: this.policy.lookup, agent: false, maxHeaderSize: 16 * 1024 },
        (res) => {
          const status = res.statusCode ?? null
          if (status !== null && status >= 200 && status < 300) return finish(status, null)
          // A refusal: keep the start of what it said.
          const chunks: Buffer[] = []
          let size = 0
          const excerpt = () =>
            Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS)
          const refused = () => {
            const redirect = status && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''
            return finish(status, `HTTP ${status}${redirect}${chunks.length ? `: ${excerpt()}` : ''}`)
          }
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk)
            size += chunk.length
            if (size >= MAX_RESPONSE_BYTES) refused()
          })
          res.on('end', refused)
          res.on('error', refused)
        },
      )
      const timer = setTimeout(() => finish(null, `timed out after ${this.timeoutMs} ms`), this.timeoutMs)
      const aborted = () => finish(null, 'interrupted: the process shut down')
      if (signal?.aborted) return aborted()
      signal?.addEventListener('abort', aborted, { once: true })
      req.on('error', (e: NodeJS.ErrnoException) =>
        finish(null, e instanceof UrlRefusedError ? e.message : `${e.code ?? 'error'}: ${e.message}`),
      )
      req.end(request.body)
    })
  }
}

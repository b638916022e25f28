import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import { logIds, startSpan } from '../tracing/tracing.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span and its context, when tracing is on. */
    span?: Span
    traceContext?: Context
  }
}

/** Longer trace headers are ignored (a version-00 traceparent is 55 characters; W3C caps tracestate at 32 members). */
const MAX_TRACEPARENT = 256
const MAX_TRACESTATE = 1024

/**
 * The caller's trace context from W3C `traceparent`/`tracestate`; a malformed, oversized or repeated one is ignored.
 */
function incoming(headers: IncomingHttpHeaders): Context {
  const tp = headers.traceparent
  if (typeof tp !== 'string' || tp.length > MAX_TRACEPARENT) return ROOT_CONTEXT
  const ts = headers.tracestate
  const carrier = {
    traceparent: tp,
    ...(typeof ts === 'string' && ts.length <= MAX_TRACESTATE ? { tracestate: ts } : {}),
  }
  return propagation.extract(ROOT_CONTEXT, carrier)
}

/**
 * A server span per HTTP request, a child of the caller's `traceparent`, named by route pattern (`POST
 * /v1/profile/:id`), ended with the status. Its context is entered where the request's work runs (the hooks'
 * continuations and the handler: the body arrives through socket events, outside it, so it is entered again before the
 * handler), so the services' spans are its children. The request's log lines carry its trace_id and span_id. Registered
 * only when tracing is on: off, the request path has none of these hooks.
 */
export function traceRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const parent = incoming(req.headers)
    const route = req.routeOptions.url
    const span = startSpan(route ? `${req.method} ${route}` : req.method, {
      kind: SpanKind.SERVER,
      parent,
      attributes: {
        'http.request.method': req.method,
        ...(route ? { 'http.route': route } : {}),
        'url.path': pathOf(req),
        'url.scheme': req.protocol,
        'profiler.request_id': req.id,
      },
    })
    if (!span) return done() // tracing stopped (the process is closing)
    req.span = span
    req.traceContext = trace.setSpan(parent, span)
    req.log = req.log.child(logIds(span))
    context.with(req.traceContext, done)
  })
  app.addHook('preHandler', (req, _reply, done) => {
    if (!req.traceContext) return done()
    if (req.ctx?.tenantId) req.span!.setAttribute('profiler.tenant_id', req.ctx.tenantId)
    context.with(req.traceContext, done)
  })
  app.addHook('onResponse', (req, reply, done) => {
    const span = req.span
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode)
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
      req.span = undefined
    }
    done()
  })
  app.addHook('onRequestAbort', (req, done) => {
    const span = req.span
    if (span) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client aborted the request' })
      span.end()
      req.span = undefined
    }
    done()
  })
}

function pathOf(req: FastifyRequest): string {
  const queryStart = req.url.indexOf('?')
  return (queryStart < 0 ? req.url : req.url.slice(0, queryStart)).slice(0, 2048)
}

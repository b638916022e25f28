import {
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type SpanKind,
  type Tracer,
} from '@opentelemetry/api'
import type { SpanExporter } from '@opentelemetry/sdk-trace'
import type { Logger } from 'pino'
import type { TracingConfig } from '../config.js'

// OpenTelemetry tracing through the API only: this module is all the service loads when tracing is off, and then every
// helper here returns at once (no span, no context). The SDK (./sdk.ts) is imported only when tracing starts.

/** The tracer while tracing runs in this process; undefined when it is off. */
let tracer: Tracer | undefined

export const tracingOn = (): boolean => tracer !== undefined

/** What a test injects instead of the configured exporter (an in-process exporter reading the spans). */
export interface TracingOptions {
  /** Spans go to it one by one, as they end (no batching). Turns tracing on whatever the configuration says. */
  exporter?: SpanExporter
}

/**
 * Starts tracing when the configuration (or an injected exporter) asks for it: loads the SDK and registers it with the
 * API. Returns the step that flushes and stops it, or undefined when tracing stays off. One per process.
 */
export async function startTracing(
  cfg: TracingConfig,
  log: Logger,
  opts: TracingOptions = {},
): Promise<(() => Promise<void>) | undefined> {
  if (!cfg.enabled && !opts.exporter) return undefined
  if (tracer) throw new Error('OpenTelemetry tracing is already running in this process')
  const { startSdk } = await import('./sdk.js')
  const stop = await startSdk(cfg, log, opts.exporter)
  tracer = trace.getTracer('profiler')
  return async () => {
    tracer = undefined
    await stop()
  }
}

export interface SpanOptions {
  attributes?: Attributes
  kind?: SpanKind
  links?: Link[]
  /** Default: the active context. */
  parent?: Context
}

/** A span that the caller ends; undefined when tracing is off. */
export function startSpan(name: string, opts: SpanOptions = {}): Span | undefined {
  return tracer?.startSpan(
    name,
    { attributes: opts.attributes, kind: opts.kind, links: opts.links },
    opts.parent ?? context.active(),
  )
}

/** Runs `fn` in a child span of the active context (or `opts.parent`), ended when it settles; a failure is recorded. */
export function inSpan<T>(name: string, opts: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracer) return fn(undefined)
  const parent = opts.parent ?? context.active()
  const span = tracer.startSpan(name, { attributes: opts.attributes, kind: opts.kind, links: opts.links }, parent)
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span)
    } catch (err) {
      failed(span, err)
      throw err
    } finally {
      span.end()
    }
  })
}

/** The synchronous twin of `inSpan`. */
export function inSpanSync<T>(name: string, opts: SpanOptions, fn: (span: Span | undefined) => T): T {
  if (!tracer) return fn(undefined)
  const parent = opts.parent ?? context.active()
  const span = tracer.startSpan(name, { attributes: opts.attributes, kind: opts.kind, links: opts.links }, parent)
  return context.with(trace.setSpan(parent, span), () => {
    try {
      return fn(span)
    } catch (err) {
      failed(span, err)
      throw err
    } finally {
      span.end()
    }
  })
}

/** Runs `fn` with `ctx` active (as is when there is none). */
export function within<T>(ctx: Context | undefined, fn: () => T): T {
  return ctx ? context.with(ctx, fn) : fn()
}

/** Marks the span failed, with the error as an exception event (its message bounded). */
export function failed(span: Span | undefined, error: unknown): void {
  if (!span) return
  const err = error instanceof Error ? error : new Error(String(error))
  span.recordException({ name: err.name, message: err.message.slice(0, 1000) })
  span.setStatus({ code: SpanStatusCode.ERROR, message: err.message.slice(0, 200) })
}

/** `trace_id` and `span_id` for a log line about the span's work ({} when there is none). */
export function logIds(span: Span | undefined): { trace_id?: string; span_id?: string } {
  const sc = span?.spanContext()
  return sc && isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {}
}

/** The active span's W3C traceparent (what a submission carries across the queue); null when tracing is off. */
export function currentTraceparent(): string | null {
  if (!tracer) return null
  const sc = trace.getSpanContext(context.active())
  if (!sc || !isSpanContextValid(sc)) return null
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** A stored traceparent as a remote span context; undefined when it is absent or not a valid version-00 traceparent. */
export function spanContextOf(traceparent: string | null | undefined): SpanContext | undefined {
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null
  if (!match) return undefined
  const sc: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16) & 1,
    isRemote: true,
  }
  return isSpanContextValid(sc) ? sc : undefined
}

/** The context whose parent is the span `sc` names (the root context when there is none). */
export function contextOf(sc: SpanContext | undefined): Context {
  return sc ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT
}

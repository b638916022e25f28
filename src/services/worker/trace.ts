import { SpanKind, trace, type Context, type Span } from '@opentelemetry/api'
import type { ProfileJob } from '../../domain/profile.js'
import type { OpenSubmission } from '../../domain/worker-policy.js'
import { contextOf, failed, logIds, spanContextOf, startSpan, tracingOn } from '../../tracing/tracing.js'

/** A claimed batch's span (tracing on) and what every log line about it carries. */
export interface BatchTrace {
  span?: Span
  /** The context the batch's work runs in: its span's. */
  ctx?: Context
  log: { tenantId: string; profileId: string; trace_id?: string; span_id?: string }
  /**
   * How the batch ended when it did not apply: retry, failed, deferred, handed_back, requeued, error (the round broke).
   */
  outcome?: string
}

/**
 * The `submission.process` span of a profile's batch. Its parent is the trace of the oldest traced submission of the
 * batch (the `submission.accept` span of the request that sent it, carried across the queue in the submission's row),
 * so a submission processed alone is one trace from the HTTP request to its publication; the other submissions of a
 * merged batch are linked. A batch with no traced submission starts a trace of its own.
 */
export function traceBatch(job: ProfileJob, subs: OpenSubmission[]): BatchTrace {
  const log = { tenantId: job.tenantId, profileId: job.profileId }
  if (!tracingOn()) return { log }
  const traced = subs.flatMap((s) => spanContextOf(s.traceparent) ?? [])
  const parent = contextOf(traced[0])
  const ids = subs.map((s) => s.id)
  const span = startSpan('submission.process', {
    kind: SpanKind.CONSUMER,
    parent,
    links: traced.slice(1).map((context) => ({ context })),
    attributes: {
      'profiler.tenant_id': job.tenantId,
      'profiler.profile_id': job.profileId,
      'profiler.submission_id': ids[0]!,
      'profiler.submission_ids': ids,
      'profiler.batch_size': ids.length,
      'profiler.attempt': Math.max(...subs.map((s) => s.attempts)),
    },
  })!
  return { span, ctx: trace.setSpan(parent, span), log: { ...log, ...logIds(span) } }
}

/** The batch did not apply: how it ended, and why (an error marks its span failed). */
export function batchOutcome(trace: BatchTrace | undefined, outcome: string, err?: unknown): void {
  if (!trace) return
  trace.outcome = outcome
  if (err !== undefined) failed(trace.span, err)
}

/** Ends the batch's span: `profiler.outcome` is `done` unless the batch ended otherwise. */
export function endBatch(trace: BatchTrace): void {
  trace.span?.setAttribute('profiler.outcome', trace.outcome ?? 'done')
  trace.span?.end()
}

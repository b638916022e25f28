import type { EntityManager } from 'typeorm'
import {
  LlmMisconfiguredError,
  LlmRateLimitedError,
  LlmUnavailableError,
  SubmissionsUnfitError,
} from '../../ai/errors.js'
import type { Usage } from '../../ai/types.js'
import { profileKey, type ProfileJob } from '../../domain/profile.js'
import { retryDelayMs, type OpenSubmission } from '../../domain/worker-policy.js'
import { isDimensionMismatch, readyEvent, shareUsage, type WorkerDeps } from './round.js'
import { batchOutcome, type BatchTrace } from './trace.js'

// A batch that did not apply: its submissions retried with backoff or failed, deferred when it was not their fault, or
// handed back at a shutdown. Each returns whether the profile has more to do in this round.

/**
 * Extraction failed: retry later with backoff, or mark failed after the last attempt. Nothing is merged. Each
 * submission's fate is logged with its id (and the batch's trace ids when tracing is on).
 */
export async function failBatch(
  deps: WorkerDeps,
  job: ProfileJob,
  owner: string,
  subs: OpenSubmission[],
  err: unknown,
  trace?: BatchTrace,
): Promise<boolean> {
  const { tenantId, profileId } = job
  const about = trace?.log ?? { tenantId, profileId }
  const submissionIds = subs.map((s) => s.id)
  const message = err instanceof Error ? err.message : String(err)
  if (isDimensionMismatch(err)) {
    deps.log.error(
      { ...about, submissionIds, err: message },
      "the embedding column does not match this process's embedding model: " +
        'restart it with the configuration the database was reindexed for',
    )
    batchOutcome(trace, 'deferred', err)
    deps.embeddingMismatch()
    return deferBatch(
      deps,
      job,
      owner,
      subs,
      `waiting for a worker configured for the database's embeddings: ${message}`,
      5,
    )
  }
  // The provider's circuit is open, it asked for a long wait, or it refuses us until an operator acts (reported once by
  // the provider, not per batch): not the submissions' fault, so they wait without using an attempt.
  if (
    err instanceof LlmUnavailableError ||
    err instanceof LlmRateLimitedError ||
    err instanceof LlmMisconfiguredError
  ) {
    const line = err instanceof LlmMisconfiguredError ? deps.log.debug.bind(deps.log) : deps.log.warn.bind(deps.log)
    line(
      { ...about, submissionIds, retryInMs: Math.round(err.retryAfterMs), err: message },
      'the AI provider is unavailable: submissions deferred',
    )
    batchOutcome(trace, 'deferred', err)
    return deferBatch(deps, job, owner, subs, message, err.retryAfterMs / 1000)
  }
  return deps.uow.run(undefined, async (tx) => {
    const manager = tx.manager
    const cur = await deps.profiles.find(manager, tenantId, profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) {
      deps.log.warn(
        { ...about, submissionIds, err: message },
        'extraction failed; the profile was deleted or its lease lost meanwhile',
      )
      return false
    }
    await recordUsage(deps, manager, tenantId, submissionIds, (err as { usage?: Usage })?.usage)
    let retryIn = 0
    let lost = false
    // Submissions the model cannot extract as they are: failed now, whatever their attempts (a retry would send the
    // same request); any others of the batch go back to pending without using an attempt.
    const unfit =
      err instanceof SubmissionsUnfitError ? new Map(err.submissions.map((u) => [u.submissionId, u.error])) : undefined
    const handBack: string[] = []
    for (const submission of subs) {
      if (unfit) {
        const error = unfit.get(submission.id)
        if (error === undefined) {
          handBack.push(submission.id)
          continue
        }
        lost = true
        await deps.submissions.fail(manager, tenantId, submission.id, error)
        tx.raise('submissionFailed', { tenantId, profileId, submissionId: submission.id, at: new Date().toISOString() })
        deps.log.warn(
          { ...about, submissionId: submission.id, attempt: submission.attempts, err: error },
          'extraction failed: the submission cannot fit the model; failed without retry',
        )
      } else if (submission.attempts >= deps.opts.maxAttempts) {
        lost = true
        await deps.submissions.fail(manager, tenantId, submission.id, message)
        tx.raise('submissionFailed', { tenantId, profileId, submissionId: submission.id, at: new Date().toISOString() })
        deps.log.warn(
          { ...about, submissionId: submission.id, attempt: submission.attempts, err: message },
          'extraction failed: submission failed after its last attempt',
        )
      } else {
        const delayMs = retryDelayMs(submission.attempts, deps.opts.retryBaseMs)
        retryIn = Math.max(retryIn, delayMs / 1000)
        await deps.submissions.retry(manager, tenantId, submission.id, message, delayMs / 1000)
        deps.log.warn(
          {
            ...about,
            submissionId: submission.id,
            attempt: submission.attempts,
            retryInMs: Math.round(delayMs),
            err: message,
          },
          'extraction failed: submission will be retried',
        )
      }
    }
    if (handBack.length) await deps.submissions.giveBack(manager, tenantId, handBack)
    batchOutcome(trace, lost ? 'failed' : 'retry', err)
    await deps.repo.release(manager, [job], owner)
    const open = await deps.submissions.countOpen(manager, tenantId, profileId)
    if (open === 0) {
      const seqs = await deps.repo.settleReady(manager, [cur])
      const seq = seqs.get(profileKey(job))
      if (seq !== undefined) tx.raise('profileStatusChanged', readyEvent(job, seq))
      return false
    }
    if (retryIn > 0) await deps.queue.enqueue(job, { tx, startAfterSeconds: retryIn })
    return retryIn === 0
  })
}

/**
 * A failure that is not the submissions' fault (the provider's circuit is open; the embedding column was changed
 * under this process by a reindex for another model): they go back to pending without using up an attempt, with
 * the reason as their error, and the profile is queued again for later.
 */
async function deferBatch(
  deps: WorkerDeps,
  job: ProfileJob,
  owner: string,
  subs: OpenSubmission[],
  reason: string,
  afterSeconds: number,
): Promise<boolean> {
  const wait = Math.max(1, Math.ceil(afterSeconds))
  await deps.uow.run(undefined, async (tx) => {
    const manager = tx.manager
    const cur = await deps.profiles.find(manager, job.tenantId, job.profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) return
    await deps.submissions.defer(
      manager,
      job.tenantId,
      subs.map((s) => s.id),
      reason,
      wait,
    )
    await deps.repo.release(manager, [job], owner)
    await deps.queue.enqueue(job, { tx, startAfterSeconds: wait })
  })
  return false
}

/** Adds what a batch cost (every request, failed ones included) to its submissions. */
async function recordUsage(
  deps: WorkerDeps,
  manager: EntityManager,
  tenantId: string,
  ids: string[],
  usage: Usage | undefined,
) {
  if (!usage?.totalTokens) return
  for (const [i, id] of ids.entries())
    await deps.submissions.addUsage(manager, tenantId, id, shareUsage(usage, ids.length, i))
}

/** A batch interrupted by a shutdown: its submissions are pending again, as if never tried, and the profile queued. */
export async function giveBack(
  deps: WorkerDeps,
  job: ProfileJob,
  owner: string,
  subs: OpenSubmission[],
  trace?: BatchTrace,
): Promise<void> {
  batchOutcome(trace, 'handed_back')
  await deps.uow.run(undefined, async (tx) => {
    const manager = tx.manager
    const cur = await deps.profiles.find(manager, job.tenantId, job.profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) return
    await deps.submissions.giveBack(
      manager,
      job.tenantId,
      subs.map((s) => s.id),
    )
    await deps.repo.release(manager, [job], owner)
    await deps.queue.enqueue(job, { tx })
  })
  deps.log.info(
    { ...(trace?.log ?? { tenantId: job.tenantId, profileId: job.profileId }), submissionIds: subs.map((s) => s.id) },
    'shutting down: batch handed back to the queue',
  )
}

import type { EntityManager } from 'typeorm'
import { LlmUnavailableError } from '../../ai/errors.js'
import type { Usage } from '../../ai/types.js'
import { profileKey, type ProfileJob } from '../../domain/profile.js'
import { retryDelayMs, type OpenSubmission } from '../../domain/worker-policy.js'
import { isDimensionMismatch, readyEvent, shareUsage, type WorkerDeps } from './round.js'

// A batch that did not apply: its submissions retried with backoff or failed, deferred when it was not their fault, or
// handed back at a shutdown. Each returns whether the profile has more to do in this round.

/** Extraction failed: retry later with backoff, or mark failed after the last attempt. Nothing is merged. */
export async function failBatch(d: WorkerDeps, job: ProfileJob, owner: string, subs: OpenSubmission[], err: unknown): Promise<boolean> {
  const { tenantId, profileId } = job
  const message = err instanceof Error ? err.message : String(err)
  if (isDimensionMismatch(err)) {
    d.log.error(
      { tenantId, profileId, err: message },
      "the embedding column does not match this process's embedding model: restart it with the configuration the database was reindexed for",
    )
    return deferBatch(d, job, owner, subs, `waiting for a worker configured for the database's embeddings: ${message}`, 5)
  }
  // The provider's circuit is open: an outage is not the submissions' fault, so they wait without using an attempt.
  if (err instanceof LlmUnavailableError) return deferBatch(d, job, owner, subs, message, err.retryAfterMs / 1000)
  d.log.warn({ tenantId, profileId, err: message }, 'extraction failed')
  return d.uow.run(undefined, async (tx) => {
    const m = tx.manager
    const cur = await d.profiles.find(m, tenantId, profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) return false
    await recordUsage(d, m, tenantId, subs.map((s) => s.id), (err as { usage?: Usage })?.usage)
    let retryIn = 0
    for (const s of subs) {
      if (s.attempts >= d.opts.maxAttempts) {
        await d.submissions.fail(m, tenantId, s.id, message)
        tx.raise('submissionFailed', { tenantId, profileId, submissionId: s.id, at: new Date().toISOString() })
      } else {
        const delayMs = retryDelayMs(s.attempts, d.opts.retryBaseMs)
        retryIn = Math.max(retryIn, delayMs / 1000)
        await d.submissions.retry(m, tenantId, s.id, message, delayMs / 1000)
      }
    }
    await d.repo.release(m, [job], owner)
    const n = await d.submissions.countOpen(m, tenantId, profileId)
    if (n === 0) {
      const seqs = await d.repo.settleReady(m, [cur])
      const seq = seqs.get(profileKey(job))
      if (seq !== undefined) tx.raise('profileStatusChanged', readyEvent(job, seq))
      return false
    }
    if (retryIn > 0) await d.queue.enqueue(job, { tx: m, startAfterSeconds: retryIn })
    return retryIn === 0
  })
}


/**
 * A failure that is not the submissions' fault (the provider's circuit is open; the embedding column was changed
 * under this process by a reindex for another model): they go back to pending without using up an attempt, with
 * the reason as their error, and the profile is queued again for later.
 */
async function deferBatch(d: WorkerDeps, job: ProfileJob, owner: string, subs: OpenSubmission[], reason: string, afterSeconds: number): Promise<boolean> {
  const wait = Math.max(1, Math.ceil(afterSeconds))
  await d.uow.run(undefined, async ({ manager: m }) => {
    const cur = await d.profiles.find(m, job.tenantId, job.profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) return
    await d.submissions.defer(m, job.tenantId, subs.map((s) => s.id), reason, wait)
    await d.repo.release(m, [job], owner)
    await d.queue.enqueue(job, { tx: m, startAfterSeconds: wait })
  })
  return false
}


/** Adds what a batch cost (every request, failed ones included) to its submissions. */
async function recordUsage(d: WorkerDeps, m: EntityManager, tenantId: string, ids: string[], usage: Usage | undefined) {
  if (!usage || !usage.totalTokens) return
  for (const [i, id] of ids.entries()) await d.submissions.addUsage(m, tenantId, id, shareUsage(usage, ids.length, i))
}


/** A batch interrupted by a shutdown: its submissions are pending again, as if never tried, and the profile queued. */
export async function giveBack(d: WorkerDeps, job: ProfileJob, owner: string, subs: OpenSubmission[]): Promise<void> {
  await d.uow.run(undefined, async ({ manager: m }) => {
    const cur = await d.profiles.find(m, job.tenantId, job.profileId, { lock: true })
    if (!cur || cur.claimed_by !== owner) return
    await d.submissions.giveBack(m, job.tenantId, subs.map((s) => s.id))
    await d.repo.release(m, [job], owner)
    await d.queue.enqueue(job, { tx: m })
  })
  d.log.info({ tenantId: job.tenantId, profileId: job.profileId }, 'shutting down: batch handed back to the queue')
}


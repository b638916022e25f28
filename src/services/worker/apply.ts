import { toSql } from 'pgvector'
import type { ProfileWrite } from '../../db/processing.repository.js'
import { stateJson, type StateJson } from '../../domain/state-json.js'
import { profileKey, type ProfileJob } from '../../domain/profile.js'
import type { MergeResult } from '../../domain/merge.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import type { Prepared } from './extract.js'
import { readyEvent, shareUsage, type Claimed, type WorkerDeps } from './round.js'

/**
 * What a profile's new state writes (content, derived columns, summary, embedding) and its update_log entry: one for a
 * state that changed something visible, none otherwise. Shared by the worker's batches and re-extractions.
 */
export function profileWrite(
  job: ProfileJob,
  cur: Pick<ProfileRecord, 'history_seq'>,
  prepared: { merged: MergeResult; now: string; summary: string; vector: number[]; lexemes: string; json?: StateJson },
  inputType: string,
  submissionIds: string[],
): ProfileWrite {
  const core = prepared.merged.state.content.core_info
  // Serialized where the merge ran, when it ran on a thread; here otherwise.
  const json = prepared.json ?? stateJson(prepared.merged.state, prepared.merged.changes)
  return {
    job,
    submissions: [],
    promptVersion: null,
    // A batch that changed nothing visible leaves no update_log entry (its submissions are done all the same).
    historySeq: prepared.merged.changed ? cur.history_seq + 1 : cur.history_seq,
    history: prepared.merged.changed
      ? { extractedOn: prepared.now, changes: json.changes, submissionIds: JSON.stringify(submissionIds), inputType }
      : undefined,
    content: json.content,
    fieldTimestamps: json.fieldTimestamps,
    internals: json.internals,
    language: prepared.merged.state.language ?? null,
    summary: prepared.summary,
    name: core.name?.value ?? null,
    age: core.age?.value ?? null,
    gender: core.gender?.value ?? null,
    location: core.location?.value ?? null,
    embedding: toSql(prepared.vector),
    lexemes: prepared.lexemes,
  }
}

/**
 * Applies prepared profiles in one transaction; returns those with more submissions open (`more`) and the batches put
 * back in the queue because a request changed their profile meanwhile (`requeued`).
 */
export async function applyRound(
  deps: WorkerDeps,
  ready: { batch: Claimed; prepared: Prepared }[],
  owner: string,
): Promise<{ more: ProfileJob[]; requeued: Claimed[] }> {
  const more: ProfileJob[] = []
  let dropped = 0
  const stale: Claimed[] = []
  await deps.uow.run(undefined, async (tx) => {
    const manager = tx.manager
    const current = new Map(
      (
        await deps.repo.lockForApply(
          manager,
          ready.map((r) => r.batch.job),
        )
      ).map((profile) => [profileKey({ tenantId: profile.tenant_id, profileId: profile.profile_id }), profile]),
    )
    const writes: ProfileWrite[] = []
    for (const { batch, prepared } of ready) {
      const cur = current.get(profileKey(batch.job))
      // Deleted, or our lease lapsed and another worker took over: drop the work.
      if (!cur || cur.claimed_by !== owner) {
        dropped++
        continue
      }
      // Changed under our lease by something else than the worker (a value forgotten, a rollback, a custom schema
      // change that dropped values, an import): our merge started from an older state, so the batch goes back to the
      // queue to be merged into the new one (its submissions keep their attempts).
      if (cur.version !== batch.profile.version) {
        stale.push(batch)
        continue
      }
      // Submissions the model cannot extract as they are fail now, once (the same request would fail the same way);
      // the others are applied. Each carries its share of what the batch cost.
      const unfit = new Map(prepared.failed.map((f) => [f.submissionId, f.error]))
      const share = (i: number) =>
        prepared.usage?.totalTokens ? shareUsage(prepared.usage, batch.submissions.length, i) : undefined
      const applied: { submission: (typeof batch.submissions)[number]; usage?: ReturnType<typeof shareUsage> }[] = []
      for (const [i, submission] of batch.submissions.entries()) {
        const error = unfit.get(submission.id)
        if (error === undefined) {
          applied.push({ submission, usage: share(i) })
          continue
        }
        const usage = share(i)
        if (usage) await deps.submissions.addUsage(manager, batch.job.tenantId, submission.id, usage)
        await deps.submissions.fail(manager, batch.job.tenantId, submission.id, error)
        tx.raise('submissionFailed', {
          tenantId: batch.job.tenantId,
          profileId: batch.job.profileId,
          submissionId: submission.id,
          at: new Date().toISOString(),
        })
        deps.log.warn(
          {
            tenantId: batch.job.tenantId,
            profileId: batch.job.profileId,
            submissionId: submission.id,
            attempt: submission.attempts,
            err: error,
          },
          'extraction failed: the submission cannot fit the model; failed without retry',
        )
      }
      const ids = applied.map(({ submission }) => submission.id)
      const inputTypes = [...new Set(applied.map(({ submission }) => submission.input_type))]
      writes.push({
        ...profileWrite(batch.job, cur, prepared, inputTypes.length === 1 ? inputTypes[0]! : 'mixed', ids),
        submissions: applied.map(({ submission, usage }, i) => ({
          id: submission.id,
          extraction: JSON.stringify(prepared.provenance[i]),
          ...(usage ? { usage } : {}),
        })),
        promptVersion: prepared.promptVersion ?? null,
      })
    }
    for (const batch of stale) {
      await deps.submissions.giveBack(
        manager,
        batch.job.tenantId,
        batch.submissions.map((s) => s.id),
      )
      await deps.repo.release(manager, [batch.job], owner)
      await deps.queue.enqueue(batch.job, { tx })
    }
    if (!writes.length) return
    const result = await deps.repo.apply(manager, writes, deps.ai.embedder.model)
    for (const write of writes) {
      const written = result.get(profileKey(write.job))
      if (!written) continue
      if (written.seq !== undefined) tx.raise('profileStatusChanged', readyEvent(write.job, written.seq))
      if (written.remaining > 0) more.push(write.job)
    }
  })
  if (stale.length)
    deps.log.info(
      { profiles: stale.length },
      'profiles changed by a request while processing; their batches queued again',
    )
  if (dropped) deps.log.info({ dropped }, 'profiles deleted or leases lost while processing; their batches dropped')
  return { more, requeued: stale }
}

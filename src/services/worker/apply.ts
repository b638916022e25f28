import { toSql } from 'pgvector'
import type { ProfileWrite } from '../../db/processing.repository.js'
import { stateJson, type StateJson } from '../../domain/state-json.js'
import { profileKey, type ProfileJob } from '../../domain/profile.js'
import type { MergeResult } from '../../domain/merge.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import type { Prepared } from './extract.js'
import { readyEvent, shareUsage, toJob, type Claimed, type WorkerDeps } from './round.js'

/**
 * What a profile's new state writes (content, derived columns, summary, embedding) and its update_log entry: one for a
 * state that changed something visible, none otherwise. Shared by the worker's batches and re-extractions.
 */
export function profileWrite(
  job: ProfileJob,
  cur: Pick<ProfileRecord, 'history_seq'>,
  p: { merged: MergeResult; now: string; summary: string; vector: number[]; lexemes: string; json?: StateJson },
  inputType: string,
  submissionIds: string[],
): ProfileWrite {
  const core = p.merged.state.content.core_info
  // Serialized where the merge ran, when it ran on a thread; here otherwise.
  const json = p.json ?? stateJson(p.merged.state, p.merged.changes)
  return {
    job,
    submissions: [],
    promptVersion: null,
    // A batch that changed nothing visible leaves no update_log entry (its submissions are done all the same).
    historySeq: p.merged.changed ? cur.history_seq + 1 : cur.history_seq,
    history: p.merged.changed
      ? { extractedOn: p.now, changes: json.changes, submissionIds: JSON.stringify(submissionIds), inputType }
      : undefined,
    content: json.content,
    fieldTimestamps: json.fieldTimestamps,
    internals: json.internals,
    language: p.merged.state.language ?? null,
    summary: p.summary,
    name: core.name?.value ?? null,
    age: core.age?.value ?? null,
    gender: core.gender?.value ?? null,
    location: core.location?.value ?? null,
    embedding: toSql(p.vector),
    lexemes: p.lexemes,
  }
}

/**
 * Applies prepared profiles in one transaction; returns those with more submissions open (`more`) and the batches put
 * back in the queue because a request changed their profile meanwhile (`requeued`).
 */
export async function applyRound(
  d: WorkerDeps,
  ready: { c: Claimed; prepared: Prepared }[],
  owner: string,
): Promise<{ more: ProfileJob[]; requeued: Claimed[] }> {
  const more: ProfileJob[] = []
  let dropped = 0
  const stale: Claimed[] = []
  await d.uow.run(undefined, async (tx) => {
    const m = tx.manager
    const current = new Map(
      (
        await d.repo.lockForApply(
          m,
          ready.map((r) => r.c.job),
        )
      ).map((p) => [profileKey({ tenantId: p.tenant_id, profileId: p.profile_id }), p]),
    )
    const writes: ProfileWrite[] = []
    for (const { c, prepared: p } of ready) {
      const cur = current.get(profileKey(c.job))
      // Deleted, or our lease lapsed and another worker took over: drop the work.
      if (!cur || cur.claimed_by !== owner) {
        dropped++
        continue
      }
      // Changed under our lease by something else than the worker (a value forgotten, a rollback, a custom schema change
      // that dropped values, an import): our merge started from an older state, so the batch goes back to the queue to be
      // merged into the new one (its submissions keep their attempts).
      if (cur.version !== c.profile.version) {
        stale.push(c)
        continue
      }
      // Submissions the model cannot extract as they are fail now, once (the same request would fail the same way);
      // the others are applied. Each carries its share of what the batch cost.
      const unfit = new Map(p.failed.map((f) => [f.submissionId, f.error]))
      const share = (i: number) => (p.usage?.totalTokens ? shareUsage(p.usage, c.submissions.length, i) : undefined)
      const applied: { s: (typeof c.submissions)[number]; usage?: ReturnType<typeof shareUsage> }[] = []
      for (const [i, s] of c.submissions.entries()) {
        const error = unfit.get(s.id)
        if (error === undefined) {
          applied.push({ s, usage: share(i) })
          continue
        }
        const usage = share(i)
        if (usage) await d.submissions.addUsage(m, c.job.tenantId, s.id, usage)
        await d.submissions.fail(m, c.job.tenantId, s.id, error)
        tx.raise('submissionFailed', {
          tenantId: c.job.tenantId,
          profileId: c.job.profileId,
          submissionId: s.id,
          at: new Date().toISOString(),
        })
        d.log.warn(
          { tenantId: c.job.tenantId, profileId: c.job.profileId, submissionId: s.id, attempt: s.attempts, err: error },
          'extraction failed: the submission cannot fit the model; failed without retry',
        )
      }
      const ids = applied.map(({ s }) => s.id)
      const inputTypes = [...new Set(applied.map(({ s }) => s.input_type))]
      writes.push({
        ...profileWrite(c.job, cur, p, inputTypes.length === 1 ? inputTypes[0]! : 'mixed', ids),
        submissions: applied.map(({ s, usage }, i) => ({
          id: s.id,
          extraction: JSON.stringify(p.provenance[i]),
          ...(usage ? { usage } : {}),
        })),
        promptVersion: p.promptVersion ?? null,
      })
    }
    for (const c of stale) {
      await d.submissions.giveBack(
        m,
        c.job.tenantId,
        c.submissions.map((s) => s.id),
      )
      await d.repo.release(m, [c.job], owner)
      await d.queue.enqueue(c.job, { tx: m })
    }
    if (!writes.length) return
    const result = await d.repo.apply(m, writes, d.ai.embedder.model)
    for (const w of writes) {
      const r = result.get(profileKey(w.job))
      if (!r) continue
      if (r.seq !== undefined) tx.raise('profileStatusChanged', readyEvent(w.job, r.seq))
      if (r.remaining > 0) more.push(w.job)
    }
  })
  if (stale.length)
    d.log.info({ profiles: stale.length }, 'profiles changed by a request while processing; their batches queued again')
  if (dropped) d.log.info({ dropped }, 'profiles deleted or leases lost while processing; their batches dropped')
  return { more, requeued: stale }
}

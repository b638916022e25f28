import { toSql } from 'pgvector'
import type { ProfileWrite } from '../../db/processing.repository.js'
import { profileKey, type ProfileJob } from '../../domain/profile.js'
import type { Prepared } from './extract.js'
import { readyEvent, shareUsage, toJob, type Claimed, type WorkerDeps } from './round.js'

/** Applies prepared profiles in one transaction; returns those with more submissions open. */
export async function applyRound(d: WorkerDeps, ready: { c: Claimed; prepared: Prepared }[], owner: string): Promise<ProfileJob[]> {
  const more: ProfileJob[] = []
  let dropped = 0
  let redone = 0
  await d.uow.run(undefined, async (tx) => {
    const m = tx.manager
    const current = new Map((await d.repo.lock(m, ready.map((r) => r.c.job))).map((p) => [profileKey(toJob(p)), p]))
    const writes: ProfileWrite[] = []
    for (const { c, prepared: p } of ready) {
      const cur = current.get(profileKey(c.job))
      // Deleted, or our lease lapsed and another worker took over: drop the work.
      if (!cur || cur.claimed_by !== owner) {
        dropped++
        continue
      }
      // Changed since the claim by something else than the worker (a custom schema change that dropped values, an
      // import): the batch is handed back, to be done again from the new content instead of written over it.
      if (cur.version !== c.profile.version) {
        await d.submissions.giveBack(m, c.job.tenantId, c.submissions.map((s) => s.id))
        await d.repo.release(m, [c.job], owner)
        await d.queue.enqueue(c.job, { tx: m })
        redone++
        continue
      }
      const ids = c.submissions.map((s) => s.id)
      const inputTypes = [...new Set(c.submissions.map((s) => s.input_type))]
      const core = p.merged.state.content.core_info
      writes.push({
        job: c.job,
        submissions: c.submissions.map((s, i) => ({
          id: s.id,
          extraction: JSON.stringify(p.provenance[i]),
          ...(p.usage?.totalTokens ? { usage: shareUsage(p.usage, ids.length, i) } : {}),
        })),
        promptVersion: p.promptVersion ?? null,
        // A batch that changed nothing visible leaves no update_log entry (its submissions are done all the same).
        historySeq: p.merged.changed ? cur.history_seq + 1 : cur.history_seq,
        history: p.merged.changed
          ? {
            extractedOn: p.now,
            changes: JSON.stringify(p.merged.changes),
            submissionIds: JSON.stringify(ids),
            inputType: inputTypes.length === 1 ? inputTypes[0]! : 'mixed',
          }
          : undefined,
        content: JSON.stringify(p.merged.state.content),
        fieldTimestamps: JSON.stringify(p.merged.state.field_timestamps),
        internals: JSON.stringify(p.merged.state.internals),
        language: p.merged.state.language ?? null,
        summary: p.summary,
        name: core.name?.value ?? null,
        age: core.age?.value ?? null,
        gender: core.gender?.value ?? null,
        location: core.location?.value ?? null,
        embedding: toSql(p.vector),
      })
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
  if (dropped) d.log.info({ dropped }, 'profiles deleted or leases lost while processing; their batches dropped')
  if (redone) d.log.info({ redone }, 'profiles changed while processing (schema change, import); their batches handed back to be done again')
  return more
}


import { profileKey, type ProfileJob } from '../../domain/profile.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import { AppSchemaRepository } from '../../db/app-schema.repository.js'
import type { AppSchemaVersion } from '../../domain/custom-schema.js'
import { chooseBatch, type OpenSubmission } from '../../domain/worker-policy.js'
import type { Transaction } from '../../db/unit-of-work.js'
import { readyEvent, toJob, type Claimed, type WorkerDeps } from './round.js'

/**
 * Claims what each profile may run now, in one transaction. Profiles with nothing open turn ready; one whose oldest
 * submission waits for its retry is queued again for then; one leased by another worker is left to it (it re-counts
 * open submissions under the row lock before it lets go, so it takes ours too; if it dies, the reconciler re-enqueues).
 */
export async function claimRound(deps: WorkerDeps, jobs: ProfileJob[], owner: string): Promise<Claimed[]> {
  return deps.uow.run(undefined, async (tx) => {
    const manager = tx.manager
    const locked = (await deps.repo.lock(manager, jobs)).filter((p) => !p.leased || p.claimed_by === owner)
    if (!locked.length) return []
    const open = await deps.repo.open(manager, locked.map(toJob), deps.opts.batchSize)
    await failExhausted(deps, tx, open)
    const out: Claimed[] = []
    const none: ProfileRecord[] = []
    const later: { job: ProfileJob; afterSeconds: number }[] = []
    for (const profile of locked) {
      const choice = chooseBatch(open.get(profileKey(toJob(profile))) ?? [])
      if (choice.kind === 'none') none.push(profile)
      else if (choice.kind === 'later') later.push({ job: toJob(profile), afterSeconds: choice.afterSeconds })
      else
        out.push({
          job: toJob(profile),
          profile,
          submissions: choice.submissions.map((s) => ({ ...s, attempts: s.attempts + 1 })),
        })
    }
    if (none.length) {
      const seqs = await deps.repo.settleReady(manager, none)
      for (const profile of none) {
        const seq = seqs.get(profileKey(toJob(profile)))
        if (seq !== undefined) tx.raise('profileStatusChanged', readyEvent(toJob(profile), seq))
      }
    }
    if (later.length) {
      await deps.repo.release(
        manager,
        later.map((l) => l.job),
        owner,
      )
      for (const delayed of later)
        await deps.queue.enqueue(delayed.job, { tx, startAfterSeconds: delayed.afterSeconds })
    }
    if (out.length) {
      const subs = out.flatMap((batch) => batch.submissions.map((s) => ({ tenantId: batch.job.tenantId, id: s.id })))
      await deps.repo.claim(
        manager,
        out.map((c) => c.job),
        subs,
        owner,
        deps.opts.leaseSeconds,
      )
      await attachSchemas(
        manager,
        out.map((batch) => ({ tenantId: batch.job.tenantId, submissions: batch.submissions })),
      )
    }
    return out
  })
}

/** Why a submission whose every attempt was cut short ends failed. */
export const EXHAUSTED =
  'the process running it stopped before it finished (a crash, a kill or a restart), on every attempt'

/**
 * A submission claimed its last allowed time that never settled (its process died: killed, out of memory, restarted)
 * fails now instead of running again, so a batch that brings its process down cannot do so for ever after restarts.
 * Taken out of `open`.
 */
async function failExhausted(deps: WorkerDeps, tx: Transaction, open: Map<string, OpenSubmission[]>): Promise<void> {
  for (const [key, subs] of open) {
    const exhausted = subs.filter((s) => s.attempts >= deps.opts.maxAttempts)
    if (!exhausted.length) continue
    const [tenantId, profileId] = key.split('\u0000') as [string, string]
    for (const submission of exhausted) {
      await deps.submissions.fail(
        tx.manager,
        tenantId,
        submission.id,
        `Gave up after ${submission.attempts} attempts: ${EXHAUSTED}`,
      )
      tx.raise('submissionFailed', { tenantId, profileId, submissionId: submission.id, at: new Date().toISOString() })
      deps.log.warn(
        { tenantId, profileId, submissionId: submission.id, attempt: submission.attempts },
        'submission failed: its attempts all ended with their process',
      )
    }
    open.set(
      key,
      subs.filter((s) => s.attempts < deps.opts.maxAttempts),
    )
  }
}

const schemas = new AppSchemaRepository()

/** A submission that may come from an app with a custom schema (a claimed one, or one a re-extraction replays). */
export interface SchemaSlot {
  app_id?: string | null
  schema_version?: number | null
  schema?: AppSchemaVersion
}

/**
 * Each submission of an app with a custom schema gets that schema's current version (read once per app), which
 * drives its extraction; when no app has one it costs no query.
 */
export async function attachSchemas(
  manager: import('typeorm').EntityManager,
  groups: { tenantId: string; submissions: SchemaSlot[] }[],
): Promise<void> {
  const apps = new Map<string, { tenantId: string; appId: string }>()
  for (const group of groups) {
    for (const slot of group.submissions)
      if (slot.app_id && slot.schema_version)
        apps.set(`${group.tenantId}\u0000${slot.app_id}`, { tenantId: group.tenantId, appId: slot.app_id })
  }
  if (!apps.size) return
  const current = await schemas.currentOf(manager, [...apps.values()])
  if (!current.size) return
  for (const group of groups) {
    for (const slot of group.submissions) {
      const version = slot.app_id ? current.get(`${group.tenantId}\u0000${slot.app_id}`) : undefined
      if (version) slot.schema = version
    }
  }
}

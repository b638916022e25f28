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
export async function claimRound(d: WorkerDeps, jobs: ProfileJob[], owner: string): Promise<Claimed[]> {
  return d.uow.run(undefined, async (tx) => {
    const m = tx.manager
    const locked = (await d.repo.lock(m, jobs)).filter((p) => !p.leased || p.claimed_by === owner)
    if (!locked.length) return []
    const open = await d.repo.open(m, locked.map(toJob), d.opts.batchSize)
    await failExhausted(d, tx, open)
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
      const seqs = await d.repo.settleReady(m, none)
      for (const p of none) {
        const seq = seqs.get(profileKey(toJob(p)))
        if (seq !== undefined) tx.raise('profileStatusChanged', readyEvent(toJob(p), seq))
      }
    }
    if (later.length) {
      await d.repo.release(
        m,
        later.map((l) => l.job),
        owner,
      )
      for (const l of later) await d.queue.enqueue(l.job, { tx: m, startAfterSeconds: l.afterSeconds })
    }
    if (out.length) {
      const subs = out.flatMap((c) => c.submissions.map((s) => ({ tenantId: c.job.tenantId, id: s.id })))
      await d.repo.claim(
        m,
        out.map((c) => c.job),
        subs,
        owner,
        d.opts.leaseSeconds,
      )
      await attachSchemas(
        m,
        out.map((c) => ({ tenantId: c.job.tenantId, submissions: c.submissions })),
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
async function failExhausted(d: WorkerDeps, tx: Transaction, open: Map<string, OpenSubmission[]>): Promise<void> {
  for (const [key, subs] of open) {
    const exhausted = subs.filter((s) => s.attempts >= d.opts.maxAttempts)
    if (!exhausted.length) continue
    const [tenantId, profileId] = key.split('\u0000') as [string, string]
    for (const s of exhausted) {
      await d.submissions.fail(tx.manager, tenantId, s.id, `Gave up after ${s.attempts} attempts: ${EXHAUSTED}`)
      tx.raise('submissionFailed', { tenantId, profileId, submissionId: s.id, at: new Date().toISOString() })
      d.log.warn(
        { tenantId, profileId, submissionId: s.id, attempt: s.attempts },
        'submission failed: its attempts all ended with their process',
      )
    }
    open.set(
      key,
      subs.filter((s) => s.attempts < d.opts.maxAttempts),
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
  m: import('typeorm').EntityManager,
  groups: { tenantId: string; submissions: SchemaSlot[] }[],
): Promise<void> {
  const apps = new Map<string, { tenantId: string; appId: string }>()
  for (const g of groups) {
    for (const s of g.submissions)
      if (s.app_id && s.schema_version)
        apps.set(`${g.tenantId}\u0000${s.app_id}`, { tenantId: g.tenantId, appId: s.app_id })
  }
  if (!apps.size) return
  const current = await schemas.currentOf(m, [...apps.values()])
  if (!current.size) return
  for (const g of groups) {
    for (const s of g.submissions) {
      const v = s.app_id ? current.get(`${g.tenantId}\u0000${s.app_id}`) : undefined
      if (v) s.schema = v
    }
  }
}

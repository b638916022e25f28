import type { AppSchemaVersion } from './custom-schema.js'
import { profileKey, type InputType, type ProfileJob } from './profile.js'

/** An open (pending or processing) submission of a profile, oldest first, as the claim reads it. */
export interface OpenSubmission {
  id: string
  input_type: InputType
  data: string
  attempts: number
  /** Seconds until it may be tried again (0: now). */
  wait: number
  /** The W3C traceparent of the request that accepted it (tracing on), which its processing continues. */
  traceparent?: string | null
  /** When it was accepted (ISO 8601): evidence older than a forget cannot bring the forgotten value back. */
  created_at?: string
  /** When its text was said or written (ISO 8601; the acceptance time when none was given): the reference date of
   * its relative dates and the time the merge orders its evidence by. */
  occurred_at?: string
  /** The summary instructions of the app that sent it ([] when none, or when the app is gone). */
  instructions?: string[]
  /** The app that submitted it (null for submissions older than that column). */
  app_id?: string | null
  /** The app's current custom schema version (null or absent: none), read with the submission. */
  schema_version?: number | null
  /** That app's current custom schema, attached at claim time when it has one. */
  schema?: AppSchemaVersion
}

export type BatchChoice =
  /** Nothing open: the profile is ready. */
  | { kind: 'none' }
  /** The oldest open submission waits for its retry: nothing newer may run before it. */
  | { kind: 'later'; afterSeconds: number }
  | { kind: 'batch'; submissions: OpenSubmission[] }

/**
 * Which of a profile's open submissions (oldest first, at most the batch size) to extract now: the prefix that may run,
 * in order; a submission tried before runs alone, so it cannot sink the others, and nothing runs past one that waits.
 */
export function chooseBatch(open: OpenSubmission[]): BatchChoice {
  if (!open.length) return { kind: 'none' }
  if (open[0]!.wait > 0) return { kind: 'later', afterSeconds: open[0]!.wait }
  const waiting = open.findIndex((s) => s.wait > 0)
  let batch = waiting < 0 ? open : open.slice(0, waiting)
  if (batch[0]!.attempts > 0) batch = batch.slice(0, 1)
  else {
    const retried = batch.findIndex((s) => s.attempts > 0)
    if (retried > 0) batch = batch.slice(0, retried)
  }
  return { kind: 'batch', submissions: batch }
}

/** The wait before attempt `attempts + 1`: exponential from `baseMs`, with ±25 % jitter. */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  return baseMs * 2 ** (attempts - 1) * (0.75 + random() * 0.5)
}

/** One entry per profile, in first-seen order (several jobs may name the same profile). */
export function distinctProfiles(jobs: ProfileJob[]): ProfileJob[] {
  const seen = new Map<string, ProfileJob>()
  for (const job of jobs) {
    const key = profileKey(job)
    if (!seen.has(key)) seen.set(key, { tenantId: job.tenantId, profileId: job.profileId })
  }
  return [...seen.values()]
}

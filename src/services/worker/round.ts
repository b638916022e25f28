import type { Logger } from 'pino'
import type { AiProviders, Usage } from '../../ai/types.js'
import type { ProcessingRepository } from '../../db/processing.repository.js'
import type { ProfileRecord, ProfileRepository } from '../../db/profile.repository.js'
import type { SubmissionLifecycle } from '../../db/submission-lifecycle.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'
import type { ProfileJob } from '../../domain/profile.js'
import type { ProfileLimits } from '../../domain/profile-limits.js'
import type { CpuPool } from '../cpu/cpu.js'
import type { OpenSubmission } from '../../domain/worker-policy.js'
import type { EventMap } from '../../events/event-bus.js'
import type { JobQueue } from '../../jobs/queue.js'
import type { PassageStatementSize } from './passages.js'

// What the worker's use cases (claim, extract, apply, settle a failure) share: their dependencies, the shapes that pass
// between them, and small helpers.

export interface ProcessingOptions {
  workerId: string
  batchSize: number
  maxAttempts: number
  leaseSeconds: number
  retryBaseMs: number
  /** The size of a profile (docs/operations/limits.md): every merge keeps within it. */
  limits: ProfileLimits
  /** A batch running longer is stopped and counts as an attempt (BatchTimeoutError). */
  batchTimeoutMs: number
  /** How many passages one statement stores (storePassages): small on the embedded database, larger on a server. */
  passageStatement?: PassageStatementSize
}

/** What the worker's use cases run on. */
export interface WorkerDeps {
  uow: UnitOfWork
  profiles: ProfileRepository
  repo: ProcessingRepository
  submissions: SubmissionLifecycle
  queue: JobQueue
  ai: AiProviders
  /** Where merges run (off the main thread). */
  cpu: CpuPool
  log: Logger
  opts: ProcessingOptions
  /** A batch found the embedding column unlike this process's model (every batch it takes would fail so). */
  embeddingMismatch(): void
}

/** A profile leased to a round, with the submissions it extracts now. */
export interface Claimed {
  job: ProfileJob
  profile: ProfileRecord
  submissions: OpenSubmission[]
}

export type StatusEvent = EventMap['profileStatusChanged']

export function readyEvent(job: ProfileJob, seq: number): StatusEvent {
  return { tenantId: job.tenantId, profileId: job.profileId, status: 'ready', at: new Date().toISOString(), seq }
}

export const toJob = (profile: ProfileRecord): ProfileJob => ({
  tenantId: profile.tenant_id,
  profileId: profile.profile_id,
})

/** The reason a batch is stopped when it runs past its time budget: an attempt used, like a failed extraction. */
export class BatchTimeoutError extends Error {
  constructor(ms: number) {
    const budget = ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`
    super(`the batch took longer than its time budget of ${budget} (PROFILER_BATCH_TIMEOUT_MS) and was stopped`)
    this.name = 'BatchTimeoutError'
  }
}

/** The reason a batch is aborted when the process shuts down. */
export class ShutdownError extends Error {
  constructor() {
    super('the worker is shutting down')
    this.name = 'ShutdownError'
  }
}

/**
 * A batch's tokens shared by its submissions in whole tokens (the first ones take the remainder), summing exactly;
 * each share's total is its prompt plus completion whenever the provider's total is.
 */
export function shareUsage(usage: Usage, parts: number, part: number): Usage {
  const share = (t: number) => Math.floor(t / parts) + (part < t % parts ? 1 : 0)
  const promptTokens = share(usage.promptTokens)
  const completionTokens = share(usage.completionTokens)
  const additive = usage.totalTokens === usage.promptTokens + usage.completionTokens
  return {
    promptTokens,
    completionTokens,
    totalTokens: additive ? promptTokens + completionTokens : share(usage.totalTokens),
  }
}

/** The error, carrying the tokens spent before it (an Error gets a `usage` property; anything else is wrapped). */
export function withUsage(err: unknown, usage: Usage | undefined): unknown {
  if (!usage) return err
  const error = err instanceof Error ? err : new Error(String(err))
  return Object.assign(error, { usage })
}

/** pgvector's error when a vector does not fit the column: the column and the configured model disagree. */
export function isDimensionMismatch(err: unknown): boolean {
  const error = err as { message?: string; driverError?: { message?: string } }
  return /expected \d+ dimensions, not \d+/.test(`${error?.message ?? ''} ${error?.driverError?.message ?? ''}`)
}

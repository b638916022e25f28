import type { DataSource } from 'typeorm'
import { withSummary } from '../ai/profile-text.js'
import type { AiProviders, ExtractionInput, Usage } from '../ai/types.js'
import { sumUsage } from '../ai/usage.js'
import type { ProcessingRepository } from '../db/processing.repository.js'
import type { ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { SubmissionRepository, type StoredSubmission } from '../db/submission.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError, invalid } from '../domain/errors.js'
import { lexemesWith } from '../domain/lexical.js'
import type { MergeResult } from '../domain/merge.js'
import type { ProfileLimits } from '../domain/profile-limits.js'
import {
  emptyState,
  profileKey,
  type Extraction,
  type ProfileJob,
  type ProfileState,
  type Tombstone,
} from '../domain/profile.js'
import type { ReextractionChanges } from '../domain/reextract.js'
import type { CpuPool } from './cpu/cpu.js'
import type { StateJson } from '../domain/state-json.js'
import { parseStructured } from '../domain/structured.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import { RateLimitedError, type RequestBudget } from './budget.js'
import type { RequestContext } from './context.js'
import { profileWrite } from './worker/apply.js'
import { attachSchemas } from './worker/claim.js'
import { eventTime, extractBySchema, extractionInput, withCustom } from './worker/extract.js'
import { readyEvent } from './worker/round.js'

export interface ReextractOptions {
  /** Compute and return the diff only (the default): nothing is written. */
  dryRun: boolean
  /** Apply only if the profile is still at this version (the one a dry run reported); CONFLICT otherwise. */
  expectedVersion?: number
  /** The request budget the model requests are charged to (one operation per extraction request). */
  budgetKey?: string
}

export interface ReextractionResult {
  profileId: string
  dryRun: boolean
  /** True when the re-extracted state was written (not a dry run). */
  applied: boolean
  /** The profile version the diff was computed on. */
  version: number
  /** The version after the apply (absent for a dry run). */
  newVersion?: number
  /** What the re-extracted profile changes, adds and clears, compared with the profile at `version`. */
  changes: ReextractionChanges
  changed: boolean
  summary: string
  previousSummary: string | null
  /**
   * Applied submissions replayed, and those skipped because their text is gone (retention, or an import without it).
   */
  submissions: { reextracted: number; skippedWithoutText: number; skippedTooLarge: number }
  /** Extraction requests made (one per batch of at most PROFILER_BATCH_SIZE submissions). */
  batches: number
  usage?: Usage
}

/**
 * Re-extraction (docs/guides/profile-lifecycle.md): a profile's applied submissions replayed, oldest first and in
 * batches as the worker makes them, through the current extractor and prompt from an empty profile; the result compared
 * with the profile as it stands (a dry run stops there), then written through the worker's own writer as one update_log
 * entry (input_type 'reextraction'), with a new summary and embedding, and the same ready event as a worker's batch.
 * Bounded: at most `maxSubmissions` submissions per call, its model requests charged to the caller's request budget,
 * and one re-extraction per tenant at a time in a process. No lock is held while the model works: the apply re-checks
 * the version under the row lock.
 */
export class ReextractionService {
  private readonly uow: UnitOfWork
  private readonly submissions = new SubmissionRepository()
  private readonly running = new Set<string>()

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly processing: ProcessingRepository,
    private readonly ai: AiProviders,
    bus: EventBus,
    private readonly budget: RequestBudget | undefined,
    private readonly opts: { batchSize: number; maxSubmissions: number; limits: ProfileLimits; maxDataBytes?: number },
    /** Merges and the final diff run there, behind the work of requests and of the worker (background priority). */
    private readonly cpu: CpuPool,
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  async reextract(ctx: RequestContext, profileId: string, options: ReextractOptions): Promise<ReextractionResult> {
    checkProfileId(profileId)
    if (
      options.expectedVersion !== undefined &&
      (!Number.isInteger(options.expectedVersion) || options.expectedVersion < 0)
    ) {
      throw invalid('expected_version must be a whole number (the version a dry run reported)')
    }
    const manager = this.ds.manager
    const profile = await this.profiles.find(manager, ctx.tenantId, profileId)
    if (!profile) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    checkIdle(profile)
    if (!options.dryRun && options.expectedVersion !== undefined && options.expectedVersion !== profile.version)
      throw changedMeanwhile(options.expectedVersion, profile.version)
    const max = this.opts.maxSubmissions
    const stored = await this.submissions.applied(manager, ctx.tenantId, profileId, max + 1, this.opts.maxDataBytes)
    if (stored.length > max) {
      throw invalid(
        `Profile ${profileId} has more than ${max} applied submissions; ` +
          `a re-extraction replays at most ${max} (PROFILER_REEXTRACT_MAX_SUBMISSIONS)`,
      )
    }
    const usable = stored.filter(
      (submission): submission is StoredSubmission & { data: string } => submission.data !== null,
    )
    if (!usable.length) {
      throw new DomainError(
        'CONFLICT',
        `Profile ${profileId} has no submission whose text is kept: there is nothing to re-extract it from`,
      )
    }
    // Each submission is read with its app's current custom schema, as the worker reads it at its claim.
    await attachSchemas(manager, [{ tenantId: ctx.tenantId, submissions: usable }])
    const batches = Math.ceil(usable.length / this.opts.batchSize)
    if (this.running.has(ctx.tenantId)) {
      throw new RateLimitedError('A re-extraction of this tenant is already running; retry when it has finished', {
        allowed: false,
        limit: 1,
        remaining: 0,
        resetSeconds: 5,
      })
    }
    this.running.add(ctx.tenantId)
    try {
      // Each model request is one more operation of the caller's budget (the request itself paid one already).
      if (this.budget && options.budgetKey) this.budget.charge(options.budgetKey, batches)
      const rebuilt = await this.rebuild(usable, profile.internals.forgotten, ctx.signal)
      const before: ProfileState = {
        content: profile.content,
        field_timestamps: profile.field_timestamps,
        internals: profile.internals,
        ...(profile.language ? { language: profile.language } : {}),
      }
      // The diff of two whole profiles, on a CPU thread, behind the work requests wait for.
      const diff = await this.cpu.reextract(
        { before, rebuilt: rebuilt.state, now: rebuilt.now },
        { signal: ctx.signal, priority: 'background' },
      )
      const result: ReextractionResult = {
        profileId,
        dryRun: options.dryRun,
        applied: false,
        version: profile.version,
        changes: diff.changes,
        changed: diff.changed,
        summary: rebuilt.summary,
        previousSummary: profile.summary,
        submissions: {
          reextracted: usable.length,
          skippedWithoutText: stored.filter((s) => s.data === null && !s.too_large).length,
          skippedTooLarge: stored.filter((s) => s.too_large).length,
        },
        batches,
        ...(rebuilt.usage ? { usage: rebuilt.usage } : {}),
      }
      if (options.dryRun) return result
      const merged: MergeResult = { state: diff.state, changes: diff.changes, changed: diff.changed }
      const lexemes = lexemesWith(rebuilt.summary, diff.contentLexemes)
      // Only an apply needs the embedding: a dry run does not pay for it.
      const { vectors, usage: embedUsage } = await this.ai.embedder.embed(
        [withSummary(rebuilt.summary, diff.lines)],
        ctx.signal,
      )
      const newVersion = await this.apply(
        ctx,
        profile,
        { merged, now: rebuilt.now, summary: rebuilt.summary, vector: vectors[0]!, lexemes, json: diff.json },
        usable.map((s) => s.id),
      )
      const usage = sumUsage([rebuilt.usage, embedUsage])
      return { ...result, applied: true, newVersion, ...(usage ? { usage } : {}) }
    } finally {
      this.running.delete(ctx.tenantId)
    }
  }

  /**
   * The submissions replayed from an empty profile, in the worker's batches; then summarized and embedded. The
   * profile's tombstones come along: a value forgotten after a submission was accepted stays forgotten when that
   * submission is replayed (each is merged as evidence of the time it was accepted).
   */
  private async rebuild(
    subs: (StoredSubmission & { data: string })[],
    forgotten: Tombstone[] | undefined,
    signal?: AbortSignal,
  ) {
    let state = emptyState()
    if (forgotten?.length) state.internals.forgotten = structuredClone(forgotten)
    let usage: Usage | undefined
    let summary: string | undefined
    const now = new Date().toISOString()
    // The summary follows the instructions of the app of the newest submission, as the worker's batches do.
    const instructions = subs[subs.length - 1]!.instructions
    for (let i = 0; i < subs.length; i += this.opts.batchSize) {
      const batch = subs.slice(i, i + this.opts.batchSize)
      const extractedBatch = batch.filter((s) => s.input_type !== 'structured')
      const toExtract: ExtractionInput[] = extractedBatch.map(extractionInput)
      const extracted = toExtract.length
        ? await extractBySchema(this.ai, state.content, extractedBatch, toExtract, instructions, signal, {
            background: true,
          })
        : { extractions: [] as Extraction[], usage: undefined, summary: undefined }
      usage = sumUsage([usage, extracted.usage])
      if (extracted.extractions.length !== toExtract.length)
        throw new Error('extractor returned a wrong number of extractions')
      // A submission the configured model cannot take as it is (its context or output cap is smaller than the one that
      // extracted it): replaying the others would silently leave its facts out, so nothing is rebuilt.
      const unfit = extracted.failed?.[0]
      if (unfit)
        throw new DomainError(
          'CONFLICT',
          `Submission ${unfit.submissionId} ${unfit.error}; the profile cannot be re-extracted with this model`,
        )
      const byId = new Map(toExtract.map((s, k) => [s.submissionId, extracted.extractions[k]!]))
      // Custom values only where the submitting app's schema declares them, as in the worker.
      const extractions = batch.map((submission) =>
        withCustom(
          submission.input_type === 'structured' ? parseStructured(submission.data) : byId.get(submission.id)!,
          submission,
        ),
      )
      const acceptedAt = batch.map((s) => s.created_at)
      const occurredAt = batch.map(eventTime)
      state = (
        await this.cpu.merge(
          { state, extractions, now, acceptedAt, occurredAt, limits: this.opts.limits },
          { signal, priority: 'background' },
        )
      ).merged.state
      // As in the worker: a summary written by the extraction request knows only what the model saw.
      summary = extracted.summary && toExtract.length === batch.length ? extracted.summary : undefined
    }
    if (summary === undefined) {
      const summarized = await this.ai.summarizer.summarize(state.content, signal, instructions)
      summary = summarized.summary
      usage = sumUsage([usage, summarized.usage])
    }
    return { state, summary, now, usage }
  }

  /** Writes the rebuilt state if the profile is still as it was read; returns its new version. */
  private async apply(
    ctx: RequestContext,
    read: ProfileRecord,
    prepared: { merged: MergeResult; now: string; summary: string; vector: number[]; lexemes: string; json: StateJson },
    submissionIds: string[],
  ): Promise<number> {
    const job: ProfileJob = { tenantId: ctx.tenantId, profileId: read.profile_id }
    return this.uow.run(ctx, async (tx) => {
      const [cur] = await this.processing.lock(tx.manager, [job])
      if (!cur) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${read.profile_id} not found`)
      if (cur.version !== read.version) throw changedMeanwhile(read.version, cur.version)
      checkIdle(cur)
      const result = await this.processing.apply(
        tx.manager,
        [profileWrite(job, cur, prepared, 'reextraction', submissionIds)],
        this.ai.embedder.model,
      )
      const written = result.get(profileKey(job))
      if (written?.seq !== undefined) tx.raise('profileStatusChanged', readyEvent(job, written.seq))
      return cur.version + 1
    })
  }
}

/** A profile with submissions in flight changes under the re-extraction: it waits until the profile is ready. */
function checkIdle(profile: ProfileRecord) {
  if (profile.status !== 'ready' || profile.leased) {
    throw new DomainError(
      'CONFLICT',
      `Profile ${profile.profile_id} is processing submissions; re-extract it once it is ready`,
    )
  }
}

const changedMeanwhile = (expected: number, now: number) =>
  new DomainError(
    'CONFLICT',
    `The profile changed since version ${expected} (it is at version ${now} now): run the dry run again and apply that`,
  )

import { randomUUID } from 'node:crypto'
import type { DataSource, EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import type { Logger } from 'pino'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders, ExtractionInput, Usage } from '../ai/types.js'
import { sumUsage } from '../ai/usage.js'
import { LlmUnavailableError } from '../ai/errors.js'
import type { ProcessingRepository, ProfileWrite } from '../db/processing.repository.js'
import type { ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { SubmissionLifecycle } from '../db/submission-lifecycle.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { isConnectionError } from '../domain/errors.js'
import { merge } from '../domain/merge.js'
import { profileKey, type Extraction, type ProfileJob, type ProfileState } from '../domain/profile.js'
import { parseStructured } from '../domain/structured.js'
import type { EventBus, EventMap } from '../events/event-bus.js'
import type { JobQueue, QueuedJob } from '../jobs/queue.js'
import { chooseBatch, distinctProfiles, retryDelayMs, type OpenSubmission } from '../domain/worker-policy.js'

export interface ProcessingOptions {
  workerId: string
  batchSize: number
  maxAttempts: number
  leaseSeconds: number
  retryBaseMs: number
}

/** A profile leased to a round, with the submissions it extracts now. */
interface Claimed {
  job: ProfileJob
  profile: ProfileRecord
  submissions: OpenSubmission[]
}

type Prepared = Awaited<ReturnType<ProcessingService['prepare']>>
type StatusEvent = EventMap['profileStatusChanged']

/**
 * Applies profiles' pending submissions, oldest first, exactly once, many profiles at a time. A round takes the jobs
 * of one fetch and repeats, while any of its profiles has more: claim (one short transaction for all: profile leases
 * and the chosen submissions marked processing) -> extract, summarize, embed with no transaction open, the profiles
 * side by side -> apply (one short transaction for all that re-checks each lease, so a delete or a lost lease wins).
 * A profile whose extraction fails takes its own way (retry with backoff, fail, or wait for the provider) without
 * holding up the others; if the shared apply fails, each profile is applied alone, so one cannot sink the rest.
 */
export class ProcessingService {
  /** Rounds in flight, so that a shutdown can wait for them or make them give their leases back. */
  private readonly inflight = new Set<{ abort: AbortController; done: Promise<unknown> }>()
  private stopping = false
  private readonly uow: UnitOfWork
  /** The submissions' state changes (retry, fail, defer, give back). */
  private readonly submissions = new SubmissionLifecycle()

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly repo: ProcessingRepository,
    private readonly queue: JobQueue,
    private readonly ai: AiProviders,
    bus: EventBus,
    private readonly log: Logger,
    private readonly opts: ProcessingOptions,
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  /** One round over the profiles the jobs name; the jobs are completed when it ends (failed if it broke). */
  async processJobs(jobs: QueuedJob[]): Promise<void> {
    const ids = jobs.map((j) => j.id)
    const run = (async () => {
      try {
        await this.processProfiles(distinctProfiles(jobs.map((j) => j.data)))
      } catch (err) {
        await this.queue.fail(ids, err).catch(() => undefined)
        throw err
      }
      await this.queue.complete(ids)
    })()
    // A shutdown waits for the jobs' completion too, not only for the work, before the queue stops.
    const settled = run.then(
      () => undefined,
      () => undefined,
    )
    this.settling.add(settled)
    try {
      await run
    } finally {
      this.settling.delete(settled)
    }
  }
  private readonly settling = new Set<Promise<void>>()

  /** Processes the profiles until none has work this process may do now. */
  async processProfiles(jobs: ProfileJob[]): Promise<void> {
    if (this.stopping) {
      // Fetched just before the shutdown: leave the work for a live worker.
      for (const job of jobs) await this.queue.enqueue(job)
      return
    }
    // Unique per round: concurrent rounds of one process must not pass each other's lease check.
    const owner = `${this.opts.workerId}:${randomUUID().slice(0, 8)}`
    const abort = new AbortController()
    const entry = { abort, done: Promise.resolve() as Promise<unknown> }
    this.inflight.add(entry)
    const work = (async () => {
      let todo = jobs
      for (let round = 0; todo.length && round < 1000; round++) {
        const claimed = await this.claim(todo, owner)
        if (!claimed.length) return
        todo = await this.runBatches(claimed, owner, abort.signal)
        if (todo.length && this.stopping) {
          // More waits, and this process is going: release the profiles and queue them for another worker.
          await this.uow.run(undefined, async ({ manager: m }) => {
            await this.repo.release(m, todo, owner)
            for (const job of todo) await this.queue.enqueue(job, { tx: m })
          })
          return
        }
      }
    })()
    entry.done = work.catch(() => undefined)
    try {
      await work
    } finally {
      this.inflight.delete(entry)
    }
  }

  /**
   * Claims what each profile may run now, in one transaction. Profiles with nothing open turn ready; one whose oldest
   * submission waits for its retry is queued again for then; one leased by another worker is left to it (it re-counts
   * open submissions under the row lock before it lets go, so it takes ours too; if it dies, the reconciler re-enqueues).
   */
  private async claim(jobs: ProfileJob[], owner: string): Promise<Claimed[]> {
    return this.uow.run(undefined, async (tx) => {
      const m = tx.manager
      const locked = (await this.repo.lock(m, jobs)).filter((p) => !p.leased || p.claimed_by === owner)
      if (!locked.length) return []
      const open = await this.repo.open(m, locked.map(toJob), this.opts.batchSize)
      const out: Claimed[] = []
      const none: ProfileRecord[] = []
      const later: { job: ProfileJob; afterSeconds: number }[] = []
      for (const profile of locked) {
        const choice = chooseBatch(open.get(profileKey(toJob(profile))) ?? [])
        if (choice.kind === 'none') none.push(profile)
        else if (choice.kind === 'later') later.push({ job: toJob(profile), afterSeconds: choice.afterSeconds })
        else out.push({ job: toJob(profile), profile, submissions: choice.submissions.map((s) => ({ ...s, attempts: s.attempts + 1 })) })
      }
      if (none.length) {
        const seqs = await this.repo.settleReady(m, none)
        for (const p of none) {
          const seq = seqs.get(profileKey(toJob(p)))
          if (seq !== undefined) tx.raise('profileStatusChanged', this.readyEvent(toJob(p), seq))
        }
      }
      if (later.length) {
        await this.repo.release(m, later.map((l) => l.job), owner)
        for (const l of later) await this.queue.enqueue(l.job, { tx: m, startAfterSeconds: l.afterSeconds })
      }
      if (out.length) {
        const subs = out.flatMap((c) => c.submissions.map((s) => ({ tenantId: c.job.tenantId, id: s.id })))
        await this.repo.claim(m, out.map((c) => c.job), subs, owner, this.opts.leaseSeconds)
      }
      return out
    })
  }

  /** Extracts and applies the claimed profiles; returns those with more to do. */
  private async runBatches(claimed: Claimed[], owner: string, signal: AbortSignal): Promise<ProfileJob[]> {
    const jobs = claimed.map((c) => c.job)
    const heartbeat = setInterval(() => {
      this.repo.heartbeat(this.ds, jobs, owner, this.opts.leaseSeconds).catch((e) => this.log.warn({ err: e }, 'lease heartbeat failed'))
    }, (this.opts.leaseSeconds * 1000) / 3)
    const outcomes = await Promise.all(
      claimed.map((c) =>
        this.prepare(c.profile, c.submissions, signal).then(
          (prepared) => ({ c, prepared }),
          (err: unknown) => ({ c, err }),
        ),
      ),
    ).finally(() => clearInterval(heartbeat))
    const more: ProfileJob[] = []
    const ready: { c: Claimed; prepared: Prepared }[] = []
    for (const o of outcomes) {
      if ('prepared' in o) ready.push(o)
      else if (signal.aborted) await this.giveBack(o.c.job, owner, o.c.submissions)
      else if (await this.fail(o.c.job, owner, o.c.submissions, o.err)) more.push(o.c.job)
    }
    if (!ready.length) return more
    try {
      more.push(...(await this.apply(ready, owner)))
    } catch (err) {
      // An outage is pg-boss's to retry; anything else is tried profile by profile, so one cannot sink the others.
      if (isConnectionError(err) || ready.length === 1) {
        if (isConnectionError(err)) throw err
        if (await this.fail(ready[0]!.c.job, owner, ready[0]!.c.submissions, withUsage(err, ready[0]!.prepared.usage))) more.push(ready[0]!.c.job)
        return more
      }
      for (const r of ready) {
        try {
          more.push(...(await this.apply([r], owner)))
        } catch (one) {
          if (isConnectionError(one)) throw one
          if (await this.fail(r.c.job, owner, r.c.submissions, withUsage(one, r.prepared.usage))) more.push(r.c.job)
        }
      }
    }
    return more
  }

  /** Everything slow (AI calls) happens here, with no transaction open. */
  private async prepare(profile: ProfileRecord, subs: OpenSubmission[], signal?: AbortSignal) {
    const state: ProfileState = {
      content: profile.content,
      field_timestamps: profile.field_timestamps,
      internals: profile.internals,
      ...(profile.language ? { language: profile.language } : {}),
    }
    // What the AI calls cost so far travels with any error, so a failed attempt is still accounted.
    let spent: Usage | undefined
    const spend = (u: Usage | undefined) => (spent = sumUsage([spent, u]))
    try {
      const toExtract: ExtractionInput[] = subs
        .filter((s) => s.input_type !== 'structured')
        .map((s) => ({ submissionId: s.id, inputType: s.input_type as ExtractionInput['inputType'], data: s.data }))
      const extracted = toExtract.length
        ? await this.ai.extractor.extract({ profile: profile.content, submissions: toExtract }, signal)
        : { extractions: [] as Extraction[], usage: undefined, promptVersion: undefined, summary: undefined, evidence: undefined }
      spend(extracted.usage)
      if (extracted.extractions.length !== toExtract.length) throw new Error('extractor returned a wrong number of extractions')
      const byId = new Map(toExtract.map((s, i) => [s.submissionId, extracted.extractions[i]!]))
      const extractions = subs.map((s) => (s.input_type === 'structured' ? parseStructured(s.data) : byId.get(s.id)!))
      const now = new Date().toISOString()
      const merged = merge(state, extractions, now)
      // A provider whose extraction request also wrote the summary saves a request per batch; that summary only
      // knows what the model saw, so a batch with structured submissions gets its own.
      const modelSawAll = toExtract.length === subs.length
      const { summary, usage: summaryUsage } =
        extracted.summary && modelSawAll ? { summary: extracted.summary, usage: undefined } : await this.ai.summarizer.summarize(merged.state.content, signal)
      spend(summaryUsage)
      signal?.throwIfAborted()
      const { vectors, usage: embedUsage } = await this.ai.embedder.embed([profileText(merged.state.content, summary)], signal)
      spend(embedUsage)
      const provenance = subs.map((s, i) =>
        s.input_type === 'structured'
          ? { extraction: extractions[i] }
          : { extraction: byId.get(s.id), evidence: extracted.evidence?.[toExtract.findIndex((t) => t.submissionId === s.id)] },
      )
      return { merged, summary, vector: vectors[0]!, now, usage: spent, provenance, promptVersion: extracted.promptVersion }
    } catch (err) {
      throw withUsage(err, sumUsage([spent, (err as { usage?: Usage })?.usage]))
    }
  }

  /** Applies prepared profiles in one transaction; returns those with more submissions open. */
  private async apply(ready: { c: Claimed; prepared: Prepared }[], owner: string): Promise<ProfileJob[]> {
    const more: ProfileJob[] = []
    let dropped = 0
    await this.uow.run(undefined, async (tx) => {
      const m = tx.manager
      const current = new Map((await this.repo.lock(m, ready.map((r) => r.c.job))).map((p) => [profileKey(toJob(p)), p]))
      const writes: ProfileWrite[] = []
      for (const { c, prepared: p } of ready) {
        const cur = current.get(profileKey(c.job))
        // Deleted, or our lease lapsed and another worker took over: drop the work.
        if (!cur || cur.claimed_by !== owner) {
          dropped++
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
      const result = await this.repo.apply(m, writes, this.ai.embedder.model)
      for (const w of writes) {
        const r = result.get(profileKey(w.job))
        if (!r) continue
        if (r.seq !== undefined) tx.raise('profileStatusChanged', this.readyEvent(w.job, r.seq))
        if (r.remaining > 0) more.push(w.job)
      }
    })
    if (dropped) this.log.info({ dropped }, 'profiles deleted or leases lost while processing; their batches dropped')
    return more
  }

  /**
   * A failure that is not the submissions' fault (the provider's circuit is open; the embedding column was changed
   * under this process by a reindex for another model): they go back to pending without using up an attempt, with
   * the reason as their error, and the profile is queued again for later.
   */
  private async defer(job: ProfileJob, owner: string, subs: OpenSubmission[], reason: string, afterSeconds: number): Promise<boolean> {
    const wait = Math.max(1, Math.ceil(afterSeconds))
    await this.uow.run(undefined, async ({ manager: m }) => {
      const cur = await this.profiles.find(m, job.tenantId, job.profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return
      await this.submissions.defer(m, job.tenantId, subs.map((s) => s.id), reason, wait)
      await this.repo.release(m, [job], owner)
      await this.queue.enqueue(job, { tx: m, startAfterSeconds: wait })
    })
    return false
  }

  /** Adds what a batch cost (every request, failed ones included) to its submissions. */
  private async recordUsage(m: EntityManager, tenantId: string, ids: string[], usage: Usage | undefined) {
    if (!usage || !usage.totalTokens) return
    for (const [i, id] of ids.entries()) await this.submissions.addUsage(m, tenantId, id, shareUsage(usage, ids.length, i))
  }

  /**
   * Shutdown: rounds in flight get `graceMs` to finish; those still extracting then give their leases and their
   * submissions back (attempts not used up) and re-enqueue the profiles, so another worker takes them at once.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    const all = () => Promise.all([...this.inflight].map((b) => b.done))
    let timer: NodeJS.Timeout | undefined
    const timedOut = await Promise.race([all().then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))])
    clearTimeout(timer)
    if (timedOut) {
      for (const b of this.inflight) b.abort.abort(new ShutdownError())
      await all()
    }
    await Promise.all(this.settling)
  }

  /** Extraction failed: retry later with backoff, or mark failed after the last attempt. Nothing is merged. */
  private async fail(job: ProfileJob, owner: string, subs: OpenSubmission[], err: unknown): Promise<boolean> {
    const { tenantId, profileId } = job
    const message = err instanceof Error ? err.message : String(err)
    if (isDimensionMismatch(err)) {
      this.log.error(
        { tenantId, profileId, err: message },
        "the embedding column does not match this process's embedding model: restart it with the configuration the database was reindexed for",
      )
      return this.defer(job, owner, subs, `waiting for a worker configured for the database's embeddings: ${message}`, 5)
    }
    // The provider's circuit is open: an outage is not the submissions' fault, so they wait without using an attempt.
    if (err instanceof LlmUnavailableError) return this.defer(job, owner, subs, message, err.retryAfterMs / 1000)
    this.log.warn({ tenantId, profileId, err: message }, 'extraction failed')
    return this.uow.run(undefined, async (tx) => {
      const m = tx.manager
      const cur = await this.profiles.find(m, tenantId, profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return false
      await this.recordUsage(m, tenantId, subs.map((s) => s.id), (err as { usage?: Usage })?.usage)
      let retryIn = 0
      for (const s of subs) {
        if (s.attempts >= this.opts.maxAttempts) await this.submissions.fail(m, tenantId, s.id, message)
        else {
          const delayMs = retryDelayMs(s.attempts, this.opts.retryBaseMs)
          retryIn = Math.max(retryIn, delayMs / 1000)
          await this.submissions.retry(m, tenantId, s.id, message, delayMs / 1000)
        }
      }
      await this.repo.release(m, [job], owner)
      const n = await this.submissions.countOpen(m, tenantId, profileId)
      if (n === 0) {
        const seqs = await this.repo.settleReady(m, [cur])
        const seq = seqs.get(profileKey(job))
        if (seq !== undefined) tx.raise('profileStatusChanged', this.readyEvent(job, seq))
        return false
      }
      if (retryIn > 0) await this.queue.enqueue(job, { tx: m, startAfterSeconds: retryIn })
      return retryIn === 0
    })
  }

  /** A batch interrupted by a shutdown: its submissions are pending again, as if never tried, and the profile queued. */
  private async giveBack(job: ProfileJob, owner: string, subs: OpenSubmission[]): Promise<void> {
    await this.uow.run(undefined, async ({ manager: m }) => {
      const cur = await this.profiles.find(m, job.tenantId, job.profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return
      await this.submissions.giveBack(m, job.tenantId, subs.map((s) => s.id))
      await this.repo.release(m, [job], owner)
      await this.queue.enqueue(job, { tx: m })
    })
    this.log.info({ tenantId: job.tenantId, profileId: job.profileId }, 'shutting down: batch handed back to the queue')
  }

  private readyEvent(job: ProfileJob, seq: number): StatusEvent {
    return { tenantId: job.tenantId, profileId: job.profileId, status: 'ready', at: new Date().toISOString(), seq }
  }
}

const toJob = (p: ProfileRecord): ProfileJob => ({ tenantId: p.tenant_id, profileId: p.profile_id })

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
export function shareUsage(u: Usage, n: number, i: number): Usage {
  const share = (t: number) => Math.floor(t / n) + (i < t % n ? 1 : 0)
  const promptTokens = share(u.promptTokens)
  const completionTokens = share(u.completionTokens)
  const additive = u.totalTokens === u.promptTokens + u.completionTokens
  return { promptTokens, completionTokens, totalTokens: additive ? promptTokens + completionTokens : share(u.totalTokens) }
}

/** The error, carrying the tokens spent before it (an Error gets a `usage` property; anything else is wrapped). */
function withUsage(err: unknown, usage: Usage | undefined): unknown {
  if (!usage) return err
  const e = err instanceof Error ? err : new Error(String(err))
  return Object.assign(e, { usage })
}

/** pgvector's error when a vector does not fit the column: the column and the configured model disagree. */
function isDimensionMismatch(err: unknown): boolean {
  const e = err as { message?: string; driverError?: { message?: string } }
  return /expected \d+ dimensions, not \d+/.test(`${e?.message ?? ''} ${e?.driverError?.message ?? ''}`)
}

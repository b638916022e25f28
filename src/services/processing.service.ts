import { randomUUID } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import type { DataSource } from 'typeorm'
import type { Logger } from 'pino'
import type { AiProviders } from '../ai/types.js'
import type { ProcessingRepository } from '../db/processing.repository.js'
import type { ProfileRepository } from '../db/profile.repository.js'
import { SubmissionLifecycle } from '../db/submission-lifecycle.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { isConnectionError } from '../domain/errors.js'
import type { ProfileJob } from '../domain/profile.js'
import { distinctProfiles } from '../domain/worker-policy.js'
import type { EventBus } from '../events/event-bus.js'
import type { JobQueue, QueuedJob } from '../jobs/queue.js'
import type { Metrics } from '../metrics/metrics.js'
import { applyRound } from './worker/apply.js'
import { hideForgotten, storePassages } from './worker/passages.js'
import { ProvenanceRepository } from '../db/provenance.repository.js'
import { PassageRepository } from '../db/passage.repository.js'
import { claimRound } from './worker/claim.js'
import { extractProfile, type Prepared } from './worker/extract.js'
import {
  BatchTimeoutError,
  ShutdownError,
  withUsage,
  type Claimed,
  type ProcessingOptions,
  type WorkerDeps,
} from './worker/round.js'
import { failBatch, giveBack } from './worker/settle.js'
import { batchOutcome, endBatch, traceBatch, type BatchTrace } from './worker/trace.js'
import { failed, startSpan, within } from '../tracing/tracing.js'
import type { CpuPool } from './cpu/cpu.js'

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
  private readonly passages = new PassageRepository()
  private readonly provenance = new ProvenanceRepository()
  private readonly inflight = new Set<{ abort: AbortController; done: Promise<unknown> }>()
  private stopping = false
  /** What the use cases of a round (src/services/worker: claim, extract, apply, settle a failure) run on. */
  private readonly deps: WorkerDeps
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    profiles: ProfileRepository,
    private readonly repo: ProcessingRepository,
    private readonly queue: JobQueue,
    ai: AiProviders,
    bus: EventBus,
    private readonly log: Logger,
    private readonly opts: ProcessingOptions,
    private readonly metrics: Metrics,
    cpu: CpuPool,
  ) {
    this.uow = new UnitOfWork(ds, bus)
    this.deps = {
      uow: this.uow,
      profiles,
      repo,
      submissions: new SubmissionLifecycle(),
      queue,
      ai,
      cpu,
      log,
      opts,
      embeddingMismatch: () => {
        for (const listener of this.mismatchListeners) listener()
      },
    }
  }

  private readonly mismatchListeners = new Set<() => void>()

  /**
   * Called when a batch finds the embedding column unlike this process's embedding model (after a reindex for another
   * model): every batch this process takes would fail the same way until it is restarted with the database's
   * configuration. Returns the unsubscribe.
   */
  onEmbeddingMismatch(listener: () => void): () => void {
    this.mismatchListeners.add(listener)
    return () => this.mismatchListeners.delete(listener)
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
    // Every batch of the round listens on this one signal (each AI request adds a listener and removes it when done),
    // so a round of many profiles has many at once by design: no leak, and Node's warning past 10 would only be noise.
    setMaxListeners(0, abort.signal)
    const entry = { abort, done: Promise.resolve() as Promise<unknown> }
    this.inflight.add(entry)
    const work = (async () => {
      let todo = jobs
      for (let round = 0; todo.length && round < 1000; round++) {
        const claimed = await claimRound(this.deps, todo, owner)
        if (!claimed.length) return
        todo = await this.runBatches(claimed, owner, abort.signal)
        if (todo.length && this.stopping) {
          // More waits, and this process is going: release the profiles and queue them for another worker.
          await this.uow.run(undefined, async (tx) => {
            await this.repo.release(tx.manager, todo, owner)
            for (const job of todo) await this.queue.enqueue(job, { tx })
          })
          return
        }
      }
    })()
    entry.done = work.catch(() => undefined)
    try {
      await work
    } catch (err) {
      if (isConnectionError(err)) await this.releaseAfterOutage(jobs, owner)
      throw err
    } finally {
      this.inflight.delete(entry)
    }
  }

  /**
   * A round cut short by a lost connection gives its leases back at once, on whatever connection works now, so that
   * pg-boss's retry of its jobs claims the work in seconds. When the database is still out of reach the leases run out
   * instead, and the reconciler queues the work again.
   */
  private async releaseAfterOutage(jobs: ProfileJob[], owner: string): Promise<void> {
    await this.uow
      .run(undefined, ({ manager }) => this.repo.release(manager, jobs, owner))
      .catch((err: unknown) => this.log.warn({ err }, 'leases not given back after a lost connection; they run out'))
  }

  /** Extracts and applies the claimed profiles; returns those with more to do. */
  private async runBatches(claimed: Claimed[], owner: string, signal: AbortSignal): Promise<ProfileJob[]> {
    const traces = new Map(claimed.map((c) => [c, traceBatch(c.job, c.submissions)]))
    try {
      return await this.extractAndApply(claimed, traces, owner, signal)
    } catch (err) {
      // The round broke (a lost database): pg-boss retries its jobs.
      for (const trace of traces.values()) if (!trace.outcome) batchOutcome(trace, 'error', err)
      throw err
    } finally {
      for (const trace of traces.values()) endBatch(trace)
    }
  }

  private async extractAndApply(
    claimed: Claimed[],
    traces: Map<Claimed, BatchTrace>,
    owner: string,
    signal: AbortSignal,
  ): Promise<ProfileJob[]> {
    // The lease lives as long as the round holds its profiles: through the extraction, the evidence and the apply (on a
    // loaded sharded database those took longer than a short lease, which then lapsed, and another worker took the
    // profile over and over until its submissions had used up their attempts).
    const jobs = claimed.map((c) => c.job)
    const heartbeat = setInterval(
      () => {
        this.repo
          .heartbeat(this.ds, jobs, owner, this.opts.leaseSeconds)
          .catch((e) => this.log.warn({ err: e }, 'lease heartbeat failed'))
      },
      (this.opts.leaseSeconds * 1000) / 3,
    )
    try {
      return await this.extractAndApplyLeased(claimed, traces, owner, signal)
    } finally {
      clearInterval(heartbeat)
    }
  }

  private async extractAndApplyLeased(
    claimed: Claimed[],
    traces: Map<Claimed, BatchTrace>,
    owner: string,
    signal: AbortSignal,
  ): Promise<ProfileJob[]> {
    const outcomes = await Promise.all(
      claimed.map((batch) => {
        // Each batch within its time budget: past it, everything it runs (model requests, the extraction and merge
        // threads) is stopped and the batch counts as an attempt, so no batch can hold its profile for ever.
        const budget = new AbortController()
        const timer = setTimeout(
          () => budget.abort(new BatchTimeoutError(this.opts.batchTimeoutMs)),
          this.opts.batchTimeoutMs,
        )
        const deps = { ai: this.deps.ai, cpu: this.deps.cpu, limits: this.opts.limits }
        return within(traces.get(batch)!.ctx, () =>
          extractProfile(deps, batch.profile, batch.submissions, AbortSignal.any([signal, budget.signal])),
        )
          .then(
            (prepared) => ({ batch, prepared }),
            (err: unknown) => ({
              batch,
              err:
                budget.signal.aborted && !signal.aborted
                  ? withUsage(budget.signal.reason, (err as { usage?: never })?.usage)
                  : err,
            }),
          )
          .finally(() => clearTimeout(timer))
      }),
    )
    const more: ProfileJob[] = []
    const ready: { batch: Claimed; prepared: Prepared }[] = []
    const count = (cs: { batch: Claimed }[]) => cs.reduce((n, { batch }) => n + batch.submissions.length, 0)
    const fail = async (batch: Claimed, err: unknown) => {
      this.metrics.workerBatch('failed', batch.submissions.length)
      if (await failBatch(this.deps, batch.job, owner, batch.submissions, err, traces.get(batch))) more.push(batch.job)
    }
    for (const outcome of outcomes) {
      const trace = traces.get(outcome.batch)
      if ('prepared' in outcome) ready.push(outcome)
      else if (signal.aborted) {
        await giveBack(this.deps, outcome.batch.job, owner, outcome.batch.submissions, trace)
        this.metrics.workerBatch('handed_back', outcome.batch.submissions.length)
      } else await fail(outcome.batch, outcome.err)
    }
    if (!ready.length) return more
    // What was said, stored ahead of the apply in small statements (src/services/worker/passages.ts), then what a
    // forget took away hidden. The profile's values do not wait for their evidence; the submission's text is kept.
    const evidenceLost = (item: { batch: Claimed }, err: unknown) =>
      this.log.warn(
        { tenantId: item.batch.job.tenantId, profileId: item.batch.job.profileId, err },
        'evidence passages not stored',
      )
    const keep = this.opts.limits.passagesPerProfile
    try {
      await storePassages(
        this.ds,
        this.passages,
        ready.map((r) => ({ job: r.batch.job, passages: r.prepared.passages })),
        keep,
        this.opts.passageStatement,
      )
    } catch (err) {
      if (isConnectionError(err)) throw err
      // Profile by profile, so that one that cannot be stored does not lose the others' evidence.
      for (const item of ready) {
        await storePassages(
          this.ds,
          this.passages,
          [{ job: item.batch.job, passages: item.prepared.passages }],
          keep,
          this.opts.passageStatement,
        ).catch((one: unknown) => {
          if (isConnectionError(one)) throw one
          evidenceLost(item, one)
        })
      }
    }
    for (const item of ready) {
      try {
        await hideForgotten(this.ds, this.provenance, item.batch.job, {
          forgotten: item.batch.profile.internals.forgotten,
          acceptedAt: item.batch.submissions.map((s) => s.created_at),
          language: item.batch.profile.language,
        })
      } catch (err) {
        if (isConnectionError(err)) throw err
        evidenceLost(item, err)
      }
    }
    // The apply is one transaction for the round; each profile's trace shows it as its `publish`.
    const publishing = ready.map((item) =>
      startSpan('publish', {
        parent: traces.get(item.batch)!.ctx,
        attributes: { 'profiler.round_profiles': ready.length },
      }),
    )
    // Batches a forget or rollback overtook went back to the queue: counted and traced as such, not as applied.
    const applied = (round: { more: ProfileJob[]; requeued: Claimed[] }, total: number) => {
      more.push(...round.more)
      const requeued = round.requeued.reduce((n, c) => n + c.submissions.length, 0)
      for (const batch of round.requeued) batchOutcome(traces.get(batch), 'requeued')
      this.metrics.workerBatch('requeued', requeued)
      this.metrics.workerBatch('applied', total - requeued)
    }
    try {
      applied(await applyRound(this.deps, ready, owner), count(ready))
    } catch (err) {
      // An outage is pg-boss's to retry; anything else is tried profile by profile, so one cannot sink the others.
      if (isConnectionError(err) || ready.length === 1) {
        publishing.forEach((span) => failed(span, err))
        if (isConnectionError(err)) throw err
        await fail(ready[0]!.batch, withUsage(err, ready[0]!.prepared.usage))
        return more
      }
      for (const [i, item] of ready.entries()) {
        try {
          applied(await applyRound(this.deps, [item], owner), item.batch.submissions.length)
        } catch (one) {
          failed(publishing[i], one)
          if (isConnectionError(one)) throw one
          await fail(item.batch, withUsage(one, item.prepared.usage))
        }
      }
    } finally {
      publishing.forEach((span) => span?.end())
    }
    return more
  }

  /**
   * Shutdown: rounds in flight get `graceMs` to finish; those still extracting then give their leases and their
   * submissions back (attempts not used up) and re-enqueue the profiles, so another worker takes them at once.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    const all = () => Promise.all([...this.inflight].map((b) => b.done))
    let timer: NodeJS.Timeout | undefined
    const timedOut = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
    ])
    clearTimeout(timer)
    if (timedOut) {
      for (const round of this.inflight) round.abort.abort(new ShutdownError())
      await all()
    }
    await Promise.all(this.settling)
  }
}

import { randomUUID } from 'node:crypto'
import type { DataSource, EntityManager } from 'typeorm'
import { toSql } from 'pgvector'
import type { Logger } from 'pino'
import { profileText } from '../ai/profile-text.js'
import type { AiProviders, ExtractionInput, Usage } from '../ai/types.js'
import { sumUsage } from '../ai/usage.js'
import { LlmUnavailableError } from '../ai/errors.js'
import type { ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { isConnectionError } from '../domain/errors.js'
import { merge } from '../domain/merge.js'
import type { Extraction, InputType, ProfileState } from '../domain/profile.js'
import { parseStructured } from '../domain/structured.js'
import type { EventBus, EventMap } from '../events/event-bus.js'
import type { JobQueue, ProfileJob } from '../jobs/queue.js'

export interface ProcessingOptions {
  workerId: string
  batchSize: number
  maxAttempts: number
  leaseSeconds: number
  retryBaseMs: number
}

interface ClaimedSubmission {
  id: string
  input_type: InputType
  data: string
  attempts: number
}

type Claim =
  | { kind: 'none' }
  | { kind: 'busy' }
  | { kind: 'later'; afterSeconds: number }
  | { kind: 'batch'; profile: ProfileRecord; submissions: ClaimedSubmission[] }

/**
 * Applies a profile's pending submissions, oldest first, exactly once:
 * claim (short transaction: profile lease + submissions marked processing) -> extract, summarize, embed with no
 * transaction open -> apply (short transaction that re-checks the lease, so a delete or a lost lease wins).
 */
export class ProcessingService {
  /** Batches in flight, so that a shutdown can wait for them or make them give their lease back. */
  private readonly inflight = new Set<{ abort: AbortController; done: Promise<unknown> }>()
  private stopping = false

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly queue: JobQueue,
    private readonly ai: AiProviders,
    private readonly bus: EventBus,
    private readonly log: Logger,
    private readonly opts: ProcessingOptions,
  ) {}

  async processProfile(job: ProfileJob): Promise<void> {
    if (this.stopping) {
      // Fetched just before the shutdown: leave the work for a live worker.
      await this.queue.enqueue(job)
      return
    }
    // Unique per call: concurrent job slots of one process must not pass each other's lease check.
    const owner = `${this.opts.workerId}:${randomUUID().slice(0, 8)}`
    for (let round = 0; round < 1000; round++) {
      const claim = await this.claim(job, owner)
      if (claim.kind === 'none') return
      // Another worker holds the lease. It re-counts open submissions under the profile lock before it lets go,
      // so it takes ours too; if it dies, the reconciler re-enqueues once the lease lapses.
      if (claim.kind === 'busy') return
      if (claim.kind === 'later') {
        await this.queue.enqueue(job, { startAfterSeconds: claim.afterSeconds })
        return
      }
      const abort = new AbortController()
      const done = this.runBatch(job, owner, claim.profile, claim.submissions, abort.signal)
      const entry = { abort, done: done.catch(() => undefined) }
      this.inflight.add(entry)
      const more = await done.finally(() => this.inflight.delete(entry))
      if (!more) return
      if (this.stopping) {
        // More waits, and this process is going: release the profile and queue it for another worker.
        await this.ds.transaction(async (m) => {
          await this.release(m, job, owner)
          await this.queue.enqueue(job, { tx: m })
        })
        return
      }
    }
  }

  private async claim(job: ProfileJob, owner: string): Promise<Claim> {
    const { tenantId, profileId } = job
    let event: EventMap['profileStatusChanged'] | undefined
    const claim = await this.ds.transaction(async (m): Promise<Claim> => {
      const profile = await this.profiles.find(m, tenantId, profileId, { lock: true })
      if (!profile) return { kind: 'none' }
      if (profile.leased && profile.claimed_by !== owner) return { kind: 'busy' }
      const open: (ClaimedSubmission & { wait: number })[] = await m.query(
        `SELECT id, input_type, data, attempts,
                GREATEST(0, EXTRACT(EPOCH FROM (not_before - now())))::float AS wait
           FROM submissions WHERE tenant_id = $1 AND profile_id = $2 AND status IN ('pending', 'processing')
          ORDER BY seq LIMIT $3 FOR UPDATE`,
        [tenantId, profileId, this.opts.batchSize],
      )
      if (!open.length) {
        await m.query(
          `UPDATE profiles SET claimed_by = NULL, lease_until = NULL, status = 'ready' WHERE tenant_id = $1 AND profile_id = $2`,
          [tenantId, profileId],
        )
        if (profile.status !== 'ready') event = await this.stageReady(m, job)
        return { kind: 'none' }
      }
      // Order is kept: nothing newer runs before an older submission that waits for its retry.
      if (open[0]!.wait > 0) {
        await this.release(m, job, owner)
        return { kind: 'later', afterSeconds: open[0]!.wait }
      }
      // The ready prefix, in order; a submission tried before is retried alone, so it cannot sink the others.
      const readyCount = open.findIndex((s) => s.wait > 0)
      let batch = readyCount < 0 ? open : open.slice(0, readyCount)
      if (batch[0]!.attempts > 0) batch = batch.slice(0, 1)
      else {
        const firstRetried = batch.findIndex((s) => s.attempts > 0)
        if (firstRetried > 0) batch = batch.slice(0, firstRetried)
      }
      await m.query(
        `UPDATE profiles SET claimed_by = $3, lease_until = now() + make_interval(secs => $4)
          WHERE tenant_id = $1 AND profile_id = $2`,
        [tenantId, profileId, owner, this.opts.leaseSeconds],
      )
      await m.query(
        `UPDATE submissions SET status = 'processing', attempts = attempts + 1, started_at = now()
          WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [tenantId, batch.map((s) => s.id)],
      )
      return { kind: 'batch', profile, submissions: batch.map((s) => ({ ...s, attempts: s.attempts + 1 })) }
    })
    if (event) await this.bus.committed('profileStatusChanged', event)
    return claim
  }

  /**
   * A failure that is not the submissions' fault (the provider's circuit is open; the embedding column was changed
   * under this process by a reindex for another model): they go back to pending without using up an attempt, with
   * the reason as their error, and the profile is queued again for later.
   */
  private async defer(job: ProfileJob, owner: string, subs: ClaimedSubmission[], reason: string, afterSeconds: number): Promise<boolean> {
    const wait = Math.max(1, Math.ceil(afterSeconds))
    await this.ds.transaction(async (m) => {
      const cur = await this.profiles.find(m, job.tenantId, job.profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return
      await m.query(
        `UPDATE submissions SET status = 'pending', attempts = GREATEST(attempts - 1, 0), error = $3, not_before = now() + make_interval(secs => $4)
          WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
        [job.tenantId, subs.map((s) => s.id), reason.slice(0, 1000), wait],
      )
      await this.release(m, job, owner)
      await this.queue.enqueue(job, { tx: m, startAfterSeconds: wait })
    })
    return false
  }

  /** Adds what a batch cost (every request, failed ones included) to its submissions. */
  private async recordUsage(m: EntityManager, tenantId: string, ids: string[], usage: Usage | undefined) {
    if (!usage || !usage.totalTokens) return
    for (const [i, id] of ids.entries()) {
      const u = shareUsage(usage, ids.length, i)
      await m.query(
        `UPDATE submissions SET usage = jsonb_build_object(
           'promptTokens', COALESCE((usage->>'promptTokens')::bigint, 0) + $3,
           'completionTokens', COALESCE((usage->>'completionTokens')::bigint, 0) + $4,
           'totalTokens', COALESCE((usage->>'totalTokens')::bigint, 0) + $5)
         WHERE tenant_id = $1 AND id = $2`,
        [tenantId, id, u.promptTokens, u.completionTokens, u.totalTokens],
      )
    }
  }

  private async countOpen(m: EntityManager, job: ProfileJob): Promise<number> {
    const [{ n }] = await m.query(
      `SELECT count(*)::int AS n FROM submissions WHERE tenant_id = $1 AND profile_id = $2 AND status IN ('pending', 'processing')`,
      [job.tenantId, job.profileId],
    )
    return n
  }

  private async release(m: EntityManager, job: ProfileJob, owner: string) {
    await m.query(
      `UPDATE profiles SET claimed_by = NULL, lease_until = NULL WHERE tenant_id = $1 AND profile_id = $2 AND claimed_by = $3`,
      [job.tenantId, job.profileId, owner],
    )
  }

  /**
   * Shutdown: batches in flight get `graceMs` to finish; those still extracting then give their lease and their
   * submissions back (attempts not used up) and re-enqueue the profile, so another worker takes them at once.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    const all = () => Promise.all([...this.inflight].map((b) => b.done))
    let timer: NodeJS.Timeout | undefined
    const timedOut = await Promise.race([all().then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs)))])
    clearTimeout(timer)
    if (!timedOut) return
    for (const b of this.inflight) b.abort.abort(new ShutdownError())
    await all()
  }

  /** Returns whether more submissions wait. */
  private async runBatch(job: ProfileJob, owner: string, profile: ProfileRecord, subs: ClaimedSubmission[], signal: AbortSignal): Promise<boolean> {
    const heartbeat = setInterval(() => {
      this.ds
        .query(
          `UPDATE profiles SET lease_until = now() + make_interval(secs => $4)
            WHERE tenant_id = $1 AND profile_id = $2 AND claimed_by = $3`,
          [job.tenantId, job.profileId, owner, this.opts.leaseSeconds],
        )
        .catch((e) => this.log.warn({ err: e }, 'lease heartbeat failed'))
    }, (this.opts.leaseSeconds * 1000) / 3)
    let prepared: Awaited<ReturnType<ProcessingService['prepare']>>
    try {
      prepared = await this.prepare(profile, subs, signal)
    } catch (err) {
      clearInterval(heartbeat)
      if (signal.aborted) return this.giveBack(job, owner, subs)
      return this.fail(job, owner, subs, err)
    }
    clearInterval(heartbeat)
    try {
      return await this.apply(job, owner, subs, prepared)
    } catch (err) {
      // An outage is pg-boss's to retry; anything else counts as a failed attempt of these submissions.
      if (isConnectionError(err)) throw err
      return this.fail(job, owner, subs, withUsage(err, prepared.usage))
    }
  }

  /** Everything slow (AI calls) happens here, with no transaction open. */
  private async prepare(profile: ProfileRecord, subs: ClaimedSubmission[], signal?: AbortSignal) {
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

  private async apply(job: ProfileJob, owner: string, subs: ClaimedSubmission[], p: Awaited<ReturnType<ProcessingService['prepare']>>): Promise<boolean> {
    const { tenantId, profileId } = job
    const ids = subs.map((s) => s.id)
    const result = await this.ds.transaction(async (m) => {
      const cur = await this.profiles.find(m, tenantId, profileId, { lock: true })
      // Deleted, or our lease lapsed and another worker took over: drop the work.
      if (!cur || cur.claimed_by !== owner) return null
      const [, done] = await m.query(
        `UPDATE submissions SET status = 'done', finished_at = now(), error = NULL, prompt_version = $3
          WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'processing'`,
        [tenantId, ids, p.promptVersion ?? null],
      )
      if (done !== ids.length) throw new Error(`expected to finish ${ids.length} submissions, finished ${done}`)
      await this.recordUsage(m, tenantId, ids, p.usage)
      for (const [i, id] of ids.entries()) {
        await m.query(`UPDATE submissions SET extraction = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, id, JSON.stringify(p.provenance[i])])
      }
      const seq = cur.history_seq + 1
      const inputTypes = [...new Set(subs.map((s) => s.input_type))]
      await this.profiles.insertHistory(m, tenantId, profileId, {
        seq,
        extracted_on: p.now,
        changes: p.merged.changes as Record<string, unknown>,
        submission_ids: ids,
        input_type: inputTypes.length === 1 ? inputTypes[0]! : 'mixed',
      })
      const remaining = await this.countOpen(m, job)
      const c = p.merged.state.content.core_info
      await m.query(
        `UPDATE profiles SET content = $3, field_timestamps = $4, internals = $5, language = $6, summary = $7,
                name = $8, age = $9, gender = $10, location = $11, embedding = $12, embedding_model = $13,
                version = version + 1, history_seq = $14, last_updated = now(),
                status = CASE WHEN $15::int > 0 THEN 'processing' ELSE 'ready' END,
                claimed_by = CASE WHEN $15::int > 0 THEN claimed_by END,
                lease_until = CASE WHEN $15::int > 0 THEN lease_until END
          WHERE tenant_id = $1 AND profile_id = $2`,
        [
          tenantId, profileId,
          JSON.stringify(p.merged.state.content), JSON.stringify(p.merged.state.field_timestamps),
          JSON.stringify(p.merged.state.internals), p.merged.state.language ?? null, p.summary,
          c.name?.value ?? null, c.age?.value ?? null, c.gender?.value ?? null, c.location?.value ?? null,
          toSql(p.vector), this.ai.embedder.model, seq, remaining,
        ],
      )
      return { remaining, event: remaining === 0 ? await this.stageReady(m, job) : undefined }
    })
    if (!result) {
      this.log.info({ tenantId, profileId }, 'profile deleted or lease lost while processing; batch dropped')
      return false
    }
    if (result.event) await this.bus.committed('profileStatusChanged', result.event)
    return result.remaining > 0
  }

  /** Extraction failed: retry later with backoff, or mark failed after the last attempt. Nothing is merged. */
  private async fail(job: ProfileJob, owner: string, subs: ClaimedSubmission[], err: unknown): Promise<boolean> {
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
    let event: EventMap['profileStatusChanged'] | undefined
    const more = await this.ds.transaction(async (m) => {
      const cur = await this.profiles.find(m, tenantId, profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return false
      await this.recordUsage(m, tenantId, subs.map((s) => s.id), (err as { usage?: Usage })?.usage)
      let retryIn = 0
      for (const s of subs) {
        if (s.attempts >= this.opts.maxAttempts) {
          await m.query(
            `UPDATE submissions SET status = 'failed', error = $3, finished_at = now() WHERE tenant_id = $1 AND id = $2`,
            [tenantId, s.id, message.slice(0, 1000)],
          )
        } else {
          const delayMs = this.opts.retryBaseMs * 2 ** (s.attempts - 1) * (0.75 + Math.random() * 0.5)
          retryIn = Math.max(retryIn, delayMs / 1000)
          await m.query(
            `UPDATE submissions SET status = 'pending', error = $3, not_before = now() + make_interval(secs => $4)
              WHERE tenant_id = $1 AND id = $2`,
            [tenantId, s.id, message.slice(0, 1000), delayMs / 1000],
          )
        }
      }
      await this.release(m, job, owner)
      const n = await this.countOpen(m, job)
      if (n === 0) {
        await m.query(`UPDATE profiles SET status = 'ready' WHERE tenant_id = $1 AND profile_id = $2`, [tenantId, profileId])
        if (cur.status !== 'ready') event = await this.stageReady(m, job)
        return false
      }
      if (retryIn > 0) await this.queue.enqueue(job, { tx: m, startAfterSeconds: retryIn })
      return retryIn === 0
    })
    if (event) await this.bus.committed('profileStatusChanged', event)
    return more
  }

  /** A batch interrupted by a shutdown: its submissions are pending again, as if never tried, and the profile queued. */
  private async giveBack(job: ProfileJob, owner: string, subs: ClaimedSubmission[]): Promise<boolean> {
    await this.ds.transaction(async (m) => {
      const cur = await this.profiles.find(m, job.tenantId, job.profileId, { lock: true })
      if (!cur || cur.claimed_by !== owner) return
      await m.query(
        `UPDATE submissions SET status = 'pending', attempts = GREATEST(attempts - 1, 0), started_at = NULL
          WHERE tenant_id = $1 AND id = ANY($2::uuid[]) AND status = 'processing'`,
        [job.tenantId, subs.map((s) => s.id)],
      )
      await this.release(m, job, owner)
      await this.queue.enqueue(job, { tx: m })
    })
    this.log.info({ tenantId: job.tenantId, profileId: job.profileId }, 'shutting down: batch handed back to the queue')
    return false
  }

  /** Stages the `ready` event in the transaction that makes the profile ready. */
  private async stageReady(m: EntityManager, job: ProfileJob) {
    const [{ seq }] = await m.query(`SELECT nextval('profile_status_seq') AS seq`)
    const payload = { ...job, status: 'ready' as const, at: new Date().toISOString(), seq: Number(seq) }
    await this.bus.stage(m, 'profileStatusChanged', payload)
    return payload
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

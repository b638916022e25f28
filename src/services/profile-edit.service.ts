import type { DataSource, EntityManager } from 'typeorm'
import { aiUnavailable } from '../ai/errors.js'
import { withSummary } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import type { ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError } from '../domain/errors.js'
import { parseForgetTarget, rollbackBodySchema, snapshotState, valueKey, type ForgetTarget } from '../domain/forget.js'
import { lexemesWith } from '../domain/lexical.js'
import type { ProfileLimits } from '../domain/profile-limits.js'
import type { EditKind, ProfileState } from '../domain/profile.js'
import type { CpuPool } from './cpu/cpu.js'
import type { EditOutput } from './cpu/cpu-tasks.js'
import { parseRequest } from '../domain/requests.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'
import { ProvenanceRepository } from '../db/provenance.repository.js'
import { hideSupport } from './provenance.service.js'

/** Tries of an edit that keeps losing the race with the worker (or another edit) before it answers 409. */
const ATTEMPTS = 3

type Change = (state: ProfileState, now: string, manager: EntityManager) => Promise<EditOutput>
/** What an edit also does in its transaction once its history entry `seq` is written (`state`: the new state). */
type AfterWrite = (manager: EntityManager, seq: number, state: ProfileState) => Promise<void>

/** The history key counting the passages a forget hid. */
const HIDDEN = 'passages_hidden'

/** A forget whose value is gone from the profile: its history entry, when it was written, the profile's language. */
interface Forgotten {
  /** null when the history no longer has the entry. */
  seq: number | null
  at: string
  language: string | null | undefined
  /** Found from its tombstone: a forget of the value done before, asked again. */
  resumed?: true
}

/** VALUE_NOT_FOUND: the profile does not hold the value a forget names. */
function notHeld(profileId: string, target: ForgetTarget): DomainError {
  const category = target.category?.slice(0, 80)
  const where = category === undefined ? target.section : `${target.section} (category ${category})`
  const value = target.value.slice(0, 200)
  return new DomainError('VALUE_NOT_FOUND', `Profile ${profileId} has no value '${value}' in ${where}`)
}

/**
 * Changes of a profile asked for by a request rather than learnt from a submission: forgetting one value, rolling back
 * to an earlier history entry. Each one is a history entry (input_type 'forget' / 'rollback', with a snapshot like
 * every entry) and regenerates the summary and the embedding through the configured AI providers, as a worker's batch
 * does.
 *
 * Concurrency as in the worker: the new state, summary and embedding are computed with no transaction open (the AI
 * calls are slow), then written only if the profile is still at the version they were computed from; otherwise the
 * edit starts again from the new state. A worker that holds the profile's lease meanwhile finds the version moved when
 * it applies, and merges its batch again into the edited profile: neither change is lost.
 */
export class ProfileEditService {
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly ai: Pick<AiProviders, 'summarizer' | 'embedder'>,
    bus: EventBus,
    /** The new state, its diff and its words are computed on a CPU thread (a profile at the limits is large). */
    private readonly cpu: CpuPool,
    private readonly limits: ProfileLimits,
    private readonly provenance: ProvenanceRepository = new ProvenanceRepository(),
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  /**
   * Removes one value (body: section, value, category for interests); the profile after it. Then the evidence passages
   * that state it (docs/guides/evidence.md, "Why the profile says it") are hidden from every context and search
   * (hidden_by `forget:<seq>`), all of them, in batches of short transactions, and the history entry counts them as
   * they go (`changes.passages_hidden`). A forget cut short before its last batch (a crash, an outage) leaves its
   * tombstone: forgetting the value again hides the rest under the same entry, and is VALUE_NOT_FOUND only once nothing
   * is left to hide.
   */
  async forget(ctx: RequestContext, profileId: string, body: unknown): Promise<ProfileRecord> {
    checkProfileId(profileId)
    const target = parseForgetTarget(body)
    const { tenantId } = ctx
    const forgotten = await this.removeValue(ctx, profileId, target)
    const { seq } = forgotten
    const countHidden =
      seq === null
        ? undefined
        : (m: EntityManager, hidden: number) =>
            this.profiles.addToHistoryCount(m, tenantId, profileId, seq, HIDDEN, hidden)
    // Without the request's signal: once the value is gone, what says it goes too, even if the client has left.
    const hidden = await hideSupport(this.ds, this.provenance, tenantId, profileId, forgotten.language, target, {
      by: `forget:${seq ?? forgotten.at}`,
      acceptedBy: forgotten.at,
      onHidden: countHidden,
    })
    if (forgotten.resumed && !hidden) throw notHeld(profileId, target)
    return this.record(tenantId, profileId)
  }

  /**
   * Removes the value from the profile as a new history entry (its `passages_hidden` 0 for now), or, when the profile
   * no longer holds it, finds the forget that removed it (unfinishedForget). `at`: when it was forgotten.
   * VALUE_NOT_FOUND when the value was never forgotten either.
   */
  private async removeValue(ctx: RequestContext, profileId: string, target: ForgetTarget): Promise<Forgotten> {
    let language: string | null | undefined
    let at = ''
    const change: Change = async (state, now) => {
      language = state.language
      at = now
      const result = await this.cpu.forget({ state, target, now }, { signal: ctx.signal })
      if (!result) throw notHeld(profileId, target)
      return result
    }
    const zero: AfterWrite = (m, seq) => this.profiles.addToHistoryCount(m, ctx.tenantId, profileId, seq, HIDDEN, 0)
    try {
      return { seq: await this.edit(ctx, profileId, 'forget', change, zero), at, language }
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'VALUE_NOT_FOUND')) throw err
      const unfinished = await this.unfinishedForget(ctx.tenantId, profileId, target)
      if (!unfinished) throw err
      return unfinished
    }
  }

  /**
   * The forget that removed the value, which may have been cut short before it hid every passage: the profile's
   * tombstone of the value, and its history entry (`seq` null when the history no longer has it); null when the
   * profile has no such tombstone.
   */
  private async unfinishedForget(tenantId: string, profileId: string, target: ForgetTarget): Promise<Forgotten | null> {
    const manager = this.ds.manager
    const profile = await this.profiles.find(manager, tenantId, profileId)
    const key = valueKey(target.section, target.value)
    const tomb = profile?.internals.forgotten?.find((t) => t.section === target.section && t.key === key)
    if (!profile || !tomb) return null
    const seq = await this.profiles.forgetAt(manager, tenantId, profileId, tomb.at)
    return { seq, at: tomb.at, language: profile.language, resumed: true }
  }

  /** Returns the profile to the state of history entry `to_seq` (body), as a new entry; the profile after it. */
  async rollback(ctx: RequestContext, profileId: string, body: unknown): Promise<ProfileRecord> {
    checkProfileId(profileId)
    const { to_seq: toSeq } = parseRequest(rollbackBodySchema, body)
    await this.edit(ctx, profileId, 'rollback', async (state, now, manager) => {
      const entry = await this.profiles.snapshot(manager, ctx.tenantId, profileId, toSeq)
      if (!entry) throw new DomainError('HISTORY_ENTRY_NOT_FOUND', `Profile ${profileId} has no history entry ${toSeq}`)
      const snapshot = snapshotState(entry.snapshot)
      if (!snapshot) {
        throw new DomainError(
          'NO_SNAPSHOT',
          `History entry ${toSeq} of profile ${profileId} has no snapshot (only the newest ` +
            'PROFILER_PROFILE_MAX_SNAPSHOTS entries keep one, and none written before snapshots were kept or ' +
            'imported): it cannot be rolled back to',
        )
      }
      return this.cpu.rollback({ state, snapshot, toSeq, now, limits: this.limits }, { signal: ctx.signal })
    })
    return this.record(ctx.tenantId, profileId)
  }

  /** The profile as it is now, with its history. */
  private async record(tenantId: string, profileId: string): Promise<ProfileRecord> {
    const profile = await this.profiles.findWithHistory(tenantId, profileId)
    if (!profile) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
    return profile
  }

  /** Writes the change as a new history entry; its seq. */
  private async edit(ctx: RequestContext, profileId: string, kind: EditKind, change: Change, after?: AfterWrite) {
    const { tenantId } = ctx
    for (let attempt = 1; ; attempt++) {
      const profile = await this.profiles.find(this.ds.manager, tenantId, profileId)
      if (!profile) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
      const now = new Date().toISOString()
      const current: ProfileState = {
        content: profile.content,
        field_timestamps: profile.field_timestamps,
        internals: profile.internals,
        ...(profile.language ? { language: profile.language } : {}),
      }
      const out = await change(current, now, this.ds.manager)
      const { state, changes } = out
      const { summary, vector, lexemes } = await this.derive(
        out,
        await this.profiles.summaryInstructions(this.ds.manager, tenantId, profileId),
        ctx.signal,
      )
      const written = await this.uow.run(ctx, async (tx) => {
        const rewritten = await this.profiles.rewrite(tx.manager, {
          tenantId,
          profileId,
          version: profile.version,
          state,
          summary,
          vector,
          embeddingModel: this.ai.embedder.model,
          lexemes,
          at: now,
          changes,
          inputType: kind,
          json: out.json,
        })
        if (!rewritten) return null
        await after?.(tx.manager, rewritten.seq, state)
        tx.raise('profileStatusChanged', {
          tenantId,
          profileId,
          status: rewritten.status,
          at: now,
          seq: rewritten.eventSeq,
        })
        return rewritten.seq
      })
      if (written !== null) return written
      if (attempt >= ATTEMPTS) {
        throw new DomainError(
          'CONFLICT',
          `Profile ${profileId} kept changing while the ${kind} was prepared (${ATTEMPTS} tries): ` +
            'nothing was changed; retry',
        )
      }
    }
  }

  /**
   * The summary and embedding of a state, through the configured providers (the worker's path), under the summary
   * instructions the worker would follow.
   */
  private async derive(
    out: EditOutput,
    instructions: string[],
    signal?: AbortSignal,
  ): Promise<{ summary: string; vector: number[]; lexemes: string }> {
    const { state } = out
    try {
      const { summary } = await this.ai.summarizer.summarize(state.content, signal, instructions)
      const { vectors } = await this.ai.embedder.embed([withSummary(summary, out.lines)], signal)
      return { summary, vector: vectors[0]!, lexemes: lexemesWith(summary, out.contentLexemes) }
    } catch (err) {
      if (signal?.aborted) throw err
      // Paused, in an outage or rate limited: when to retry, without the operator's details (the log has them).
      const unavailable = aiUnavailable(err)
      if (unavailable)
        throw new DomainError(
          'AI_UNAVAILABLE',
          `The AI provider could not summarize or embed the profile, so nothing was changed. ${unavailable.message}`,
        )
      const reason = err instanceof Error ? err.message : String(err)
      throw new DomainError(
        'AI_UNAVAILABLE',
        'The AI provider could not summarize or embed the profile, so nothing was changed; ' +
          `retry shortly (${reason.slice(0, 200)})`,
      )
    }
  }
}

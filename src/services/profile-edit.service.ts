import type { DataSource, EntityManager } from 'typeorm'
import { aiUnavailable } from '../ai/errors.js'
import { withSummary } from '../ai/profile-text.js'
import type { AiProviders } from '../ai/types.js'
import type { ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import { DomainError } from '../domain/errors.js'
import { parseForgetTarget, rollbackBodySchema, snapshotState } from '../domain/forget.js'
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
import { findSupport } from './provenance.service.js'

/** Tries of an edit that keeps losing the race with the worker (or another edit) before it answers 409. */
const ATTEMPTS = 3

type Change = (state: ProfileState, now: string, m: EntityManager) => Promise<EditOutput>
/** What an edit also does in its transaction once its history entry `seq` is written (`state`: the new state). */
type AfterWrite = (m: EntityManager, seq: number, state: ProfileState) => Promise<void>

/**
 * Changes of a profile asked for by a request rather than learnt from a submission: forgetting one value, rolling back
 * to an earlier history entry. Each one is a history entry (input_type 'forget' / 'rollback', with a snapshot like every
 * entry) and regenerates the summary and the embedding through the configured AI providers, as a worker's batch does.
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
   * Removes one value (body: section, value, category for interests); the profile after it. In the same transaction,
   * the evidence passages that state it (README "Provenance") are hidden from every context and search (hidden_by
   * `forget:<seq>`), and the history entry records how many (`changes.passages_hidden`).
   */
  async forget(ctx: RequestContext, profileId: string, body: unknown): Promise<ProfileRecord> {
    checkProfileId(profileId)
    const target = parseForgetTarget(body)
    const hideEvidence: AfterWrite = async (m, seq, state) => {
      const { supported } = await findSupport(m, this.provenance, ctx.tenantId, profileId, state.language, target)
      const hidden = await this.provenance.hide(
        m,
        ctx.tenantId,
        profileId,
        supported.map((s) => s.passage),
        `forget:${seq}`,
      )
      await this.profiles.noteInHistory(m, ctx.tenantId, profileId, seq, { passages_hidden: hidden })
    }
    return this.edit(
      ctx,
      profileId,
      'forget',
      async (state, now) => {
        const r = await this.cpu.forget({ state, target, now }, { signal: ctx.signal })
        if (!r) {
          const where =
            target.category !== undefined
              ? `${target.section} (category ${target.category.slice(0, 80)})`
              : target.section
          throw new DomainError(
            'VALUE_NOT_FOUND',
            `Profile ${profileId} has no value '${target.value.slice(0, 200)}' in ${where}`,
          )
        }
        return r
      },
      hideEvidence,
    )
  }

  /** Returns the profile to the state of history entry `to_seq` (body), as a new entry; the profile after it. */
  async rollback(ctx: RequestContext, profileId: string, body: unknown): Promise<ProfileRecord> {
    checkProfileId(profileId)
    const { to_seq: toSeq } = parseRequest(rollbackBodySchema, body)
    return this.edit(ctx, profileId, 'rollback', async (state, now, m) => {
      const entry = await this.profiles.snapshot(m, ctx.tenantId, profileId, toSeq)
      if (!entry) throw new DomainError('HISTORY_ENTRY_NOT_FOUND', `Profile ${profileId} has no history entry ${toSeq}`)
      const snapshot = snapshotState(entry.snapshot)
      if (!snapshot) {
        throw new DomainError(
          'NO_SNAPSHOT',
          `History entry ${toSeq} of profile ${profileId} has no snapshot (only the newest PROFILER_PROFILE_MAX_SNAPSHOTS entries keep one, and none written before snapshots were kept or imported): it cannot be rolled back to`,
        )
      }
      return this.cpu.rollback({ state, snapshot, toSeq, now, limits: this.limits }, { signal: ctx.signal })
    })
  }

  private async edit(
    ctx: RequestContext,
    profileId: string,
    kind: EditKind,
    change: Change,
    after?: AfterWrite,
  ): Promise<ProfileRecord> {
    const { tenantId } = ctx
    for (let attempt = 1; ; attempt++) {
      const p = await this.profiles.find(this.ds.manager, tenantId, profileId)
      if (!p) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
      const now = new Date().toISOString()
      const current: ProfileState = {
        content: p.content,
        field_timestamps: p.field_timestamps,
        internals: p.internals,
        ...(p.language ? { language: p.language } : {}),
      }
      const out = await change(current, now, this.ds.manager)
      const { state, changes } = out
      const { summary, vector, lexemes } = await this.derive(
        out,
        await this.profiles.summaryInstructions(this.ds.manager, tenantId, profileId),
        ctx.signal,
      )
      const written = await this.uow.run(ctx, async (tx) => {
        const r = await this.profiles.rewrite(tx.manager, {
          tenantId,
          profileId,
          version: p.version,
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
        if (!r) return false
        await after?.(tx.manager, r.seq, state)
        tx.raise('profileStatusChanged', { tenantId, profileId, status: r.status, at: now, seq: r.eventSeq })
        return true
      })
      if (written) {
        const after = await this.profiles.findWithHistory(tenantId, profileId)
        if (!after) throw new DomainError('PROFILE_NOT_FOUND', `Profile ${profileId} not found`)
        return after
      }
      if (attempt >= ATTEMPTS) {
        throw new DomainError(
          'CONFLICT',
          `Profile ${profileId} kept changing while the ${kind} was prepared (${ATTEMPTS} tries): nothing was changed; retry`,
        )
      }
    }
  }

  /** The summary and embedding of a state, through the configured providers (the worker's path), under the summary instructions the worker would follow. */
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
        `The AI provider could not summarize or embed the profile, so nothing was changed; retry shortly (${reason.slice(0, 200)})`,
      )
    }
  }
}

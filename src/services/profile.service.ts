import type { DataSource } from 'typeorm'
import type { HistoryEntry, ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { DomainError } from '../domain/errors.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus, EventMap } from '../events/event-bus.js'
import type { JobQueue } from '../jobs/queue.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import type { RequestContext } from './context.js'

/** Reading and deleting profiles. */
export class ProfileService {
  private readonly uow: UnitOfWork

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  /** The profile with its newest 100 update_log entries; PROFILE_NOT_FOUND when unknown. */
  async get(ctx: RequestContext, profileId: string): Promise<ProfileRecord> {
    const profile = await this.find(ctx, profileId)
    if (!profile) throw notFound(profileId)
    return profile
  }

  /** Like get, but null when unknown. */
  async find(ctx: RequestContext, profileId: string): Promise<ProfileRecord | null> {
    checkProfileId(profileId)
    return this.profiles.findWithHistory(ctx.tenantId, profileId)
  }

  async history(
    ctx: RequestContext,
    profileId: string,
    opts: { afterSeq?: number; limit: number },
  ): Promise<HistoryEntry[]> {
    return this.profiles.history(this.ds.manager, ctx.tenantId, checkProfileId(profileId), opts)
  }

  /**
   * Removes the profile, its history, embedding, submissions and jobs in one transaction. A worker
   * busy with it finds the row gone (or claimed by nobody) when it tries to apply, and drops its work.
   */
  async delete(ctx: RequestContext, profileId: string): Promise<void> {
    if (!(await this.remove(ctx, profileId))) throw notFound(profileId)
  }

  /**
   * Like delete, but false when there was nothing to delete. `untouchedSince` (retention): only when the profile is
   * ready and was neither changed nor sent a submission since then, checked under the row lock.
   */
  async remove(ctx: RequestContext, profileId: string, opts: { untouchedSince?: Date } = {}): Promise<boolean> {
    checkProfileId(profileId)
    return this.uow.run(ctx, async (tx) => {
      const seq = await this.profiles.delete(tx.manager, ctx.tenantId, profileId, opts)
      if (seq === null) return false
      await this.queue.forgetProfile(tx.manager, { tenantId: ctx.tenantId, profileId })
      tx.raise('profileStatusChanged', {
        tenantId: ctx.tenantId,
        profileId,
        status: 'deleted',
        at: new Date().toISOString(),
        seq,
      })
      return true
    })
  }

  /** Status changes of the caller's tenant (one profile, or all when profileId is null), as they commit. */
  watchStatus(
    ctx: RequestContext,
    profileId: string | null,
    handler: (event: EventMap['profileStatusChanged']) => void,
  ): () => void {
    if (profileId !== null) checkProfileId(profileId)
    return this.bus.subscribe('profileStatusChanged', (event) => {
      if (event.tenantId === ctx.tenantId && (profileId === null || event.profileId === profileId)) handler(event)
    })
  }
}

const notFound = (id: string) => new DomainError('PROFILE_NOT_FOUND', `Profile ${id} not found`)

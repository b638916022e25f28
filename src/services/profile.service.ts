import type { DataSource } from 'typeorm'
import type { HistoryEntry, ProfileRecord, ProfileRepository } from '../db/profile.repository.js'
import { DomainError } from '../domain/errors.js'
import { checkProfileId } from '../domain/validation.js'
import type { EventBus } from '../events/event-bus.js'
import type { JobQueue } from '../jobs/queue.js'
import type { RequestContext } from './context.js'

/** Reading and deleting profiles. */
export class ProfileService {
  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileRepository,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
  ) {}

  /** The profile with its newest 100 update_log entries; PROFILE_NOT_FOUND when unknown. */
  async get(ctx: RequestContext, profileId: string): Promise<ProfileRecord> {
    const p = await this.find(ctx, profileId)
    if (!p) throw notFound(profileId)
    return p
  }

  /** Like get, but null when unknown. */
  async find(ctx: RequestContext, profileId: string): Promise<ProfileRecord | null> {
    checkProfileId(profileId)
    const p = await this.profiles.find(this.ds.manager, ctx.tenantId, profileId)
    if (!p) return null
    p.update_log = (await this.profiles.recentHistory(this.ds.manager, ctx.tenantId, [profileId])).get(profileId)
    return p
  }

  async history(ctx: RequestContext, profileId: string, opts: { afterSeq?: number; limit: number }): Promise<HistoryEntry[]> {
    return this.profiles.history(this.ds.manager, ctx.tenantId, checkProfileId(profileId), opts)
  }

  /**
   * Removes the profile, its history, embedding, submissions and queued jobs in one transaction. A worker
   * busy with it finds the row gone (or claimed by nobody) when it tries to apply, and drops its work.
   */
  async delete(ctx: RequestContext, profileId: string): Promise<void> {
    checkProfileId(profileId)
    const deleted = await this.ds.transaction(async (m) => {
      const [, count] = await m.query(`DELETE FROM profiles WHERE tenant_id = $1 AND profile_id = $2`, [ctx.tenantId, profileId])
      if (!count) return false
      await this.queue.deleteQueued(m, { tenantId: ctx.tenantId, profileId })
      return true
    })
    if (!deleted) throw notFound(profileId)
    await this.bus.publish('profileStatusChanged', { tenantId: ctx.tenantId, profileId, status: 'deleted', at: new Date().toISOString() })
  }
}

const notFound = (id: string) => new DomainError('PROFILE_NOT_FOUND', `Profile ${id} not found`)

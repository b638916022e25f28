import crypto from 'node:crypto'
import type { DataSource } from 'typeorm'
import type { Logger } from 'pino'
import { RetentionRepository } from '../db/retention.repository.js'
import type { ProfileService } from './profile.service.js'

/** Advisory lock key: one sweep at a time across processes ("rten" in ASCII). */
const SWEEP_LOCK = 0x7274656e

export interface SweepResult {
  /** False when another process was sweeping (or this one already is). */
  ran: boolean
  deleted: { tenantId: string; profiles: number; byApp: Record<string, number> }[]
  textDropped: { tenantId: string; appId: string; submissions: number }[]
}

/**
 * Applies the apps' retention policies (docs/operations/data-lifecycle.md), run by the worker: drops the text of
 * submissions past their app's text policy, and deletes profiles past their apps' delete policy through the profile
 * delete use case (so its events go out as for a DELETE, and nothing of the profile stays). At most one sweep runs at a
 * time across processes (an advisory lock, tried, not waited for); each step is a batch of its own.
 */
export class RetentionService {
  private readonly repo = new RetentionRepository()
  private running = false
  /** The sweep under way, and whether the process is stopping (a sweep then ends after the batch it is in). */
  private current: Promise<SweepResult> | undefined
  private stopping = false

  constructor(
    private readonly ds: DataSource,
    private readonly profiles: ProfileService,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    /** `sharded`: the database is sharded by tenant (Citus); the sweep reads its tenants from their marks. */
    private readonly opts: { batch: number; sharded?: boolean },
  ) {}

  runOnce(): Promise<SweepResult> {
    if (this.running || this.stopping) return Promise.resolve({ ran: false, deleted: [], textDropped: [] })
    this.running = true
    this.current = this.sweep()
    return this.current
  }

  /**
   * Stops sweeping: a sweep under way ends after the batch it is in, and this waits for it (a shutdown must not close
   * the database under it: its next statement failed with "Query runner already released").
   */
  async stop(): Promise<void> {
    this.stopping = true
    await this.current?.catch(() => undefined)
  }

  private async sweep(): Promise<SweepResult> {
    const result: SweepResult = { ran: false, deleted: [], textDropped: [] }
    const lock = this.ds.createQueryRunner()
    try {
      await lock.connect()
      const [{ ok }] = await lock.query(`SELECT pg_try_advisory_lock($1) AS ok`, [SWEEP_LOCK])
      if (!ok) return result
      try {
        result.ran = true
        if (this.opts.sharded) {
          await this.sweepMarked(result)
        } else {
          await this.dropTexts(result, await this.repo.textDroppingApps(this.ds.manager))
          await this.deleteProfiles(result, await this.repo.deletingTenants(this.ds.manager))
        }
      } finally {
        await lock.query(`SELECT pg_advisory_unlock($1)`, [SWEEP_LOCK])
      }
      return result
    } finally {
      await lock.release()
      this.running = false
    }
  }

  /**
   * The sweep of a sharded database: tenant by tenant, from the marks written when a policy is set, each tenant's apps
   * read from its own shard. A tenant none of whose apps has a policy any more loses its mark.
   */
  private async sweepMarked(result: SweepResult) {
    const manager = this.ds.manager
    for (const mark of await this.repo.markedTenants(manager)) {
      if (this.stopping) return
      const apps = await this.repo.textDroppingApps(manager, mark.tenantId)
      const deleting = await this.repo.deletingTenants(manager, mark.tenantId)
      if (!apps.length && !deleting.length) await this.repo.clearMark(manager, mark.tenantId, mark.markedAt)
      await this.dropTexts(result, apps)
      await this.deleteProfiles(result, deleting)
    }
  }

  private async dropTexts(result: SweepResult, apps: { tenantId: string; appId: string; days: number }[]) {
    for (const app of apps) {
      if (this.stopping) return
      let total = 0
      // Each batch in a transaction of its own: the texts and their passages go together.
      for (let dropped = this.opts.batch; dropped === this.opts.batch && !this.stopping; total += dropped) {
        dropped = await this.ds.transaction((tx) =>
          this.repo.dropText(tx, app.tenantId, app.appId, app.days, this.opts.batch),
        )
      }
      if (!total) continue
      result.textDropped.push({ tenantId: app.tenantId, appId: app.appId, submissions: total })
      this.log.info(
        { tenantId: app.tenantId, appId: app.appId, submissions: total, days: app.days },
        'retention: dropped submission text',
      )
    }
  }

  private async deleteProfiles(result: SweepResult, tenants: { tenantId: string; minDays: number }[]) {
    const manager = this.ds.manager
    for (const tenant of tenants) {
      if (this.stopping) return
      const ctx = { tenantId: tenant.tenantId, appId: 'retention', requestId: `retention-${crypto.randomUUID()}` }
      const byApp: Record<string, number> = {}
      let profiles = 0
      let after: string | null = null
      for (;;) {
        const expired = await this.repo.expiredProfiles(manager, tenant.tenantId, {
          minDays: tenant.minDays,
          after,
          limit: this.opts.batch,
        })
        for (const profile of expired) {
          if (this.stopping) break
          // Touched since it was chosen (a submission came in): it stays.
          if (!(await this.profiles.remove(ctx, profile.profileId, { untouchedSince: profile.cutoff }))) continue
          profiles++
          for (const appId of profile.appIds) byApp[appId] = (byApp[appId] ?? 0) + 1
        }
        if (expired.length < this.opts.batch || this.stopping) break
        after = expired[expired.length - 1]!.profileId
      }
      if (!profiles) continue
      result.deleted.push({ tenantId: tenant.tenantId, profiles, byApp })
      this.log.info({ tenantId: tenant.tenantId, profiles, byApp }, 'retention: deleted untouched profiles')
    }
  }
}

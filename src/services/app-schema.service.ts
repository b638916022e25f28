import type { DataSource } from 'typeorm'
import { NO_HISTORY_BOUNDS, type HistoryBounds } from '../db/profile.repository.js'
import { AppSchemaRepository } from '../db/app-schema.repository.js'
import { UnitOfWork } from '../db/unit-of-work.js'
import {
  droppedFields,
  emptySchema,
  fieldPaths,
  parseCustomSchema,
  type AppSchemaVersion,
  type CustomSchema,
} from '../domain/custom-schema.js'
import { DomainError, invalid } from '../domain/errors.js'
import { customSchemaOutputProblem } from '../ai/openai/schema-limits.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'

/** The schema as a caller sees it: version 0 with no sections when the app never set one. */
export interface SchemaView extends Omit<AppSchemaVersion, 'createdAt'> {
  createdAt: string | null
}

/** What setting a schema did: the new current version, and what the fields it dropped took out of profiles. */
export interface SchemaChange extends SchemaView {
  /** True when a new version was stored (false: the schema equals the current one). */
  changed: boolean
  /** `section.field` no longer declared by any app of the tenant: their values left the profiles, kept in history. */
  droppedFields: string[]
  /** Profiles whose dropped values were moved to their history. */
  profilesUpdated: number
}

/** Stable JSON (keys sorted), to tell whether a submitted schema differs from the current one. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * Custom profile schemas per app (docs/guides/custom-schema.md). The calling app (`ctx.appId`) owns its schema;
 * a dashboard session names the app. Each change is a new version (the newest `maxVersions` are kept); values of
 * fields a change drops are moved out of the tenant's profiles into one history entry per profile (input_type
 * 'schema'), unless another app of the tenant still declares the field.
 */
export class AppSchemaService {
  private readonly uow: UnitOfWork
  private readonly repo = new AppSchemaRepository()

  constructor(
    private readonly ds: DataSource,
    bus: EventBus,
    /**
     * Versions kept per app (PROFILER_SCHEMA_MAX_VERSIONS): storing a new one deletes those older than the newest N.
     */
    private readonly opts: { maxVersions: number; history?: HistoryBounds },
  ) {
    this.uow = new UnitOfWork(ds, bus)
  }

  async get(ctx: RequestContext): Promise<SchemaView> {
    const cur = await this.repo.current(this.ds.manager, ctx.tenantId, ctx.appId)
    if (cur) return cur
    await this.assertApp(ctx)
    return { appId: ctx.appId, version: 0, schema: emptySchema(), createdAt: null }
  }

  /**
   * The newest versions, at most maxVersions, newest first (versions beyond it, from before the limit was lowered, are
   * deleted with the app's next version).
   */
  async versions(ctx: RequestContext): Promise<AppSchemaVersion[]> {
    await this.assertApp(ctx)
    return this.repo.versions(this.ds.manager, ctx.tenantId, ctx.appId, this.opts.maxVersions)
  }

  async set(ctx: RequestContext, input: unknown): Promise<SchemaChange> {
    const schema = parseCustomSchema(input)
    // Within what OpenAI's structured outputs accept once the app's fields join the extraction schema, whatever the
    // configured provider: past it, every extraction for the app would be refused.
    const tooLarge = customSchemaOutputProblem(schema)
    if (tooLarge) throw invalid(tooLarge)
    return this.uow.run(ctx, async (tx) => {
      const manager = tx.manager
      const version = await this.repo.lockApp(manager, ctx.tenantId, ctx.appId)
      if (version === null) throw appNotFound()
      const current = version > 0 ? await this.repo.current(manager, ctx.tenantId, ctx.appId) : null
      const before: CustomSchema = current?.schema ?? emptySchema()
      if (current && canonical(before) === canonical(schema)) {
        return { ...current, changed: false, droppedFields: [], profilesUpdated: 0 }
      }
      if (!current && !fieldPaths(schema).length) {
        return {
          appId: ctx.appId,
          version: 0,
          schema,
          createdAt: null,
          changed: false,
          droppedFields: [],
          profilesUpdated: 0,
        }
      }
      const saved = await this.repo.insert(manager, ctx.tenantId, ctx.appId, version + 1, schema)
      // Nothing reads a version but the current one (the worker and re-extraction take the app's current), so the older
      // ones are history for people: kept up to a bound, in this transaction.
      await this.repo.pruneVersions(manager, ctx.tenantId, ctx.appId, this.opts.maxVersions)
      // A field another app of the tenant still declares (with the same type) keeps its values: the profile is shared.
      const others = await this.repo.othersOf(manager, ctx.tenantId, ctx.appId)
      const kept = new Set(others.flatMap((o) => fieldPaths(o).map((p) => `${p}:${typeOf(o, p)}`)))
      const dropped = droppedFields(before, schema).filter((p) => !kept.has(`${p}:${typeOf(before, p)}`))
      const profilesUpdated = await this.moveToHistory(manager, ctx.tenantId, dropped, saved)
      return { ...saved, changed: true, droppedFields: dropped, profilesUpdated }
    })
  }

  /** Takes the dropped fields' values out of every profile of the tenant holding one, recording them in its history. */
  private async moveToHistory(
    manager: import('typeorm').EntityManager,
    tenantId: string,
    dropped: string[],
    saved: AppSchemaVersion,
  ): Promise<number> {
    const rows = await this.repo.profilesHolding(manager, tenantId, dropped)
    const at = new Date().toISOString()
    const writes = rows.map((row) => {
      const content = structuredClone(row.content) as { custom?: Record<string, Record<string, unknown>> }
      const removed: Record<string, Record<string, unknown>> = {}
      for (const path of dropped) {
        const [sectionName, field] = path.split('.') as [string, string]
        const section = content.custom?.[sectionName]
        if (!section || !Object.hasOwn(section, field)) continue
        ;(removed[sectionName] ??= {})[field] = section[field]
        delete section[field]
        if (!Object.keys(section).length) delete content.custom![sectionName]
      }
      const changes = { removed_custom: removed, schema: { app_id: saved.appId, version: saved.version } }
      return {
        profileId: row.profile_id,
        content: JSON.stringify(content),
        seq: row.history_seq + 1,
        changes: JSON.stringify(changes),
        at,
      }
    })
    await this.repo.dropValues(manager, tenantId, writes, this.opts.history ?? NO_HISTORY_BOUNDS)
    return writes.length
  }

  private async assertApp(ctx: RequestContext): Promise<void> {
    if (!(await this.repo.appExists(this.ds.manager, ctx.tenantId, ctx.appId))) throw appNotFound()
  }
}

function typeOf(schema: CustomSchema, path: string): string {
  const [sec, field] = path.split('.') as [string, string]
  return schema.sections[sec]?.[field]?.type ?? ''
}

const appNotFound = () => new DomainError('APP_NOT_FOUND', 'App not found')

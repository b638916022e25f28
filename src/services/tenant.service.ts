import type { DataSource } from 'typeorm'
import { TenantRepository, type AppRow, type TenantRow } from '../db/tenant.repository.js'
import { UnitOfWork, type Transaction } from '../db/unit-of-work.js'
import { checkDisplayName, checkSlug, displayKey, slugFrom } from '../domain/app-names.js'
import { checkInstructions } from '../domain/summary-instructions.js'
import { DomainError, invalid } from '../domain/errors.js'
import { credentialId, digestsEqual, generateApiKey, newId, parseApiKey } from '../domain/keys.js'
import type { EventBus } from '../events/event-bus.js'
import type { RequestContext } from './context.js'
import { KeyCache, KnownKeyIds } from './key-cache.js'
import { isoTime as iso } from '../domain/time.js'

export interface Tenant {
  id: string
  name: string
  created_at: string
}
export interface App {
  tenant_id: string
  tenant_name: string
  id: string
  /** The slug: the handle of the app in the CLI and scripts (docs/reference/cli.md, "App names"). */
  name: string
  /** The free name a person gave it ("My Web App"). */
  display_name: string
  key_public_id: string | null
  created_at: string
  /**
   * Retention (docs/operations/data-lifecycle.md): days a profile may stay untouched, days a finished submission keeps
   * its text; null = off.
   */
  delete_profiles_after_days: number | null
  drop_submission_text_after_days: number | null
  /**
   * What the summaries of profiles this app writes to must cover or leave out (docs/guides/summary-instructions.md).
   */
  summary_instructions: string[]
}
/** An app as the dashboard shows it: the live key's public prefix only (the key itself is shown once). */
export interface TenantApp {
  id: string
  /** The slug (see App.name). */
  name: string
  displayName: string
  createdAt: string
  /** `pk_<public id>`, or null when the app has no live key (revoked). */
  keyPrefix: string | null
  keyCreatedAt: string | null
  deleteProfilesAfterDays: number | null
  dropSubmissionTextAfterDays: number | null
  summaryInstructions: string[]
}

/** An app's retention policy: whole days, null for off. */
export interface RetentionPolicy {
  deleteProfilesAfterDays: number | null
  dropSubmissionTextAfterDays: number | null
}

const MAX_RETENTION_DAYS = 36_500

function checkRetention(policy: RetentionPolicy): RetentionPolicy {
  for (const [key, value] of Object.entries(policy)) {
    if (value !== null && (!Number.isInteger(value) || value < 1 || value > MAX_RETENTION_DAYS))
      throw invalid(`${key} must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null for off`)
  }
  return policy
}

export interface IssuedKey {
  tenant_id: string
  app_id: string
  /** The app's slug and display name. */
  app_name: string
  display_name: string
  api_key: string
}

/** How a new app is named: a free display name, and a slug (derived from it when not given). */
export interface AppNaming {
  displayName: string
  slug?: string
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/

function checkName(kind: string, name: string) {
  if (!NAME_RE.test(name)) throw invalid(`${kind} name must be 1-63 characters of letters, digits, '.', '_' or '-'`)
}

const naming = (given: string | AppNaming): AppNaming => (typeof given === 'string' ? { displayName: given } : given)

/**
 * Tenants, apps and their API keys (docs/reference/api-conventions.md, "Authentication"). Reached from the CLI and
 * authentication, never by an app key.
 */
export class TenantService {
  private readonly keys?: KeyCache
  private readonly knownIds = new KnownKeyIds((since) => this.repo.keyIds(this.ds.manager, since, this.sharded))
  private readonly repo = new TenantRepository()
  private readonly sharded: boolean
  private readonly uow: UnitOfWork

  /**
   * Without a bus, other processes learn of a revoked key only from their own checks (the CLI always has one).
   * `cacheKeys`: answer recently verified keys from memory; only for a process that hears every revocation on its bus
   * (a server's LISTEN, or the embedded server it runs itself), never for one that could miss them.
   * `sharded`: the database is sharded by tenant (Citus): a key is looked up in its tenant's shard, found first from
   * the key routes on the coordinator, and the ids of the live keys are read from the routes alone.
   */
  constructor(
    private readonly ds: DataSource,
    bus?: EventBus,
    opts: { cacheKeys?: boolean; sharded?: boolean } = {},
  ) {
    this.uow = new UnitOfWork(ds, bus)
    this.sharded = opts.sharded ?? false
    if (!opts.cacheKeys || !bus) return
    const keys = (this.keys = new KeyCache())
    bus.subscribe('apiKeysRevoked', ({ tenantId, appId }) => keys.forgetApp(tenantId, appId))
    bus.subscribe('eventsMissed', () => keys.clear())
  }

  async createTenant(name: string): Promise<Tenant> {
    checkName('Tenant', name)
    const row = await this.repo.insertTenant(this.ds.manager, newId('ten'), name)
    if (!row) throw new DomainError('CONFLICT', `Tenant '${name}' already exists`)
    return toTenant(row)
  }

  /** The id of the tenant of that name or id; TENANT_NOT_FOUND when there is none. */
  async tenantId(nameOrId: string): Promise<string> {
    const id = await this.repo.tenantId(this.ds.manager, nameOrId)
    if (!id)
      throw new DomainError('TENANT_NOT_FOUND', `No tenant '${nameOrId}' (create it with \`profiler tenant create\`)`)
    return id
  }

  async listTenants(): Promise<Tenant[]> {
    return (await this.repo.tenants(this.ds.manager)).map(toTenant)
  }

  /**
   * Creates an app (and its tenant when missing) with a fresh key, returned only here. `app`: its display name (any
   * printable text, see checkDisplayName), or that and an explicit slug.
   */
  async createApp(tenantName: string, app: string | AppNaming): Promise<IssuedKey> {
    checkName('Tenant', tenantName)
    const checked = checkNaming(naming(app))
    return this.uow.run(undefined, async (tx) => {
      const tenantId = await this.repo.ensureTenant(tx.manager, tenantName, newId('ten'))
      return this.insertApp(tx, tenantId, checked, `tenant '${tenantName}'`)
    })
  }

  /**
   * The app with a fresh key. CONFLICT when the tenant has an app of that display name (compared by displayKey) or of
   * the explicit slug; a derived slug that is taken gets the first free "-2", "-3", ... suffix.
   */
  private async insertApp(tx: Transaction, tenantId: string, checked: AppNaming, where: string): Promise<IssuedKey> {
    const appId = newId('app')
    const key = displayKey(checked.displayName)
    const taken = (other: string) =>
      new DomainError(
        'CONFLICT',
        `An app named '${other}' already exists in ${where} (app names are compared ignoring case)`,
      )
    for (let attempt = 0; ; attempt++) {
      const other = await this.repo.displayKeyTaken(tx.manager, tenantId, key)
      if (other !== null) throw taken(other)
      const slug = checked.slug ?? (await this.freeSlug(tx, tenantId, slugFrom(checked.displayName)))
      if (
        await this.repo.insertApp(tx.manager, {
          tenantId,
          appId,
          slug,
          displayName: checked.displayName,
          displayKey: key,
        })
      ) {
        const issued = generateApiKey()
        await this.repo.insertKey(tx.manager, { publicId: issued.publicId, tenantId, appId, hash: issued.hash })
        this.knownIds.add(issued.publicId)
        return {
          tenant_id: tenantId,
          app_id: appId,
          app_name: slug,
          display_name: checked.displayName,
          api_key: issued.key,
        }
      }
      // lost a race to a concurrent insert: of the display name (answered above next time) or of the slug
      if (checked.slug !== undefined && (await this.repo.displayKeyTaken(tx.manager, tenantId, key)) === null) {
        throw new DomainError('CONFLICT', `An app with the slug '${checked.slug}' already exists in ${where}`)
      }
      if (attempt >= 5)
        throw new DomainError(
          'CONFLICT',
          `Could not find a free slug for '${checked.displayName}' in ${where}; give one`,
        )
    }
  }

  /** `base`, or `base-2`, `base-3`, ... whichever the tenant does not use yet. */
  private async freeSlug(tx: Transaction, tenantId: string, base: string): Promise<string> {
    const used = await this.repo.slugsLike(tx.manager, tenantId, base)
    if (!used.has(base)) return base
    for (let i = 2; ; i++) if (!used.has(`${base}-${i}`)) return `${base}-${i}`
  }

  async listApps(tenantName?: string): Promise<App[]> {
    const rows = await this.repo.apps(this.ds.manager, { nameOrId: tenantName })
    return rows.map((row) => ({
      tenant_id: row.tenant_id,
      tenant_name: row.tenant_name,
      id: row.id,
      name: row.name,
      display_name: row.display_name,
      created_at: iso(row.created_at),
      key_public_id: row.key_public_id,
      delete_profiles_after_days: row.delete_profiles_after_days,
      drop_submission_text_after_days: row.drop_submission_text_after_days,
      summary_instructions: row.summary_instructions ?? [],
    }))
  }

  /**
   * Replaces the app's key: the old one stops working at once (REST checks every request; open WebSocket
   * connections with it are closed by the apiKeysRevoked event). `byId`: tenant and app are ids, never names.
   */
  async rotateKey(tenantName: string, appName: string, opts: { byId?: boolean } = {}): Promise<IssuedKey> {
    return this.uow.run(undefined, async (tx) => {
      const app = await this.lockApp(tx, tenantName, appName, opts.byId)
      await this.repo.revokeKeys(tx.manager, app.tenant_id, app.id)
      const issued = generateApiKey()
      await this.repo.insertKey(tx.manager, {
        publicId: issued.publicId,
        tenantId: app.tenant_id,
        appId: app.id,
        hash: issued.hash,
      })
      this.knownIds.add(issued.publicId)
      this.revoked(tx, app.tenant_id, app.id)
      return {
        tenant_id: app.tenant_id,
        app_id: app.id,
        app_name: app.name,
        display_name: app.display_name,
        api_key: issued.key,
      }
    })
  }

  /** Revokes the app's key without issuing a new one. */
  async revokeKey(
    tenantName: string,
    appName: string,
    opts: { byId?: boolean } = {},
  ): Promise<{ tenant_id: string; app_id: string; revoked: number }> {
    return this.uow.run(undefined, async (tx) => {
      const app = await this.lockApp(tx, tenantName, appName, opts.byId)
      const revoked = await this.repo.revokeKeys(tx.manager, app.tenant_id, app.id)
      this.revoked(tx, app.tenant_id, app.id)
      return { tenant_id: app.tenant_id, app_id: app.id, revoked }
    })
  }

  // ---- one tenant's apps, by id (the dashboard) ----

  async appsOf(tenantId: string): Promise<TenantApp[]> {
    return (await this.repo.apps(this.ds.manager, { id: tenantId })).map(toTenantApp)
  }

  async appOf(tenantId: string, appId: string): Promise<TenantApp> {
    const app = (await this.appsOf(tenantId)).find((a) => a.id === appId)
    if (!app) throw new DomainError('APP_NOT_FOUND', `No app '${appId}'`)
    return app
  }

  /** The app by tenant name or id and app id, slug or display name (the CLI); APP_NOT_FOUND when there is none. */
  async appNamed(tenant: string, app: string): Promise<TenantApp> {
    const found = await this.uow.run(undefined, (tx) => this.lockApp(tx, tenant, app))
    return this.appOf(found.tenant_id, found.id)
  }

  async createAppIn(tenantId: string, app: string | AppNaming): Promise<{ app: TenantApp; apiKey: string }> {
    const checked = checkNaming(naming(app))
    const issued = await this.uow.run(undefined, async (tx) => {
      if (!(await this.repo.holdTenant(tx.manager, tenantId)))
        throw new DomainError('TENANT_NOT_FOUND', `No tenant '${tenantId}'`)
      return this.insertApp(tx, tenantId, checked, 'this account')
    })
    return { app: await this.appOf(tenantId, issued.app_id), apiKey: issued.api_key }
  }

  /**
   * Renames the app: a new display name, a new slug, or both (a part left undefined stays). The key and the id do not
   * change. `byId`: tenant and app are ids (the dashboard), else tenant name or id and app id, slug or display name.
   */
  async renameApp(
    tenant: string,
    app: string,
    to: { displayName?: string; slug?: string },
    opts: { byId?: boolean } = { byId: true },
  ): Promise<TenantApp> {
    if (to.displayName === undefined && to.slug === undefined)
      throw invalid('Give a new display name, a new slug, or both')
    const displayName = to.displayName === undefined ? undefined : checkDisplayName(to.displayName)
    const slug = to.slug === undefined ? undefined : checkSlug(to.slug)
    const found = await this.uow.run(undefined, async (tx) => {
      const locked = await this.lockApp(tx, tenant, app, opts.byId)
      const key = displayName === undefined ? undefined : displayKey(displayName)
      if (key !== undefined) {
        const other = await this.repo.displayKeyTaken(tx.manager, locked.tenant_id, key, locked.id)
        if (other !== null)
          throw new DomainError(
            'CONFLICT',
            `An app named '${other}' already exists (app names are compared ignoring case)`,
          )
      }
      if (slug !== undefined && (await this.repo.appNameTaken(tx.manager, locked.tenant_id, slug, locked.id))) {
        throw new DomainError('CONFLICT', `An app with the slug '${slug}' already exists`)
      }
      try {
        await this.repo.renameApp(tx.manager, locked.tenant_id, locked.id, { displayName, displayKey: key, slug })
      } catch (error) {
        // a concurrent rename or create took the name between the check and the update (unique violation; the
        // transaction is rolled back)
        const err = error as { code?: string; driverError?: { code?: string } }
        if (err.code === '23505' || err.driverError?.code === '23505')
          throw new DomainError('CONFLICT', 'An app with that name or slug was just created; try again')
        throw error
      }
      return locked
    })
    return this.appOf(found.tenant_id, found.id)
  }

  /**
   * Sets the app's retention policy (each part null for off; a part left undefined keeps its value). `byId`: tenant and
   * app are ids (the dashboard), else names or ids (the CLI). Applied by the worker's next retention sweep.
   */
  async setRetention(
    tenant: string,
    app: string,
    policy: Partial<RetentionPolicy>,
    opts: { byId?: boolean } = {},
  ): Promise<TenantApp> {
    const found = await this.uow.run(undefined, async (tx) => {
      const locked = await this.lockApp(tx, tenant, app, opts.byId)
      const current = (await this.repo.apps(tx.manager, { id: locked.tenant_id })).find((x) => x.id === locked.id)!
      const next = checkRetention({
        deleteProfilesAfterDays:
          policy.deleteProfilesAfterDays === undefined
            ? current.delete_profiles_after_days
            : policy.deleteProfilesAfterDays,
        dropSubmissionTextAfterDays:
          policy.dropSubmissionTextAfterDays === undefined
            ? current.drop_submission_text_after_days
            : policy.dropSubmissionTextAfterDays,
      })
      await this.repo.setRetention(tx.manager, locked.tenant_id, locked.id, next)
      return locked
    })
    return this.appOf(found.tenant_id, found.id)
  }

  /**
   * Replaces the app's summary instructions (at most 5 of 1-200 characters; [] clears them). They apply from the next
   * batch of a profile whose newest submission comes from this app, and to its re-extractions; summaries already
   * written stay until then. `byId`: tenant and app are ids (the dashboard), else names or ids (the CLI).
   */
  async setSummaryInstructions(
    tenant: string,
    app: string,
    instructions: unknown,
    opts: { byId?: boolean } = {},
  ): Promise<TenantApp> {
    const checked = checkInstructions(instructions)
    const found = await this.uow.run(undefined, async (tx) => {
      const locked = await this.lockApp(tx, tenant, app, opts.byId)
      await this.repo.setSummaryInstructions(tx.manager, locked.tenant_id, locked.id, checked)
      return locked
    })
    return this.appOf(found.tenant_id, found.id)
  }

  /** Deletes the app and its keys (its profiles belong to the tenant and stay). */
  async deleteApp(tenantId: string, appId: string): Promise<void> {
    await this.uow.run(undefined, async (tx) => {
      await this.lockApp(tx, tenantId, appId, true)
      await this.repo.deleteApp(tx.manager, tenantId, appId)
      this.revoked(tx, tenantId, appId)
    })
  }

  /**
   * The app's keys stop working: once the transaction commits, this process forgets them before it answers (a Postgres
   * bus delivers even our own events asynchronously), and every process is told.
   */
  private revoked(tx: Transaction, tenantId: string, appId: string) {
    tx.onCommit(() => this.keys?.forgetApp(tenantId, appId))
    tx.raise('apiKeysRevoked', { tenantId, appId })
  }

  /**
   * The context of a valid, live key; throws MISSING_API_KEY / INVALID_API_KEY otherwise. A key verified lately is
   * answered from the key cache; `fresh` always asks the database (the periodic re-check of open WebSockets).
   * `id` is the key's `credentialId()` when the caller has it already (one digest per request).
   */
  async authenticate(
    key: string | undefined,
    requestId: string,
    opts: { fresh?: boolean; id?: string } = {},
  ): Promise<RequestContext> {
    if (!key) throw new DomainError('MISSING_API_KEY', 'Missing API key')
    const publicId = parseApiKey(key)
    if (!publicId) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    const cacheKey = opts.id ?? credentialId(key)!
    const cached = opts.fresh ? undefined : this.keys?.get(cacheKey)
    if (cached) return { tenantId: cached.tenantId, appId: cached.appId, requestId }
    const given = Buffer.from(cacheKey, 'base64url')
    const began = this.keys?.begin() ?? 0
    const row = await this.liveKey(publicId)
    // Compare against a dummy digest when unknown, so timing does not tell which public ids exist.
    const stored: Buffer = row?.key_hash ?? Buffer.alloc(given.length)
    if (!digestsEqual(given, stored) || !row) throw new DomainError('INVALID_API_KEY', 'Invalid API key')
    const owner = { tenantId: row.tenant_id, appId: row.app_id }
    this.keys?.set(cacheKey, owner, began)
    return { ...owner, requestId }
  }

  private async liveKey(publicId: string) {
    if (!this.sharded) return this.repo.liveKey(this.ds.manager, publicId)
    // An unknown public id is still looked up (in no tenant), so that it takes the two statements a known one takes.
    const tenantId = await this.repo.keyTenant(this.ds.manager, publicId)
    return this.repo.liveKey(this.ds.manager, publicId, tenantId ?? '')
  }

  /**
   * Whether a key of that public id may exist, from memory (KnownKeyIds): what the failure budget asks before it looks
   * up a key from an address that is over its limit. False means certainly not; true, that a lookup will tell.
   */
  mayExist(publicId: string): Promise<boolean> {
    return this.knownIds.has(publicId)
  }

  /** First start on an empty database: tenant `default` with app `default`; returns its key, or null. */
  async bootstrap(): Promise<IssuedKey | null> {
    if ((await this.repo.tenantCount(this.ds.manager)) > 0) return null
    try {
      return await this.createApp('default', 'default')
    } catch (err) {
      if (err instanceof DomainError && err.code === 'CONFLICT') return null // another process won the race
      throw err
    }
  }

  private async lockApp(tx: Transaction, tenantName: string, appName: string, byId = false) {
    let key: string | undefined
    try {
      key = byId ? undefined : displayKey(checkDisplayName(appName))
    } catch {
      key = undefined // not a possible display name: an id or slug only
    }
    const app = await this.repo.lockApp(tx.manager, tenantName, appName, byId, key)
    if (!app) throw new DomainError('APP_NOT_FOUND', `No app '${appName}' in tenant '${tenantName}'`)
    return app
  }
}

const toTenant = (row: TenantRow): Tenant => ({ id: row.id, name: row.name, created_at: iso(row.created_at) })
const toTenantApp = (row: AppRow): TenantApp => ({
  id: row.id,
  name: row.name,
  displayName: row.display_name,
  createdAt: iso(row.created_at),
  keyPrefix: row.key_public_id ? `pk_${row.key_public_id}` : null,
  keyCreatedAt: row.key_created_at ? iso(row.key_created_at) : null,
  deleteProfilesAfterDays: row.delete_profiles_after_days,
  dropSubmissionTextAfterDays: row.drop_submission_text_after_days,
  summaryInstructions: row.summary_instructions ?? [],
})

function checkNaming(given: AppNaming): AppNaming {
  return {
    displayName: checkDisplayName(given.displayName),
    slug: given.slug === undefined || given.slug === null ? undefined : checkSlug(given.slug),
  }
}

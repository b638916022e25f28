import type { Command } from 'commander'
import { print, withCli } from '../shared.js'

interface AppOptions {
  tenant: string
  app: string
  json?: boolean
}

/** A retention option: a whole number of days, or `off` (null); undefined when not given (unchanged). */
export function retentionDays(value: string | undefined, option: string): number | null | undefined {
  if (value === undefined) return undefined
  if (value === 'off') return null
  if (!/^\d{1,6}$/.test(value)) throw new Error(`${option} must be a number of days or 'off'`)
  return Number(value)
}

/** `app create|list|rename|rotate|revoke|retention|instructions`. */
export function addAppCommands(program: Command): void {
  const app = program.command('app').description('manage apps and their API keys')
  addCreate(app)
  addList(app)
  addRename(app)
  addKeyCommands(app)
  addRetention(app)
  addInstructions(app)
}

function addCreate(app: Command): void {
  app
    .command('create')
    .description('create an app (and its tenant when missing) and print its key once')
    .requiredOption('--tenant <tenant>', 'tenant name (created when missing)')
    .requiredOption('--name <name>', 'the app\'s display name, any printable text of 1-100 characters ("My Web App")')
    .option(
      '--slug <slug>',
      "its handle for the CLI and scripts (letters, digits, '.', '_', '-'); derived from the name when omitted",
    )
    .option(
      '--json',
      'machine-readable output: {"tenant_id", "app_id", "app_name" (the slug), "display_name", "api_key"}',
    )
    .action((opts: { tenant: string; name: string; slug?: string; json?: boolean }) =>
      withCli(async ({ tenants }) => {
        const created = await tenants.createApp(opts.tenant, { displayName: opts.name, slug: opts.slug })
        print(
          !!opts.json,
          created,
          () =>
            `Created app "${created.display_name}" (slug ${created.app_name}, id ${created.app_id}) ` +
            `in tenant ${opts.tenant} (${created.tenant_id}).\nAPI key (shown once): ${created.api_key}`,
        )
      }),
    )
}

function addList(app: Command): void {
  app
    .command('list')
    .description('list apps (only the public part of their keys): tenant, slug, id, key, display name')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--json', 'machine-readable output')
    .action((opts: { tenant?: string; json?: boolean }) =>
      withCli(async ({ tenants }) => {
        const apps = await tenants.listApps(opts.tenant)
        const line = (one: (typeof apps)[number]) => {
          const key = one.key_public_id ? `pk_${one.key_public_id}_…` : '(revoked)'
          return `${one.tenant_name}\t${one.name}\t${one.id}\tkey ${key}\t${one.display_name}`
        }
        print(!!opts.json, apps, () => apps.map(line).join('\n') || '(no apps)')
      }),
    )
}

function addRename(app: Command): void {
  app
    .command('rename')
    .description('give an app a new display name and/or slug (its id and key stay)')
    .requiredOption('--tenant <tenant>', 'tenant name or id')
    .requiredOption('--app <app>', 'app slug, id or display name')
    .option('--name <name>', 'the new display name')
    .option('--slug <slug>', 'the new slug')
    .option('--json', 'machine-readable output')
    .action((opts: AppOptions & { name?: string; slug?: string }) =>
      withCli(async ({ tenants }) => {
        const names = { displayName: opts.name, slug: opts.slug }
        const renamed = await tenants.renameApp(opts.tenant, opts.app, names, { byId: false })
        print(!!opts.json, renamed, () => `App ${renamed.id} is now "${renamed.displayName}" (slug ${renamed.name}).`)
      }),
    )
}

function addKeyCommands(app: Command): void {
  const verbs = [
    ['rotate', 'replace the app key (the old key stops working at once)'],
    ['revoke', 'revoke the app key'],
  ] as const
  for (const [verb, description] of verbs) {
    app
      .command(verb)
      .description(description)
      .requiredOption('--tenant <tenant>', 'tenant name or id')
      .requiredOption('--name <name>', 'app slug, id or display name')
      .option('--json', 'machine-readable output')
      .action((opts: { tenant: string; name: string; json?: boolean }) =>
        withCli(async ({ tenants }) => {
          // The revocation is announced (NOTIFY, staged in its transaction), so running services drop the old key
          // from their caches and close WebSockets on it at once.
          if (verb === 'rotate') {
            const rotated = await tenants.rotateKey(opts.tenant, opts.name)
            const text = `Rotated the key of app ${opts.name}.\nNew API key (shown once): ${rotated.api_key}`
            print(!!opts.json, rotated, () => text)
          } else {
            const revoked = await tenants.revokeKey(opts.tenant, opts.name)
            const text = revoked.revoked ? `Revoked the key of app ${opts.name}.` : `App ${opts.name} had no live key.`
            print(!!opts.json, revoked, () => text)
          }
        }),
      )
  }
}

function addRetention(app: Command): void {
  app
    .command('retention')
    .description(
      "show or set the app's retention policy, applied by the worker's sweep (docs/operations/data-lifecycle.md)",
    )
    .requiredOption('--tenant <tenant>', 'tenant name or id')
    .requiredOption('--app <app>', 'app slug, id or display name')
    .option(
      '--delete-after-days <n>',
      "delete profiles untouched for n days (when every app that wrote them agrees); 'off' to stop",
    )
    .option(
      '--drop-text-after-days <n>',
      "drop the raw text of this app's submissions n days after they finished; 'off' to stop",
    )
    .option('--json', 'machine-readable output')
    .action((opts: AppOptions & { deleteAfterDays?: string; dropTextAfterDays?: string }) =>
      withCli(async ({ tenants }) => {
        const updated = await tenants.setRetention(opts.tenant, opts.app, {
          deleteProfilesAfterDays: retentionDays(opts.deleteAfterDays, '--delete-after-days'),
          dropSubmissionTextAfterDays: retentionDays(opts.dropTextAfterDays, '--drop-text-after-days'),
        })
        const show = (days: number | null) => (days === null ? 'off' : `${days} days`)
        const value = {
          app_id: updated.id,
          name: updated.name,
          delete_profiles_after_days: updated.deleteProfilesAfterDays,
          drop_submission_text_after_days: updated.dropSubmissionTextAfterDays,
        }
        print(
          !!opts.json,
          value,
          () =>
            `App ${updated.name}: delete untouched profiles after ${show(updated.deleteProfilesAfterDays)}; ` +
            `drop submission text after ${show(updated.dropSubmissionTextAfterDays)}.`,
        )
      }),
    )
}

function addInstructions(app: Command): void {
  app
    .command('instructions')
    .description(
      "show or set the app's summary instructions: what summaries must cover or leave out " +
        '(docs/guides/summary-instructions.md)',
    )
    .requiredOption('--tenant <tenant>', 'tenant name or id')
    .requiredOption('--app <app>', 'app slug, id or display name')
    .option(
      '--set <instruction...>',
      'replace them with these (at most 5, each 1-200 characters), ' +
        'e.g. --set "leave out age" "mention interests first"',
    )
    .option('--clear', 'remove them all')
    .option('--json', 'machine-readable output')
    .action((opts: AppOptions & { set?: string[]; clear?: boolean }) =>
      withCli(async ({ tenants }) => {
        if (opts.set && opts.clear) throw new Error('Give --set or --clear, not both')
        const changing = opts.set || opts.clear
        const found = changing
          ? await tenants.setSummaryInstructions(opts.tenant, opts.app, opts.clear ? [] : opts.set)
          : await tenants.appNamed(opts.tenant, opts.app)
        const value = { app_id: found.id, name: found.name, summary_instructions: found.summaryInstructions }
        const numbered = found.summaryInstructions.map((text, i) => `  ${i + 1}. ${text}`).join('\n')
        print(!!opts.json, value, () =>
          found.summaryInstructions.length
            ? `Summary instructions of app ${found.name}:\n${numbered}`
            : `App ${found.name} has no summary instructions.`,
        )
      }),
    )
}

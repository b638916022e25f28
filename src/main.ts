import 'reflect-metadata'
import { Command, Option } from 'commander'
import v8 from 'node:v8'
import type { Cli, Role } from './app.js'
import type { ExtractOptions } from './cli/extract.js'
import type { Config } from './config.js'

// Only commander is loaded up front: `--help` and usage errors need nothing else, and each command loads what it uses
// (measured here: TypeORM alone is 0.3-0.4 s of module loading, zod 0.1 s, the whole service 1.5 s and more).

async function config(): Promise<Config> {
  const { loadConfig } = await import('./config.js')
  return loadConfig()
}

async function run(role: Role) {
  // Loaded here, not at the top: the admin commands need none of the service (nor the NLP models), and each CLI
  // call starts faster without them.
  const { startProfiler } = await import('./app.js')
  const p = await startProfiler(await config(), { role, printBootstrapKey: true })
  const what = role === 'all' ? 'API and worker' : role === 'api' ? 'API' : 'worker'
  p.log.info({ url: p.url, database: p.db.mode }, `Profiler ${what} running${p.url ? ` on ${p.url}` : ''}`)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    p.log.info(`${signal} received, shutting down`)
    // Whatever hangs, the process goes within the configured time (25 s is a common orchestrator grace period).
    setTimeout(() => {
      p.log.error(`shutdown took longer than ${p.config.shutdownTimeoutMs} ms; exiting anyway`)
      process.exit(1)
    }, p.config.shutdownTimeoutMs).unref()
    await p.close()
    p.log.info('shut down')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/**
 * Runs a CLI action with what app.ts's openCli builds for it: the migrated database (through a running embedded service
 * when there is one) and the services, as the service builds them.
 *
 * Unless the command is `long` (work that grows with the data: migrate, reindex), V8 compiles WebAssembly with its
 * baseline compiler only: when the command starts the embedded database itself, optimizing PGlite's hot functions
 * in the background (TurboFan) cost about a second of CPU that a one-second process never earns back. Measured with
 * `tenant list --json` on a migrated data dir (load 6): 1.9-2.3 s of CPU and 2.5-3.6 s wall before, 0.9-1.2 s both
 * after. The service itself keeps V8's defaults (its database runs for long, and optimized).
 */
async function withCli<T>(fn: (cli: Cli) => Promise<T>, opts: { long?: boolean } = {}): Promise<T> {
  if (!opts.long) v8.setFlagsFromString('--liftoff-only') // before PGlite compiles its module, so it applies to it
  const [{ openCli }, cfg] = await Promise.all([import('./app.js'), config()])
  const cli = await openCli(cfg)
  try {
    return await fn(cli)
  } finally {
    await cli.close()
  }
}

const print = (json: boolean, value: unknown, text: () => string) => {
  process.stdout.write((json ? JSON.stringify(value, null, 2) : text()) + '\n')
}

const program = new Command('profiler')
  .description('Profiler: structured profiles from what people write')
  .showHelpAfterError()

program
  .command('start')
  .description('API and worker in one process (the default way to run)')
  .action(() => run('all'))
program
  .command('serve')
  .description('API only (run workers separately)')
  .action(() => run('api'))
program
  .command('worker')
  .description('worker only')
  .action(() => run('worker'))
program
  .command('migrate')
  .description('apply database migrations')
  .action(() =>
    withCli(
      async () => {
        process.stdout.write('Migrations applied.\n')
      },
      { long: true },
    ),
  )

const tenant = program.command('tenant').description('manage tenants')
tenant
  .command('create <name>')
  .description('create a tenant')
  .option('--json', 'machine-readable output')
  .action((name: string, o: { json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const t = await tenants.createTenant(name)
      print(
        !!o.json,
        { tenant_id: t.id, name: t.name, created_at: t.created_at },
        () => `Created tenant ${t.name} (${t.id})`,
      )
    }),
  )
tenant
  .command('list')
  .description('list tenants')
  .option('--json', 'machine-readable output')
  .action((o: { json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const ts = await tenants.listTenants()
      print(!!o.json, ts, () => ts.map((t) => `${t.id}\t${t.name}\t${t.created_at}`).join('\n') || '(no tenants)')
    }),
  )

const app = program.command('app').description('manage apps and their API keys')
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
  .action((o: { tenant: string; name: string; slug?: string; json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const k = await tenants.createApp(o.tenant, { displayName: o.name, slug: o.slug })
      print(
        !!o.json,
        k,
        () =>
          `Created app "${k.display_name}" (slug ${k.app_name}, id ${k.app_id}) in tenant ${o.tenant} (${k.tenant_id}).\nAPI key (shown once): ${k.api_key}`,
      )
    }),
  )
app
  .command('list')
  .description('list apps (only the public part of their keys): tenant, slug, id, key, display name')
  .option('--tenant <tenant>', 'only this tenant')
  .option('--json', 'machine-readable output')
  .action((o: { tenant?: string; json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const apps = await tenants.listApps(o.tenant)
      print(
        !!o.json,
        apps,
        () =>
          apps
            .map(
              (a) =>
                `${a.tenant_name}\t${a.name}\t${a.id}\tkey ${a.key_public_id ? `pk_${a.key_public_id}_…` : '(revoked)'}\t${a.display_name}`,
            )
            .join('\n') || '(no apps)',
      )
    }),
  )
app
  .command('rename')
  .description('give an app a new display name and/or slug (its id and key stay)')
  .requiredOption('--tenant <tenant>', 'tenant name or id')
  .requiredOption('--app <app>', 'app slug, id or display name')
  .option('--name <name>', 'the new display name')
  .option('--slug <slug>', 'the new slug')
  .option('--json', 'machine-readable output')
  .action((o: { tenant: string; app: string; name?: string; slug?: string; json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const a = await tenants.renameApp(o.tenant, o.app, { displayName: o.name, slug: o.slug }, { byId: false })
      print(!!o.json, a, () => `App ${a.id} is now "${a.displayName}" (slug ${a.name}).`)
    }),
  )
for (const [verb, desc] of [
  ['rotate', 'replace the app key (the old key stops working at once)'],
  ['revoke', 'revoke the app key'],
] as const) {
  app
    .command(verb)
    .description(desc)
    .requiredOption('--tenant <tenant>', 'tenant name or id')
    .requiredOption('--name <name>', 'app slug, id or display name')
    .option('--json', 'machine-readable output')
    .action((o: { tenant: string; name: string; json?: boolean }) =>
      withCli(async ({ tenants: s }) => {
        // The revocation is announced (NOTIFY, staged in its transaction), so running services drop the old key from their
        // caches and close WebSockets on it at once: through LISTEN on a server, through the embedded server otherwise.
        if (verb === 'rotate') {
          const k = await s.rotateKey(o.tenant, o.name)
          print(!!o.json, k, () => `Rotated the key of app ${o.name}.\nNew API key (shown once): ${k.api_key}`)
        } else {
          const r = await s.revokeKey(o.tenant, o.name)
          print(!!o.json, r, () => (r.revoked ? `Revoked the key of app ${o.name}.` : `App ${o.name} had no live key.`))
        }
      }),
    )
}

/** A retention option: a whole number of days, or `off`; undefined when not given (unchanged). */
function days(v: string | undefined, option: string): number | null | undefined {
  if (v === undefined) return undefined
  if (v === 'off') return null
  if (!/^\d{1,6}$/.test(v)) throw new Error(`${option} must be a number of days or 'off'`)
  return Number(v)
}

app
  .command('retention')
  .description("show or set the app's retention policy, applied by the worker's sweep (see README: Retention)")
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
  .action((o: { tenant: string; app: string; deleteAfterDays?: string; dropTextAfterDays?: string; json?: boolean }) =>
    withCli(async ({ tenants }) => {
      const a = await tenants.setRetention(o.tenant, o.app, {
        deleteProfilesAfterDays: days(o.deleteAfterDays, '--delete-after-days'),
        dropSubmissionTextAfterDays: days(o.dropTextAfterDays, '--drop-text-after-days'),
      })
      const show = (n: number | null) => (n === null ? 'off' : `${n} days`)
      print(
        !!o.json,
        {
          app_id: a.id,
          name: a.name,
          delete_profiles_after_days: a.deleteProfilesAfterDays,
          drop_submission_text_after_days: a.dropSubmissionTextAfterDays,
        },
        () =>
          `App ${a.name}: delete untouched profiles after ${show(a.deleteProfilesAfterDays)}; drop submission text after ${show(a.dropSubmissionTextAfterDays)}.`,
      )
    }),
  )

app
  .command('instructions')
  .description(
    "show or set the app's summary instructions: what summaries must cover or leave out (see README: Summary instructions)",
  )
  .requiredOption('--tenant <tenant>', 'tenant name or id')
  .requiredOption('--app <app>', 'app slug, id or display name')
  .option(
    '--set <instruction...>',
    'replace them with these (at most 5, each 1-200 characters), e.g. --set "leave out age" "mention interests first"',
  )
  .option('--clear', 'remove them all')
  .option('--json', 'machine-readable output')
  .action((o: { tenant: string; app: string; set?: string[]; clear?: boolean; json?: boolean }) =>
    withCli(async ({ tenants }) => {
      if (o.set && o.clear) throw new Error('Give --set or --clear, not both')
      const a =
        o.set || o.clear
          ? await tenants.setSummaryInstructions(o.tenant, o.app, o.clear ? [] : o.set)
          : await tenants.appNamed(o.tenant, o.app)
      print(!!o.json, { app_id: a.id, name: a.name, summary_instructions: a.summaryInstructions }, () =>
        a.summaryInstructions.length
          ? `Summary instructions of app ${a.name}:\n${a.summaryInstructions.map((i, n) => `  ${n + 1}. ${i}`).join('\n')}`
          : `App ${a.name} has no summary instructions.`,
      )
    }),
  )

async function generatedPassword(): Promise<string> {
  const { randomToken } = await import('./domain/keys.js')
  return randomToken(20)
}

/** Standard input as text, refused past `maxBytes` (without reading the rest). */
async function readStdin(maxBytes = 4096, what = 'standard input'): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of process.stdin) {
    size += (c as Buffer).length
    if (size > maxBytes) {
      const { DomainError } = await import('./domain/errors.js')
      throw new DomainError('VALIDATION_FAILED', `${what} is over ${maxBytes} bytes`)
    }
    chunks.push(c as Buffer)
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

const account = program
  .command('account')
  .description('manage dashboard accounts and sign-up invites (PROFILER_SIGNUP=closed|invite)')
account
  .command('create')
  .description('create a dashboard account; it owns a new tenant, or the one given with --tenant')
  .requiredOption('--email <email>', 'e-mail address (the sign-in name)')
  .option('--tenant <tenant>', 'an existing tenant (name or id) for the account, e.g. default')
  .option('--password-stdin', 'read the password from standard input; otherwise one is generated and printed once')
  .option('--json', 'machine-readable output')
  .action((o: { email: string; tenant?: string; passwordStdin?: boolean; json?: boolean }) =>
    withCli(async ({ accounts }) => {
      const password = o.passwordStdin ? await readStdin() : await generatedPassword()
      const a = await accounts.createAccount(o.email, password, { tenant: o.tenant })
      const out = {
        account_id: a.id,
        email: a.email,
        tenant_id: a.tenantId,
        tenant_name: a.tenantName,
        ...(o.passwordStdin ? {} : { password }),
      }
      print(
        !!o.json,
        out,
        () =>
          `Created account ${a.email} (${a.id}) for tenant ${a.tenantName} (${a.tenantId}).` +
          (o.passwordStdin ? '' : `\nPassword (shown once): ${password}`),
      )
    }),
  )
account
  .command('invite')
  .description('create an invite code for sign-up (PROFILER_SIGNUP=invite); printed once')
  .option('--tenant <tenant>', 'the tenant (name or id) the new accounts join; default: each gets a new tenant')
  .addOption(new Option('--uses <n>', 'how many sign-ups the code allows').default('1'))
  .addOption(new Option('--expires-hours <h>', 'hours until the code expires').default('168'))
  .option('--json', 'machine-readable output')
  .action((o: { tenant?: string; uses: string; expiresHours: string; json?: boolean }) =>
    withCli(async ({ accounts }) => {
      const i = await accounts.createInvite({
        tenant: o.tenant,
        uses: Number(o.uses),
        expiresHours: Number(o.expiresHours),
      })
      print(
        !!o.json,
        { invite_code: i.code, tenant_id: i.tenantId, uses: i.uses, expires_at: i.expiresAt },
        () =>
          `Invite code (shown once; ${i.uses} sign-up${i.uses === 1 ? '' : 's'}, until ${i.expiresAt}${i.tenantId ? `, into tenant ${i.tenantId}` : ''}):\n  ${i.code}`,
      )
    }),
  )
account
  .command('list')
  .description('list dashboard accounts')
  .option('--json', 'machine-readable output')
  .action((o: { json?: boolean }) =>
    withCli(async ({ accounts }) => {
      const as = await accounts.listAccounts()
      print(
        !!o.json,
        as,
        () =>
          as.map((a) => `${a.email}\t${a.id}\ttenant ${a.tenantName}\t${a.createdAt}`).join('\n') || '(no accounts)',
      )
    }),
  )
account
  .command('set-password')
  .description("set an account's password (ends its sessions)")
  .requiredOption('--email <email>', 'the account')
  .option('--password-stdin', 'read the password from standard input; otherwise one is generated and printed once')
  .option('--json', 'machine-readable output')
  .action((o: { email: string; passwordStdin?: boolean; json?: boolean }) =>
    withCli(async ({ accounts }) => {
      const password = o.passwordStdin ? await readStdin() : await generatedPassword()
      const a = await accounts.resetPassword(o.email, password)
      print(
        !!o.json,
        { account_id: a.id, email: a.email, ...(o.passwordStdin ? {} : { password }) },
        () =>
          `Password of ${a.email} set; its sessions have ended.` +
          (o.passwordStdin ? '' : `\nPassword (shown once): ${password}`),
      )
    }),
  )

program
  .command('reindex')
  .description(
    'bring summaries and embeddings (of profiles and evidence passages) in line with the configured AI provider, and rebuild the passages of submissions that have text and none (resumable; adapts the embedding column when the dimension changed)',
  )
  .option('--all', 're-embed every profile and passage, not only those without an embedding of the configured model')
  .option('--summaries', 'also rewrite every summary (one AI request per profile with PROFILER_AI=openai)')
  .addOption(new Option('--batch <n>', 'profiles (submissions, passages) per batch').default('50'))
  .action((o: { all?: boolean; summaries?: boolean; batch: string }) =>
    withCli(
      async (cli) => {
        const svc = await cli.reindexer()
        const changed = await svc.adaptColumn()
        if (changed)
          process.stdout.write(`Embedding column changed from ${changed.from} to ${changed.to} dimensions.\n`)
        const tty = process.stderr.isTTY
        let lastPct = -1
        const n = await svc.run(
          (done, total) => {
            const pct = total ? Math.floor((done / total) * 100) : 100
            if (tty) {
              const bar = '#'.repeat(Math.floor(pct / 5)).padEnd(20, '-')
              process.stderr.write(`\r[${bar}] ${done}/${total} (${pct}%)`)
            } else if (pct >= lastPct + 10 || done === total) {
              process.stderr.write(`reindex: ${done}/${total} (${pct}%)\n`)
              lastPct = pct
            }
          },
          { all: o.all, summaries: o.summaries, batch: Number(o.batch) },
        )
        if (tty) process.stderr.write('\n')
        process.stdout.write(`Reindexed ${n} profiles.\n`)
        // Evidence passages: rebuilt for submissions with text and none (older imports), then embedded where they lack
        // a vector of the configured model.
        const { progress } = await import('./cli/progress.js')
        const rebuilding = progress('passages', 'submissions')
        const rebuilt = await svc.rebuildPassages(rebuilding.update, { batch: Number(o.batch) })
        rebuilding.end()
        const embedding = progress('passages', 'passages')
        const embedded = await svc.embedPassages(embedding.update, { all: o.all, batch: Number(o.batch) })
        embedding.end()
        process.stdout.write(
          `Rebuilt ${rebuilt.passages} passages of ${rebuilt.submissions} submissions; embedded ${embedded} passages.\n`,
        )
      },
      { long: true },
    ),
  )

program
  .command('export')
  .description("export a tenant's profiles (or one profile) as JSON Lines: profile, history and submissions' metadata")
  .requiredOption('--tenant <tenant>', 'tenant name or id')
  .option('--profile <id>', 'only this profile')
  .option('--out <file>', 'write to this file (default: standard output)')
  .option(
    '--include-text',
    "also each submission's raw text (null where retention dropped it) and the evidence passages, which are its words",
  )
  .option('--json', 'print a JSON summary at the end (on standard error when the export goes to standard output)')
  .action((o: { tenant: string; profile?: string; out?: string; includeText?: boolean; json?: boolean }) =>
    withCli(
      async (cli) => {
        const [{ default: fs }, { default: events }, { progress }] = await Promise.all([
          import('node:fs'),
          import('node:events'),
          import('./cli/progress.js'),
        ])
        const tenantId = await cli.tenants.tenantId(o.tenant)
        const svc = await cli.exporter({ embed: false })
        const { header, records } = await svc.open(
          { tenantId, appId: 'cli', requestId: 'cli-export' },
          { profileId: o.profile, includeText: o.includeText },
        )
        const out = o.out ? fs.createWriteStream(o.out, { flags: 'w', mode: 0o600 }) : process.stdout
        const bar = progress('export', 'profiles')
        let end: Record<string, unknown> = {}
        let done = 0
        bar.update(0, header.profiles)
        for await (const r of records) {
          if (!out.write(JSON.stringify(r) + '\n')) await events.once(out, 'drain')
          if (r.type === 'profile') bar.update(++done, Math.max(done, header.profiles))
          if (r.type === 'end') end = r
        }
        bar.end()
        if (o.out)
          await new Promise<void>((resolve, reject) =>
            (out as ReturnType<typeof fs.createWriteStream>).end((e?: Error | null) => (e ? reject(e) : resolve())),
          )
        const summary = {
          tenant_id: tenantId,
          profiles: end.profiles,
          history: end.history,
          submissions: end.submissions,
          passages: end.passages,
          file: o.out ?? null,
        }
        const text = o.json
          ? JSON.stringify(summary, null, 2)
          : `Exported ${end.profiles} profiles, ${end.history} history entries, ${end.submissions} submissions, ${end.passages} passages.`
        ;(o.out ? process.stdout : process.stderr).write(text + '\n')
      },
      { long: true },
    ),
  )

program
  .command('import <file>')
  .description(
    'import an export (JSON Lines, "-" for standard input) into a tenant; idempotent: importing it again changes nothing',
  )
  .requiredOption('--tenant <tenant>', 'tenant name or id (it must exist)')
  .option('--json', 'machine-readable summary')
  .action((file: string, o: { tenant: string; json?: boolean }) =>
    withCli(
      async (cli) => {
        const [{ default: fs }, { progress }, { importSummary }] = await Promise.all([
          import('node:fs'),
          import('./cli/progress.js'),
          import('./services/export.service.js'),
        ])
        const tenantId = await cli.tenants.tenantId(o.tenant)
        const input = file === '-' ? process.stdin : fs.createReadStream(file)
        const svc = await cli.exporter({ embed: true })
        const bar = progress('import', 'profiles')
        const r = await svc.import({ tenantId, appId: 'cli', requestId: 'cli-import' }, input, {
          ...cli.config.imports,
          maxDataBytes: cli.config.limits.maxDataBytes,
          profiles: cli.config.profiles,
          onProgress: bar.update,
        })
        bar.end()
        const summary = {
          tenant_id: tenantId,
          ...importSummary(r),
        }
        print(
          !!o.json,
          summary,
          () =>
            `Imported ${r.profiles} profiles, ${r.history} history entries, ${r.submissions} new submissions (${r.submissionsKept} already there), ` +
            `${r.passages} new passages (${r.passagesKept} already there, ${r.passagesSkipped} skipped); ${r.embedded} profiles embedded.` +
            (r.passages ? ' Run `profiler reindex` to embed the passages.' : ''),
        )
      },
      { long: true },
    ),
  )

program
  .command('extract [text]')
  .description(
    'run the local extractor on a text (the argument, or standard input) and print what it finds; needs no database',
  )
  .addOption(
    new Option('--input-type <type>', "how to read the input, as the API's input_type")
      .choices(['text', 'conversation', 'structured'])
      .default('text'),
  )
  .option('--explain', 'for each value: the rule that produced it, its description and the text it matched')
  .option('--list-rules', "list the local extractor's rules and exit")
  .option('--json', 'machine-readable output')
  .action(async (text: string | undefined, o: ExtractOptions) => {
    // Loaded here, like the service: the NLP models take a moment that the other commands need not wait for.
    const { extractCommand } = await import('./cli/extract.js')
    // The API's bound on `data` (PROFILER_MAX_DATA_BYTES, 100 KiB by default) holds here too.
    const limit = (await config()).limits.maxDataBytes
    process.stdout.write(
      await extractCommand(text, o, () => readStdin(limit, 'the text on standard input (PROFILER_MAX_DATA_BYTES)')),
    )
  })

program
  .command('mcp')
  .description(
    "an MCP server on stdin/stdout for MCP hosts, bridged to a running service's /mcp endpoint (docs/mcp.md)",
  )
  .addOption(
    new Option('--url <url>', "the service's address, e.g. http://localhost:8080")
      .env('PROFILER_URL')
      .makeOptionMandatory(),
  )
  .addOption(new Option('--key <key>', "an app's API key").env('PROFILER_API_KEY').makeOptionMandatory())
  .addOption(
    new Option('--profile <id>', 'the profile the tools use when a call names none').env('PROFILER_PROFILE_ID'),
  )
  .action(async (o: { url: string; key: string; profile?: string }) => {
    // Standard output is the protocol: messages go to standard error, and a failure to connect ends the process.
    const { runStdioBridge, BridgeError } = await import('./mcp/stdio.js')
    try {
      await runStdioBridge(o)
    } catch (e) {
      if (!(e instanceof BridgeError)) throw e
      process.stderr.write(`profiler mcp: ${e.message}\n`)
      process.exit(1)
    }
    process.exit(0)
  })

/** Errors that are the user's to fix: their message alone, without a stack. */
async function expected(e: unknown): Promise<boolean> {
  const [{ ConfigError }, { MissingExtensionError }, { DomainError }] = await Promise.all([
    import('./config.js'),
    import('./db/database.js'),
    import('./domain/errors.js'),
  ])
  return e instanceof ConfigError || e instanceof MissingExtensionError || e instanceof DomainError
}

program.parseAsync(process.argv).catch(async (e) => {
  process.stderr.write(`profiler: ${(await expected(e)) ? e.message : (e?.stack ?? e)}\n`)
  process.exit(1)
})

import type { Command } from 'commander'
import type { Cli } from '../../app.js'
import { withCli } from '../shared.js'

interface ExportOptions {
  tenant: string
  profile?: string
  out?: string
  includeText?: boolean
  json?: boolean
}

/** `export`: a tenant's profiles (or one) as JSON Lines. */
export function addExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      "export a tenant's profiles (or one profile) as JSON Lines: profile, history and submissions' metadata",
    )
    .requiredOption('--tenant <tenant>', 'tenant name or id')
    .option('--profile <id>', 'only this profile')
    .option('--out <file>', 'write to this file (default: standard output)')
    .option(
      '--include-text',
      "also each submission's raw text (null where retention dropped it) " +
        'and the evidence passages, which are its words',
    )
    .option('--json', 'print a JSON summary at the end (on standard error when the export goes to standard output)')
    .action((opts: ExportOptions) => withCli((cli) => exportProfiles(cli, opts), { long: true }))
}

async function exportProfiles(cli: Cli, opts: ExportOptions): Promise<void> {
  const [{ default: fs }, { default: events }, { progress }] = await Promise.all([
    import('node:fs'),
    import('node:events'),
    import('../progress.js'),
  ])
  const tenantId = await cli.tenants.tenantId(opts.tenant)
  const exporter = await cli.exporter({ embed: false })
  const ctx = { tenantId, appId: 'cli', requestId: 'cli-export' }
  const { header, records } = await exporter.open(ctx, { profileId: opts.profile, includeText: opts.includeText })
  const out = opts.out ? fs.createWriteStream(opts.out, { flags: 'w', mode: 0o600 }) : process.stdout
  const bar = progress('export', 'profiles')
  let end: Record<string, unknown> = {}
  let done = 0
  bar.update(0, header.profiles)
  for await (const record of records) {
    if (!out.write(JSON.stringify(record) + '\n')) await events.once(out, 'drain')
    if (record.type === 'profile') bar.update(++done, Math.max(done, header.profiles))
    if (record.type === 'end') end = record
  }
  bar.end()
  if (opts.out) {
    const file = out as ReturnType<typeof fs.createWriteStream>
    await new Promise<void>((resolve, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolve())),
    )
  }
  const summary = {
    tenant_id: tenantId,
    profiles: end.profiles,
    history: end.history,
    submissions: end.submissions,
    passages: end.passages,
    file: opts.out ?? null,
  }
  const text = opts.json
    ? JSON.stringify(summary, null, 2)
    : `Exported ${end.profiles} profiles, ${end.history} history entries, ${end.submissions} submissions, ` +
      `${end.passages} passages.`
  ;(opts.out ? process.stdout : process.stderr).write(text + '\n')
}

import type { Command } from 'commander'
import type { Cli } from '../../app.js'
import { print, withCli } from '../shared.js'

interface ImportOptions {
  tenant: string
  json?: boolean
}

/** `import`: an export read back into a tenant. */
export function addImportCommand(program: Command): void {
  program
    .command('import <file>')
    .description(
      'import an export (JSON Lines, "-" for standard input) into a tenant; ' +
        'idempotent: importing it again changes nothing',
    )
    .requiredOption('--tenant <tenant>', 'tenant name or id (it must exist)')
    .option('--json', 'machine-readable summary')
    .action((file: string, opts: ImportOptions) => withCli((cli) => importFile(cli, file, opts), { long: true }))
}

async function importFile(cli: Cli, file: string, opts: ImportOptions): Promise<void> {
  const [{ default: fs }, { progress }, { importSummary }] = await Promise.all([
    import('node:fs'),
    import('../progress.js'),
    import('../../services/export.service.js'),
  ])
  const tenantId = await cli.tenants.tenantId(opts.tenant)
  const input = file === '-' ? process.stdin : fs.createReadStream(file)
  const importer = await cli.exporter({ embed: true })
  const bar = progress('import', 'profiles')
  const result = await importer.import({ tenantId, appId: 'cli', requestId: 'cli-import' }, input, {
    ...cli.config.imports,
    maxDataBytes: cli.config.limits.maxDataBytes,
    profiles: cli.config.profiles,
    onProgress: bar.update,
  })
  bar.end()
  const summary = { tenant_id: tenantId, ...importSummary(result) }
  print(
    !!opts.json,
    summary,
    () =>
      `Imported ${result.profiles} profiles, ${result.history} history entries, ` +
      `${result.submissions} new submissions (${result.submissionsKept} already there), ` +
      `${result.passages} new passages (${result.passagesKept} already there, ${result.passagesSkipped} skipped); ` +
      `${result.embedded} profiles embedded.` +
      (result.passages ? ' Run `profiler reindex` to embed the passages.' : ''),
  )
}

import type { Command } from 'commander'
import type { Role } from '../../app.js'
import { loadCliConfig, withCli } from '../shared.js'

const ROLE_NAMES: Record<Role, string> = { all: 'API and worker', api: 'API', worker: 'worker' }

/** Starts the service in `role` and stops it cleanly on SIGINT or SIGTERM, within the configured time. */
async function runService(role: Role): Promise<void> {
  // Loaded here, not at the top: the admin commands need none of the service (nor the NLP models).
  const { startProfiler } = await import('../../app.js')
  const profiler = await startProfiler(await loadCliConfig(), { role, printBootstrapKey: true })
  const where = profiler.url ? ` on ${profiler.url}` : ''
  profiler.log.info({ url: profiler.url, database: profiler.db.mode }, `Profiler ${ROLE_NAMES[role]} running${where}`)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    profiler.log.info(`${signal} received, shutting down`)
    // Whatever hangs, the process goes within the configured time (orchestrators kill it after their grace period).
    setTimeout(() => {
      profiler.log.error(`shutdown took longer than ${profiler.config.shutdownTimeoutMs} ms; exiting anyway`)
      process.exit(1)
    }, profiler.config.shutdownTimeoutMs).unref()
    await profiler.close()
    profiler.log.info('shut down')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/** `start`, `serve`, `worker` and `migrate`. */
export function addServiceCommands(program: Command): void {
  program
    .command('start')
    .description('API and worker in one process (the default way to run)')
    .action(() => runService('all'))
  program
    .command('serve')
    .description('API only (run workers separately)')
    .action(() => runService('api'))
  program
    .command('worker')
    .description('worker only')
    .action(() => runService('worker'))
  program
    .command('migrate')
    .description('apply database migrations')
    .action(() => withCli(async () => void process.stdout.write('Migrations applied.\n'), { long: true }))
}

import { Command } from 'commander'
import { addAccountCommands } from './commands/account.js'
import { addAppCommands } from './commands/app.js'
import { addExportCommand } from './commands/export.js'
import { addExtractCommand } from './commands/extract.js'
import { addImportCommand } from './commands/import.js'
import { addMcpCommand } from './commands/mcp.js'
import { addReindexCommand } from './commands/reindex.js'
import { addServiceCommands } from './commands/service.js'
import { addTenantCommands } from './commands/tenant.js'

/** The `profiler` command line: every command, each declared in its own file under commands/. */
export function buildProgram(): Command {
  const program = new Command('profiler')
    .description('Profiler: structured profiles from what people write')
    .showHelpAfterError()
  addServiceCommands(program)
  addTenantCommands(program)
  addAppCommands(program)
  addAccountCommands(program)
  addReindexCommand(program)
  addExportCommand(program)
  addImportCommand(program)
  addExtractCommand(program)
  addMcpCommand(program)
  return program
}

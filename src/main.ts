import 'reflect-metadata'
import { buildProgram } from './cli/program.js'
import { isUserError } from './cli/shared.js'

buildProgram()
  .parseAsync(process.argv)
  .catch(async (error) => {
    process.stderr.write(`profiler: ${(await isUserError(error)) ? error.message : (error?.stack ?? error)}\n`)
    process.exit(1)
  })

import v8 from 'node:v8'
import type { Cli } from '../app.js'
import type { Config } from '../config.js'

// Only commander is loaded up front: `--help` and usage errors need nothing else, and each command loads what it
// uses (TypeORM, zod and the service each take a noticeable part of a second to load).

/** The validated configuration from the environment. */
export async function loadCliConfig(): Promise<Config> {
  const { loadConfig } = await import('../config.js')
  return loadConfig()
}

/**
 * Runs a CLI action with what app.ts's openCli builds for it: the migrated database (through a running embedded
 * service when there is one) and the services, as the service builds them.
 *
 * Unless the command is `long` (work that grows with the data: migrate, reindex, export, import), V8 compiles
 * WebAssembly with its baseline compiler only: when the command starts the embedded database itself, optimising
 * PGlite's hot functions in the background costs about a second of CPU that a one-second process never earns back.
 * The service itself keeps V8's defaults (its database runs for long, and optimised).
 */
export async function withCli<T>(action: (cli: Cli) => Promise<T>, opts: { long?: boolean } = {}): Promise<T> {
  // Before PGlite compiles its module, so that the flag applies to it.
  if (!opts.long) v8.setFlagsFromString('--liftoff-only')
  const [{ openCli }, config] = await Promise.all([import('../app.js'), loadCliConfig()])
  const cli = await openCli(config)
  try {
    return await action(cli)
  } finally {
    await cli.close()
  }
}

/** Prints `value` as JSON with `--json`, else the human-readable text. */
export function print(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write((json ? JSON.stringify(value, null, 2) : text()) + '\n')
}

/** Standard input as text, refused past `maxBytes` (without reading the rest). */
export async function readStdin(maxBytes = 4096, what = 'standard input'): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      const { DomainError } = await import('../domain/errors.js')
      throw new DomainError('VALIDATION_FAILED', `${what} is over ${maxBytes} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
}

/** A new random password for an account created or reset without `--password-stdin`. */
export async function generatedPassword(): Promise<string> {
  const { randomToken } = await import('../domain/keys.js')
  return randomToken(20)
}

/** Errors that are the user's to fix: their message alone is printed, without a stack. */
export async function isUserError(error: unknown): Promise<boolean> {
  const [{ ConfigError }, { MissingExtensionError }, { DomainError }] = await Promise.all([
    import('../config.js'),
    import('../db/database.js'),
    import('../domain/errors.js'),
  ])
  return error instanceof ConfigError || error instanceof MissingExtensionError || error instanceof DomainError
}

import fs from 'node:fs'
import path from 'node:path'

/**
 * The package's root directory (where package.json is). Files read at run time that are not modules (the dashboard's
 * sources, the prompts) are found from here, so the same code runs from src/ (tsx, vitest) and from the build in
 * dist/src/ without copying them into dist/.
 */
export const PACKAGE_ROOT = findRoot(import.meta.dirname)

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

let version: string | undefined
/** The package's version (profiler_info, the MCP server's name and version). */
export function packageVersion(): string {
  version ??= String(JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')).version ?? 'unknown')
  return version
}

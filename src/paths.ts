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

// The service's source files, as the checks that read them (check-line-length.mjs, check-names.mjs) walk them.
import fs from 'node:fs'
import path from 'node:path'

/** The repository's root: what the checks name files relative to. */
export const root = path.resolve(import.meta.dirname, '..')

/** The TypeScript files below `dir` (src/ by default), depth first, each folder in the order it lists. */
export function* sourceFiles(dir = path.join(root, 'src')) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* sourceFiles(full)
    else if (entry.name.endsWith('.ts')) yield full
  }
}

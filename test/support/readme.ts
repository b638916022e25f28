// The documentation's examples as written: each code block that follows a `<!-- example: name -->` line of a page.
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * The code of example `name` in the Markdown page `file` (a path from the repository's root, e.g.
 * `docs/getting-started/clients.md`): the fenced block after its marker, exactly as the reader sees it.
 */
export function docExample(file: string, name: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8')
  const at = text.indexOf(`<!-- example: ${name} -->\n`)
  if (at < 0) throw new Error(`${file} has no example "${name}"`)
  const m = /^```\w*\n([\s\S]*?)^```/m.exec(text.slice(at))
  if (!m) throw new Error(`${file}'s example "${name}" has no code block`)
  return m[1]!
}

/** The code of the README's example `name` (the fenced block after its marker), exactly as the reader sees it. */
export function readmeExample(name: string): string {
  return docExample('README.md', name)
}

// The README's examples as written: each code block that follows a `<!-- example: name -->` line.
import fs from 'node:fs'
import path from 'node:path'

const README = path.resolve(import.meta.dirname, '../../README.md')

/** The code of the README's example `name` (the fenced block after its marker), exactly as the reader sees it. */
export function readmeExample(name: string): string {
  const text = fs.readFileSync(README, 'utf8')
  const at = text.indexOf(`<!-- example: ${name} -->\n`)
  if (at < 0) throw new Error(`README.md has no example "${name}"`)
  const m = /^```\w*\n([\s\S]*?)^```/m.exec(text.slice(at))
  if (!m) throw new Error(`README.md's example "${name}" has no code block`)
  return m[1]!
}

// Lines of the service's source longer than 120 characters (the formatter's width): the formatter wraps code, but
// not comments, strings or template literals. A few long strings (SQL, URLs, test names) are allowed; a growing number
// is not. Usage: node scripts/check-line-length.mjs [--list]
import fs from 'node:fs'
import path from 'node:path'
import { root, sourceFiles } from './source-files.mjs'

const WIDTH = 120
/** The share of lines in src/ allowed over WIDTH. */
const MAX_SHARE = 0.005

let lines = 0
const long = []
for (const file of sourceFiles()) {
  const text = fs.readFileSync(file, 'utf8').split('\n')
  lines += text.length
  text.forEach((line, i) => {
    if (line.length > WIDTH) long.push(`${path.relative(root, file)}:${i + 1} (${line.length})`)
  })
}
const share = long.length / lines
if (process.argv.includes('--list')) for (const where of long) console.log(where)
const summary = `${long.length} of ${lines} lines in src/ are over ${WIDTH} characters (${(share * 100).toFixed(2)} %)`
if (share > MAX_SHARE) {
  console.error(`${summary}: at most ${MAX_SHARE * 100} % may be. List them: node scripts/check-line-length.mjs --list`)
  process.exit(1)
}
console.log(summary)

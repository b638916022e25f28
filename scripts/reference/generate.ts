// Writes the generated reference pages of docs/ (npm run docs:reference). With --check, writes nothing and fails when
// a page differs from what the code generates (the drift test does the same).
import fs from 'node:fs'
import path from 'node:path'
import { referencePages, withGeneratedPart } from './pages.js'

const root = path.resolve(import.meta.dirname, '../..')
const check = process.argv.includes('--check')
let stale = 0
for (const [file, generate] of Object.entries(referencePages)) {
  const target = path.join(root, file)
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null
  const text = withGeneratedPart(current, await generate())
  if (current === text) continue
  if (check) {
    stale++
    process.stderr.write(`${file} is not what the code generates: run npm run docs:reference\n`)
  } else {
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.writeFileSync(target, text)
    process.stdout.write(`wrote ${file}\n`)
  }
}
if (stale) process.exit(1)

// One-letter names in the service's source: a parameter or variable of one letter says nothing of what it holds. Two
// are fine: a loop index (for, for-of) and a parameter of an arrow function whose body is one expression
// (`(a, b) => a - b`); `_` (unused) is no name. Any other fails. Usage: node scripts/check-names.mjs [--list]
import fs from 'node:fs'
import path from 'node:path'
import { root, sourceFiles } from './source-files.mjs'
import ts from 'typescript'

/** One-letter names allowed in src/: none is left, and none may come back. */
const MAX_NAMES = 0
const WORST_FILES = 10

/** A loop's index, or a parameter of a one-expression arrow function: a short name reads fine there. */
function allowed(node) {
  if (ts.isParameter(node)) return ts.isArrowFunction(node.parent) && !ts.isBlock(node.parent.body)
  const statement = node.parent?.parent
  return !!statement && (ts.isForStatement(statement) || ts.isForOfStatement(statement))
}

/** The parameters and variables of a file named with one letter where a name should say what it holds. */
function oneLetterNames(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if ((ts.isParameter(node) || ts.isVariableDeclaration(node)) && ts.isIdentifier(node.name)) {
      const name = node.name.text
      if (name.length === 1 && name !== '_' && !allowed(node)) {
        const { line } = source.getLineAndCharacterOfPosition(node.name.getStart(source))
        found.push(`${path.relative(root, file)}:${line + 1} ${name}`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const byFile = []
let declarations = 0
for (const file of sourceFiles()) {
  const found = oneLetterNames(file)
  declarations += found.length
  if (found.length) byFile.push({ file: path.relative(root, file), found })
}
if (process.argv.includes('--list')) for (const { found } of byFile) for (const where of found) console.log(where)
const summary = `${declarations} one-letter names in src/ (not a loop index or a one-expression arrow's parameter)`
const worst = byFile
  .sort((a, b) => b.found.length - a.found.length)
  .slice(0, WORST_FILES)
  .map(({ file, found }) => `  ${found.length} ${file}`)
  .join('\n')
if (declarations > MAX_NAMES) {
  console.error(`${summary}: at most ${MAX_NAMES} may be. The most:\n${worst}`)
  console.error('List them: node scripts/check-names.mjs --list')
  process.exit(1)
}
console.log(`${summary}; the most:\n${worst}`)

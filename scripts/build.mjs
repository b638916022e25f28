// The build: src/ and migrations/ compiled to JavaScript in dist/ (dist/src/main.js is the CLI), one file per module
// with source maps, by esbuild's TypeScript transform: the same per-file transform tsx and vitest apply, so the build
// runs the JavaScript the tests run (type checking stays in `npm test`), plus the local embedder's word vectors as a
// binary table (src/ai/local/vector-table.ts). It takes 1-3 s, mostly reading the vectors.
// dist/build.json records a digest of the sources it was built from, so a stale build can be told from a current one.
//   node scripts/build.mjs             # build (npm run build; `npm ci` runs it as `prepare`)
//   node scripts/build.mjs --if-stale  # build only when dist/ does not match the sources
// Plain JavaScript: it runs where only production dependencies are installed (esbuild is one, for the dashboard).
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const DIST = path.join(ROOT, 'dist')
const STAMP = path.join(DIST, 'build.json')
/** What the build compiles, and what else changes its output. */
const SOURCE_DIRS = ['src', 'migrations']
const INPUTS = ['tsconfig.json', 'scripts/build.mjs']

function sourceFiles() {
  const files = []
  for (const dir of SOURCE_DIRS) {
    for (const f of fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (f.isFile() && f.name.endsWith('.ts')) files.push(path.relative(ROOT, path.join(f.parentPath, f.name)))
    }
  }
  return files.sort()
}

/** A digest of every file the build reads (paths and contents): a few milliseconds for the whole tree. */
export function sourceDigest() {
  const h = crypto.createHash('sha256')
  for (const f of [...sourceFiles(), ...INPUTS])
    h.update(`${f}\0`)
      .update(fs.readFileSync(path.join(ROOT, f)))
      .update('\0')
  return h.digest('hex')
}

/** Whether dist/ was built, completely, from the sources as they are now. */
export function buildIsCurrent() {
  try {
    return JSON.parse(fs.readFileSync(STAMP, 'utf8')).sources === sourceDigest()
  } catch {
    return false
  }
}

/** A clean build: no output of a deleted source survives. The stamp is written last, so an interrupted build is stale. */
export async function buildDist() {
  const started = performance.now()
  const { build } = await import('esbuild')
  const digest = sourceDigest()
  fs.rmSync(DIST, { recursive: true, force: true })
  const files = sourceFiles()
  await build({
    absWorkingDir: ROOT,
    entryPoints: files,
    outdir: DIST,
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: 'tsconfig.json',
    logLevel: 'warning',
  })
  // The local embedder's word vectors as a binary table the compiled code reads at start-up (vector-table.ts).
  const embedder = await import(pathToFileURL(path.join(DIST, 'src/ai/local/local-embedder.js')).href)
  await embedder.writeBuiltVectorTable()
  fs.writeFileSync(STAMP, JSON.stringify({ sources: digest, builtAt: new Date().toISOString() }, null, 2) + '\n')
  return { files: files.length, ms: Math.round(performance.now() - started) }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && buildIsCurrent()) {
    process.stdout.write('dist/ is up to date\n')
  } else {
    const { files, ms } = await buildDist()
    process.stdout.write(`built dist/ from ${files} modules in ${ms} ms\n`)
  }
}

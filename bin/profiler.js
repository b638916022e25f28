#!/usr/bin/env node
// The CLI runs the compiled build in dist/ (`npm ci` makes it: the `prepare` script; `npm run build` remakes it).
import fs from 'node:fs'

const main = new URL('../dist/src/main.js', import.meta.url)
if (!fs.existsSync(main)) {
  process.stderr.write('profiler: there is no build in dist/; run `npm run build` (npm ci runs it)\n')
  process.exit(1)
}
// In a checkout (the sources are there), say so when the build is older than them rather than run old code silently.
if (fs.existsSync(new URL('../src/main.ts', import.meta.url))) {
  const { buildIsCurrent } = await import('../scripts/build.mjs')
  if (!buildIsCurrent()) process.stderr.write('profiler: warning: dist/ was built from other sources than these; run `npm run build`\n')
}
await import(main.href)

// Once before the suite: the build in dist/ made current with the sources, because the tests that start the CLI as a
// process run the compiled build (test/support/cli.ts), and must never run an older one. Nothing to do when `npm ci` or
// `npm run build` made it from these sources; otherwise a clean build (under a second).
import { execFileSync } from 'node:child_process'
import { ROOT } from './cli.js'

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' })
}

// Once before the suite:
// - the build in dist/ made current with the sources, because the tests that start the CLI as a process run the
// compiled build (test/support/cli.ts), and must never run an older one. Nothing to do when `npm ci` or
// `npm run build` made it from these sources; otherwise a clean build (under a second).
// - on the embedded database, the run's initialised cluster, which fresh databases copy
//   (test/support/cluster-template.ts).
import { execFileSync } from 'node:child_process'
import { ROOT } from './cli.js'
import { makeClusterTemplate } from './cluster-template.js'

export default async function setup(): Promise<() => void> {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' })
  return process.env.DATABASE_URL ? () => {} : makeClusterTemplate()
}

// The embedded database's initialised cluster, made once a run: initdb costs PGlite 2.4-3.3 s of CPU, a copy of its
// result about 0.15 s, and the suite makes well over a hundred fresh embedded databases. Only what initdb leaves: each
// test's database is still migrated by the service it starts, as a new installation's is.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { embeddedClusterDir, openPglite } from '../../src/db/embedded-postgres.js'

/** Where the run's cluster is: set by test/support/global-setup.ts, inherited by the test processes it forks. */
const ENV = 'PROFILER_TEST_CLUSTER_TEMPLATE'

/** Initialises the run's cluster and names it to the test processes; returns what removes it. */
export async function makeClusterTemplate(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-test-cluster-'))
  const db = await openPglite(embeddedClusterDir(dir))
  await db.close()
  process.env[ENV] = embeddedClusterDir(dir)
  return () => fs.rmSync(dir, { recursive: true, force: true })
}

/**
 * Gives a new embedded data dir the run's initialised cluster, when there is one (otherwise the service runs initdb).
 */
export function seedDataDir(dataDir: string): void {
  const template = process.env[ENV]
  if (template && fs.existsSync(template)) fs.cpSync(template, embeddedClusterDir(dataDir), { recursive: true })
}

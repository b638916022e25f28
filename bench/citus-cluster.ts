// Starts a private Citus cluster (a coordinator and 2 workers, initdb on free ports; test/support/pg-cluster.ts) and
// prints the environment that runs any test file or the service on it; stops it on Ctrl-C / SIGTERM.
// npx tsx bench/citus-cluster.ts            # then, in another shell, the printed exports and e.g.
// npx vitest run test/integration/search.test.ts
import { CitusCluster, citusInstalled } from '../test/support/pg-cluster.js'

if (!citusInstalled()) {
  console.error('Citus is not installed: run scripts/install-citus.sh as root first')
  process.exit(1)
}
const workers = Number(process.env.CITUS_WORKERS ?? 2)
const cluster = new CitusCluster(workers)
await cluster.init()
console.log(`export DATABASE_URL=${cluster.url}`)
console.log(`export PROFILER_TEST_CITUS_WORKERS=${cluster.workers.map((w) => w.url).join(',')}`)
const stop = async () => {
  await cluster.destroy()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
setInterval(() => undefined, 1 << 30)

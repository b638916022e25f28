// Starts a private PostgreSQL server (initdb on a free port, the machine's PostgreSQL and pgvector;
// test/support/pg-cluster.ts) with the settings given, and prints the environment that runs a benchmark on it; stops it
// on Ctrl-C / SIGTERM. For a measurement whose server needs settings the machine's shared server does not have, e.g.
// shared_buffers that hold a large tenant's HNSW index, as pgvector advises: npx tsx bench/pg-server.ts
// shared_buffers=4GB     # then, in another shell, the printed export and e.g. npx tsx bench/search.ts --db server
import { PgCluster, pgBinDir } from '../test/support/pg-cluster.js'

const settings = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=') as [string, string]))
const bin = pgBinDir()
if (!bin) {
  console.error('no PostgreSQL server binaries under /usr/lib/postgresql')
  process.exit(1)
}
const server = new PgCluster(bin, settings)
await server.init()
console.log(`export BENCH_DATABASE_URL=${server.url}`)
const stop = async () => {
  await server.destroy()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
setInterval(() => undefined, 1 << 30)

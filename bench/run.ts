// The benchmark suite: every benchmark on the PostgreSQL server and on the embedded database, one after another (never
// two at once: they share the machine's cores), each against its baseline measured side by side in the same run. Prints
// one table of ratios and figures, writes bench/results/<name>-<db>.json and bench/results/summary.md (the rows to
// copy into docs/evaluation/performance.md), and draws docs/evaluation/charts/<name>-<db>.svg.
// npm run bench                          # everything, both databases
// npm run bench -- http worker           # some of them
// npm run bench -- --db server           # one database
// npx tsx bench/http.ts --db embedded    # any benchmark alone, with its own options
import fs from 'node:fs'
import path from 'node:path'
import { runFirstContext } from './first-context.js'
import { runHttp } from './http.js'
import { runLatency } from './latency.js'
import { runSearch } from './search.js'
import { runStartup } from './startup.js'
import { runSubscriptions } from './subscriptions.js'
import { runWorker } from './worker.js'
import { dbKinds, printTable, RESULTS_DIR, save, type BenchResult } from './lib/report.js'
import type { DbKind } from './lib/env.js'

const SUITE: Record<string, (kind: DbKind) => Promise<BenchResult>> = {
  http: (kind) => runHttp(kind, { seconds: 10, rounds: 3, connections: 32 }),
  worker: (kind) => runWorker(kind, { n: 3000, burstSeconds: 30, workers: [1, 2], scaling: true }),
  latency: (kind) => runLatency(kind, { samples: 40 }),
  // PGlite holds the whole database in one process's memory: the embedded run uses 20,000 profiles.
  search: (kind) =>
    runSearch(kind, {
      n: kind === 'server' ? 100_000 : 20_000,
      queries: 100,
      sensitivity: 0,
      models: ['local', 'openai'],
    }),
  subscriptions: (kind) => runSubscriptions(kind, { subscribers: 1000, events: 20 }),
  startup: (kind) => runStartup(kind, { runs: 7 }),
  'first-context': (kind) => runFirstContext(kind, { runs: 5, later: 5 }),
}

const names = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'))
for (const n of names) if (!SUITE[n]) throw new Error(`no benchmark ${n}; there are: ${Object.keys(SUITE).join(', ')}`)
const chosen = names.length ? names : Object.keys(SUITE)
const results: BenchResult[] = []
const t0 = Date.now()
for (const name of chosen) {
  for (const kind of dbKinds()) {
    process.stderr.write(`${name} (${kind})...\n`)
    const r = await SUITE[name]!(kind)
    save(r)
    results.push(r)
  }
}
printTable(results)
// The summary covers the whole suite: what this run measured, and for the rest the latest result saved by an earlier
// run (each with its date; every ratio is still measured side by side within its own benchmark).
const all: (BenchResult & { measuredAt?: string })[] = []
for (const name of Object.keys(SUITE)) {
  for (const kind of ['server', 'embedded'] as DbKind[]) {
    const now = results.find((r) => r.name === name && r.db === kind)
    const file = path.join(RESULTS_DIR, `${name}-${kind}.json`)
    if (now) all.push({ ...now, measuredAt: new Date().toISOString() })
    else if (fs.existsSync(file)) all.push(JSON.parse(fs.readFileSync(file, 'utf8')))
  }
}
fs.mkdirSync(RESULTS_DIR, { recursive: true })
const md = [
  `Written ${new Date().toISOString().slice(0, 10)} by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` (this run: ${Math.round((Date.now() - t0) / 60000)} minutes).`,
  '',
  '| benchmark | database | measured on | what | measured | target | met | figures |',
  '|---|---|---|---|---|---|---|---|',
  ...all.flatMap((r) =>
    r.rows.map(
      (row) =>
        `| ${r.name} | ${r.db} | ${r.measuredAt?.slice(0, 16).replace('T', ' ') ?? ''} | ${row.what} | ${row.ratio !== undefined ? `${row.ratio}x` : `${row.value} ${row.unit ?? ''}`.trim()} | ${row.target} | ${row.met ? 'yes' : '**no**'} | ${row.figures} |`,
    ),
  ),
  '',
]
fs.writeFileSync(path.join(RESULTS_DIR, 'summary.md'), md.join('\n'))

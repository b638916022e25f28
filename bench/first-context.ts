// The first context after a start: `profiler start` on a database that already holds a profile, then, once /readyz
// answers, one context and `--later` more, each a new question. The baseline is the later contexts of the same process,
// so the ratio says what the first request pays for the start; the machine's load moves both alike.
// npx tsx bench/first-context.ts [--db embedded|server|both] [--runs 5] [--later 5]
import { execFile, spawn } from 'node:child_process'
import os from 'node:os'
import { promisify } from 'node:util'
import { waitFor } from '../test/support/wait.js'
import { freePort, freshDb, SERVICE_ROOT, type BenchDb, type DbKind } from './lib/env.js'
import { median, round } from './lib/load.js'
import { arg, benchMain, type BenchResult } from './lib/report.js'

const run = promisify(execFile)
const BIN = 'bin/profiler.js'
const PROFILE = 'first-context'
const QUESTIONS = [
  'what does she like to cook',
  'how is her sister doing',
  'what music does she play',
  'any plans for the weekend',
  'how is the dog',
  'where did she travel last summer',
  'what does she do for work',
]

interface Service {
  url: string
  stop(): Promise<void>
}

function dbEnv(db: BenchDb): Record<string, string> {
  return { PROFILER_DATA_DIR: db.dataDir, LOG_LEVEL: 'warn', ...(db.url ? { DATABASE_URL: db.url } : {}) }
}

async function cli(db: BenchDb, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], {
    cwd: SERVICE_ROOT,
    env: { ...process.env, ...dbEnv(db) },
    timeout: 120_000,
  })
  return stdout
}

/** `profiler start` until /readyz answers 200. */
async function start(db: BenchDb): Promise<Service> {
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'start'], {
    cwd: SERVICE_ROOT,
    env: { ...process.env, ...dbEnv(db), PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  await waitFor(
    'profiler start to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`profiler start exited (${child.exitCode}):\n${stderr}`)
      return fetch(`${url}/readyz`).then(
        (r) => r.status === 200 || undefined,
        () => undefined,
      )
    },
    { timeoutMs: 120_000, everyMs: 20 },
  )
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** A profile of a few conversations, processed, in a database the service is then started on again. */
async function seed(db: BenchDb, key: string): Promise<void> {
  const service = await start(db)
  try {
    for (let day = 1; day <= 8; day++) {
      const data =
        `User: I am Maria, a 34 year old nurse from Lisbon. On day ${day} I cooked pasta, walked my dog Rex and ` +
        `called my sister Ana about her new job.\nAssistant: That sounds like a full day.\n` +
        `User: I play jazz piano on weekends, and last summer I went hiking in the Alps.`
      const r = await fetch(`${service.url}/v1/profile/${PROFILE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data, input_type: 'conversation' }),
      })
      if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${await r.text()}`)
    }
    await waitFor(
      'the profile to be ready',
      async () => {
        const r = await fetch(`${service.url}/v1/profile/${PROFILE}`, { headers: { authorization: `Bearer ${key}` } })
        const body = (await r.json()) as { profile?: { status?: string } }
        return body.profile?.status === 'ready' || undefined
      },
      { timeoutMs: 120_000, everyMs: 100 },
    )
  } finally {
    await service.stop()
  }
}

/** Milliseconds one context takes, from request to full answer. */
async function timeContext(url: string, key: string, query: string): Promise<number> {
  const t0 = performance.now()
  const r = await fetch(`${url}/v1/profile/${PROFILE}/context?${new URLSearchParams({ query, max_tokens: '300' })}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  const body = await r.text()
  if (r.status !== 200) throw new Error(`context answered ${r.status}: ${body}`)
  return performance.now() - t0
}

export async function runFirstContext(kind: DbKind, opts: { runs: number; later: number }): Promise<BenchResult> {
  await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: SERVICE_ROOT })
  const db = await freshDb(kind)
  const first: number[] = []
  const later: number[] = []
  const loads = [os.loadavg()[0]!.toFixed(1)]
  try {
    await cli(db, ['migrate'])
    const created = JSON.parse(await cli(db, ['app', 'create', '--tenant', 'bench', '--name', 'Bench', '--json']))
    const key = created.api_key as string
    await seed(db, key)
    for (let i = 0; i < opts.runs; i++) {
      const service = await start(db)
      try {
        const questions = QUESTIONS.map((_, j) => QUESTIONS[(i + j) % QUESTIONS.length]!)
        first.push(await timeContext(service.url, key, questions[0]!))
        const these: number[] = []
        for (let j = 1; j <= opts.later; j++) these.push(await timeContext(service.url, key, questions[j]!))
        later.push(median(these))
      } finally {
        await service.stop()
      }
      loads.push(os.loadavg()[0]!.toFixed(1))
    }
  } finally {
    await db.drop()
  }
  const firstMs = median(first)
  const laterMs = median(later)
  const ratio = round(firstMs / laterMs, 1)
  const figures =
    `first ${round(firstMs, 0)} ms (${first.map((x) => round(x, 0)).join(', ')}), later ${round(laterMs, 0)} ms ` +
    `(medians per start: ${later.map((x) => round(x, 0)).join(', ')}); ${opts.runs} starts, ${opts.later} later ` +
    `contexts each; load average ${loads.join(' -> ')} on ${os.availableParallelism()} cores`
  process.stderr.write(`  first context after start: ${figures}\n`)
  return {
    name: 'first-context',
    db: kind,
    rows: [
      {
        what: `first context after \`profiler start\` against later ones, ${kind} database`,
        ratio,
        target: '< 2x',
        met: ratio < 2,
        figures,
      },
    ],
    raw: { first, later, loadAverage: loads },
    chart: {
      title: `The first context after start-up and later ones, ${kind} database (medians)`,
      unit: 'ms',
      bars: [
        { label: 'first context', value: round(firstMs, 0), baseline: false },
        { label: 'later contexts', value: round(laterMs, 0), baseline: true },
      ],
    },
  }
}

await benchMain(import.meta.url, 'first-context', (kind) =>
  runFirstContext(kind, { runs: Number(arg('runs', '5')), later: Number(arg('later', '5')) }),
)

// Start-up: `profiler --help`, one CLI command, and `profiler start` until /readyz answers 200, each a new process. The
// compiled build (bin/profiler.js -> dist/, what `npm start` and the bin run) beside the TypeScript sources through tsx
// (what ran before there was a build), in alternating runs so both see the same machine; medians. The machine's load
// average is printed with them: on a shared 2-core machine the absolute figures move with it, the ratios much less.
// npx tsx bench/startup.ts [--db embedded|server|both] [--runs 7]
import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import { promisify } from 'node:util'
import { waitFor } from '../test/support/wait.js'
import { freePort, freshDb, ROOT, type BenchDb, type DbKind } from './lib/env.js'
import { median, round } from './lib/load.js'
import { arg, benchMain, type BenchResult, type ResultRow } from './lib/report.js'
import type { Bar } from './lib/chart.js'

const run = promisify(execFile)

const VARIANTS = {
  compiled: ['bin/profiler.js'],
  tsx: ['--import', 'tsx', 'src/main.ts'],
} as const
type Variant = keyof typeof VARIANTS

function dbEnv(db: BenchDb): Record<string, string> {
  return { PROFILER_DATA_DIR: db.dataDir, LOG_LEVEL: 'warn', ...(db.url ? { DATABASE_URL: db.url } : {}) }
}

/** Seconds from spawn to exit of one CLI call. */
async function timeCli(
  variant: Variant,
  args: string[],
  env: Record<string, string>,
  check?: (stdout: string) => void,
): Promise<number> {
  const t0 = performance.now()
  const { stdout } = await run(process.execPath, [...VARIANTS[variant], ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: 120_000,
  })
  const s = (performance.now() - t0) / 1000
  check?.(stdout)
  return s
}

/** CPU seconds (user + system, all threads) a live process has used, where /proc tells. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime (fields 14 and 15), in clock ticks
  } catch {
    return undefined
  }
}

/**
 * `profiler start` on a fresh, migrated database: seconds from spawn to the first 200 of /readyz, and its CPU by then.
 */
async function timeStart(variant: Variant, kind: DbKind): Promise<{ wall: number; cpu?: number }> {
  const db = await freshDb(kind)
  try {
    await timeCli('compiled', ['migrate'], dbEnv(db))
    const port = await freePort()
    const t0 = performance.now()
    const child = spawn(process.execPath, [...VARIANTS[variant], 'start'], {
      cwd: ROOT,
      env: { ...process.env, ...dbEnv(db), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let err = ''
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    try {
      const ready = await waitFor(
        'profiler start to be ready',
        async () => {
          if (child.exitCode !== null) return { exited: child.exitCode }
          const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.status === 200,
            () => false,
          )
          return ok ? { wall: (performance.now() - t0) / 1000 } : undefined
        },
        { timeoutMs: 120_000, everyMs: 20 },
      )
      if ('exited' in ready) throw new Error(`profiler start exited (${ready.exited}):\n${err}`)
      return { wall: ready.wall, cpu: cpuSeconds(child.pid!) }
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  } finally {
    await db.drop()
  }
}

/** Runs `fn` for each variant in turn, `runs` times (alternating, so both see the same load). */
async function sideBySide<T>(runs: number, fn: (v: Variant) => Promise<T>): Promise<Record<Variant, T[]>> {
  const out: Record<Variant, T[]> = { compiled: [], tsx: [] }
  for (let i = 0; i < runs; i++) for (const v of Object.keys(VARIANTS) as Variant[]) out[v].push(await fn(v))
  return out
}

const load = () => os.loadavg()[0]!.toFixed(1)
const secs = (n: number) => `${round(n, 2)} s`

export async function runStartup(kind: DbKind, opts: { runs: number }): Promise<BenchResult> {
  // What is measured is the build as the sources are now.
  await run(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT })
  const embedded = kind === 'embedded'
  const loads: string[] = [load()]

  const help = await sideBySide(opts.runs, (v) =>
    timeCli(v, ['--help'], {}, (out) => {
      if (!out.includes('Usage: profiler')) throw new Error(`unexpected --help output: ${out}`)
    }),
  )
  loads.push(load())

  const db = await freshDb(kind)
  let cli: Record<Variant, number[]>
  try {
    await timeCli('compiled', ['migrate'], dbEnv(db))
    cli = await sideBySide(opts.runs, (v) =>
      timeCli(v, ['tenant', 'list', '--json'], dbEnv(db), (out) => {
        if (!Array.isArray(JSON.parse(out))) throw new Error(`unexpected tenant list output: ${out}`)
      }),
    )
  } finally {
    await db.drop()
  }
  loads.push(load())

  const starts = await sideBySide(opts.runs, (v) => timeStart(v, kind))
  loads.push(load())

  const m = (xs: number[]) => median(xs)
  const startWall = { compiled: starts.compiled.map((s) => s.wall), tsx: starts.tsx.map((s) => s.wall) }
  const startCpu = {
    compiled: starts.compiled.flatMap((s) => s.cpu ?? []),
    tsx: starts.tsx.flatMap((s) => s.cpu ?? []),
  }
  const context = `medians of ${opts.runs} runs each, alternating; load average ${loads.join(' -> ')} on ${os.availableParallelism()} cores`
  const row = (what: string, xs: Record<Variant, number[]>, target: number | undefined, extra = ''): ResultRow => ({
    what,
    value: round(m(xs.compiled), 2),
    unit: 's',
    target: target === undefined ? '(context)' : `< ${target} s`,
    met: target === undefined || m(xs.compiled) < target,
    figures:
      `compiled ${secs(m(xs.compiled))} (range ${secs(Math.min(...xs.compiled))}-${secs(Math.max(...xs.compiled))}), ` +
      `tsx ${secs(m(xs.tsx))} (${secs(Math.min(...xs.tsx))}-${secs(Math.max(...xs.tsx))}): ${round(m(xs.tsx) / m(xs.compiled), 1)}x faster${extra}; ${context}`,
  })
  const cpuNote = startCpu.compiled.length
    ? `; CPU used by then ${secs(m(startCpu.compiled))} compiled, ${secs(m(startCpu.tsx))} tsx`
    : ''
  const rows = [
    row('`profiler --help`', help, embedded ? 0.5 : undefined),
    row(
      `\`profiler tenant list --json\`, ${kind} database (migrated, no service running)`,
      cli,
      embedded ? 1.5 : undefined,
    ),
    row(`\`profiler start\` to /readyz 200, ${kind} database (migrated)`, startWall, embedded ? 3 : undefined, cpuNote),
  ]
  for (const r of rows) process.stderr.write(`  ${r.what}: ${r.figures}\n`)
  const bars: Bar[] = []
  for (const [label, xs] of [
    ['--help', help],
    ['tenant list --json', cli],
    ['start to /readyz', startWall],
  ] as const) {
    bars.push({ label: `${label}, compiled`, value: round(m(xs.compiled), 2), baseline: false })
    bars.push({ label: `${label}, tsx`, value: round(m(xs.tsx), 2), baseline: true })
  }
  return {
    name: 'startup',
    db: kind,
    rows,
    raw: { help, cli, starts, loadAverage: loads },
    chart: { title: `Start-up, compiled build and tsx, ${kind} database (medians)`, unit: 's', bars },
  }
}

await benchMain(import.meta.url, 'startup', (kind) => runStartup(kind, { runs: Number(arg('runs', '7')) }))

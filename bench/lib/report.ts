// Results of the benchmarks: a row per target (ratio or figure, the target, met or not), JSON files under
// bench/results/, SVG bar charts under docs/evaluation/charts/, and a printed table.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROOT, type DbKind } from './env.js'
import { barChart, type Bar } from './chart.js'

export interface ResultRow {
  what: string
  /** The measured ratio against its baseline (when the target is a ratio). */
  ratio?: number
  /** The measured figure (when the target is an absolute one). */
  value?: number
  unit?: string
  target: string
  met: boolean
  figures: string
}

export interface BenchResult {
  name: string
  db: DbKind
  rows: ResultRow[]
  raw?: unknown
  chart?: { title: string; unit: string; bars: Bar[] }
}

export function arg(name: string, def: string): string
export function arg(name: string): string | undefined
export function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def
}

export function dbKinds(): DbKind[] {
  const v = arg('db', 'both')
  if (v === 'both') return ['server', 'embedded']
  if (v !== 'server' && v !== 'embedded') throw new Error(`--db must be server, embedded or both, not ${v}`)
  return [v]
}

export const RESULTS_DIR = path.join(ROOT, 'bench/results')
export const CHARTS_DIR = path.join(ROOT, 'docs/evaluation/charts')

export function save(result: BenchResult): void {
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  const meta = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    cpus: (globalThis as any).navigator?.hardwareConcurrency,
  }
  fs.writeFileSync(
    path.join(RESULTS_DIR, `${result.name}-${result.db}.json`),
    JSON.stringify({ ...meta, ...result }, null, 2) + '\n',
  )
  if (result.chart) {
    fs.mkdirSync(CHARTS_DIR, { recursive: true })
    fs.writeFileSync(
      path.join(CHARTS_DIR, `${result.name}-${result.db}.svg`),
      barChart(result.chart.title, result.chart.unit, result.chart.bars),
    )
  }
}

export function printTable(results: BenchResult[]): void {
  const lines = [['benchmark', 'db', 'what', 'measured', 'target', 'met', 'figures']]
  for (const r of results) {
    for (const row of r.rows) {
      const measured = row.ratio !== undefined ? `${row.ratio}x` : `${row.value}${row.unit ? ` ${row.unit}` : ''}`
      lines.push([r.name, r.db, row.what, measured, row.target, row.met ? 'yes' : 'NO', row.figures])
    }
  }
  const widths = lines[0]!.map((_, c) => Math.min(60, Math.max(...lines.map((l) => l[c]!.length))))
  for (const l of lines)
    process.stdout.write(l.map((cell, c) => (c === l.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ') + '\n')
}

/** When the module is the entry point: run it for each --db kind, save, and print the table. */
export async function benchMain(
  moduleUrl: string,
  name: string,
  run: (kind: DbKind) => Promise<BenchResult>,
): Promise<void> {
  if (path.resolve(process.argv[1] ?? '') !== fileURLToPath(moduleUrl)) return
  const results: BenchResult[] = []
  for (const kind of dbKinds()) {
    process.stderr.write(`${name} (${kind})...\n`)
    const r = await run(kind)
    save(r)
    results.push(r)
  }
  printTable(results)
}

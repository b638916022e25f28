// Load runs (autocannon in a child process) and small statistics helpers.
import { cpuDelta, cpuSnapshot, type CpuSnapshot } from './cpu.js'
import { spawnTs } from './env.js'

export interface LoadSpec {
  url: string
  method: 'GET' | 'POST'
  /** Path with `{i}` (a counter, unique per request) and `{n}` (the counter modulo `ids`). */
  path: string
  /** Paths used in turn instead of `path` (same placeholders). */
  paths?: string[]
  headers?: Record<string, string>
  /** Bodies used in turn, with the same placeholders. */
  bodies?: string[]
  ids?: number
  connections: number
  seconds: number
  /** Requests per second in all (autocannon's overallRate); full speed when absent. */
  rate?: number
  startAt?: number
}

export interface LoadResult {
  requests: number
  rps: number
  seconds: number
  latency: { p50: number; p90: number; p99: number; max: number; mean: number }
  statuses: { '2xx': number; non2xx: number; errors: number; timeouts: number }
  sent: number
  /** CPU ms per request of each watched group (and of the load generator), when asked for. */
  cpuPerRequest?: Record<string, number>
}

/** Runs autocannon; `cpu` names process groups whose CPU time per request is reported (see cpu.ts). */
export async function load(spec: LoadSpec, cpu?: Record<string, number[] | RegExp>): Promise<LoadResult> {
  const p = spawnTs('bench/lib/load-child.ts', [JSON.stringify(spec)], {})
  const groups = { ...cpu, load: [p.child.pid!] }
  // Measured from the first request to the last (the child says when), not the load generator's start-up.
  let before: CpuSnapshot | undefined
  let after: CpuSnapshot | undefined
  p.child.stdout!.on('data', () => {
    const out = p.output()
    if (!before && out.includes('load: started')) before = cpuSnapshot(groups)
    if (!after && out.includes('load: finished')) after = cpuSnapshot(groups)
  })
  const code = await new Promise<number | null>((resolve) => p.child.once('exit', (c) => resolve(c)))
  const line = p
    .output()
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop()
  if (code !== 0 || !line) throw new Error(`load run failed (${code}):\n${p.output().slice(-2000)}`)
  const r = JSON.parse(line) as LoadResult
  if (cpu && before && after) {
    const d = cpuDelta(before, after)
    r.cpuPerRequest = Object.fromEntries(
      Object.entries(d).map(([k, v]) => [k, Math.round((v / r.requests) * 1000) / 1000]),
    )
  }
  if (r.statuses.non2xx || r.statuses.errors || r.statuses.timeouts) {
    throw new Error(`load run on ${spec.method} ${spec.path} had failures: ${JSON.stringify(r.statuses)}`)
  }
  return r
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (!values.length) return NaN
  const s = [...values].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d

// CPU time (user + system) used by processes, from /proc: where a request's cost goes (service, PostgreSQL, load
// generator), which a wall-clock profile of a saturated 2-core machine cannot tell apart from waiting for a core.
import fs from 'node:fs'

const TICK_MS = 10 // USER_HZ is 100 on Linux

function ticks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(f[11]) + Number(f[12]) // utime, stime (fields 14 and 15)
  } catch {
    return 0
  }
}

function pidsOf(name: RegExp): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return name.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '))
      } catch {
        return false
      }
    })
}

export interface CpuSnapshot {
  at: number
  /** Per group, CPU ms so far of each process. */
  groups: Record<string, Map<number, number>>
}

/**
 * CPU ms so far of each process of each group: given pids (with their threads) or processes whose command line matches.
 */
export function cpuSnapshot(groups: Record<string, number[] | RegExp>): CpuSnapshot {
  const out: Record<string, Map<number, number>> = {}
  for (const [name, sel] of Object.entries(groups)) {
    const pids = Array.isArray(sel) ? sel : pidsOf(sel)
    out[name] = new Map(pids.map((pid) => [pid, ticks(pid) * TICK_MS]))
  }
  return { at: Date.now(), groups: out }
}

/**
 * CPU ms used per group between two snapshots: a process seen in both counts its difference, one that started in
 * between all of its time (one that ended in between is lost, so keep the processes alive across a measurement).
 */
export function cpuDelta(a: CpuSnapshot, b: CpuSnapshot): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [name, procs] of Object.entries(b.groups)) {
    let sum = 0
    for (const [pid, ms] of procs) sum += ms - (a.groups[name]?.get(pid) ?? 0)
    out[name] = sum
  }
  return out
}

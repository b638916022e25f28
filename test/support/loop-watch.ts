// How long this process's event loop was held by its own work. A timer every 10 ms notes, for each gap between two of
// its runs, the wall time and (on Linux, from /proc/<pid>/task/<tid>/schedstat) the CPU time this thread ran in it.
// On a loaded machine (CI's 2 cores shared with other test files) a 40 ms statement of the embedded database can take
// 300 ms of wall time while the thread waits for a core; the CPU time in the gap stays 40 ms. An extraction on this
// thread (up to a second of CPU) shows as such either way. Tests run in forked processes (vitest.config.ts: pool
// 'forks'), so this thread is the process's main thread and its id is the pid.
import fs from 'node:fs'
import { isMainThread } from 'node:worker_threads'

export interface LoopWatch {
  /**
   * `wallMaxMs`: the longest gap between two timer runs, beyond the 10 ms period; `busyMaxMs`: the most CPU time this
   * thread ran within one gap (the wall figure where the system does not say, so the bound is never looser there).
   */
  stop(): { wallMaxMs: number; busyMaxMs: number; cpuMeasured: boolean }
}

const PERIOD_MS = 10

function schedstatPath(): string | null {
  if (!isMainThread) return null
  const p = `/proc/${process.pid}/task/${process.pid}/schedstat`
  try {
    return Number.isFinite(Number(fs.readFileSync(p, 'utf8').split(' ')[0])) ? p : null
  } catch {
    return null
  }
}

export function watchLoop(): LoopWatch {
  const path = schedstatPath()
  const cpuNs = () => (path ? Number(fs.readFileSync(path, 'utf8').split(' ')[0]) : 0)
  let lastAt = performance.now()
  let lastCpu = cpuNs()
  let wallMaxMs = 0
  let busyMaxMs = 0
  const tick = () => {
    const at = performance.now()
    const cpu = cpuNs()
    const wall = Math.max(0, at - lastAt - PERIOD_MS)
    wallMaxMs = Math.max(wallMaxMs, wall)
    busyMaxMs = Math.max(busyMaxMs, path ? (cpu - lastCpu) / 1e6 : wall)
    lastAt = at
    lastCpu = cpu
  }
  const timer = setInterval(tick, PERIOD_MS)
  return {
    stop() {
      tick()
      clearInterval(timer)
      return { wallMaxMs, busyMaxMs, cpuMeasured: path !== null }
    },
  }
}

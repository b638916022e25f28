// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by package or source folder, so a
// profile can be read, quoted in a commit and compared without a GUI.
// npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 30]
import fs from 'node:fs'
import { arg } from './lib/report.js'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

/**
 * `window`: only the samples from `skip` seconds after the profile's start (or the `last` seconds) to `tail` seconds
 * before its end.
 */
export function summarise(
  file: string,
  top = 30,
  window: { skip?: number; tail?: number; last?: number; inclusive?: string } = {},
): string {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  const to = p.endTime - (window.tail ?? 0) * 1e6
  const from = window.last !== undefined ? to - window.last * 1e6 : p.startTime + (window.skip ?? 0) * 1e6
  let t = p.startTime
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0
    if (t < from || t > to) continue
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0))
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const fn = new Map<string, number>()
  const pkg = new Map<string, number>()
  for (const [id, us] of self) {
    const n = byId.get(id)!
    const url = n.callFrame.url
    const where = url
      .replace(/^file:\/\//, '')
      .replace(/.*\/node_modules\//, 'node_modules/')
      .replace(/.*\/(src|bench)\//, '$1/')
    const name =
      `${n.callFrame.functionName || '(anonymous)'} ${where ? `${where}:${n.callFrame.lineNumber + 1}` : ''}`.trim()
    fn.set(name, (fn.get(name) ?? 0) + us)
    const group = !url
      ? `(${n.callFrame.functionName || 'native'})`
      : url.includes('/node_modules/')
        ? `node_modules/${url
            .split('/node_modules/')
            .pop()!
            .split('/')
            .slice(0, url.split('/node_modules/').pop()!.startsWith('@') ? 2 : 1)
            .join('/')}`
        : url.startsWith('node:')
          ? 'node: internals'
          : where.split('/').slice(0, 2).join('/')
    pkg.set(group, (pkg.get(group) ?? 0) + us)
  }
  // Inclusive time of our own functions (src/): what a request's steps cost, callees included. Recursion counted once.
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const incl = new Map<string, number>()
  const busy = [...self.entries()].filter(
    ([id]) => !/^\((idle|program|garbage collector)\)$/.test(byId.get(id)!.callFrame.functionName),
  )
  const busyTotal = busy.reduce((a, [, us]) => a + us, 0)
  const include = window.inclusive ? new RegExp(window.inclusive) : /\/src\//
  for (const [id, us] of busy) {
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!
      if (!include.test(`${n.callFrame.url} ${n.callFrame.functionName}`)) continue
      const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/(src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
      if (seen.has(name)) continue
      seen.add(name)
      incl.set(name, (incl.get(name) ?? 0) + us)
    }
  }
  const fmtOf = (of: number) => (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((100 * v) / of).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n')
  const fmt = fmtOf(total)
  const fmtBusy = fmtOf(busyTotal)
  return (
    `total ${(total / 1e6).toFixed(1)} s sampled, ${(busyTotal / 1e6).toFixed(1)} s not idle\n\nby package or folder:\n${fmt(pkg)}\n\n` +
    `by function (self time):\n${fmt(fn)}\n\n${window.inclusive ? `functions matching ${window.inclusive}` : 'our functions'}, callees included (share of the time not idle):\n${fmtBusy(incl)}\n`
  )
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  process.stdout.write(
    summarise(process.argv[2]!, Number(arg('top', '30')), {
      skip: Number(arg('skip', '0')),
      tail: Number(arg('tail', '0')),
      last: arg('last') === undefined ? undefined : Number(arg('last')),
      inclusive: arg('inclusive'),
    }),
  )
}

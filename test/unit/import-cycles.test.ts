import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The shape of src/ as a test: no module imports itself through others, and no folder does either (each folder is a
// layer: domain and config at the bottom; db, jobs, events, ai; services; the transports http, rest, graphql,
// dashboard; server.ts, app.ts and main.ts on top). Type-only imports count: they tie the designs together as well.

const SRC = path.resolve(import.meta.dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : []
  })
}

/** Each file's imports of other files in src/ (static, dynamic, re-exports, type-only). */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    const targets = new Set<string>()
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue
      const base = path.resolve(path.dirname(file), fileName)
      const found = [base, base.replace(/\.m?js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`].find(
        (c) => c.startsWith(SRC) && fs.existsSync(c) && fs.statSync(c).isFile(),
      )
      if (found) targets.add(found)
    }
    graph.set(file, targets)
  }
  return graph
}

/** Strongly connected components with more than one member (Tarjan), or a member that imports itself. */
function cycles<T>(graph: Map<T, Set<T>>): T[][] {
  let next = 0
  const index = new Map<T, number>()
  const low = new Map<T, number>()
  const stack: T[] = []
  const onStack = new Set<T>()
  const found: T[][] = []
  const visit = (v: T) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const scc: T[] = []
      let w: T
      do {
        w = stack.pop()!
        onStack.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1 || graph.get(v)?.has(v)) found.push(scc)
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

/** A file's layer: its folder under src/, or the file itself at the top (config.ts, server.ts, app.ts, main.ts). */
const layer = (file: string) => {
  const rel = path.relative(SRC, file).split(path.sep)
  return rel.length === 1 ? rel[0]! : `${rel[0]}/`
}

describe('imports in src/', () => {
  const graph = importGraph()

  it('reads the imports it checks (the test would pass on nothing otherwise)', () => {
    expect(graph.size).toBeGreaterThan(50)
    const app = graph.get(path.join(SRC, 'app.ts'))!
    expect(app.has(path.join(SRC, 'config.ts'))).toBe(true)
    // Dynamic imports count too: the CLI loads the service lazily.
    expect(graph.get(path.join(SRC, 'cli', 'shared.ts'))!.has(path.join(SRC, 'app.ts'))).toBe(true)
  })

  it('no file imports itself through others', () => {
    const rel = (f: string) => path.relative(SRC, f)
    expect(cycles(graph).map((c) => c.map(rel).sort().join(' <-> '))).toEqual([])
  })

  it('no folder imports itself through others', () => {
    const folders = new Map<string, Set<string>>()
    const why = new Map<string, string>()
    for (const [from, targets] of graph) {
      const a = layer(from)
      if (!folders.has(a)) folders.set(a, new Set())
      for (const to of targets) {
        const b = layer(to)
        if (a === b) continue
        folders.get(a)!.add(b)
        why.set(`${a} ${b}`, `${path.relative(SRC, from)} -> ${path.relative(SRC, to)}`)
      }
    }
    const explained = cycles(folders).map((c) => {
      const members = new Set(c)
      const edges = [...why].filter(([k]) => k.split(' ').every((f) => members.has(f))).map(([, v]) => v)
      return `${[...c].sort().join(' <-> ')}: ${edges.join('; ')}`
    })
    expect(explained).toEqual([])
  })

  it('finds a cycle when there is one', () => {
    const g = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ])
    expect(cycles(g).map((c) => c.sort())).toEqual([['a', 'b', 'c']])
    expect(cycles(new Map([['x', new Set(['x'])]]))).toEqual([['x']])
  })
})

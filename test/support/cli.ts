import path from 'node:path'

/** The package root: where the tests' child processes run. */
export const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * Arguments for `node` that run the `profiler` CLI as it ships: bin/profiler.js, which runs the compiled build in dist/
 * (made current with the sources by the suite's global setup).
 */
export function profilerArgs(...args: string[]): string[] {
  return [path.join(ROOT, 'bin/profiler.js'), ...args]
}

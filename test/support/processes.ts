// The service as separate processes (`profiler serve`, `profiler worker`) on one test database, as a deployment runs
// it.
import { spawn, type ChildProcess } from 'node:child_process'
import { profilerArgs, ROOT } from './cli.js'
import { testEnv, type TestDatabase } from './harness.js'

export interface Proc {
  child: ChildProcess
  /** Everything it wrote so far (stdout and stderr). */
  out: () => string
}

/** Processes of one test: started with `spawn`, all stopped by `stopAll` (SIGTERM, then SIGKILL after 20 s). */
export class RoleProcesses {
  readonly procs: Proc[] = []

  spawn(db: TestDatabase, role: 'serve' | 'worker', env: Record<string, string>): Proc {
    const child = spawn(process.execPath, profilerArgs(role), {
      cwd: ROOT,
      env: { ...process.env, ...testEnv(db, { PROFILER_BOOTSTRAP: 'false', ...env }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    const p = { child, out: () => out }
    this.procs.push(p)
    return p
  }

  stopAll(): Promise<void[]> {
    return Promise.all(
      this.procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve()
            const kill = setTimeout(() => p.child.kill('SIGKILL'), 20_000)
            p.child.once('exit', () => (clearTimeout(kill), resolve()))
            p.child.kill('SIGTERM')
          }),
      ),
    )
  }
}

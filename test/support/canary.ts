// How loaded the machine is while a test measures: a separate process that does nothing but wake every 10 ms reports
// the longest it waited beyond that. A delay it saw is the machine's scheduling (CI's 2 cores shared with other test
// files and their threads), not something our process did, so a bound on our own event loop's delay can make room
// for it without hiding a stall of our making on a quiet machine.
import { spawn } from 'node:child_process'
import { once } from 'node:events'

const CHILD = `
const { monitorEventLoopDelay } = require('node:perf_hooks')
const h = monitorEventLoopDelay({ resolution: 10 })
h.enable()
process.stdout.write('ready\\n')
process.stdin.once('data', () => { h.disable(); process.stdout.write(String(h.max / 1e6) + '\\n'); process.exit(0) })
`

export interface Canary {
  /** The longest delay (ms) the canary process saw since it started; it exits. */
  stop(): Promise<number>
}

export async function startCanary(): Promise<Canary> {
  const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  while (!out.includes('ready\n')) await once(child.stdout, 'data')
  return {
    async stop() {
      const exited = once(child, 'exit')
      child.stdin.end('stop\n')
      await exited
      const v = Number(out.split('\n')[1])
      if (!Number.isFinite(v)) throw new Error(`canary printed ${JSON.stringify(out)}`)
      return v
    },
  }
}

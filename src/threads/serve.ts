import { parentPort } from 'node:worker_threads'
import type { ThreadAnswer, ThreadMessage } from './pool.js'

/**
 * The thread's side of a ThreadPool: runs what the pool sends, one job at a time, in the order sent, and answers each
 * (a failure as its message and name: errors do not cross threads whole).
 */
export function serveThread<Req, Res>(handle: (req: Req) => Promise<Res> | Res): void {
  const port = parentPort
  if (!port) throw new Error('serveThread runs in a worker thread')
  const waiting: ThreadMessage<Req>[] = []
  let running = false
  const run = async () => {
    if (running) return
    running = true
    for (let m = waiting.shift(); m; m = waiting.shift()) {
      try {
        const result = await handle(m.req)
        port.postMessage({ id: m.id, ok: true, result } satisfies ThreadAnswer<Res>)
      } catch (error) {
        const err = error instanceof Error ? error : new Error(String(error))
        port.postMessage({ id: m.id, ok: false, message: err.message, name: err.name } satisfies ThreadAnswer<Res>)
      }
    }
    running = false
  }
  port.on('message', (message: ThreadMessage<Req>) => {
    waiting.push(message)
    void run()
  })
  port.postMessage({ ready: true })
}

// One extraction thread: runs the local extractor on what the pool sends, one request at a time, in the order sent.
import { parentPort } from 'node:worker_threads'
import type { ExtractRequest } from '../types.js'
import { LocalExtractor } from './local-extractor.js'

export interface ThreadRequest {
  id: number
  req: ExtractRequest
  /** The main thread's clock (ISO), so relative dates do not depend on which thread ran. */
  now: string
}
export type ThreadReply = { id: number; ok: true; result: Awaited<ReturnType<LocalExtractor['extract']>> } | { id: number; ok: false; message: string }

let now = new Date()
const extractor = new LocalExtractor({ now: () => now })

const waiting: ThreadRequest[] = []
let running = false

async function run() {
  if (running) return
  running = true
  for (let m = waiting.shift(); m; m = waiting.shift()) {
    now = new Date(m.now)
    try {
      const result = await extractor.extract(m.req)
      parentPort!.postMessage({ id: m.id, ok: true, result } satisfies ThreadReply)
    } catch (e) {
      parentPort!.postMessage({ id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) } satisfies ThreadReply)
    }
  }
  running = false
}

parentPort!.on('message', (m: ThreadRequest) => {
  waiting.push(m)
  void run()
})
parentPort!.postMessage({ ready: true })

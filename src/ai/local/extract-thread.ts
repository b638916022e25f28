// One extraction thread: runs the local extractor on what the pool sends (src/threads/serve.ts), one request at a time.
import { serveThread } from '../../threads/serve.js'
import type { ExtractRequest, ExtractResult } from '../types.js'
import { LocalExtractor } from './local-extractor.js'

export interface ThreadRequest {
  req: ExtractRequest
  /** The main thread's clock (ISO), so relative dates do not depend on which thread ran. */
  now: string
}

let now = new Date()
const extractor = new LocalExtractor({ now: () => now })

serveThread<ThreadRequest, ExtractResult>((m) => {
  now = new Date(m.now)
  return extractor.extract(m.req)
})

// One thread of the local provider's pool (extract-pool.ts): runs the extractor, the template summarizer or the
// embedder on what the pool sends (src/threads/serve.ts), one request at a time. Both read text with the same NLP
// models, loaded here once.
import { serveThread } from '../../threads/serve.js'
import type { ProfileContent } from '../../domain/profile.js'
import type { ExtractRequest, ExtractResult } from '../types.js'
import { LocalExtractor } from './local-extractor.js'
import { summarizeProfile } from './local-summarizer.js'
import { LocalEmbedder } from './local-embedder.js'

export type ThreadRequest =
  | {
      kind: 'extract'
      req: ExtractRequest
      /** The main thread's clock (ISO), so relative dates do not depend on which thread ran. */
      now: string
    }
  | { kind: 'summarize'; profile: ProfileContent; instructions?: readonly string[] }
  | { kind: 'embed'; texts: string[] }
export type ThreadResult = ExtractResult | { summary: string } | { vectors: number[][] }

let now = new Date()
const extractor = new LocalExtractor({ now: () => now })

const embedder = new LocalEmbedder()

serveThread<ThreadRequest, ThreadResult>((request) => {
  if (request.kind === 'summarize') return { summary: summarizeProfile(request.profile, request.instructions) }
  if (request.kind === 'embed') return embedder.embed(request.texts)
  now = new Date(request.now)
  return extractor.extract(request.req)
})

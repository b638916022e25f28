import { ThreadPool, threadEntry } from '../../threads/pool.js'
import { valueCount, type ProfileContent } from '../../domain/profile.js'
import { summarizeProfile } from './local-summarizer.js'
import type { Embedder, ExtractRequest, ExtractResult, Extractor, Summarizer } from '../types.js'
import type { LocalEmbedder } from './local-embedder.js'
import type { ThreadRequest, ThreadResult } from './extract-thread.js'

/**
 * Requests sent to a thread ahead of the one it runs, so it never idles waiting for the main thread to send the next
 * (a busy worker's main thread answered late: one request at a time kept the thread about a third busy).
 */
const PIPELINE = 4

/** Characters of texts up to which an embedding request runs on the calling thread (about 2 ms of CPU). */
const INLINE_EMBED_CHARS = 4000
/** Characters of texts one thread request embeds at most (about 20 ms of CPU). */
const EMBED_SLICE_CHARS = 32_000

/** Values up to which a profile is summarized on the calling thread. */
const INLINE_SUMMARY_VALUES = 300

/**
 * The local extractor on a pool of worker threads (src/threads/pool.ts): extraction is CPU work (up to a second for the
 * largest allowed input), and on the main thread it would stall every request, subscription and lease heartbeat of the
 * process. A background request (a re-extraction) is run one submission at a time behind every request of the worker,
 * so replaying a profile's history never holds the threads for long while other tenants' submissions wait. The template
 * summarizer runs on the same threads (`summarizer()`): it ranks every value of a profile, tens of milliseconds for one
 * at the limits.
 */
export class ThreadedExtractor implements Extractor {
  readonly name = 'local'
  private readonly pool: ThreadPool<ThreadRequest, ThreadResult>

  constructor(
    size: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.pool = new ThreadPool({
      name: 'extraction',
      size,
      entry: threadEntry(import.meta.url, 'extract-thread'),
      pipeline: PIPELINE,
    })
  }

  async extract(req: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
    const now = this.now().toISOString()
    // A background job is one submission (a second at most): when its caller goes, the thread finishes it rather than
    // being stopped and replaced by one that loads the models again.
    const run = (r: ExtractRequest) =>
      this.pool.run(
        { kind: 'extract', req: r, now },
        { signal, ...(req.background ? { priority: 'background', finishOnAbort: true } : {}) },
      ) as Promise<ExtractResult>
    if (!req.background || req.submissions.length <= 1) return run(req)
    // Each submission alone: the local extractor reads each independently of the others.
    const parts = await Promise.all(req.submissions.map((s) => run({ ...req, submissions: [s] })))
    return { extractions: parts.flatMap((p) => p.extractions) }
  }

  /**
   * The template summarizer (local-summarizer.ts): on these threads for a large profile, where it is asked for a small
   * one (a fraction of a millisecond, less than waiting behind extractions on a busy thread: most profiles).
   */
  summarizer(): Summarizer {
    return {
      name: 'local',
      summarize: async (profile: ProfileContent, signal?: AbortSignal, instructions?: readonly string[]) => {
        signal?.throwIfAborted()
        if (valueCount(profile) <= INLINE_SUMMARY_VALUES) return { summary: summarizeProfile(profile, instructions) }
        return (await this.pool.run(
          { kind: 'summarize', profile, ...(instructions ? { instructions } : {}) },
          { signal },
        )) as { summary: string }
      },
    }
  }

  /**
   * The local embedder (local-embedder.ts) with large requests on these threads: a batch's evidence passages (hundreds
   * of texts, up to a second of CPU at the limits) would otherwise stall the process. A few short texts (a profile, a
   * query) are embedded on the calling thread; the same code and data give the same vectors on either.
   */
  embedder(inline: LocalEmbedder): Embedder {
    const pool = this.pool
    return {
      name: inline.name,
      model: inline.model,
      dimension: inline.dimension,
      calibration: inline.calibration,
      warmUp: () => inline.warmUp(),
      async embed(texts: string[], signal?: AbortSignal) {
        signal?.throwIfAborted()
        const chars = texts.reduce((n, t) => n + t.length, 0)
        if (chars <= INLINE_EMBED_CHARS) return inline.embed(texts, signal)
        // In slices, so other work on the threads (another tenant's extraction) is not queued behind all of it.
        const slices: string[][] = []
        let cur: string[] = []
        let size = 0
        for (const t of texts) {
          if (cur.length && size + t.length > EMBED_SLICE_CHARS) {
            slices.push(cur)
            cur = []
            size = 0
          }
          cur.push(t)
          size += t.length
        }
        if (cur.length) slices.push(cur)
        const parts = await Promise.all(
          slices.map((s) => pool.run({ kind: 'embed', texts: s }, { signal }) as Promise<{ vectors: number[][] }>),
        )
        return { vectors: parts.flatMap((p) => p.vectors) }
      },
    }
  }

  /** Threads running now (tests). */
  get threads(): number {
    return this.pool.threads
  }

  async close(): Promise<void> {
    await this.pool.close()
  }
}

// The dictionary typo correction reads (README "Typos"): the local embedder's corpus words with their frequency ranks,
// read once per process. Search and the context's passage lookup share it. A dictionary that cannot be read turns the
// correction off (nothing fails for it), reported once, and is tried again after a minute.
import { dictionaryWords } from '../ai/local/local-embedder.js'
import type { Dictionary } from '../domain/spelling.js'

const RETRY_MS = 60_000
const NO_DICTIONARY: Dictionary = new Map()

export class TypoDictionary {
  private failedAt?: number

  constructor(
    private readonly o: {
      /** Where the words come from (default: the local embedder's). */
      read?: () => Promise<Dictionary>
      /** Where a dictionary that cannot be read is reported (default: standard error). */
      log?: { warn(o: object, msg: string): void }
    } = {},
  ) {}

  /** The dictionary, or an empty one (no correction) when it cannot be read. */
  async get(): Promise<Dictionary> {
    const now = Date.now()
    if (this.failedAt !== undefined && now - this.failedAt < RETRY_MS) return NO_DICTIONARY
    try {
      const words = await (this.o.read ?? dictionaryWords)()
      this.failedAt = undefined
      return words
    } catch (e) {
      if (this.failedAt === undefined) {
        const msg = 'typo correction is off: its dictionary could not be read'
        if (this.o.log) this.o.log.warn({ err: e }, msg)
        else console.error(`profiler: ${msg}: ${(e as Error).message}`)
      }
      this.failedAt = now
      return NO_DICTIONARY
    }
  }
}

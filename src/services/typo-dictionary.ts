// The dictionary typo correction reads (docs/guides/search.md): the local embedder's corpus words with their frequency
// ranks, read once per process. Search and the context's passage lookup share it. A dictionary that cannot be read
// turns the correction off (nothing fails for it), reported once, and is tried again after a minute.
import { dictionaryWords } from '../ai/local/local-embedder.js'
import type { Dictionary } from '../domain/spelling.js'

const RETRY_MS = 60_000
const NO_DICTIONARY: Dictionary = new Map()

export class TypoDictionary {
  private failedAt?: number

  constructor(
    private readonly options: {
      /** Where the words come from (default: the local embedder's). */
      read?: () => Promise<Dictionary>
      /** Where a dictionary that cannot be read is reported (default: standard error). */
      log?: { warn(fields: object, msg: string): void }
    } = {},
  ) {}

  /** The dictionary, or an empty one (no correction) when it cannot be read. */
  async get(): Promise<Dictionary> {
    const now = Date.now()
    if (this.failedAt !== undefined && now - this.failedAt < RETRY_MS) return NO_DICTIONARY
    try {
      const words = await (this.options.read ?? dictionaryWords)()
      this.failedAt = undefined
      return words
    } catch (err) {
      if (this.failedAt === undefined) {
        const msg = 'typo correction is off: its dictionary could not be read'
        if (this.options.log) this.options.log.warn({ err }, msg)
        else console.error(`profiler: ${msg}: ${(err as Error).message}`)
      }
      this.failedAt = now
      return NO_DICTIONARY
    }
  }
}

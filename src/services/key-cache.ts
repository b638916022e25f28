/** An app an API key belongs to. */
export interface KeyOwner {
  tenantId: string
  appId: string
}

/**
 * API keys verified lately (by their SHA-256 digest, never the key), so a request needs no key lookup. Rotation,
 * revocation and app deletion drop an app's entries at once (the apiKeysRevoked event, in every process); the TTL
 * bounds what a lost event could leave, and an entry read before an invalidation is never stored after it.
 */
export class KeyCache {
  private readonly entries = new Map<string, KeyOwner & { at: number }>()
  private generation = 0

  constructor(
    private readonly ttlMs = 10_000,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(digest: string): KeyOwner | undefined {
    const entry = this.entries.get(digest)
    if (!entry) return undefined
    if (this.now() - entry.at > this.ttlMs) {
      this.entries.delete(digest)
      return undefined
    }
    return entry
  }

  /** A marker to pass to `set`: a lookup that began before an invalidation must not refill the cache after it. */
  begin(): number {
    return this.generation
  }

  set(digest: string, owner: KeyOwner, began: number): void {
    if (began !== this.generation) return
    this.entries.delete(digest) // re-inserted last: the oldest entries go first when full
    this.entries.set(digest, { tenantId: owner.tenantId, appId: owner.appId, at: this.now() })
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.max) break
      this.entries.delete(k)
    }
  }

  forgetApp(tenantId: string, appId: string): void {
    this.generation++
    for (const [k, e] of this.entries) if (e.tenantId === tenantId && e.appId === appId) this.entries.delete(k)
  }

  clear(): void {
    this.generation++
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}

/** A key created while known ids are read can commit after the read with an earlier created_at: reads look back. */
const KNOWN_IDS_OVERLAP_MS = 5 * 60_000

/**
 * The public ids of the API keys that exist (and of keys revoked while this process ran: a superset does no harm), so
 * that a key whose id is not among them is known to be invalid without a lookup. Read in full at first use, then only
 * the keys created since the last read (with an overlap), at most once per `minIntervalMs` however many unknown ids
 * come in: a flood of made-up ids costs four small reads a second, not a lookup per request, and each of its requests
 * waits for the next read. Bounded by the api_keys rows.
 */
export class KnownKeyIds {
  private readonly ids = new Set<string>()
  /** The database's clock at the last read, less the overlap; undefined before the first (full) read. */
  private since?: Date
  private reading?: Promise<void>
  /** When the last read began (this process's clock). */
  private lastRead = -Infinity
  /** Reads begun so far, and the number of the last one finished. */
  private begun = 0
  private finished = 0

  constructor(
    private readonly read: (since: Date | undefined) => Promise<{ ids: string[]; now: Date }>,
    private readonly minIntervalMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  /** An id this process has just issued (seen at once, whatever a read returns). */
  add(id: string): void {
    this.ids.add(id)
  }

  /**
   * Whether the id names a key. An id not yet known waits for a read that began after it was asked about, so a key
   * created in another process just before its first use is found: a key is issued only after it is committed.
   */
  async has(id: string): Promise<boolean> {
    if (this.ids.has(id)) return true
    const before = this.begun
    while (this.finished <= before) await this.refresh()
    return this.ids.has(id)
  }

  private refresh(): Promise<void> {
    this.reading ??= (async () => {
      const wait = this.lastRead + this.minIntervalMs - this.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      this.lastRead = this.now()
      const number = ++this.begun
      const { ids, now } = await this.read(this.since)
      for (const id of ids) this.ids.add(id)
      this.since = new Date(now.getTime() - KNOWN_IDS_OVERLAP_MS)
      this.finished = number
    })().finally(() => (this.reading = undefined))
    return this.reading
  }
}

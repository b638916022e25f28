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
    const e = this.entries.get(digest)
    if (!e) return undefined
    if (this.now() - e.at > this.ttlMs) {
      this.entries.delete(digest)
      return undefined
    }
    return e
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

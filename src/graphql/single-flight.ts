/**
 * Concurrent calls for the same key share one promise, kept for `keepMs` after it settles (callers a little late share
 * it too), so a thousand subscribers resolving the same event read the profile once, through the tenant gate once.
 */
export class SingleFlight<T> {
  private readonly calls = new Map<string, Promise<T>>()

  constructor(private readonly keepMs = 2000) {}

  run(key: string, fn: () => Promise<T>): Promise<T> {
    let pending = this.calls.get(key)
    if (!pending) {
      pending = fn()
      this.calls.set(key, pending)
      const forget = () =>
        setTimeout(() => this.calls.get(key) === pending && this.calls.delete(key), this.keepMs).unref()
      pending.then(forget, forget)
    }
    return pending
  }

  get size(): number {
    return this.calls.size
  }
}

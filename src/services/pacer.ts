/**
 * One task at a time, first come first served, and each keeps the turn after it is done for as long again as it took
 * (at most a second): such tasks take about half of the process's time at most, whatever their number, leaving the
 * rest to other requests. The caller has its result at once; the next task waits out the pause.
 */
export class Pacer {
  private tail: Promise<void> = Promise.resolve()

  run<T>(fn: () => Promise<T>): Promise<T> {
    let began = 0
    const result = this.tail.then(() => {
      began = performance.now()
      return fn()
    })
    const pause = () => new Promise<void>((r) => setTimeout(r, Math.min(performance.now() - began, 1000)))
    this.tail = result.then(pause, pause)
    return result
  }
}

/** Sets `key` to `value` as the newest entry of `map`, dropping the oldest while there are more than `max`. */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value!)
  return value
}

/**
 * Whether things (a profile, a tenant) are large enough to pace, remembered for `ttlMs` after one caller asked:
 * concurrent callers about one key share one answer, so a burst does not first queue a count each. At most `max` keys
 * are remembered (the oldest asked go first); a failed count is forgotten at once.
 */
export class LargeMemo {
  private readonly known = new Map<string, { at: number; large: Promise<boolean> }>()

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  isLarge(key: string, count: () => Promise<boolean>): Promise<boolean> {
    let hit = this.known.get(key)
    if (!hit || performance.now() - hit.at > this.ttlMs) {
      const large = count()
      const entry = remember(this.known, key, { at: performance.now(), large }, this.max)
      hit = entry
      large.catch(() => this.known.get(key) === entry && this.known.delete(key))
    }
    return hit.large
  }
}

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

/**
 * Tasks of many keys (tenants), one at a time in the process, the keys served in turn: a key's task waits for at most
 * one task of each other key with one waiting, never for another key's whole queue. After a task its key rests for as
 * long as the task took (at most a second) while the other keys are served, so one key's tasks take at most about half
 * of the process's time, whatever their number. The caller has its result at once.
 */
export class FairPacer {
  /** The keys with tasks waiting or a rest to finish, in the order they are served (a key served goes last). */
  private readonly keys = new Map<string, { waiting: (() => void)[]; restsUntil: number }>()
  private busy = false
  private wake: ReturnType<typeof setTimeout> | undefined

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const state = this.keys.get(key) ?? { waiting: [], restsUntil: 0 }
      if (!this.keys.has(key)) this.keys.set(key, state)
      state.waiting.push(() => {
        const began = performance.now()
        const done = () => this.finish(key, state, began)
        // A task that throws before its promise is still a task done.
        Promise.resolve()
          .then(fn)
          .then(
            (value) => (done(), resolve(value)),
            (error: unknown) => (done(), reject(error)),
          )
      })
      this.next()
    })
  }

  /** The key rests as long again as its task took, and goes last in the turn. */
  private finish(key: string, state: { waiting: (() => void)[]; restsUntil: number }, began: number): void {
    const now = performance.now()
    state.restsUntil = now + Math.min(now - began, MAX_REST_MS)
    this.keys.delete(key)
    this.keys.set(key, state)
    this.busy = false
    this.next()
  }

  /**
   * Starts the first task, in turn, of a key that is not resting; when every key with tasks rests, wakes when the
   * first rest ends. Keys with nothing waiting are forgotten once rested.
   */
  private next(): void {
    if (this.busy) return
    const now = performance.now()
    let wakeAt = Infinity
    for (const [key, state] of this.keys) {
      if (state.restsUntil > now) {
        if (state.waiting.length) wakeAt = Math.min(wakeAt, state.restsUntil)
        continue
      }
      const start = state.waiting.shift()
      if (!start) {
        this.keys.delete(key)
        continue
      }
      this.busy = true
      start()
      return
    }
    clearTimeout(this.wake)
    this.wake = undefined
    if (wakeAt < Infinity) {
      this.wake = setTimeout(
        () => {
          this.wake = undefined
          this.next()
        },
        Math.max(0, wakeAt - now),
      )
    }
  }
}

/** The longest rest after a task of a paced key (see FairPacer). */
const MAX_REST_MS = 1000

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

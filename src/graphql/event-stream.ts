/** An async iterator fed by a callback subscription; `return()` (client gone) unsubscribes. Bounded buffer. */
export function eventStream<T>(
  subscribe: (push: (value: T) => void) => () => void,
  maxBuffered = 1000,
): AsyncIterableIterator<T> {
  const buffered: T[] = []
  const waiting: ((result: IteratorResult<T>) => void)[] = []
  let done = false
  const unsubscribe = subscribe((value) => {
    if (done) return
    const next = waiting.shift()
    if (next) next({ value, done: false })
    else if (buffered.length < maxBuffered) buffered.push(value)
  })
  const finish = (): Promise<IteratorResult<T>> => {
    if (!done) {
      done = true
      unsubscribe()
      for (const w of waiting.splice(0)) w({ value: undefined, done: true })
    }
    return Promise.resolve({ value: undefined, done: true })
  }
  return {
    next: () => {
      if (buffered.length) return Promise.resolve({ value: buffered.shift()!, done: false })
      if (done) return Promise.resolve({ value: undefined, done: true })
      return new Promise((resolve) => waiting.push(resolve))
    },
    return: finish,
    throw: (e) => (finish(), Promise.reject(e)),
    [Symbol.asyncIterator]() {
      return this
    },
  }
}

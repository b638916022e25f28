// Waiting in tests (and benchmarks, which import this file too): `waitFor` a condition, never a fixed pause in its
// place. No imports beyond Node's own, so that anything may use it.
import { inspect } from 'node:util'

/**
 * A fixed pause. Only for a window in which something must NOT happen (say why where it is used) or for a delay that
 * is itself the point (injected slowness, a measured pause); to wait for something to happen, use `waitFor`.
 */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export interface WaitOptions<T> {
  /** When a value counts as reached; by default anything but undefined, null and false. */
  until?: (value: T) => boolean
  /** How long before giving up. Generous by default: a wait ends as soon as its condition holds. */
  timeoutMs?: number
  /** The pause between two checks. */
  everyMs?: number
}

export const WAIT_TIMEOUT_MS = 30_000

/**
 * Runs `check` until its value is reached (see `until`) and resolves with that value. A check that throws or rejects
 * counts as not reached yet, and one that does not answer by the deadline ends the wait. After the deadline it
 * rejects with what it waited for and the last value or error `check` gave.
 */
export function waitFor<T>(
  what: string | (() => string),
  check: () => T | Promise<T>,
  opts: WaitOptions<T> & { until: (value: T) => boolean },
): Promise<T>
export function waitFor<T>(
  what: string | (() => string),
  check: () => T | Promise<T>,
  opts?: Omit<WaitOptions<T>, 'until'>,
): Promise<Exclude<T, undefined | null | false>>
export async function waitFor<T>(
  what: string | (() => string),
  check: () => T | Promise<T>,
  opts: WaitOptions<T> = {},
): Promise<T> {
  const { timeoutMs = WAIT_TIMEOUT_MS, everyMs = 50 } = opts
  const reached = opts.until ?? ((v: T) => v !== undefined && v !== null && v !== false)
  const deadline = Date.now() + timeoutMs
  let last: Outcome<T> | undefined
  for (;;) {
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      Promise.resolve()
        .then(check)
        .then(
          (value): Outcome<T> => ({ value }),
          (error: unknown): Outcome<T> => ({ error }),
        ),
      new Promise<undefined>(
        (resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))),
      ),
    ])
    clearTimeout(timer)
    if (outcome && 'value' in outcome && reached(outcome.value)) return outcome.value
    last = outcome ?? last
    if (!outcome || Date.now() >= deadline) {
      const description = typeof what === 'function' ? what() : what
      const got = [outcome ? undefined : 'the last check had not answered', last && lastOf(last)]
        .filter(Boolean)
        .join('; ')
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}; ${got}`, {
        cause: last && 'error' in last ? last.error : undefined,
      })
    }
    await sleep(Math.min(everyMs, Math.max(0, deadline - Date.now())))
  }
}

type Outcome<T> = { value: T } | { error: unknown }

const lastOf = (o: { value: unknown } | { error: unknown }) =>
  'value' in o
    ? `last value: ${show(o.value)}`
    : `last error: ${o.error instanceof Error ? o.error.message : show(o.error)}`

const show = (v: unknown) => {
  const text = inspect(v, { depth: 4, breakLength: Infinity })
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text
}

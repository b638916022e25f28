import { setMaxListeners } from 'node:events'
import type { ServerResponse } from 'node:http'

/** Why a request's work was stopped: its caller went away before the answer. */
export class CallerGone extends Error {
  constructor(what = 'the client closed the connection before the answer') {
    super(`Cancelled: ${what}`)
    this.name = 'AbortError'
  }
}

/**
 * The controller of one request's or operation's work. Its signal is shared by everything the work starts (ten contexts
 * of an operation, each with thread jobs and model requests listening), more than the default 10 listeners.
 */
export function workController(): AbortController {
  const controller = new AbortController()
  setMaxListeners(100, controller.signal)
  return controller
}

/**
 * A signal aborted when the response's connection closes before the response was sent (the client went away). A
 * response's 'close' also follows a normal end: only an unfinished one aborts.
 */
export function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = workController()
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new CallerGone())
  })
  return controller.signal
}

/** True when `signal` was aborted because its caller went away (their errors are not failures of the service). */
export const callerGone = (signal: AbortSignal | undefined) => !!signal?.aborted && signal.reason instanceof CallerGone

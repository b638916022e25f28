import type { Transaction } from '../db/unit-of-work.js'

/** Who is asking: every service method takes it first. */
export interface RequestContext {
  tenantId: string
  appId: string
  requestId: string
  /** The transaction a use case runs in when another one called it (`UnitOfWork.run`); none at the transport. */
  tx?: Transaction
  /** Aborted when the caller goes away (its connection closed, its operation cancelled): long work stops with it. */
  signal?: AbortSignal
}

/**
 * Runs `fn` with a signal of its own that follows `parent` (aborted with it) and is dropped when `fn` ends. Work that
 * listens on a signal without ever removing its listener (the OpenAI SDK does, once per request) then listens on this
 * one, never on a caller's signal that outlives many calls: a subscription's, which each event's context uses.
 */
export async function withOwnSignal<T>(
  parent: AbortSignal | undefined,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!parent) return fn(undefined)
  parent.throwIfAborted()
  const own = new AbortController()
  const follow = () => own.abort(parent.reason)
  parent.addEventListener('abort', follow, { once: true })
  try {
    return await fn(own.signal)
  } finally {
    parent.removeEventListener('abort', follow)
  }
}

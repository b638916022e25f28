/** A list of the profile page that is read page by page ("Load more"): history and submissions. */
import { errorMessage } from '../../api'
import { h, type Child } from '../../dom'
import { errorText } from '../../ui'

/** One page of a list, as the server sends it. */
export interface PageOf<T> {
  items: T[]
  endCursor: string | null
  hasNextPage: boolean
}

export interface Paged<T> extends PageOf<T> {
  /** More than the first page has been loaded. */
  extended: boolean
  loading: boolean
  error: string | null
}

export function emptyPaged<T>(): Paged<T> {
  return { items: [], endCursor: null, hasNextPage: false, extended: false, loading: false, error: null }
}

/** The items of both, each key once, in first-seen order; `newer` wins. */
function mergeByKey<T>(older: T[], newer: T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const item of older) byKey.set(key(item), item)
  for (const item of newer) byKey.set(key(item), item)
  return [...byKey.values()]
}

/**
 * Takes the first page that came with a fresh profile. If the visitor had loaded more pages, those are kept (merged
 * by key, newer data winning) and "Load more" continues from where they were.
 */
export function mergeFirstPage<T>(old: Paged<T>, first: PageOf<T>, key: (item: T) => string): Paged<T> {
  if (!old.extended)
    return { ...emptyPaged<T>(), items: first.items, endCursor: first.endCursor, hasNextPage: first.hasNextPage }
  return { ...old, items: mergeByKey(old.items, first.items, key), hasNextPage: true, loading: false, error: null }
}

/**
 * Loads the page after the list's end cursor and merges it into whatever list `paged()` returns when it arrives (a
 * live update may have replaced the list meanwhile). `fetchPage` resolves null when the profile is gone. Returns
 * false when nothing was done (already loading, no next page, or the page was left).
 */
export async function loadNextPage<T>(
  paged: () => Paged<T>,
  fetchPage: (after: string | null) => Promise<PageOf<T> | null>,
  key: (item: T) => string,
  signal: AbortSignal,
  render: () => void,
): Promise<boolean> {
  const current = paged()
  if (current.loading || !current.hasNextPage) return false
  current.loading = true
  current.error = null
  render()
  try {
    const page = await fetchPage(current.endCursor)
    if (signal.aborted) return false
    const target = paged()
    target.loading = false
    if (!page) {
      target.hasNextPage = false
    } else {
      target.items = mergeByKey(target.items, page.items, key)
      target.endCursor = page.endCursor ?? target.endCursor
      target.hasNextPage = page.hasNextPage
      target.extended = true
    }
  } catch (err) {
    if (signal.aborted) return false
    const target = paged()
    target.loading = false
    target.error = `Could not load more: ${errorMessage(err)}`
  }
  render()
  return true
}

/** The list's load error and its "Load more" button; `key` keeps keyboard focus on the button across re-renders. */
export function loadMoreControls(key: string, paged: Paged<unknown>, onClick: () => void): Child[] {
  return [
    paged.error ? errorText(paged.error) : null,
    paged.hasNextPage
      ? h(
          'button',
          { type: 'button', class: 'button', 'data-key': key, disabled: paged.loading, onclick: onClick },
          paged.loading ? 'Loading…' : 'Load more',
        )
      : null,
  ]
}

/** The profile's update history: each batch with what it changed, oldest first, paged. */
import { h, type Child } from '../../dom'
import type { HistoryPageFieldsFragment } from '../../generated/graphql'
import type { HistoryEntry } from '../../types'
import { confidenceBar, dateTime } from '../../ui'
import { loadMoreControls, type PageOf, type Paged } from './paged'
import type { EditActions } from './edits'
import { empty, section } from './section'

export const historyKey = (e: HistoryEntry): string => String(e.seq)

export const historyPage = (page: HistoryPageFieldsFragment): PageOf<HistoryEntry> => ({ items: page.entries, ...page.pageInfo })

function formatLeaf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return '(none)'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function changeLine(path: string, ...rest: Child[]): HTMLElement {
  return h('li', null, h('span', { class: 'change-path' }, path), ...rest)
}

/** Flattens a changes object into "path: value" lines; {value, confidence} objects become one line with a bar. */
function describeChanges(value: unknown, path: string, out: HTMLElement[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>
    if ('value' in obj && ('confidence' in obj || Object.keys(obj).length === 1)) {
      out.push(
        changeLine(
          path || 'value',
          ': ',
          h('span', { class: 'change-value' }, formatLeaf(obj.value)),
          typeof obj.confidence === 'number' ? confidenceBar(obj.confidence) : null,
        ),
      )
      return
    }
    const entries = Object.entries(obj)
    if (entries.length === 0) {
      out.push(changeLine(path || '(empty)', ': (none)'))
      return
    }
    for (const [key, child] of entries) describeChanges(child, path ? `${path}.${key}` : key, out)
    return
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(changeLine(path, ': (none)'))
    value.forEach((item, index) => describeChanges(item, `${path}[${index}]`, out))
    return
  }
  out.push(changeLine(path, ': ', h('span', { class: 'change-value' }, formatLeaf(value))))
}

function historyEntry(entry: HistoryEntry, edits?: EditActions): HTMLElement {
  const lines: HTMLElement[] = []
  describeChanges(entry.changes, '', lines)
  const ids = entry.submissionIds
  return h(
    'li',
    { class: 'history-entry' },
    h(
      'div',
      { class: 'history-head' },
      h('span', { class: 'history-seq' }, `#${entry.seq}`),
      ' ',
      dateTime(entry.extractedOn),
      ' ',
      h('span', { class: 'badge' }, entry.inputType.toLowerCase()),
      ' ',
      edits?.rollback(entry.seq) ?? null,
    ),
    lines.length > 0 ? h('ul', { class: 'changes' }, lines) : empty('No changes.'),
    ids.length > 0 ? h('p', { class: 'muted small' }, `Submission${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`) : null,
  )
}

export function historySection(history: Paged<HistoryEntry>, loadMore: () => void, edits?: EditActions): HTMLElement {
  return section(
    'history',
    'History',
    h('p', { class: 'hint' }, 'Every update, oldest first. "Roll back to here" returns the profile to what it held after that update, as a new update (entries from before rollbacks existed cannot be rolled back to).'),
    history.items.length === 0 ? empty('No updates yet.') : h('ol', { class: 'history' }, history.items.map((e) => historyEntry(e, edits))),
    ...loadMoreControls('history-more', history, loadMore),
  )
}

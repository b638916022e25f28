/** The profile's update history: each batch with what it changed, oldest first, paged. */
import { h } from '../../dom'
import type { HistoryPageFieldsFragment } from '../../generated/graphql'
import type { HistoryEntry } from '../../types'
import { confidenceBar, dateTime } from '../../ui'
import { changeLines, type ChangeLine } from './change-lines'
import { pastWindow } from './fields'
import { loadMoreControls, type PageOf, type Paged } from './paged'
import type { EditActions } from './edits'
import { empty, section } from './section'

export const historyKey = (e: HistoryEntry): string => String(e.seq)

export const historyPage = (page: HistoryPageFieldsFragment): PageOf<HistoryEntry> => ({
  items: page.entries,
  ...page.pageInfo,
})

function changeLine(line: ChangeLine): HTMLElement {
  return h(
    'li',
    null,
    h('span', { class: 'change-path' }, line.path),
    line.value === undefined ? ': (none)' : [': ', h('span', { class: 'change-value' }, line.value)],
    line.confidence === undefined ? null : confidenceBar(line.confidence),
    line.window
      ? h(
          'span',
          { class: 'past-window', title: `${line.window.from} to ${line.window.until}` },
          ` ${pastWindow(line.window.from, line.window.until)}`,
        )
      : null,
  )
}

function historyEntry(entry: HistoryEntry, edits?: EditActions): HTMLElement {
  const lines = changeLines(entry.changes).map(changeLine)
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
    ids.length > 0
      ? h('p', { class: 'muted small' }, `Submission${ids.length === 1 ? '' : 's'}: ${ids.join(', ')}`)
      : null,
  )
}

export function historySection(history: Paged<HistoryEntry>, loadMore: () => void, edits?: EditActions): HTMLElement {
  return section(
    'history',
    'History',
    h(
      'p',
      { class: 'hint' },
      'Every update, oldest first. "Roll back to here" returns the profile to what it held after that update, as a new update (entries from before rollbacks existed cannot be rolled back to).',
    ),
    history.items.length === 0
      ? empty('No updates yet.')
      : h(
          'ol',
          { class: 'history' },
          history.items.map((e) => historyEntry(e, edits)),
        ),
    ...loadMoreControls('history-more', history, loadMore),
  )
}

/** The data sent for the profile: each submission with its status, error, times and tokens, oldest first, paged. */
import { h } from '../../dom'
import type { SubmissionPageFieldsFragment } from '../../generated/graphql'
import type { Submission } from '../../types'
import { dataTable, dateTime, statusBadge } from '../../ui'
import { loadMoreControls, type PageOf, type Paged } from './paged'
import { empty, none, section } from './section'

export const submissionKey = (s: Submission): string => s.id

export const submissionPage = (page: SubmissionPageFieldsFragment): PageOf<Submission> => ({ items: page.nodes, ...page.pageInfo })

const COLUMNS = ['Id', 'Input type', 'Status', 'Attempts', 'Error', 'Created', 'Said', 'Started', 'Finished', 'Tokens', 'Prompt']

function submissionRow(s: Submission): HTMLTableRowElement {
  return h(
    'tr',
    null,
    // Where a passage's "submission" link (the "Why?" panel) brings focus.
    h('th', { scope: 'row', tabindex: -1, 'data-submission': s.id }, h('code', { class: 'small' }, s.id)),
    h('td', null, s.inputType.toLowerCase()),
    h('td', null, statusBadge(s.status)),
    h('td', { class: 'num' }, String(s.attempts)),
    h('td', { class: 'cell-error' }, s.error ?? none('—')),
    h('td', null, dateTime(s.createdAt)),
    // When the text was said or written (README "Event time"): blank when it is the acceptance time.
    h('td', null, s.occurredAt === s.createdAt ? none('—') : dateTime(s.occurredAt)),
    h('td', null, dateTime(s.startedAt)),
    h('td', null, dateTime(s.finishedAt)),
    h('td', { class: 'num' }, s.usage ? String(s.usage.totalTokens) : none('—')),
    h('td', null, s.promptVersion ?? none('—')),
  )
}

export function submissionsSection(submissions: Paged<Submission>, loadMore: () => void): HTMLElement {
  return section(
    'submissions',
    'Submissions',
    h('p', { class: 'hint' }, 'The data sent for this profile, oldest first.'),
    submissions.items.length === 0
      ? empty('No submissions.')
      : dataTable('Submissions table', COLUMNS, submissions.items.map(submissionRow), 'table table--compact'),
    ...loadMoreControls('submissions-more', submissions, loadMore),
  )
}

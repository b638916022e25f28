/** The data sent for the profile: each submission with its status, error, times and tokens, oldest first, paged. */
import { h } from '../../dom'
import type { SubmissionPageFieldsFragment } from '../../generated/graphql'
import type { Submission } from '../../types'
import { dataTable, dateTime, statusBadge } from '../../ui'
import { loadMoreControls, type PageOf, type Paged } from './paged'
import { empty, none, section } from './section'

export const submissionKey = (s: Submission): string => s.id

export const submissionPage = (page: SubmissionPageFieldsFragment): PageOf<Submission> => ({
  items: page.nodes,
  ...page.pageInfo,
})

const COLUMNS = [
  'Id',
  'Input type',
  'Status',
  'Attempts',
  'Error',
  'Created',
  'Said',
  'Started',
  'Finished',
  'Tokens',
  'Prompt',
  'Text',
]

/** What the Text column shows: the control that deletes a processed submission's evidence, or that its text is gone. */
export type EvidenceControl = (s: Submission) => HTMLButtonElement

function textCell(s: Submission, deleteEvidence?: EvidenceControl): HTMLTableCellElement {
  if (!s.hasText) return h('td', { 'data-testid': 'submission-text-gone' }, none('deleted'))
  // A submission still pending or processing needs its text (the service answers CONFLICT).
  const processed = s.status === 'DONE' || s.status === 'FAILED'
  return h('td', null, processed && deleteEvidence ? deleteEvidence(s) : none('kept'))
}

function submissionRow(s: Submission, deleteEvidence?: EvidenceControl): HTMLTableRowElement {
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
    textCell(s, deleteEvidence),
  )
}

export function submissionsSection(
  submissions: Paged<Submission>,
  loadMore: () => void,
  deleteEvidence?: EvidenceControl,
): HTMLElement {
  return section(
    'submissions',
    'Submissions',
    h(
      'p',
      { class: 'hint' },
      'The data sent for this profile, oldest first. Deleting a submission’s evidence deletes what it said (its passages and text); the values it gave stay.',
    ),
    submissions.items.length === 0
      ? empty('No submissions.')
      : dataTable(
          'Submissions table',
          COLUMNS,
          submissions.items.map((s) => submissionRow(s, deleteEvidence)),
          'table table--compact',
        ),
    ...loadMoreControls('submissions-more', submissions, loadMore),
  )
}

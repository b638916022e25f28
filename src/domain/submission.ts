/**
 * A submission's states, in the order of its life: accepted (`pending`), taken by a worker for a batch (`processing`),
 * then `done` (merged) or `failed` (its last attempt failed; nothing of it merged). A retry, a deferral (provider down)
 * or a shutdown puts it back to `pending`. The transitions are src/db/submission-lifecycle.ts.
 */
export const SUBMISSION_STATES = ['pending', 'processing', 'done', 'failed'] as const
export type SubmissionStatus = (typeof SUBMISSION_STATES)[number]

/** The states of a submission not finished yet: its profile is `processing` while it has one. */
export const OPEN_STATES = ['pending', 'processing'] as const satisfies readonly SubmissionStatus[]

/**
 * `status IN ('pending', 'processing')` as SQL text, literal so that the partial indexes over open submissions
 * (whose predicate is this text) are used; `column` names the status column (with its table alias).
 */
export const isOpenSql = (column = 'status') => `${column} IN (${OPEN_STATES.map((s) => `'${s}'`).join(', ')})`

/**
 * The profile page's edits: a remove control next to a value (forgetProfileValue), "Roll back to here" on a history
 * entry (rollbackProfile) and "Delete evidence" on a processed submission (deleteSubmissionEvidence), each behind a
 * confirmation. The first two answer the profile as it is now; the live subscription brings the same change a moment
 * later. Deleting evidence leaves the profile as it is.
 */
import { errorMessage, gql } from '../../api'
import { h } from '../../dom'
import { DELETE_SUBMISSION_EVIDENCE, FORGET_VALUE, ROLLBACK_PROFILE } from '../../queries'
import type { Profile, Submission } from '../../types'
import { announce, confirmDialog } from '../../ui'

export interface EditActions {
  /** A small button that forgets `value` from `section` (category: interests only). */
  forget(section: string, value: string | number, category?: string): HTMLButtonElement
  /** The history entry's "Roll back to here". */
  rollback(seq: number): HTMLButtonElement
  /** A processed submission's "Delete evidence". */
  deleteEvidence(submission: Submission): HTMLButtonElement
}

/**
 * `changed` gets the profile once the server has applied an edit; `evidenceDeleted` the id of a submission whose
 * evidence the server deleted.
 */
export function editActions(
  id: string,
  signal: AbortSignal,
  changed: (profile: Profile) => void,
  evidenceDeleted: (submissionId: string) => void,
): EditActions {
  async function run(
    button: HTMLButtonElement,
    what: string,
    call: () => Promise<Profile>,
    done: string,
  ): Promise<void> {
    button.disabled = true
    try {
      const profile = await call()
      if (signal.aborted) return
      changed(profile)
      announce(done)
    } catch (err) {
      if (!signal.aborted) announce(`Could not ${what}: ${errorMessage(err)}`, 'error')
    } finally {
      button.disabled = false
    }
  }

  return {
    forget(section, value, category) {
      const text = String(value)
      const button = h(
        'button',
        {
          type: 'button',
          class: 'button button--small button--danger-outline',
          'aria-label': `Remove ${text} from ${section}`,
          'data-testid': 'forget-value',
        },
        'Remove',
      )
      button.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: `Remove "${text}"?`,
          message: `"${text}" is removed from ${section} of profile ${id}; the summary and the search entry are rebuilt without it, and the history records the removal. Only data sent after now can bring it back.`,
          confirmLabel: 'Remove',
        })
        if (!ok || signal.aborted) return
        await run(
          button,
          `remove ${text}`,
          async () =>
            (await gql(FORGET_VALUE, { id, section, value: text, category: category ?? null }, signal))
              .forgetProfileValue,
          `Removed ${text} from ${section}.`,
        )
      })
      return button
    },
    rollback(seq) {
      const button = h(
        'button',
        { type: 'button', class: 'button button--small', 'data-testid': 'rollback' },
        'Roll back to here',
      )
      button.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: `Roll back to update #${seq}?`,
          message: `Profile ${id} returns to what it held after update #${seq}; later changes are undone (values removed on request stay removed). The rollback is recorded as a new update, so it can itself be rolled back.`,
          confirmLabel: 'Roll back',
        })
        if (!ok || signal.aborted) return
        await run(
          button,
          'roll back',
          async () => (await gql(ROLLBACK_PROFILE, { id, toSeq: seq }, signal)).rollbackProfile,
          `Rolled back to update #${seq}.`,
        )
      })
      return button
    },
    deleteEvidence(submission) {
      const short = submission.id.slice(0, 8)
      const button = h(
        'button',
        {
          type: 'button',
          class: 'button button--small button--danger-outline',
          'aria-label': `Delete evidence of submission ${submission.id}`,
          'data-testid': 'delete-evidence',
        },
        'Delete evidence',
      )
      button.addEventListener('click', async () => {
        const ok = await confirmDialog({
          title: `Delete what submission ${short} said?`,
          message: `Its text and its evidence passages are deleted, so no context, search or "Why?" quotes them again; the submission's row stays. The values it gave stay in profile ${id}: remove a value to forget it. This cannot be undone.`,
          confirmLabel: 'Delete evidence',
        })
        if (!ok || signal.aborted) return
        button.disabled = true
        try {
          const r = (await gql(DELETE_SUBMISSION_EVIDENCE, { profileId: id, submissionId: submission.id }, signal))
            .deleteSubmissionEvidence
          if (signal.aborted) return
          evidenceDeleted(r.submissionId)
          const passages = `${r.passagesDeleted} passage${r.passagesDeleted === 1 ? '' : 's'}`
          announce(`Deleted ${passages}${r.textDeleted ? ' and the text' : ''} of submission ${short}.`)
        } catch (err) {
          if (!signal.aborted) announce(`Could not delete the evidence: ${errorMessage(err)}`, 'error')
        } finally {
          button.disabled = false
        }
      })
      return button
    },
  }
}

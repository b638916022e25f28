/** The profile page's delete action: a button, a confirmation, the mutation, and its error. */
import { errorMessage, gql } from '../../api'
import { h } from '../../dom'
import { DELETE_PROFILE } from '../../queries'
import { announce, confirmDialog, errorText, showError } from '../../ui'

export interface DeleteAction {
  button: HTMLButtonElement
  /** Where a failed deletion is reported. */
  error: HTMLElement
}

/** `deleted` runs once the server has deleted the profile, before the deletion is announced. */
export function deleteAction(id: string, signal: AbortSignal, deleted: () => void): DeleteAction {
  const button = h('button', { type: 'button', class: 'button button--danger', hidden: true }, 'Delete profile')
  const error = errorText()
  button.addEventListener('click', async () => {
    showError(error, null)
    const ok = await confirmDialog({
      title: 'Delete this profile?',
      message: `Profile ${id}, its history, its pending submissions and its search entry are deleted. This cannot be undone.`,
      confirmLabel: 'Delete',
    })
    if (!ok || signal.aborted) return
    button.disabled = true
    try {
      await gql(DELETE_PROFILE, { id }, signal)
      if (signal.aborted) return
      deleted()
      announce(`Deleted profile ${id}.`)
    } catch (err) {
      if (signal.aborted) return
      showError(error, `Could not delete the profile: ${errorMessage(err)}`)
    } finally {
      button.disabled = false
    }
  })
  return { button, error }
}

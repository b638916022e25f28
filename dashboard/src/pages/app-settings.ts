/** What an app's settings pages (Retention, Summary, Profile schema) share: finding the app, and saving a form. */
import { errorMessage, gql } from '../api'
import { APPS } from '../queries'
import type { DashboardApp } from '../types'
import { showError } from '../ui'

/** Loads the account's apps and shows the one of `appId`, or says on `pageError` why it cannot. */
export async function loadApp(
  appId: string,
  signal: AbortSignal,
  pageError: HTMLElement,
  show: (app: DashboardApp) => void,
): Promise<void> {
  try {
    const { apps } = await gql(APPS, {}, signal)
    const app = apps.find((a) => a.id === appId)
    if (!app) return showError(pageError, 'No such app.')
    show(app)
  } catch (err) {
    if (signal.aborted) return
    showError(pageError, `Could not load the app: ${errorMessage(err)}`)
  }
}

/**
 * A form's save: the button disabled while `run` works, and its error (unless the page was left meanwhile) shown on
 * `formError`; `onError` runs after it is shown (to move the focus back, say).
 */
export async function saveWith(
  save: HTMLButtonElement,
  formError: HTMLElement,
  signal: AbortSignal,
  run: () => Promise<void>,
  onError?: () => void,
): Promise<void> {
  save.disabled = true
  try {
    await run()
  } catch (err) {
    if (signal.aborted) return
    showError(formError, errorMessage(err))
    onError?.()
  } finally {
    save.disabled = false
  }
}

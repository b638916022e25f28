/** What an app's settings pages (Retention, Summary) share: finding the app among the account's apps. */
import { errorMessage, gql } from '../api'
import { APPS } from '../queries'
import type { DashboardApp } from '../types'
import { showError } from '../ui'

/** Loads the account's apps and shows the one of `appId`, or says on `pageError` why it cannot. */
export async function loadApp(appId: string, signal: AbortSignal, pageError: HTMLElement, show: (app: DashboardApp) => void): Promise<void> {
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

/**
 * #/apps/<id>/retention: the app's data retention policy (deleting untouched profiles, dropping raw submission text).
 */
import { gql } from '../api'
import { h, labelled } from '../dom'
import { SET_APP_RETENTION } from '../queries'
import type { Page } from '../router'
import { loadApp, saveWith } from './app-settings'
import type { DashboardApp } from '../types'
import { announce, errorText, showError } from '../ui'

const DAYS_HINT = 'Whole days, 1 to 36,500. Leave empty to keep forever.'

/** The field's value as the API takes it: null when empty, the number of days, or an error to show. */
function days(input: HTMLInputElement, what: string): number | null | { error: string } {
  const text = input.value.trim()
  if (!text) return null
  if (!/^\d+$/.test(text)) return { error: `${what}: enter a whole number of days, or leave it empty.` }
  return Number(text)
}

export const retentionPage: Page = ({ root, route, signal }) => {
  document.title = 'Retention · Profiler'
  const appId = route.appId!
  const heading = h('h1', { tabindex: -1 }, 'Data retention')
  const pageError = errorText()
  const current = h('p', { 'data-testid': 'retention-current', role: 'status' })

  const deleteInput = h('input', {
    type: 'text',
    inputmode: 'numeric',
    name: 'deleteProfilesAfterDays',
    autocomplete: 'off',
    maxlength: 6,
  })
  const dropInput = h('input', {
    type: 'text',
    inputmode: 'numeric',
    name: 'dropSubmissionTextAfterDays',
    autocomplete: 'off',
    maxlength: 6,
  })
  const save = h('button', { type: 'submit', class: 'button button--primary' }, 'Save policy')
  const formError = errorText()
  const form = h(
    'form',
    { class: 'form', novalidate: true, 'aria-labelledby': 'retention-form-title' },
    h('h2', { id: 'retention-form-title' }, 'Policy'),
    labelled(
      'Delete profiles untouched for (days)',
      deleteInput,
      DAYS_HINT + ' A profile is deleted only when every app that wrote to it has a policy, after the longest of them.',
    ),
    labelled(
      'Drop raw submission text after (days)',
      dropInput,
      DAYS_HINT + ' The profile and the submission records stay; only the text this app sent goes.',
    ),
    formError,
    h('div', { class: 'form-actions' }, save),
  )

  function show(app: DashboardApp): void {
    heading.textContent = `Data retention of ${app.displayName}`
    document.title = `Retention of ${app.displayName} · Profiler`
    deleteInput.value = app.deleteProfilesAfterDays == null ? '' : String(app.deleteProfilesAfterDays)
    dropInput.value = app.dropSubmissionTextAfterDays == null ? '' : String(app.dropSubmissionTextAfterDays)
    const parts = [
      app.deleteProfilesAfterDays == null
        ? 'Profiles are kept until deleted.'
        : `Profiles untouched for ${app.deleteProfilesAfterDays} days are deleted.`,
      app.dropSubmissionTextAfterDays == null
        ? 'Submission texts are kept.'
        : `Submission texts are dropped ${app.dropSubmissionTextAfterDays} days after processing.`,
    ]
    current.textContent = parts.join(' ')
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(formError, null)
    const d = days(deleteInput, 'Delete profiles')
    const t = days(dropInput, 'Drop text')
    for (const [v, input] of [
      [d, deleteInput],
      [t, dropInput],
    ] as const) {
      if (v && typeof v === 'object') {
        showError(formError, v.error)
        input.focus()
        return
      }
    }
    await saveWith(save, formError, signal, async () => {
      const { setAppRetention } = await gql(
        SET_APP_RETENTION,
        { id: appId, deleteProfilesAfterDays: d as number | null, dropSubmissionTextAfterDays: t as number | null },
        signal,
      )
      show(setAppRetention)
      announce('Retention policy saved.')
    })
  })

  root.append(
    h('p', null, h('a', { href: '#/apps' }, '← Apps')),
    heading,
    h(
      'p',
      { class: 'lead' },
      'The worker applies the policy about once an hour (PROFILER_RETENTION_SWEEP_SECONDS); every deletion is logged.',
    ),
    pageError,
    current,
    h('section', { class: 'card' }, form),
  )
  void loadApp(appId, signal, pageError, show)
}

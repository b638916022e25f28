/** #/account: who is signed in, change password, sign out. */
import { errorMessage, fetchSession, gql } from '../api'
import { h, labelled } from '../dom'
import { CHANGE_PASSWORD } from '../queries'
import type { Page } from '../router'
import { session, setSession } from '../session'
import { errorText, showError } from '../ui'
import { signOut } from '../signout'

export const accountPage: Page = ({ root, signal }) => {
  document.title = 'Account · Profiler'
  const account = session.account

  const current = h('input', {
    type: 'password',
    name: 'currentPassword',
    autocomplete: 'current-password',
    required: true,
  })
  const next = h('input', { type: 'password', name: 'newPassword', autocomplete: 'new-password', required: true })
  const submit = h('button', { type: 'submit', class: 'button button--primary' }, 'Change password')
  const error = errorText()
  const success = h('p', { class: 'success', role: 'status', 'data-testid': 'password-changed' })
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    labelled('Current password', current),
    labelled('New password', next, 'At least 10 characters.'),
    error,
    h('div', { class: 'form-actions' }, submit),
    success,
  )
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(error, null)
    success.textContent = ''
    if (!current.value || !next.value) {
      showError(error, 'Enter your current password and a new password.')
      ;(current.value ? next : current).focus()
      return
    }
    submit.disabled = true
    try {
      await gql(CHANGE_PASSWORD, { currentPassword: current.value, newPassword: next.value }, signal)
      current.value = ''
      next.value = ''
      success.textContent = 'Password changed. Your other sessions were signed out.'
      // The server may have issued a new CSRF token with the password change.
      try {
        const fresh = await fetchSession()
        if (fresh.account) setSession({ account: fresh.account, csrfToken: fresh.csrfToken })
      } catch {
        // keep the current token
      }
    } catch (err) {
      if (signal.aborted) return
      showError(error, errorMessage(err))
      current.focus()
    } finally {
      submit.disabled = false
    }
  })

  const signOutButton = h('button', { type: 'button', class: 'button' }, 'Sign out')
  signOutButton.addEventListener('click', () => void signOut())

  root.append(
    h('h1', { tabindex: -1 }, 'Account'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'account-details-title' },
      h('h2', { id: 'account-details-title' }, 'Signed in as'),
      h(
        'dl',
        { class: 'meta' },
        h('div', null, h('dt', null, 'Email'), h('dd', { 'data-testid': 'account-email' }, account?.email ?? '')),
        h('div', null, h('dt', null, 'Workspace'), h('dd', null, account?.tenantName ?? '')),
        h('div', null, h('dt', null, 'Workspace id'), h('dd', null, h('code', null, account?.tenantId ?? ''))),
      ),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'change-password-title' },
      h('h2', { id: 'change-password-title' }, 'Change password'),
      h('p', { class: 'hint' }, 'Changing your password signs out your other sessions.'),
      form,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'session-title' },
      h('h2', { id: 'session-title' }, 'Session'),
      h('p', null, 'Sign out of the dashboard in this browser.'),
      signOutButton,
    ),
  )
}

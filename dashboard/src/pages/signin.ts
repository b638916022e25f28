/** #/signin and #/signup. */
import { errorMessage, gql, resetRealtime } from '../api'
import { h, labelled } from '../dom'
import { SIGN_IN, SIGN_UP } from '../queries'
import { navigate, type Page } from '../router'
import { session, signedIn } from '../session'
import { announce, errorText, showError } from '../ui'

type Mode = 'signin' | 'signup'

function signUpClosedNote(): HTMLElement {
  return h(
    'p',
    { class: 'note', 'data-testid': 'signup-closed' },
    'Sign-up is closed on this server. Ask an administrator for an account.',
  )
}

function authForm(mode: Mode, signal: AbortSignal): HTMLFormElement {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true })
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: mode === 'signin' ? 'current-password' : 'new-password',
    required: true,
  })
  const invite =
    mode === 'signup' && session.signUpByInvite
      ? h('input', { type: 'text', name: 'invite', autocomplete: 'off', required: true })
      : null
  const submit = h(
    'button',
    { type: 'submit', class: 'button button--primary' },
    mode === 'signin' ? 'Sign in' : 'Sign up',
  )
  const error = errorText()

  const form = h(
    'form',
    { class: 'form', novalidate: true },
    labelled('Email', email),
    labelled('Password', password, mode === 'signup' ? 'At least 10 characters.' : undefined),
    ...(invite
      ? [labelled('Invite code', invite, 'Sign-up on this server is by invitation: paste the code you were given.')]
      : []),
    error,
    h('div', { class: 'form-actions' }, submit),
  )

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(error, null)
    if (!email.value.trim() || !password.value) {
      showError(error, 'Enter your email and password.')
      ;(email.value.trim() ? password : email).focus()
      return
    }
    if (invite && !invite.value.trim()) {
      showError(error, 'Enter your invite code.')
      invite.focus()
      return
    }
    submit.disabled = true
    form.setAttribute('aria-busy', 'true')
    try {
      const credentials = { email: email.value.trim(), password: password.value }
      const info =
        mode === 'signin'
          ? (await gql(SIGN_IN, credentials)).signIn
          : (await gql(SIGN_UP, { ...credentials, inviteCode: invite?.value.trim() || null })).signUp
      password.value = ''
      resetRealtime()
      signedIn(info.account, info.csrfToken)
      announce(
        mode === 'signin'
          ? `Signed in as ${info.account.email}.`
          : `Account created. Signed in as ${info.account.email}.`,
      )
      navigate('#/apps')
    } catch (err) {
      if (signal.aborted) return
      showError(error, errorMessage(err))
      password.focus()
    } finally {
      submit.disabled = false
      form.removeAttribute('aria-busy')
    }
  })
  return form
}

function authPage(mode: Mode): Page {
  return ({ root, signal }) => {
    document.title = mode === 'signin' ? 'Sign in · Profiler' : 'Sign up · Profiler'
    const card = h('section', { class: 'card auth-card' })
    card.append(h('h1', { tabindex: -1 }, mode === 'signin' ? 'Sign in' : 'Sign up'))

    if (mode === 'signin') {
      card.append(
        h('p', { class: 'lead' }, 'Sign in to manage your apps and API keys and to browse profiles.'),
        authForm('signin', signal),
      )
      card.append(
        session.signUpOpen
          ? h('p', { class: 'switch' }, 'No account yet? ', h('a', { href: '#/signup' }, 'Create an account'))
          : signUpClosedNote(),
      )
    } else if (session.signUpOpen) {
      card.append(
        h('p', { class: 'lead' }, 'Create an account for a new workspace.'),
        authForm('signup', signal),
        h('p', { class: 'switch' }, 'Already have an account? ', h('a', { href: '#/signin' }, 'Sign in')),
      )
    } else {
      card.append(
        signUpClosedNote(),
        h('p', { class: 'switch' }, 'Already have an account? ', h('a', { href: '#/signin' }, 'Sign in')),
      )
    }
    root.append(card)
  }
}

export const signInPage: Page = authPage('signin')
export const signUpPage: Page = authPage('signup')

import type { Account, SessionState } from './types'

/** The signed-in account and its CSRF token, in memory only (never in localStorage or the URL). */
export const session: SessionState = { account: null, csrfToken: null, signUpOpen: false, signUpByInvite: false }

type Listener = () => void
const listeners = new Set<Listener>()

export function onSessionChange(fn: Listener): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function setSession(next: Partial<SessionState>): void {
  Object.assign(session, next)
  for (const fn of listeners) fn()
}

export function signedIn(account: Account, csrfToken: string): void {
  setSession({ account, csrfToken })
}

export function signedOut(): void {
  setSession({ account: null, csrfToken: null })
}

export function isSignedIn(): boolean {
  return session.account !== null
}

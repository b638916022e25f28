import { ApiError, errorMessage, gql, resetRealtime } from './api'
import { SIGN_OUT } from './queries'
import { navigate } from './router'
import { signedOut } from './session'
import { announce } from './ui'

/** Signs out on the server, then forgets the session here and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  try {
    await gql(SIGN_OUT)
  } catch (err) {
    // UNAUTHENTICATED: already signed out; the UNAUTHENTICATED handler has taken over.
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') return
    announce(`Could not sign out: ${errorMessage(err)}`, 'error')
    return
  }
  resetRealtime()
  signedOut()
  navigate('#/signin')
  announce('Signed out.')
}

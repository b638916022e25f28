// The dashboard's session cookie: HttpOnly (scripts cannot read it), SameSite=Strict (other sites' requests do not
// carry it), Path=/dashboard (the API never sees it), Secure over HTTPS.
export const SESSION_COOKIE = 'profiler_session'

export function sessionCookie(token: string, expiresAt: string, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/dashboard',
    `Expires=${new Date(expiresAt).toUTCString()}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}

export function clearSessionCookie(secure: boolean): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/dashboard',
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}

/** The session token of a Cookie header, if any. */
export function sessionToken(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim()
      return value || undefined
    }
  }
  return undefined
}

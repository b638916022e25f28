import crypto from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export function randomToken(length: number): string {
  const bytes = crypto.randomBytes(length)
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % ALPHABET.length]
  return out
}

export const newId = (prefix: string) => `${prefix}_${randomToken(16)}`

/** A new API key `pk_<public id>_<secret>`; only its SHA-256 digest is stored. */
export function generateApiKey(): { key: string; publicId: string; hash: Buffer } {
  const publicId = randomToken(12)
  const key = `pk_${publicId}_${randomToken(32)}`
  return { key, publicId, hash: digest(key) }
}

export function digest(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest()
}

/**
 * What a credential (API key, session token) is known by in memory: its digest in base64url, never the credential.
 * The failure budget and the key cache share it, so a request digests its key once.
 */
export const credentialId = (credential: string | undefined): string | undefined =>
  // crypto.hash, one shot: several times faster than createHash().update().digest() for a key-sized input.
  credential ? crypto.hash('sha256', credential, 'base64url') : undefined

const KEY_RE = /^pk_([A-Za-z0-9]{12})_([A-Za-z0-9]{32})$/

/** The public id of a well-formed key, or null. */
export function parseApiKey(key: string): string | null {
  const match = KEY_RE.exec(key)
  return match ? match[1]! : null
}

export function digestsEqual(first: Buffer, second: Buffer): boolean {
  return first.length === second.length && crypto.timingSafeEqual(first, second)
}

/** The key of an `Authorization: Bearer <key>` value; undefined when absent, a never-valid marker when malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.trim() === '') return undefined
  const match = /^Bearer\s+(.+)$/i.exec(header.trim())
  return match ? match[1]!.trim() : '\u0000malformed'
}

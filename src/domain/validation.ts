import { DomainError, invalid } from './errors.js'

export const PROFILE_ID_RE = /^[A-Za-z0-9._:@+-]{1,200}$/

export function checkProfileId(id: string): string {
  if (!PROFILE_ID_RE.test(id)) {
    throw invalid(`Invalid profile id: it must be 1-200 characters of letters, digits and . _ : @ + -`)
  }
  return id
}

/** The data size limit counts UTF-8 bytes (413, not 400). */
export function checkDataSize(data: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(data, 'utf8')
  if (bytes > maxBytes)
    throw new DomainError('PAYLOAD_TOO_LARGE', `Field data is ${bytes} bytes; the limit is ${maxBytes} bytes`)
  return data
}

export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined
  if (key.length < 1 || key.length > 255) throw invalid('Invalid Idempotency-Key header: 1-255 characters')
  return checkStorable(key, 'Idempotency-Key header')
}

/**
 * Characters PostgreSQL cannot store: NUL in text and jsonb, and UTF-16 surrogates without their pair (jsonb refuses
 * their escapes; text would silently turn them into U+FFFD). Such input is refused with 400, never stripped, so what is
 * stored is what was sent.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function unstorable(text: string): string | undefined {
  const match = UNSTORABLE.exec(text)
  if (!match) return undefined
  const code = match[0].charCodeAt(0)
  return code === 0 ? 'a NUL character (U+0000)' : `an unpaired surrogate (U+${code.toString(16).toUpperCase()})`
}

/** Refuses a string holding a character that cannot be stored; the message names the field. */
export function checkStorable<T extends string | undefined>(value: T, field: string): T {
  const bad = value === undefined ? undefined : unstorable(value)
  if (bad) throw invalid(`Invalid ${field}: contains ${bad}, which cannot be stored`)
  return value
}

/**
 * The same for every key and string inside JSON text (a `structured` object or a conversation's messages): escapes
 * such as \u0000 become the character only once parsed. Iterative, so no nesting depth exhausts the stack. Text that
 * is not JSON is left to its own validation.
 */
export function checkStorableJson(text: string, field: string): void {
  if (!/^\s*[[{]/.test(text) || !/\\u[dD][89a-fA-F]|\\u0000/.test(text)) return
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return
  }
  const stack: unknown[] = [value]
  while (stack.length) {
    const next = stack.pop()
    if (typeof next === 'string') checkStorable(next, field)
    else if (Array.isArray(next)) stack.push(...next)
    else if (next && typeof next === 'object') {
      for (const [key, child] of Object.entries(next)) {
        checkStorable(key, field)
        stack.push(child)
      }
    }
  }
}

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
  if (bytes > maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `Field data is ${bytes} bytes; the limit is ${maxBytes} bytes`)
  return data
}

export function checkIdempotencyKey(v: string | undefined): string | undefined {
  if (v === undefined) return undefined
  if (v.length < 1 || v.length > 255) throw invalid('Invalid Idempotency-Key header: 1-255 characters')
  return v
}

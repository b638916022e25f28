import { DomainError, invalid } from './errors.js'
import { INPUT_TYPES, type InputType } from './profile.js'

export const PROFILE_ID_RE = /^[A-Za-z0-9._:@+-]{1,200}$/

export function checkProfileId(id: string): string {
  if (!PROFILE_ID_RE.test(id)) {
    throw invalid(`Invalid profile id: it must be 1-200 characters of letters, digits and . _ : @ + -`)
  }
  return id
}

export function checkInputType(v: unknown): InputType {
  if (v === undefined || v === null) return 'text'
  if (typeof v !== 'string' || !INPUT_TYPES.includes(v as InputType)) {
    throw invalid(`Invalid input_type: must be one of ${INPUT_TYPES.join(', ')}`)
  }
  return v as InputType
}

export function checkData(v: unknown, maxBytes: number): string {
  if (v === undefined || v === null) throw invalid('Missing field: data')
  if (typeof v !== 'string') throw invalid('Invalid field: data must be a string')
  if (v.trim() === '') throw invalid('Invalid field: data must not be empty')
  const bytes = Buffer.byteLength(v, 'utf8')
  if (bytes > maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `Field data is ${bytes} bytes; the limit is ${maxBytes} bytes`)
  return v
}

export function checkIdempotencyKey(v: string | undefined): string | undefined {
  if (v === undefined) return undefined
  if (v.length < 1 || v.length > 255) throw invalid('Invalid Idempotency-Key header: 1-255 characters')
  return v
}

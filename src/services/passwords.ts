// Password hashing with Node's scrypt (RFC 7914): no native dependency, memory-hard, and the parameters travel with
// each hash so they can be raised later without invalidating old ones.
import crypto from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

/** OWASP's scrypt minimum is N=2^17, r=8, p=1; 2^15 with r=8 needs 32 MB of memory a hash (128 x N x r bytes). */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LENGTH = 32
export const MIN_PASSWORD_LENGTH = 10
export const MAX_PASSWORD_LENGTH = 256

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, {
    ...PARAMS,
    maxmem: 128 * PARAMS.N * PARAMS.r * 2,
  })
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, costText, blockText, parallelText, salt, hash] = stored.split('$')
  if (kind !== 'scrypt' || !salt || !hash) return false
  const cost = Number(costText)
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: cost,
    r: Number(blockText),
    p: Number(parallelText),
    maxmem: 128 * cost * Number(blockText) * 2,
  })
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected)
}

/** A hash of a random password: verifying against it takes as long as against a real one (unknown e-mail addresses). */
let dummy: Promise<string> | undefined
export const dummyHash = () => (dummy ??= hashPassword(crypto.randomBytes(16).toString('hex')))

import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Webhook signing secrets at rest: AES-256-GCM with a key the database does not hold, so a dump alone does not give
 * them away. The key is PROFILER_WEBHOOK_ENCRYPTION_KEY; without it, an embedded database keeps a generated key in its
 * data dir (`webhook-key`, mode 0600) and a server database stores secrets as they are (the start-up log says so).
 * Stored forms: `v1:<iv>:<tag>:<ciphertext>` (base64url) or `plain:<secret>`.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer | null) {}

  /** From the configured key (any string: its SHA-256 is the AES key), else the data dir's key file, else none. */
  static open(opts: { key?: string; dataDir?: string }): SecretBox {
    if (opts.key) return new SecretBox(crypto.createHash('sha256').update(opts.key).digest())
    if (!opts.dataDir) return new SecretBox(null)
    const file = path.join(opts.dataDir, 'webhook-key')
    try {
      return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url'))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    fs.mkdirSync(opts.dataDir, { recursive: true })
    const key = crypto.randomBytes(32)
    try {
      // wx: another process that made it first wins, and both use its key.
      fs.writeFileSync(file, key.toString('base64url') + '\n', { mode: 0o600, flag: 'wx' })
      return new SecretBox(key)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url'))
    }
  }

  get encrypts(): boolean {
    return this.key !== null
  }

  seal(secret: string): string {
    if (!this.key) return `plain:${secret}`
    const iv = crypto.randomBytes(12)
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv)
    const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
    return ['v1', iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':')
  }

  /** The secret; throws when it was sealed with another key. */
  open(stored: string): string {
    if (stored.startsWith('plain:')) return stored.slice('plain:'.length)
    const [version, iv, tag, ct] = stored.split(':')
    if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unknown webhook secret format')
    if (!this.key) throw new Error('webhook secrets are encrypted but PROFILER_WEBHOOK_ENCRYPTION_KEY is not set')
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    try {
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8')
    } catch {
      throw new Error(
        "a webhook secret does not decrypt with this process's key (PROFILER_WEBHOOK_ENCRYPTION_KEY differs)",
      )
    }
  }
}

import { DomainError, invalid } from '../domain/errors.js'

export interface LineLimits {
  /** The longest line, in bytes (its newline not counted). */
  maxLineBytes: number
  /** The whole input, in bytes. */
  maxBytes: number
}

/**
 * The lines of a byte stream (JSON Lines), numbered from 1, as they arrive: at most one line is held, and a line over
 * the limit is refused before more of it is read (PAYLOAD_TOO_LARGE, naming the line), as is an input over the total
 * limit. Text must be UTF-8; `\\r\\n` ends a line as `\\n` does. Empty lines are skipped (still counted).
 */
export async function* lines(source: AsyncIterable<Buffer | Uint8Array | string>, limits: LineLimits): AsyncGenerator<{ n: number; text: string }> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let parts: Buffer[] = []
  let held = 0
  let total = 0
  let n = 0
  const finish = (last: Buffer): { n: number; text: string } | null => {
    n++
    const buf = parts.length ? Buffer.concat([...parts, last]) : last
    parts = []
    held = 0
    let text: string
    try {
      text = decoder.decode(buf)
    } catch {
      throw invalid(`Line ${n}: not valid UTF-8`)
    }
    if (text.endsWith('\r')) text = text.slice(0, -1)
    return text.trim() === '' ? null : { n, text }
  }
  for await (const chunk of source) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    total += b.length
    if (total > limits.maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE', `The input is larger than the limit of ${limits.maxBytes} bytes (at line ${n + 1})`)
    let start = 0
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, start)) {
      if (held + i - start > limits.maxLineBytes) throw tooLong(n + 1, limits)
      const line = finish(b.subarray(start, i))
      start = i + 1
      if (line) yield line
    }
    if (start < b.length) {
      held += b.length - start
      if (held > limits.maxLineBytes) throw tooLong(n + 1, limits)
      parts.push(Buffer.from(b.subarray(start))) // a copy: the source may reuse its buffer
    }
  }
  if (held) {
    const line = finish(Buffer.alloc(0))
    if (line) yield line
  }
}

const tooLong = (n: number, limits: LineLimits) => new DomainError('PAYLOAD_TOO_LARGE', `Line ${n} is longer than the limit of ${limits.maxLineBytes} bytes`)

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
 * limit. Text must be UTF-8; `\\r\\n` ends a line as `\\n` does. Blank lines (nothing but spaces, tabs and `\\r`, JSON's
 * own whitespace) are skipped but counted, in their line numbers and in the total; they are read a byte at a time in
 * one loop, without a buffer, a decoder or a string per line, so a run of millions costs milliseconds.
 */
export async function* lines(
  source: AsyncIterable<Buffer | Uint8Array | string>,
  limits: LineLimits,
): AsyncGenerator<{ n: number; text: string }> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  /** The line being read (from its first byte that is not blank), when a chunk ended inside it. */
  let parts: Buffer[] = []
  let held = 0
  let total = 0
  /** Lines ended so far. */
  let n = 0
  const finish = (last: Buffer): { n: number; text: string } => {
    const buf = parts.length ? Buffer.concat([...parts, last]) : last
    parts = []
    held = 0
    let text: string
    try {
      text = decoder.decode(buf)
    } catch {
      throw invalid(`Line ${n}: not valid UTF-8`)
    }
    return { n, text: text.endsWith('\r') ? text.slice(0, -1) : text }
  }
  for await (const chunk of source) {
    const b =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    total += b.length
    if (total > limits.maxBytes)
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The input is larger than the limit of ${limits.maxBytes} bytes (at line ${n + 1})`,
      )
    const len = b.length
    let i = 0
    while (i < len) {
      if (held === 0) {
        // Between records: blank bytes are skipped here, line ends counted.
        for (; i < len; i++) {
          const c = b[i]
          if (c === 10) n++
          else if (c !== 32 && c !== 13 && c !== 9) break
        }
        if (i === len) break
      }
      const end = b.indexOf(10, i)
      if (end === -1) {
        held += len - i
        if (held > limits.maxLineBytes) throw tooLong(n + 1, limits)
        parts.push(Buffer.from(b.subarray(i))) // a copy: the source may reuse its buffer
        break
      }
      if (held + end - i > limits.maxLineBytes) throw tooLong(n + 1, limits)
      n++
      yield finish(b.subarray(i, end))
      i = end + 1
    }
  }
  if (held) {
    n++
    yield finish(Buffer.alloc(0))
  }
}

const tooLong = (n: number, limits: LineLimits) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Line ${n} is longer than the limit of ${limits.maxLineBytes} bytes`)

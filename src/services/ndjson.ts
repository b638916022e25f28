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
 * limit. Text must be UTF-8; `\\r\\n` ends a line as `\\n` does. Blank lines (nothing but spaces, tabs and `\\r`,
 * JSON's own whitespace) are skipped but counted, in their line numbers and in the total; they are read a byte at a
 * time in one loop, without a buffer, a decoder or a string per line, so a run of millions costs milliseconds.
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
  let lineNumber = 0
  const finish = (last: Buffer): { n: number; text: string } => {
    const buf = parts.length ? Buffer.concat([...parts, last]) : last
    parts = []
    held = 0
    let text: string
    try {
      text = decoder.decode(buf)
    } catch {
      throw invalid(`Line ${lineNumber}: not valid UTF-8`)
    }
    return { n: lineNumber, text: text.endsWith('\r') ? text.slice(0, -1) : text }
  }
  for await (const chunk of source) {
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    total += bytes.length
    if (total > limits.maxBytes)
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The input is larger than the limit of ${limits.maxBytes} bytes (at line ${lineNumber + 1})`,
      )
    const len = bytes.length
    let offset = 0
    while (offset < len) {
      if (held === 0) {
        // Between records: blank bytes are skipped here, line ends counted.
        for (; offset < len; offset++) {
          const byte = bytes[offset]
          if (byte === 10) lineNumber++
          else if (byte !== 32 && byte !== 13 && byte !== 9) break
        }
        if (offset === len) break
      }
      const end = bytes.indexOf(10, offset)
      if (end === -1) {
        held += len - offset
        if (held > limits.maxLineBytes) throw tooLong(lineNumber + 1, limits)
        parts.push(Buffer.from(bytes.subarray(offset))) // a copy: the source may reuse its buffer
        break
      }
      if (held + end - offset > limits.maxLineBytes) throw tooLong(lineNumber + 1, limits)
      lineNumber++
      yield finish(bytes.subarray(offset, end))
      offset = end + 1
    }
  }
  if (held) {
    lineNumber++
    yield finish(Buffer.alloc(0))
  }
}

const tooLong = (lineNumber: number, limits: LineLimits) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Line ${lineNumber} is longer than the limit of ${limits.maxLineBytes} bytes`)

// The local embedder's word vectors as a flat binary table: the build writes the default one next to the compiled code
// (scripts/build.mjs), so a service started from the build reads 41 MB in tens of milliseconds instead of parsing the
// first 100 MB of the package's JSON (seconds, most of a start-up). Layout: "PWV1", then rows, dims and the bytes of
// the words (u32 little-endian); rows x dims float32 in the byte order of the machine that built it (the one it runs
// on); the words in row order, separated by "\n".
import fs from 'node:fs'
import path from 'node:path'

const MAGIC = 'PWV1'
const HEADER = 16

export interface VectorRows {
  /** word -> row */
  index: Map<string, number>
  /** rows x dims floats */
  data: Float32Array
}

export function writeVectorTable(file: string, rows: VectorRows, dims: number): void {
  const count = rows.index.size
  const words: string[] = new Array(count)
  for (const [word, row] of rows.index) {
    if (row >= count || words[row] !== undefined || word.includes('\n'))
      throw new Error(`word vectors: rows are not 0..${count - 1} with one word each`)
    words[row] = word
  }
  const text = Buffer.from(words.join('\n'), 'utf8')
  const header = Buffer.alloc(HEADER)
  header.write(MAGIC, 0, 'latin1')
  header.writeUInt32LE(count, 4)
  header.writeUInt32LE(dims, 8)
  header.writeUInt32LE(text.length, 12)
  const floats = rows.data.subarray(0, count * dims)
  const body = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, Buffer.concat([header, body, text]))
  fs.renameSync(tmp, file)
}

/** The table in `file`, or undefined when there is none; throws on a table of another layout or dimension. */
export function readVectorTable(file: string, dims: number): VectorRows | undefined {
  let buf: Buffer
  try {
    buf = fs.readFileSync(file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  if (buf.length < HEADER || buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(8) !== dims) {
    throw new Error(`${file} is not a word-vector table of ${dims} dimensions`)
  }
  const count = buf.readUInt32LE(4)
  const floatBytes = count * dims * 4
  const textBytes = buf.readUInt32LE(12)
  if (buf.length !== HEADER + floatBytes + textBytes) throw new Error(`${file} is truncated`)
  // The file's own memory when it is 4-byte aligned (a file this size gets a buffer of its own), a copy otherwise.
  const at = buf.byteOffset + HEADER
  const data =
    at % 4 === 0
      ? new Float32Array(buf.buffer, at, count * dims)
      : new Float32Array(buf.buffer.slice(at, at + floatBytes))
  const words = buf.toString('utf8', HEADER + floatBytes).split('\n')
  if (words.length !== count) throw new Error(`${file}: ${words.length} words for ${count} rows`)
  const index = new Map<string, number>()
  for (let r = 0; r < count; r++) index.set(words[r]!, r)
  return { index, data }
}

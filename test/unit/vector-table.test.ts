import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { wordVectors } from '../../src/ai/local/local-embedder.js'
import { readVectorTable, writeVectorTable } from '../../src/ai/local/vector-table.js'
import { ROOT } from '../support/cli.js'

describe('word-vector table (what the compiled service reads instead of the JSON)', () => {
  it("the build's table holds exactly the vectors the JSON gives, row for row", async () => {
    // The global setup has built dist/ from these sources.
    const table = readVectorTable(path.join(ROOT, 'dist/word-vectors-100000.bin'), 100)
    expect(table).toBeDefined()
    const json = await wordVectors()
    expect(table!.index.size).toBe(json.index.size)
    for (const [word, row] of json.index)
      if (table!.index.get(word) !== row) expect.fail(`${word}: row ${table!.index.get(word)}, not ${row}`)
    const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, json.index.size * 100 * 4)
    expect(bytes(table!.data).equals(bytes(json.data))).toBe(true)
  })

  it('round-trips; no file is no table; another dimension or a cut file is an error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-vectors-'))
    const file = path.join(dir, 'v.bin')
    expect(readVectorTable(file, 2)).toBeUndefined()
    const rows = {
      index: new Map([
        ['zoë', 0],
        ['jazz', 1],
        ['a', 2],
      ]),
      data: Float32Array.from([1, 0, 0.5, -0.25, 3e-8, 1e30]),
    }
    writeVectorTable(file, rows, 2)
    expect(readVectorTable(file, 2)).toEqual(rows)
    expect(() => readVectorTable(file, 3)).toThrow(/not a word-vector table of 3 dimensions/)
    fs.truncateSync(file, fs.statSync(file).size - 1)
    expect(() => readVectorTable(file, 2)).toThrow(/truncated/)
    expect(() => writeVectorTable(file, { index: new Map([['a', 1]]), data: new Float32Array(4) }, 2)).toThrow(
      /rows are not/,
    )
    fs.rmSync(dir, { recursive: true })
  })
})

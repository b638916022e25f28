import { describe, expect, it } from 'vitest'
import { repeatedRequestId } from '../../src/mcp/http.js'

describe('repeatedRequestId: the id a JSON-RPC batch gives to more than one request', () => {
  it('finds the first repeated id, by type and value', () => {
    expect(repeatedRequestId([{ id: 1 }, { id: 2 }, { id: 1 }])).toBe(1)
    expect(repeatedRequestId([{ id: 'a' }, { id: 'b' }, { id: 'b' }, { id: 'a' }])).toBe('b')
    expect(repeatedRequestId([{ id: 0 }, { id: 0 }])).toBe(0)
    expect(repeatedRequestId([{ id: '' }, { id: '' }])).toBe('')
  })

  it('finds none when every id is its own: 1 and "1" are two ids', () => {
    expect(repeatedRequestId([])).toBeUndefined()
    expect(repeatedRequestId([{ id: 1 }])).toBeUndefined()
    expect(repeatedRequestId([{ id: 1 }, { id: '1' }, { id: 'x' }, { id: 2 }])).toBeUndefined()
  })

  it("reads a batch in linear time: each request's id a bounded number of times, however long the batch", () => {
    // Counted, not timed: an id read per pair of requests (a quadratic check) would read each one n times.
    let reads = 0
    const batch = Array.from({ length: 100_000 }, (_, i) => ({
      get id() {
        reads++
        return i % 2 ? i : `r${i}`
      },
    }))
    expect(repeatedRequestId(batch)).toBeUndefined()
    expect(reads).toBeLessThanOrEqual(3 * batch.length)
  })
})

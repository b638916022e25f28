import { describe, expect, it } from 'vitest'
import { buildPassages } from '../../src/ai/passages.js'

// Evidence passages (docs/guides/evidence.md): a passage carries one date, so it never joins turns of different days.

const RECEIVED = Date.parse('2026-01-10T12:00:00.000Z')
const conversation = (...messages: [role: string, content: string, timestamp: string][]) =>
  JSON.stringify(messages.map(([role, content, timestamp]) => ({ role, content, timestamp })))

describe('evidence passages of a conversation over several days', () => {
  it('never join turns of different days, even when turns are packed to fit the passage limit', () => {
    const perDay = [1, 7, 2]
    const messages: [string, string, string][] = []
    perDay.forEach((n, d) => {
      for (let k = 0; k < n; k++)
        messages.push(['user', `Turn ${k} of day ${d + 1}.`, `2024-03-0${d + 1}T1${k}:00:00Z`])
    })
    const { passages, dropped } = buildPassages(
      { input_type: 'conversation', data: conversation(...messages), occurredAt: '2024-03-03T11:00:00.000Z' },
      { perSubmission: 4 },
      RECEIVED,
    )
    expect(dropped).toBe(0)
    expect(passages.length).toBeLessThanOrEqual(4)
    // Every turn is in a passage, and each passage holds turns of one day, dated by the latest of them.
    expect(passages.flatMap((p) => p.text.match(/Turn \d of day \d/g))).toHaveLength(10)
    for (const p of passages) {
      const days = new Set(p.text.match(/day \d/g))
      expect(days.size, p.text).toBe(1)
      expect(p.occurredAt.slice(0, 10)).toBe(`2024-03-0${[...days][0]!.slice(4)}`)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { LocalExtractor } from '../../src/ai/local/local-extractor.js'
import { byMessageTime, timedSegments } from '../../src/ai/message-times.js'
import { merge } from '../../src/domain/merge.js'
import { emptyState } from '../../src/domain/profile.js'

// Conversations whose messages carry timestamps (docs/guides/submitting-data.md "Event time"): each value takes the
// time of the message it came from.

const RECEIVED = Date.parse('2026-01-10T12:00:00.000Z')
const conversation = (...messages: [role: string, content: string, timestamp?: string][]) =>
  JSON.stringify(messages.map(([role, content, timestamp]) => ({ role, content, ...(timestamp ? { timestamp } : {}) })))

const MOVED = conversation(
  ['assistant', 'Where do you live?', '2019-03-02T10:00:00Z'],
  ['user', 'I live in Lisbon.', '2019-03-02T10:01:00Z'],
  ['assistant', 'Any news?', '2025-05-02T10:00:00Z'],
  ['user', 'I moved to Porto.', '2025-05-02T10:01:00Z'],
)

describe('a conversation read at its messages’ times', () => {
  it('is cut into runs of the person’s turns of one time, each with the turn it answers', () => {
    const parts = timedSegments(MOVED, '2025-05-02T10:01:00.000Z', RECEIVED, 'message')
    expect(parts).toEqual([
      {
        at: '2019-03-02T10:01:00.000Z',
        data: conversation(['assistant', 'Where do you live?'], ['user', 'I live in Lisbon.']),
      },
      { at: '2025-05-02T10:01:00.000Z', data: conversation(['assistant', 'Any news?'], ['user', 'I moved to Porto.']) },
    ])
    // By day: turns of one day together, dated by the latest.
    const day = conversation(
      ['user', 'I live in Lisbon.', '2019-03-02T10:01:00Z'],
      ['user', 'I work as a nurse.', '2019-03-02T18:00:00Z'],
    )
    expect(timedSegments(day, '2026-01-01T00:00:00.000Z', RECEIVED, 'day')).toEqual([
      {
        at: '2019-03-02T18:00:00.000Z',
        data: conversation(['user', 'I live in Lisbon.'], ['user', 'I work as a nurse.']),
      },
    ])
  })

  it('is not cut when every turn of the person has the submission’s time, or no message has a timestamp', () => {
    expect(
      timedSegments(conversation(['user', 'I live in Lisbon.']), '2025-01-01T00:00:00.000Z', RECEIVED, 'message'),
    ).toBeNull()
    const one = conversation(['user', 'I live in Lisbon.', '2025-01-01T00:00:00Z'])
    expect(timedSegments(one, '2025-01-01T00:00:00.000Z', RECEIVED, 'message')).toBeNull()
    expect(timedSegments('User: I live in Lisbon.', '2025-01-01T00:00:00.000Z', RECEIVED, 'message')).toBeNull()
  })

  it('dates a message ahead of its arrival (within the allowed skew) at its arrival', () => {
    const ahead = conversation(
      ['user', 'I live in Lisbon.', '2025-01-01T00:00:00Z'],
      ['user', 'I live in Porto.', '2026-01-10T12:04:00Z'],
    )
    expect(timedSegments(ahead, '2026-01-10T12:04:00.000Z', RECEIVED, 'message')!.map((p) => p.at)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2026-01-10T12:00:00.000Z',
    ])
  })

  it('gives each value the time of its message: Porto stands, Lisbon is a past value from 2019', async () => {
    const extractor = byMessageTime(new LocalExtractor(), 'message')
    const input = {
      submissionId: 's',
      inputType: 'conversation' as const,
      data: MOVED,
      referenceDate: '2025-05-02T10:01:00.000Z',
      receivedAt: '2026-01-10T12:00:00.000Z',
    }
    const { extractions } = await extractor.extract({ profile: emptyState().content, submissions: [input] })
    expect(extractions[0]!.parts!.map((p) => [p.at, p.core_info?.location?.value])).toEqual([
      ['2019-03-02T10:01:00.000Z', 'Lisbon'],
      ['2025-05-02T10:01:00.000Z', 'Porto'],
    ])
    const { state } = merge(emptyState(), extractions, '2026-01-10T12:00:00.000Z', {
      occurredAt: [input.referenceDate],
    })
    expect(state.content.core_info.location?.value).toBe('Porto')
    expect(state.content.past_values?.['core_info.location']).toEqual([
      {
        value: 'Lisbon',
        confidence: 0.9,
        from: '2019-03-02T10:01:00.000Z',
        until: '2025-05-02T10:01:00.000Z',
        last_said: '2019-03-02T10:01:00.000Z',
      },
    ])
  })
})

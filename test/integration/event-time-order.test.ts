// Event time decides (docs/guides/the-profile.md "Facts over time", docs/guides/submitting-data.md "Event time"),
// through the running service over HTTP on the configured database: a newer statement replaces a value said more often
// and more confidently, the same statements posted in any order build one timeline, each value of a conversation takes
// the time of its message, a passage never joins turns of different days, and a message dated ahead of the service's
// clock (within the allowed skew) holds nothing against what is sent after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'

/** Madrid said in 2014, 2017 and 2023, then "I live in Lisbon now" seven times, 2024-2026. */
const MADRID = ['2014-05-01', '2017-03-12', '2023-09-30']
const LISBON = ['2024-02-01', '2024-06-15', '2024-11-03', '2025-03-20', '2025-08-08', '2026-01-05', '2026-02-19']
const STATEMENTS = [
  ...MADRID.map((d) => ({ data: 'I live in Madrid.', at: d })),
  ...LISBON.map((d) => ({ data: 'I live in Lisbon now.', at: d })),
]
const iso = (day: string) => `${day}T00:00:00.000Z`

describe('event time decides', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService({
      env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000', PROFILER_PASSAGES_PER_SUBMISSION: '4' },
    })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  async function postAll(id: string, order: number[]) {
    for (const i of order) {
      const s = STATEMENTS[i]!
      const res = await api.post(id, { data: s.data, occurred_at: s.at })
      expect(res.status, await res.clone().text()).toBe(202)
      await api.waitReady(id)
    }
    return api.profile(id)
  }

  it('Madrid and Lisbon statements posted sorted, reversed or shuffled give one timeline, Lisbon current', async () => {
    const sorted = await postAll('sorted', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    const reversed = await postAll('reversed', [9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    const shuffled = await postAll('shuffled', [5, 0, 9, 2, 7, 1, 4, 8, 3, 6])
    expect(sorted.core_info.location.value).toBe('Lisbon')
    // Madrid, said three times (0.999), was replaced by the first Lisbon statement (0.9), and is kept with its window.
    expect(sorted.past_values).toEqual({
      'core_info.location': [
        {
          value: 'Madrid',
          confidence: expect.closeTo(0.999, 9),
          from: iso(MADRID[0]!),
          until: iso(LISBON[0]!),
          last_said: iso(MADRID[2]!),
        },
      ],
    })
    for (const other of [reversed, shuffled]) {
      expect(other.core_info.location).toEqual(sorted.core_info.location)
      expect(other.past_values).toEqual(sorted.past_values)
    }
  })

  it('one conversation with dated messages: Porto stands, Lisbon is a past value dated by its message', async () => {
    const data = JSON.stringify([
      { role: 'assistant', content: 'Where do you live?', timestamp: '2019-03-02T10:00:00Z' },
      { role: 'user', content: 'I live in Lisbon.', timestamp: '2019-03-02T10:01:00Z' },
      { role: 'assistant', content: 'Any news?', timestamp: '2025-05-02T10:00:00Z' },
      { role: 'user', content: 'I moved to Porto.', timestamp: '2025-05-02T10:01:00Z' },
    ])
    const res = await api.post('moved', { data, input_type: 'conversation' })
    expect(res.status, await res.clone().text()).toBe(202)
    const p = await api.waitReady('moved')
    expect(p.core_info.location).toEqual({ value: 'Porto', confidence: 0.85 })
    expect(p.past_values).toEqual({
      'core_info.location': [
        {
          value: 'Lisbon',
          confidence: 0.9,
          from: '2019-03-02T10:01:00.000Z',
          until: '2025-05-02T10:01:00.000Z',
          last_said: '2019-03-02T10:01:00.000Z',
        },
      ],
    })
  })

  it('a passage never joins turns of different days, even when turns are packed to fit the passage limit', async () => {
    const messages: { role: string; content: string; timestamp: string }[] = []
    ;[1, 7, 2].forEach((n, d) => {
      for (let k = 0; k < n; k++)
        messages.push({
          role: 'user',
          content: `Turn ${k} of day ${d + 1}.`,
          timestamp: `2024-03-0${d + 1}T1${k}:00:00Z`,
        })
    })
    const res = await api.post('days', { data: JSON.stringify(messages), input_type: 'conversation' })
    expect(res.status, await res.clone().text()).toBe(202)
    await api.waitReady('days')
    const r = await api.get('/v1/profile/days/passages?limit=50')
    const body = (await r.json()) as { passages: { text: string; occurred_at: string }[] }
    expect(r.status).toBe(200)
    expect(body.passages.length).toBeLessThanOrEqual(4)
    expect(body.passages.flatMap((p) => p.text.match(/Turn \d of day \d/g))).toHaveLength(10)
    for (const p of body.passages) {
      const days = [...new Set(p.text.match(/day \d/g))]
      expect(days, p.text).toHaveLength(1)
      expect(p.occurred_at.slice(0, 10)).toBe(`2024-03-0${days[0]!.slice(4)}`)
    }
  })

  it('a statement dated ahead of the clock within the skew holds nothing against one sent after it', async () => {
    const ahead = new Date(Date.now() + 4 * 60_000).toISOString()
    let res = await api.post('ahead', { data: 'I live in Lisbon.', occurred_at: ahead })
    expect(res.status, await res.clone().text()).toBe(202)
    await api.waitReady('ahead')
    res = await api.post('ahead', { data: 'I live in Porto.' })
    expect(res.status).toBe(202)
    const p = await api.waitReady('ahead')
    expect(p.core_info.location.value).toBe('Porto')
    const past = p.past_values['core_info.location'] as { value: string; from: string; until: string }[]
    expect(past.map((w) => w.value)).toEqual(['Lisbon'])
    // Every window lasts: none ends where it begins.
    for (const w of past) expect(Date.parse(w.until)).toBeGreaterThan(Date.parse(w.from))
    // The same within a conversation: a message dated ahead is dated at its arrival.
    const conv = JSON.stringify([
      { role: 'user', content: 'I work as a nurse.', timestamp: new Date(Date.now() + 4 * 60_000).toISOString() },
    ])
    expect((await api.post('ahead', { data: conv, input_type: 'conversation' })).status).toBe(202)
    await api.waitReady('ahead')
    expect((await api.post('ahead', { data: 'I work as a teacher.' })).status).toBe(202)
    const q = await api.waitReady('ahead')
    expect(q.core_info.occupation.value).toBe('teacher')
    expect(q.past_values['core_info.occupation'].map((w: { value: string }) => w.value)).toEqual(['nurse'])
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { gql } from '../support/graphql-client.js'

// A profile's size has limits (docs/operations/limits.md), enforced the same way on every path that writes one: what a
// submission would add past them is dropped, keeping the most confident (then the most recent) values, and its history
// entry says what went. History keeps a bounded number of entries and snapshots. Small limits here, so each rule shows.

const LIMITS = {
  PROFILER_PROFILE_MAX_LIST_VALUES: '5',
  PROFILER_PROFILE_MAX_CATEGORIES: '3',
  PROFILER_PROFILE_MAX_INTERESTS: '8',
  PROFILER_PROFILE_MAX_MEMORIES: '4',
  PROFILER_PROFILE_MAX_VALUE_CHARS: '60',
  PROFILER_PROFILE_MAX_HISTORY: '5',
  PROFILER_PROFILE_MAX_SNAPSHOTS: '2',
}

const structured = (doc: unknown) => ({ data: JSON.stringify(doc), input_type: 'structured' })
const last = (p: any) => p.update_log[p.update_log.length - 1]
const values = (l: any[]) => l.map((e: any) => e.value)

async function submit(c: Client, id: string, body: unknown): Promise<any> {
  const r = await c.post(id, body)
  expect(r.status, await r.clone().text()).toBe(202)
  return c.waitReady(id)
}

describe('profile limits (small limits)', () => {
  let svc: TestService
  let c: Client
  beforeAll(async () => {
    svc = await startService({ env: { ...LIMITS, PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    c = client(svc.url, svc.key)
  })
  afterAll(async () => svc?.close())

  it('a list keeps its most confident values (newest of equals); the rest logged as dropped, not removed', async () => {
    await submit(
      c,
      'lists',
      structured({
        personality: {
          traits: [
            { value: 'calm', confidence: 0.9 },
            { value: 'kind', confidence: 0.3 },
            { value: 'brave', confidence: 0.5 },
          ],
        },
      }),
    )
    const traits = Array.from({ length: 6 }, (_, i) => ({ value: `trait${i}`, confidence: 0.5 }))
    const p = await submit(c, 'lists', structured({ personality: { traits } }))
    // 9 proposed in all, 5 kept: calm (0.9), then the 0.5s, newest first among equals; kind (0.3) and the oldest 0.5s
    // go.
    expect(values(p.personality.traits).sort()).toEqual(['calm', 'trait2', 'trait3', 'trait4', 'trait5'])
    const entry = last(p)
    expect(entry.changes.dropped).toMatchObject({ total: 4, limits: ['list_values'] })
    expect(entry.changes.dropped.values.map((v: any) => v.value).sort()).toEqual(['brave', 'kind', 'trait0', 'trait1'])
    expect(entry.changes.dropped.values.every((v: any) => v.section === 'personality.traits')).toBe(true)
    // Dropped values are not reported as removed by the person.
    expect(entry.changes.removed).toBeUndefined()
  })

  it('interest categories and interests in all, memories: the least confident go first', async () => {
    const interests = {
      music: [
        { value: 'jazz', confidence: 0.9 },
        { value: 'blues', confidence: 0.8 },
      ],
      sports: [{ value: 'tennis', confidence: 0.7 }],
      food: [{ value: 'sushi', confidence: 0.2 }],
      books: [
        { value: 'poetry', confidence: 0.6 },
        { value: 'novels', confidence: 0.6 },
        { value: 'essays', confidence: 0.6 },
      ],
      films: [
        { value: 'noir', confidence: 0.95 },
        { value: 'westerns', confidence: 0.4 },
        { value: 'anime', confidence: 0.4 },
        { value: 'docs', confidence: 0.4 },
      ],
    }
    const memories = [
      { event: 'moved to Porto', importance: 'high', confidence: 0.5 },
      { event: 'bought a bike', importance: 'low', confidence: 0.9 },
      { event: 'started a band', confidence: 0.8 },
      { event: 'lost a wallet', importance: 'low', confidence: 0.3 },
      { event: 'ran a marathon', confidence: 0.6 },
      { event: 'adopted a cat', importance: 'high', confidence: 0.4 },
    ]
    const p = await submit(c, 'mixed', structured({ interests, memories }))
    // 3 categories: those whose best value is most confident (films 0.95, music 0.9, sports 0.7); 8 interests at most.
    expect(Object.keys(p.interests).sort()).toEqual(['films', 'music', 'sports'])
    expect(Object.values(p.interests).flat().length).toBeLessThanOrEqual(8)
    expect(p.memories.map((m: any) => m.event).sort()).toEqual([
      'adopted a cat',
      'moved to Porto',
      'ran a marathon',
      'started a band',
    ])
    const d = last(p).changes.dropped
    // books (3 values) and food (1) went with their categories, the two low-importance memories with the memory limit.
    expect(d).toMatchObject({ total: 6, limits: ['categories', 'memories'] })
  })

  it('a structured value over the limit is refused at POST (400 naming it); extracted ones are dropped', async () => {
    const long = 'x'.repeat(61)
    for (const doc of [
      { interests: { music: [long] } },
      { memories: [{ event: long }] },
      { core_info: { name: long } },
      { interests: { [long]: ['jazz'] } },
    ]) {
      const r = await c.post('long', structured(doc))
      expect(r.status).toBe(400)
      expect(((await r.json()) as any).message).toMatch(/longer than 60 characters/)
    }
    const ok = await c.post('long', structured({ interests: { music: ['x'.repeat(60)] } }))
    expect(ok.status).toBe(202)
  })

  it('free text past the limits: the extractor proposes, the limits cut, the entry says so', async () => {
    const p = await submit(c, 'talker', {
      data:
        'I love jazz, blues, soul, funk, disco, techno, house and opera. ' +
        'I am kind, calm, brave, honest, patient, curious and witty.',
    })
    expect(p.personality.traits.length).toBeLessThanOrEqual(5)
    for (const list of Object.values(p.interests) as any[][]) expect(list.length).toBeLessThanOrEqual(5)
    expect(last(p).changes.dropped.total).toBeGreaterThan(0)
  })

  it('history keeps its newest entries, and only the newest keep a snapshot: a rollback reaches those', async () => {
    for (let i = 0; i < 8; i++) await submit(c, 'hist', structured({ core_info: { location: `City${i}` } }))
    const { body } = await gql(svc.url, svc.key, '{ profile(id: "hist") { history(first: 50) { entries { seq } } } }')
    const seqs = body.data.profile.history.entries.map((e: any) => e.seq)
    expect(seqs).toEqual([4, 5, 6, 7, 8])
    const rollback = (to: number) =>
      fetch(`${svc.url}/v1/profile/hist/rollback`, {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to_seq: to }),
      })
    // 7 and 8 keep their snapshots; 6 no longer has one; 3 is gone.
    const r6 = await rollback(6)
    expect(r6.status).toBe(409)
    expect(((await r6.json()) as any).message).toMatch(/snapshot/i)
    expect((await rollback(3)).status).toBe(404)
    const r7 = await rollback(7)
    expect(r7.status, await r7.clone().text()).toBe(200)
    expect(((await r7.json()) as any).profile.core_info.location.value).toBe('City6')
  })

  it('a custom schema change taking values out of profiles writes its entry within the history bound', async () => {
    const put = (schema: unknown) =>
      fetch(`${svc.url}/v1/schema`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(schema),
      })
    expect((await put({ sections: { diet: { tags: { type: 'string[]' }, note: { type: 'string' } } } })).status).toBe(
      200,
    )
    for (let i = 0; i < 6; i++)
      await submit(
        c,
        'schemed',
        structured({ core_info: { location: `Town${i}` }, custom: { diet: { tags: [`tag${i}`], note: 'n' } } }),
      )
    const r = await put({ sections: { diet: { note: { type: 'string' } } } })
    expect(((await r.json()) as any).profiles_updated).toBe(1)
    const { body } = await gql(
      svc.url,
      svc.key,
      '{ profile(id: "schemed") { history(first: 50) { entries { seq inputType } } } }',
    )
    const entries = body.data.profile.history.entries
    expect(entries).toHaveLength(5)
    expect(entries.at(-1)).toEqual({ seq: 7, inputType: 'schema' })
  })
})

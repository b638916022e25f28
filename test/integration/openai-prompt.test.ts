import { beforeAll, describe, expect, it } from 'vitest'
import type { Client, TestService } from '../support/harness.js'
import { post } from '../support/submit.js'
import type { OpenAIServer, RecordedRequest } from '../support/openai-server.js'
import { openaiService } from '../support/openai-service.js'

// What the model is given and what is kept of its answer (docs/guides/ai-providers.md), through the running service
// against the fake OpenAI-compatible server: the whole conversation with the person named, the submission's date,
// evidence checked against the text, and a summary written from the merged profile when the merge did not keep what the
// model proposed.

const interests = (p: any): string[] =>
  Object.values(p.interests ?? {})
    .flat()
    .map((v: any) => v.value)
const submission = (r: RecordedRequest, i = 0) => JSON.parse(r.body.messages[1].content).submissions[i]

describe('the openai provider: what the model reads and what is kept', () => {
  // The model's own clock is years off: only the date the request gives can date "yesterday" right.
  const ai = openaiService({ now: () => new Date('2020-06-15T12:00:00Z') })
  let oa: OpenAIServer
  let svc: TestService
  let api: Client
  const chatWith = (needle: string) => oa.chatRequests().filter((r) => r.batch?.texts.some((t) => t.includes(needle)))

  beforeAll(() => void ({ oa, svc, api } = ai))

  it('a conversation reaches the model whole, with its speakers and the person named', async () => {
    const messages = [
      { role: 'system', content: 'You are a friendly assistant.' },
      { role: 'assistant', content: 'Do you like jazz?' },
      { role: 'user', content: 'Yes, a lot. I live in Leeds.' },
    ]
    await post(api, 'conv-json', { input_type: 'conversation', data: JSON.stringify(messages) })
    await api.waitReady('conv-json')
    const [req] = chatWith('Leeds')
    expect(submission(req!)).toMatchObject({
      input_type: 'conversation',
      subject: 'user',
      text: 'assistant: Do you like jazz?\nuser: Yes, a lot. I live in Leeds.',
    })
    expect(req!.problems).toEqual([])
  })

  it('in the line form an assistant speaking first is not the person profiled', async () => {
    await post(api, 'conv-lines', {
      input_type: 'conversation',
      data: 'Assistant: I am a nurse from Paris and I love golf.\nUser: I love hiking.\nAssistant: Great!',
    })
    const p = await api.waitReady('conv-lines')
    expect(interests(p)).toContain('hiking')
    expect(interests(p)).not.toContain('golf')
    expect(p.core_info.occupation).toBeUndefined()
    const [req] = chatWith('hiking')
    expect(submission(req!)).toMatchObject({ subject: 'User' })
    // Only assistant turns: refused at the door, not profiled.
    const res = await api.post('conv-bots', { input_type: 'conversation', data: 'Assistant: hello\nBot: hi there' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toMatch(/no turn of the profiled person/)
  })

  it("relative dates are resolved against the submission's date", async () => {
    const before = new Date()
    await post(api, 'dated', { data: 'Yesterday I graduated from college.' })
    const after = new Date()
    const p = await api.waitReady('dated')
    const day = (d: Date) => d.toISOString().slice(0, 10)
    const [req] = chatWith('graduated')
    const date = JSON.parse(req!.body.messages[1].content).date
    expect([day(before), day(after)]).toContain(date)
    const yesterday = day(new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000))
    expect(p.memories).toEqual([expect.objectContaining({ event: 'graduated from college', date: yesterday })])
  })

  it('a value whose quote the text does not hold is dropped; a supported one is kept', async () => {
    oa.faults.add({
      match: 'baking bread',
      extraInterest: { category: 'sports', value: 'skydiving', evidence: 'I love skydiving every weekend' },
    })
    await post(api, 'quotes', { data: 'I enjoy baking bread on Sundays.' })
    let p = await api.waitReady('quotes')
    expect(interests(p)).not.toContain('skydiving')
    const held = interests(p)
    expect(held.length).toBeGreaterThan(0)

    // A removal with an invented quote does not erase what the person said; one with their words does.
    oa.faults.add({
      match: 'the market',
      extraRemoval: { section: 'interests', value: held[0]!, evidence: "I don't like baking anymore" },
    })
    await post(api, 'quotes', { data: 'I went to the market today.' })
    p = await api.waitReady('quotes')
    expect(interests(p)).toContain(held[0])

    oa.faults.add({
      match: 'canoe',
      extraInterest: { category: 'sports', value: 'canoeing', evidence: 'paddle my canoe' },
    })
    await post(api, 'quotes', { data: 'On weekends I paddle my canoe on the river.' })
    p = await api.waitReady('quotes')
    expect(interests(p)).toContain('canoeing')
  })
})

describe('the openai provider: a summary from the merged profile', () => {
  // One interest per profile: the merge keeps one of the two the model proposes.
  const ai = openaiService({}, { PROFILER_PROFILE_MAX_INTERESTS: '1' })
  let oa: OpenAIServer
  let svc: TestService
  let api: Client

  beforeAll(() => void ({ oa, svc, api } = ai))

  it("the model's summary is replaced when the merge did not keep what the model proposed", async () => {
    await post(api, 'limited', { data: 'I love hiking and jazz.' })
    const p = await api.waitReady('limited')
    const kept = interests(p)
    expect(kept).toHaveLength(1)
    const dropped = ['hiking', 'jazz'].find((v) => !kept.includes(v))!
    const chats = oa.chatRequests()
    // The extraction's summary names both; the profile's summary was written from the merged profile.
    expect(JSON.parse(chats[0]!.content!).summary).toMatch(new RegExp(dropped))
    expect(chats).toHaveLength(2)
    expect(chats[1]!.body.response_format.json_schema.name).toBe('profile_summary')
    expect(p.summary).toMatch(new RegExp(kept[0]!))
    expect(p.summary).not.toMatch(new RegExp(dropped))

    // A batch the merge takes as proposed keeps the model's summary: no second request.
    await post(api, 'kept', { data: 'I live in Porto.' })
    const q = await api.waitReady('kept')
    expect(oa.chatRequests()).toHaveLength(3)
    expect(q.summary).toBe(JSON.parse(oa.chatRequests()[2]!.content!).summary)
  })
})

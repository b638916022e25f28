// Diet, allergies, health and identity said in chat, through the running service on the configured database: where
// the profile keeps them (docs/guides/the-profile.md, "Diet, health and identity") and that the context shows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { chat, post } from '../support/submit.js'

describe('diet, health and identity in chat', () => {
  let svc: TestService
  let api: Client
  const context = async (id: string) => {
    const res = await api.get(`/v1/profile/${encodeURIComponent(id)}/context?max_tokens=300`)
    const text = await res.text()
    expect(res.status, text).toBe(200)
    return (JSON.parse(text) as { text: string }).text
  }

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('keeps them where a reader looks, from messages and a conversation, and the context shows them', async () => {
    const messages = ["i'm pescatarian and allergic to tree nuts", 'type 1 diabetic here, so carbs matter', 'ugh']
    for (const data of messages) await post(api, 'sam', { data })
    await post(api, 'sam', {
      input_type: 'conversation',
      data: chat([
        ['How should I address you?', 'non-binary, she/they'],
        ['Anything else?', 'no fluff please. oh and my son is allergic to eggs'],
      ]),
    })
    const profile = await api.waitReady('sam')
    expect(profile.interests.food.map((v: { value: string }) => v.value)).toEqual(['pescatarian'])
    expect(profile.core_info.gender).toMatchObject({ value: 'non-binary' })
    expect(profile.preferences.conversation_style).toMatchObject({ value: 'direct' })
    const own = profile.memories.filter((m: { importance: string }) => m.importance === 'high')
    const events = own.map((m: { event: string }) => m.event).sort()
    expect(events).toEqual(['has type 1 diabetes', 'is allergic to tree nuts', 'uses she/they pronouns'])
    // the son's allergy is a standing fact that names him, never the person's
    const others = profile.memories.filter((m: { importance: string }) => m.importance !== 'high')
    expect(others).toMatchObject([{ event: 'their son is allergic to eggs', importance: 'low' }])
    const text = await context('sam')
    expect(text).toContain('is allergic to tree nuts')
    expect(text).toContain('has type 1 diabetes')
    expect(text).not.toMatch(/(?<!son )is allergic to eggs/)
  })

  it('lets a later message negate a diet', async () => {
    await post(api, 'ana', { data: "I'm vegan now", occurred_at: '2024-01-01T10:00:00Z' })
    await api.waitReady('ana')
    await post(api, 'ana', { data: "I'm not vegan anymore, I eat everything", occurred_at: '2024-06-01T10:00:00Z' })
    const profile = await api.waitReady('ana')
    expect(profile.interests.food ?? []).toEqual([])
  })

  it('takes nothing from questions, wishes and other people', async () => {
    const said = ['are you vegan?', 'maybe I should go vegetarian', 'my boss is vegan', 'my mom has diabetes']
    for (const data of said) await post(api, 'lee', { data })
    const profile = await api.waitReady('lee')
    expect(profile.interests.food ?? []).toEqual([])
    // what is said of others is kept only as standing facts that name them
    const events = profile.memories.map((m: { event: string }) => m.event).sort()
    expect(events).toEqual(['their boss is vegan', 'their mom has diabetes'])
  })
})

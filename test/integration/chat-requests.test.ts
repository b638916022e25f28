// What requests to an assistant say of the person, through the running service on the configured database: help
// asked for, what the person asks how to tell someone, their own events asked about with their time, and a bio
// after a label, plans, reasons and careers, and what "we" do (docs/architecture/local-extractor.md, "What it
// extracts", "Bios and asides" and "We, origins and studies").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { chat, post } from '../support/submit.js'

interface Memory {
  event: string
  date?: string
}

describe('requests to an assistant', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('keeps what messages and a conversation with an assistant say of the person, in the context too', async () => {
    const at = '2024-06-15T12:00:00Z'
    await post(api, 'kai', { data: 'can you help me plan a 5 day trip to Japan?', occurred_at: at })
    await post(api, 'kai', { data: 'any good hiking trails near Denver? I just moved here', occurred_at: at })
    await post(api, 'kai', { data: 'how do i get better at chess?', occurred_at: at })
    await post(api, 'kai', {
      input_type: 'conversation',
      occurred_at: at,
      data: chat([
        ['How can I help?', "how do i tell my boss i'm pregnant"],
        ['Congratulations! Anything else?', 'any tips for my job interview tomorrow?'],
      ]),
    })
    const profile = await api.waitReady('kai')
    expect(profile.interests.travel.map((v: { value: string }) => v.value)).toEqual(['Japan'])
    expect(profile.interests.hobbies.map((v: { value: string }) => v.value)).toEqual(['chess'])
    expect(profile.core_info.location).toMatchObject({ value: 'Denver' })
    const memories = profile.memories as Memory[]
    expect(memories.map((m) => m.event).sort()).toEqual([
      'is planning a 5 day trip to Japan',
      'is pregnant',
      'moved to Denver',
      'their job interview is tomorrow',
    ])
    expect(memories.find((m) => m.event === 'their job interview is tomorrow')?.date).toBe('2024-06-16')
    const res = await api.get('/v1/profile/kai/context?max_tokens=300')
    const text = ((await res.json()) as { text: string }).text
    expect(text).toContain('is pregnant')
    expect(text).toContain('is planning a 5 day trip to Japan')
  })

  it('reads a bio after a label, and no workplace from a job lost in a month', async () => {
    await post(api, 'ava', {
      data: 'ok so quick background: 34F, product manager at a fintech in Austin, two kids (6 and 9), love hiking',
    })
    await post(api, 'ava', { data: 'dealing with really bad anxiety since I lost my old job in March' })
    const profile = await api.waitReady('ava')
    expect(profile.core_info).toMatchObject({
      age: { value: 34 },
      gender: { value: 'female' },
      location: { value: 'Austin' },
      occupation: { value: 'product manager' },
    })
    expect(profile.interests.hobbies.map((v: { value: string }) => v.value)).toEqual(['hiking'])
    const events = (profile.memories as Memory[]).map((m) => m.event).sort()
    expect(events).toEqual(['has anxiety', 'has two kids', 'lost their old job in March'])
  })

  it('keeps a life step planned, a condition given as a reason and a career ended up in', async () => {
    await post(api, 'lee', { data: "I'm going to get married, so excited" })
    await post(api, 'lee', { data: 'I went gluten free because of celiac' })
    await post(api, 'lee', { data: 'I ended up in accounting after college' })
    await post(api, 'lee', { data: "I'm new here. my sister, Matt and Kim played at the fest last night" })
    const profile = await api.waitReady('lee')
    expect(profile.core_info.occupation).toMatchObject({ value: 'works in accounting' })
    const events = (profile.memories as Memory[]).map((m) => m.event)
    expect(events).toEqual(expect.arrayContaining(['is going to get married', 'has celiac', 'has a sister']))
    expect(events.filter((event) => /\b(?:here|Matt)\b/.test(event))).toEqual([])
  })

  it('keeps a grade taught, an age run on, a move under way, and no pet or food from other verbs', async () => {
    const at = '2024-06-15T12:00:00Z'
    await post(api, 'sam', { data: 'I teach fourth graders, most nights I need a drink.', occurred_at: at })
    await post(api, 'sam', { data: "since I'm only 23 there's plenty of time", occurred_at: at })
    await post(api, 'sam', { data: 'And yes, I will be moving, a fresh new start is much needed.', occurred_at: at })
    const aside = "now I grill, gamble and have fun. I've needed a break, so two birds with one stone"
    await post(api, 'sam', { data: aside, occurred_at: at })
    const profile = await api.waitReady('sam')
    expect(profile.core_info).toMatchObject({ age: { value: 23 }, occupation: { value: 'fourth grade teacher' } })
    expect(profile.interests).toEqual({
      hobbies: [expect.objectContaining({ value: 'grilling' }), expect.objectContaining({ value: 'gambling' })],
    })
    const moving = (profile.memories as Memory[]).find((m) => m.event === 'is moving')
    expect(moving).toMatchObject({ date: '2024-06-15', importance: 'high' })
  })

  it('keeps what "we" do, where the person is from, a subject of study and a topic kept out', async () => {
    const at = '2024-06-15T12:00:00Z'
    await post(api, 'ines', { data: 'im from brazil originally but i live in berlin now, im 27 btw', occurred_at: at })
    await post(api, 'ines', { data: "we're renovating the kitchen. we live together, it's chaos", occurred_at: at })
    await post(api, 'ines', { data: "i'm a PhD student in neuroscience, 3rd year", occurred_at: at })
    await post(api, 'ines', { data: 'any podcast tips? i like history, nothing political', occurred_at: at })
    const profile = await api.waitReady('ines')
    expect(profile.core_info).toMatchObject({
      age: { value: 27 },
      location: { value: 'Berlin' },
      occupation: { value: 'neuroscience phd student' },
    })
    expect(profile.preferences.topics_to_avoid.map((v: { value: string }) => v.value)).toEqual(['politics'])
    const events = (profile.memories as Memory[]).map((m) => m.event).sort()
    expect(events).toEqual(['is originally from Brazil', 'is renovating the kitchen'])
  })

  it('reads two questions answered at once, an allergy and a diet given as answers', async () => {
    await post(api, 'noor', {
      input_type: 'conversation',
      data: chat([
        ['How old are you, and where do you live?', '34, Leeds'],
        ['Any allergies?', 'shellfish'],
        ['Any dietary restrictions?', 'gluten free and no dairy'],
      ]),
    })
    const profile = await api.waitReady('noor')
    expect(profile.core_info).toMatchObject({ age: { value: 34 }, location: { value: 'Leeds' } })
    expect(profile.interests.food.map((v: { value: string }) => v.value)).toEqual(['gluten free', 'no dairy'])
    expect((profile.memories as Memory[]).map((m) => m.event)).toEqual(['is allergic to shellfish'])
  })

  it('takes nothing from a request that points elsewhere, nor from what others would tell', async () => {
    const said = ['can you help me understand this error?', 'help me out here', 'my sister wants to tell her boss']
    for (const data of said) await post(api, 'rio', { data })
    await post(api, 'rio', { data: 'my mom needs to tell her boss she is pregnant' })
    const profile = await api.waitReady('rio')
    const events = (profile.memories as Memory[]).map((m) => m.event).sort()
    expect(events).toEqual(['has a sister'])
  })
})

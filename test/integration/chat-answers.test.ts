// Answers to the other speaker's questions through the running service on the configured database: the short reply
// fills the field the question names, below what the person says outright, and the passage with its question is the
// value's evidence (docs/architecture/local-extractor.md, "Answers").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, startService, type Client, type TestService } from '../support/harness.js'
import { chat, post } from '../support/submit.js'
import { waitFor } from '../support/wait.js'

describe('answers to questions in a conversation', () => {
  let svc: TestService
  let api: Client

  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_RATE_LIMIT_PER_MINUTE: '100000' } })
    api = client(svc.url, svc.key)
  })
  afterAll(async () => {
    await svc?.close()
  })

  it('fills the fields a reply answers, and traces each to the reply and its question', async () => {
    await post(api, 'ana', {
      input_type: 'conversation',
      data: chat([
        ['Nice to meet you! What do you do for work?', 'Nurse. Mostly nights.'],
        ['Where are you based?', 'Leeds, you?'],
        ['I love sushi. Do you like sushi?', 'i do not, sorry'],
        ['Do you like hiking?', 'yes! every weekend'],
      ]),
    })
    const profile = await api.waitReady('ana')
    expect(profile.core_info.occupation).toEqual({ value: 'nurse', confidence: 0.72 })
    expect(profile.core_info.location).toMatchObject({ value: 'Leeds' })
    expect(profile.interests.hobbies).toEqual([{ value: 'hiking', confidence: 0.68 }])
    expect(JSON.stringify(profile.interests)).not.toContain('sushi')
    const res = await api.get('/v1/profile/ana/evidence?field=core_info.occupation&value=nurse')
    expect(res.status).toBe(200)
    const { passages } = (await res.json()) as { passages: { text: string; prompt: string | null }[] }
    expect(passages[0]).toMatchObject({
      text: 'Nurse. Mostly nights.',
      prompt: expect.stringContaining('What do you do'),
    })
  })

  it('lets what the person says outright win over an earlier answer', async () => {
    await post(api, 'ben', { input_type: 'conversation', data: chat([['What do you do?', 'teacher']]) })
    await api.waitReady('ben')
    await post(api, 'ben', { data: 'I am a nurse now.' })
    const profile = await waitFor('the stated job', () => api.profile('ben'), {
      until: (p) => p?.status === 'ready' && p.core_info.occupation?.value === 'nurse',
      timeoutMs: 30_000,
      everyMs: 100,
    })
    expect(profile.core_info.occupation.confidence).toBeGreaterThan(0.72)
  })
})

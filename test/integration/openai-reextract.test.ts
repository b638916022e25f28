// The openai provider against the local OpenAI-compatible server: an app's summary instructions reach the model's
// requests, and a re-extraction after the model's answers changed shows that change in its dry run (in batches of
// PROFILER_BATCH_SIZE, one chat request each), then applies it; a profile being processed is refused meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { client, freshDatabase, testEnv, type Client, type TestDatabase } from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'
import { waitFor } from '../support/wait.js'

const json = (r: Response): Promise<any> => r.json()
const systemOf = (body: any): string => body.messages.find((m: { role: string }) => m.role === 'system').content

describe('summary instructions and re-extraction with the openai provider', () => {
  let oa: OpenAIServer
  let db: TestDatabase
  let profiler: Profiler
  let api: Client
  let key: string
  const reextract = (id: string, qs = '') =>
    fetch(`${profiler.url}/v1/profile/${id}/reextract${qs}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    })

  beforeAll(async () => {
    oa = await startOpenAIServer()
    db = await freshDatabase()
    profiler = await startProfiler(
      loadConfig(
        testEnv(
          db,
          openaiEnv(oa, {
            PROFILER_BATCH_SIZE: '2',
            PROFILER_RATE_LIMIT_PER_MINUTE: '100000',
            PROFILER_LLM_TIMEOUT_MS: '60000',
          }),
        ),
      ),
      { role: 'all' },
    )
    key = (profiler as Profiler & { bootstrapKey?: string }).bootstrapKey!
    api = client(profiler.url!, key)
    await profiler.services.tenants.setSummaryInstructions('default', 'default', [
      'Leave out age',
      'Mention interests first',
    ])
  })
  afterAll(async () => {
    await profiler?.close()
    await oa?.close()
    await db?.drop()
  })

  it("sends the app's summary instructions with the extraction request that writes the summary", async () => {
    const before = oa.chatRequests().length
    expect(
      (await api.post('rui', { data: 'My name is Rui. I am 52 years old. I live in Porto and I love sailing.' }))
        .status,
    ).toBe(202)
    await api.waitReady('rui')
    const sent = oa.chatRequests().slice(before)
    expect(sent.length).toBeGreaterThan(0)
    for (const r of sent)
      expect(systemOf(r.body)).toMatch(
        /Instructions of the app for the summary only[^\n]*:\n1\. Leave out age\n2\. Mention interests first$/,
      )
    // An app without instructions sends the versioned prompt alone.
    await profiler.services.tenants.setSummaryInstructions('default', 'default', [])
    const n = oa.chatRequests().length
    expect((await api.post('lia', { data: 'My name is Lia. I love chess.' })).status).toBe(202)
    await api.waitReady('lia')
    for (const r of oa.chatRequests().slice(n)) expect(systemOf(r.body)).not.toMatch(/Instructions of the app/)
    await profiler.services.tenants.setSummaryInstructions('default', 'default', [
      'Leave out age',
      'Mention interests first',
    ])
  })

  it('a dry run shows what the changed model answers, in batches, changing nothing; the apply writes it', async () => {
    for (const data of ['I also enjoy fishing.', 'I have a cat named Tom.']) {
      expect((await api.post('rui', { data })).status).toBe(202)
      await waitFor('rui to take the submission', () => api.profile('rui'), {
        until: (p) => p.status === 'ready' && JSON.stringify(p).includes(data.includes('cat') ? 'cat' : 'fishing'),
        timeoutMs: 30_000,
      })
    }
    const profileBefore = await api.profile('rui')
    expect(profileBefore.core_info.location.value).toBe('Porto')
    // The model changed: it now reads the first text's city as Lisbon.
    oa.revise = (ex, text) =>
      /Porto/.test(text) && ex.core_info?.location
        ? { ...ex, core_info: { ...ex.core_info, location: { value: 'Lisbon', confidence: 0.95 } } }
        : ex
    const chats = oa.chatRequests().length
    const embeds = oa.embeddingRequests().length
    const dry = await json(await reextract('rui'))
    expect(dry).toMatchObject({
      dry_run: true,
      applied: false,
      changed: true,
      submissions: { reextracted: 3, skipped_without_text: 0 },
      batches: 2,
    })
    expect(dry.changes.core_info.location.value).toBe('Lisbon')
    expect(dry.changes.replaced['core_info.location'].value).toBe('Porto')
    expect(dry.usage.total_tokens).toBeGreaterThan(0)
    // Two batches of at most 2, one chat request each (the second also wrote the summary); a dry run embeds nothing.
    const sent = oa.chatRequests().slice(chats)
    expect(sent.map((r) => r.batch?.submissionIds.length)).toEqual([2, 1])
    for (const r of sent) expect(systemOf(r.body)).toMatch(/1\. Leave out age/)
    expect(oa.embeddingRequests().length - embeds).toBe(0)
    expect(await api.profile('rui')).toEqual(profileBefore)

    const applied = await json(await reextract('rui', `?dry_run=false&expected_version=${dry.version}`))
    expect(applied).toMatchObject({ applied: true, new_version: dry.version + 1 })
    // The apply embeds the new profile once.
    expect(oa.embeddingRequests().length - embeds).toBe(1)
    const p = await api.profile('rui')
    expect(p.core_info.location.value).toBe('Lisbon')
    expect(p.summary).toBe(applied.summary)
    const last = p.update_log[p.update_log.length - 1]
    expect(last).toMatchObject({ input_type: 'reextraction' })
    expect(last.changes.core_info.location.value).toBe('Lisbon')
    oa.revise = undefined
  })

  it('refuses a re-extraction while the profile is being processed (409), and allows it once ready', async () => {
    let release!: () => void
    oa.faults.add({ holdUntil: new Promise<void>((r) => (release = r)) })
    const n = oa.chatRequests().length
    expect((await api.post('rui', { data: 'I started a new job as a teacher.' })).status).toBe(202)
    await waitFor('the worker to be held in its chat request', async () => oa.chatRequests().length > n, {
      until: Boolean,
      timeoutMs: 30_000,
    })
    const r = await reextract('rui')
    expect(r.status).toBe(409)
    expect((await json(r)).message).toMatch(/is processing submissions/)
    release()
    await waitFor('rui to be ready', () => api.profile('rui'), {
      until: (p) => p.status === 'ready' && p.core_info.occupation?.value === 'teacher',
      timeoutMs: 30_000,
    })
    expect((await reextract('rui')).status).toBe(200)
  })
})

// The `openai` provider against each OpenAI-compatible API people point it at (docs/guides/ai-providers.md), through
// the running service: the fake server (test/support/openai-server.ts) behaves as that provider's documentation says
// (test/support/provider-modes.ts), and the service is configured as docs/guides/ai-providers.md, "Providers", says.
// Each test sends real submissions and waits for them to be DONE, then reads what went over the wire.
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { ConfigError, loadConfig } from '../../src/config.js'
import { gqlApi, type GqlApi } from '../support/graphql-client.js'
import { client, freshDatabase, testEnv, type Client, type TestDatabase } from '../support/harness.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js'
import type { ProviderMode } from '../support/provider-modes.js'
import { waitFor } from '../support/wait.js'

const SUB = `query ($id: ID!) { submission(id: $id) { id status attempts error } }`

interface Running {
  oa: OpenAIServer
  /** A second server for embeddings (providers without an embeddings API). */
  embed?: OpenAIServer
  profiler: Profiler
  api: Client
  gql: GqlApi
  key: string
}

// One database for the file: each test starts the service on it with its own configuration (and profile ids), and
// stops it after. Every configuration makes 64-d vectors, so the column fits them all.
let db: TestDatabase
let bootstrapKey: string | undefined
let running: Running[] = []
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(async () => db?.drop())
afterEach(async () => {
  for (const r of running) {
    await r.profiler.close()
    await r.oa.close()
    await r.embed?.close()
  }
  running = []
})

/** The service against the fake in `mode`, configured with `env` (on top of the tests' usual openai settings). */
async function start(
  mode: ProviderMode,
  env: Record<string, string>,
  opts: { separateEmbeddings?: boolean } = {},
): Promise<Running> {
  // One service at a time on the database (a test that needs two configurations stops the first).
  for (const r of running.splice(0)) {
    await r.profiler.close()
    await r.oa.close()
    await r.embed?.close()
  }
  const oa = await startOpenAIServer({ mode })
  const embed = opts.separateEmbeddings ? await startOpenAIServer() : undefined
  const profiler = await startProfiler(
    loadConfig(
      testEnv(
        db,
        openaiEnv(oa, {
          PROFILER_MAX_ATTEMPTS: '2',
          ...(embed ? { PROFILER_EMBEDDING_BASE_URL: embed.url, PROFILER_EMBEDDING_API_KEY: 'embed-key' } : {}),
          ...env,
        }),
      ),
    ),
    { role: 'all' },
  )
  // The bootstrap key is printed once, by the first start on the database.
  const key = (bootstrapKey ??= (profiler as Profiler & { bootstrapKey?: string }).bootstrapKey!)
  const r = { oa, embed, profiler, key, api: client(profiler.url!, key), gql: gqlApi(profiler.url!, key) }
  running.push(r)
  return r
}

/** Posts `data` to `profileId` and waits for the submission to end; returns it with the profile. */
async function settle(r: Running, profileId: string, data: string, c: Client = r.api) {
  const res = await c.post(profileId, { data })
  expect(res.status, await res.clone().text()).toBe(202)
  const { id } = (await res.json()) as { id: string }
  const sub = await waitFor(
    `submission ${id} to be DONE or FAILED`,
    async () => (await r.gql.data(SUB, { id })).submission,
    {
      until: (s: any) => s.status === 'DONE' || s.status === 'FAILED',
      everyMs: 100,
    },
  )
  return { sub, profile: sub.status === 'DONE' ? await c.profile(profileId) : undefined }
}

const chatsWith = (oa: OpenAIServer, needle: string) =>
  oa.chatRequests().filter((q) => JSON.stringify(q.body?.messages ?? '').includes(needle))
const refused = (rs: RecordedRequest[]) => rs.filter((q) => q.status !== undefined && q.status >= 400)
const system = (q: RecordedRequest) => String(q.body.messages[0].content)
const interests = (p: any) =>
  Object.values(p.interests ?? {})
    .flat()
    .map((v: any) => v.value as string)

const CUSTOM = {
  sections: {
    diet: {
      restrictions: {
        type: 'string[]',
        description: 'Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
      },
    },
    travel: { budget: { type: 'integer', description: 'Trip budget in dollars', min: 0, max: 100000 } },
  },
}

/** An app with the custom schema above, and its client. */
async function appWithSchema(r: Running): Promise<Client> {
  const k = await r.profiler.services.tenants.createApp('default', `custom-${Math.random().toString(36).slice(2, 8)}`)
  const put = await fetch(`${r.profiler.url}/v1/schema`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${k.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(CUSTOM),
  })
  expect(put.status).toBe(200)
  return client(r.profiler.url!, k.api_key)
}

describe('OpenAI', () => {
  it('a non-reasoning model keeps temperature 0 and strict json_schema', async () => {
    const r = await start('openai', { PROFILER_CHAT_MODEL: 'gpt-4o-mini' })
    const { sub, profile } = await settle(r, 'o-ana', 'My name is Ana and I love hiking.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
    expect(interests(profile)).toContain('hiking')
    const [q] = chatsWith(r.oa, 'My name is Ana')
    expect(q!.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { strict: true } },
    })
  })

  it('a reasoning model (gpt-5-mini) works with no setting but its name: no temperature is sent', async () => {
    const r = await start('openai-reasoning', { PROFILER_CHAT_MODEL: 'gpt-5-mini' })
    const { sub, profile } = await settle(r, 'r-ben', 'I am Ben, I live in Leeds and I love climbing.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1, error: null })
    expect(profile.core_info.location.value).toBe('Leeds')
    expect(refused(r.oa.chatRequests())).toEqual([])
    for (const q of r.oa.chatRequests()) {
      expect(q.body).not.toHaveProperty('temperature')
      expect(q.body).not.toHaveProperty('max_tokens')
    }
  })

  it('parameters refused under an unknown model name: dropped after one 400, remembered, no retry spent', async () => {
    // An Azure-style deployment name for a reasoning model; max_tokens comes from PROFILER_LLM_EXTRA_BODY (the
    // operator's cap, under the name older servers take). No transport retries at all: re-sending a refused request
    // must not need one.
    const r = await start('openai-reasoning', {
      PROFILER_CHAT_MODEL: 'prod-reasoner',
      PROFILER_LLM_MAX_RETRIES: '0',
      PROFILER_LLM_EXTRA_BODY: JSON.stringify({ max_tokens: 4000 }),
    })
    const first = await settle(r, 'r-cat', 'My name is Cat and I love chess.')
    expect(first.sub).toMatchObject({ status: 'DONE', attempts: 1, error: null })
    const chats = r.oa.chatRequests()
    // max_tokens refused (dropped: the request already carries the output cap as max_completion_tokens, 2,048 for a
    // model of unknown family, PROFILER_LLM_MAX_OUTPUT_TOKENS), then temperature 0 refused (dropped), then accepted.
    expect(chats.map((q) => q.status)).toEqual([400, 400, 200])
    expect(chats[0]!.body).toMatchObject({ temperature: 0, max_tokens: 4000, max_completion_tokens: 2048 })
    expect(chats[1]!.body).toMatchObject({ temperature: 0, max_completion_tokens: 2048 })
    expect(chats[1]!.body).not.toHaveProperty('max_tokens')
    expect(chats[2]!.body).not.toHaveProperty('temperature')
    expect(chats[2]!.body).toMatchObject({ max_completion_tokens: 2048 })
    // Remembered for the model: the next submission's request is accepted at once.
    const second = await settle(r, 'r-cat', 'I live in Oslo.')
    expect(second.sub).toMatchObject({ status: 'DONE', attempts: 1 })
    expect(
      r.oa
        .chatRequests()
        .slice(3)
        .map((q) => q.status),
    ).toEqual([200])
    expect(second.profile.core_info.location.value).toBe('Oslo')
  })
})

describe('Azure OpenAI', () => {
  it('deployment names, the api-key header, dimensions for a text-embedding-3-large deployment', async () => {
    const r = await start('azure', {
      PROFILER_CHAT_MODEL: 'prod-chat',
      PROFILER_EMBEDDING_MODEL: 'embeddings-deployment',
      PROFILER_EMBEDDING_DIMENSIONS: '64',
      PROFILER_LLM_HEADERS: 'api-key=azure-secret-key',
    })
    const { sub, profile } = await settle(r, 'az-dee', 'My name is Dee and I love sailing.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
    expect(interests(profile)).toContain('sailing')
    const emb = r.oa.embeddingRequests()
    expect(emb.length).toBeGreaterThan(0)
    for (const q of [...emb, ...r.oa.chatRequests()]) expect(q.headers['api-key']).toBe('azure-secret-key')
    for (const q of emb) expect(q.body).toMatchObject({ model: 'embeddings-deployment', dimensions: 64 })
    // Semantic search works on those vectors.
    const found = await r.api.search({ q: 'sailing' })
    expect(JSON.stringify(found)).toContain('az-dee')
  })
})

describe('OpenRouter', () => {
  it('provider-prefixed model names, the extra body and the app headers on every request', async () => {
    const r = await start('openrouter', {
      PROFILER_CHAT_MODEL: 'openai/gpt-5-mini',
      PROFILER_EMBEDDING_MODEL: 'openai/text-embedding-3-large',
      PROFILER_EMBEDDING_DIMENSIONS: '64',
      PROFILER_LLM_EXTRA_BODY: '{"provider":{"require_parameters":true}}',
      PROFILER_LLM_HEADERS: 'HTTP-Referer=https://profiler.example,X-Title=Profiler',
    })
    const { sub } = await settle(r, 'or-eve', 'My name is Eve and I love pottery.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
    const chats = r.oa.chatRequests()
    for (const q of chats) {
      expect(q.body.provider).toEqual({ require_parameters: true })
      expect(q.body).not.toHaveProperty('temperature')
    }
    for (const q of [...chats, ...r.oa.embeddingRequests()]) {
      expect(q.headers['http-referer']).toBe('https://profiler.example')
      expect(q.headers['x-title']).toBe('Profiler')
    }
    // The extra body is for chat requests only.
    for (const q of r.oa.embeddingRequests())
      expect(q.body).toMatchObject({ model: 'openai/text-embedding-3-large', dimensions: 64 })
    for (const q of r.oa.embeddingRequests()) expect(q.body).not.toHaveProperty('provider')
  })
})

describe('DeepSeek', () => {
  it('JSON mode with the schema in the prompt (custom fields included); embeddings from another server', async () => {
    const r = await start(
      'deepseek',
      { PROFILER_CHAT_MODEL: 'deepseek-chat', PROFILER_LLM_RESPONSE_FORMAT: 'json_object' },
      { separateEmbeddings: true },
    )
    const { sub, profile } = await settle(r, 'ds-fay', 'My name is Fay, I am 41 and I love jazz.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1, error: null })
    expect(profile.core_info).toMatchObject({ name: { value: 'Fay' }, age: { value: 41 } })
    expect(interests(profile)).toContain('jazz')
    const [q] = chatsWith(r.oa, 'My name is Fay')
    expect(q!.body.response_format).toEqual({ type: 'json_object' })
    expect(system(q!)).toMatch(/JSON/)
    expect(system(q!)).toMatch(/submission_id: string/)
    expect(q!.problems).toEqual([])
    // Embeddings went to the other server, with its own key; the chat server never saw one.
    expect(r.oa.embeddingRequests()).toEqual([])
    expect(r.embed!.embeddingRequests().length).toBeGreaterThan(0)
    expect(r.embed!.embeddingRequests()[0]!.headers.authorization).toBe('Bearer embed-key')

    // An app's custom fields: their types, values and descriptions reach the model through the prompt alone.
    const app = await appWithSchema(r)
    const custom = await settle(r, 'ds-gil', "I'm Gil. I'm vegan and kosher. My budget is 900.", app)
    expect(custom.sub).toMatchObject({ status: 'DONE' })
    expect(custom.profile.custom).toMatchObject({
      diet: { restrictions: [{ value: 'vegan' }, { value: 'kosher' }] },
      travel: { budget: { value: 900 } },
    })
  })
})

describe('Groq', () => {
  it('strict json_schema on gpt-oss; JSON mode for the other models', async () => {
    const oss = await start('groq', { PROFILER_CHAT_MODEL: 'openai/gpt-oss-20b' }, { separateEmbeddings: true })
    expect((await settle(oss, 'gq-hal', 'My name is Hal and I love chess.')).sub).toMatchObject({
      status: 'DONE',
      attempts: 1,
    })
    expect(oss.oa.chatRequests()[0]!.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true },
    })

    const llama = await start(
      'groq',
      { PROFILER_CHAT_MODEL: 'llama-3.3-70b-versatile', PROFILER_LLM_RESPONSE_FORMAT: 'json_object' },
      { separateEmbeddings: true },
    )
    const { sub, profile } = await settle(llama, 'gq-ida', 'My name is Ida and I live in Lyon.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
    expect(profile.core_info.location.value).toBe('Lyon')
    expect(refused(llama.oa.chatRequests())).toEqual([])
    expect(llama.oa.chatRequests()[0]!.body.response_format).toEqual({ type: 'json_object' })
  })
})

describe('LM Studio', () => {
  it('json_schema (its default) and no response_format both work; JSON mode is what it refuses', async () => {
    const r = await start('lmstudio', { PROFILER_CHAT_MODEL: 'qwen2.5-7b-instruct' })
    expect((await settle(r, 'lm-jo', 'My name is Jo and I love tea.')).sub).toMatchObject({
      status: 'DONE',
      attempts: 1,
    })
    expect(r.oa.chatRequests()[0]!.body.response_format.type).toBe('json_schema')
    const none = await start('lmstudio', {
      PROFILER_CHAT_MODEL: 'qwen2.5-7b-instruct',
      PROFILER_LLM_RESPONSE_FORMAT: 'none',
    })
    const { sub, profile } = await settle(none, 'lm-kim', 'My name is Kim and I love golf.')
    expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
    expect(interests(profile)).toContain('golf')
    expect(none.oa.chatRequests()[0]!.body).not.toHaveProperty('response_format')
    expect(system(none.oa.chatRequests()[0]!)).toMatch(/JSON/)
    // The mode itself: JSON mode is refused as LM Studio refuses it.
    const sdk = new OpenAI({ apiKey: 'k', baseURL: none.oa.url, maxRetries: 0 })
    const err = await sdk.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'json' }], response_format: { type: 'json_object' } })
      .catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.BadRequestError)
  })
})

describe('servers that only constrain decoding: the custom fields reach the model through the prompt', () => {
  for (const mode of ['vllm', 'llamacpp', 'ollama'] as const) {
    it(`${mode}: the model reads what each field holds from the prompt, not from the schema`, async () => {
      const r = await start(mode, { PROFILER_CHAT_MODEL: 'qwen2.5-7b-instruct' })
      const app = await appWithSchema(r)
      const { sub, profile } = await settle(r, `${mode}-lu`, "I'm Lu. I'm vegan and kosher. My budget is 900.", app)
      expect(sub).toMatchObject({ status: 'DONE', attempts: 1 })
      expect(profile.custom).toMatchObject({
        diet: { restrictions: [{ value: 'vegan' }, { value: 'kosher' }] },
        travel: { budget: { value: 900 } },
      })
      const [q] = chatsWith(r.oa, "I'm Lu")
      expect(q!.body.response_format.type).toBe('json_schema')
      const user = JSON.parse(q!.body.messages[1].content)
      expect(user.custom_fields.fields).toEqual({
        'diet.restrictions': 'string[]; Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
        'travel.budget': 'integer; Trip budget in dollars; minimum 0; maximum 100000',
      })
    })
  }

  it('vLLM refuses dimensions for a model without Matryoshka embeddings: dropped for it, vectors checked', async () => {
    const r = await start('vllm', {
      PROFILER_CHAT_MODEL: 'qwen2.5-7b-instruct',
      PROFILER_EMBEDDING_MODEL: 'BAAI/bge-small-en-v1.5',
      PROFILER_EMBEDDING_DIMENSIONS: '64',
    })
    expect((await settle(r, 'vl-mo', 'My name is Mo and I love rowing.')).sub).toMatchObject({
      status: 'DONE',
      attempts: 1,
    })
    const emb = r.oa.embeddingRequests()
    expect(emb[0]).toMatchObject({ status: 400, body: { dimensions: 64 } })
    expect(emb.slice(1).every((q) => q.status === 200 && !('dimensions' in q.body))).toBe(true)
  })
})

describe('configuration of the provider-specific settings', () => {
  const base = { PROFILER_AI: 'openai', OPENAI_API_KEY: 'k' }
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env })
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError)
      return (e as Error).message
    }
    throw new Error('accepted')
  }

  it('PROFILER_LLM_EXTRA_BODY must be a JSON object without model, messages or stream', () => {
    expect(fails({ PROFILER_LLM_EXTRA_BODY: '{provider: 1}' })).toMatch(/PROFILER_LLM_EXTRA_BODY: not JSON/)
    expect(fails({ PROFILER_LLM_EXTRA_BODY: '[1]' })).toMatch(/PROFILER_LLM_EXTRA_BODY: must be a JSON object/)
    expect(fails({ PROFILER_LLM_EXTRA_BODY: '{"model":"x"}' })).toMatch(/PROFILER_LLM_EXTRA_BODY: model cannot be set/)
    expect(
      loadConfig({ ...base, PROFILER_LLM_EXTRA_BODY: '{"provider":{"require_parameters":true}}' }).openai.extraBody,
    ).toEqual({ provider: { require_parameters: true } })
  })

  it('PROFILER_LLM_HEADERS: name=value pairs; an error never echoes a value', () => {
    expect(loadConfig({ ...base, PROFILER_LLM_HEADERS: 'api-key=s%3Dcret,X-Title=Profiler' }).openai.headers).toEqual({
      'api-key': 's=cret',
      'X-Title': 'Profiler',
    })
    const msg = fails({ PROFILER_LLM_HEADERS: 'api-key: super-secret-value' })
    expect(msg).toMatch(/PROFILER_LLM_HEADERS: item 1 is not key=value/)
    expect(msg).not.toContain('super-secret')
    expect(fails({ PROFILER_LLM_HEADERS: 'bad name=x' })).toMatch(/not a valid header name/)
    expect(fails({ PROFILER_LLM_RESPONSE_FORMAT: 'xml' })).toMatch(/PROFILER_LLM_RESPONSE_FORMAT/)
  })
})

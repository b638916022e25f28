// The `openai` provider bounded by tokens (docs/guides/ai-providers.md), through the running service against the fake
// OpenAI-compatible server in the matching provider mode: custom schemas past OpenAI's structured-output limits refused
// when set, a batch packed into requests that fit the model's context (Ollama's 4,096 tokens), an answer cut at the
// output cap (finish_reason "length") splitting its batch, a submission that can never fit failed once with a clear
// error while its batch-mates are applied, and a timed-out batch split in halves without opening the circuit breaker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { withCustomOutput } from '../../src/ai/openai/custom-output.js'
import { outputJsonSchema } from '../../src/ai/openai/output.js'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { parseCustomSchema } from '../../src/domain/custom-schema.js'
import { gqlApi } from '../support/graphql-client.js'
import { client, freshDatabase, testEnv, type Client, type TestDatabase } from '../support/harness.js'
import { strictSchemaProblems } from '../support/json-schema-strict.js'
import { openaiEnv, startOpenAIServer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js'
import { ollamaSettings } from '../support/provider-modes.js'
import { waitFor } from '../support/wait.js'

interface Svc {
  oa: OpenAIServer
  db: TestDatabase
  profiler: Profiler
  key: string
  api: Client
}

async function start(mode: 'openai' | 'ollama', env: Record<string, string>): Promise<Svc> {
  const oa = await startOpenAIServer({ mode })
  const db = await freshDatabase()
  const profiler = await startProfiler(loadConfig(testEnv(db, openaiEnv(oa, env))), { role: 'all' })
  const { api_key: key } = await profiler.services.tenants.createApp('default', `tokens-${mode}`)
  return { oa, db, profiler, key, api: client(profiler.url!, key) }
}

async function stop(s: Svc | undefined) {
  await s?.profiler.close()
  await s?.db.drop()
  await s?.oa.close()
}

const submissionsOf = (
  s: Svc,
  profileId: string,
): Promise<{ id: string; status: string; attempts: number; error: string | null; data: string }[]> =>
  s.profiler.db.dataSource.query(
    `SELECT id, status, attempts, error, data FROM submissions WHERE profile_id = $1 ORDER BY seq`,
    [profileId],
  )

/** Extraction requests (not summaries) whose batch holds one of `marks`. */
const extractions = (s: Svc, marks: string[]): RecordedRequest[] =>
  s.oa.chatRequests().filter((r) => r.batch?.texts.some((t) => marks.some((m) => t.includes(m))))

const marksIn = (r: RecordedRequest, marks: string[]) => marks.filter((m) => r.batch!.texts.some((t) => t.includes(m)))

/**
 * Posts `texts` to a profile so that they form ONE batch: a first submission's request is held by the server until the
 * others are accepted (the worker then claims them all at once). Resolves when the profile is ready.
 */
async function postBatch(s: Svc, profileId: string, texts: string[], opts: { waitReady?: boolean } = {}) {
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  const blocker = `BLOCKER-${profileId}`
  s.oa.faults.add({ holdUntil: released, match: blocker })
  try {
    expect((await s.api.post(profileId, { data: `${blocker} I live in Oslo.` })).status).toBe(202)
    await waitFor(`the held request of ${blocker}`, () =>
      s.oa.chatRequests().some((r) => r.batch?.texts.some((t) => t.includes(blocker))),
    )
    for (const data of texts) expect((await s.api.post(profileId, { data })).status).toBe(202)
  } finally {
    release()
  }
  if (opts.waitReady !== false) return s.api.waitReady(profileId, 60_000)
}

/** Neutral filler (nothing the extractor takes as a fact) of at least `tokens` o200k tokens. */
function filler(tokens: number, seed: string): string {
  const parts: string[] = []
  for (let i = 0; countTokens(parts.join(' ')) < tokens; i++)
    parts.push(`Clause ${seed}-${i}: the committee reviewed the quarterly figures for region ${i} and adjourned.`)
  return parts.join(' ')
}

const interests = (p: any): string[] => Object.values(p.interests ?? {}).flatMap((l: any) => l.map((i: any) => i.value))

describe('custom schemas within the limits of structured outputs', () => {
  let s: Svc
  beforeAll(async () => {
    s = await start('openai', { PROFILER_CHAT_MODEL: 'gpt-4o-mini', PROFILER_LLM_TIMEOUT_MS: '30000' })
  })
  afterAll(() => stop(s))

  /** Enum fields with these numbers of values. */
  const enumSchema = (counts: number[]) => ({
    sections: {
      catalog: Object.fromEntries(
        counts.map((n, f) => [
          `choice_${f}`,
          { type: 'enum', values: Array.from({ length: n }, (_, v) => `option ${f}-${v}`) },
        ]),
      ),
    },
  })

  it('refuses over 1,000 enum values in the extraction schema (400 naming the limit), REST and GraphQL', async () => {
    const tooMany = enumSchema(Array(12).fill(100)) // 1,200 + the fixed schema's 6 = 1,206 enum values
    // What the real API would answer: the fake in 'openai' mode refuses the extraction schema built from it.
    const sent = withCustomOutput(outputJsonSchema(), parseCustomSchema(tooMany))
    expect(strictSchemaProblems(sent)).toEqual([expect.stringMatching(/1206 enum values.*limit is 1000/)])
    const put = await fetch(`${s.profiler.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(tooMany),
    })
    const body = (await put.json()) as any
    expect(put.status, JSON.stringify(body).slice(0, 300)).toBe(400)
    expect(body.message).toMatch(/1,206 enum values in all; structured outputs accept at most 1,000/)
    const gql = await gqlApi(s.profiler.url!, s.key).raw(
      `mutation($s: JSONObject!) { setCustomSchema(schema: $s) { version } }`,
      { s: tooMany },
    )
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
    expect(gql.body.errors[0].message).toMatch(/1,206 enum values/)
    // Nothing was stored: the app still has no schema.
    expect(((await (await s.api.get('/v1/schema')).json()) as any).version).toBe(0)
  })

  it('accepts a schema just within the limits, and its extractions work against the strict fake', async () => {
    const within = enumSchema([...Array(9).fill(100), 94]) // 994 + 6 = 1,000 enum values: the limit, accepted
    const put = await fetch(`${s.profiler.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(within),
    })
    expect(put.status, await put.clone().text()).toBe(200)
    expect((await s.api.post('within', { data: 'My name is Ines and I live in Porto.' })).status).toBe(202)
    const p = await s.api.waitReady('within')
    expect(p.core_info.name.value).toBe('Ines')
    const [req] = extractions(s, ['Ines'])
    expect(req!.status).toBe(200)
    expect(req!.problems).toEqual([])
    const [sub] = await submissionsOf(s, 'within')
    expect(sub).toMatchObject({ status: 'done', attempts: 1 })
  })
})

describe("an answer cut at the output cap (finish_reason 'length') splits the batch", () => {
  let s: Svc
  // 100 fields with 40-character names: every submission's answer carries them all (null or [] when not stated).
  const WIDE = {
    sections: Object.fromEntries(
      Array.from({ length: 5 }, (_, k) => [
        `section_${k}`,
        Object.fromEntries(
          Array.from({ length: 20 }, (_, f) => [
            `field_${k}_${f}_`.padEnd(40, 'x'),
            { type: f % 2 ? 'string[]' : 'string' },
          ]),
        ),
      ]),
    ),
  }
  beforeAll(async () => {
    // gpt-4o-mini in 'openai' mode: the fake cuts any answer at the model's 16,384 output tokens, as the API does.
    s = await start('openai', { PROFILER_CHAT_MODEL: 'gpt-4o-mini', PROFILER_LLM_TIMEOUT_MS: '30000' })
    const put = await fetch(`${s.profiler.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(WIDE),
    })
    expect(put.status, await put.clone().text()).toBe(200)
  })
  afterAll(() => stop(s))

  it('a batch of 20 with a large schema: 3 extraction requests (20, then 10 + 10), all ready first try', async () => {
    const cities = ['Lyon', 'Porto', 'Turin', 'Ghent', 'Basel']
    const texts = Array.from({ length: 20 }, (_, i) => `WIDE-${i} I live in ${cities[i % 5]}. I love chess.`)
    const marks = texts.map((_, i) => `WIDE-${i} `)
    const p = await postBatch(s, 'wide', texts)
    const reqs = extractions(s, marks)
    expect(reqs.map((r) => marksIn(r, marks).length)).toEqual([20, 10, 10])
    // Every request carried the cap, and only the first was cut.
    expect(reqs.map((r) => r.body.max_completion_tokens)).toEqual([16_384, 16_384, 16_384])
    expect(reqs.map((r) => r.status)).toEqual([200, 200, 200])
    const subs = (await submissionsOf(s, 'wide')).filter((x) => x.data.startsWith('WIDE-'))
    expect(subs).toHaveLength(20)
    expect(subs.every((x) => x.status === 'done' && x.attempts === 1)).toBe(true)
    expect(p.core_info.location.value).toBe('Basel')
    expect(interests(p)).toContain('chess')
    // Split in several requests, the batch's summary came from the summarizer, written from the merged profile.
    const last = s.oa.chatRequests().at(-1)!
    expect(last.body.response_format.json_schema.name).toBe('profile_summary')
    expect(p.summary).toBeTruthy()
  })
})

describe("Ollama's 4,096-token context, output cap and timeouts", () => {
  let s: Svc
  beforeAll(async () => {
    ollamaSettings.contextTokens = 4096
    s = await start('ollama', {
      PROFILER_LLM_CONTEXT_TOKENS: '4096',
      PROFILER_LLM_MAX_OUTPUT_TOKENS: '700',
      // One counted failure would open the breaker for ten minutes: nothing would be processed in this test's time.
      PROFILER_LLM_BREAKER_FAILURES: '1',
      PROFILER_LLM_BREAKER_COOLDOWN_MS: '600000',
      PROFILER_LLM_BREAKER_MAX_COOLDOWN_MS: '600000',
      PROFILER_LLM_TIMEOUT_MS: '8000',
    })
  })
  afterAll(() => stop(s))

  it('packs a batch that would overflow the context into requests that fit; nothing cut, all extracted', async () => {
    const people = [
      ['Ana', 'Lyon', 'jazz'],
      ['Bo', 'Porto', 'chess'],
      ['Cy', 'Turin', 'sailing'],
      ['Di', 'Ghent', 'pottery'],
    ] as const
    // ~900 tokens each: together with the instructions (~1,100) far more than 4,096, each alone well within it.
    const texts = people.map(
      ([, city, hobby], i) => `PACK-${i} I live in ${city}. I love ${hobby}. ${filler(900, `p${i}`)}`,
    )
    const marks = texts.map((_, i) => `PACK-${i} `)
    const p = await postBatch(s, 'pack', texts)
    const reqs = extractions(s, marks)
    // Before: one request, whose start (the instructions, the profile, the first submissions) Ollama dropped.
    expect(
      reqs.every((r) => r.problems.length === 0),
      JSON.stringify(reqs.map((r) => r.problems)),
    ).toBe(true)
    expect(reqs.length).toBeGreaterThan(1)
    expect(reqs.flatMap((r) => marksIn(r, marks)).sort()).toEqual([...marks].sort())
    for (const r of reqs) expect(r.body.max_completion_tokens).toBe(700)
    expect(interests(p)).toEqual(expect.arrayContaining(['jazz', 'chess', 'sailing', 'pottery']))
    expect(p.core_info.location.value).toBe('Ghent')
    const subs = (await submissionsOf(s, 'pack')).filter((x) => x.data.startsWith('PACK-'))
    expect(subs.map((x) => [x.status, x.attempts])).toEqual(marks.map(() => ['done', 1]))
  })

  it('a submission never fitting the context fails once (its size, the setting); its batch-mates applied', async () => {
    const huge = `HUGE-1 I love opera. ${filler(3600, 'h')}`
    const texts = ['HUGE-0 My name is Eva. I love tennis.', huge, 'HUGE-2 I live in Bergen.']
    await postBatch(s, 'huge', texts)
    const subs = (await submissionsOf(s, 'huge')).filter((x) => x.data.startsWith('HUGE-'))
    expect(subs.map((x) => x.status)).toEqual(['done', 'failed', 'done'])
    const failed = subs[1]!
    expect(failed.attempts).toBe(1)
    expect(failed.error).toMatch(/cannot be extracted: it is about [\d,]+ tokens/)
    expect(failed.error).toMatch(/context of test-chat is 4,096 tokens \(PROFILER_LLM_CONTEXT_TOKENS\)/)
    // It was never sent (no request could hold it); the others were.
    expect(extractions(s, ['HUGE-1 '])).toEqual([])
    expect(extractions(s, ['HUGE-0 ', 'HUGE-2 ']).every((r) => r.problems.length === 0)).toBe(true)
    const p = await s.api.profile('huge')
    expect(p.core_info.name.value).toBe('Eva')
    expect(p.core_info.location.value).toBe('Bergen')
    expect(interests(p)).toContain('tennis')
    expect(interests(p)).not.toContain('opera')
  })

  it('an answer over the output cap splits its batch; a submission whose answer alone is cut fails once', async () => {
    const topics = ['jazz', 'chess', 'sailing', 'pottery', 'hiking', 'skiing', 'tennis', 'golf', 'opera', 'baking']
    const kinds = ['club', 'music', 'trips', 'classes', 'tours', 'camps']
    const hobbies = Array.from(
      { length: 60 },
      (_, i) => `${topics[i % 10]}${i >= 10 ? ` ${kinds[Math.floor(i / 10) - 1]}` : ''}`,
    )
    const texts = [
      'LONG-0 My name is Flo. I live in Nantes.',
      `LONG-1 ${hobbies.map((h) => `I love ${h}.`).join(' ')}`,
      'LONG-2 I love rowing.',
    ]
    const marks = texts.map((_, i) => `LONG-${i} `)
    await postBatch(s, 'long', texts)
    const subs = (await submissionsOf(s, 'long')).filter((x) => x.data.startsWith('LONG-'))
    expect(subs.map((x) => [x.status, x.attempts])).toEqual([
      ['done', 1],
      ['failed', 1],
      ['done', 1],
    ])
    expect(subs[1]!.error).toMatch(
      /answer for this submission alone is longer than the output cap of 700 tokens \(PROFILER_LLM_MAX_OUTPUT_TOKENS\)/,
    )
    // [0,1,2] cut -> [0,1] cut -> [0] ok, [1] cut (failed, not sent again), then [2] ok: 5 requests, no output retry.
    expect(extractions(s, marks).map((r) => marksIn(r, marks))).toEqual([
      marks,
      [marks[0], marks[1]],
      [marks[0]],
      [marks[1]],
      [marks[2]],
    ])
    const p = await s.api.profile('long')
    expect(p.core_info.name.value).toBe('Flo')
    expect(interests(p)).toContain('rowing')
  })

  it('a timed-out batch is split in halves without opening the circuit breaker', async () => {
    const texts = ['SLOW-0 I love darts.', 'SLOW-1 I love bowling.', 'SLOW-2 I love karate.', 'SLOW-3 I live in Vigo.']
    const marks = texts.map((_, i) => `SLOW-${i} `)
    // The batch's first request is never answered (until the client gives up): a slow model, not an outage.
    let unblock!: () => void
    s.oa.faults.add({ holdUntil: new Promise<void>((r) => (unblock = r)), match: 'SLOW-0 ' })
    try {
      const p = await postBatch(s, 'slow', texts)
      const reqs = extractions(s, marks)
      expect(reqs.map((r) => marksIn(r, marks))).toEqual([marks, marks.slice(0, 2), marks.slice(2)])
      expect(reqs[0]!.delivered).toBe(false)
      expect(interests(p)).toEqual(expect.arrayContaining(['darts', 'bowling', 'karate']))
      expect(p.core_info.location.value).toBe('Vigo')
      const subs = (await submissionsOf(s, 'slow')).filter((x) => x.data.startsWith('SLOW-'))
      expect(subs.map((x) => [x.status, x.attempts])).toEqual(marks.map(() => ['done', 1]))
      // With the breaker opened by that timeout (one failure opens it here), nothing would run for ten minutes.
      expect((await s.api.post('after-slow', { data: 'I love cricket.' })).status).toBe(202)
      expect(interests(await s.api.waitReady('after-slow'))).toContain('cricket')
    } finally {
      unblock()
    }
  })
})

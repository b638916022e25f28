// LLM cost of the `openai` provider: requests and prompt tokens per submitted token, measured through the real
// service (in process, embedded database) against the fake OpenAI-compatible server of the tests.
// npx tsx bench/llm-cost.ts            (about 30 s; writes bench/results/llm-cost.json)
//
// Scenarios, each with ~20-token first-person messages written for this bench:
// single        20 submissions, each to its own profile, waiting for `ready` after each
// burst         10 submissions POSTed at once to one profile
// burst-inflight 1 submission, then 9 more POSTed at once while its chat request is in flight
// sequential    10 submissions to ONE profile, waiting for `ready` after each (the compact profile grows)
// The fake model answers in about 1 ms, far faster than a real one; in the burst scenarios every chat request is held
// for BURST_MODEL_LATENCY_MS by the server (a queued `delayMs` fault) so that batching meets realistic latency.
//
// Tokens are counted with gpt-tokenizer over exactly what was sent, as recorded by the fake server:
// chat     o200k_base (gpt-4o / gpt-4.1 / gpt-5 family): the messages with their chat framing (encodeChat),
//            plus the JSON text of response_format's schema. OpenAI bills the schema too, but does not document how
//            it is rendered for the model, so its JSON text is an approximation.
//   embeddings cl100k_base (text-embedding-3-*): the input strings.
// The fake server's own `usage` (characters / 4) is only used to check the service's accounting, never as a figure.
// mem0's figure is read from bench/results/mem0-baseline.json (npm run bench:mem0: mem0's SDK on the same
// single messages, same server, same counting) when present; the ~7,700 reported elsewhere is kept as context.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { encode as encodeEmbedding } from 'gpt-tokenizer/encoding/cl100k_base'
import { encode, encodeChat } from 'gpt-tokenizer/model/gpt-4o'
import { createAiProviders } from '../src/ai/index.js'
import { LlmClient } from '../src/ai/openai/client.js'
import { OpenAISummarizer } from '../src/ai/openai/openai-extractor.js'
import { startProfiler } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrate, openDatabase } from '../src/db/database.js'
import { COMPACT_PROFILE_MAX_CHARS, compactProfile } from '../src/ai/openai/compact-profile.js'
import { emptyContent, type ProfileContent } from '../src/domain/profile.js'
import { ReindexService } from '../src/services/reindex.service.js'
import { client } from '../test/support/harness.js'
import { watchNetwork, type Connection } from '../test/support/network-watch.js'
import { startOpenAIServer, type RecordedRequest } from '../test/support/openai-server.js'
import { sleep, waitFor } from '../test/support/wait.js'
import { BURST, SEQUENTIAL, SINGLES } from './messages.js'

const here = path.dirname(new URL(import.meta.url).pathname)
const BURST_MODEL_LATENCY_MS = 800
const FIXED_TARGET = 1500
/**
 * Reported for mem0's open-source TypeScript SDK (`Memory.add` of a ~20-token message); the target is set against it.
 */
const MEM0_REPORTED_PROMPT_TOKENS_PER_ADD = 7700
const MEM0_TARGET_FRACTION = 1 / 5

interface Mem0Measured {
  at: string
  mem0ai: string
  chatRequestsPerAdd: number
  promptTokensPerAddMean: number
  promptTokensPerAddMin: number
  promptTokensPerAddMax: number
}

/**
 * mem0 measured by bench/mem0/mem0-baseline.ts (same messages, same fake server, same counting), if it has been run.
 */
function measuredMem0(): Mem0Measured | undefined {
  const file = path.join(here, 'results', 'mem0-baseline.json')
  if (!fs.existsSync(file)) return undefined
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    at: string
    versions: { mem0ai: string }
    scenarios: (Omit<Mem0Measured, 'at' | 'mem0ai'> & { scenario: string })[]
  }
  const s = j.scenarios.find((x) => x.scenario === 'single')
  if (!s) return undefined
  const { chatRequestsPerAdd, promptTokensPerAddMean, promptTokensPerAddMin, promptTokensPerAddMax } = s
  return {
    at: j.at,
    mem0ai: j.versions.mem0ai,
    chatRequestsPerAdd,
    promptTokensPerAddMean,
    promptTokensPerAddMin,
    promptTokensPerAddMax,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Every outgoing connection, fetch and datagram of this process (the service runs in it).

// ---------------------------------------------------------------------------------------------------------------
// Token accounting of one recorded request.

const tok = (s: string) => encode(s).length

interface ChatCost {
  seq: number
  submissions: number
  /** Tokens of what was submitted (the texts as the user POSTed them). */
  submittedTokens: number
  systemTokens: number
  schemaTokens: number
  /** The compact profile text alone. */
  profileTokens: number
  /** The user message JSON without the submissions: {"profile":"...","submissions":[]}. */
  userSkeletonTokens: number
  /** Per-submission envelope: id, input_type, keys and punctuation around each text. */
  envelopeTokens: number
  /** Chat framing of the messages (encodeChat minus the contents). */
  framingTokens: number
  /** Everything except the submissions: system + schema + user skeleton + framing. */
  fixedTokens: number
  /** The whole prompt: messages with framing + schema JSON. */
  promptTokens: number
}

function chatCost(r: RecordedRequest): ChatCost {
  const messages = r.body.messages as { role: 'system' | 'user'; content: string }[]
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n')
  const userText = messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
  const user = JSON.parse(userText) as {
    profile: string
    submissions: { id: string; input_type: string; text: string }[]
  }
  const schemaTokens = tok(JSON.stringify(r.body.response_format?.json_schema?.schema ?? {}))
  const chat = encodeChat(messages).length
  const systemTokens = tok(system)
  const userTokens = tok(userText)
  const framingTokens = chat - systemTokens - userTokens
  const submittedTokens = user.submissions.reduce((n, s) => n + tok(s.text), 0)
  const userSkeletonTokens = tok(JSON.stringify({ ...user, submissions: [] }))
  const fixedTokens = systemTokens + schemaTokens + userSkeletonTokens + framingTokens
  return {
    seq: r.seq,
    submissions: user.submissions.length,
    submittedTokens,
    systemTokens,
    schemaTokens,
    profileTokens: tok(user.profile),
    userSkeletonTokens,
    envelopeTokens: userTokens - userSkeletonTokens - submittedTokens,
    framingTokens,
    fixedTokens,
    promptTokens: chat + schemaTokens,
  }
}

const embeddingTokens = (r: RecordedRequest) => {
  const input = r.body.input as string | string[]
  return (Array.isArray(input) ? input : [input]).reduce((n, t) => n + encodeEmbedding(t).length, 0)
}

// ---------------------------------------------------------------------------------------------------------------

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : 0)

async function main() {
  const started = Date.now()
  const watch = watchNetwork()
  const oa = await startOpenAIServer()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-llm-cost-'))
  const env: Record<string, string> = {
    PROFILER_AI: 'openai',
    OPENAI_API_KEY: 'k',
    PROFILER_OPENAI_BASE_URL: oa.url,
    PROFILER_CHAT_MODEL: 'test-chat',
    PROFILER_EMBEDDING_MODEL: 'test-embed-small',
    PROFILER_EMBEDDING_DIMENSIONS: '64',
    PROFILER_DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'warn',
  }
  const config = loadConfig(env)

  let setupDbPort: number | undefined
  // A fresh database has a 1024-d embedding column; the fake server's test-embed-small makes 64-d vectors.
  {
    const db = await openDatabase(config, { poolSize: 2 })
    setupDbPort = Number(new URL(db.url).port)
    try {
      await migrate(db)
      await new ReindexService(db.dataSource, createAiProviders(config)).adaptColumn()
    } finally {
      await db.close()
    }
  }
  const setupRequests = oa.requests.length

  const profiler = await startProfiler(config, { role: 'all' })
  const api = client(profiler.url!, profiler.bootstrapKey!)
  const ds = profiler.db.dataSource
  const contentOf = async (profileId: string): Promise<ProfileContent> =>
    (await ds.query(`SELECT content FROM profiles WHERE profile_id = $1`, [profileId]))[0].content
  /** Profile states after a batch, for the estimate of a separate summary request. */
  const statesAfterBatch: { scenario: string; profileId: string; content: ProfileContent }[] = []

  const submit = async (profileId: string, text: string): Promise<string> => {
    const res = await api.post(profileId, { data: text })
    if (res.status !== 202) throw new Error(`POST ${profileId}: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { id: string }).id
  }

  interface Scenario {
    name: string
    description: string
    submissions: number
    profiles: string[]
    submittedTokens: number
    requests: RecordedRequest[]
    wallMs: number
  }
  const scenarios: Scenario[] = []
  const scenario = async (
    name: string,
    description: string,
    texts: string[],
    profiles: string[],
    run: () => Promise<void>,
  ) => {
    const mark = oa.requests.length
    const t0 = Date.now()
    await run()
    await sleep(50)
    scenarios.push({
      name,
      description,
      submissions: texts.length,
      profiles,
      submittedTokens: sum(texts.map(tok)),
      requests: oa.requests.slice(mark),
      wallMs: Date.now() - t0,
    })
  }

  const singleIds = SINGLES.map((_, i) => `single-${String(i + 1).padStart(2, '0')}`)
  await scenario('single', '20 submissions, each to its own profile', SINGLES, singleIds, async () => {
    for (const [i, text] of SINGLES.entries()) {
      await submit(singleIds[i]!, text)
      await api.waitReady(singleIds[i]!)
      statesAfterBatch.push({ scenario: 'single', profileId: singleIds[i]!, content: await contentOf(singleIds[i]!) })
    }
  })

  oa.faults.add({ delayMs: BURST_MODEL_LATENCY_MS }, BURST.length)
  await scenario('burst', '10 POSTed at once to one profile', BURST, ['burst'], async () => {
    await Promise.all(BURST.map((t) => submit('burst', t)))
    await api.waitReady('burst')
    statesAfterBatch.push({ scenario: 'burst', profileId: 'burst', content: await contentOf('burst') })
  })
  oa.faults.clear()

  oa.faults.add({ delayMs: BURST_MODEL_LATENCY_MS }, BURST.length)
  await scenario(
    'burst-inflight',
    '1, then 9 at once while its request is in flight',
    BURST,
    ['burst-inflight'],
    async () => {
      const before = oa.chatRequests().length
      await submit('burst-inflight', BURST[0]!)
      await waitFor('the first burst request to reach the model', () => oa.chatRequests().length > before, {
        timeoutMs: 30_000,
        everyMs: 5,
      })
      await Promise.all(BURST.slice(1).map((t) => submit('burst-inflight', t)))
      await api.waitReady('burst-inflight')
      statesAfterBatch.push({
        scenario: 'burst-inflight',
        profileId: 'burst-inflight',
        content: await contentOf('burst-inflight'),
      })
    },
  )
  oa.faults.clear()

  const growth: { step: number; profileTokens: number; fixedTokens: number; promptTokens: number }[] = []
  await scenario('sequential', '10 one after another to ONE profile', SEQUENTIAL, ['sequential'], async () => {
    for (const text of SEQUENTIAL) {
      await submit('sequential', text)
      await api.waitReady('sequential')
      statesAfterBatch.push({ scenario: 'sequential', profileId: 'sequential', content: await contentOf('sequential') })
    }
  })

  // --- What the service itself recorded, before anything else talks to the fake server.
  const runRequests = oa.requests.slice(setupRequests)
  const [accounted] = await ds.query(
    `SELECT COALESCE(sum((usage->>'promptTokens')::bigint), 0)::int AS p, COALESCE(sum((usage->>'completionTokens')::bigint), 0)::int AS c,
            COALESCE(sum((usage->>'totalTokens')::bigint), 0)::int AS t, count(*)::int AS n,
            count(*) FILTER (WHERE status = 'done')::int AS done FROM submissions`,
  )
  const batchesByProfile = new Map<string, number>(
    // A batch's submissions are finished by one transaction (one finished_at); a history entry would miss the batches
    // that changed nothing (they write none).
    (
      await ds.query(
        `SELECT profile_id, count(DISTINCT finished_at)::int AS n FROM submissions WHERE status = 'done' GROUP BY profile_id`,
      )
    ).map((r: { profile_id: string; n: number }) => [r.profile_id, r.n]),
  )
  const apiPort = Number(new URL(profiler.url!).port)
  const dbPort = profiler.db.url ? Number(new URL(profiler.db.url).port) : undefined
  await profiler.close()
  await sleep(50)
  const connectionsDuringRun = [...watch.connections]
  const fetchesDuringRun = [...watch.fetches]
  const datagramsDuringRun = [...watch.datagrams]

  // --- Estimate: what a separate summary request per batch would cost (the provider's own OpenAISummarizer,
  // sent to the fake server after the run, outside every figure above).
  const summaryMark = oa.requests.length
  const summarizer = new OpenAISummarizer(
    new LlmClient({ ...config.openai, outputRetries: 0, maxRetries: 0 }),
    config.openai.chatModel,
  )
  for (const s of statesAfterBatch) await summarizer.summarize(s.content).catch(() => undefined)
  const summaryRequests = oa.requests.slice(summaryMark).filter((r) => r.kind === 'chat')
  const summaryCosts = summaryRequests.map((r) => {
    const messages = r.body.messages as { role: 'system' | 'user'; content: string }[]
    const system = messages.find((m) => m.role === 'system')!.content
    const schemaTokens = tok(JSON.stringify(r.body.response_format?.json_schema?.schema ?? {}))
    return {
      promptTokens: encodeChat(messages).length + schemaTokens,
      systemTokens: tok(system),
      schemaTokens,
      profileTokens: tok(messages.find((m) => m.role === 'user')!.content),
    }
  })
  watch.stop()
  await oa.close()
  fs.rmSync(dataDir, { recursive: true, force: true })

  // ---------------------------------------------------------------------------------------------------------------
  // Figures.

  const rows = scenarios.map((s) => {
    const chat = s.requests.filter((r) => r.kind === 'chat')
    const emb = s.requests.filter((r) => r.kind === 'embeddings')
    const costs = chat.map(chatCost)
    const prompt = sum(costs.map((c) => c.promptTokens))
    const batches = sum(s.profiles.map((p) => batchesByProfile.get(p) ?? 0))
    if (s.name === 'sequential')
      costs.forEach((c, i) =>
        growth.push({
          step: i + 1,
          profileTokens: c.profileTokens,
          fixedTokens: c.fixedTokens,
          promptTokens: c.promptTokens,
        }),
      )
    return {
      scenario: s.name,
      description: s.description,
      submissions: s.submissions,
      batches,
      chatRequests: chat.length,
      embeddingRequests: emb.length,
      otherRequests: s.requests.length - chat.length - emb.length,
      submittedTokens: s.submittedTokens,
      submittedTokensPerSubmission: round(s.submittedTokens / s.submissions, 1),
      chatPromptTokens: prompt,
      chatRequestsPerSubmission: round(chat.length / s.submissions),
      promptTokensPerSubmission: round(prompt / s.submissions, 0),
      promptTokensPerSubmittedToken: round(prompt / s.submittedTokens, 1),
      fixedTokensMean: round(mean(costs.map((c) => c.fixedTokens)), 0),
      fixedTokensMax: Math.max(...costs.map((c) => c.fixedTokens)),
      profileTokensMin: Math.min(...costs.map((c) => c.profileTokens)),
      profileTokensMax: Math.max(...costs.map((c) => c.profileTokens)),
      envelopeTokensPerSubmission: round(sum(costs.map((c) => c.envelopeTokens)) / s.submissions, 1),
      embeddingInputTokens: sum(emb.map(embeddingTokens)),
      embeddingTokensPerSubmission: round(sum(emb.map(embeddingTokens)) / s.submissions, 0),
      batchSizes: costs.map((c) => c.submissions),
      wallMs: s.wallMs,
      requests: costs,
    }
  })
  const allCosts = rows.flatMap((r) => r.requests)
  const fixedMax = Math.max(...allCosts.map((c) => c.fixedTokens))
  const single = rows.find((r) => r.scenario === 'single')!
  const burstRows = rows.filter((r) => r.scenario.startsWith('burst'))

  // Every request the service made reached the fake server, and nothing else left the process.
  const oaOrigin = new URL(oa.url).origin
  const oaPort = Number(new URL(oa.url).port)
  const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1', 'localhost'])
  const classify = (c: Connection) =>
    !loopback.has(c.host)
      ? 'elsewhere'
      : c.port === oaPort
        ? 'model server'
        : c.port === apiPort
          ? 'service API (this bench)'
          : c.port === dbPort || c.port === setupDbPort
            ? 'embedded database'
            : 'other local'
  for (const c of connectionsDuringRun)
    if (classify(c) === 'other local' || classify(c) === 'elsewhere') console.error('unexpected connection', c)
  const connectionsBy: Record<string, number> = {}
  for (const c of connectionsDuringRun) connectionsBy[classify(c)] = (connectionsBy[classify(c)] ?? 0) + 1
  const fetchesToModel = fetchesDuringRun.filter((f) => f.startsWith(oaOrigin)).length
  const fetchesToApi = fetchesDuringRun.filter(
    (f) => f.startsWith(`http://127.0.0.1:${apiPort}`) || f.startsWith(`http://localhost:${apiPort}`),
  ).length
  const serverUsage = runRequests.reduce(
    (a, r) => ({
      p: a.p + (r.usage?.prompt_tokens ?? 0),
      c: a.c + (r.usage?.completion_tokens ?? 0),
      t: a.t + (r.usage?.total_tokens ?? 0),
    }),
    { p: 0, c: 0, t: 0 },
  )
  const totalBatches = sum([...batchesByProfile.values()])
  const verification = {
    requestsSeenByModelServer: runRequests.length,
    setupRequests,
    fetchesFromServiceToModelServer: fetchesToModel,
    fetchesToServiceApi: fetchesToApi,
    fetchesElsewhere: fetchesDuringRun.length - fetchesToModel - fetchesToApi,
    batchesRecordedByService: totalBatches,
    requestsExpectedFromBatches: totalBatches * 2,
    requestsWithProblems: runRequests.filter((r) => r.problems.length || r.status !== 200).length,
    paths: [...new Set(runRequests.map((r) => r.path))],
    serviceUsage: { promptTokens: accounted.p, completionTokens: accounted.c, totalTokens: accounted.t },
    modelServerUsage: { promptTokens: serverUsage.p, completionTokens: serverUsage.c, totalTokens: serverUsage.t },
    submissions: accounted.n,
    submissionsDone: accounted.done,
    tcpConnections: connectionsBy,
    datagrams: datagramsDuringRun.length,
  }
  const noOtherCall =
    verification.fetchesElsewhere === 0 &&
    !connectionsBy['elsewhere'] &&
    !connectionsBy['other local'] &&
    verification.datagrams === 0 &&
    fetchesToModel === runRequests.length + setupRequests &&
    runRequests.length === verification.requestsExpectedFromBatches &&
    verification.requestsWithProblems === 0 &&
    accounted.t === serverUsage.t &&
    accounted.p === serverUsage.p

  const oneChatPerBatch =
    rows.every((r) => r.chatRequests === r.batches) &&
    sum(rows.map((r) => sum(r.batchSizes))) === sum(rows.map((r) => r.submissions))
  // Headroom: one profile holding every fact of all the bench's profiles, and a synthetic maximal profile (hundreds of
  // long values in every list) to measure the compact profile at its character budget.
  const finals = new Map(statesAfterBatch.map((x) => [x.profileId, x.content]))
  const union = unionOf([...finals.values()])
  const unionValues =
    Object.values(union.interests).flat().length +
    union.personality.traits.length +
    union.preferences.topics_to_avoid.length
  const c0 = allCosts[0]!
  const fixedWithoutProfile =
    c0.systemTokens + c0.schemaTokens + c0.framingTokens + tok(JSON.stringify({ profile: '', submissions: [] }))
  const unionProfileTokens = tok(JSON.stringify(compactProfile(union))) - 2
  const unionFixed = fixedWithoutProfile + unionProfileTokens
  const tokensPerValue = round(
    (unionProfileTokens -
      tok(
        JSON.stringify(
          compactProfile({
            ...union,
            interests: {},
            personality: { ...union.personality, traits: [] },
            preferences: { ...union.preferences, topics_to_avoid: [] },
          }),
        ),
      ) +
      2) /
      Math.max(1, unionValues),
    1,
  )
  const headroom = {
    fixedWithoutProfile,
    profileTokensAvailable: FIXED_TARGET - 1 - fixedWithoutProfile,
    unionOfAllBenchProfiles: {
      compactProfile: compactProfile(union),
      listValues: unionValues,
      memoriesShown: Math.min(8, union.memories.length),
      compactProfileTokens: unionProfileTokens,
      fixedTokens: unionFixed,
    },
    tokensPerListValue: tokensPerValue,
    listValuesThatFitApprox: Math.floor((FIXED_TARGET - 1 - unionFixed) / tokensPerValue) + unionValues,
    worstCase: (() => {
      const big = emptyContent()
      big.core_info = {
        name: { value: 'Maximiliana Wolfeschlegelsteinhausen', confidence: 1 },
        age: { value: 99, confidence: 1 },
        gender: { value: 'female', confidence: 1 },
        location: { value: 'Llanfairpwllgwyngyll, Anglesey, Wales', confidence: 1 },
        occupation: { value: 'senior principal software architect', confidence: 1 },
      }
      for (let c = 0; c < 20; c++)
        big.interests[`category_number_${c}`] = Array.from({ length: 30 }, (_, i) => ({
          value: `an unusually long interest description ${c}-${i}`,
          confidence: 0.5 + (i % 5) / 10,
        }))
      big.personality.traits = Array.from({ length: 60 }, (_, i) => ({
        value: `thoughtful and meticulous trait ${i}`,
        confidence: 0.6,
      }))
      big.preferences.topics_to_avoid = Array.from({ length: 60 }, (_, i) => ({
        value: `sensitive subject number ${i}`,
        confidence: 0.6,
      }))
      big.preferences.conversation_style = { value: 'detailed and technical', confidence: 0.9 }
      big.memories = Array.from({ length: 100 }, (_, i) => ({
        event: `moved to a new city and started a new job, chapter ${i}`,
        date: '2020-01-01',
        confidence: 0.7,
      }))
      const profileTokens = tok(JSON.stringify(compactProfile(big))) - 2
      return { chars: compactProfile(big).length, profileTokens, fixedTokens: fixedWithoutProfile + profileTokens }
    })(),
  }
  // The summary inside the extraction request costs one rule line of the system prompt and one schema property.
  const firstChat = runRequests.find((r) => r.kind === 'chat')!
  const systemText = (firstChat.body.messages as { role: string; content: string }[])[0]!.content
  const summaryRule = systemText.split('\n').find((l) => l.startsWith('- summary:')) ?? ''
  const schemaNoSummary = structuredClone(firstChat.body.response_format.json_schema.schema)
  delete schemaNoSummary.properties.summary
  schemaNoSummary.required = schemaNoSummary.required.filter((k: string) => k !== 'summary')
  const inRequestSummary = {
    systemRuleTokens: tok(summaryRule) + 1,
    schemaTokens: c0.schemaTokens - tok(JSON.stringify(schemaNoSummary)),
  }
  const summaryMean = round(mean(summaryCosts.map((c) => c.promptTokens)), 0)
  const chatPerBatchMean = round(mean(allCosts.map((c) => c.promptTokens)), 0)
  const mem0Budget = MEM0_REPORTED_PROMPT_TOKENS_PER_ADD * MEM0_TARGET_FRACTION
  const mem0 = measuredMem0()
  const mem0MeasuredBudget = mem0 ? round(mem0.promptTokensPerAddMean * MEM0_TARGET_FRACTION, 0) : undefined
  const targets = {
    oneChatRequestPerBatch: { holds: oneChatPerBatch },
    burstAtMostTwoRequests: {
      holds: burstRows.every((r) => r.chatRequests <= 2),
      chatRequests: Object.fromEntries(burstRows.map((r) => [r.scenario, r.chatRequests])),
    },
    fixedPartUnder1500: { holds: fixedMax < FIXED_TARGET, max: fixedMax, target: FIXED_TARGET },
    atMostAFifthOfMem0: {
      holds: single.promptTokensPerSubmission <= mem0Budget,
      oursPerSingleSubmission: single.promptTokensPerSubmission,
      mem0Reported: MEM0_REPORTED_PROMPT_TOKENS_PER_ADD,
      ratio: round(single.promptTokensPerSubmission / MEM0_REPORTED_PROMPT_TOKENS_PER_ADD, 3),
      budget: mem0Budget,
      mem0Measured: mem0?.promptTokensPerAddMean ?? null,
      ratioToMeasured: mem0 ? round(single.promptTokensPerSubmission / mem0.promptTokensPerAddMean, 3) : null,
      budgetOfMeasured: mem0MeasuredBudget ?? null,
      holdsAgainstMeasured:
        mem0MeasuredBudget === undefined ? null : single.promptTokensPerSubmission <= mem0MeasuredBudget,
    },
    noOtherCall: { holds: noOtherCall },
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Output.

  const table = (header: string[], body: (string | number)[][]) => {
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)))
    const line = (r: (string | number)[]) =>
      r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ')
    return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')
  }
  console.log(
    `\nLLM cost of PROFILER_AI=openai (fake OpenAI-compatible server; tokens: o200k_base for chat, cl100k_base for embeddings)\n`,
  )
  console.log(
    table(
      [
        'scenario',
        'subs',
        'tok/sub',
        'chat req',
        'emb req',
        'chat/sub',
        'prompt tok',
        'prompt/sub',
        'prompt/sub tok',
        'fixed mean',
        'fixed max',
        'profile tok',
        'emb tok/sub',
      ],
      rows.map((r) => [
        r.scenario,
        r.submissions,
        r.submittedTokensPerSubmission,
        r.chatRequests,
        r.embeddingRequests,
        r.chatRequestsPerSubmission,
        r.chatPromptTokens,
        r.promptTokensPerSubmission,
        r.promptTokensPerSubmittedToken,
        r.fixedTokensMean,
        r.fixedTokensMax,
        `${r.profileTokensMin}-${r.profileTokensMax}`,
        r.embeddingTokensPerSubmission,
      ]),
    ),
  )
  console.log(
    `\nFixed part of a chat request = system ${c0.systemTokens} + schema ${c0.schemaTokens} (its JSON text: an approximation of how OpenAI bills it)` +
      ` + user JSON without submissions (compact profile + keys) + chat framing ${c0.framingTokens}; per submission add its text and ~${round(mean(rows.map((r) => r.envelopeTokensPerSubmission)), 0)} tokens of envelope (id, input_type).`,
  )
  console.log(
    `Burst batch sizes: ${burstRows.map((r) => `${r.scenario} [${r.batchSizes.join(', ')}]`).join('; ')} (model latency held at ${BURST_MODEL_LATENCY_MS} ms).`,
  )
  console.log(
    `Sequential growth (compact profile tokens per request): ${growth.map((g) => g.profileTokens).join(' -> ')}; fixed part ${growth[0]?.fixedTokens} -> ${growth.at(-1)?.fixedTokens}.`,
  )
  console.log(
    mem0
      ? `\nmem0: ${mem0.promptTokensPerAddMean} prompt tokens per add of the same ~20-token messages (${mem0.promptTokensPerAddMin}–${mem0.promptTokensPerAddMax},` +
          ` ${mem0.chatRequestsPerAdd} chat request per add) — measured by bench/mem0/mem0-baseline.ts (mem0ai ${mem0.mem0ai}, ${mem0.at}); about` +
          ` ${MEM0_REPORTED_PROMPT_TOKENS_PER_ADD} reported elsewhere. Ours per single submission: ${single.promptTokensPerSubmission}` +
          ` = ${round(single.promptTokensPerSubmission / mem0.promptTokensPerAddMean, 3)} of the measured figure,` +
          ` ${round(single.promptTokensPerSubmission / MEM0_REPORTED_PROMPT_TOKENS_PER_ADD, 3)} of the reported one (target <= ${MEM0_TARGET_FRACTION} = ${mem0MeasuredBudget} / ${mem0Budget}).`
      : `\nmem0: ${MEM0_REPORTED_PROMPT_TOKENS_PER_ADD} prompt tokens per add of a ~20-token message — reported for mem0's TypeScript SDK (not measured in this` +
          ` run: no bench/results/mem0-baseline.json; run npm run bench:mem0). Ours per single submission: ${single.promptTokensPerSubmission}` +
          ` = ${round(single.promptTokensPerSubmission / MEM0_REPORTED_PROMPT_TOKENS_PER_ADD, 3)} of it (target <= ${MEM0_TARGET_FRACTION} = ${mem0Budget}).`,
  )
  console.log(
    `Separate summary request (not made: the summary comes in the extraction request) would add ~${summaryMean} prompt tokens per batch` +
      ` (system ${summaryCosts[0]?.systemTokens} + schema ${summaryCosts[0]?.schemaTokens} + compact profile ${Math.min(...summaryCosts.map((c) => c.profileTokens))}-${Math.max(...summaryCosts.map((c) => c.profileTokens))} + framing)` +
      ` = +${round((100 * summaryMean) / chatPerBatchMean, 0)}% on the mean chat request (${chatPerBatchMean}), and a second request per batch.`,
  )
  console.log(
    `The summary inside the extraction request costs ~${inRequestSummary.systemRuleTokens + inRequestSummary.schemaTokens} prompt tokens per batch` +
      ` (rule line ${inRequestSummary.systemRuleTokens} + schema property ${inRequestSummary.schemaTokens}) plus its output tokens, which a separate request would also produce.`,
  )
  console.log(
    `Headroom: fixed part without profile ${fixedWithoutProfile} -> ${headroom.profileTokensAvailable} tokens left for the compact profile. A profile holding every fact of all` +
      ` ${finals.size} bench profiles (${unionValues} interests/traits/topics, ${headroom.unionOfAllBenchProfiles.memoriesShown} memories shown) takes ${unionProfileTokens} -> fixed ${unionFixed};` +
      ` a synthetic maximal profile (hundreds of long values) is cut to ${headroom.worstCase.chars} characters = ${headroom.worstCase.profileTokens} tokens -> fixed ${headroom.worstCase.fixedTokens}` +
      ` (the compact profile has a hard budget of ${COMPACT_PROFILE_MAX_CHARS} characters, so the fixed part stays under ${FIXED_TARGET} by construction).`,
  )
  console.log(
    `\nNo other call: ${noOtherCall ? 'yes' : 'NO'} — model server saw ${runRequests.length} requests (${runRequests.filter((r) => r.kind === 'chat').length} chat, ` +
      `${runRequests.filter((r) => r.kind === 'embeddings').length} embeddings; ${setupRequests} during setup), the process fetched it ${fetchesToModel} times, ` +
      `the service recorded ${totalBatches} batches (x2 = ${totalBatches * 2}); fetches elsewhere ${verification.fetchesElsewhere}; ` +
      `TCP connections ${JSON.stringify(connectionsBy)}; UDP datagrams ${verification.datagrams}; ` +
      `usage accounted by the service ${accounted.t} tokens = reported by the server ${serverUsage.t}.`,
  )
  console.log('\nTargets:')
  console.log(`  one chat request per batch ............ ${targets.oneChatRequestPerBatch.holds ? 'holds' : 'FAILS'}`)
  console.log(
    `  burst of 10 in <= 2 requests .......... ${targets.burstAtMostTwoRequests.holds ? 'holds' : 'FAILS'} (${burstRows.map((r) => `${r.scenario}: ${r.chatRequests}`).join(', ')})`,
  )
  console.log(
    `  fixed part < ${FIXED_TARGET} tokens ............. ${targets.fixedPartUnder1500.holds ? 'holds' : 'FAILS'} (max ${fixedMax})`,
  )
  console.log(
    `  <= 1/5 of mem0's reported 7,700 ....... ${targets.atMostAFifthOfMem0.holds ? 'holds' : 'FAILS'} (${single.promptTokensPerSubmission} vs ${mem0Budget})`,
  )
  if (mem0 && mem0MeasuredBudget !== undefined)
    console.log(
      `  ${`<= 1/5 of mem0 measured, ${mem0.promptTokensPerAddMean} `.padEnd(39, '.')} ${targets.atMostAFifthOfMem0.holdsAgainstMeasured ? 'holds' : 'FAILS'} (${single.promptTokensPerSubmission} vs ${mem0MeasuredBudget})`,
    )
  console.log(`  no call but the configured provider ... ${noOtherCall ? 'holds' : 'FAILS'}`)

  const out = path.join(here, 'results', 'llm-cost.json')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        method: {
          chatTokenizer:
            'o200k_base (gpt-tokenizer encodeChat, with chat framing) + JSON text of response_format schema (approximation)',
          embeddingTokenizer: 'cl100k_base',
          burstModelLatencyMs: BURST_MODEL_LATENCY_MS,
        },
        scenarios: rows,
        sequentialGrowth: growth,
        headroom,
        inRequestSummary,
        separateSummaryRequest: {
          meanPromptTokens: summaryMean,
          meanChatPromptTokensPerBatch: chatPerBatchMean,
          requests: summaryCosts,
        },
        mem0: mem0
          ? {
              measured: true,
              by: 'bench/mem0/mem0-baseline.ts (bench/results/mem0-baseline.json)',
              ...mem0,
              reportedPromptTokensPerAdd: MEM0_REPORTED_PROMPT_TOKENS_PER_ADD,
            }
          : {
              measured: false,
              reportedPromptTokensPerAdd: MEM0_REPORTED_PROMPT_TOKENS_PER_ADD,
              reason: 'no bench/results/mem0-baseline.json (run npm run bench:mem0)',
            },
        verification,
        targets,
        wallMs: Date.now() - started,
      },
      null,
      2,
    ) + '\n',
  )
  console.log(`\nWrote ${path.relative(process.cwd(), out)} in ${round((Date.now() - started) / 1000, 1)} s`)
}

/** Every fact of several profiles in one (first scalar wins, lists are concatenated without duplicates). */
function unionOf(contents: ProfileContent[]): ProfileContent {
  const u = emptyContent()
  const add = (list: { value: string; confidence: number }[], vs: { value: string; confidence: number }[]) => {
    for (const v of vs) if (!list.some((x) => x.value === v.value)) list.push(v)
  }
  for (const c of contents) {
    for (const [k, v] of Object.entries(c.core_info)) (u.core_info as Record<string, unknown>)[k] ??= v
    for (const [cat, vs] of Object.entries(c.interests)) add((u.interests[cat] ??= []), vs)
    add(u.personality.traits, c.personality.traits)
    u.personality.mood_trends.recent ??= c.personality.mood_trends.recent
    add(u.preferences.topics_to_avoid, c.preferences.topics_to_avoid)
    u.preferences.conversation_style ??= c.preferences.conversation_style
    u.memories.push(...c.memories)
  }
  return u
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)

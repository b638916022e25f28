// mem0's open-source TypeScript SDK (`mem0ai/oss`, `Memory.add`) on the same ~20-token messages as the `single`
// scenario of bench/llm-cost.ts, against the same fake OpenAI-compatible server, counted the same way. npm run
// bench:mem0   (installs mem0ai + better-sqlite3 into bench/mem0 the first time; writes
// bench/results/mem0-baseline.json) Needs the dev dependencies mem0ai and better-sqlite3 (a native addon that
// mem0ai/oss imports at load).
//
// mem0 is configured with its `openai` LLM and embedder pointed at the fake server, the SQLite-backed `memory` vector
// store and its default SQLite history, all in a temp dir (MEM0_DIR too, so nothing is written under ~/.mem0), and
// with telemetry off (MEM0_TELEMETRY=false, set before mem0ai/oss is loaded).
//
// Scenarios: single      the 20 SINGLES of bench/llm-cost.ts, each added for its own userId (as each goes to its own
// profile there) sequential  the 10 SEQUENTIAL messages of bench/llm-cost.ts added for ONE userId (a lower bound, see
// below)
//
// The fake server's "model" answers in Profiler's format, not mem0's: for mem0's extraction request (response_format
// json_object, no schema) it answers with a plain-text summary, which mem0 cannot parse as JSON. mem0 then logs the
// parse error and extracts nothing, so `add` resolves with no memory. What is measured is what mem0 SENT, which does
// not depend on the answer for everything up to and including the extraction request. See `steps` in the output.
//
// Tokens are counted with gpt-tokenizer exactly as bench/llm-cost.ts counts Profiler's requests:
// chat        o200k_base: encodeChat of the messages (with chat framing) + the JSON text of response_format's
//               json_schema.schema (mem0 sends `{ type: 'json_object' }`, which has none) + the JSON text of `tools`.
//   embeddings  cl100k_base over the input strings.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { encode as encodeEmbedding } from 'gpt-tokenizer/encoding/cl100k_base'
import { encode, encodeChat } from 'gpt-tokenizer/model/gpt-4o'
import type { Memory as Mem0Memory } from 'mem0ai/oss'
import { startOpenAIServer, type RecordedRequest } from '../../test/support/openai-server.js'
import { SEQUENTIAL, SINGLES } from '../messages.js'
import { watchNetwork } from '../../test/support/network-watch.js'

const here = path.dirname(new URL(import.meta.url).pathname)
/** The figure reported elsewhere for mem0's TypeScript SDK, kept as context. */
const MEM0_REPORTED_PROMPT_TOKENS_PER_ADD = 7700

const tok = (s: string) => encode(s).length
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : 0)

interface ChatCost {
  seq: number
  systemTokens: number
  userTokens: number
  /** The added message itself, as the text the caller passed. */
  messageTokens: number
  framingTokens: number
  schemaTokens: number
  toolsTokens: number
  /** Everything except the message: the whole prompt minus messageTokens. */
  fixedTokens: number
  promptTokens: number
  responseFormat: string
}

function chatCost(r: RecordedRequest, message: string): ChatCost {
  const messages = r.body.messages as { role: 'system' | 'user' | 'assistant'; content: string }[]
  const text = (role: string) =>
    messages
      .filter((m) => m.role === role)
      .map((m) => m.content)
      .join('\n')
  const systemTokens = tok(text('system'))
  const userTokens = tok(text('user')) + tok(text('assistant'))
  const chat = encodeChat(messages).length
  const schema = r.body.response_format?.json_schema?.schema
  const schemaTokens = schema ? tok(JSON.stringify(schema)) : 0
  const toolsTokens = r.body.tools ? tok(JSON.stringify(r.body.tools)) : 0
  const promptTokens = chat + schemaTokens + toolsTokens
  const messageTokens = tok(message)
  return {
    seq: r.seq,
    systemTokens,
    userTokens,
    messageTokens,
    framingTokens: chat - systemTokens - userTokens,
    schemaTokens,
    toolsTokens,
    fixedTokens: promptTokens - messageTokens,
    promptTokens,
    responseFormat: r.body.response_format?.type ?? 'none',
  }
}

const embeddingTokens = (r: RecordedRequest) => {
  const input = r.body.input as string | string[]
  return (Array.isArray(input) ? input : [input]).reduce((n, t) => n + encodeEmbedding(t).length, 0)
}

/** console.error / console.warn lines printed by mem0 while `fn` runs, kept instead of printed. */
async function quiet<T>(logs: string[], fn: () => Promise<T>): Promise<T> {
  const { error, warn } = console
  console.error = (...a: unknown[]) =>
    void logs.push(a.map((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x))).join(' '))
  console.warn = console.error
  try {
    return await fn()
  } finally {
    console.error = error
    console.warn = warn
  }
}

async function main() {
  const started = Date.now()
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-mem0-baseline-'))
  process.env.MEM0_TELEMETRY = 'false'
  process.env.MEM0_DIR = path.join(tmp, 'mem0-dir')
  const watch = watchNetwork()
  const oa = await startOpenAIServer()
  const { Memory } = await import('mem0ai/oss')
  const mem0Version = (
    JSON.parse(fs.readFileSync(path.join(here, 'node_modules', 'mem0ai', 'package.json'), 'utf8')) as {
      version: string
    }
  ).version
  const sqliteVersion = (
    JSON.parse(fs.readFileSync(path.join(here, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as {
      version: string
    }
  ).version

  const memory: Mem0Memory = new Memory({
    llm: { provider: 'openai', config: { apiKey: 'k', model: 'test-chat', baseURL: oa.url } },
    embedder: { provider: 'openai', config: { apiKey: 'k', model: 'test-embed-small', baseURL: oa.url } },
    vectorStore: {
      provider: 'memory',
      config: { collectionName: 'memories', dimension: 64, dbPath: path.join(tmp, 'vector_store.db') },
    },
    historyDbPath: path.join(tmp, 'history.db'),
  })

  interface Add {
    scenario: string
    userId: string
    message: string
    requests: RecordedRequest[]
    logs: string[]
    result?: number
    error?: string
  }
  const adds: Add[] = []
  const add = async (scenario: string, userId: string, message: string) => {
    const mark = oa.requests.length
    const logs: string[] = []
    const a: Add = { scenario, userId, message, requests: [], logs }
    try {
      const res = await quiet(logs, () => memory.add(message, { userId }))
      a.result = res.results.length
    } catch (e) {
      a.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
    }
    a.requests = oa.requests.slice(mark)
    adds.push(a)
  }

  // Initialisation (no request expected: the dimension is given, telemetry is off).
  await quiet([], async () => {
    await (memory as unknown as { _ensureInitialized(): Promise<void> })._ensureInitialized()
  })
  const setupRequests = oa.requests.length

  for (const [i, m] of SINGLES.entries()) await add('single', `single-${String(i + 1).padStart(2, '0')}`, m)
  for (const m of SEQUENTIAL) await add('sequential', 'sequential', m)

  const runRequests = oa.requests.slice(setupRequests)
  watch.stop()
  await oa.close()
  fs.rmSync(tmp, { recursive: true, force: true })

  // ---------------------------------------------------------------------------------------------------------------
  const scenarios = ['single', 'sequential'].map((name) => {
    const as = adds.filter((a) => a.scenario === name)
    const perAdd = as.map((a) => {
      const chat = a.requests.filter((r) => r.kind === 'chat')
      const emb = a.requests.filter((r) => r.kind === 'embeddings')
      const costs = chat.map((r) => chatCost(r, a.message))
      return {
        userId: a.userId,
        messageTokens: tok(a.message),
        chatRequests: chat.length,
        embeddingRequests: emb.length,
        otherRequests: a.requests.length - chat.length - emb.length,
        promptTokens: sum(costs.map((c) => c.promptTokens)),
        embeddingTokens: sum(emb.map(embeddingTokens)),
        memoriesAdded: a.result ?? 0,
        threw: a.error,
        logged: a.logs,
        chat: costs,
      }
    })
    const prompts = perAdd.map((p) => p.promptTokens)
    const costs = perAdd.flatMap((p) => p.chat)
    return {
      scenario: name,
      adds: as.length,
      messageTokensPerAdd: round(mean(perAdd.map((p) => p.messageTokens)), 1),
      chatRequestsPerAdd: round(mean(perAdd.map((p) => p.chatRequests)), 2),
      embeddingRequestsPerAdd: round(mean(perAdd.map((p) => p.embeddingRequests)), 2),
      promptTokensPerAddMean: round(mean(prompts), 0),
      promptTokensPerAddMin: Math.min(...prompts),
      promptTokensPerAddMax: Math.max(...prompts),
      promptTokensPerMessageToken: round(sum(prompts) / sum(perAdd.map((p) => p.messageTokens)), 1),
      systemTokens: [...new Set(costs.map((c) => c.systemTokens))],
      userTokensMin: Math.min(...costs.map((c) => c.userTokens)),
      userTokensMax: Math.max(...costs.map((c) => c.userTokens)),
      fixedTokensMean: round(mean(costs.map((c) => c.fixedTokens)), 0),
      responseFormats: [...new Set(costs.map((c) => c.responseFormat))],
      embeddingTokensPerAdd: round(mean(perAdd.map((p) => p.embeddingTokens)), 0),
      addsThatThrew: perAdd.filter((p) => p.threw).length,
      addsThatLoggedAParseError: perAdd.filter((p) => p.logged.some((l) => /pars/i.test(l))).length,
      memoriesAdded: sum(perAdd.map((p) => p.memoriesAdded)),
      perAdd,
    }
  })
  const single = scenarios.find((s) => s.scenario === 'single')!
  const sequential = scenarios.find((s) => s.scenario === 'sequential')!

  // Profiler's figures, from bench/llm-cost.ts.
  const profilerFile = path.join(here, '..', 'results', 'llm-cost.json')
  let profiler: { at: string; single: number; sequential?: number } | undefined
  if (fs.existsSync(profilerFile)) {
    const j = JSON.parse(fs.readFileSync(profilerFile, 'utf8')) as {
      at: string
      scenarios: { scenario: string; promptTokensPerSubmission: number }[]
    }
    const per = (n: string) => j.scenarios.find((s) => s.scenario === n)?.promptTokensPerSubmission
    if (per('single') !== undefined) profiler = { at: j.at, single: per('single')!, sequential: per('sequential') }
  }

  const oaPort = Number(new URL(oa.url).port)
  const elsewhere = watch.connections.filter(
    (c) => c.port !== oaPort || !['127.0.0.1', 'localhost', '::1'].includes(c.host),
  )
  const fetchesElsewhere = watch.fetches.filter((f) => !f.startsWith(new URL(oa.url).origin))
  const firstLog = adds.flatMap((a) => a.logs)[0]

  // ---------------------------------------------------------------------------------------------------------------
  const fmt = (n: number) => n.toLocaleString('en-US')
  console.log(
    `mem0ai ${mem0Version} (mem0ai/oss Memory.add), better-sqlite3 ${sqliteVersion}; o200k_base with chat framing.\n`,
  )
  console.log(
    '| scenario | adds | msg tok / add | chat req / add | emb req / add | prompt tok / add mean | min | max | system prompt | user message |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const s of scenarios) {
    console.log(
      `| ${s.scenario} | ${s.adds} | ${s.messageTokensPerAdd} | ${s.chatRequestsPerAdd} | ${s.embeddingRequestsPerAdd} | ${fmt(s.promptTokensPerAddMean)} | ` +
        `${fmt(s.promptTokensPerAddMin)} | ${fmt(s.promptTokensPerAddMax)} | ${s.systemTokens.join('/')} | ${s.userTokensMin}–${s.userTokensMax} |`,
    )
  }
  console.log(
    `\nSteps reached per add: query embedding (1 embeddings request) -> vector search -> additive extraction (1 chat request,` +
      ` response_format ${single.responseFormats.join('/')}, ${single.systemTokens.join('/')}-token system prompt). The fake model's answer is not mem0's JSON:` +
      ` ${single.addsThatLoggedAParseError + sequential.addsThatLoggedAParseError}/${adds.length} adds logged a parse error${firstLog ? ` ("${firstLog.slice(0, 80)}")` : ''},` +
      ` ${single.addsThatThrew + sequential.addsThatThrew} threw, ${single.memoriesAdded + sequential.memoriesAdded} memories were added.` +
      ` Not reached: embedding the extracted memories and their entities (embeddings only: mem0ai ${mem0Version}'s add makes ONE LLM call, there is no separate update/decision step).`,
  )
  console.log(
    `Sequential (one userId) is a lower bound: mem0 puts the last 10 messages of the session (from its history store) in the prompt,` +
      ` but its "Existing Memories" stayed empty here because nothing was extracted; with a real model they would add up to 10 memories per request.`,
  )
  if (profiler) {
    console.log(
      `\n| per ~20-token message | Profiler (bench/results/llm-cost.json, ${profiler.at}) | mem0 (measured) | Profiler / mem0 |`,
    )
    console.log('|---|---:|---:|---:|')
    console.log(
      `| single: prompt tokens | ${fmt(profiler.single)} | ${fmt(single.promptTokensPerAddMean)} | ${round(profiler.single / single.promptTokensPerAddMean, 3)} |`,
    )
    if (profiler.sequential !== undefined)
      console.log(
        `| sequential: prompt tokens | ${fmt(profiler.sequential)} | >= ${fmt(sequential.promptTokensPerAddMean)} | <= ${round(profiler.sequential / sequential.promptTokensPerAddMean, 3)} |`,
      )
  } else console.log('\nNo bench/results/llm-cost.json: run `npx tsx bench/llm-cost.ts` for the Profiler side.')
  console.log(
    `\nReported elsewhere: about ${fmt(MEM0_REPORTED_PROMPT_TOKENS_PER_ADD)} prompt tokens per add; measured here: ${fmt(single.promptTokensPerAddMean)}` +
      ` (${single.promptTokensPerAddMin}–${single.promptTokensPerAddMax}).`,
  )
  console.log(
    `Network: ${runRequests.length} requests reached the fake server (${setupRequests} during initialisation) over ${watch.connections.length - elsewhere.length} TCP connection(s);` +
      ` connections elsewhere ${elsewhere.length}, fetches elsewhere ${fetchesElsewhere.length}.`,
  )
  if (elsewhere.length || fetchesElsewhere.length) console.error('unexpected network use', elsewhere, fetchesElsewhere)

  const out = path.join(here, '..', 'results', 'mem0-baseline.json')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        versions: { mem0ai: mem0Version, 'better-sqlite3': sqliteVersion },
        method: {
          chatTokenizer:
            'o200k_base (gpt-tokenizer encodeChat, with chat framing) + JSON text of response_format json_schema.schema and tools, when sent',
          embeddingTokenizer: 'cl100k_base',
          config:
            "llm openai + embedder openai -> fake server; vectorStore 'memory' (SQLite) dimension 64; default SQLite history; MEM0_TELEMETRY=false",
        },
        reportedPromptTokensPerAdd: MEM0_REPORTED_PROMPT_TOKENS_PER_ADD,
        stepsReached: ['query embedding', 'vector search', 'additive extraction (the only LLM call of add)'],
        stepsNotReached: ['embedding of the extracted memories', 'entity embeddings and linking'],
        profiler: profiler ?? null,
        ratioProfilerOverMem0: profiler ? { single: round(profiler.single / single.promptTokensPerAddMean, 3) } : null,
        scenarios,
        network: {
          requests: runRequests.length,
          setupRequests,
          connectionsToModelServer: watch.connections.length - elsewhere.length,
          connectionsElsewhere: elsewhere,
          fetchesElsewhere,
        },
        wallMs: Date.now() - started,
      },
      null,
      2,
    ) + '\n',
  )
  console.log(`\nWrote ${path.relative(process.cwd(), out)} in ${round((Date.now() - started) / 1000, 1)} s`)
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  },
)

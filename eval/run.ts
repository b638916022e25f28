// `npm run eval`: extraction and search quality on the labelled persona-dev data (docs/evaluation.md).
// Service mode (the official figures): starts the whole service in this process on a temporary embedded database
// (or DATABASE_URL when set), submits over REST, waits for `ready`, scores. `--direct` calls the configured extractor
// and embedder in process, without the service, for quick iterations during development.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAiProviders } from '../src/ai/index.js'
import { profileText } from '../src/ai/profile-text.js'
import type { AiProviders } from '../src/ai/types.js'
import { startProfiler } from '../src/app.js'
import { loadConfig, type Config } from '../src/config.js'
import { merge } from '../src/domain/merge.js'
import { emptyState, type ProfileContent, type ProfileState } from '../src/domain/profile.js'
import { tokenCounter } from '../src/ai/profile-context.js'
import { composeTask, rankContext } from '../src/services/cpu/cpu-tasks.js'
import { MAX_EMBEDDED_FACTS } from '../src/services/profile-context.service.js'
import { chatHalf, chatProblem, runChat, type ChatBackend, type ChatProfile } from './chat.js'
import {
  Bm25,
  bm25Turns,
  conversationJson,
  CoverageCounter,
  covered,
  longHistories,
  newestTurns,
  personaFacts,
  questionOf,
  sessionsOf,
  speakerTurns,
  textWords,
  type Coverage,
  type MemoryPerson,
  type MscRecord,
} from './memory.js'
import { buildQueries, unrelatedQueries, type SearchQuery, type Triple } from './queries.js'
import {
  addScores,
  buildTable,
  extractedValues,
  rankingMetrics,
  sample,
  scoreProfile,
  sectionOf,
  type ExtractedValue,
  type FieldCounts,
  type GoldFact,
  type Table,
} from './score.js'

const HERE = path.dirname(fileURLToPath(import.meta.url))
/** The labelled data is not in the repository: PROFILER_EVAL_DATA names its folder, else eval/data/persona-dev. */
const DATA_DIR = process.env.PROFILER_EVAL_DATA ?? path.join(HERE, 'data', 'persona-dev')
/** Multi-Session Chat (the memory task): beside the persona data unless PROFILER_EVAL_MSC_DATA says otherwise. */
const MSC_DIR = process.env.PROFILER_EVAL_MSC_DATA ?? path.join(path.dirname(path.resolve(DATA_DIR)), 'msc-dev')
/** The memory task's sessions are dated back from this: the last session of every conversation took place then. */
const MEMORY_REFERENCE = '2024-03-01T12:00:00.000Z'
const DEFAULT_SENSITIVITY = 63

// ---------- options ----------

const TASKS = ['text', 'conversation', 'search', 'memory', 'chat'] as const
type Task = (typeof TASKS)[number]
/** What a run without --only measures: every task (chat adds about half a minute in service mode). */
const DEFAULT_TASKS: readonly Task[] = ['text', 'conversation', 'search', 'memory', 'chat']
interface Options {
  sample: number
  /** Chat task: conversations sampled from the half (two speakers each); --sample lowers it; 0: all. */
  chatSample: number
  seed: number
  only?: Task
  direct: boolean
  out: string
  queries: number
  concurrency: number
  /** Only one half of the personas (see personaHalf): rules are tuned on one half and checked on the other. */
  half?: 'tuning' | 'held-out'
  /**
   * Memory task: the context budgets measured (tokens): 500, and 150, since a speaker here says about
   * 440 tokens in all.
   */
  memoryBudgets: number[]
  /** Memory task: conversations joined into one person's long history (longHistories); 0: none. */
  memoryLong: number
  /**
   * Memory task: each fact's topic asked as a question (questionOf: "What did they say about their son?"), not as the
   * bare word.
   */
  memoryQuestion: boolean
  /**
   * Memory task: a JSON Lines file of every topic query's outcome, with the service's and BM25's texts (for reading
   * misses).
   */
  memoryDump?: string
  /** Memory task: only the long histories (--memory-long), not the speakers one by one. */
  memoryLongOnly: boolean
  /** Text and conversation: profiles with misses or false positives kept in the results file (Infinity: all). */
  examples: number
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    sample: Infinity,
    chatSample: 100,
    seed: 1,
    direct: false,
    out: path.join(HERE, 'results', 'latest.json'),
    queries: 300,
    concurrency: 16,
    memoryBudgets: [500, 150],
    memoryLong: 12,
    memoryQuestion: false,
    memoryLongOnly: false,
    examples: 25,
  }
  const num = (name: string, v: string | undefined) => {
    const n = Number(v)
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a non-negative integer, got '${v}'`)
    return n
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined]
    const val = () => inline ?? argv[++i]
    switch (flag) {
      case '--sample':
        o.sample = num('--sample', val()) || Infinity
        break
      case '--chat-sample':
        o.chatSample = num('--chat-sample', val()) || Infinity
        break
      case '--seed':
        o.seed = num('--seed', val())
        break
      case '--queries':
        o.queries = num('--queries', val())
        break
      case '--concurrency':
        o.concurrency = Math.max(1, num('--concurrency', val()))
        break
      case '--out':
        o.out = path.resolve(val()!)
        break
      case '--direct':
        o.direct = true
        break
      case '--memory-budgets': {
        const v = val() ?? ''
        o.memoryBudgets = v
          .split(',')
          .map((x) => num('--memory-budgets', x.trim()))
          .filter((n) => n > 0)
        if (!o.memoryBudgets.length) throw new Error(`--memory-budgets needs token budgets, e.g. 500,150; got '${v}'`)
        break
      }
      case '--examples':
        o.examples = num('--examples', val()) || Infinity
        break
      case '--memory-question':
        o.memoryQuestion = true
        break
      case '--memory-long-only':
        o.memoryLongOnly = true
        break
      case '--memory-dump':
        o.memoryDump = path.resolve(val()!)
        break
      case '--memory-long': {
        const k = num('--memory-long', val())
        if (k === 1) throw new Error('--memory-long joins at least 2 conversations into one history (0: none)')
        o.memoryLong = k
        break
      }
      case '--half': {
        const h = val()
        if (h !== 'tuning' && h !== 'held-out') throw new Error(`--half takes tuning or held-out, got '${h}'`)
        o.half = h
        break
      }
      case '--only': {
        const t = val()
        if (!(TASKS as readonly string[]).includes(t ?? ''))
          throw new Error(`--only takes ${TASKS.join(', ')}, got '${t}'`)
        o.only = t as Task
        break
      }
      case '--help':
      case '-h':
        process.stdout.write(
          'npm run eval -- [--sample N] [--seed S] [--only text|conversation|search|memory|chat] ' +
            '[--half tuning|held-out] [--direct] [--out file] [--queries N] [--concurrency N] [--chat-sample N] ' +
            '[--memory-budgets 500,150] [--memory-long 12] [--memory-question] [--memory-long-only] ' +
            '[--memory-dump file] [--examples N]\n' +
            '  --sample: records for text, conversation and search; conversations for memory and chat\n' +
            '  --chat-sample: conversations of the chat task (default 100, two speakers each; 0: all of the half)\n' +
            '  --memory-long: the memory task also joins this many conversations into one long history a person (0: none)\n' +
            '  --memory-question: the memory task asks each topic as a question ("What did they say about their son?"), as the held-out benchmark does\n' +
            '  --memory-long-only: the memory task measures only the long histories\n' +
            "  --memory-dump: the memory task writes every topic query's outcome, with the service's and BM25's texts, to this JSON Lines file\n" +
            '  --examples: text and conversation profiles with misses or false positives kept in the results file ' +
            '(default 25; 0: all)\n',
        )
        return process.exit(0)
      default:
        throw new Error(`unknown option ${a} (try --help)`)
    }
  }
  if (o.memoryLongOnly && !o.memoryLong)
    throw new Error('--memory-long-only needs long histories (--memory-long of 2 or more)')
  return o
}

// ---------- data ----------

interface RawRecord {
  id: string
  speaker: string
  persona_sentences: string[]
  gold_persona_triples: { subject: string; relation: string; object: string; profile_field: string }[]
  own_utterances: string[]
  utterance_triples_dnli: { turn_idx: number; text: string; triples: [string, string, string][] }[]
  dialogue: { idx: number; speaker: string; text: string }[]
}

interface EvalRecord {
  id: string
  raw: RawRecord
  /** The dialogue speaker ('A' | 'B') who is this record's person, found by matching own_utterances. */
  dialogueSpeaker: string
  textGold: GoldFact[]
  convGold: GoldFact[]
  /** The other speaker's facts in the same dialogue (their utterance triples). */
  otherConvGold: GoldFact[]
}

/** Stops with a message that says where the data is looked for and how to point elsewhere. */
function requireData(dir: string, variable: string) {
  if (fs.existsSync(dir)) return
  throw new Error(
    `no evaluation data in ${dir}: set ${variable} to its folder, or link it there ` +
      '(see docs/evaluation/quality.md#the-data)',
  )
}

function loadData() {
  requireData(DATA_DIR, 'PROFILER_EVAL_DATA')
  const rel = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'relation-to-field.json'), 'utf8')) as {
    fields: Record<string, string[]>
  }
  // A relation listed under several fields counts for the scored one (previous_profession: occupation, not memories).
  const relField = new Map<string, string>()
  for (const [field, rels] of Object.entries(rel.fields)) {
    for (const r of rels)
      if (!relField.has(r) || (!sectionOf(relField.get(r)!) && sectionOf(field))) relField.set(r, field)
  }
  const raws = fs
    .readFileSync(path.join(DATA_DIR, 'convai2-valid-speakers.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RawRecord)
  const dialogueKey = (id: string) => id.replace(/_(partner|self)$/, '')
  const convFacts = (r: RawRecord): GoldFact[] =>
    r.utterance_triples_dnli.flatMap((u) =>
      u.triples
        .filter(([s, rl]) => s === 'i' && relField.has(rl))
        .map(([, rl, o]) => ({ field: relField.get(rl)!, object: o })),
    )
  const byDialogue = new Map<string, RawRecord[]>()
  for (const r of raws) byDialogue.set(dialogueKey(r.id), [...(byDialogue.get(dialogueKey(r.id)) ?? []), r])
  const records: EvalRecord[] = raws.map((r) => {
    const own = new Set(r.own_utterances)
    const count = new Map<string, number>()
    for (const d of r.dialogue) if (own.has(d.text)) count.set(d.speaker, (count.get(d.speaker) ?? 0) + 1)
    const dialogueSpeaker = [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'A'
    const other = (byDialogue.get(dialogueKey(r.id)) ?? []).filter((x) => x.id !== r.id)
    return {
      id: r.id,
      raw: r,
      dialogueSpeaker,
      textGold: r.gold_persona_triples
        .filter((t) => t.subject === 'i')
        .map((t) => ({ field: t.profile_field, object: t.object })),
      convGold: convFacts(r),
      otherConvGold: other.flatMap(convFacts),
    }
  })
  return { records, raws }
}

/**
 * Each persona appears in about 17 records, so a split by record would leak: the halves are by persona (a hash of its
 * sentences). Rules are tuned on `tuning` and checked on `held-out`, whose figures are the ones to expect on new text.
 */
export function personaHalf(r: Pick<RawRecord, 'persona_sentences'>): 'tuning' | 'held-out' {
  const h = crypto
    .createHash('sha256')
    .update([...r.persona_sentences].sort().join('\n'))
    .digest()
  return h[0]! % 2 === 0 ? 'tuning' : 'held-out'
}

const textOf = (r: EvalRecord) => r.raw.persona_sentences.join(' ')

/** The dialogue as a JSON conversation: the record's person is "user", the other speaker "partner". */
const conversationOf = (r: EvalRecord) =>
  JSON.stringify(
    r.raw.dialogue.map((d) => ({ role: d.speaker === r.dialogueSpeaker ? 'user' : 'partner', content: d.text })),
  )

// ---------- helpers ----------

async function pool<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i]!, i)
      }
    }),
  )
  return out
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? '   -  ' : (x * 100).toFixed(1).padStart(5) + '%'

// ---------- the two ways of getting profiles ----------

interface SearchHit {
  ids: string[]
  total: number
}

/** Memory task: one profile's sessions, oldest first, each posted as one conversation. */
interface SessionItem {
  profileId: string
  sessions: { data: string; at: string }[]
}

/** Chat task: one profile's submissions, oldest first. */
type OrderedItem = Parameters<ChatBackend['buildInOrder']>[0][number]

interface Backend {
  provider: string
  /** Builds the profiles (text or conversation input) and returns their content by profile id. */
  build(
    items: { profileId: string; data: string; inputType: 'text' | 'conversation' }[],
    log: (s: string) => void,
  ): Promise<Map<string, ProfileContent>>
  search(query: string): Promise<SearchHit>
  /** Whether submissions can carry `occurred_at` (the time the text was said), and how that was found out. */
  probeOccurredAt(at: string): Promise<{ supported: boolean; detail: string }>
  /**
   * Posts each profile's sessions in order (the next once the previous is accepted), then waits until all are ready.
   */
  buildSessions(items: SessionItem[], sendTimes: boolean, log: (s: string) => void): Promise<{ failed: string[] }>
  /**
   * Chat task: posts each profile's submissions in order (the next once the previous is accepted), waits until all are
   * ready, and returns each profile as GET /v1/profile/{id} returns it.
   */
  buildInOrder: ChatBackend['buildInOrder']
  /** The profile's context for an LLM: GET /v1/profile/{id}/context?max_tokens=&query=. */
  context(profileId: string, maxTokens: number, query?: string): Promise<{ text: string; tokens: number }>
  close(): Promise<void>
}

async function serviceBackend(opts: Options): Promise<Backend> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-eval-'))
  const config: Config = loadConfig({
    PROFILER_WORKER_CONCURRENCY: '16',
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PROFILER_DATA_DIR: tmp,
    PROFILER_BOOTSTRAP: 'true',
    LOG_LEVEL: process.env.EVAL_LOG_LEVEL ?? 'warn',
    // the harness is the only client of this instance
    PROFILER_RATE_LIMIT_PER_MINUTE: '100000000',
    // The harness shares the service's process and event loop: with a keep-alive of seconds, the service may reset a
    // connection just as fetch reuses it when the process is busy. A long one leaves closing idle connections to fetch.
    PROFILER_KEEPALIVE_TIMEOUT_MS: '600000',
  })
  const profiler = await startProfiler(config, { role: 'all' })
  const base = profiler.url!
  const key = profiler.bootstrapKey
  if (!key) {
    await profiler.close()
    throw new Error(
      'the service issued no bootstrap key (the database is not new: unset DATABASE_URL or point it at an empty database)',
    )
  }
  const auth = { authorization: `Bearer ${key}` }
  const request = async (url: string, init?: RequestInit, attempt = 0): Promise<Response> => {
    const r = await fetch(url, init)
    if ((r.status === 429 || r.status >= 500) && attempt < 5) {
      await r.arrayBuffer()
      await sleep(200 * 2 ** attempt)
      return request(url, init, attempt + 1)
    }
    return r
  }
  /** Polls until every profile is ready (or failed); their content by id. */
  const waitReady = async (ids: string[], t0: number, log: (s: string) => void) => {
    const done = new Map<string, ProfileContent & { status: string }>()
    let pending = ids
    const deadline = Date.now() + 60 * 60 * 1000
    while (pending.length) {
      const still: string[] = []
      await pool(pending, opts.concurrency, async (id) => {
        const r = await request(`${base}/v1/profile/${encodeURIComponent(id)}`, { headers: auth })
        if (r.status !== 200) throw new Error(`GET ${id}: ${r.status} ${await r.text()}`)
        const p = ((await r.json()) as { profile: ProfileContent & { status: string } }).profile
        if (p.status === 'ready') done.set(id, p)
        else if (p.status === 'failed') {
          log(`  ${id}: processing failed`)
          done.set(id, p)
        } else still.push(id)
      })
      pending = still
      if (pending.length) {
        if (Date.now() > deadline) throw new Error(`${pending.length} profiles not ready after an hour`)
        log(`  ready ${done.size}/${ids.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`)
        await sleep(Math.min(5000, 500 + pending.length * 2))
      }
    }
    log(`  all ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    return done
  }
  const post = (profileId: string, body: Record<string, unknown>) =>
    request(`${base}/v1/profile/${encodeURIComponent(profileId)}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  /** Posts each profile's submissions in order, the next once the previous is accepted; the count posted. */
  const postInOrder = async (items: OrderedItem[], sendTimes: boolean) => {
    let posted = 0
    await pool(items, opts.concurrency, async (it) => {
      for (const s of it.submissions) {
        const r = await post(it.profileId, {
          data: s.data,
          input_type: s.inputType,
          ...(sendTimes ? { occurred_at: s.at } : {}),
        })
        if (r.status !== 202) throw new Error(`POST ${it.profileId}: ${r.status} ${await r.text()}`)
        await r.arrayBuffer().catch(() => undefined)
        posted++
      }
    })
    return posted
  }
  return {
    provider: config.ai === 'openai' ? `openai (${config.openai.chatModel}, ${config.openai.embeddingModel})` : 'local',
    async probeOccurredAt(at) {
      // A service that knows the field refuses a malformed one naming it; one that does not either refuses the field
      // (400 naming it) or drops it silently (202 to the malformed value too): only the first case sends times.
      const id = 'eval-probe-occurred-at'
      const names = (body: string) => /occurred_at/i.test(body)
      try {
        const valid = await post(id, { data: 'I live in Porto.', input_type: 'text', occurred_at: at })
        const vBody = await valid.text()
        if (valid.status !== 202) {
          if (valid.status === 400 && names(vBody))
            return { supported: false, detail: `a valid occurred_at was refused: 400 ${vBody.slice(0, 200)}` }
          throw new Error(`occurred_at probe: ${valid.status} ${vBody.slice(0, 200)}`)
        }
        const bad = await post(id, { data: 'I live in Porto.', input_type: 'text', occurred_at: 'not a time' })
        const bBody = await bad.text()
        if (bad.status === 400 && names(bBody))
          return {
            supported: true,
            detail: 'a valid occurred_at was accepted (202) and a malformed one refused naming it (400)',
          }
        return { supported: false, detail: `a malformed occurred_at was answered ${bad.status}: the field is ignored` }
      } finally {
        const d = await request(`${base}/v1/profile/${id}`, { method: 'DELETE', headers: auth })
        await d.arrayBuffer().catch(() => undefined)
      }
    },
    async buildSessions(items, sendTimes, log) {
      const t0 = Date.now()
      const posted = await postInOrder(
        items.map((it) => ({
          profileId: it.profileId,
          submissions: it.sessions.map((s) => ({ ...s, inputType: 'conversation' as const })),
        })),
        sendTimes,
      )
      log(`  submitted ${posted} sessions of ${items.length} profiles in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      const done = await waitReady(
        items.map((i) => i.profileId),
        t0,
        log,
      )
      return { failed: [...done].filter(([, p]) => p.status === 'failed').map(([id]) => id) }
    },
    async buildInOrder(items, sendTimes, log) {
      const t0 = Date.now()
      const posting = items.filter((it) => it.submissions.length)
      const posted = await postInOrder(posting, sendTimes)
      log(
        `  submitted ${posted} submissions of ${posting.length} profiles in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      )
      return waitReady(
        posting.map((i) => i.profileId),
        t0,
        log,
      )
    },
    async context(profileId, maxTokens, query) {
      const qs = new URLSearchParams({ max_tokens: String(maxTokens), ...(query ? { query } : {}) })
      const r = await request(`${base}/v1/profile/${encodeURIComponent(profileId)}/context?${qs}`, { headers: auth })
      if (r.status !== 200) throw new Error(`context ${profileId}: ${r.status} ${await r.text()}`)
      const body = (await r.json()) as { text: string; tokens: number }
      return { text: body.text, tokens: body.tokens }
    },
    async build(items, log) {
      const t0 = Date.now()
      await pool(items, opts.concurrency, async (it) => {
        const r = await request(`${base}/v1/profile/${encodeURIComponent(it.profileId)}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ data: it.data, input_type: it.inputType }),
        })
        if (r.status !== 202) throw new Error(`POST ${it.profileId}: ${r.status} ${await r.text()}`)
        await r.arrayBuffer().catch(() => undefined)
      })
      log(`  submitted ${items.length} in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      return waitReady(
        items.map((i) => i.profileId),
        t0,
        log,
      )
    },
    async search(query) {
      const qs = new URLSearchParams({ query, pageSize: '10' })
      const r = await request(`${base}/v1/search?${qs}`, { headers: auth })
      if (r.status !== 200) throw new Error(`search '${query}': ${r.status} ${await r.text()}`)
      const body = (await r.json()) as { profiles: { profile_id: string }[]; total: number }
      return { ids: body.profiles.map((p) => p.profile_id), total: body.total }
    },
    async close() {
      await profiler.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    },
  }
}

/** In process, no service: extractor -> merge (-> summary -> embedding for search); cosine ranking in memory. */
async function directBackend(): Promise<Backend> {
  const config = loadConfig({ ...process.env, PROFILER_DATA_DIR: os.tmpdir() })
  const ai: AiProviders = createAiProviders(config)
  await ai.embedder.warmUp?.()
  const vectors = new Map<string, number[]>()
  const states = new Map<string, { state: ProfileState; summary: string | null }>()
  const now = new Date().toISOString()
  /** As the worker does one submission at a time: extract with its time as reference date, merge at that time. */
  const extractInOrder = async (it: OrderedItem) => {
    let state = emptyState()
    for (const [i, s] of it.submissions.entries()) {
      const { extractions } = await ai.extractor.extract({
        profile: state.content,
        submissions: [
          {
            submissionId: `${it.profileId}#${i}`,
            inputType: s.inputType,
            data: s.data,
            referenceDate: s.at,
            receivedAt: s.at,
          },
        ],
      })
      state = merge(state, extractions, s.at, { occurredAt: [s.at], acceptedAt: [s.at] }).state
    }
    return state
  }
  return {
    provider: `${config.ai === 'openai' ? `openai (${config.openai.chatModel}, ${config.openai.embeddingModel})` : 'local'} [direct]`,
    async build(items) {
      const out = new Map<string, ProfileContent>()
      await pool(items, config.ai === 'openai' ? config.openai.concurrency : 1, async (it) => {
        const state = emptyState()
        const { extractions } = await ai.extractor.extract({
          profile: state.content,
          submissions: [{ submissionId: it.profileId, inputType: it.inputType, data: it.data }],
        })
        const merged = merge(state, extractions, now).state.content
        out.set(it.profileId, merged)
        if (it.inputType === 'text') {
          const { summary } = await ai.summarizer.summarize(merged)
          const txt = profileText(merged, summary)
          if (txt) vectors.set(it.profileId, (await ai.embedder.embed([txt])).vectors[0]!)
        }
      })
      return out
    },
    async search(query) {
      const [q] = (await ai.embedder.embed([query])).vectors
      const min = ai.embedder.calibration.toCosine(DEFAULT_SENSITIVITY)
      const scored: [string, number][] = []
      for (const [id, v] of vectors) {
        let dot = 0
        for (let i = 0; i < v.length; i++) dot += v[i]! * q![i]!
        if (dot >= min) scored.push([id, dot])
      }
      scored.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      return { ids: scored.slice(0, 10).map((s) => s[0]), total: scored.length }
    },
    async probeOccurredAt() {
      return {
        supported: true,
        detail: 'direct mode: each session is merged at its own time (the extractor is given no reference date)',
      }
    },
    async buildSessions(items, _sendTimes, log) {
      const t0 = Date.now()
      await pool(items, config.ai === 'openai' ? config.openai.concurrency : 1, async (it) => {
        let state = emptyState()
        for (const [i, s] of it.sessions.entries()) {
          const { extractions } = await ai.extractor.extract({
            profile: state.content,
            submissions: [{ submissionId: `${it.profileId}#${i}`, inputType: 'conversation', data: s.data }],
          })
          state = merge(state, extractions, s.at).state
        }
        const { summary } = await ai.summarizer.summarize(state.content)
        states.set(it.profileId, { state, summary })
      })
      log(`  built ${items.length} profiles in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      return { failed: [] }
    },
    async buildInOrder(items, _sendTimes, log) {
      const t0 = Date.now()
      const out = new Map<string, ChatProfile>()
      await pool(items, config.ai === 'openai' ? config.openai.concurrency : 1, async (it) => {
        out.set(it.profileId, (await extractInOrder(it)).content)
      })
      log(`  built ${items.length} profiles in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      return out
    },
    async context(profileId, maxTokens, query) {
      // What ProfileContextService does, without its cache and CPU thread: lexical + calibrated semantic relevance.
      const { state, summary } = states.get(profileId)!
      const source = { content: JSON.stringify(state.content), timestamps: JSON.stringify(state.field_timestamps) }
      let relevance: Float64Array | undefined
      if (query) {
        const ranking = rankContext({ ...source, query, maxEmbedded: MAX_EMBEDDED_FACTS })
        if (ranking.count) {
          const semantic = new Array<number>(ranking.count).fill(0)
          const { vectors } = await ai.embedder.embed([query, ...ranking.embed.map((e) => e.text)])
          const qv = vectors[0]!
          ranking.embed.forEach((e, k) => {
            const v = vectors[k + 1]!
            let dot = 0
            for (let j = 0; j < qv.length; j++) dot += qv[j]! * v[j]!
            semantic[e.index] = ai.embedder.calibration.toScore(Math.max(-1, Math.min(1, dot))) / 100
          })
          relevance = ranking.lexical.map((l, i) => Math.round(((l + semantic[i]!) / 2) * 1000) / 1000)
        }
      }
      const c = await composeTask({ ...source, summary, ...(relevance ? { relevance } : {}), maxTokens })
      return { text: c.text, tokens: c.tokens }
    },
    async close() {
      // the local extractor runs on threads: without this the process never exits
      await ai.close?.()
    },
  }
}

// ---------- tasks ----------

interface ExtractionReport {
  profiles: number
  seconds: number
  table: Table
  /** A few examples of misses and false positives, for reading. */
  examples: { id: string; missed: GoldFact[]; falsePositives: ExtractedValue[] }[]
}

function scoreAll(
  records: EvalRecord[],
  profiles: Map<string, ProfileContent>,
  prefix: string,
  gold: (r: EvalRecord) => GoldFact[],
  other?: (r: EvalRecord) => GoldFact[],
  maxExamples = 25,
): Omit<ExtractionReport, 'seconds'> {
  const totals: Record<string, FieldCounts> = {}
  const examples: ExtractionReport['examples'] = []
  for (const r of records) {
    const p = profiles.get(`${prefix}:${r.id}`)
    if (!p) continue
    const s = scoreProfile(gold(r), extractedValues(p as never), other?.(r))
    addScores(totals, s.fields)
    if (examples.length < maxExamples && (s.missed.length || s.falsePositives.length)) {
      examples.push({ id: r.id, missed: s.missed, falsePositives: s.falsePositives })
    }
  }
  return { profiles: profiles.size, table: buildTable(totals), examples }
}

function printTable(title: string, t: Table, conversation: boolean) {
  const lines: string[] = []
  lines.push(`\n${title}`)
  const head = [
    'field'.padEnd(30),
    'gold'.padStart(6),
    'extr'.padStart(6),
    'TP'.padStart(6),
    'P'.padStart(7),
    'R'.padStart(7),
    'F1'.padStart(7),
  ]
  if (conversation) head.push('other'.padStart(6))
  lines.push(head.join(' '))
  lines.push('-'.repeat(head.join(' ').length))
  const row = (r: Table['micro']) => {
    const cells = [
      r.field.padEnd(30),
      String(r.gold).padStart(6),
      String(r.extracted).padStart(6),
      String(r.found).padStart(6),
      pct(r.precision).padStart(7),
      pct(r.recall).padStart(7),
      pct(r.f1).padStart(7),
    ]
    if (conversation) cells.push(String(r.otherSpeaker ?? 0).padStart(6))
    lines.push(cells.join(' '))
  }
  for (const r of t.rows) row(r)
  lines.push('-'.repeat(head.join(' ').length))
  row(t.interests)
  row(t.micro)
  lines.push(`interest category accuracy: ${pct(t.categoryAccuracy)}`)
  if (conversation)
    lines.push(
      `other-speaker share (extracted values matching only the other speaker's facts): ${pct(t.otherSpeakerShare)}`,
    )
  process.stdout.write(lines.join('\n') + '\n')
}

// ---------- main ----------

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  const log = (s: string) => process.stderr.write(s + '\n')
  const started = Date.now()
  const tasks = new Set<Task>(opts.only ? [opts.only] : DEFAULT_TASKS)
  const personaTasks = tasks.has('text') || tasks.has('conversation') || tasks.has('search')
  const { records: every } = personaTasks ? loadData() : { records: [] as EvalRecord[] }
  const all = opts.half ? every.filter((r) => personaHalf(r.raw) === opts.half) : every
  const records = sample(all, opts.sample, opts.seed)
  const allConvs = tasks.has('memory') || tasks.has('chat') ? loadMsc() : []
  const convs = tasks.has('memory') ? sample(allConvs, opts.sample, opts.seed) : []
  const chat = tasks.has('chat') ? chatConversations(allConvs, opts) : undefined
  log(
    `eval: ${personaTasks ? `${records.length} of ${all.length} records, ` : ''}${tasks.has('memory') ? `${convs.length} of ${allConvs.length} conversations, ` : ''}` +
      `${chat ? `chat ${chat.records.length} of ${chat.pool} conversations, ` : ''}` +
      `seed ${opts.seed}, tasks ${[...tasks].join(', ')}, ${opts.direct ? 'direct' : 'service'} mode`,
  )

  const t0 = Date.now()
  const backend = opts.direct ? await directBackend() : await serviceBackend(opts)
  const timing: Record<string, number> = { startSeconds: (Date.now() - t0) / 1000 }
  const result: Record<string, unknown> = {}
  try {
    if (tasks.has('text') || tasks.has('search')) {
      log('text: building profiles from persona sentences')
      const t = Date.now()
      const profiles = await backend.build(
        records.map((r) => ({ profileId: `text:${r.id}`, data: textOf(r), inputType: 'text' as const })),
        log,
      )
      timing.textSeconds = (Date.now() - t) / 1000
      if (tasks.has('text')) {
        const rep = scoreAll(records, profiles, 'text', (r) => r.textGold, undefined, opts.examples)
        result.text = { ...rep, seconds: timing.textSeconds }
        printTable(`TEXT EXTRACTION (${rep.profiles} profiles)`, rep.table, false)
      }
    }
    // Search runs before the conversation profiles exist: its corpus is exactly the text profiles.
    if (tasks.has('search')) {
      log('search: running queries')
      const t = Date.now()
      result.search = await runSearch(backend, records, all, opts)
      timing.searchSeconds = (Date.now() - t) / 1000
    }
    if (tasks.has('conversation')) {
      log('conversation: building profiles from dialogues')
      const t = Date.now()
      const profiles = await backend.build(
        records.map((r) => ({
          profileId: `conv:${r.id}`,
          data: conversationOf(r),
          inputType: 'conversation' as const,
        })),
        log,
      )
      timing.conversationSeconds = (Date.now() - t) / 1000
      const rep = scoreAll(
        records,
        profiles,
        'conv',
        (r) => r.convGold,
        (r) => r.otherConvGold,
        opts.examples,
      )
      result.conversation = { ...rep, seconds: timing.conversationSeconds }
      printTable(`CONVERSATION EXTRACTION (${rep.profiles} profiles)`, rep.table, true)
    }
    if (tasks.has('memory')) {
      log("memory: posting each speaker's sessions")
      const t = Date.now()
      result.memory = await runMemory(backend, convs, opts, log)
      timing.memorySeconds = (Date.now() - t) / 1000
    }
    if (chat) {
      const t = Date.now()
      result.chat = await chatTask(backend, chat, opts, log)
      timing.chatSeconds = (Date.now() - t) / 1000
    }
  } finally {
    await backend.close()
  }
  timing.totalSeconds = (Date.now() - started) / 1000
  const out = {
    config: {
      provider: backend.provider,
      mode: opts.direct ? 'direct' : 'service',
      sample: records.length,
      memoryConversations: tasks.has('memory') ? convs.length : undefined,
      memoryBudgets: tasks.has('memory') ? opts.memoryBudgets : undefined,
      memoryLong: tasks.has('memory') ? opts.memoryLong : undefined,
      chatConversations: chat?.records.length,
      half: opts.half ?? 'all',
      seed: opts.seed,
      tasks: [...tasks],
      queries: opts.queries,
      sensitivity: DEFAULT_SENSITIVITY,
      workerConcurrency: opts.direct ? undefined : Number(process.env.PROFILER_WORKER_CONCURRENCY ?? 16),
      database: opts.direct ? undefined : process.env.DATABASE_URL ? 'server' : 'embedded',
      node: process.version,
      cpus: os.cpus().length,
      date: new Date().toISOString(),
    },
    timing,
    ...result,
  }
  fs.mkdirSync(path.dirname(opts.out), { recursive: true })
  fs.writeFileSync(opts.out, JSON.stringify(out, null, 2) + '\n')
  process.stdout.write(
    `\nprovider ${backend.provider}; wall time ${timing.totalSeconds.toFixed(1)} s; results in ${path.relative(process.cwd(), opts.out)}\n`,
  )
}

// ---------- chat ----------

/**
 * The chat task's conversations: the usable records (chatProblem) of the half, a seeded sample of --chat-sample of them
 * (lowered by --sample).
 */
function chatConversations(allConvs: MscRecord[], opts: Options) {
  const usable = allConvs.filter((r) => !chatProblem(r))
  const inHalf = opts.half ? usable.filter((r) => chatHalf(r) === opts.half) : usable
  const records = sample(inHalf, Math.min(opts.sample, opts.chatSample), opts.seed)
  return { records, pool: inHalf.length, unusable: allConvs.length - usable.length }
}

/** Chat task (eval/chat.ts): both forms posted, scored and printed; the report for the JSON. */
async function chatTask(
  backend: Backend,
  chat: ReturnType<typeof chatConversations>,
  opts: Options,
  log: (s: string) => void,
) {
  const reference = new Date(MEMORY_REFERENCE)
  const probe = await backend.probeOccurredAt(reference.toISOString())
  log(`chat: occurred_at ${probe.supported ? 'sent' : 'not sent'} (${probe.detail})`)
  const half = opts.half ? `${opts.half} half` : 'both halves'
  const title = `${chat.records.length} of ${chat.pool} conversations, ${half}`
  const write = (text: string) => process.stdout.write(text)
  const report = await runChat(backend, chat.records, { reference, sendTimes: probe.supported, title }, log, write)
  return {
    ...report,
    conversations: chat.records.length,
    conversationsInHalf: chat.pool,
    unusableRecords: chat.unusable,
    half: opts.half ?? 'all',
    referenceDate: MEMORY_REFERENCE,
    occurredAt: { sent: probe.supported, detail: probe.detail },
  }
}

// ---------- memory ----------

function loadMsc(): MscRecord[] {
  requireData(MSC_DIR, 'PROFILER_EVAL_MSC_DATA')
  const file = path.join(MSC_DIR, 'session_3_valid.jsonl')
  if (!fs.existsSync(file))
    throw new Error(`memory task: ${file} not found (set PROFILER_EVAL_MSC_DATA to the msc-dev directory)`)
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as MscRecord)
}

type MemorySystem = 'service' | 'newest' | 'bm25' | 'whole'
const MEMORY_SYSTEMS: { key: MemorySystem; label: string }[] = [
  { key: 'service', label: 'service context' },
  { key: 'newest', label: 'newest turns' },
  { key: 'bm25', label: 'BM25 over the turns' },
  { key: 'whole', label: 'whole text (no budget)' },
]

/**
 * Each speaker's sessions posted in order (with their times when the service takes them), then per speaker and
 * budget: the context without a query (scored on each fact's content words) and with each fact's topic as query
 * (scored on its answer words), beside the raw-turn baselines at the same budget. Then the same for long histories
 * (`--memory-long K`: K speakers of different conversations as one person). docs/evaluation.md, "Memory".
 */
async function runMemory(backend: Backend, convs: MscRecord[], opts: Options, log: (s: string) => void) {
  const reference = new Date(MEMORY_REFERENCE)
  if (opts.memoryDump) fs.writeFileSync(opts.memoryDump, '')
  const probe = await backend.probeOccurredAt(reference.toISOString())
  log(`memory: occurred_at ${probe.supported ? 'sent' : 'not sent'} (${probe.detail})`)
  const speakers: MemoryPerson[] = convs.flatMap((r) => {
    const sessions = sessionsOf(r, reference)
    return ([0, 1] as const).map((sp) => ({
      profileId: `mem:${r.metadata.initial_data_id}:${sp + 1}`,
      sessions: sessions.map((session) => ({ session, speaker: sp })),
      facts: personaFacts(r.personas[sp] ?? []),
      turns: speakerTurns(sessions, sp),
    }))
  })
  const standard = opts.memoryLongOnly
    ? null
    : await memoryFigures(
        backend,
        speakers,
        opts,
        probe,
        log,
        `${convs.length} conversations, ${speakers.length} speakers`,
      )
  if (!opts.memoryLong) return standard
  const persons = longHistories(convs, opts.memoryLong, reference)
  if (!persons.length) return { ...standard, long: null }
  log(`memory: long histories (${opts.memoryLong} conversations a person)`)
  const long = await memoryFigures(
    backend,
    persons,
    opts,
    probe,
    log,
    `LONG HISTORIES: ${persons.length} persons, each ${opts.memoryLong} speakers of different conversations told as one`,
  )
  return { ...standard, long: { conversationsPerPerson: opts.memoryLong, ...long } }
}

/** The memory figures of one set of persons (docs/evaluation.md, "Memory"): post, wait, score, print. */
async function memoryFigures(
  backend: Backend,
  persons: MemoryPerson[],
  opts: Options,
  probe: { supported: boolean; detail: string },
  log: (s: string) => void,
  title: string,
) {
  const t0 = Date.now()
  const built = await backend.buildSessions(
    persons.map((s) => ({
      profileId: s.profileId,
      sessions: s.sessions
        .filter((x) => x.session.turns.length)
        .map((x) => ({ data: conversationJson(x.session, x.speaker), at: x.session.at })),
    })),
    probe.supported,
    log,
  )
  const buildSeconds = (Date.now() - t0) / 1000
  const count = await tokenCounter()
  const t1 = Date.now()
  const perBudget: Record<string, Record<MemorySystem, { noQuery: CoverageCounter; query: CoverageCounter }>> = {}
  for (const b of opts.memoryBudgets) {
    perBudget[b] = Object.fromEntries(
      MEMORY_SYSTEMS.map((m) => [m.key, { noQuery: new CoverageCounter(), query: new CoverageCounter() }]),
    ) as never
  }
  const examples: unknown[] = []
  await pool(persons, opts.concurrency, async (sp, idx) => {
    const whole = sp.turns.join('\n')
    const wholeWords = textWords(whole)
    const wholeTokens = count(whole)
    const index = new Bm25(sp.turns)
    for (const budget of opts.memoryBudgets) {
      const c = perBudget[budget]!
      const svc = await backend.context(sp.profileId, budget)
      const svcWords = textWords(svc.text)
      const newest = newestTurns(sp.turns, budget, count)
      const newestWords = textWords(newest.text)
      c.service.noQuery.text(svc.tokens)
      c.newest.noQuery.text(newest.tokens)
      c.whole.noQuery.text(wholeTokens)
      const held: { fact: string; query: string | null; service: boolean; serviceQuery?: boolean; bm25?: boolean }[] =
        []
      for (const f of sp.facts) {
        const h = covered(f.words, svcWords)
        c.service.noQuery.add(h)
        c.newest.noQuery.add(covered(f.words, newestWords))
        c.whole.noQuery.add(covered(f.words, wholeWords))
        const row: (typeof held)[number] = { fact: f.text, query: f.query, service: h }
        if (f.query) {
          const query = opts.memoryQuestion ? questionOf(f.query) : f.query
          const q = await backend.context(sp.profileId, budget, query)
          const bm = bm25Turns(index, sp.turns, query, budget, count)
          row.serviceQuery = covered(f.answer, textWords(q.text))
          row.bm25 = covered(f.answer, textWords(bm.text))
          if (opts.memoryDump) {
            const line = {
              title,
              profileId: sp.profileId,
              budget,
              query,
              answer: f.answer,
              service: row.serviceQuery,
              bm25: row.bm25,
              serviceText: q.text,
              bm25Text: bm.text,
            }
            fs.appendFileSync(opts.memoryDump, JSON.stringify(line) + '\n')
          }
          c.service.query.add(row.serviceQuery)
          c.service.query.text(q.tokens)
          c.bm25.query.add(row.bm25)
          c.bm25.query.text(bm.tokens)
          c.newest.query.add(covered(f.answer, newestWords))
          c.newest.query.text(newest.tokens)
          c.whole.query.add(covered(f.answer, wholeWords))
          c.whole.query.text(wholeTokens)
        }
        held.push(row)
      }
      if (idx < 10 && budget === opts.memoryBudgets[0])
        examples[idx] = { profileId: sp.profileId, budget, context: svc.text, facts: held }
    }
  })
  const scoreSeconds = (Date.now() - t1) / 1000
  const budgets: Record<string, Record<MemorySystem, { noQuery: Coverage | null; query: Coverage }>> = {}
  for (const [b, c] of Object.entries(perBudget)) {
    budgets[b] = Object.fromEntries(
      MEMORY_SYSTEMS.map((m) => [
        m.key,
        { noQuery: m.key === 'bm25' ? null : c[m.key].noQuery.result(), query: c[m.key].query.result() },
      ]),
    ) as never
  }
  const facts = persons.reduce((a, s) => a + s.facts.length, 0)
  const withQuery = persons.reduce((a, s) => a + s.facts.filter((f) => f.query).length, 0)
  const report = {
    persons: persons.length,
    sessions: persons.reduce((a, s) => a + s.sessions.filter((x) => x.session.turns.length).length, 0),
    facts,
    factsWithQuery: withQuery,
    referenceDate: MEMORY_REFERENCE,
    occurredAt: { sent: probe.supported, detail: probe.detail },
    failedProfiles: built.failed,
    meanSpeakerTokens: persons.reduce((a, s) => a + count(s.turns.join('\n')), 0) / Math.max(1, persons.length),
    budgets,
    buildSeconds,
    scoreSeconds,
    examples: examples.filter(Boolean),
  }
  const timesLabel = opts.direct
    ? 'session times used as merge times'
    : `occurred_at ${probe.supported ? 'sent' : 'not sent'}`
  const lines = [
    `\nMEMORY (${title}; ${report.sessions} sessions; ${facts} persona facts, ${withQuery} with a topic query${opts.memoryQuestion ? ' asked as a question' : ''}; ${timesLabel})`,
    `a person's own turns: ${report.meanSpeakerTokens.toFixed(0)} tokens on average`,
  ]
  for (const b of opts.memoryBudgets) {
    const r = budgets[b]!
    const cell = (c: Coverage | null) =>
      c ? `${pct(c.share)} ${`(${c.meanTokens?.toFixed(0) ?? '-'} tok)`.padStart(10)}` : '   -'.padEnd(17)
    lines.push(`\nbudget ${b} tokens`.padEnd(34) + 'no query: fact words'.padEnd(24) + 'topic query: answer words')
    for (const m of MEMORY_SYSTEMS)
      lines.push(`${m.label.padEnd(32)}  ${cell(r[m.key].noQuery).padEnd(22)}  ${cell(r[m.key].query)}`)
  }
  if (built.failed.length) lines.push(`failed profiles: ${built.failed.length}`)
  process.stdout.write(lines.join('\n') + '\n')
  return report
}

async function runSearch(backend: Backend, records: EvalRecord[], all: EvalRecord[], opts: Options) {
  const holdings = new Map<string, Triple[]>(records.map((r) => [`text:${r.id}`, r.raw.gold_persona_triples]))
  const queries: SearchQuery[] = buildQueries(holdings, opts.queries, opts.seed)
  const per: {
    query: string
    relevant: number
    returned: number
    total: number
    recall: number
    precision: number
    ndcg: number
    precisionReturned: number | null
    top: string[]
    missed: string[]
  }[] = []
  await pool(queries, opts.concurrency, async (q, i) => {
    const hit = await backend.search(q.query)
    const m = rankingMetrics(hit.ids, new Set(q.relevant), 10)
    per[i] = {
      query: q.query,
      relevant: q.relevant.length,
      returned: hit.ids.length,
      total: hit.total,
      ...m,
      top: hit.ids.slice(0, 10),
      missed: q.relevant.filter((id) => !hit.ids.slice(0, 10).includes(id)).slice(0, 10),
    }
  })
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)
  const allGold = all.flatMap((r) => [
    ...r.raw.gold_persona_triples.map((t) => t.object),
    ...r.raw.utterance_triples_dnli.flatMap((u) => u.triples.map((t) => t[2])),
  ])
  const unrelated = unrelatedQueries(allGold)
  const unrelatedResults = await pool(unrelated.queries, opts.concurrency, async (q) => ({
    query: q,
    total: (await backend.search(q)).total,
  }))
  const returnedSome = per.filter((p) => p.returned > 0)
  const report = {
    queries: per.length,
    recallAt10: mean(per.map((p) => p.recall)),
    precisionAt10: mean(per.map((p) => p.precision)),
    ndcgAt10: mean(per.map((p) => p.ndcg)),
    precisionOfReturned: mean(returnedSome.map((p) => p.precisionReturned!)),
    emptyShareRelated: per.length ? (per.length - returnedSome.length) / per.length : null,
    meanRelevant: mean(per.map((p) => p.relevant)),
    unrelated: {
      queries: unrelatedResults.length,
      emptyShare: unrelatedResults.length
        ? unrelatedResults.filter((u) => u.total === 0).length / unrelatedResults.length
        : null,
      droppedObjects: unrelated.dropped,
      results: unrelatedResults,
    },
    perQuery: per,
  }
  const lines = [
    `\nSEARCH (${per.length} queries over ${records.length} text profiles, sensitivity ${DEFAULT_SENSITIVITY}, pageSize 10)`,
    `recall@10            ${pct(report.recallAt10)}`,
    `precision@10         ${pct(report.precisionAt10)}   (hits / 10; mean relevant profiles per query ${report.meanRelevant?.toFixed(2)})`,
    `nDCG@10              ${pct(report.ndcgAt10)}`,
    `precision of returned ${pct(report.precisionOfReturned)}  (hits / results returned, over queries with results)`,
    `related queries with no result ${pct(report.emptyShareRelated)}`,
    `unrelated queries returning nothing ${pct(report.unrelated.emptyShare)}  (${unrelatedResults.length} queries)`,
  ]
  process.stdout.write(lines.join('\n') + '\n')
  return report
}

main().catch((e) => {
  process.stderr.write(`eval failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})

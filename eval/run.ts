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
import { emptyState, type ProfileContent } from '../src/domain/profile.js'
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
const DATA_DIR = process.env.PROFILER_EVAL_DATA ?? '/work/shared/data/persona-dev'
const DEFAULT_SENSITIVITY = 63

// ---------- options ----------

type Task = 'text' | 'conversation' | 'search'
interface Options {
  sample: number
  seed: number
  only?: Task
  direct: boolean
  out: string
  queries: number
  concurrency: number
  /** Only one half of the personas (see personaHalf): rules are tuned on one half and checked on the other. */
  half?: 'tuning' | 'held-out'
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sample: Infinity, seed: 1, direct: false, out: path.join(HERE, 'results', 'latest.json'), queries: 300, concurrency: 16 }
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
      case '--sample': o.sample = num('--sample', val()) || Infinity; break
      case '--seed': o.seed = num('--seed', val()); break
      case '--queries': o.queries = num('--queries', val()); break
      case '--concurrency': o.concurrency = Math.max(1, num('--concurrency', val())); break
      case '--out': o.out = path.resolve(val()!); break
      case '--direct': o.direct = true; break
      case '--half': {
        const h = val()
        if (h !== 'tuning' && h !== 'held-out') throw new Error(`--half takes tuning or held-out, got '${h}'`)
        o.half = h
        break
      }
      case '--only': {
        const t = val()
        if (t !== 'text' && t !== 'conversation' && t !== 'search') throw new Error(`--only takes text, conversation or search, got '${t}'`)
        o.only = t
        break
      }
      case '--help': case '-h':
        process.stdout.write(
          'npm run eval -- [--sample N] [--seed S] [--only text|conversation|search] [--half tuning|held-out] [--direct] [--out file] [--queries N] [--concurrency N]\n',
        )
        process.exit(0)
      // eslint-disable-next-line no-fallthrough
      default: throw new Error(`unknown option ${a} (try --help)`)
    }
  }
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

function loadData() {
  const rel = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'relation-to-field.json'), 'utf8')) as { fields: Record<string, string[]> }
  // A relation listed under several fields counts for the scored one (previous_profession: occupation, not memories).
  const relField = new Map<string, string>()
  for (const [field, rels] of Object.entries(rel.fields)) {
    for (const r of rels) if (!relField.has(r) || (!sectionOf(relField.get(r)!) && sectionOf(field))) relField.set(r, field)
  }
  const raws = fs
    .readFileSync(path.join(DATA_DIR, 'convai2-valid-speakers.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RawRecord)
  const dialogueKey = (id: string) => id.replace(/_(partner|self)$/, '')
  const convFacts = (r: RawRecord): GoldFact[] =>
    r.utterance_triples_dnli.flatMap((u) =>
      u.triples.filter(([s, rl]) => s === 'i' && relField.has(rl)).map(([, rl, o]) => ({ field: relField.get(rl)!, object: o })),
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
      textGold: r.gold_persona_triples.filter((t) => t.subject === 'i').map((t) => ({ field: t.profile_field, object: t.object })),
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
  const h = crypto.createHash('sha256').update([...r.persona_sentences].sort().join('\n')).digest()
  return h[0]! % 2 === 0 ? 'tuning' : 'held-out'
}

const textOf = (r: EvalRecord) => r.raw.persona_sentences.join(' ')

/** The dialogue as a JSON conversation: the record's person is "user", the other speaker "partner". */
const conversationOf = (r: EvalRecord) =>
  JSON.stringify(r.raw.dialogue.map((d) => ({ role: d.speaker === r.dialogueSpeaker ? 'user' : 'partner', content: d.text })))

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
const pct = (x: number | null | undefined) => (x === null || x === undefined ? '   -  ' : (x * 100).toFixed(1).padStart(5) + '%')

// ---------- the two ways of getting profiles ----------

interface SearchHit {
  ids: string[]
  total: number
}

interface Backend {
  provider: string
  /** Builds the profiles (text or conversation input) and returns their content by profile id. */
  build(items: { profileId: string; data: string; inputType: 'text' | 'conversation' }[], log: (s: string) => void): Promise<Map<string, ProfileContent>>
  search(query: string): Promise<SearchHit>
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
  })
  const profiler = await startProfiler(config, { role: 'all' })
  const base = profiler.url!
  const key = profiler.bootstrapKey
  if (!key) {
    await profiler.close()
    throw new Error('the service issued no bootstrap key (the database is not new: unset DATABASE_URL or point it at an empty database)')
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
  return {
    provider: config.ai === 'openai' ? `openai (${config.openai.chatModel}, ${config.openai.embeddingModel})` : 'local',
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
      const done = new Map<string, ProfileContent>()
      let pending = items.map((i) => i.profileId)
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
          log(`  ready ${done.size}/${items.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`)
          await sleep(Math.min(5000, 500 + pending.length * 2))
        }
      }
      log(`  all ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      return done
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
  const now = new Date().toISOString()
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
    async close() {},
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
): Omit<ExtractionReport, 'seconds'> {
  const totals: Record<string, FieldCounts> = {}
  const examples: ExtractionReport['examples'] = []
  for (const r of records) {
    const p = profiles.get(`${prefix}:${r.id}`)
    if (!p) continue
    const s = scoreProfile(gold(r), extractedValues(p as never), other?.(r))
    addScores(totals, s.fields)
    if (examples.length < 25 && (s.missed.length || s.falsePositives.length)) {
      examples.push({ id: r.id, missed: s.missed, falsePositives: s.falsePositives })
    }
  }
  return { profiles: profiles.size, table: buildTable(totals), examples }
}

function printTable(title: string, t: Table, conversation: boolean) {
  const lines: string[] = []
  lines.push(`\n${title}`)
  const head = ['field'.padEnd(30), 'gold'.padStart(6), 'extr'.padStart(6), 'TP'.padStart(6), 'P'.padStart(7), 'R'.padStart(7), 'F1'.padStart(7)]
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
  if (conversation) lines.push(`other-speaker share (extracted values matching only the other speaker's facts): ${pct(t.otherSpeakerShare)}`)
  process.stdout.write(lines.join('\n') + '\n')
}

// ---------- main ----------

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  const log = (s: string) => process.stderr.write(s + '\n')
  const started = Date.now()
  const { records: every } = loadData()
  const all = opts.half ? every.filter((r) => personaHalf(r.raw) === opts.half) : every
  const records = sample(all, opts.sample, opts.seed)
  const tasks = new Set<Task>(opts.only ? [opts.only] : ['text', 'conversation', 'search'])
  log(`eval: ${records.length} of ${all.length} records, seed ${opts.seed}, tasks ${[...tasks].join(', ')}, ${opts.direct ? 'direct' : 'service'} mode`)

  const t0 = Date.now()
  const backend = opts.direct ? await directBackend() : await serviceBackend(opts)
  const timing: Record<string, number> = { startSeconds: (Date.now() - t0) / 1000 }
  const result: Record<string, unknown> = {}
  try {
    if (tasks.has('text') || tasks.has('search')) {
      log('text: building profiles from persona sentences')
      const t = Date.now()
      const profiles = await backend.build(records.map((r) => ({ profileId: `text:${r.id}`, data: textOf(r), inputType: 'text' as const })), log)
      timing.textSeconds = (Date.now() - t) / 1000
      if (tasks.has('text')) {
        const rep = scoreAll(records, profiles, 'text', (r) => r.textGold)
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
      const profiles = await backend.build(records.map((r) => ({ profileId: `conv:${r.id}`, data: conversationOf(r), inputType: 'conversation' as const })), log)
      timing.conversationSeconds = (Date.now() - t) / 1000
      const rep = scoreAll(records, profiles, 'conv', (r) => r.convGold, (r) => r.otherConvGold)
      result.conversation = { ...rep, seconds: timing.conversationSeconds }
      printTable(`CONVERSATION EXTRACTION (${rep.profiles} profiles)`, rep.table, true)
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
  process.stdout.write(`\nprovider ${backend.provider}; wall time ${timing.totalSeconds.toFixed(1)} s; results in ${path.relative(process.cwd(), opts.out)}\n`)
}

async function runSearch(backend: Backend, records: EvalRecord[], all: EvalRecord[], opts: Options) {
  const holdings = new Map<string, Triple[]>(records.map((r) => [`text:${r.id}`, r.raw.gold_persona_triples]))
  const queries: SearchQuery[] = buildQueries(holdings, opts.queries, opts.seed)
  const per: { query: string; relevant: number; returned: number; total: number; recall: number; precision: number; ndcg: number; precisionReturned: number | null }[] = []
  await pool(queries, opts.concurrency, async (q, i) => {
    const hit = await backend.search(q.query)
    const m = rankingMetrics(hit.ids, new Set(q.relevant), 10)
    per[i] = { query: q.query, relevant: q.relevant.length, returned: hit.ids.length, total: hit.total, ...m }
  })
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)
  const allGold = all.flatMap((r) => [
    ...r.raw.gold_persona_triples.map((t) => t.object),
    ...r.raw.utterance_triples_dnli.flatMap((u) => u.triples.map((t) => t[2])),
  ])
  const unrelated = unrelatedQueries(allGold)
  const unrelatedResults = await pool(unrelated.queries, opts.concurrency, async (q) => ({ query: q, total: (await backend.search(q)).total }))
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
      emptyShare: unrelatedResults.length ? unrelatedResults.filter((u) => u.total === 0).length / unrelatedResults.length : null,
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
  process.stderr.write(`eval failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})

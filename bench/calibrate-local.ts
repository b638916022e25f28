// Measures raw cosine of the local embedder for matching vs non-matching (query, profile) pairs on the persona dev
// data, and derives the calibration points of src/ai/local/calibration.ts. npx tsx bench/calibrate-local.ts
// [path/to/convai2-valid-speakers.jsonl] [--variants] [--raw] [--configured] [--search] --search measures search as the
// evaluation does: profiles EXTRACTED from each record's persona sentences by the local extractor, queries
// from gold triples, recall@10 / precision@10 / nDCG@10 at sensitivity 63, unrelated queries returning nothing; on a
// tuning half and a held-out half; and derives the points from the tuning half. --configured measures the embedding
// model the environment configures (e.g. PROFILER_AI=openai with PROFILER_EMBEDDING_MODEL) and prints
// PROFILER_EMBEDDING_CALIBRATION points for it. Profiles are built from the gold triples by a small manual relation ->
// field mapping (what a good extractor would store), their text by profileText(content, LocalSummarizer summary).
// Queries are short phrases made from the same triples ("has a pet turtle", "lives in texas"). A pair matches when the
// query's triple belongs to the profile; non-matching pairs are every other profile whose gold objects do not contain
// all the content stems of the query's object (so "nurse" vs a profile with "nursing home" counts as neither).
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAiProviders } from '../src/ai/index.js'
import type { Embedder } from '../src/ai/types.js'
import { loadConfig } from '../src/config.js'
import { PiecewiseLinearCalibration, type CalibrationPoint } from '../src/ai/calibration.js'
import { LOCAL_CALIBRATION_POINTS } from '../src/ai/local/calibration.js'
import { stemmer } from 'stemmer'
import { LocalEmbedder, contentTokens, wordVectors, type LocalEmbedderOptions } from '../src/ai/local/local-embedder.js'
import { summarizeProfile } from '../src/ai/local/local-summarizer.js'
import { profileText } from '../src/ai/profile-text.js'
import { emptyContent, emptyState, type ProfileContent } from '../src/domain/profile.js'
import { LocalExtractor } from '../src/ai/local/local-extractor.js'
import { LocalSummarizer } from '../src/ai/local/local-summarizer.js'
import { merge } from '../src/domain/merge.js'
import { tokens } from '../src/domain/normalise.js'

interface Triple {
  subject: string
  relation: string
  object: string
  profile_field: string
}
interface DevRecord {
  id: string
  persona_sentences: string[]
  gold_persona_triples: Triple[]
}

const args = process.argv.slice(2)
/**
 * --configured: measure the embedding model the environment configures (PROFILER_AI, PROFILER_EMBEDDING_MODEL, ...).
 */
const configured = args.includes('--configured')
let configuredOne: Embedder | undefined
async function configuredEmbedder(): Promise<Embedder> {
  configuredOne ??= createAiProviders(loadConfig(process.env)).embedder
  return configuredOne
}
/** BENCH_OPTIONS='{"hashBuckets":1435}' measures and calibrates other embedder settings than the defaults. */
const mainOptions = JSON.parse(process.env.BENCH_OPTIONS ?? '{}') as LocalEmbedderOptions
const here = dirname(fileURLToPath(import.meta.url))
/** The persona data of the evaluation (docs/evaluation/quality.md#the-data), unless a path is given. */
const dataPath =
  args.find((a) => !a.startsWith('--')) ??
  resolve(process.env.PROFILER_EVAL_DATA ?? resolve(here, '../eval/data/persona-dev'), 'convai2-valid-speakers.jsonl')

// Query templates by relation; relations not listed make no query (negations, family, age, ...).
const QUERY: Record<string, (o: string) => string> = {
  have_pet: (o) => `has a pet ${o}`,
  like_animal: (o) => `likes ${o}`,
  favorite_animal: (o) => `favorite animal is ${o}`,
  live_in_citystatecountry: (o) => `lives in ${o}`,
  live_in_general: (o) => `lives in ${o}`,
  place_origin: (o) => `is from ${o}`,
  nationality: (o) => `is ${o}`,
  has_profession: (o) => `works as a ${o}`,
  previous_profession: (o) => `used to be a ${o}`,
  teach: (o) => `teaches ${o}`,
  employed_by_company: (o) => `works at ${o}`,
  employed_by_general: (o) => `works at ${o}`,
  job_status: (o) => `is ${o}`,
  has_hobby: (o) => `likes ${o}`,
  like_activity: (o) => `enjoys ${o}`,
  favorite_activity: (o) => `loves ${o}`,
  favorite_hobby: (o) => `hobby is ${o}`,
  like_general: (o) => `likes ${o}`,
  collect: (o) => `collects ${o}`,
  has_ability: (o) => `can ${o}`,
  member_of: (o) => `member of ${o}`,
  like_music: (o) => `likes ${o}`,
  favorite_music: (o) => `likes ${o} music`,
  favorite_music_artist: (o) => `fan of ${o}`,
  like_food: (o) => `likes ${o}`,
  favorite_food: (o) => `loves ${o}`,
  like_drink: (o) => `drinks ${o}`,
  favorite_drink: (o) => `likes ${o}`,
  diet: (o) => `is ${o}`,
  like_read: (o) => `reads ${o}`,
  favorite_book: (o) => `favorite book ${o}`,
  like_watching: (o) => `watches ${o}`,
  like_movie: (o) => `likes ${o} movies`,
  favorite_movie: (o) => `likes ${o} movies`,
  favorite_show: (o) => `watches ${o}`,
  like_sports: (o) => `plays ${o}`,
  like_sport: (o) => `likes ${o}`,
  favorite_sport: (o) => `likes ${o}`,
  like_goto: (o) => `likes going to ${o}`,
  favorite_place: (o) => `likes ${o}`,
  favorite_color: (o) => `favorite color is ${o}`,
  favorite_season: (o) => `likes ${o}`,
  misc_attribute: (o) => `is ${o}`,
  scared_of: (o) => `is afraid of ${o}`,
  dislike: (o) => `dislikes ${o}`,
}
const NEGATED = /^(dislike|do_not|never|not_|want_no|have_no)/
const SELF = new Set(['i', 'me', 'my', 'myself'])

/**
 * "2 dog" -> "dog", "10 human services field" -> "human services field": the leading counts are annotation artefacts.
 */
function object(o: string): string {
  return o
    .replace(/^\s*\d+\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()
}
/** Content stems of an object: a profile "holds" a query's fact when it has every stem of the query's object. */
const stems = (o: string): string[] => contentTokens(object(o)).map((t) => stemmer(t))

function buildProfile(triples: Triple[]): ProfileContent {
  const p = emptyContent()
  const c = 0.8
  for (const t of triples) {
    const o = object(t.object)
    if (!o || o === '<blank>' || !SELF.has(t.subject.trim())) continue
    const [section, field] = t.profile_field.split('.')
    if (section === 'core_info') {
      if (field === 'age') {
        const n = Number(o)
        if (Number.isInteger(n) && n > 0 && n < 120) p.core_info.age ??= { value: n, confidence: c }
      } else if (field === 'name' || field === 'gender' || field === 'location') {
        p.core_info[field] ??= { value: o, confidence: c }
      } else if (field === 'occupation' && !NEGATED.test(t.relation)) {
        // Prefer a job title over a status or an employer.
        if (!p.core_info.occupation || t.relation === 'has_profession')
          p.core_info.occupation = { value: o, confidence: c }
      }
    } else if (section === 'interests' && !NEGATED.test(t.relation)) {
      ;(p.interests[field] ??= []).push({ value: o, confidence: c })
    } else if (section === 'personality') {
      p.personality.traits.push({ value: t.relation === 'scared_of' ? `scared of ${o}` : o, confidence: c })
    } else if (section === 'preferences') {
      p.preferences.topics_to_avoid.push({ value: o, confidence: c })
    } else if (section === 'memories') {
      p.memories.push({
        event: `${t.relation === 'used_to' ? 'used to ' : 'was '}${o}`,
        importance: 'medium',
        confidence: c,
      })
    }
  }
  return p
}

interface Profile {
  text: string
  raw: string
  stems: Set<string>
}
interface Query {
  text: string
  owner: number
  stems: string[]
  object: string
  template: (o: string) => string
  paraphrase?: boolean
}

/**
 * One profile per distinct persona; with group > 1, that many consecutive personas are merged into one richer profile
 * (as after several submissions), to see how longer profiles shift the cosines.
 */
function load(group = 1): { profiles: Profile[]; queries: Query[] } {
  const seenPersona = new Set<string>()
  const records: DevRecord[] = []
  for (const line of readFileSync(dataPath, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const r = JSON.parse(line) as DevRecord
    // The same persona is played in several dialogues: keep one record per persona.
    const persona = [...r.persona_sentences].sort().join('|')
    if (seenPersona.has(persona)) continue
    seenPersona.add(persona)
    records.push(r)
  }
  const profiles: Profile[] = []
  const queries: Query[] = []
  const seenQuery = new Set<string>()
  for (let start = 0; start + group <= records.length; start += group) {
    const members = records.slice(start, start + group)
    const triples = members.flatMap((r) => r.gold_persona_triples)
    const content = buildProfile(triples)
    const owner = profiles.length
    profiles.push({
      text: profileText(content, summarizeProfile(content)),
      raw: members.flatMap((r) => r.persona_sentences).join(' '),
      stems: new Set(triples.flatMap((t) => stems(t.object))),
    })
    for (const t of triples) {
      const make = QUERY[t.relation]
      const o = object(t.object)
      if (!make || !o || o === '<blank>' || !SELF.has(t.subject.trim()) || stems(o).length === 0) continue
      const text = make(o.toLowerCase())
      if (seenQuery.has(`${owner}|${text}`)) continue
      seenQuery.add(`${owner}|${text}`)
      queries.push({ text, owner, stems: stems(o), object: o, template: make })
    }
  }
  return { profiles, queries }
}

/**
 * Paraphrase queries: the same template with the object replaced by its nearest word-vector neighbour of another stem
 * ("turtle" -> "tortoise"), for single-word objects. No hashed feature can match these: they measure the word-vector
 * part.
 */
async function paraphrases(data: ReturnType<typeof load>): Promise<Query[]> {
  const { index, data: vec } = await wordVectors()
  const vocab = 50_000
  const words: string[] = []
  for (const [w, r] of index) if (r < vocab) words[r] = w
  const out: Query[] = []
  const cache = new Map<string, string | undefined>()
  const neighbour = (word: string): string | undefined => {
    if (cache.has(word)) return cache.get(word)
    const row = index.get(word)
    let best: string | undefined
    if (row !== undefined) {
      let bestSim = -2
      const stem = stemmer(word)
      for (let r = 0; r < vocab; r++) {
        const w = words[r]
        if (!w || !/^[a-z]{3,}$/.test(w) || contentTokens(w).length === 0) continue
        const ws = stemmer(w)
        if (ws === stem || w.includes(word) || word.includes(w) || ws.startsWith(stem) || stem.startsWith(ws)) continue
        let sim = 0
        for (let d = 0; d < 100; d++) sim += vec[row * 100 + d] * vec[r * 100 + d]
        if (sim > bestSim) {
          bestSim = sim
          best = w
        }
      }
    }
    cache.set(word, best)
    return best
  }
  for (const q of data.queries) {
    if (q.stems.length !== 1 || !q.object || contentTokens(q.object).length !== 1) continue
    const n = neighbour(q.object.toLowerCase())
    if (!n) continue
    out.push({ ...q, text: q.template(n), stems: [...q.stems, stemmer(n)], object: n, paraphrase: true })
  }
  return out
}

function percentile(sorted: Float32Array | number[], q: number): number {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))
  return sorted[i]
}

/** Paraphrase queries carry the original stem then the neighbour's: a profile with either holds the fact. */
function holds(p: Profile, q: Query): boolean {
  if (q.paraphrase) return q.stems.some((s) => p.stems.has(s))
  return q.stems.every((s) => p.stems.has(s))
}

interface Measured {
  match: Float32Array
  nonMatch: Float32Array
  mrr: number
  recall10: number
}

async function measure(
  opts: LocalEmbedderOptions,
  useRaw: boolean,
  data: { profiles: Profile[]; queries: Query[] },
): Promise<Measured> {
  const e: Embedder = configured ? await configuredEmbedder() : new LocalEmbedder(opts)
  const { vectors: pv } = await e.embed(data.profiles.map((p) => (useRaw ? p.raw : p.text)))
  const { vectors: qv } = await e.embed(data.queries.map((q) => q.text))
  const dim = e.dimension
  const P = new Float32Array(pv.length * dim)
  pv.forEach((v, i) => P.set(v, i * dim))
  const match: number[] = []
  const non: number[] = []
  let rr = 0
  let hits = 0
  const sims = new Float64Array(pv.length)
  for (let qi = 0; qi < data.queries.length; qi++) {
    const q = data.queries[qi]
    const v = qv[qi]
    for (let p = 0; p < pv.length; p++) {
      let s = 0
      const base = p * dim
      for (let d = 0; d < dim; d++) s += v[d] * P[base + d]
      sims[p] = s
    }
    const m = sims[q.owner]
    match.push(m)
    let better = 0
    for (let p = 0; p < pv.length; p++) {
      if (p === q.owner || holds(data.profiles[p], q)) continue
      non.push(sims[p])
      if (sims[p] > m) better++
      else if (sims[p] === m) better += 0.5
    }
    rr += 1 / (better + 1)
    if (better < 10) hits++ // ties count half
  }
  return {
    match: Float32Array.from(match).sort(),
    nonMatch: Float32Array.from(non).sort(),
    mrr: rr / data.queries.length,
    recall10: hits / data.queries.length,
  }
}

/** Share of matches at or above, and of non-matches below, the cosine where the calibration gives 63. */
function at63(m: Measured, cal: PiecewiseLinearCalibration): { threshold: number; tpr: number; tnr: number } {
  const threshold = cal.toCosine(63)
  const tpr = m.match.filter((c) => cal.toScore(c) >= 63).length / m.match.length
  let below = 0
  for (const c of m.nonMatch) if (cal.toScore(c) < 63) below++
  return { threshold, tpr, tnr: below / m.nonMatch.length }
}

/** Non-match FPR at a cosine threshold (nonMatch sorted ascending). */
function fprAt(nonMatch: Float32Array, c: number): number {
  let lo = 0
  let hi = nonMatch.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (nonMatch[mid] < c) lo = mid + 1
    else hi = mid
  }
  return (nonMatch.length - lo) / nonMatch.length
}

const f3 = (x: number): string => x.toFixed(3)
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`

function describe(label: string, m: Measured): void {
  const qs = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]
  const nq = [0.5, 0.9, 0.95, 0.99, 0.999]
  console.log(`${label}`)
  console.log(
    `  match     n=${m.match.length}  ${qs.map((q) => `p${q * 100}=${f3(percentile(m.match, q))}`).join(' ')}`,
  )
  console.log(
    `  non-match n=${m.nonMatch.length}  ${nq.map((q) => `p${q * 100}=${f3(percentile(m.nonMatch, q))}`).join(' ')}`,
  )
  // Recall at a fixed false-positive rate: the quantity the design should maximise (calibration is monotone).
  const tprAt = (fpr: number): number => {
    const c = percentile(m.nonMatch, 1 - fpr)
    return m.match.filter((x) => x > c).length / m.match.length
  }
  console.log(
    `  recall@FPR1%=${pct(tprAt(0.01))} recall@FPR0.1%=${pct(tprAt(0.001))} MRR=${f3(m.mrr)} recall@10=${pct(m.recall10)}`,
  )
}

/**
 * Points from the measured distributions: 0 at (and below) the non-match median, 40 at the non-match 95th percentile,
 * 63 at the non-match 99th percentile (an unrelated profile passes the default threshold about once in 100),
 * 80 at the match median (if it is not below that), 100 at cosine 1. Rounded to 3 decimals.
 */
function derivePoints(m: Measured): CalibrationPoint[] {
  const r = (x: number): number => Math.round(x * 1000) / 1000
  const n50 = r(percentile(m.nonMatch, 0.5))
  const n95 = r(percentile(m.nonMatch, 0.95))
  const n99 = r(percentile(m.nonMatch, 0.99))
  const m50 = r(Math.max(percentile(m.match, 0.5), n99 + 0.05))
  return [
    [n50, 0],
    [n95, 40],
    [n99, 63],
    [m50, 80],
    [1, 100],
  ]
    .map(([c, s]) => [c, s] as CalibrationPoint)
    .filter((p, i, a) => i === 0 || p[0] > a[i - 1][0])
}

/** Equal weight for each set: every array is resampled (evenly, deterministically) to the size of the smallest. */
function pool(ms: Measured[]): Measured {
  const even = (arrays: Float32Array[]): Float32Array => {
    const n = Math.min(...arrays.map((a) => a.length))
    const out: number[] = []
    for (const a of arrays) for (let i = 0; i < n; i++) out.push(a[Math.floor((i * a.length) / n)])
    return Float32Array.from(out).sort()
  }
  const avg = (f: (m: Measured) => number): number => ms.reduce((s, m) => s + f(m), 0) / ms.length
  return {
    match: even(ms.map((m) => m.match)),
    nonMatch: even(ms.map((m) => m.nonMatch)),
    mrr: avg((m) => m.mrr),
    recall10: avg((m) => m.recall10),
  }
}

function report(label: string, m: Measured, cal: PiecewiseLinearCalibration): void {
  const r = at63(m, cal)
  console.log(
    `  ${label.padEnd(22)} matches >= 63: ${pct(r.tpr).padStart(6)}   non-matches < 63: ${pct(r.tnr).padStart(6)}` +
      `   median match -> ${cal.toScore(percentile(m.match, 0.5)).toFixed(1)}` +
      `   p95 non-match -> ${cal.toScore(percentile(m.nonMatch, 0.95)).toFixed(1)}` +
      `   p99 non-match -> ${cal.toScore(percentile(m.nonMatch, 0.99)).toFixed(1)}`,
  )
}

// ---------- --search: search quality on extracted profiles ----------

/** Query templates per relation family (from the relation names): a profile holds a fact when it has a relation of the
 * family with an object of the same normalised tokens. */
const FAMILIES: [family: string, relations: string[], template: (x: string) => string][] = [
  ['pet', ['have_pet'], (x) => `has a pet ${x}`],
  ['animal', ['like_animal', 'favorite_animal'], (x) => `likes ${x}`],
  ['music', ['like_music', 'favorite_music', 'favorite_music_artist'], (x) => `likes ${x}`],
  ['lives', ['live_in_citystatecountry', 'live_in_general'], (x) => `lives in ${x}`],
  ['origin', ['place_origin'], (x) => `is from ${x}`],
  ['job', ['has_profession'], (x) => `is a ${x}`],
  ['employer', ['employed_by_company'], (x) => `works at ${x}`],
  ['teach', ['teach'], (x) => `teaches ${x}`],
  ['food', ['like_food', 'favorite_food'], (x) => `likes ${x}`],
  ['drink', ['like_drink', 'favorite_drink'], (x) => `drinks ${x}`],
  ['sport', ['like_sports', 'like_sport', 'favorite_sport'], (x) => `likes ${x}`],
  ['hobby', ['has_hobby', 'like_activity', 'favorite_activity', 'favorite_hobby'], (x) => `enjoys ${x}`],
  ['ability', ['has_ability'], (x) => `can ${x}`],
  ['collect', ['collect'], (x) => `collects ${x}`],
  ['read', ['like_read', 'favorite_book'], (x) => `likes reading ${x}`],
  ['watch', ['like_watching', 'like_movie', 'favorite_movie', 'favorite_show'], (x) => `likes watching ${x}`],
  ['travel', ['like_goto', 'favorite_place'], (x) => `likes going to ${x}`],
  ['color', ['favorite_color', 'like_color'], (x) => `favorite color is ${x}`],
  ['season', ['favorite_season'], (x) => `loves ${x}`],
  ['trait', ['misc_attribute'], (x) => `is ${x}`],
  ['dislike', ['dislike', 'dislike_activity'], (x) => `hates ${x}`],
]
/**
 * Facts nobody in persona chat is likely to hold; each is dropped if any gold object of the data has one of its tokens.
 */
const UNRELATED: [template: (x: string) => string, objects: string[]][] = [
  [(x) => `has a pet ${x}`, ['axolotl', 'tarantula', 'hedgehog', 'chinchilla', 'iguana', 'alpaca']],
  [(x) => `likes ${x}`, ['theremin', 'bagpipes', 'harpsichord', 'didgeridoo', 'polka', 'yodeling']],
  [(x) => `enjoys ${x}`, ['falconry', 'taxidermy', 'beekeeping', 'glassblowing', 'calligraphy', 'bonsai']],
  [(x) => `likes eating ${x}`, ['durian', 'haggis', 'natto', 'escargot', 'kimchi', 'okra']],
  [(x) => `is interested in ${x}`, ['cryptography', 'blacksmithing', 'medieval siege engines', 'lighthouse keeping']],
]

function fnv(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0
  return h
}

async function searchEval(): Promise<void> {
  const records = readFileSync(dataPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as DevRecord)
  const extractor = new LocalExtractor()
  const summarizer = new LocalSummarizer()
  const embedder = new LocalEmbedder(mainOptions)
  const now = new Date().toISOString()
  const texts: string[] = []
  for (const r of records) {
    const state = emptyState()
    const { extractions } = await extractor.extract({
      profile: state.content,
      submissions: [{ submissionId: r.id, inputType: 'text', data: r.persona_sentences.join(' ') }],
    })
    const content = merge(state, extractions, now).state.content
    texts.push(profileText(content, (await summarizer.summarize(content)).summary))
  }
  // Profiles with no text are not embedded (the service stores no vector for them).
  const vectors = (await embedder.embed(texts)).vectors.map((v, i) => (texts[i] ? v : undefined))
  const facts = new Map<string, { query: string; relevant: Set<number> }>()
  records.forEach((r, i) => {
    for (const t of r.gold_persona_triples) {
      const fam = FAMILIES.find(([, relations]) => relations.includes(t.relation))
      const o = t.object.trim().toLowerCase()
      if (!fam || t.subject !== 'i' || /[<>]/.test(o)) continue
      const key = [...new Set(tokens(o))].sort().join(' ')
      if (!key || /^\d+$/.test(key)) continue
      const k = `${fam[0]}|${key}`
      const f = facts.get(k) ?? { query: fam[2](o), relevant: new Set<number>() }
      f.relevant.add(i)
      facts.set(k, f)
    }
  })
  const goldTokens = new Set(records.flatMap((r) => r.gold_persona_triples.flatMap((t) => tokens(t.object))))
  const unrelated = UNRELATED.flatMap(([make, objects]) =>
    objects.filter((o) => !tokens(o).some((t) => goldTokens.has(t))).map(make),
  )
  const queries = [...facts.entries()].sort(([a], [b]) => a.localeCompare(b))
  const qv = (await embedder.embed(queries.map(([, f]) => f.query))).vectors
  const uv = (await embedder.embed(unrelated)).vectors
  const dot = (a: number[], b: number[]): number => a.reduce((s, x, d) => s + x * b[d], 0)
  const cos = qv.map((q) => vectors.map((v) => (v ? dot(q, v) : -1)))
  const ucos = uv.map((q) => vectors.map((v) => (v ? dot(q, v) : -1)))
  const recordHalf = (i: number): number => fnv(records[i].id) & 1

  // Points from the tuning half (records of hash 0, all their queries): matches = (query, profile holding the fact).
  const match: number[] = []
  const nonMatch: number[] = []
  queries.forEach(([, f], k) =>
    records.forEach((_, i) => {
      if (recordHalf(i) === 0 && vectors[i]) (f.relevant.has(i) ? match : nonMatch).push(cos[k][i])
    }),
  )
  match.sort((a, b) => a - b)
  nonMatch.sort((a, b) => a - b)
  const q = (a: number[], p: number): number => a[Math.min(a.length - 1, Math.floor(p * a.length))]
  console.log(
    `search: ${records.length} extracted profiles (${texts.filter((t) => !t).length} empty), ${queries.length} fact queries, ${unrelated.length} unrelated queries`,
  )
  console.log(
    `tuning half: matches p10/p25/p50/p75 ${[0.1, 0.25, 0.5, 0.75].map((p) => f3(q(match, p))).join(' / ')}; non-matches p50/p90/p95/p98/p99/p99.5 ${[0.5, 0.9, 0.95, 0.98, 0.99, 0.995].map((p) => f3(q(nonMatch, p))).join(' / ')}`,
  )
  const r3 = (x: number): number => Math.round(x * 1000) / 1000
  const points: CalibrationPoint[] = [
    [r3(q(nonMatch, 0.5)), 0],
    [r3(q(nonMatch, 0.95)), 40],
    [r3(q(nonMatch, 0.99)), 63],
    [r3(q(match, 0.5)), 80],
    [1, 100],
  ]
  console.log(`derived points (0 non-match p50, 40 p95, 63 p99, 80 match p50): ${JSON.stringify(points)}`)

  const evaluate = (label: string, cal: PiecewiseLinearCalibration): void => {
    const min = cal.toCosine(63)
    const halves: [string, (k: number) => boolean, (i: number) => boolean][] = [
      ['records half 0 (tuning)', () => true, (i) => recordHalf(i) === 0],
      ['records half 1 (held out)', () => true, (i) => recordHalf(i) === 1],
      ['facts half 0', (k) => (fnv(queries[k][0]) & 1) === 0, () => true],
      ['facts half 1', (k) => (fnv(queries[k][0]) & 1) === 1, () => true],
      ['all', () => true, () => true],
    ]
    console.log(`\n${label}: cosine at 63 = ${f3(min)}`)
    for (const [name, useQuery, useRecord] of halves) {
      let n = 0,
        recall = 0,
        precision = 0,
        ndcg = 0,
        rankRecall = 0,
        empty = 0
      queries.forEach(([, f], k) => {
        const rel = [...f.relevant].filter(useRecord)
        if (!useQuery(k) || rel.length === 0) return
        const ranked = records
          .map((_, i) => i)
          .filter((i) => useRecord(i) && vectors[i])
          .sort((a, b) => cos[k][b] - cos[k][a] || a - b)
        const kept = ranked.filter((i) => cos[k][i] >= min).slice(0, 10)
        const ideal = Math.min(10, rel.length)
        const hits = kept.filter((i) => f.relevant.has(i)).length
        let dcg = 0,
          idcg = 0
        kept.forEach((i, r) => {
          if (f.relevant.has(i)) dcg += 1 / Math.log2(r + 2)
        })
        for (let r = 0; r < ideal; r++) idcg += 1 / Math.log2(r + 2)
        n++
        recall += hits / ideal
        precision += hits / 10
        ndcg += dcg / idcg
        rankRecall += ranked.slice(0, 10).filter((i) => f.relevant.has(i)).length / ideal
        if (kept.length === 0) empty++
      })
      const unrelatedEmpty = ucos.filter((c) => !c.some((x, i) => useRecord(i) && x >= min)).length
      console.log(
        `  ${name.padEnd(26)} ${String(n).padStart(4)} queries: recall@10 ${f3(recall / n)}, precision@10 ${f3(precision / n)}, nDCG@10 ${f3(ndcg / n)} (recall@10 without threshold ${f3(rankRecall / n)}); related queries returning nothing ${pct(empty / n)}; unrelated returning nothing ${unrelatedEmpty}/${unrelated.length}`,
      )
    }
  }
  // BENCH_POINTS='[[0.035,0],...]' evaluates other points (e.g. an earlier version's, with BENCH_OPTIONS for its
  // settings).
  const given = process.env.BENCH_POINTS ? (JSON.parse(process.env.BENCH_POINTS) as CalibrationPoint[]) : undefined
  evaluate(
    given ? `points ${process.env.BENCH_POINTS}` : 'points in src/ai/local/calibration.ts',
    new PiecewiseLinearCalibration(given ?? LOCAL_CALIBRATION_POINTS),
  )
  evaluate('derived points', new PiecewiseLinearCalibration(points))
}

async function main(): Promise<void> {
  if (args.includes('--search')) return searchEval()
  const t0 = performance.now()
  if (configured) console.log(`measuring the configured embedding model: ${(await configuredEmbedder()).model}`)
  else {
    const warm = await new LocalEmbedder().warmUp()
    console.log(`word vectors loaded in ${warm.toFixed(0)} ms (${(performance.now() - t0).toFixed(0)} ms wall)`)
  }
  const data = load()
  console.log(`data: ${data.profiles.length} distinct personas, ${data.queries.length} queries from gold triples\n`)

  if (args.includes('--variants')) {
    const variants: [string, LocalEmbedderOptions][] = []
    if (process.env.VARIANTS) {
      for (const o of JSON.parse(process.env.VARIANTS) as LocalEmbedderOptions[]) variants.push([JSON.stringify(o), o])
    } else {
      for (const hashBuckets of [155, 411, 923, 1899]) variants.push([`buckets=${hashBuckets}`, { hashBuckets }])
      for (const semanticShare of [0, 0.25, 0.4, 0.55, 1]) variants.push([`share=${semanticShare}`, { semanticShare }])
      for (const semanticTaper of [0, 8, 24]) variants.push([`taper=${semanticTaper}`, { semanticTaper }])
      for (const frequencyK of [0, 50, 100, 300, 1000]) variants.push([`K=${frequencyK}`, { frequencyK }])
      variants.push(['removeCommon=false', { removeCommon: false }])
      for (const maxWords of [50_000, 150_000, 400_000]) variants.push([`maxWords=${maxWords}`, { maxWords }])
    }
    const para = { profiles: data.profiles, queries: await paraphrases(data) }
    console.log(
      `paraphrase queries: ${para.queries.length}, e.g. ${para.queries
        .slice(0, 6)
        .map((q) => JSON.stringify(q.text))
        .join(', ')}`,
    )
    const rich = load(4)
    for (const [label, opts] of variants) {
      describe(label, await measure(opts, false, data))
      describe('  paraphrases', await measure(opts, false, para))
      describe('  rich profiles (x4)', await measure(opts, false, rich))
    }
    console.log()
  }

  // Profiles grow with every submission, and longer profiles give lower cosines: calibrate on several sizes at once
  // (1, 2 and 4 personas merged: about 3, 6 and 12 profile facts). 8 personas (~23 facts) is shown, not pooled.
  const sizes = [1, 2, 4, 8]
  const pooledSizes = 3
  const bySize: Measured[] = []
  for (const size of sizes) {
    const d = size === 1 ? data : load(size)
    const m = await measure(mainOptions, false, d)
    bySize.push(m)
    describe(
      `default embedder, profiles of ${size} persona(s) (${d.profiles.length} profiles, ${d.queries.length} queries)`,
      m,
    )
  }
  if (args.includes('--raw'))
    describe('default embedder, raw persona sentences (1 persona)', await measure(mainOptions, true, data))
  const pooled = pool(bySize.slice(0, pooledSizes))
  describe(`pooled (sizes ${sizes.slice(0, pooledSizes).join(', ')}, equal weight)`, pooled)

  // Where to put 63: recall vs precision at candidate thresholds (precision for a fact held by 1% / 5% of profiles).
  console.log('\nthreshold candidates (pooled):')
  for (const q of [0.98, 0.99, 0.995, 0.999]) {
    const c = percentile(pooled.nonMatch, q)
    const tpr = pooled.match.filter((x) => x >= c).length / pooled.match.length
    const fpr = fprAt(pooled.nonMatch, c)
    const precision = (prev: number): string => pct((tpr * prev) / (tpr * prev + fpr * (1 - prev)))
    console.log(
      `  non-match p${(q * 100).toFixed(1)} = ${f3(c)}: recall ${pct(tpr)}, FPR ${pct(fpr)}, precision ${precision(0.01)} (1% hold it) / ${precision(0.05)} (5%)`,
    )
  }
  const points = derivePoints(pooled)
  console.log(`\nderived points: ${JSON.stringify(points)}`)
  console.log(`as configuration: PROFILER_EMBEDDING_CALIBRATION=${points.map(([c, sc]) => `${f3(c)}:${sc}`).join(',')}`)
  if (configured) return
  const derived = new PiecewiseLinearCalibration(points)
  sizes.forEach((size, i) => report(`${size} persona(s)`, bySize[i], derived))
  report('pooled', pooled, derived)

  console.log(`\npoints in src/ai/local/calibration.ts: ${JSON.stringify(LOCAL_CALIBRATION_POINTS)}`)
  const current = new PiecewiseLinearCalibration(LOCAL_CALIBRATION_POINTS)
  console.log(
    `cosine at score 63 = ${f3(current.toCosine(63))} (non-match FPR there: pooled ${pct(fprAt(pooled.nonMatch, current.toCosine(63)))})`,
  )
  sizes.forEach((size, i) => report(`${size} persona(s)`, bySize[i], current))
  report('pooled', pooled, current)
}

await main()

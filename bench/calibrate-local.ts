// Measures raw cosine of the local embedder for matching vs non-matching (query, profile) pairs on the persona dev
// data, and derives the calibration points of src/ai/local/calibration.ts.
//   npx tsx bench/calibrate-local.ts [path/to/convai2-valid-speakers.jsonl] [--variants] [--raw] [--configured]
// --configured measures the embedding model the environment configures (e.g. PROFILER_AI=openai with
// PROFILER_EMBEDDING_MODEL) and prints PROFILER_EMBEDDING_CALIBRATION points for it.
// Profiles are built from the gold triples by a small manual relation -> field mapping (what a good extractor would
// store), their text by profileText(content, LocalSummarizer summary). Queries are short phrases made from the same
// triples ("has a pet turtle", "lives in texas"). A pair matches when the query's triple belongs to the profile;
// non-matching pairs are every other profile whose gold objects do not contain all the content stems of the query's
// object (so "nurse" vs a profile with "nursing home" counts as neither).
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
import { emptyContent, type ProfileContent } from '../src/domain/profile.js'

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
/** --configured: measure the embedding model the environment configures (PROFILER_AI, PROFILER_EMBEDDING_MODEL, ...). */
const configured = args.includes('--configured')
let configuredOne: Embedder | undefined
async function configuredEmbedder(): Promise<Embedder> {
  configuredOne ??= createAiProviders(loadConfig(process.env)).embedder
  return configuredOne
}
/** BENCH_OPTIONS='{"hashBuckets":1435}' measures and calibrates other embedder settings than the defaults. */
const mainOptions = JSON.parse(process.env.BENCH_OPTIONS ?? '{}') as LocalEmbedderOptions
const here = dirname(fileURLToPath(import.meta.url))
const dataPath =
  args.find((a) => !a.startsWith('--')) ?? resolve(here, '../../shared/data/persona-dev/convai2-valid-speakers.jsonl')

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

/** "2 dog" -> "dog", "10 human services field" -> "human services field": the leading counts are annotation artefacts. */
function object(o: string): string {
  return o.replace(/^\s*\d+\s+/, '').replace(/\s+/g, ' ').trim()
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
        if (!p.core_info.occupation || t.relation === 'has_profession') p.core_info.occupation = { value: o, confidence: c }
      }
    } else if (section === 'interests' && !NEGATED.test(t.relation)) {
      ;(p.interests[field] ??= []).push({ value: o, confidence: c })
    } else if (section === 'personality') {
      p.personality.traits.push({ value: t.relation === 'scared_of' ? `scared of ${o}` : o, confidence: c })
    } else if (section === 'preferences') {
      p.preferences.topics_to_avoid.push({ value: o, confidence: c })
    } else if (section === 'memories') {
      p.memories.push({ event: `${t.relation === 'used_to' ? 'used to ' : 'was '}${o}`, importance: 'medium', confidence: c })
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
 * ("turtle" -> "tortoise"), for single-word objects. No hashed feature can match these: they measure the word-vector part.
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
  console.log(`  match     n=${m.match.length}  ${qs.map((q) => `p${q * 100}=${f3(percentile(m.match, q))}`).join(' ')}`)
  console.log(`  non-match n=${m.nonMatch.length}  ${nq.map((q) => `p${q * 100}=${f3(percentile(m.nonMatch, q))}`).join(' ')}`)
  // Recall at a fixed false-positive rate: the quantity the design should maximise (calibration is monotone).
  const tprAt = (fpr: number): number => {
    const c = percentile(m.nonMatch, 1 - fpr)
    return m.match.filter((x) => x > c).length / m.match.length
  }
  console.log(`  recall@FPR1%=${pct(tprAt(0.01))} recall@FPR0.1%=${pct(tprAt(0.001))} MRR=${f3(m.mrr)} recall@10=${pct(m.recall10)}`)
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
  ].map(([c, s]) => [c, s] as CalibrationPoint).filter((p, i, a) => i === 0 || p[0] > a[i - 1][0])
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
  return { match: even(ms.map((m) => m.match)), nonMatch: even(ms.map((m) => m.nonMatch)), mrr: avg((m) => m.mrr), recall10: avg((m) => m.recall10) }
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

async function main(): Promise<void> {
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
    console.log(`paraphrase queries: ${para.queries.length}, e.g. ${para.queries.slice(0, 6).map((q) => JSON.stringify(q.text)).join(', ')}`)
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
    describe(`default embedder, profiles of ${size} persona(s) (${d.profiles.length} profiles, ${d.queries.length} queries)`, m)
  }
  if (args.includes('--raw')) describe('default embedder, raw persona sentences (1 persona)', await measure(mainOptions, true, data))
  const pooled = pool(bySize.slice(0, pooledSizes))
  describe(`pooled (sizes ${sizes.slice(0, pooledSizes).join(', ')}, equal weight)`, pooled)

  // Where to put 63: recall vs precision at candidate thresholds (precision for a fact held by 1% / 5% of profiles).
  console.log('\nthreshold candidates (pooled):')
  for (const q of [0.98, 0.99, 0.995, 0.999]) {
    const c = percentile(pooled.nonMatch, q)
    const tpr = pooled.match.filter((x) => x >= c).length / pooled.match.length
    const fpr = fprAt(pooled.nonMatch, c)
    const precision = (prev: number): string => pct((tpr * prev) / (tpr * prev + fpr * (1 - prev)))
    console.log(`  non-match p${(q * 100).toFixed(1)} = ${f3(c)}: recall ${pct(tpr)}, FPR ${pct(fpr)}, precision ${precision(0.01)} (1% hold it) / ${precision(0.05)} (5%)`)
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
  console.log(`cosine at score 63 = ${f3(current.toCosine(63))} (non-match FPR there: pooled ${pct(fprAt(pooled.nonMatch, current.toCosine(63)))})`)
  sizes.forEach((size, i) => report(`${size} persona(s)`, bySize[i], current))
  report('pooled', pooled, current)
}

await main()

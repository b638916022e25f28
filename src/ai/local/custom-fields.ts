// The local extractor's reading of an app's custom schema fields (docs/guides/custom-schema.md). A schema is compiled
// once (per app and version, cached) into two word tries: the vocabulary (the values a field's description or `values`
// names, and enum values) and the labels (the field's name: "budget", "preferred language"). The text is then read
// once, word by word; from each word at most MAX_PHRASE_WORDS trie nodes are visited, whatever the schema's size, so
// the work is linear in the text's length (plus what the matches themselves report).
//
// What it recognises:
// - a vocabulary value mentioned in a sentence, not negated in the three words before it ("I'm not vegetarian"):
// string[] (every one), string (the first), enum (only when the sentence also names the field or a preference:
// "I prefer Spanish", "my preferred language is Spanish");
// - a label followed, within a few filler words, by a value: "budget is 500", "my budget: $1,500", "budget of 2k"
// (integer, number), "newsletter: yes" (boolean), "preferred language: Spanish" (enum), "allergies: peanuts, dust"
// (string[] and string, the rest of the sentence).
import type { CustomField, CustomSchema, CustomValues } from '../../domain/custom-schema.js'
import { cleanCustomValue, vocabularyOf } from '../../domain/custom-schema.js'
import type { Scored } from '../../domain/profile.js'

export const MAX_PHRASE_WORDS = 6
/** Filler words allowed between a label and its value ("budget is about $500", "budget of around 2k"). */
const FILLER = new Set([
  'is',
  'are',
  'was',
  'of',
  'at',
  'about',
  'around',
  'approximately',
  'roughly',
  'approx',
  'be',
  'would',
  'will',
  'my',
  'the',
  'to',
  'up',
  'usd',
  'eur',
  'gbp',
  'set',
  'include',
  'includes',
  'including',
  'equals',
  'currently',
  'now',
  'maybe',
  'under',
  'over',
])
export const MAX_FILLER = 4
const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'nor',
  'neither',
  't',
  'dont',
  'doesnt',
  'isnt',
  'arent',
  'wasnt',
  'without',
  'nothing',
  'none',
])
const PREFERENCE = new Set([
  'prefer',
  'prefers',
  'preferred',
  'preference',
  'rather',
  'choose',
  'chose',
  'pick',
  'want',
  'favorite',
  'favourite',
  'choice',
])
/** Free values after a label: at most this many words are read. */
const MAX_FREE_WORDS = 30
const YES = new Set(['yes', 'true', 'y', 'yeah', 'yep'])
const NO = new Set(['no', 'false', 'n', 'nope'])

interface FieldRef {
  section: string
  field: string
  def: CustomField
  /** Words that, in the same sentence, make an enum mention count (the field's name words). */
  cue: Set<string>
}

interface Phrase {
  words: string[]
  ref: FieldRef
  /** Vocabulary phrases: the value as written in the schema. */
  display?: string
}

/** A word trie: a node per phrase prefix; `phrases` are those ending here (several fields may share one). */
interface TrieNode {
  next: Map<string, TrieNode>
  phrases: Phrase[]
}

export interface CompiledSchema {
  vocabulary: TrieNode
  labels: TrieNode
}

const node = (): TrieNode => ({ next: new Map(), phrases: [] })

const TOKEN = /(?<![\p{L}\p{N}])-\d+(?:[.,]\d+)*|[\p{L}\p{N}]+(?:[.,]\d+)*|[$€£:]|[.!?;\n]/gu

interface Token {
  w: string
  start: number
  end: number
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_PHRASE_WORDS + 1)
}

function index(root: TrieNode, phrase: Phrase) {
  if (!phrase.words.length || phrase.words.length > MAX_PHRASE_WORDS) return
  let cursor = root
  for (const w of phrase.words) {
    let child = cursor.next.get(w)
    if (!child) cursor.next.set(w, (child = node()))
    cursor = child
  }
  if (!cursor.phrases.some((x) => x.ref === phrase.ref)) cursor.phrases.push(phrase)
}

export function compileSchema(schema: CustomSchema): CompiledSchema {
  const vocabulary = node()
  const labels = node()
  for (const [section, fields] of Object.entries(schema.sections)) {
    for (const [field, def] of Object.entries(fields)) {
      const name = field.split('_').filter(Boolean)
      const ref: FieldRef = { section, field, def, cue: new Set(name) }
      index(labels, { words: name, ref })
      // "preferred_language" is also named by its last word ("my language is ..."), when that word says something.
      if (name.length > 1 && name[name.length - 1]!.length > 3) index(labels, { words: name.slice(-1), ref })
      if (def.type === 'integer' || def.type === 'number' || def.type === 'boolean') continue
      for (const v of vocabularyOf(def)) index(vocabulary, { words: words(v), ref, display: v })
    }
  }
  return { vocabulary, labels }
}

const cache = new Map<string, CompiledSchema>()
const CACHE_MAX = 256

/** The compiled schema, cached by key (app and version: a version never changes). */
export function compiledFor(key: string, schema: CustomSchema): CompiledSchema {
  let compiled = cache.get(key)
  if (!compiled) {
    compiled = compileSchema(schema)
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
    cache.set(key, compiled)
  }
  return compiled
}

function parseAmount(word: string, next: string | undefined): number | undefined {
  const match = /^(-?\d{1,15}(?:,\d{3})*|-?\d+)(\.\d+)?(k|m)?$/.exec(word)
  if (!match) return undefined
  let amount = Number(`${match[1]!.replace(/,/g, '')}${match[2] ?? ''}`)
  const mult = match[3] ?? (next === 'k' || next === 'thousand' ? 'k' : next === 'million' ? 'm' : '')
  if (mult === 'k') amount *= 1000
  if (mult === 'm') amount *= 1_000_000
  return Number.isFinite(amount) ? amount : undefined
}

export interface CustomReadStats {
  /**
   * Trie nodes visited: per token at most MAX_PHRASE_WORDS in each trie, plus (MAX_FILLER + 1) x MAX_PHRASE_WORDS
   * for an enum value after a label.
   */
  steps: number
  /** Tokens read (words, numbers, and the punctuation that matters). */
  tokens: number
}

/**
 * The custom values the text states, for a compiled schema. `stats.steps` counts the phrase comparisons (tests check
 * the work stays proportional to the text).
 */
export function readCustomFields(text: string, compiled: CompiledSchema, stats?: CustomReadStats): CustomValues {
  const out: CustomValues = {}
  const lists = new Map<string, Map<string, Scored<string>>>()
  const setScalar = (ref: FieldRef, value: string | number | boolean, confidence: number) => {
    const cleaned = cleanCustomValue(ref.def, value)
    if (cleaned === undefined) return
    const section = (out[ref.section] ??= {})
    const cur = section[ref.field] as Scored<string | number | boolean> | undefined
    if (!cur || cur.confidence < confidence) section[ref.field] = { value: cleaned, confidence }
  }
  const addList = (ref: FieldRef, value: string, confidence: number) => {
    const cleaned = cleanCustomValue(ref.def, value)
    if (typeof cleaned !== 'string') return
    const fieldPath = `${ref.section}.${ref.field}`
    let values = lists.get(fieldPath)
    if (!values) lists.set(fieldPath, (values = new Map()))
    const key = cleaned.toLowerCase()
    const cur = values.get(key)
    if (!cur || cur.confidence < confidence) values.set(key, { value: cleaned, confidence })
    ;(out[ref.section] ??= {})[ref.field] = [...values.values()]
  }

  let steps = 0
  /** The phrases of a trie that start at token i (a prefix walk of MAX_PHRASE_WORDS nodes at most). */
  const matchesIn = (toks: Token[], root: TrieNode, start: number): Phrase[] => {
    const out: Phrase[] = []
    let cursor: TrieNode | undefined = root
    for (let k = 0; k < MAX_PHRASE_WORDS && start + k < toks.length; k++) {
      cursor = cursor.next.get(toks[start + k]!.w)
      steps++
      if (!cursor) break
      if (cursor.phrases.length) out.push(...cursor.phrases)
    }
    return out
  }
  let sentence: Token[] = []
  const flush = () => {
    if (sentence.length) readSentence(text, sentence)
    sentence = []
  }
  const readSentence = (raw: string, toks: Token[]) => {
    const present = new Set(toks.map((t) => t.w))
    const preference = toks.some((t) => PREFERENCE.has(t.w))
    let lastPreference = -100
    const negatedAt = (position: number) => {
      for (let j = Math.max(0, position - 3); j < position; j++) if (NEGATIONS.has(toks[j]!.w)) return true
      return false
    }
    for (let i = 0; i < toks.length; i++) {
      const word = toks[i]!.w
      if (PREFERENCE.has(word)) lastPreference = i
      for (const p of matchesIn(toks, compiled.vocabulary, i)) {
        if (negatedAt(i)) continue
        const { def } = p.ref
        if (def.type === 'string[]') addList(p.ref, p.display!, 0.6)
        else if (def.type === 'string') setScalar(p.ref, p.display!, 0.55)
        else if (def.type === 'enum') {
          // The value right after "prefer" wins over another one the sentence merely names ("I speak English but prefer
          // Spanish").
          if (i - lastPreference <= 3) setScalar(p.ref, p.display!, 0.72)
          else if (preference || [...p.ref.cue].some((c) => present.has(c))) setScalar(p.ref, p.display!, 0.65)
        }
      }
      for (const p of matchesIn(toks, compiled.labels, i)) {
        if (negatedAt(i)) continue
        readLabelled(raw, toks, i + p.words.length, p.ref)
      }
    }
  }
  const readLabelled = (raw: string, toks: Token[], from: number, ref: FieldRef) => {
    let valueIndex = from
    let colon = false
    for (let n = 0; valueIndex < toks.length && n < MAX_FILLER; n++) {
      const word = toks[valueIndex]!.w
      if (word === ':') colon = true
      else if (!FILLER.has(word) && word !== '$' && word !== '€' && word !== '£') break
      valueIndex++
    }
    const valueToken = toks[valueIndex]
    if (!valueToken) return
    const { def } = ref
    if (def.type === 'integer' || def.type === 'number') {
      const amount = parseAmount(valueToken.w, toks[valueIndex + 1]?.w)
      if (amount !== undefined) setScalar(ref, amount, 0.8)
    } else if (def.type === 'boolean') {
      if (YES.has(valueToken.w)) setScalar(ref, true, 0.8)
      else if (NO.has(valueToken.w)) setScalar(ref, false, 0.8)
    } else if (def.type === 'enum') {
      // An enum value may itself start with a filler word ("the basic plan"): tried from each word after the label.
      for (let k = from; k <= valueIndex; k++)
        for (const p of matchesIn(toks, compiled.vocabulary, k)) if (p.ref === ref) setScalar(ref, p.display!, 0.85)
    } else if (
      colon ||
      toks[valueIndex - 1]?.w === 'is' ||
      toks[valueIndex - 1]?.w === 'are' ||
      toks[valueIndex - 1]?.w === 'include' ||
      toks[valueIndex - 1]?.w === 'includes'
    ) {
      // Free values: the rest of the sentence, as written ("allergies: peanuts, dust and pollen").
      const last = toks[Math.min(toks.length - 1, valueIndex + MAX_FREE_WORDS)]!
      const rest = raw.slice(valueToken.start, last.end)
      const items = rest
        .split(/,|;|\band\b|\bor\b|&/i)
        .map((x) => x.trim())
        .filter((x) => x && x.split(/\s+/).length <= 5)
        .slice(0, 10)
      if (def.type === 'string[]') for (const it of items) addList(ref, it, 0.75)
      else if (items[0]) setScalar(ref, rest.trim().slice(0, 100), 0.75)
    }
  }

  let tokens = 0
  TOKEN.lastIndex = 0
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    tokens++
    const word = m[0].toLowerCase()
    if (word === '.' || word === '!' || word === '?' || word === ';' || word === '\n') flush()
    else sentence.push({ w: word, start: m.index, end: m.index + m[0].length })
  }
  flush()
  if (stats) {
    stats.steps += steps
    stats.tokens += tokens
  }
  return out
}

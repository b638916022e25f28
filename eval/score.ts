// Scoring for the evaluation harness (docs/evaluation.md). Pure functions: no I/O, no clock, no randomness.
// A "value" is compared by normalised tokens (src/domain/normalise.ts: lower case, stemmed, stop words dropped),
// the same tokens search uses, so the harness and the service agree on what a word is.
import { categoryKey, normaliseValue, tokens } from '../src/domain/normalise.js'

/** Profile fields the harness scores; everything else (other.*, memories, ignore) is not part of the score. */
export const CORE_SCORED = ['name', 'age', 'gender', 'location', 'occupation'] as const

/** A gold fact for one person: the profile field it is evidence for and its object ("turtle", "texas"). */
export interface GoldFact {
  field: string
  object: string
}

/** One extracted value, in its section; `category` only for interests. */
export interface ExtractedValue {
  section: string
  value: string
  category?: string
}

/** The scoring section of a profile field: core_info.<f>, `interests` (all categories), traits, topics to avoid. */
export function sectionOf(field: string): string | undefined {
  if (field.startsWith('core_info.'))
    return (CORE_SCORED as readonly string[]).includes(field.slice(10)) ? field : undefined
  if (field.startsWith('interests.')) return 'interests'
  if (field === 'personality.traits' || field === 'preferences.topics_to_avoid') return field
  return undefined
}

export const isScoredField = (field: string): boolean => sectionOf(field) !== undefined

const tokenCache = new Map<string, Set<string>>()

/** Set of normalised content tokens; falls back to the dedupe key when the text is all stop words ("me too"). */
export function tokenSet(s: string): Set<string> {
  let t = tokenCache.get(s)
  if (!t) {
    t = new Set(tokens(s))
    if (t.size === 0) {
      const key = normaliseValue(s)
      if (key) t.add(key)
    }
    if (tokenCache.size > 50_000) tokenCache.clear()
    tokenCache.set(s, t)
  }
  return t
}

/** Canonical key of a set of tokens (sorted, space-joined): equal keys = "same normalised tokens". */
export function tokenKey(s: string): string {
  return [...tokenSet(s)].sort().join(' ')
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0
  let inter = 0
  for (const x of a) if (b.has(x)) inter++
  return inter / (a.size + b.size - inter)
}

/**
 * The match rule: a gold object is found in an extracted value when all of the gold's tokens are in the value
 * ("turtle" in "pet turtle"), or when the two token sets have Jaccard similarity >= 0.5.
 */
export function matches(gold: string, value: string): boolean {
  const g = tokenSet(gold)
  const v = tokenSet(value)
  if (g.size === 0 || v.size === 0) return false
  let contained = true
  for (const x of g)
    if (!v.has(x)) {
      contained = false
      break
    }
  return contained || jaccard(g, v) >= 0.5
}

/** Extracted values of a profile (REST / domain shape) in the sections the harness scores. */
export function extractedValues(profile: {
  core_info?: Record<string, { value: unknown } | undefined>
  interests?: Record<string, { value: unknown }[]>
  personality?: { traits?: { value: unknown }[] }
  preferences?: { topics_to_avoid?: { value: unknown }[] }
}): ExtractedValue[] {
  const out: ExtractedValue[] = []
  for (const f of CORE_SCORED) {
    const v = profile.core_info?.[f]
    if (v && v.value !== undefined && v.value !== null && String(v.value).trim())
      out.push({ section: `core_info.${f}`, value: String(v.value) })
  }
  for (const [category, items] of Object.entries(profile.interests ?? {})) {
    for (const i of items ?? [])
      if (String(i.value).trim())
        out.push({ section: 'interests', value: String(i.value), category: categoryKey(category) })
  }
  for (const t of profile.personality?.traits ?? [])
    if (String(t.value).trim()) out.push({ section: 'personality.traits', value: String(t.value) })
  for (const t of profile.preferences?.topics_to_avoid ?? []) {
    if (String(t.value).trim()) out.push({ section: 'preferences.topics_to_avoid', value: String(t.value) })
  }
  return out
}

/** Gold facts with duplicates (same field, same tokens) and unscored fields dropped. */
export function dedupeGold(facts: readonly GoldFact[]): GoldFact[] {
  const seen = new Set<string>()
  const out: GoldFact[] = []
  for (const f of facts) {
    if (!isScoredField(f.field) || tokenSet(f.object).size === 0) continue
    const k = `${f.field}\u0000${tokenKey(f.object)}`
    if (seen.has(k)) continue
    seen.add(k)
    out.push(f)
  }
  return out
}

/**
 * Counts for one row of the table. `found` = gold objects found (recall); `correct` = extracted values matching a gold.
 */
export interface Counts {
  gold: number
  found: number
  extracted: number
  correct: number
}

export interface FieldCounts extends Counts {
  /** Interests only: matched gold objects whose (a) matching value has the gold field's category. */
  categoryCorrect?: number
  /** Conversation only: extracted values that match no own fact but a fact of the other speaker. */
  otherSpeaker?: number
}

export interface ProfileScore {
  /** Row per profile field (core_info.*, interests.<category>, personality.traits, preferences.topics_to_avoid). */
  fields: Record<string, FieldCounts>
  /** Extracted values that matched no gold object, for inspection. */
  falsePositives: ExtractedValue[]
  /** Gold facts that were not found, for inspection. */
  missed: GoldFact[]
}

const emptyCounts = (): FieldCounts => ({ gold: 0, found: 0, extracted: 0, correct: 0 })

/**
 * Scores one profile. Gold objects are found by any value of their section; every extracted value of a scored
 * section matching no gold object of that section is a false positive. For interests, per-field rows count gold by
 * the gold field and extracted values by the extracted category, so the category is scored only by category accuracy.
 * `other` are the other speaker's facts (conversation task): a false positive matching one of them is counted in
 * `otherSpeaker`.
 */
export function scoreProfile(
  goldIn: readonly GoldFact[],
  extracted: readonly ExtractedValue[],
  other: readonly GoldFact[] = [],
): ProfileScore {
  const gold = dedupeGold(goldIn)
  const fields: Record<string, FieldCounts> = {}
  const row = (f: string) => (fields[f] ??= emptyCounts())
  const missed: GoldFact[] = []
  for (const g of gold) {
    const section = sectionOf(g.field)!
    const r = row(g.field)
    r.gold++
    const hits = extracted.filter((e) => e.section === section && matches(g.object, e.value))
    if (hits.length) {
      r.found++
      if (section === 'interests') {
        const want = g.field.slice('interests.'.length)
        r.categoryCorrect = (r.categoryCorrect ?? 0) + (hits.some((h) => h.category === want) ? 1 : 0)
      }
    } else missed.push(g)
  }
  const otherScored = dedupeGold(other)
  const falsePositives: ExtractedValue[] = []
  for (const e of extracted) {
    const r = row(e.section === 'interests' ? `interests.${e.category ?? 'other'}` : e.section)
    r.extracted++
    if (gold.some((g) => sectionOf(g.field) === e.section && matches(g.object, e.value))) {
      r.correct++
    } else {
      falsePositives.push(e)
      if (otherScored.some((g) => sectionOf(g.field) === e.section && matches(g.object, e.value)))
        r.otherSpeaker = (r.otherSpeaker ?? 0) + 1
    }
  }
  return { fields, falsePositives, missed }
}

/** Adds b's counts into a (per field). */
export function addScores(into: Record<string, FieldCounts>, add: Record<string, FieldCounts>): void {
  for (const [f, c] of Object.entries(add)) {
    const r = (into[f] ??= emptyCounts())
    r.gold += c.gold
    r.found += c.found
    r.extracted += c.extracted
    r.correct += c.correct
    if (c.categoryCorrect !== undefined) r.categoryCorrect = (r.categoryCorrect ?? 0) + c.categoryCorrect
    if (c.otherSpeaker !== undefined) r.otherSpeaker = (r.otherSpeaker ?? 0) + c.otherSpeaker
  }
}

export interface Prf {
  precision: number | null
  recall: number | null
  f1: number | null
}

/** P = correct/extracted, R = found/gold, F1 their harmonic mean; null when undefined (nothing to divide). */
export function prf(c: Counts): Prf {
  const precision = c.extracted ? c.correct / c.extracted : null
  const recall = c.gold ? c.found / c.gold : null
  const f1 =
    precision !== null && recall !== null
      ? precision + recall
        ? (2 * precision * recall) / (precision + recall)
        : 0
      : null
  return { precision, recall, f1 }
}

export interface Row extends FieldCounts, Prf {
  field: string
}

export interface Table {
  rows: Row[]
  /** Whole interests section (all categories). */
  interests: Row
  /** Micro average over every scored field. */
  micro: Row
  /** Share of found interest gold objects whose matching value carries the gold field's category. */
  categoryAccuracy: number | null
  /** Conversation: share of extracted values that match only the other speaker's facts. */
  otherSpeakerShare: number | null
}

const FIELD_ORDER = ['core_info.', 'interests.', 'personality.', 'preferences.']

/** Per-field rows, the interests section as a whole, and the micro average. */
export function buildTable(fields: Record<string, FieldCounts>): Table {
  const names = Object.keys(fields).sort((a, b) => {
    const ia = FIELD_ORDER.findIndex((p) => a.startsWith(p))
    const ib = FIELD_ORDER.findIndex((p) => b.startsWith(p))
    return ia - ib || a.localeCompare(b)
  })
  const rows = names.map((field) => ({ field, ...fields[field]!, ...prf(fields[field]!) }))
  const sum = (pick: (f: string) => boolean): FieldCounts => {
    const t: Record<string, FieldCounts> = {}
    for (const f of names) if (pick(f)) addScores(t, { x: fields[f]! })
    return t.x ?? emptyCounts()
  }
  const interests = sum((f) => f.startsWith('interests.'))
  const micro = sum(() => true)
  return {
    rows,
    interests: { field: 'interests (section)', ...interests, ...prf(interests) },
    micro: { field: 'micro', ...micro, ...prf(micro) },
    categoryAccuracy: interests.found ? (interests.categoryCorrect ?? 0) / interests.found : null,
    otherSpeakerShare: micro.extracted ? (micro.otherSpeaker ?? 0) / micro.extracted : null,
  }
}

// ---- search ----

/** Binary-relevance ranking metrics at k over one query's returned ids (best first). */
export function rankingMetrics(returned: readonly string[], relevant: ReadonlySet<string>, k = 10) {
  const top = returned.slice(0, k)
  let hits = 0
  let dcg = 0
  top.forEach((id, i) => {
    if (relevant.has(id)) {
      hits++
      dcg += 1 / Math.log2(i + 2)
    }
  })
  let idcg = 0
  for (let i = 0; i < Math.min(k, relevant.size); i++) idcg += 1 / Math.log2(i + 2)
  return {
    hits,
    /** Share of the relevant profiles found in the top k, capped: min(k, |relevant|) found = 1. */
    recall: relevant.size ? hits / Math.min(k, relevant.size) : 0,
    /** Standard P@k: hits / k. */
    precision: hits / k,
    /** Precision of what came back (hits / returned); null when nothing came back. */
    precisionReturned: top.length ? hits / top.length : null,
    ndcg: idcg ? dcg / idcg : 0,
  }
}

// ---- seeded sampling ----

/** mulberry32: a small deterministic PRNG, so `--seed` reproduces the sample. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Seeded Fisher-Yates sample of n items (all, shuffled, when n >= length). */
export function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  const a = [...items]
  const r = rng(seed)
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a.slice(0, Math.min(n, a.length))
}

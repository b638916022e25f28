// Building blocks of the merge (CONTRACT §7). They mutate the working copy the merge owns, never caller data.
import { categoryKey, normaliseValue } from './normalise.js'
import type { Importance, Memory, ProfileState, Scored } from './profile.js'

/** Confidence assumed when an extractor gives none or an unusable one (NaN, not a number). */
export const DEFAULT_CONFIDENCE = 0.5
/** A scalar value seen this many times is "confirmed": a less confident value can no longer replace it. */
export const CONFIRMED_SEEN = 2

const IMPORTANCE_RANK: Record<Importance, number> = { low: 1, medium: 2, high: 3 }

export function hasOwn(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k)
}

export function clampConfidence(c: unknown): number {
  if (typeof c !== 'number' || Number.isNaN(c)) return DEFAULT_CONFIDENCE
  return Math.min(1, Math.max(0, c))
}

/**
 * Two independent pieces of evidence for the same value: 1-(1-a)(1-b), computed as a+b(1-a) and floored at
 * max(a,b) so float rounding can never make a repeat lower a confidence.
 */
export function reinforce(a: number, b: number): number {
  const x = clampConfidence(a)
  const y = clampConfidence(b)
  return Math.min(1, Math.max(x, y, x + y * (1 - x)))
}

/** A trimmed display value, or undefined when empty or without any meaningful character. */
export function cleanText(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const t = v.trim()
  return t !== '' && normaliseValue(t) !== '' ? t : undefined
}

export function cleanScoredText(s: unknown): Scored<string> | undefined {
  if (!s || typeof s !== 'object') return undefined
  const value = cleanText((s as Scored<unknown>).value)
  return value === undefined ? undefined : { value, confidence: clampConfidence((s as Scored<unknown>).confidence) }
}

/** Ages are whole years in 0..150; anything else is not plausible evidence and is ignored. */
export function cleanScoredAge(s: unknown): Scored<number> | undefined {
  if (!s || typeof s !== 'object') return undefined
  const raw = (s as Scored<unknown>).value
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined
  const age = Math.round(n)
  if (age < 0 || age > 150) return undefined
  return { value: age, confidence: clampConfidence((s as Scored<unknown>).confidence) }
}

export function sameScalar(a: string | number, b: string | number): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b)
  return normaliseValue(a) === normaliseValue(b)
}

/**
 * The scalar rule: the same value reinforces (display form of the newest kept); a different one replaces when
 * at least as confident, when the old one was never confirmed, or when `always` (values that are "the latest").
 * `seen[path]` counts sightings of the current value; a value stored without a count counts as seen once.
 */
export function mergeScalar<T extends string | number>(
  current: Scored<T> | undefined,
  incoming: Scored<T>,
  seen: Record<string, number>,
  path: string,
  always = false,
): Scored<T> {
  if (!current) {
    seen[path] = 1
    return incoming
  }
  const count = hasOwn(seen, path) ? seen[path] : 1
  if (sameScalar(current.value, incoming.value)) {
    seen[path] = count + 1
    return { value: incoming.value, confidence: reinforce(current.confidence, incoming.confidence) }
  }
  if (always || incoming.confidence >= current.confidence || count < CONFIRMED_SEEN) {
    seen[path] = 1
    return incoming
  }
  return current
}

/** Union with dedupe by key: a repeat reinforces the entry in place and takes the newest display form. */
export function addToList(list: Scored<string>[], entry: Scored<string>): void {
  const key = normaliseValue(entry.value)
  const i = list.findIndex((e) => normaliseValue(e.value) === key)
  if (i >= 0) list[i] = { value: entry.value, confidence: reinforce(list[i].confidence, entry.confidence) }
  else list.push(entry)
}

/** Removes every entry with that key; returns whether anything went. */
export function removeFromList(list: Scored<string>[], key: string): boolean {
  const before = list.length
  for (let i = list.length - 1; i >= 0; i--) if (normaliseValue(list[i].value) === key) list.splice(i, 1)
  return list.length !== before
}

/** The category already holding this key, preferring `preferred`; undefined when none. */
export function interestCategoryOf(
  interests: Record<string, Scored<string>[]>,
  key: string,
  preferred?: string,
): string | undefined {
  const holds = (c: string) => hasOwn(interests, c) && interests[c].some((e) => normaliseValue(e.value) === key)
  if (preferred !== undefined && holds(preferred)) return preferred
  return Object.keys(interests).find(holds)
}

/** Adds an interest; a value already present in another category is reinforced there, never copied. */
export function addInterest(interests: Record<string, Scored<string>[]>, category: string, entry: Scored<string>): void {
  const cat = categoryKey(category)
  const home = interestCategoryOf(interests, normaliseValue(entry.value), cat) ?? cat
  if (!hasOwn(interests, home)) interests[home] = []
  addToList(interests[home], entry)
}

/**
 * Removes an interest from `category`, or from every category when omitted. When the named category does not
 * hold it, the one that does is used: cross-category dedupe may have filed it elsewhere. Empty categories go.
 */
export function removeInterest(interests: Record<string, Scored<string>[]>, key: string, category?: string): void {
  let cats: string[]
  if (category === undefined) cats = Object.keys(interests)
  else {
    const home = interestCategoryOf(interests, key, categoryKey(category))
    cats = home === undefined ? [] : [home]
  }
  for (const c of cats) {
    if (removeFromList(interests[c], key) && interests[c].length === 0) delete interests[c]
  }
}

function cleanDate(d: unknown): string | undefined {
  if (typeof d !== 'string') return undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(d.trim())
  if (!m) return undefined
  const date = `${m[1]}-${m[2]}-${m[3]}`
  const t = new Date(`${date}T00:00:00Z`)
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === date ? date : undefined
}

/** A memory with a trimmed event, a valid YYYY-MM-DD date or none, a known importance or none, and a confidence. */
export function cleanMemory(m: unknown): Memory | undefined {
  if (!m || typeof m !== 'object') return undefined
  const raw = m as Record<string, unknown>
  const event = cleanText(raw.event)
  if (event === undefined) return undefined
  const out: Memory = { event }
  const date = cleanDate(raw.date)
  if (date !== undefined) out.date = date
  if (typeof raw.importance === 'string' && hasOwn(IMPORTANCE_RANK, raw.importance)) {
    out.importance = raw.importance as Importance
  }
  out.confidence = clampConfidence(raw.confidence)
  return out
}

export function memoryKey(m: Memory): string {
  return `${normaliseValue(m.event)}\u0000${m.date ?? ''}`
}

function higherImportance(a?: Importance, b?: Importance): Importance | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return IMPORTANCE_RANK[b] > IMPORTANCE_RANK[a] ? b : a
}

/** Same event on the same date (or both undated) merges: newest wording, higher importance, reinforced confidence. */
export function addMemory(memories: Memory[], m: Memory): void {
  const key = memoryKey(m)
  const i = memories.findIndex((x) => memoryKey(x) === key)
  if (i < 0) {
    memories.push(m)
    return
  }
  const old = memories[i]
  const merged: Memory = { event: m.event }
  if (m.date !== undefined) merged.date = m.date
  const importance = higherImportance(old.importance, m.importance)
  if (importance !== undefined) merged.importance = importance
  merged.confidence = reinforce(old.confidence ?? DEFAULT_CONFIDENCE, m.confidence ?? DEFAULT_CONFIDENCE)
  memories[i] = merged
}

/** Chronological, undated last; stable so equal dates keep their arrival order. */
export function sortMemories(memories: Memory[]): Memory[] {
  return memories
    .map((m, i) => ({ m, i }))
    .sort((x, y) => {
      const a = x.m.date
      const b = y.m.date
      if (a !== b) {
        if (a === undefined) return 1
        if (b === undefined) return -1
        return a < b ? -1 : 1
      }
      return x.i - y.i
    })
    .map((x) => x.m)
}

/**
 * Mood: `recent` is always the latest mood (replaced even by a less confident one, reinforced when the same);
 * `default` is the most frequent mood so far, ties going to the most recent of the tied. Kept incrementally:
 * the mood just seen becomes the default as soon as its count reaches the current default's count.
 */
export function applyMood(state: ProfileState, mood: Scored<string>): void {
  const trends = state.content.personality.mood_trends
  const counts = state.internals.mood_counts
  trends.recent = mergeScalar(trends.recent, mood, state.internals.seen, 'personality.mood_trends.recent', true)
  const key = normaliseValue(mood.value)
  counts[key] = (hasOwn(counts, key) ? counts[key] : 0) + 1
  const defaultKey = trends.default ? normaliseValue(trends.default.value) : undefined
  const defaultCount = defaultKey !== undefined && hasOwn(counts, defaultKey) ? counts[defaultKey] : 0
  const winner = !trends.default || counts[key] >= defaultCount ? mood.value : trends.default.value
  const total = Object.values(counts).reduce((s, n) => s + n, 0)
  trends.default = { value: winner, confidence: clampConfidence(counts[normaliseValue(winner)] / total) }
}

/** ISO 639-1 code (a region suffix like "en-US" is dropped); undefined when not a code. */
export function cleanLanguage(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const m = /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(v.trim())
  return m ? m[1].toLowerCase() : undefined
}

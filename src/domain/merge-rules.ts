// Building blocks of the merge (CONTRACT §7). They mutate the working copy the merge owns, never caller data. Scalars in
// event time and their past values are in scalar-time.ts.
import { categoryKey, normaliseValue } from './normalise.js'
import type { Importance, Memory, Scored } from './profile.js'

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

/** The normalised key of a value (normaliseValue), possibly memoised for the length of one operation. */
export type KeyOf = (s: string) => string

/**
 * A memo of normaliseValue for one operation (a merge and its diff): each distinct string is normalised once, and the memo
 * goes with the operation, so the work stays linear in what the operation reads (no shared cache whose eviction would
 * make a large profile renormalise its values on every lookup).
 */
export function keyMemo(): KeyOf {
  const memo = new Map<string, string>()
  return (s) => {
    let k = memo.get(s)
    if (k === undefined) {
      k = normaliseValue(s)
      memo.set(s, k)
    }
    return k
  }
}

/**
 * The lists one merge works on, each indexed by key the first time it is used: finding, adding and reinforcing an entry
 * cost O(1) whatever the list's length. The index follows the list's own changes made through it; a list changed behind
 * its back must be re-indexed (`forget`).
 */
export class ListIndex {
  private readonly maps = new WeakMap<Scored<string>[], Map<string, number>>()

  constructor(readonly keyOf: KeyOf = keyMemo()) {}

  private map(list: Scored<string>[]): Map<string, number> {
    let m = this.maps.get(list)
    if (!m) {
      m = new Map()
      for (let i = 0; i < list.length; i++) {
        const k = this.keyOf(list[i]!.value)
        if (!m.has(k)) m.set(k, i)
      }
      this.maps.set(list, m)
    }
    return m
  }

  has(list: Scored<string>[], key: string): boolean {
    return this.map(list).has(key)
  }

  /** Union with dedupe by key: a repeat reinforces the entry in place and takes the newest display form. */
  add(list: Scored<string>[], entry: Scored<string>): void {
    const m = this.map(list)
    const key = this.keyOf(entry.value)
    const i = m.get(key)
    if (i !== undefined) list[i] = { value: entry.value, confidence: reinforce(list[i]!.confidence, entry.confidence) }
    else {
      m.set(key, list.length)
      list.push(entry)
    }
  }

  /** Removes, in place and in one pass, every entry whose key is in `keys`; returns the entries removed. */
  removeKeys(list: Scored<string>[], keys: ReadonlySet<string>): Scored<string>[] {
    const removed: Scored<string>[] = []
    if (!keys.size || !list.length) return removed
    let w = 0
    for (const e of list) {
      if (keys.has(this.keyOf(e.value))) removed.push(e)
      else list[w++] = e
    }
    list.length = w
    if (removed.length) this.maps.delete(list)
    return removed
  }

  /** Forgets what it knew of a list changed by other means. */
  forget(list: Scored<string>[]): void {
    this.maps.delete(list)
  }
}

/** Union with dedupe by key (one entry; a merge adds through its ListIndex). */
export function addToList(list: Scored<string>[], entry: Scored<string>, lists = new ListIndex()): void {
  lists.add(list, entry)
}

/** Removes every entry with that key; returns whether anything went. */
export function removeFromList(list: Scored<string>[], key: string, keyOf: KeyOf = normaliseValue): boolean {
  const before = list.length
  let w = 0
  for (const e of list) if (keyOf(e.value) !== key) list[w++] = e
  list.length = w
  return list.length !== before
}

/**
 * The interests of one merge: which categories hold each key (in the order the profile lists its categories), so a value
 * already filed in a category is found there without scanning the others.
 */
export class InterestIndex {
  private readonly homes = new Map<string, string[]>()

  constructor(
    private readonly interests: Record<string, Scored<string>[]>,
    private readonly lists: ListIndex,
  ) {
    for (const cat of Object.keys(interests)) for (const e of interests[cat]!) this.file(lists.keyOf(e.value), cat)
  }

  private file(key: string, cat: string) {
    const h = this.homes.get(key)
    if (!h) this.homes.set(key, [cat])
    else if (!h.includes(cat)) h.push(cat)
  }

  /** The category already holding this key, preferring `preferred`; undefined when none. */
  categoryOf(key: string, preferred?: string): string | undefined {
    const h = this.homes.get(key)
    if (!h) return undefined
    return preferred !== undefined && h.includes(preferred) ? preferred : h[0]
  }

  /** Adds an interest; a value already present in another category is reinforced there, never copied. */
  add(category: string, entry: Scored<string>): void {
    const key = this.lists.keyOf(entry.value)
    const home = this.categoryOf(key, categoryKey(category)) ?? categoryKey(category)
    if (!hasOwn(this.interests, home)) this.interests[home] = []
    this.lists.add(this.interests[home]!, entry)
    this.file(key, home)
  }

  /**
   * Removes interests: the keys of `any` from every category, each of `named` (category -> keys) from the category holding
   * it (the named one, or where cross-category dedupe filed it). Empty categories go. One pass over each category touched.
   */
  remove(any: ReadonlySet<string>, named: ReadonlyMap<string, ReadonlySet<string>>): void {
    const perCat = new Map<string, Set<string>>()
    for (const [cat, keys] of named) {
      for (const k of keys) {
        const home = this.categoryOf(k, categoryKey(cat))
        if (home === undefined) continue
        let set = perCat.get(home)
        if (!set) perCat.set(home, (set = new Set()))
        set.add(k)
      }
    }
    for (const cat of Object.keys(this.interests)) {
      const own = perCat.get(cat)
      const keys = own ? new Set([...any, ...own]) : any
      if (!keys.size) continue
      for (const e of this.lists.removeKeys(this.interests[cat]!, keys)) {
        const k = this.lists.keyOf(e.value)
        const h = this.homes.get(k)?.filter((c) => c !== cat)
        if (h?.length) this.homes.set(k, h)
        else this.homes.delete(k)
      }
      if (this.interests[cat]!.length === 0) delete this.interests[cat]
    }
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

export function memoryKey(m: Memory, keyOf: KeyOf = normaliseValue): string {
  return `${keyOf(m.event)}\u0000${m.date ?? ''}`
}

function higherImportance(a?: Importance, b?: Importance): Importance | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return IMPORTANCE_RANK[b] > IMPORTANCE_RANK[a] ? b : a
}

/**
 * Same event on the same date (or both undated) merges: newest wording, higher importance, reinforced confidence. `index`
 * (memory key -> position, kept up to date here) makes it O(1); without one the list is scanned.
 */
export function addMemory(
  memories: Memory[],
  m: Memory,
  keyOf: KeyOf = normaliseValue,
  index?: Map<string, number>,
): void {
  const key = memoryKey(m, keyOf)
  const i = index ? (index.get(key) ?? -1) : memories.findIndex((x) => memoryKey(x, keyOf) === key)
  if (i < 0) {
    index?.set(key, memories.length)
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

/** ISO 639-1 code (a region suffix like "en-US" is dropped); undefined when not a code. */
export function cleanLanguage(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const m = /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(v.trim())
  return m ? m[1].toLowerCase() : undefined
}

// Building blocks of the merge (docs/architecture/processing.md, "Merging"). They mutate the working copy the merge
// owns, never caller data. Scalars in event time and their past values are in scalar-time.ts.
import { categoryKey, normaliseValue } from './normalise.js'
import type { Importance, Memory, Scored } from './profile.js'

/** Confidence assumed when an extractor gives none or an unusable one (NaN, not a number). */
export const DEFAULT_CONFIDENCE = 0.5
/** A scalar value seen this many times is "confirmed": a less confident value can no longer replace it. */
export const CONFIRMED_SEEN = 2

const IMPORTANCE_RANK: Record<Importance, number> = { low: 1, medium: 2, high: 3 }

export function hasOwn(holder: object, key: string): boolean {
  return Object.hasOwn(holder, key)
}

export function clampConfidence(confidence: unknown): number {
  if (typeof confidence !== 'number' || Number.isNaN(confidence)) return DEFAULT_CONFIDENCE
  return Math.min(1, Math.max(0, confidence))
}

/**
 * Two independent pieces of evidence for the same value, of confidences a and b: 1-(1-a)(1-b), computed as a+b(1-a)
 * and floored at max(a,b) so float rounding can never make a repeat lower a confidence.
 */
export function reinforce(current: number, incoming: number): number {
  const first = clampConfidence(current)
  const second = clampConfidence(incoming)
  return Math.min(1, Math.max(first, second, first + second * (1 - first)))
}

/** A trimmed display value, or undefined when empty or without any meaningful character. */
export function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed !== '' && normaliseValue(trimmed) !== '' ? trimmed : undefined
}

export function cleanScoredText(scored: unknown): Scored<string> | undefined {
  if (!scored || typeof scored !== 'object') return undefined
  const value = cleanText((scored as Scored<unknown>).value)
  return value === undefined
    ? undefined
    : { value, confidence: clampConfidence((scored as Scored<unknown>).confidence) }
}

/** Ages are whole years in 0..150; anything else is not plausible evidence and is ignored. */
export function cleanScoredAge(scored: unknown): Scored<number> | undefined {
  if (!scored || typeof scored !== 'object') return undefined
  const raw = (scored as Scored<unknown>).value
  const parsed = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) return undefined
  const age = Math.round(parsed)
  if (age < 0 || age > 150) return undefined
  return { value: age, confidence: clampConfidence((scored as Scored<unknown>).confidence) }
}

export function sameScalar(first: string | number, second: string | number): boolean {
  if (typeof first === 'number' || typeof second === 'number') return Number(first) === Number(second)
  return normaliseValue(first) === normaliseValue(second)
}

/** The normalised key of a value (normaliseValue), possibly memoised for the length of one operation. */
export type KeyOf = (value: string) => string

/**
 * A memo of normaliseValue for one operation (a merge and its diff): each distinct string is normalised once, and the
 * memo goes with the operation, so the work stays linear in what the operation reads (no shared cache whose eviction
 * would make a large profile renormalise its values on every lookup).
 */
export function keyMemo(): KeyOf {
  const memo = new Map<string, string>()
  return (value) => {
    let key = memo.get(value)
    if (key === undefined) {
      key = normaliseValue(value)
      memo.set(value, key)
    }
    return key
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
    let positions = this.maps.get(list)
    if (!positions) {
      positions = new Map()
      for (let i = 0; i < list.length; i++) {
        const key = this.keyOf(list[i]!.value)
        if (!positions.has(key)) positions.set(key, i)
      }
      this.maps.set(list, positions)
    }
    return positions
  }

  has(list: Scored<string>[], key: string): boolean {
    return this.map(list).has(key)
  }

  /** Union with dedupe by key: a repeat reinforces the entry in place and takes the newest display form. */
  add(list: Scored<string>[], entry: Scored<string>): void {
    const positions = this.map(list)
    const key = this.keyOf(entry.value)
    const position = positions.get(key)
    if (position !== undefined)
      list[position] = { value: entry.value, confidence: reinforce(list[position]!.confidence, entry.confidence) }
    else {
      positions.set(key, list.length)
      list.push(entry)
    }
  }

  /** Removes, in place and in one pass, every entry whose key is in `keys`; returns the entries removed. */
  removeKeys(list: Scored<string>[], keys: ReadonlySet<string>): Scored<string>[] {
    const removed: Scored<string>[] = []
    if (!keys.size || !list.length) return removed
    let kept = 0
    for (const entry of list) {
      if (keys.has(this.keyOf(entry.value))) removed.push(entry)
      else list[kept++] = entry
    }
    list.length = kept
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
  let kept = 0
  for (const entry of list) if (keyOf(entry.value) !== key) list[kept++] = entry
  list.length = kept
  return list.length !== before
}

/**
 * The interests of one merge: which categories hold each key (in the order the profile lists its categories), so a
 * value already filed in a category is found there without scanning the others.
 */
export class InterestIndex {
  private readonly homes = new Map<string, string[]>()

  constructor(
    private readonly interests: Record<string, Scored<string>[]>,
    private readonly lists: ListIndex,
  ) {
    for (const cat of Object.keys(interests))
      for (const entry of interests[cat]!) this.file(lists.keyOf(entry.value), cat)
  }

  private file(key: string, cat: string) {
    const categories = this.homes.get(key)
    if (!categories) this.homes.set(key, [cat])
    else if (!categories.includes(cat)) categories.push(cat)
  }

  /** The category already holding this key, preferring `preferred`; undefined when none. */
  categoryOf(key: string, preferred?: string): string | undefined {
    const categories = this.homes.get(key)
    if (!categories) return undefined
    return preferred !== undefined && categories.includes(preferred) ? preferred : categories[0]
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
   * Removes interests: the keys of `any` from every category, each of `named` (category -> keys) from the category
   * holding it (the named one, or where cross-category dedupe filed it). Empty categories go. One pass over each
   * category touched.
   */
  remove(any: ReadonlySet<string>, named: ReadonlyMap<string, ReadonlySet<string>>): void {
    const perCat = new Map<string, Set<string>>()
    for (const [cat, keys] of named) {
      for (const key of keys) {
        const home = this.categoryOf(key, categoryKey(cat))
        if (home === undefined) continue
        let set = perCat.get(home)
        if (!set) perCat.set(home, (set = new Set()))
        set.add(key)
      }
    }
    for (const cat of Object.keys(this.interests)) {
      const own = perCat.get(cat)
      const keys = own ? new Set([...any, ...own]) : any
      if (!keys.size) continue
      for (const entry of this.lists.removeKeys(this.interests[cat]!, keys)) {
        const key = this.lists.keyOf(entry.value)
        const categories = this.homes.get(key)?.filter((c) => c !== cat)
        if (categories?.length) this.homes.set(key, categories)
        else this.homes.delete(key)
      }
      if (this.interests[cat]!.length === 0) delete this.interests[cat]
    }
  }
}

function cleanDate(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw.trim())
  if (!match) return undefined
  const date = `${match[1]}-${match[2]}-${match[3]}`
  const time = new Date(`${date}T00:00:00Z`)
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 10) === date ? date : undefined
}

/** A memory with a trimmed event, a valid YYYY-MM-DD date or none, a known importance or none, and a confidence. */
export function cleanMemory(given: unknown): Memory | undefined {
  if (!given || typeof given !== 'object') return undefined
  const raw = given as Record<string, unknown>
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

export function memoryKey(memory: Memory, keyOf: KeyOf = normaliseValue): string {
  return `${keyOf(memory.event)}\u0000${memory.date ?? ''}`
}

function higherImportance(current?: Importance, incoming?: Importance): Importance | undefined {
  if (current === undefined) return incoming
  if (incoming === undefined) return current
  return IMPORTANCE_RANK[incoming] > IMPORTANCE_RANK[current] ? incoming : current
}

/**
 * Same event on the same date (or both undated) merges: newest wording, higher importance, reinforced confidence.
 * `index` (memory key -> position, kept up to date here) makes it O(1); without one the list is scanned.
 */
export function addMemory(
  memories: Memory[],
  memory: Memory,
  keyOf: KeyOf = normaliseValue,
  index?: Map<string, number>,
): void {
  const key = memoryKey(memory, keyOf)
  const position = index ? (index.get(key) ?? -1) : memories.findIndex((x) => memoryKey(x, keyOf) === key)
  if (position < 0) {
    index?.set(key, memories.length)
    memories.push(memory)
    return
  }
  const old = memories[position]
  const merged: Memory = { event: memory.event }
  if (memory.date !== undefined) merged.date = memory.date
  const importance = higherImportance(old.importance, memory.importance)
  if (importance !== undefined) merged.importance = importance
  merged.confidence = reinforce(old.confidence ?? DEFAULT_CONFIDENCE, memory.confidence ?? DEFAULT_CONFIDENCE)
  memories[position] = merged
}

/** Chronological, undated last; stable so equal dates keep their arrival order. */
export function sortMemories(memories: Memory[]): Memory[] {
  return memories
    .map((m, i) => ({ m, i }))
    .sort((left, right) => {
      const firstDate = left.m.date
      const secondDate = right.m.date
      if (firstDate !== secondDate) {
        if (firstDate === undefined) return 1
        if (secondDate === undefined) return -1
        return firstDate < secondDate ? -1 : 1
      }
      return left.i - right.i
    })
    .map((x) => x.m)
}

/** ISO 639-1 code (a region suffix like "en-US" is dropped); undefined when not a code. */
export function cleanLanguage(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(value.trim())
  return match ? match[1].toLowerCase() : undefined
}

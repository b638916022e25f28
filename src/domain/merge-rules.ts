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

/**
 * The event time of the evidence a merge is applying (README "Event time"), and the state whose scalars it dates:
 * `internals.evidence_at` holds, per scalar path, when the evidence behind the current value was said or written (one
 * time per path, so the state stays bounded).
 */
export interface ScalarClock {
  /** When the evidence at hand was said or written (ISO 8601); undefined: unknown, merged as the newest (as before event times). */
  at: string | undefined
  state: ProfileState
}

/** The field_timestamps key that dates a scalar path (mood_trends is stamped as a whole). */
const stampKey = (path: string) => (path === 'personality.mood_trends.recent' ? 'personality.mood_trends' : path)

/**
 * When the evidence behind a scalar's current value was said or written: as recorded, else (a value stored before
 * event times) when the value last changed.
 */
export function heldAt(state: ProfileState, path: string): string | undefined {
  const times = state.internals.evidence_at
  if (times && hasOwn(times, path)) return times[path]
  const t = state.field_timestamps?.[stampKey(path)]
  return typeof t === 'string' ? t : undefined
}

function stamp(state: ProfileState, path: string, at: string | undefined): void {
  if (at !== undefined) (state.internals.evidence_at ??= {})[path] = at
  else if (state.internals.evidence_at && hasOwn(state.internals.evidence_at, path)) delete state.internals.evidence_at[path]
}

const ms = (t: string | undefined) => (t === undefined ? NaN : Date.parse(t))

/**
 * mergeScalar in event time: a different value from evidence older than the current value's does not replace it (a
 * back-filled conversation from last year does not overwrite what the person said last week); an equal value reinforces
 * whatever its age. The time of the evidence behind the value is kept in `internals.evidence_at`: the incoming one's
 * when it replaces, the later of the two when it reinforces.
 */
export function mergeScalarAt<T extends string | number>(
  current: Scored<T> | undefined,
  incoming: Scored<T>,
  clock: ScalarClock,
  path: string,
  always = false,
): Scored<T> {
  const { at, state } = clock
  const seen = state.internals.seen
  if (!current) {
    stamp(state, path, at)
    return mergeScalar(current, incoming, seen, path, always)
  }
  const held = heldAt(state, path)
  if (sameScalar(current.value, incoming.value)) {
    if (at !== undefined) stamp(state, path, held !== undefined && ms(held) > ms(at) ? held : at)
    return mergeScalar(current, incoming, seen, path, always)
  }
  if (at !== undefined && held !== undefined && ms(at) < ms(held)) return current
  const next = mergeScalar(current, incoming, seen, path, always)
  if (next === incoming) stamp(state, path, at)
  return next
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
export function addMemory(memories: Memory[], m: Memory, keyOf: KeyOf = normaliseValue, index?: Map<string, number>): void {
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

/**
 * Mood: `recent` is always the latest mood in event time (replaced even by a less confident one, reinforced when the
 * same, kept against an older one: mergeScalarAt);
 * `default` is the most frequent mood so far, ties going to the most recent of the tied. Kept incrementally:
 * the mood just seen becomes the default as soon as its count reaches the current default's count.
 */
export function applyMood(state: ProfileState, mood: Scored<string>, at?: string): void {
  const trends = state.content.personality.mood_trends
  const counts = state.internals.mood_counts
  const before = trends.recent
  trends.recent = mergeScalarAt(trends.recent, mood, { at, state }, 'personality.mood_trends.recent', true)
  // A mood older than the recent one is not the latest: it counts, and ties go to the newer mood.
  const older = before !== undefined && trends.recent === before && !sameScalar(before.value, mood.value)
  const key = normaliseValue(mood.value)
  counts[key] = (hasOwn(counts, key) ? counts[key] : 0) + 1
  const defaultKey = trends.default ? normaliseValue(trends.default.value) : undefined
  const defaultCount = defaultKey !== undefined && hasOwn(counts, defaultKey) ? counts[defaultKey] : 0
  const winner = !trends.default || counts[key] > defaultCount || (!older && counts[key] >= defaultCount) ? mood.value : trends.default.value
  const total = Object.values(counts).reduce((s, n) => s + n, 0)
  trends.default = { value: winner, confidence: clampConfidence(counts[normaliseValue(winner)] / total) }
}

/** ISO 639-1 code (a region suffix like "en-US" is dropped); undefined when not a code. */
export function cleanLanguage(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const m = /^([a-z]{2})(?:[-_][a-z0-9]+)*$/i.exec(v.trim())
  return m ? m[1].toLowerCase() : undefined
}

// A profile's size, and its limits (docs/operations/limits.md): how many values a list, the interests, the memories and
// the custom fields may hold, how long one value may be, and how large the whole content may grow. The defaults sit far
// above what real people produce (a busy profile holds a few hundred values, some tens of KB); they exist so that no
// key holder can grow one profile until every merge, read and context of it stalls the service. Pure: the merge calls
// `enforceLimits` on its working copy; an import checks a stored profile with `contentViolation`.
import { hasOwn } from './merge-rules.js'
import type { KeyOf } from './merge-rules.js'
import type {
  Dropped,
  DroppedValue,
  LimitName,
  Memory,
  PastValue,
  ProfileContent,
  ProfileState,
  ScalarPath,
  Scored,
} from './profile.js'
import { followDroppedPast } from './scalar-time.js'

export type { Dropped, DroppedValue, LimitName } from './profile.js'

export interface ProfileLimits {
  /** Values of one list: an interest category, personality traits, topics to avoid, one custom list field. */
  listValues: number
  /** Interest categories. */
  categories: number
  /** Interests in all categories together. */
  interests: number
  memories: number
  /** Custom schema values in all (each scalar and each entry of a list counts one). */
  customValues: number
  /** Characters of one value, a memory's event, or an interest category's name. */
  valueChars: number
  /** The content as JSON, in UTF-8 bytes: the size of the profile, and of each of its history snapshots. */
  profileBytes: number
  /** History entries kept per profile: the oldest go beyond it. */
  historyEntries: number
  /** Newest history entries that keep their snapshot (what a rollback can return to). */
  snapshots: number
  /**
   * Evidence passages one submission leaves at most (docs/guides/evidence.md, "Evidence passages"): more turns are
   * packed together.
   */
  passagesPerSubmission: number
  /** Evidence passages a profile keeps: the oldest (by when they were said) go beyond it. */
  passagesPerProfile: number
  /** Past values kept per scalar path (docs/guides/the-profile.md, "Facts over time"): the oldest go beyond it. */
  pastValues: number
  /**
   * Statements a scalar path's timeline is built from (docs/guides/the-profile.md, "Facts over time"): the oldest go
   * beyond it.
   */
  scalarStatements: number
}

export const DEFAULT_PROFILE_LIMITS: ProfileLimits = {
  listValues: 1000,
  categories: 100,
  interests: 2000,
  memories: 2000,
  customValues: 2000,
  valueChars: 1000,
  profileBytes: 512 * 1024,
  historyEntries: 10_000,
  snapshots: 100,
  passagesPerSubmission: 200,
  passagesPerProfile: 20_000,
  pastValues: 20,
  scalarStatements: 200,
}

/** Distinct moods counted for mood_trends.default; the least seen go beyond it (not configurable: moods are few). */
export const MAX_MOODS = 100

export const DROPPED_LISTED = 50
const DROPPED_VALUE_CHARS = 200

/** Collects what the limits drop, listing a bounded sample. */
export class DropLog {
  total = 0
  readonly limits = new Set<LimitName>()
  readonly values: DroppedValue[] = []
  /** Keys (section, category, normalised value) of everything dropped, so the diff does not report them as removed. */
  readonly keys = new Set<string>()

  add(limit: LimitName, section: string, value: string, key: string, category?: string): void {
    this.total++
    this.limits.add(limit)
    this.keys.add(droppedKey(section, key, category))
    if (this.values.length < DROPPED_LISTED) {
      const shown = value.length > DROPPED_VALUE_CHARS ? `${value.slice(0, DROPPED_VALUE_CHARS)}…` : value
      this.values.push({ section, ...(category !== undefined ? { category } : {}), value: shown })
    }
  }

  result(): Dropped | undefined {
    return this.total ? { total: this.total, limits: [...this.limits].sort(), values: this.values } : undefined
  }
}

export const droppedKey = (section: string, key: string, category?: string) =>
  `${section}\u0000${category ?? ''}\u0000${key}`

/** One droppable value: where it sits, how it ranks (lower goes first), and how to take it out. */
interface Candidate {
  section: string
  category?: string
  value: string
  key: string
  confidence: number
  /** Position in its list: a later one arrived later. */
  index: number
  /** Extra rank before confidence (memories: importance). */
  weight: number
  bytes: number
  remove(): void
}

const byRank = (a: Candidate, b: Candidate) =>
  a.weight - b.weight ||
  a.confidence - b.confidence ||
  a.index - b.index ||
  (a.section < b.section ? -1 : a.section > b.section ? 1 : 0)

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v)) + 1

const conf = (c: unknown) => (typeof c === 'number' && Number.isFinite(c) ? c : 0.5)

const IMPORTANCE_WEIGHT = { low: -0.2, medium: 0, high: 0.2 } as const

/**
 * Cuts a merged state down to the limits, keeping the most confident and, among equals, the most recent values: a list
 * over its limit loses its least confident entries (the oldest of equals); past the category limit, the categories
 * whose best value is least confident go whole; past the totals (interests, custom values) and the byte size, the least
 * confident values of all go first. Mutates the working copy it is given (the merge's own); returns what went. Linear
 * in the state's size plus n log n for the ranking of the lists that are over.
 */
export function enforceLimits(state: ProfileState, limits: ProfileLimits, keyOf: KeyOf, log = new DropLog()): DropLog {
  const content = state.content
  const take = (limit: LimitName, cands: Candidate[], count: number) => {
    if (count <= 0) return
    for (const x of cands.sort(byRank).slice(0, count)) {
      x.remove()
      log.add(limit, x.section, x.value, x.key, x.category)
    }
  }
  const removals = new Map<unknown[], Set<number>>()
  const removeAt = (list: unknown[], i: number) => () => {
    let set = removals.get(list)
    if (!set) removals.set(list, (set = new Set()))
    set.add(i)
  }
  // Applies the removals marked so far (each list rewritten once, in place, so references stay valid).
  const flush = () => {
    for (const [list, gone] of removals) {
      let kept = 0
      for (let r = 0; r < list.length; r++) if (!gone.has(r)) list[kept++] = list[r]
      list.length = kept
    }
    removals.clear()
  }
  const listCandidates = (section: string, list: Scored<unknown>[], category?: string): Candidate[] =>
    list.map((entry, index) => {
      const value = String(entry.value)
      return {
        section,
        category,
        value,
        key: keyOf(value),
        confidence: conf(entry.confidence),
        index,
        weight: 0,
        bytes: bytesOf(entry),
        remove: removeAt(list, index),
      }
    })
  const capList = (section: string, list: Scored<unknown>[] | undefined, category?: string) => {
    if (list && list.length > limits.listValues)
      take('list_values', listCandidates(section, list, category), list.length - limits.listValues)
  }

  // Lists, one by one.
  for (const cat of Object.keys(content.interests)) capList('interests', content.interests[cat], cat)
  capList('personality.traits', content.personality.traits)
  capList('preferences.topics_to_avoid', content.preferences.topics_to_avoid)
  for (const [sec, fields] of Object.entries(content.custom ?? {})) {
    for (const [field, v] of Object.entries(fields)) if (Array.isArray(v)) capList(`custom.${sec}.${field}`, v)
  }
  flush()

  // Past values of each scalar: the oldest go (the merge keeps them within the limit as it adds them; a rollback to a
  // snapshot kept under a larger limit, or a stored profile, may be over).
  let pastDropped = false
  for (const [path, list] of Object.entries(content.past_values ?? {}) as [ScalarPath, PastValue[]][]) {
    while (list.length > limits.pastValues) {
      const gone = list.pop()!
      log.add('past_values', path, String(gone.value), keyOf(String(gone.value)))
      pastDropped = true
    }
  }

  // Interest categories: those whose best value is least confident go whole.
  const cats = Object.keys(content.interests)
  if (cats.length > limits.categories) {
    const ranked = cats
      .map((cat) => ({
        cat,
        best: Math.max(0, ...content.interests[cat]!.map((e) => conf(e.confidence))),
        n: content.interests[cat]!.length,
      }))
      .sort((a, b) => b.best - a.best || b.n - a.n || (a.cat < b.cat ? -1 : 1))
    for (const { cat } of ranked.slice(limits.categories)) {
      for (const e of content.interests[cat]!) log.add('categories', 'interests', e.value, keyOf(e.value), cat)
      delete content.interests[cat]
    }
  }

  // All interests together.
  const interests = () =>
    Object.keys(content.interests).flatMap((cat) => listCandidates('interests', content.interests[cat]!, cat))
  const nInterests = Object.values(content.interests).reduce((n, l) => n + l.length, 0)
  if (nInterests > limits.interests) take('interests', interests(), nInterests - limits.interests)
  flush()

  // Memories: the least important, then least confident, then oldest go.
  const memories = (): Candidate[] =>
    content.memories.map((m: Memory, i) => ({
      section: 'memories',
      value: m.event,
      key: keyOf(m.event),
      confidence: conf(m.confidence),
      index: i,
      weight: IMPORTANCE_WEIGHT[m.importance ?? 'medium'] ?? 0,
      bytes: bytesOf(m),
      remove: removeAt(content.memories, i),
    }))
  if (content.memories.length > limits.memories) take('memories', memories(), content.memories.length - limits.memories)
  flush()

  // Custom values together (scalars and list entries).
  const custom = (): Candidate[] => {
    const out: Candidate[] = []
    for (const [sec, fields] of Object.entries(content.custom ?? {})) {
      for (const [field, v] of Object.entries(fields)) {
        const section = `custom.${sec}.${field}`
        if (Array.isArray(v)) out.push(...listCandidates(section, v))
        else {
          const value = String(v.value)
          out.push({
            section,
            value,
            key: keyOf(value),
            confidence: conf(v.confidence),
            index: 0,
            weight: 0,
            bytes: bytesOf(v),
            remove: () => delete fields[field],
          })
        }
      }
    }
    return out
  }
  const nCustom = Object.values(content.custom ?? {}).reduce(
    (n, f) => n + Object.values(f).reduce((m, v) => m + (Array.isArray(v) ? v.length : 1), 0),
    0,
  )
  if (nCustom > limits.customValues) take('custom_values', custom(), nCustom - limits.customValues)
  flush()

  // Past values, as the size limit ranks them: below every current value, the oldest first.
  const past = (): Candidate[] =>
    (Object.entries(content.past_values ?? {}) as [ScalarPath, PastValue[]][]).flatMap(([path, list]) =>
      list.map((entry, index) => {
        const value = String(entry.value)
        const remove = removeAt(list, index)
        return {
          section: path,
          value,
          key: keyOf(value),
          confidence: conf(entry.confidence),
          index: -index,
          weight: -1,
          bytes: bytesOf(entry),
          remove: () => ((pastDropped = true), remove()),
        }
      }),
    )

  // The size of it all: past values first, then the least confident values of any section go until it fits.
  let size = Buffer.byteLength(JSON.stringify(content))
  if (size > limits.profileBytes) {
    const all = [
      ...past(),
      ...interests(),
      ...listCandidates('personality.traits', content.personality.traits),
      ...listCandidates('preferences.topics_to_avoid', content.preferences.topics_to_avoid),
      ...memories(),
      ...custom(),
    ].sort(byRank)
    for (const x of all) {
      if (size <= limits.profileBytes) break
      x.remove()
      size -= x.bytes
      log.add('profile_bytes', x.section, x.value, x.key, x.category)
    }
    flush()
  }
  // The statements of the past values dropped go too, so the next merge does not build them again.
  if (pastDropped)
    followDroppedPast(state, limits.pastValues, (path, v) => log.add('past_values', path, String(v), keyOf(String(v))))
  tidy(state, keyOf)
  return log
}

/**
 * What the limits leave behind is removed too: empty interest categories and custom fields, timestamps
 * (field_timestamps, internals.said_at) and sighting counts of parts that no longer exist (they would otherwise pile up
 * with every category a profile ever had), and the least seen moods past MAX_MOODS.
 */
export function tidy(state: ProfileState, keyOf: KeyOf): void {
  const content = state.content
  for (const cat of Object.keys(content.interests)) if (!content.interests[cat]!.length) delete content.interests[cat]
  for (const [sec, fields] of Object.entries(content.custom ?? {})) {
    for (const [field, v] of Object.entries(fields)) if (Array.isArray(v) && !v.length) delete fields[field]
    if (!Object.keys(fields).length) delete content.custom![sec]
  }
  if (content.custom && !Object.keys(content.custom).length) delete content.custom
  if (content.past_values) {
    for (const path of Object.keys(content.past_values) as ScalarPath[])
      if (!content.past_values[path]?.length) delete content.past_values[path]
    if (!Object.keys(content.past_values).length) delete content.past_values
  }
  const exists = (path: string) => {
    const [section, a, b] = path.split('.')
    if (section === 'interests' && a !== undefined) return hasOwn(content.interests, a)
    if (section === 'custom' && a !== undefined) {
      const fields = content.custom && hasOwn(content.custom, a) ? content.custom[a] : undefined
      return fields !== undefined && (b === undefined || hasOwn(fields, b))
    }
    return true
  }
  for (const p of Object.keys(state.field_timestamps)) if (!exists(p)) delete state.field_timestamps[p]
  const said = state.internals.said_at
  if (said) for (const p of Object.keys(said)) if (!exists(p)) delete said[p]
  for (const p of Object.keys(state.internals.seen))
    if (p.startsWith('custom.') && !exists(p)) delete state.internals.seen[p]
  const moods = Object.entries(state.internals.mood_counts)
  if (moods.length > MAX_MOODS) {
    const keep = new Set<string>()
    const trends = content.personality.mood_trends
    for (const m of [trends.default?.value, trends.recent?.value]) if (typeof m === 'string') keep.add(keyOf(m))
    moods.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    const kept = new Map(moods.slice(0, MAX_MOODS))
    state.internals.mood_counts = Object.fromEntries(moods.filter(([k]) => kept.has(k) || keep.has(k)))
  }
}

/**
 * The first way a stored profile's content breaks the limits, as a message naming the part; null when it keeps them.
 * For what arrives whole (an import): it is refused, not cut.
 */
export function contentViolation(content: ProfileContent, limits: ProfileLimits): string | null {
  const over = (what: string, n: number, max: number, env: string) =>
    `${what} holds ${n} values; at most ${max} (${env})`
  const long = (what: string, v: unknown) =>
    typeof v === 'string' && v.length > limits.valueChars
      ? `${what} is longer than ${limits.valueChars} characters (PROFILER_PROFILE_MAX_VALUE_CHARS)`
      : null
  const lists: [string, Scored<unknown>[]][] = [
    ...Object.entries(content.interests ?? {}).map(([cat, l]): [string, Scored<unknown>[]] => [`interests.${cat}`, l]),
    ['personality.traits', content.personality?.traits ?? []],
    ['preferences.topics_to_avoid', content.preferences?.topics_to_avoid ?? []],
  ]
  let customN = 0
  for (const [sec, fields] of Object.entries(content.custom ?? {})) {
    for (const [field, v] of Object.entries(fields)) {
      if (Array.isArray(v)) {
        lists.push([`custom.${sec}.${field}`, v])
        customN += v.length
      } else {
        customN++
        const tooLong = long(`custom.${sec}.${field}`, v?.value)
        if (tooLong) return tooLong
      }
    }
  }
  for (const [path, l] of lists) {
    if (l.length > limits.listValues) return over(path, l.length, limits.listValues, 'PROFILER_PROFILE_MAX_LIST_VALUES')
    for (const [i, e] of l.entries()) {
      const tooLong = long(`${path}[${i}]`, e?.value)
      if (tooLong) return tooLong
    }
  }
  const cats = Object.keys(content.interests ?? {})
  if (cats.length > limits.categories)
    return `interests has ${cats.length} categories; at most ${limits.categories} (PROFILER_PROFILE_MAX_CATEGORIES)`
  for (const cat of cats)
    if (cat.length > limits.valueChars)
      return (
        `the interest category ${cat.slice(0, 40)}… is longer than ${limits.valueChars} characters ` +
        '(PROFILER_PROFILE_MAX_VALUE_CHARS)'
      )
  const nInterests = Object.values(content.interests ?? {}).reduce((n, l) => n + l.length, 0)
  if (nInterests > limits.interests)
    return over('interests', nInterests, limits.interests, 'PROFILER_PROFILE_MAX_INTERESTS')
  const memories = content.memories ?? []
  if (memories.length > limits.memories)
    return over('memories', memories.length, limits.memories, 'PROFILER_PROFILE_MAX_MEMORIES')
  for (const [i, m] of memories.entries()) {
    const tooLong = long(`memories[${i}].event`, m?.event)
    if (tooLong) return tooLong
  }
  if (customN > limits.customValues)
    return over('custom', customN, limits.customValues, 'PROFILER_PROFILE_MAX_CUSTOM_VALUES')
  for (const [f, v] of Object.entries(content.core_info ?? {})) {
    const tooLong = long(`core_info.${f}`, (v as Scored<unknown> | undefined)?.value)
    if (tooLong) return tooLong
  }
  for (const [path, v] of [
    ['preferences.conversation_style', content.preferences?.conversation_style],
    ['personality.mood_trends.recent', content.personality?.mood_trends?.recent],
    ['personality.mood_trends.default', content.personality?.mood_trends?.default],
  ] as const) {
    const tooLong = long(path, v?.value)
    if (tooLong) return tooLong
  }
  for (const [path, list] of Object.entries(content.past_values ?? {}) as [ScalarPath, PastValue[]][]) {
    if (list.length > limits.pastValues)
      return (
        `past_values.${path} holds ${list.length} values; at most ${limits.pastValues} ` +
        '(PROFILER_PROFILE_MAX_PAST_VALUES)'
      )
    for (const [i, e] of list.entries()) {
      const tooLong = long(`past_values.${path}[${i}]`, e?.value)
      if (tooLong) return tooLong
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(content))
  if (bytes > limits.profileBytes)
    return (
      `the profile's content is ${bytes} bytes as JSON; at most ${limits.profileBytes} ` +
      '(PROFILER_PROFILE_MAX_BYTES)'
    )
  return null
}

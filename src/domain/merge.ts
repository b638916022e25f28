// The merge of extracted data into a profile (docs/architecture/processing.md#merging). Pure: no I/O, no clock (time
// comes in as `now`), no randomness; the input state is never mutated and the same inputs always give deep-equal
// outputs.
import { applyCustom } from './custom-merge.js'
import { screenForgotten } from './forget.js'
import { diffStates } from './merge-diff.js'
import {
  addMemory,
  cleanLanguage,
  cleanMemory,
  cleanScoredAge,
  cleanScoredText,
  cleanText,
  hasOwn,
  InterestIndex,
  keyMemo,
  ListIndex,
  memoryKey,
  sortMemories,
  type KeyOf,
} from './merge-rules.js'
import {
  DEFAULT_PROFILE_LIMITS,
  DropLog,
  droppedKey,
  enforceLimits,
  type Dropped,
  type ProfileLimits,
} from './profile-limits.js'
import { CORE_FIELDS, emptyState } from './profile.js'
import type { Changes, Extraction, ListSection, ProfileState, Scored, TimedExtraction } from './profile.js'
import { applyMood, say, settle, type ScalarClock } from './scalar-time.js'

export interface MergeResult {
  /** The new state. Persist it even when `changed` is false: internal counters may still have advanced. */
  state: ProfileState
  /** Net partial profile of what this batch added or changed; `{}` when nothing did. */
  changes: Changes
  /** Whether any visible content (or the language) changed; false means no update_log entry is due. */
  changed: boolean
}

const LIST_SECTIONS: ListSection[] = ['interests', 'traits', 'topics_to_avoid']

/** Deep copy with every section present, so stored states of older shapes merge too. */
function workingCopy(state: ProfileState): ProfileState {
  const copy = structuredClone(state)
  const empty = emptyState()
  copy.content ??= empty.content
  copy.content.core_info ??= {}
  copy.content.interests ??= {}
  copy.content.personality ??= empty.content.personality
  copy.content.personality.traits ??= []
  copy.content.personality.mood_trends ??= {}
  copy.content.memories ??= []
  copy.content.preferences ??= empty.content.preferences
  copy.content.preferences.topics_to_avoid ??= []
  copy.field_timestamps ??= {}
  copy.internals ??= empty.internals
  copy.internals.mood_counts ??= {}
  copy.internals.seen ??= {}
  return copy
}

/**
 * The state as the diff reads it: every section present, sharing the caller's objects (never written through: the diff
 * only reads), so a merge deep-copies the profile once, not twice.
 */
function readView(state: ProfileState): ProfileState {
  const empty = emptyState().content
  const content = state.content ?? empty
  return {
    ...state,
    content: {
      ...content,
      core_info: content.core_info ?? {},
      interests: content.interests ?? {},
      personality: {
        ...content.personality,
        traits: content.personality?.traits ?? [],
        mood_trends: content.personality?.mood_trends ?? {},
      },
      memories: content.memories ?? [],
      preferences: { ...content.preferences, topics_to_avoid: content.preferences?.topics_to_avoid ?? [] },
    },
    field_timestamps: state.field_timestamps ?? {},
  }
}

/** What one merge works with: its key memo and the indexes of the lists it changes. */
interface MergeWork {
  keyOf: KeyOf
  lists: ListIndex
  interests: InterestIndex
  limits: ProfileLimits
  dropped: DropLog
  /** When the extraction being applied was said or written (undefined: unknown). */
  at: string | undefined
  /** The merge's time. */
  now: string
  /** The scalars said in the batch, dated: their timelines are built once it is applied. */
  clock: ScalarClock
}

/** The section names of list sections as the limits and forget name them. */
const SECTION_PATH: Record<ListSection, string> = {
  interests: 'interests',
  traits: 'personality.traits',
  topics_to_avoid: 'preferences.topics_to_avoid',
}

/** A value within the length limit; a longer one is dropped (and recorded). */
function fits(work: MergeWork, section: string, value: string, category?: string): boolean {
  if (value.length <= work.limits.valueChars) return true
  work.dropped.add('value_chars', section, value, value.slice(0, 64), category)
  return false
}

function scoredList(work: MergeWork, section: string, given: unknown, category?: string): Scored<string>[] {
  if (!Array.isArray(given)) return []
  const out: Scored<string>[] = []
  for (const x of given) {
    const raw = x && typeof x === 'object' ? (x as Scored<unknown>).value : undefined
    if (typeof raw === 'string' && !fits(work, section, raw, category)) continue
    const entry = cleanScoredText(x)
    if (entry) out.push(entry)
  }
  return out
}

/** A scalar within the length limit. */
function scalar(work: MergeWork, path: string, value: unknown): Scored<string> | undefined {
  const raw = value && typeof value === 'object' ? (value as Scored<unknown>).value : undefined
  if (typeof raw === 'string' && !fits(work, path, raw)) return undefined
  return cleanScoredText(value)
}

/** Normalised keys each list section negates in this extraction (interests: any category, or by category). */
function removalKeys(work: MergeWork, ex: Extraction) {
  const keys: Record<ListSection, Set<string>> = { interests: new Set(), traits: new Set(), topics_to_avoid: new Set() }
  const named = new Map<string, Set<string>>()
  for (const r of Array.isArray(ex.removals) ? ex.removals : []) {
    const value =
      r && LIST_SECTIONS.includes(r.section) && typeof r.value === 'string' && r.value.length <= work.limits.valueChars
        ? cleanText(r.value)
        : undefined
    if (value === undefined) continue
    const key = work.keyOf(value)
    if (r.section === 'interests' && typeof r.category === 'string') {
      let set = named.get(r.category)
      if (!set) named.set(r.category, (set = new Set()))
      set.add(key)
    } else keys[r.section].add(key)
  }
  const anyNamed = new Set([...named.values()].flatMap((set) => [...set]))
  const negated = (section: ListSection, key: string) =>
    keys[section].has(key) || (section === 'interests' && anyNamed.has(key))
  return { keys, named, negated }
}

/**
 * Records that the evidence at hand named a value of a part (internals.said_at, keyed as field_timestamps): the newest
 * such time is kept, so the result is the same whatever batches the evidence came in.
 */
function said(state: ProfileState, work: MergeWork, section: string, field?: string): void {
  const at = work.at ?? work.now
  const times = (state.internals.said_at ??= {})
  for (const key of field === undefined ? [section] : [section, `${section}.${field}`]) {
    const had = hasOwn(times, key) ? Date.parse(times[key]!) : NaN
    if (!(had >= Date.parse(at))) times[key] = at
  }
}

function applyExtraction(state: ProfileState, ex: Extraction, work: MergeWork): void {
  const { content } = state
  const clock = work.clock
  clock.at = work.at
  // Adds first, removals last, and adds of a negated value skipped: within one extraction the removal wins.
  const removals = removalKeys(work, ex)
  const kept = (section: ListSection) => (e: Scored<string>) => !removals.negated(section, work.keyOf(e.value))

  const core = ex.core_info ?? {}
  for (const f of CORE_FIELDS) {
    if (f === 'age') {
      const age = cleanScoredAge(core.age)
      if (!age) continue
      say(clock, 'core_info.age', age)
    } else {
      const value = scalar(work, `core_info.${f}`, core[f])
      if (!value) continue
      say(clock, `core_info.${f}`, value)
    }
    said(state, work, 'core_info', f)
  }

  const interests = ex.interests && typeof ex.interests === 'object' ? ex.interests : {}
  for (const category of Object.keys(interests)) {
    const list = scoredList(work, 'interests', interests[category], category)
    if (!list.length || !fits(work, 'interests', category, category)) continue
    const added = list.filter(kept('interests'))
    for (const e of added) work.interests.add(category, e)
    if (added.length) said(state, work, 'interests', category)
  }

  const traits = content.personality.traits
  const newTraits = scoredList(work, 'personality.traits', ex.personality?.traits).filter(kept('traits'))
  for (const e of newTraits) work.lists.add(traits, e)
  if (newTraits.length) said(state, work, 'personality', 'traits')
  const mood = scalar(work, 'personality.mood_trends', ex.personality?.mood)
  if (mood) {
    applyMood(mood, clock)
    said(state, work, 'personality', 'mood_trends')
  }

  if (Array.isArray(ex.memories) && ex.memories.length) {
    const index = new Map<string, number>()
    content.memories.forEach((memory, position) => {
      const key = memoryKey(memory, work.keyOf)
      if (!index.has(key)) index.set(key, position)
    })
    for (const raw of ex.memories) {
      const event = raw && typeof raw === 'object' ? (raw as { event?: unknown }).event : undefined
      if (typeof event === 'string' && !fits(work, 'memories', event)) continue
      const memory = cleanMemory(raw)
      if (!memory) continue
      addMemory(content.memories, memory, work.keyOf, index)
      said(state, work, 'memories')
    }
    content.memories = sortMemories(content.memories)
  }

  const style = scalar(work, 'preferences.conversation_style', ex.preferences?.conversation_style)
  if (style) {
    say(clock, 'preferences.conversation_style', style)
    said(state, work, 'preferences', 'conversation_style')
  }
  const topics = scoredList(work, 'preferences.topics_to_avoid', ex.preferences?.topics_to_avoid).filter(
    kept('topics_to_avoid'),
  )
  for (const e of topics) work.lists.add(content.preferences.topics_to_avoid, e)
  if (topics.length) said(state, work, 'preferences', 'topics_to_avoid')

  // Detection runs on every submission, so the latest one describes how the person writes now.
  const language = cleanLanguage(ex.language)
  if (language !== undefined) state.language = language

  applyCustom(state, ex.custom, work.lists, (section, field) => said(state, work, `custom.${section}`, field))

  work.interests.remove(removals.keys.interests, removals.named)
  work.lists.removeKeys(content.personality.traits, removals.keys.traits)
  work.lists.removeKeys(content.preferences.topics_to_avoid, removals.keys.topics_to_avoid)
}

export interface MergeOptions {
  /**
   * When each extraction's submission was accepted (ISO 8601), by index: a forgotten value comes back only from
   * evidence accepted after it was forgotten (src/domain/forget.ts). Unknown (omitted) counts as older than any forget.
   */
  acceptedAt?: (string | undefined)[]
  /**
   * When each extraction's text was said or written (ISO 8601), by index (docs/guides/submitting-data.md, "Event
   * time"): the batch is applied in this order (stable; unknown counts as newest), and each scalar's timeline is built
   * from when its values were said (scalar-time.ts), whatever the order. Unknown (omitted): said at `now`. An
   * extraction's `parts` are said at their own times.
   */
  occurredAt?: (string | undefined)[]
  /** The profile's limits (docs/operations/limits.md, "A profile"); the defaults when omitted. */
  limits?: ProfileLimits
}

/** Each extraction's event time as UTC ISO 8601, undefined where unknown or not a time. */
function eventTimes(count: number, given: (string | undefined)[] | undefined): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(count).fill(undefined)
  if (!given) return out
  for (let i = 0; i < count; i++) {
    const time = typeof given[i] === 'string' ? Date.parse(given[i]!) : NaN
    if (!Number.isNaN(time)) out[i] = new Date(time).toISOString()
  }
  return out
}

/** The order to apply a batch in: by event time, oldest first, stable; an unknown time counts as newest. */
function eventOrder(times: (string | undefined)[]): number[] {
  const key = times.map((t) => (t === undefined ? Infinity : Date.parse(t)))
  return times.map((_, i) => i).sort((a, b) => key[a]! - key[b]! || a - b)
}

/**
 * A batch with each extraction's parts (Extraction.parts) as extractions of their own, said at their own times and
 * accepted with the extraction they came from. Parts without a time are left out.
 */
export function expandParts(
  extractions: Extraction[],
  occurredAt?: (string | undefined)[],
  acceptedAt?: (string | undefined)[],
) {
  if (!extractions.some((ex) => ex && typeof ex === 'object' && Array.isArray(ex.parts)))
    return { extractions, occurredAt, acceptedAt }
  const out: { extractions: Extraction[]; occurredAt: (string | undefined)[]; acceptedAt: (string | undefined)[] } = {
    extractions: [],
    occurredAt: [],
    acceptedAt: [],
  }
  extractions.forEach((ex, index) => {
    const push = (one: Extraction, at: string | undefined) => {
      out.extractions.push(one)
      out.occurredAt.push(at)
      out.acceptedAt.push(acceptedAt?.[index])
    }
    if (!ex || typeof ex !== 'object' || !Array.isArray(ex.parts)) return push(ex, occurredAt?.[index])
    const { parts, ...rest } = ex
    push(rest, occurredAt?.[index])
    for (const p of parts as unknown[]) {
      if (!p || typeof p !== 'object' || typeof (p as TimedExtraction).at !== 'string') continue
      const { at, ...part } = p as TimedExtraction
      push(part, at)
    }
  })
  return out
}

/**
 * Applies a batch of extractions, in event-time order (MergeOptions.occurredAt; else as given), to a profile state. One
 * call = one update_log entry. `now` (ISO 8601) stamps `field_timestamps` of every section and field that changed.
 */
export function merge(state: ProfileState, batch: Extraction[], now: string, opts: MergeOptions = {}): MergeResult {
  const expanded = expandParts(batch, opts.occurredAt, opts.acceptedAt)
  const screened = screenForgotten(state, expanded.extractions, expanded.acceptedAt)
  const keyOf = keyMemo()
  const before = readView(state)
  const after = workingCopy(screened.state)
  const lists = new ListIndex(keyOf)
  const limits = opts.limits ?? DEFAULT_PROFILE_LIMITS
  const dropLog = new DropLog()
  const clock: ScalarClock = {
    at: undefined,
    now,
    state: after,
    pastLimit: limits.pastValues,
    statementLimit: limits.scalarStatements,
    valueChars: limits.valueChars,
    dropped: (path, v) => dropLog.add('past_values', path, String(v), keyOf(String(v))),
    touched: new Set(),
    keyOf,
  }
  const work: MergeWork = {
    keyOf,
    lists,
    interests: new InterestIndex(after.content.interests, lists),
    limits,
    dropped: dropLog,
    at: undefined,
    now,
    clock,
  }
  const times = eventTimes(screened.extractions.length, expanded.occurredAt)
  for (const i of eventOrder(times)) {
    const ex = screened.extractions[i]
    work.at = times[i]
    if (ex && typeof ex === 'object') applyExtraction(after, ex, work)
  }
  settle(clock)
  enforceLimits(after, work.limits, keyOf, work.dropped)

  const { changes, paths } = diffStates(before, after, keyOf)
  const dropped = work.dropped.result()
  if (dropped) recordDropped(changes, dropped, work.dropped, keyOf)
  for (const p of paths) after.field_timestamps[p] = now
  const changed = Object.keys(changes).length > 0
  // A copy, so an update_log entry never aliases the live state.
  return { state: after, changes: changed ? structuredClone(changes) : {}, changed }
}

/**
 * What the limits dropped goes under `changes.dropped`, not `changes.removed` (which lists what the person negated): a
 * value the limits took out of the profile is listed once, as dropped.
 */
function recordDropped(changes: Changes, dropped: Dropped, log: DropLog, keyOf: KeyOf): void {
  changes.dropped = dropped
  if (!changes.removed) return
  changes.removed = changes.removed.filter((removal) => {
    const section = removal.section in SECTION_PATH ? SECTION_PATH[removal.section as ListSection] : removal.section
    return !log.keys.has(droppedKey(section, keyOf(removal.value), removal.category))
  })
  if (!changes.removed.length) delete changes.removed
}

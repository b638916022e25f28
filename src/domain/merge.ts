// The merge of extracted data into a profile (CONTRACT §7). Pure: no I/O, no clock (time comes in as `now`),
// no randomness; the input state is never mutated and the same inputs always give deep-equal outputs.
import { applyCustom } from './custom-merge.js'
import { screenForgotten } from './forget.js'
import { diffStates } from './merge-diff.js'
import {
  addInterest,
  addMemory,
  addToList,
  applyMood,
  cleanLanguage,
  cleanMemory,
  cleanScoredAge,
  cleanScoredText,
  cleanText,
  mergeScalar,
  removeFromList,
  removeInterest,
  sortMemories,
} from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import { CORE_FIELDS, emptyState } from './profile.js'
import type { Changes, Extraction, ListSection, ProfileState, Scored } from './profile.js'

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
  const s = structuredClone(state)
  const e = emptyState()
  s.content ??= e.content
  s.content.core_info ??= {}
  s.content.interests ??= {}
  s.content.personality ??= e.content.personality
  s.content.personality.traits ??= []
  s.content.personality.mood_trends ??= {}
  s.content.memories ??= []
  s.content.preferences ??= e.content.preferences
  s.content.preferences.topics_to_avoid ??= []
  s.field_timestamps ??= {}
  s.internals ??= e.internals
  s.internals.mood_counts ??= {}
  s.internals.seen ??= {}
  return s
}

function scoredList(v: unknown): Scored<string>[] {
  if (!Array.isArray(v)) return []
  return v.map(cleanScoredText).filter((x): x is Scored<string> => x !== undefined)
}

/** Normalised keys each list section negates in this extraction. */
function removalKeys(ex: Extraction): Record<ListSection, Set<string>> {
  const keys: Record<ListSection, Set<string>> = { interests: new Set(), traits: new Set(), topics_to_avoid: new Set() }
  for (const r of Array.isArray(ex.removals) ? ex.removals : []) {
    const value = r && LIST_SECTIONS.includes(r.section) ? cleanText(r.value) : undefined
    if (value !== undefined) keys[r.section].add(normaliseValue(value))
  }
  return keys
}

function applyExtraction(s: ProfileState, ex: Extraction): void {
  const { content, internals } = s
  const seen = internals.seen
  // Adds first, removals last, and adds of a negated value skipped: within one extraction the removal wins.
  const negated = removalKeys(ex)
  const kept = (section: ListSection) => (e: Scored<string>) => !negated[section].has(normaliseValue(e.value))

  const core = ex.core_info ?? {}
  for (const f of CORE_FIELDS) {
    if (f === 'age') {
      const age = cleanScoredAge(core.age)
      if (age) content.core_info.age = mergeScalar(content.core_info.age, age, seen, 'core_info.age')
    } else {
      const v = cleanScoredText(core[f])
      if (v) content.core_info[f] = mergeScalar(content.core_info[f], v, seen, `core_info.${f}`)
    }
  }

  const interests = ex.interests && typeof ex.interests === 'object' ? ex.interests : {}
  for (const category of Object.keys(interests)) {
    for (const e of scoredList(interests[category]).filter(kept('interests'))) addInterest(content.interests, category, e)
  }

  for (const e of scoredList(ex.personality?.traits).filter(kept('traits'))) addToList(content.personality.traits, e)
  const mood = cleanScoredText(ex.personality?.mood)
  if (mood) applyMood(s, mood)

  for (const raw of Array.isArray(ex.memories) ? ex.memories : []) {
    const m = cleanMemory(raw)
    if (m) addMemory(content.memories, m)
  }
  content.memories = sortMemories(content.memories)

  const style = cleanScoredText(ex.preferences?.conversation_style)
  if (style) {
    const p = content.preferences
    p.conversation_style = mergeScalar(p.conversation_style, style, seen, 'preferences.conversation_style')
  }
  const topics = scoredList(ex.preferences?.topics_to_avoid).filter(kept('topics_to_avoid'))
  for (const e of topics) addToList(content.preferences.topics_to_avoid, e)

  // Detection runs on every submission, so the latest one describes how the person writes now.
  const language = cleanLanguage(ex.language)
  if (language !== undefined) s.language = language

  applyCustom(s, ex.custom)

  for (const r of Array.isArray(ex.removals) ? ex.removals : []) {
    const value = r && LIST_SECTIONS.includes(r.section) ? cleanText(r.value) : undefined
    if (value === undefined) continue
    const key = normaliseValue(value)
    if (r.section === 'interests') {
      removeInterest(content.interests, key, typeof r.category === 'string' ? r.category : undefined)
    } else if (r.section === 'traits') removeFromList(content.personality.traits, key)
    else removeFromList(content.preferences.topics_to_avoid, key)
  }
}

export interface MergeOptions {
  /**
   * When each extraction's submission was accepted (ISO 8601), by index: a forgotten value comes back only from evidence
   * accepted after it was forgotten (src/domain/forget.ts). Unknown (omitted) counts as older than any forget.
   */
  acceptedAt?: (string | undefined)[]
}

/**
 * Applies a batch of extractions, in order, to a profile state. One call = one update_log entry.
 * `now` (ISO 8601) stamps `field_timestamps` of every section and field that changed.
 */
export function merge(state: ProfileState, extractions: Extraction[], now: string, opts: MergeOptions = {}): MergeResult {
  const screened = screenForgotten(state, extractions, opts.acceptedAt)
  const before = workingCopy(state)
  const after = workingCopy(screened.state)
  for (const ex of screened.extractions) if (ex && typeof ex === 'object') applyExtraction(after, ex)

  const { changes, paths } = diffStates(before, after)
  for (const p of paths) after.field_timestamps[p] = now
  const changed = Object.keys(changes).length > 0
  // A copy, so an update_log entry never aliases the live state.
  return { state: after, changes: changed ? structuredClone(changes) : {}, changed }
}


// The update_log `changes` of a batch is the net difference between the state before and after it, so it always
// agrees with the resulting profile (an entry added then negated in the same batch is not reported as added).
import { diffCustom } from './custom-merge.js'
import { normaliseValue } from './normalise.js'
import { CORE_FIELDS, SCALAR_PATHS } from './profile.js'
import type { Changes, Memory, PastValue, ProfileContent, ProfileState, Scored } from './profile.js'
import { hasOwn, memoryKey, sameScalar, type KeyOf } from './merge-rules.js'

export interface StateDiff {
  changes: Changes
  /** field_timestamps keys (sections and fields) whose content changed. */
  paths: string[]
}

function scoredEqual<T>(a: Scored<T> | undefined, b: Scored<T> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.value === b.value && a.confidence === b.confidence
}

function listDiff(
  before: Scored<string>[],
  after: Scored<string>[],
  keyOf: KeyOf,
): { changed: Scored<string>[]; removed: Scored<string>[] } {
  const old = new Map<string, Scored<string>>()
  for (const e of before) {
    const k = keyOf(e.value)
    if (!old.has(k)) old.set(k, e)
  }
  const now = new Set(after.map((e) => keyOf(e.value)))
  return {
    changed: after.filter((e) => !scoredEqual(e, old.get(keyOf(e.value)))),
    removed: before.filter((e) => !now.has(keyOf(e.value))),
  }
}

function memoryEqual(a: Memory, b: Memory): boolean {
  return a.event === b.event && a.date === b.date && a.importance === b.importance && a.confidence === b.confidence
}

const pastKey = (e: PastValue) => `${e.value}\u0000${e.confidence}\u0000${e.from}\u0000${e.until}\u0000${e.last_said}`

/**
 * Past values (README "Facts over time") the after state has and the before state has not, exactly: recorded or changed
 * (a window that moved, a value reinforced), per path, newest first. The value a scalar's replacement put there goes
 * to `replaced`, with its window, instead.
 */
function diffPast(b: ProfileContent, a: ProfileContent, changes: Changes): void {
  for (const path of SCALAR_PATHS) {
    const after = a.past_values?.[path]
    if (!after?.length) continue
    const old = new Set((b.past_values?.[path] ?? []).map(pastKey))
    let added = after.filter((e) => !old.has(pastKey(e)))
    const replaced = changes.replaced?.[path]
    const own = replaced
      ? added.findIndex((e) => e.value === replaced.value && e.confidence === replaced.confidence)
      : -1
    if (replaced && own >= 0) {
      replaced.from = added[own]!.from
      replaced.until = added[own]!.until
      added = added.filter((_, i) => i !== own)
    }
    if (added.length) (changes.past_values ??= {})[path] = added
  }
}

export function diffStates(before: ProfileState, after: ProfileState, keyOf: KeyOf = normaliseValue): StateDiff {
  const changes: Changes = {}
  const paths = new Set<string>()
  const b: ProfileContent = before.content
  const a: ProfileContent = after.content
  const touch = (section: string, field?: string) => {
    paths.add(section)
    if (field !== undefined) paths.add(`${section}.${field}`)
  }

  // Scalars: report the new value; a value of another key than before also records what it replaced.
  const scalar = <T extends string | number>(
    path: string,
    old: Scored<T> | undefined,
    cur: Scored<T> | undefined,
    report: (v: Scored<T>) => void,
  ) => {
    if (cur === undefined || scoredEqual(old, cur)) return
    report(cur)
    if (old !== undefined && !sameScalar(old.value, cur.value)) (changes.replaced ??= {})[path] = { ...old }
  }
  for (const f of CORE_FIELDS) {
    const old = b.core_info[f] as Scored<string | number> | undefined
    const cur = a.core_info[f] as Scored<string | number> | undefined
    scalar(`core_info.${f}`, old, cur, (v) => {
      ;(changes.core_info ??= {})[f] = v as never
      touch('core_info', f)
    })
  }
  scalar('preferences.conversation_style', b.preferences.conversation_style, a.preferences.conversation_style, (v) => {
    ;(changes.preferences ??= {}).conversation_style = v
    touch('preferences', 'conversation_style')
  })
  scalar('personality.mood_trends.recent', b.personality.mood_trends.recent, a.personality.mood_trends.recent, (v) => {
    ;((changes.personality ??= {}).mood_trends ??= {}).recent = v
    touch('personality', 'mood_trends')
  })
  if (
    a.personality.mood_trends.default &&
    !scoredEqual(b.personality.mood_trends.default, a.personality.mood_trends.default)
  ) {
    ;((changes.personality ??= {}).mood_trends ??= {}).default = a.personality.mood_trends.default
    touch('personality', 'mood_trends')
  }

  // Interests, category by category (including categories that disappeared).
  const cats = [...Object.keys(b.interests), ...Object.keys(a.interests).filter((c) => !hasOwn(b.interests, c))]
  for (const c of cats) {
    const d = listDiff(
      hasOwn(b.interests, c) ? b.interests[c] : [],
      hasOwn(a.interests, c) ? a.interests[c] : [],
      keyOf,
    )
    if (d.changed.length > 0) (changes.interests ??= {})[c] = d.changed
    for (const e of d.removed) (changes.removed ??= []).push({ section: 'interests', category: c, value: e.value })
    if (d.changed.length > 0 || d.removed.length > 0) touch('interests', c)
  }

  const traits = listDiff(b.personality.traits, a.personality.traits, keyOf)
  if (traits.changed.length > 0) (changes.personality ??= {}).traits = traits.changed
  for (const e of traits.removed) (changes.removed ??= []).push({ section: 'traits', value: e.value })
  if (traits.changed.length > 0 || traits.removed.length > 0) touch('personality', 'traits')

  const topics = listDiff(b.preferences.topics_to_avoid, a.preferences.topics_to_avoid, keyOf)
  if (topics.changed.length > 0) (changes.preferences ??= {}).topics_to_avoid = topics.changed
  for (const e of topics.removed) (changes.removed ??= []).push({ section: 'topics_to_avoid', value: e.value })
  if (topics.changed.length > 0 || topics.removed.length > 0) touch('preferences', 'topics_to_avoid')

  const oldMemories = new Map(b.memories.map((m) => [memoryKey(m, keyOf), m]))
  const memories = a.memories.filter((m) => {
    const old = oldMemories.get(memoryKey(m, keyOf))
    return old === undefined || !memoryEqual(old, m)
  })
  if (memories.length > 0) {
    changes.memories = memories
    touch('memories')
  }

  for (const p of diffCustom(b.custom, a.custom, changes)) paths.add(p)
  diffPast(b, a, changes)

  if (after.language !== undefined && after.language !== before.language) {
    changes.language = after.language
    touch('language')
  }

  return { changes, paths: [...paths] }
}

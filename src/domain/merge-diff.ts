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

function scoredEqual<T>(before: Scored<T> | undefined, after: Scored<T> | undefined): boolean {
  if (before === undefined || after === undefined) return before === after
  return before.value === after.value && before.confidence === after.confidence
}

function listDiff(
  before: Scored<string>[],
  after: Scored<string>[],
  keyOf: KeyOf,
): { changed: Scored<string>[]; removed: Scored<string>[] } {
  const old = new Map<string, Scored<string>>()
  for (const entry of before) {
    const key = keyOf(entry.value)
    if (!old.has(key)) old.set(key, entry)
  }
  const now = new Set(after.map((e) => keyOf(e.value)))
  return {
    changed: after.filter((e) => !scoredEqual(e, old.get(keyOf(e.value)))),
    removed: before.filter((e) => !now.has(keyOf(e.value))),
  }
}

function memoryEqual(before: Memory, after: Memory): boolean {
  return (
    before.event === after.event &&
    before.date === after.date &&
    before.importance === after.importance &&
    before.confidence === after.confidence
  )
}

const pastKey = (past: PastValue) =>
  `${past.value}\u0000${past.confidence}\u0000${past.from}\u0000${past.until}\u0000${past.last_said}`

/**
 * Past values (docs/guides/the-profile.md, "Facts over time") the after state has and the before state has not,
 * exactly: recorded or changed (a window that moved, a value reinforced), per path, newest first. The value a scalar's
 * replacement put there goes to `replaced`, with its window, instead.
 */
function diffPast(beforeContent: ProfileContent, afterContent: ProfileContent, changes: Changes): void {
  for (const path of SCALAR_PATHS) {
    const after = afterContent.past_values?.[path]
    if (!after?.length) continue
    const old = new Set((beforeContent.past_values?.[path] ?? []).map(pastKey))
    let added = after.filter((e) => !old.has(pastKey(e)))
    const replaced = changes.replaced?.[path]
    const own = replaced
      ? added.findIndex((past) => past.value === replaced.value && past.confidence === replaced.confidence)
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
  const beforeContent: ProfileContent = before.content
  const afterContent: ProfileContent = after.content
  const touch = (section: string, field?: string) => {
    paths.add(section)
    if (field !== undefined) paths.add(`${section}.${field}`)
  }

  // Scalars: report the new value; a value of another key than before also records what it replaced.
  const scalar = <T extends string | number>(
    path: string,
    old: Scored<T> | undefined,
    cur: Scored<T> | undefined,
    report: (value: Scored<T>) => void,
  ) => {
    if (cur === undefined || scoredEqual(old, cur)) return
    report(cur)
    if (old !== undefined && !sameScalar(old.value, cur.value)) (changes.replaced ??= {})[path] = { ...old }
  }
  for (const field of CORE_FIELDS) {
    const old = beforeContent.core_info[field] as Scored<string | number> | undefined
    const cur = afterContent.core_info[field] as Scored<string | number> | undefined
    scalar(`core_info.${field}`, old, cur, (value) => {
      ;(changes.core_info ??= {})[field] = value as never
      touch('core_info', field)
    })
  }
  scalar(
    'preferences.conversation_style',
    beforeContent.preferences.conversation_style,
    afterContent.preferences.conversation_style,
    (value) => {
      ;(changes.preferences ??= {}).conversation_style = value
      touch('preferences', 'conversation_style')
    },
  )
  scalar(
    'personality.mood_trends.recent',
    beforeContent.personality.mood_trends.recent,
    afterContent.personality.mood_trends.recent,
    (value) => {
      ;((changes.personality ??= {}).mood_trends ??= {}).recent = value
      touch('personality', 'mood_trends')
    },
  )
  if (
    afterContent.personality.mood_trends.default &&
    !scoredEqual(beforeContent.personality.mood_trends.default, afterContent.personality.mood_trends.default)
  ) {
    ;((changes.personality ??= {}).mood_trends ??= {}).default = afterContent.personality.mood_trends.default
    touch('personality', 'mood_trends')
  }

  // Interests, category by category (including categories that disappeared).
  const cats = [
    ...Object.keys(beforeContent.interests),
    ...Object.keys(afterContent.interests).filter((c) => !hasOwn(beforeContent.interests, c)),
  ]
  for (const category of cats) {
    const diff = listDiff(
      hasOwn(beforeContent.interests, category) ? beforeContent.interests[category] : [],
      hasOwn(afterContent.interests, category) ? afterContent.interests[category] : [],
      keyOf,
    )
    if (diff.changed.length > 0) (changes.interests ??= {})[category] = diff.changed
    for (const entry of diff.removed)
      (changes.removed ??= []).push({ section: 'interests', category, value: entry.value })
    if (diff.changed.length > 0 || diff.removed.length > 0) touch('interests', category)
  }

  const traits = listDiff(beforeContent.personality.traits, afterContent.personality.traits, keyOf)
  if (traits.changed.length > 0) (changes.personality ??= {}).traits = traits.changed
  for (const entry of traits.removed) (changes.removed ??= []).push({ section: 'traits', value: entry.value })
  if (traits.changed.length > 0 || traits.removed.length > 0) touch('personality', 'traits')

  const topics = listDiff(beforeContent.preferences.topics_to_avoid, afterContent.preferences.topics_to_avoid, keyOf)
  if (topics.changed.length > 0) (changes.preferences ??= {}).topics_to_avoid = topics.changed
  for (const entry of topics.removed) (changes.removed ??= []).push({ section: 'topics_to_avoid', value: entry.value })
  if (topics.changed.length > 0 || topics.removed.length > 0) touch('preferences', 'topics_to_avoid')

  const oldMemories = new Map(beforeContent.memories.map((m) => [memoryKey(m, keyOf), m]))
  const memories = afterContent.memories.filter((memory) => {
    const old = oldMemories.get(memoryKey(memory, keyOf))
    return old === undefined || !memoryEqual(old, memory)
  })
  if (memories.length > 0) {
    changes.memories = memories
    touch('memories')
  }

  for (const path of diffCustom(beforeContent.custom, afterContent.custom, changes)) paths.add(path)
  diffPast(beforeContent, afterContent, changes)

  if (after.language !== undefined && after.language !== before.language) {
    changes.language = after.language
    touch('language')
  }

  return { changes, paths: [...paths] }
}

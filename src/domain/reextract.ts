// Re-extraction (docs/guides/profile-lifecycle.md): a profile rebuilt from its stored submissions with the current
// provider and prompt, compared with the profile as it stands. Pure: the service runs the extractor and the merge.
import { diffStates } from './merge-diff.js'
import { keyMemo, memoryKey } from './merge-rules.js'
import { CORE_FIELDS, type Changes, type ProfileState, type Scored } from './profile.js'

/** What a re-extraction would change: the merge's net diff, plus what the rebuilt profile no longer holds at all. */
export interface ReextractionChanges extends Changes {
  /** Scalars and memories the rebuilt profile does not have (a merge never drops these; a re-extraction can). */
  cleared?: { path: string; value: string | number }[]
}

export function reextractionDiff(
  before: ProfileState,
  after: ProfileState,
): { changes: ReextractionChanges; changed: boolean; paths: string[] } {
  const keyOf = keyMemo()
  const { changes: net, paths } = diffStates(before, after, keyOf)
  const changes: ReextractionChanges = net
  const touched = new Set(paths)
  const cleared: { path: string; value: string | number }[] = []
  const gone = (path: string, old: Scored<string | number> | undefined, cur: unknown) => {
    if (old !== undefined && cur === undefined) {
      cleared.push({ path, value: old.value })
      const [section, field] = path.split('.')
      touched.add(section!)
      touched.add(section === 'personality' ? 'personality.mood_trends' : `${section}.${field}`)
    }
  }
  for (const field of CORE_FIELDS)
    gone(`core_info.${field}`, before.content.core_info[field], after.content.core_info[field])
  gone(
    'preferences.conversation_style',
    before.content.preferences.conversation_style,
    after.content.preferences.conversation_style,
  )
  gone(
    'personality.mood_trends.recent',
    before.content.personality.mood_trends.recent,
    after.content.personality.mood_trends.recent,
  )
  gone(
    'personality.mood_trends.default',
    before.content.personality.mood_trends.default,
    after.content.personality.mood_trends.default,
  )
  const kept = new Set(after.content.memories.map((m) => memoryKey(m, keyOf)))
  for (const memory of before.content.memories) {
    if (kept.has(memoryKey(memory, keyOf))) continue
    cleared.push({ path: 'memories', value: memory.event })
    touched.add('memories')
  }
  if (cleared.length) changes.cleared = cleared
  return { changes, changed: Object.keys(changes).length > 0, paths: [...touched] }
}

/**
 * The rebuilt state's field_timestamps: a part the re-extraction did not change keeps when it last changed; what it
 * changed or cleared is stamped `now`.
 */
export function reextractedTimestamps(before: ProfileState, paths: string[], now: string): Record<string, string> {
  const out = { ...before.field_timestamps }
  for (const path of paths) out[path] = now
  return out
}

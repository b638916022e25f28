import { sameScalar } from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import type { Extraction, ListSection, ProfileContent, Scored } from './profile.js'

type Scalar = 'name' | 'age' | 'gender' | 'location' | 'occupation' | 'mood' | 'conversation_style'

/**
 * Whether the merge kept what the extractions proposed: the last proposed value of each scalar, every proposed list
 * value and memory not negated later in the batch, and every removal not taken back later, are as proposed in the
 * merged profile. A summary the model wrote with the extraction (before the merge) describes the profile as the model
 * expected it; it stands only when this holds. When the merge decided otherwise (a less confident replacement refused,
 * a forgotten value kept out, a limit), the summary is written again from the merged profile. Linear in the profile and
 * the extractions.
 */
export function mergeKeptProposals(batch: readonly Extraction[], content: ProfileContent): boolean {
  // What a submission's messages said at their own times, in the order they said it.
  const extractions = batch.flatMap((ex) =>
    ex && typeof ex === 'object' && Array.isArray(ex.parts)
      ? [ex, ...[...ex.parts].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))]
      : [ex],
  )
  const scalars = new Map<Scalar, Scored<string | number>>()
  // section -> normalised value -> true (expected present) / false (expected removed)
  const lists: Record<ListSection | 'memories', Map<string, boolean>> = {
    interests: new Map(),
    traits: new Map(),
    topics_to_avoid: new Map(),
    memories: new Map(),
  }
  const put = (section: keyof typeof lists, xs: readonly { value: string }[] | undefined) =>
    xs?.forEach((x) => lists[section].set(normaliseValue(x.value), true))
  for (const ex of extractions) {
    const core = ex.core_info ?? {}
    for (const field of ['name', 'age', 'gender', 'location', 'occupation'] as const)
      if (core[field]) scalars.set(field, core[field]!)
    if (ex.personality?.mood) scalars.set('mood', ex.personality.mood)
    if (ex.preferences?.conversation_style) scalars.set('conversation_style', ex.preferences.conversation_style)
    for (const removal of ex.removals ?? []) lists[removal.section].set(normaliseValue(removal.value), false)
    for (const list of Object.values(ex.interests ?? {})) put('interests', list)
    put('traits', ex.personality?.traits)
    put('topics_to_avoid', ex.preferences?.topics_to_avoid)
    put(
      'memories',
      ex.memories?.map((m) => ({ value: m.event })),
    )
  }
  const core = content.core_info ?? {}
  const held: Record<Scalar, Scored<string | number> | undefined> = {
    name: core.name,
    age: core.age,
    gender: core.gender,
    location: core.location,
    occupation: core.occupation,
    mood: content.personality?.mood_trends?.recent,
    conversation_style: content.preferences?.conversation_style,
  }
  for (const [scalar, value] of scalars)
    if (!held[scalar] || !sameScalar(held[scalar]!.value, value.value)) return false
  const keys = (xs: readonly { value: string }[] | undefined) => new Set((xs ?? []).map((x) => normaliseValue(x.value)))
  const present: Record<keyof typeof lists, () => Set<string>> = {
    interests: () =>
      new Set(Object.values(content.interests ?? {}).flatMap((l) => l.map((x) => normaliseValue(x.value)))),
    traits: () => keys(content.personality?.traits),
    topics_to_avoid: () => keys(content.preferences?.topics_to_avoid),
    memories: () => keys((content.memories ?? []).map((m) => ({ value: m.event }))),
  }
  for (const section of Object.keys(lists) as (keyof typeof lists)[]) {
    if (!lists[section].size) continue
    const have = present[section]()
    for (const [key, expected] of lists[section]) if (have.has(key) !== expected) return false
  }
  return true
}

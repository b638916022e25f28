import type { ProfileContent, Scored } from '../../domain/profile.js'

const vals = (xs: Scored<string>[] | undefined) => (xs ?? []).map((x) => x.value).join(', ')

/** The current profile in a few lines (values only, no confidences): enough to recognise repeats and changes. */
export function compactProfile(p: ProfileContent, maxMemories = 8): string {
  const lines: string[] = []
  const c = p.core_info
  const core = (['name', 'age', 'gender', 'location', 'occupation'] as const)
    .filter((k) => c[k])
    .map((k) => `${k}: ${c[k]!.value}`)
  if (core.length) lines.push(core.join('; '))
  const interests = Object.entries(p.interests).filter(([, v]) => v.length)
  if (interests.length) lines.push(`interests: ${interests.map(([k, v]) => `${k}=${vals(v)}`).join('; ')}`)
  if (p.personality.traits.length) lines.push(`traits: ${vals(p.personality.traits)}`)
  if (p.personality.mood_trends.recent) lines.push(`mood: ${p.personality.mood_trends.recent.value}`)
  if (p.preferences.conversation_style) lines.push(`conversation_style: ${p.preferences.conversation_style.value}`)
  if (p.preferences.topics_to_avoid.length) lines.push(`topics_to_avoid: ${vals(p.preferences.topics_to_avoid)}`)
  const mems = p.memories.slice(-maxMemories)
  if (mems.length) lines.push(`memories: ${mems.map((m) => (m.date ? `${m.date} ${m.event}` : m.event)).join('; ')}`)
  return lines.join('\n') || '(empty)'
}

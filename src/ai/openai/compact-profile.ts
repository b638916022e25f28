import type { ProfileContent, Scored } from '../../domain/profile.js'
import { customFacts } from '../custom-text.js'

/**
 * A hard budget for the compact profile (about 300 tokens at ~4 characters a token), so the fixed part of every
 * prompt stays under 1,500 tokens however long a profile lives (docs/evaluation/cost.md). Filled in priority order.
 */
export const COMPACT_PROFILE_MAX_CHARS = 1200
const VALUE_CHARS = 40
const MEMORIES = 8

const clip = (s: string) => (s.length > VALUE_CHARS ? `${s.slice(0, VALUE_CHARS - 1)}…` : s)
const byConfidence = (xs: Scored<string>[]) => [...xs].sort((a, b) => b.confidence - a.confidence)

/**
 * The current profile in a few lines (values only, no confidences): enough to recognise repeats, changes and
 * negations. Core facts first, then the most confident list values, then the latest memories, until the budget.
 */
export function compactProfile(content: ProfileContent): string {
  let left = COMPACT_PROFILE_MAX_CHARS
  const lines: string[] = []
  /** Adds values (already in priority order) under a label, within `share` of what is left. */
  const section = (label: string, values: string[], share = 1) => {
    let room = Math.floor(left * share) - label.length - 2
    const kept: string[] = []
    for (const v of values.map(clip)) {
      if (v.length + 2 > room) continue
      room -= v.length + 2
      kept.push(v)
    }
    if (!kept.length) return
    const line = `${label}: ${kept.join(', ')}`
    left -= line.length + 1
    lines.push(line)
  }
  const core = content.core_info
  section(
    'core',
    (['name', 'age', 'gender', 'location', 'occupation'] as const)
      .filter((k) => core[k])
      .map((k) => `${k}=${core[k]!.value}`),
  )
  // Interests compete across categories by confidence, then read grouped by category.
  const ranked = Object.entries(content.interests)
    .flatMap(([category, values]) => values.map((v) => ({ category, ...v })))
    .sort((a, b) => b.confidence - a.confidence)
    .map((v) => `${v.category}=${v.value}`)
  section('interests', ranked, 0.5)
  section(
    'traits',
    byConfidence(content.personality.traits).map((v) => v.value),
    0.3,
  )
  section(
    'topics_to_avoid',
    byConfidence(content.preferences.topics_to_avoid).map((v) => v.value),
    0.4,
  )
  const prefs = [
    content.preferences.conversation_style && `style=${content.preferences.conversation_style.value}`,
    content.personality.mood_trends.recent && `mood=${content.personality.mood_trends.recent.value}`,
  ]
  section(
    'preferences',
    prefs.filter((x): x is string => !!x),
  )
  section(
    'memories',
    content.memories
      .slice(-MEMORIES)
      .reverse()
      .map((m) => (m.date ? `${m.date} ${m.event}` : m.event)),
  )
  section(
    'custom',
    customFacts(content.custom).map((f) => `${f.path}=${f.text}`),
  )
  return lines.join('\n') || '(empty)'
}

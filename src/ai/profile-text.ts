// The text that gets embedded for a profile (docs/architecture/search-internals.md): the summary plus the key fields,
// labelled, in a fixed order, so the same content always gives the same text whatever order the merge stored it in.
import type { Memory, ProfileContent, Scored } from '../domain/profile.js'
import { customFacts } from './custom-text.js'

const MAX_INTERESTS = 40
const MAX_LIST = 10
const MAX_MEMORIES = 3
const IMPORTANCE_RANK = { high: 0, medium: 1, low: 2 } as const

/**
 * English collation, as String#localeCompare(other, 'en') gives it, from one collator: localeCompare with a locale
 * builds its collator on every call, too slow for sorting a profile's thousands of values.
 */
export const compareEn = new Intl.Collator('en').compare

/** Whitespace collapsed, trailing sentence punctuation dropped. */
export function clean(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;,:!?]+$/, '')
}

/** Highest confidence first; ties keep value order, so output does not depend on storage order. */
export function byConfidence<T extends { confidence?: number; value?: unknown }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => (b.confidence ?? 0) - (a.confidence ?? 0) || compareEn(String(a.value), String(b.value)),
  )
}

/** Distinct non-empty display values, best first. */
export function values(items: readonly Scored<string>[], max: number): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const item of byConfidence(items)) {
    const value = clean(String(item.value))
    const key = value.toLowerCase()
    if (value === '' || seen.has(key)) continue
    seen.add(key)
    out.push(value)
    if (out.length === max) break
  }
  return out
}

/** Most important first, then most confident, then newest. */
export function rankMemories(memories: readonly Memory[]): Memory[] {
  return [...memories]
    .filter((m) => clean(m.event) !== '')
    .sort(
      (a, b) =>
        IMPORTANCE_RANK[a.importance ?? 'medium'] - IMPORTANCE_RANK[b.importance ?? 'medium'] ||
        (b.confidence ?? 0) - (a.confidence ?? 0) ||
        (b.date ?? '').localeCompare(a.date ?? '') ||
        compareEn(a.event, b.event),
    )
}

/** Interest categories in name order, each with its values best first; at most MAX_INTERESTS values overall. */
function interestLines(interests: Record<string, Scored<string>[]>): string[] {
  const all = Object.entries(interests).flatMap(([category, items]) =>
    items.map((item) => ({ category, value: clean(String(item.value)), confidence: item.confidence })),
  )
  const kept = byConfidence(all.filter((i) => i.value !== '')).slice(0, MAX_INTERESTS)
  const categories = [...new Set(kept.map((i) => i.category))].sort(compareEn)
  return categories.map((category) => {
    const vals = [...new Set(kept.filter((i) => i.category === category).map((i) => i.value))]
    return `${category.replace(/[_-]+/g, ' ').trim()}: ${vals.join(', ')}`
  })
}

/**
 * The summary, then one labelled line per part of the profile. A profile with no content gives '' whatever the
 * summary says ("No profile information has been extracted yet." describes nobody and must match no query).
 */
export function profileText(profile: ProfileContent, summary?: string): string {
  return withSummary(summary, contentLines(profile))
}

/**
 * The summary line before the content's lines (`contentLines`): profileText in two steps, so the part that reads the
 * whole profile can be computed where the merge runs, before the summary is written.
 */
export function withSummary(summary: string | undefined, lines: readonly string[]): string {
  const oneLine = summary?.replace(/\s+/g, ' ').trim()
  if (!lines.length) return ''
  return oneLine ? [oneLine, ...lines].join('\n') : lines.join('\n')
}

/** The labelled lines of profileText, without the summary. */
export function contentLines(profile: ProfileContent): string[] {
  const lines: string[] = []

  const core = profile.core_info
  const facts: string[] = []
  if (core.name) facts.push(`Name: ${clean(core.name.value)}.`)
  if (core.age) facts.push(`Age: ${core.age.value}.`)
  if (core.gender) facts.push(`Gender: ${clean(core.gender.value)}.`)
  if (core.location) facts.push(`Location: ${clean(core.location.value)}.`)
  if (core.occupation) facts.push(`Occupation: ${clean(core.occupation.value)}.`)
  if (facts.length) lines.push(facts.join(' '))

  const interests = interestLines(profile.interests)
  if (interests.length) lines.push(`Interests: ${interests.join('; ')}.`)

  const traits = values(profile.personality.traits, MAX_LIST)
  if (traits.length) lines.push(`Traits: ${traits.join(', ')}.`)
  const mood = profile.personality.mood_trends.recent ?? profile.personality.mood_trends.default
  if (mood && clean(mood.value)) lines.push(`Mood: ${clean(mood.value)}.`)

  const style = profile.preferences.conversation_style
  if (style && clean(style.value)) lines.push(`Conversation style: ${clean(style.value)}.`)
  const avoid = values(profile.preferences.topics_to_avoid, MAX_LIST)
  if (avoid.length) lines.push(`Topics to avoid: ${avoid.join(', ')}.`)

  const memories = rankMemories(profile.memories).slice(0, MAX_MEMORIES)
  if (memories.length) lines.push(`Memories: ${memories.map((m) => clean(m.event)).join('; ')}.`)

  const custom = customFacts(profile.custom)
  if (custom.length) lines.push(`Other: ${custom.map((f) => `${f.label}: ${f.text}`).join('; ')}.`)

  return lines
}

// A profile as compact text for an LLM's system prompt, under a token budget (issue 14): one short line per fact,
// grouped by section, the most relevant (to a query) and most confident facts first, filled greedily until the
// budget, counted exactly with a real tokenizer. Pure: the service fetches the profile and the relevance scores.
import { stemmer } from 'stemmer'
import type { ProfileContent } from '../domain/profile.js'
import { customFacts } from './custom-text.js'
import { byConfidence, clean, compareEn, rankMemories } from './profile-text.js'

/** The tokenizer: o200k_base, the encoding of OpenAI's GPT-4o/4.1/o-series models (ranks ship in gpt-tokenizer). */
export const CONTEXT_ENCODING = 'o200k_base'

type Counter = (text: string) => number
const PLAIN = { disallowedSpecial: new Set<string>() }
let counter: Promise<Counter> | undefined
/** Loaded on first use (the ranks are a few MB), so processes that never build a context don't pay for them. */
export function tokenCounter(): Promise<Counter> {
  // Special-token strings in a text ("<|endoftext|>" in what someone wrote) are counted as plain text, never refused.
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text, PLAIN))
  return counter
}

export type ContextSection = 'summary' | 'basics' | 'interests' | 'personality' | 'preferences' | 'custom' | 'memories'
const SECTION_TITLES: Record<Exclude<ContextSection, 'summary'>, string> = {
  basics: 'Basics',
  interests: 'Interests',
  personality: 'Personality',
  preferences: 'Preferences',
  custom: 'Other',
  memories: 'Memories',
}
const SECTION_ORDER: ContextSection[] = ['summary', 'basics', 'interests', 'personality', 'preferences', 'custom', 'memories']

export interface ContextFact {
  section: ContextSection
  /** The line as it appears (without the "- " bullet). */
  text: string
  /** What relevance is measured on (the line, plus the category for interests). */
  matchText: string
  confidence: number
  /** ISO time (or YYYY-MM-DD) the fact was last set; '' when unknown. */
  at: string
}

/** Every fact of a profile as a line, in a fixed order (deterministic whatever the storage order). Name is the header. */
export function contextFacts(content: ProfileContent, timestamps: Record<string, string>): ContextFact[] {
  const facts: ContextFact[] = []
  const ts = (...paths: string[]) => paths.map((p) => timestamps[p]).find((t) => t) ?? ''
  const add = (section: ContextSection, text: string, confidence: number | undefined, at: string, matchText = text) => {
    const t = clean(text)
    if (t !== '') facts.push({ section, text: t, matchText: clean(matchText), confidence: confidence ?? 0.5, at })
  }
  const core = content.core_info
  if (core.age) add('basics', `Age ${core.age.value}`, core.age.confidence, ts('core_info.age', 'core_info'))
  if (core.gender && clean(core.gender.value)) add('basics', `Gender: ${core.gender.value}`, core.gender.confidence, ts('core_info.gender', 'core_info'))
  if (core.location && clean(core.location.value)) add('basics', `Lives in ${core.location.value}`, core.location.confidence, ts('core_info.location', 'core_info'))
  if (core.occupation && clean(core.occupation.value)) add('basics', `Works as ${core.occupation.value}`, core.occupation.confidence, ts('core_info.occupation', 'core_info'))

  for (const category of Object.keys(content.interests).sort(compareEn)) {
    const label = category.replace(/[_-]+/g, ' ').trim()
    const seen = new Set<string>()
    for (const i of byConfidence(content.interests[category] ?? [])) {
      const v = clean(String(i.value))
      if (v === '' || seen.has(v.toLowerCase())) continue
      seen.add(v.toLowerCase())
      add('interests', label ? `${label}: ${v}` : v, i.confidence, ts(`interests.${category}`, 'interests'))
    }
  }
  const seenTraits = new Set<string>()
  for (const t of byConfidence(content.personality.traits)) {
    const v = clean(String(t.value))
    if (v === '' || seenTraits.has(v.toLowerCase())) continue
    seenTraits.add(v.toLowerCase())
    add('personality', `Trait: ${v}`, t.confidence, ts('personality.traits', 'personality'))
  }
  const mood = content.personality.mood_trends.recent ?? content.personality.mood_trends.default
  if (mood && clean(mood.value)) add('personality', `Mood lately: ${mood.value}`, mood.confidence, ts('personality.mood_trends', 'personality'))

  const style = content.preferences.conversation_style
  if (style && clean(style.value)) add('preferences', `Conversation style: ${style.value}`, style.confidence, ts('preferences.conversation_style', 'preferences'))
  const seenTopics = new Set<string>()
  for (const t of byConfidence(content.preferences.topics_to_avoid)) {
    const v = clean(String(t.value))
    if (v === '' || seenTopics.has(v.toLowerCase())) continue
    seenTopics.add(v.toLowerCase())
    add('preferences', `Avoid talking about: ${v}`, t.confidence, ts('preferences.topics_to_avoid', 'preferences'))
  }
  for (const f of customFacts(content.custom)) {
    const [section] = f.path.split('.')
    add('custom', `${f.label}: ${f.text}`, f.confidence, ts(`custom.${f.path}`, `custom.${section}`))
  }
  for (const m of rankMemories(content.memories)) {
    const text = m.date ? `${m.date}: ${m.event}` : m.event
    const importance = m.importance === 'high' ? 0.1 : m.importance === 'low' ? -0.1 : 0
    add('memories', text, Math.round(Math.max(0, Math.min(1, (m.confidence ?? 0.5) + importance)) * 1000) / 1000, m.date ?? ts('memories'), m.event)
  }
  return facts
}

/** The header line: who the text is about. */
export function contextHeader(content: ProfileContent): string {
  const name = content.core_info.name ? clean(content.core_info.name.value) : ''
  return name ? `About ${name}:` : 'About this person (name unknown):'
}

/** Distinct stems of the content words of a text (lexical relevance). */
export function stems(text: string): Set<string> {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []
  return new Set(words.filter((w) => w.length > 1 && !LEXICAL_STOP.has(w)).map((w) => stemmer(w)))
}
const LEXICAL_STOP = new Set('a an and are as at be by for from has have he her his i in is it its of on or she that the their they to was were with about likes like lives works trait'.split(' '))

/** Share of the query's stems that the fact contains, in [0, 1]. */
export function lexicalScore(query: Set<string>, fact: Set<string>): number {
  if (query.size === 0) return 0
  let hit = 0
  for (const s of query) if (fact.has(s)) hit++
  return hit / query.size
}

export interface ComposeInput {
  header: string
  summary?: string | null
  facts: ContextFact[]
  /** Relevance of each fact to the query in [0, 1] (same order as facts); absent without a query. */
  relevance?: number[]
  maxTokens: number
  count: Counter
}

export interface ComposedContext {
  text: string
  tokens: number
  factsIncluded: number
  factsTotal: number
  summaryIncluded: boolean
  truncated: boolean
}

interface Item {
  section: ContextSection
  text: string
  rank: number
  fact: boolean
}

/** Renders chosen items: header, then sections in the order of their best item, items best first within a section. */
function render(header: string, items: Item[]): string {
  const bySection = new Map<ContextSection, Item[]>()
  for (const it of [...items].sort((a, b) => a.rank - b.rank)) {
    const list = bySection.get(it.section) ?? []
    list.push(it)
    bySection.set(it.section, list)
  }
  const lines = [header]
  for (const [section, list] of bySection) {
    if (section === 'summary') lines.push(...list.map((i) => i.text))
    else lines.push(`${SECTION_TITLES[section]}:`, ...list.map((i) => `- ${i.text}`))
  }
  return lines.join('\n')
}

/**
 * Greedy fill in priority order, stopping at the first item that does not fit: a fact is never cut, and what is
 * included is always a prefix of the order, so a larger budget gives a superset. The summary comes after every fact
 * (it retells them in prose) and is added when all facts fit and it still fits. Costs are estimated per line, then the
 * whole text is counted exactly; should the estimate be short (BPE merges across lines), the last items taken are
 * dropped until the exact count fits.
 */
export function composeContext(input: ComposeInput): ComposedContext {
  const { header, facts, maxTokens, count } = input
  const order = facts.map((f, i) => ({ f, i, r: input.relevance?.[i] ?? 0 }))
  order.sort(
    (a, b) =>
      b.r - a.r ||
      b.f.confidence - a.f.confidence ||
      b.f.at.localeCompare(a.f.at) ||
      SECTION_ORDER.indexOf(a.f.section) - SECTION_ORDER.indexOf(b.f.section) ||
      a.i - b.i,
  )
  const candidates: Item[] = order.map((o, rank) => ({ section: o.f.section, text: o.f.text, rank, fact: true }))
  const summary = input.summary?.replace(/\s+/g, ' ').trim()
  if (summary) candidates.push({ section: 'summary', text: `Summary: ${summary}`, rank: candidates.length, fact: false })
  const factsTotal = facts.length
  const headerTokens = count(header)
  if (headerTokens > maxTokens) {
    return { text: '', tokens: 0, factsIncluded: 0, factsTotal, summaryIncluded: false, truncated: true }
  }
  const chosen: Item[] = []
  const sectionsOpen = new Set<ContextSection>()
  let estimate = headerTokens
  for (const it of candidates) {
    // "\n" + the line, plus the section's title line the first time the section appears.
    let cost = count('\n' + (it.section === 'summary' ? it.text : `- ${it.text}`))
    if (it.section !== 'summary' && !sectionsOpen.has(it.section)) cost += count(`\n${SECTION_TITLES[it.section]}:`)
    if (estimate + cost > maxTokens) break
    estimate += cost
    chosen.push(it)
    sectionsOpen.add(it.section)
  }
  let text = render(header, chosen)
  let tokens = count(text)
  while (tokens > maxTokens && chosen.length) {
    chosen.pop()
    text = render(header, chosen)
    tokens = count(text)
  }
  const factsIncluded = chosen.filter((c) => c.fact).length
  return {
    text,
    tokens,
    factsIncluded,
    factsTotal,
    summaryIncluded: chosen.some((c) => !c.fact),
    // Something was left out: a fact, or the summary the profile has.
    truncated: chosen.length < candidates.length,
  }
}

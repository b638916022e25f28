// The trace of an explained extraction: for each value, the rules that produced it and the text they matched.
// Built only when asked (`LocalExtractor.explainOne`): the Acc records into a Tracer, which the worker never passes.
import type { Extraction } from '../../domain/profile.js'
import { key, memoryKey } from './value-key.js'
import type { RuleId } from './rules.js'

/** What a rule matched: its RegExp match (the whole match is kept) or a snippet; none means the whole clause. */
export type Span = string | readonly string[]

/** One rule behind a value. */
export interface RuleHit {
  rule: RuleId
  /** The confidence this rule gave the value (the extraction keeps the highest of its hits). */
  confidence?: number
  /** The text the rule matched, as the rules read it: lower case, contractions expanded ("i am" for "I'm"). */
  match: string
  /** The clause of the text the rule read (after the same normalisation and any rewriting into the first person). */
  clause: string
}

/** One value of an extraction, flattened. */
export interface ExtractedValue {
  /**
   * Where the value is: "core_info.name", "interests.music", "personality.traits", "memories", "removals.interests",
   * ...
   */
  field: string
  value: string | number
  confidence?: number
  /** Memories: date and importance; removals: the interest's category. */
  detail?: string
}

/** A value with the rules that produced it (several when several rules found it), in the order they fired. */
export interface TracedValue extends ExtractedValue {
  hits: RuleHit[]
}

const round = (c: number) => Math.round(Math.min(1, Math.max(0, c)) * 100) / 100

/** Calls `visit` for every value of `extraction`, in a fixed order, with the slot and key the Acc files it under. */
function walk(extraction: Extraction, visit: (value: ExtractedValue, slot: string, id: string) => void): void {
  const scored = (field: string, s: { value: string | number; confidence: number }, id: string, slot = field) =>
    visit({ field, value: s.value, confidence: s.confidence }, slot, id)
  for (const [f, s] of Object.entries(extraction.core_info ?? {})) if (s) scored(`core_info.${f}`, s, String(s.value))
  for (const [cat, list] of Object.entries(extraction.interests ?? {}))
    for (const s of list) scored(`interests.${cat}`, s, key(s.value), 'interests')
  for (const s of extraction.personality?.traits ?? []) scored('personality.traits', s, key(s.value))
  const mood = extraction.personality?.mood
  if (mood) scored('personality.mood', mood, mood.value)
  for (const m of extraction.memories ?? []) {
    const detail = [m.date, m.importance].filter(Boolean).join(', ')
    visit(
      {
        field: 'memories',
        value: m.event,
        ...(m.confidence === undefined ? {} : { confidence: m.confidence }),
        ...(detail ? { detail } : {}),
      },
      'memories',
      memoryKey(m),
    )
  }
  const style = extraction.preferences?.conversation_style
  if (style) scored('preferences.conversation_style', style, style.value)
  for (const s of extraction.preferences?.topics_to_avoid ?? []) scored('preferences.topics_to_avoid', s, key(s.value))
  for (const r of extraction.removals ?? []) {
    const field = `removals.${r.section}`
    visit({ field, value: r.value, ...(r.category ? { detail: r.category } : {}) }, field, key(r.value))
  }
  if (extraction.language) visit({ field: 'language', value: extraction.language }, 'language', extraction.language)
}

/** The values of an extraction, one per entry. */
export function valuesOf(extraction: Extraction): ExtractedValue[] {
  const out: ExtractedValue[] = []
  walk(extraction, (v) => out.push(v))
  return out
}

export class Tracer {
  /** The clause the rules are reading now (set by the extractor before each). */
  clause = ''
  private readonly sources = new Map<string, RuleHit[]>()

  /** Notes that `rule` proposed the value filed as `id` under `slot` (the Acc's field and key). */
  record(slot: string, id: string, rule: RuleId, confidence: number | undefined, span: Span | undefined): void {
    const at = `${slot}\u0000${id}`
    const match = span === undefined ? this.clause : typeof span === 'string' ? span : (span[0] ?? '')
    const hit: RuleHit = {
      rule,
      ...(confidence === undefined ? {} : { confidence: round(confidence) }),
      match,
      clause: this.clause,
    }
    const list = this.sources.get(at)
    if (!list) this.sources.set(at, [hit])
    // the same finding again (a clause and its rewritten copy) is one hit
    else if (!list.some((h) => h.rule === hit.rule && h.match === hit.match && h.confidence === hit.confidence))
      list.push(hit)
  }

  /**
   * Every value of `extraction` (an extraction this tracer watched being built) with its hits, in the extraction's
   * order.
   */
  explain(extraction: Extraction): TracedValue[] {
    const out: TracedValue[] = []
    walk(extraction, (value, slot, id) => {
      // the language comes from detection over the whole text, not from a clause
      const hits =
        slot === 'language'
          ? [{ rule: 'language.detected' as const, match: '', clause: '' }]
          : (this.sources.get(`${slot}\u0000${id}`) ?? [])
      out.push({ ...value, hits })
    })
    return out
  }
}

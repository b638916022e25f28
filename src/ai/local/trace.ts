// The trace of an explained extraction: for each value, the rules that produced it and the text they matched.
// Built only when asked (`LocalExtractor.explainOne`): the Acc records into a Tracer, which the worker never passes.
import type { Extraction } from '../../domain/profile.js'
import { key, memoryKey } from './acc.js'
import type { RuleId } from './rules.js'

/** What a rule matched: its RegExp match (the whole match is kept) or a snippet; none means the whole clause. */
export type Span = string | readonly string[]

/** One value of an extraction and one rule behind it (a value several rules produced has several hits). */
export interface RuleHit {
  /** Where the value is: "core_info.name", "interests.music", "personality.traits", "memories", "removals.interests", ... */
  field: string
  value: string | number
  rule: RuleId
  /** The confidence this rule gave the value (the extraction keeps the highest of its hits). */
  confidence?: number
  /** The text the rule matched, as the rules read it: lower case, contractions expanded ("i am" for "I'm"). */
  match: string
  /** The clause of the text the rule read (after the same normalisation and any rewriting into the first person). */
  clause: string
}

type Source = Omit<RuleHit, 'field' | 'value'>

const round = (c: number) => Math.round(Math.min(1, Math.max(0, c)) * 100) / 100

export class Tracer {
  /** The clause the rules are reading now (set by the extractor before each). */
  clause = ''
  private readonly sources = new Map<string, Source[]>()

  /** Notes that `rule` proposed the value known as `id` (its key in the Acc) for `field`. */
  record(field: string, id: string, rule: RuleId, confidence: number | undefined, span: Span | undefined): void {
    const slot = `${field}\u0000${id}`
    const match = span === undefined ? this.clause : typeof span === 'string' ? span : (span[0] ?? '')
    const src: Source = { rule, ...(confidence === undefined ? {} : { confidence: round(confidence) }), match, clause: this.clause }
    const list = this.sources.get(slot)
    if (!list) this.sources.set(slot, [src])
    // the same finding again (a clause and its rewritten copy) is one hit
    else if (!list.some((s) => s.rule === src.rule && s.match === src.match && s.confidence === src.confidence)) list.push(src)
  }

  /** The hits behind every value of `e` (an extraction this tracer watched being built), in the extraction's order. */
  hits(e: Extraction): RuleHit[] {
    const out: RuleHit[] = []
    const add = (field: string, id: string, value: string | number, slot = field) => {
      for (const s of this.sources.get(`${slot}\u0000${id}`) ?? []) out.push({ field, value, ...s })
    }
    for (const [f, s] of Object.entries(e.core_info ?? {})) if (s) add(`core_info.${f}`, String(s.value), s.value)
    for (const [cat, list] of Object.entries(e.interests ?? {})) for (const s of list) add(`interests.${cat}`, key(s.value), s.value, 'interests')
    for (const s of e.personality?.traits ?? []) add('personality.traits', key(s.value), s.value)
    const mood = e.personality?.mood
    if (mood) add('personality.mood', mood.value, mood.value)
    for (const m of e.memories ?? []) add('memories', memoryKey(m), m.event)
    const style = e.preferences?.conversation_style
    if (style) add('preferences.conversation_style', style.value, style.value)
    for (const s of e.preferences?.topics_to_avoid ?? []) add('preferences.topics_to_avoid', key(s.value), s.value)
    for (const r of e.removals ?? []) add(`removals.${r.section}`, key(r.value), r.value)
    if (e.language) out.push({ field: 'language', value: e.language, rule: 'language.detected', match: '', clause: '' })
    return out
  }
}

// Collects the findings of the rules for one submission and turns them into an `Extraction`. Every finding names its
// rule; with a Tracer (only when asked: `explain`) the rule and the text it matched are kept for each value.
import type { CoreField, CoreInfo, Extraction, ListSection, Memory, Removal, Scored } from '../../domain/profile.js'
import { tokens } from '../../domain/normalise.js'
import type { RuleId } from './rules.js'
import type { Span, Tracer } from './trace.js'
import { key, memoryKey } from './value-key.js'

const round = (c: number) => Math.round(Math.min(1, Math.max(0, c)) * 100) / 100
/** A list value made only of grammar words ("they", "to", "the") says nothing. */
const contentless = (v: string) => !/\s/.test(v) && tokens(v).length === 0
/** Grammar words a phrase cut from a sentence can start or end with: "is soup", "and chips", "salmon the" (a title
 * keeps its article: "The Who"). */
const LOOSE_START = /^(?:(?:is|are|was|were|and|or|but|also|then)\s+)+/
const LOOSE_END = /(?:\s+(?:the|a|an|and|or|but|so|too|lol|haha))+$/
/**
 * Phrases that are no interest once cut loose: "of my favorites", "thrill of", "growing them", "their games".
 */
const NOT_A_PHRASE = new RegExp(
  '^(?:of|so|not|to|about|with|for|in|on|at|from|into|their|his|its|your)\\b|' +
    '\\b(?:of|to|with|for|them|it|him|her|me|us)$|' +
    // a gerund that names nothing without its object: "entering (into debates)", "getting", "making"
    '^(?:entering|getting|making|having|taking|putting|giving|doing|keeping|bringing|using|trying|picking|finding)$',
)
/** A topic cut loose from its verb: "(do not talk) to people", "(i hate) to say", "(all) of this electronics". */
const NOT_A_TOPIC = /^(?:to|of|with|for|at|from)\b/

/** The interest as a phrase a person would write, or undefined when the words left are a fragment. */
export function interestPhrase(value: string): string | undefined {
  if (/^(?:is|are|was|were) not\b/.test(value)) return undefined
  const phrase = value.replace(LOOSE_END, '').replace(LOOSE_START, '').trim()
  if (!phrase || NOT_A_PHRASE.test(phrase)) return undefined
  return phrase
}

/**
 * A memory cut inside a quotation keeps it whole: 'finished reading "becoming nicole' gets its closing mark. A stray
 * mark that opens nothing is dropped.
 */
export function closedQuotes(event: string): string {
  if ((event.match(/"/g)?.length ?? 0) % 2 === 0) return event
  const last = event.lastIndexOf('"')
  if (/(?:^|\s)$/.test(event.slice(0, last)) && last < event.length - 1) return `${event}"`
  return event.slice(0, last) + event.slice(last + 1)
}

interface Ordered<T> {
  item: T
  order: number
}

export class Acc {
  private seq = 0
  private readonly core = new Map<CoreField, Scored<string | number>>()
  private readonly interests = new Map<string, Ordered<Scored<string> & { category: string }>>()
  private readonly traits = new Map<string, Ordered<Scored<string>>>()
  private readonly avoid = new Map<string, Ordered<Scored<string>>>()
  private readonly removals = new Map<string, Ordered<Removal>>()
  private mood?: Scored<string>
  private style?: Scored<string>
  private readonly memories: Memory[] = []
  private written = 0

  /**
   * What the confidence of each field value read now (core fields, interests, traits, topics) is multiplied by: below
   * 1 while the extractor reads statements the person made only by answering a question (answers.ts).
   */
  weight = 1

  /** `trace`: record the rule behind each value (costs time; the worker never passes one). */
  constructor(readonly trace?: Tracer) {}

  /** How many values the rules have written so far: a rule can tell whether others read a clause before it. */
  get taken(): number {
    return this.written
  }

  /** The events of the memories the rules have kept so far. */
  get memoryEvents(): string[] {
    return this.memories.map((memory) => memory.event)
  }

  /** How many memories the rules have kept so far. */
  get memoryCount(): number {
    return this.memories.length
  }

  /** Keeps the most confident value of a core field (the first one on ties). */
  setCore(field: CoreField, value: string | number, stated: number, rule: RuleId, span?: Span): void {
    if (typeof value === 'string' && !value.trim()) return
    const confidence = stated * this.weight
    this.written++
    this.trace?.record(`core_info.${field}`, String(value), rule, confidence, span)
    const old = this.core.get(field)
    if (old && old.value === value) old.confidence = Math.max(old.confidence, confidence)
    else if (!old || confidence > old.confidence) this.core.set(field, { value, confidence })
  }

  hasCore(field: CoreField): boolean {
    return this.core.has(field)
  }

  /** The value a core field holds so far in this text, if any. */
  coreValue(field: CoreField): string | number | undefined {
    return this.core.get(field)?.value
  }

  /** Adds an interest; a later removal of the same value in the same text cancels it, and vice versa. */
  addInterest(category: string, value: string, stated: number, rule: RuleId, span?: Span): void {
    const confidence = stated * this.weight
    const trimmed = interestPhrase(value.trim()) ?? ''
    if (!trimmed || trimmed.length > 60 || contentless(trimmed)) return
    const valueKey = key(trimmed)
    this.written++
    this.trace?.record('interests', valueKey, rule, confidence, span)
    const old = this.interests.get(valueKey)
    if (old && old.item.confidence >= confidence) {
      old.order = ++this.seq
      return
    }
    this.interests.set(valueKey, { item: { value: trimmed, confidence, category }, order: ++this.seq })
  }

  /** Forgets an interest found in this text (a more specific value replaces it). */
  dropInterest(value: string): void {
    this.interests.delete(key(value))
  }

  addTrait(value: string, confidence: number, rule: RuleId, span?: Span): void {
    this.addList(this.traits, value, confidence, 'personality.traits', rule, span)
  }

  addAvoid(value: string, confidence: number, rule: RuleId, span?: Span): void {
    this.addList(this.avoid, value, confidence, 'preferences.topics_to_avoid', rule, span)
  }

  private addList(
    list: Map<string, Ordered<Scored<string>>>,
    value: string,
    stated: number,
    field: string,
    rule: RuleId,
    span?: Span,
  ): void {
    const confidence = stated * this.weight
    const trimmed = value.trim()
    if (!trimmed || contentless(trimmed) || (field === 'preferences.topics_to_avoid' && NOT_A_TOPIC.test(trimmed)))
      return
    const valueKey = key(trimmed)
    this.written++
    this.trace?.record(field, valueKey, rule, confidence, span)
    const old = list.get(valueKey)
    if (old) {
      old.item.confidence = Math.max(old.item.confidence, confidence)
      old.order = ++this.seq
    } else list.set(valueKey, { item: { value: trimmed, confidence }, order: ++this.seq })
  }

  remove(section: ListSection, value: string, category: string | undefined, rule: RuleId, span?: Span): void {
    const trimmed = value.trim()
    if (!trimmed) return
    this.written++
    this.trace?.record(`removals.${section}`, key(trimmed), rule, undefined, span)
    const removal: Removal = category ? { section, category, value: trimmed } : { section, value: trimmed }
    this.removals.set(`${section}:${key(trimmed)}`, { item: removal, order: ++this.seq })
  }

  setMood(value: string, confidence: number, rule: RuleId, span?: Span): void {
    this.written++
    this.trace?.record('personality.mood', value, rule, confidence, span)
    if (!this.mood || confidence >= this.mood.confidence) this.mood = { value, confidence }
  }

  setStyle(value: string, confidence: number, rule: RuleId, span?: Span): void {
    this.written++
    this.trace?.record('preferences.conversation_style', value, rule, confidence, span)
    if (!this.style || confidence > this.style.confidence) this.style = { value, confidence }
  }

  /**
   * Who shares the clause being read with the person ("my kids and i went to the museum"): a memory read from it
   * says so ("went to the museum with their kids") unless it names them already. Set per clause by the extractor.
   */
  companion?: string

  addMemory(said: Memory, rule: RuleId, span?: Span): void {
    const confidence = said.confidence === undefined ? undefined : round(said.confidence * this.weight)
    const memory = this.withCompanion({ ...said, event: closedQuotes(said.event), confidence })
    const eventKey = key(memory.event)
    this.written++
    this.trace?.record('memories', memoryKey(memory), rule, memory.confidence, span)
    // two readings of one event, one of them undated, are one memory: the surer, with the date either gives
    const twin = this.memories.findIndex(
      (x) => key(x.event) === eventKey && (x.date === memory.date || !x.date || !memory.date),
    )
    if (twin < 0) {
      this.memories.push(memory)
      return
    }
    const kept = this.memories[twin]!
    const surer = (memory.confidence ?? 0) > (kept.confidence ?? 0) ? memory : kept
    const date = surer.date ?? kept.date ?? memory.date
    this.memories[twin] = date ? { ...surer, date } : surer
  }

  private withCompanion(memory: Memory): Memory {
    const companion = this.companion
    if (!companion) return memory
    const named = companion.split(' ').at(-1)!
    // "went shopping with her kids": a companion of its own already, which a second "with" would muddle
    if (new RegExp(`\\b${named}|\\bwith\\b`, 'i').test(memory.event)) return memory
    return { ...memory, event: `${memory.event} with ${companion}` }
  }

  toExtraction(language?: string): Extraction {
    const out: Extraction = {}
    if (this.core.size) {
      const core: CoreInfo = {}
      for (const [f, s] of this.core) {
        const confidence = round(s.confidence)
        if (f === 'age') core.age = { value: Number(s.value), confidence }
        else core[f] = { value: String(s.value), confidence }
      }
      out.core_info = core
    }
    // An entry and its removal in the same text: the later statement wins.
    const removedOrder = (section: ListSection, v: string) => this.removals.get(`${section}:${key(v)}`)?.order ?? -1
    const interests: Record<string, Scored<string>[]> = {}
    for (const { item, order } of this.interests.values()) {
      if (removedOrder('interests', item.value) > order) continue
      ;(interests[item.category] ??= []).push({ value: item.value, confidence: round(item.confidence) })
    }
    if (Object.keys(interests).length) out.interests = interests
    const traits = [...this.traits.values()]
      .filter((t) => removedOrder('traits', t.item.value) < t.order)
      .map((t) => ({ value: t.item.value, confidence: round(t.item.confidence) }))
    if (traits.length || this.mood) {
      out.personality = {}
      if (traits.length) out.personality.traits = traits
      if (this.mood) out.personality.mood = { value: this.mood.value, confidence: round(this.mood.confidence) }
    }
    if (this.memories.length) {
      out.memories = this.memories.map((m) =>
        m.confidence === undefined ? { ...m } : { ...m, confidence: round(m.confidence) },
      )
    }
    const avoid = [...this.avoid.values()]
      .filter((t) => removedOrder('topics_to_avoid', t.item.value) < t.order)
      .map((t) => ({ value: t.item.value, confidence: round(t.item.confidence) }))
    if (avoid.length || this.style) {
      out.preferences = {}
      if (this.style)
        out.preferences.conversation_style = { value: this.style.value, confidence: round(this.style.confidence) }
      if (avoid.length) out.preferences.topics_to_avoid = avoid
    }
    const entries = (section: ListSection) =>
      section === 'interests'
        ? [...this.interests.values()]
        : section === 'traits'
          ? [...this.traits.values()]
          : [...this.avoid.values()]
    const removals = [...this.removals.values()]
      .filter(
        ({ item, order }) =>
          !entries(item.section).some((e) => key(e.item.value) === key(item.value) && e.order > order),
      )
      .map((r) => r.item)
    if (removals.length) out.removals = removals
    if (language) out.language = language
    return out
  }
}

// The memory task of the evaluation (docs/evaluation.md, "Memory"): Multi-Session Chat conversations, each speaker's
// sessions posted in order, and how many of the speaker's persona facts a context of a fixed token budget holds,
// for the service and for baselines built from the speaker's raw turns. Pure functions: no I/O, no clock.
import nlp from 'compromise'
import { tokens } from '../src/domain/normalise.js'

// ---------- the data ----------

/** One line of session_3_valid.jsonl (the fields the task reads). */
export interface MscRecord {
  previous_dialogs: { dialog: { text: string }[]; time_num: number; time_unit: string; personas?: string[][] }[]
  dialog: { text: string; id?: string }[]
  personas: [string[], string[]]
  metadata: { initial_data_id: string }
}

export interface Turn {
  /** 0 = Speaker 1, 1 = Speaker 2. */
  speaker: 0 | 1
  text: string
}

export interface Session {
  turns: Turn[]
  /** When the session took place (ISO 8601), counted back from the reference date. */
  at: string
}

const UNIT_MS: Record<string, number> = {
  hour: 3600e3,
  day: 86400e3,
  week: 7 * 86400e3,
  month: 30 * 86400e3,
  year: 365 * 86400e3,
}

/** Milliseconds of `time_num` `time_unit` ("4 days", "3 hours"; singular or plural). */
export function durationMs(num: number, unit: string): number {
  const ms = UNIT_MS[unit.trim().toLowerCase().replace(/s$/, '')]
  if (ms === undefined || !Number.isFinite(num) || num < 0) throw new Error(`unknown session gap: ${num} ${unit}`)
  return num * ms
}

/**
 * The sessions of a conversation, oldest first, with their times: the current session (`dialog`) took place at
 * `reference`; each earlier session `time_num` `time_unit` before the one after it.
 */
export function sessionsOf(r: MscRecord, reference: Date): Session[] {
  const current: Turn[] = r.dialog.map((t, i) => ({
    // ids are "Speaker 1" / "Speaker 2"; a few first turns carry a number instead: speakers alternate, so use the
    // position
    speaker: t.id === 'Speaker 1' ? 0 : t.id === 'Speaker 2' ? 1 : ((i % 2) as 0 | 1),
    text: t.text,
  }))
  const previous = r.previous_dialogs.map((s) =>
    s.dialog.map((t, i): Turn => ({ speaker: (i % 2) as 0 | 1, text: t.text })),
  )
  const times: number[] = [reference.getTime()]
  for (let i = r.previous_dialogs.length - 1; i >= 0; i--) {
    const s = r.previous_dialogs[i]!
    times.unshift(times[0]! - durationMs(s.time_num, s.time_unit))
  }
  return [...previous, current].map((turns, i) => ({
    turns: turns.filter((t) => t.text.trim()),
    at: new Date(times[i]!).toISOString(),
  }))
}

/** A session as a JSON conversation for POST /v1/profile/{id}: the speaker is "user", the partner "assistant". */
export function conversationJson(s: Session, speaker: 0 | 1): string {
  return JSON.stringify(s.turns.map((t) => ({ role: t.speaker === speaker ? 'user' : 'assistant', content: t.text })))
}

/** One person of the memory task: the sessions posted for their profile (each with which speaker they are in it). */
export interface MemoryPerson {
  profileId: string
  sessions: { session: Session; speaker: 0 | 1 }[]
  facts: PersonaFact[]
  /** Their own turns over all sessions, oldest first (what the baselines read). */
  turns: string[]
}

/** Between two conversations of a long history: the next begins this long after the last session of the one before. */
export const LONG_GAP_MS = 14 * 86400e3

/**
 * Long histories (the held-out long-conversation benchmark has up to 35 sessions and hundreds of turns a person; a
 * speaker here has three sessions and about 440 tokens): `k` speakers of `k` different conversations told as one
 * person, their conversations one after another in time (each keeps its sessions' spacing, the next begins LONG_GAP_MS
 * after the one before), the last ending at `reference`. Speaker 1 of conversations 0..k-1 is person 0, of k..2k-1
 * person 1, and so on, then the same for speaker 2; a last group of fewer than `k` is left out. Each person's facts are
 * the persona facts of their `k` speakers.
 */
export function longHistories(
  records: readonly MscRecord[],
  k: number,
  reference: Date,
  prefix = 'memlong',
): MemoryPerson[] {
  if (!Number.isInteger(k) || k < 2) throw new Error(`a long history joins at least 2 conversations, got ${k}`)
  const out: MemoryPerson[] = []
  for (const speaker of [0, 1] as const) {
    for (let g = 0; g + k <= records.length; g += k) {
      const group = records.slice(g, g + k)
      // Newest conversation first, each ending LONG_GAP_MS before the first session of the one after it.
      let end = reference.getTime()
      const parts: Session[][] = []
      for (let i = group.length - 1; i >= 0; i--) {
        const s = sessionsOf(group[i]!, new Date(end))
        parts.unshift(s)
        end = new Date(s[0]!.at).getTime() - LONG_GAP_MS
      }
      const sessions = parts.flat().map((session) => ({ session, speaker }))
      out.push({
        profileId: `${prefix}:${k}:${speaker + 1}:${g / k}`,
        sessions,
        facts: personaFacts(group.flatMap((r) => r.personas[speaker] ?? [])),
        turns: speakerTurns(parts.flat(), speaker),
      })
    }
  }
  return out
}

/** The speaker's own turns over all sessions, oldest first. */
export const speakerTurns = (sessions: readonly Session[], speaker: 0 | 1): string[] =>
  sessions.flatMap((s) => s.turns.filter((t) => t.speaker === speaker).map((t) => t.text))

// ---------- gold facts and their questions ----------

export interface PersonaFact {
  /** The sentence, as written in `personas`. */
  text: string
  /** Its content words (stemmed, stop words out): what the no-query figure looks for. */
  words: string[]
  /** The fact's topic, the query of the "with query" figure; null when the fact has no topic apart from its answer. */
  query: string | null
  /** The content words that are not the query's: what the "with query" figure looks for. */
  answer: string[]
}

const hasTag = (tags: string[], ...want: string[]) => want.some((w) => tags.includes(w))

/**
 * The topic of a persona sentence, as a question about it would name it (the held-out benchmark asks "What did
 * Caroline research?" for "Caroline researched adoption agencies"): the subject when it is a noun ("My **son** is in
 * junior high", "**Shopping** is hard for me"); for "I ..." sentences the first verb that carries content ("I **own** a
 * cat", "I **like** white wine": the first verb that is not an auxiliary, when it is not a stop word); failing that the
 * first common noun ("I have two **jobs**", "I have a **dog** named Charlie": "have" is a stop word).
 * Returns null when the sentence has none.
 */
export function topicOf(sentence: string): string | null {
  const terms = (nlp(sentence).terms().json() as { terms: { text: string; tags: string[] }[] }[])
    .map((t) => t.terms[0]!)
    .filter((t) => t.text.trim())
  const content = (t: { text: string }) => tokens(t.text).length > 0
  const isNoun = (t: { tags: string[] }) =>
    hasTag(t.tags, 'Noun') && !hasTag(t.tags, 'Pronoun', 'Possessive', 'ProperNoun', 'Value')
  const isVerb = (t: { tags: string[] }) => hasTag(t.tags, 'Verb') && !hasTag(t.tags, 'Auxiliary', 'Copula', 'Modal')
  const first = terms[0]
  const pronounSubject = first !== undefined && hasTag(first.tags, 'Pronoun') && !hasTag(first.tags, 'Possessive')
  const noun = terms.find((t) => isNoun(t) && content(t))
  // the main verb (the first that is not an auxiliary), when it says something: "have" in "I have a dog named
  // Charlie" does not, and "named" is not the sentence's verb
  const main = terms.find(isVerb)
  const verb = main && content(main) ? main : undefined
  const pick = pronounSubject ? (verb ?? noun) : (noun ?? verb)
  return pick ? pick.text.replace(/[^\p{L}\p{N}'-]+$/u, '') : null
}

/**
 * A fact's topic asked as a question, the form of the held-out benchmark ("What did Caroline research?"):
 * question and function words around the topic ("What did they say about son?"), which a context must not take for
 * what is asked. One template for every topic (a noun or a verb): the point is the words around it, not its grammar.
 */
export const questionOf = (topic: string): string => `What did they say about ${topic}?`

/** Splits a persona entry into sentences ("I have a dog. I have a lot of spare time." -> two facts). */
export function sentences(entry: string): string[] {
  return entry
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** A speaker's persona facts: one per sentence, duplicates (same content words) and sentences without content out. */
export function personaFacts(entries: readonly string[]): PersonaFact[] {
  const seen = new Set<string>()
  const out: PersonaFact[] = []
  for (const text of entries.flatMap(sentences)) {
    const words = [...new Set(tokens(text))]
    const key = [...words].sort().join(' ')
    if (!words.length || seen.has(key)) continue
    seen.add(key)
    const topic = topicOf(text)
    const topicWords = new Set(topic ? tokens(topic) : [])
    const answer = words.filter((w) => !topicWords.has(w))
    // a question must leave something to answer: "I own a cat" -> query "own", answer "cat"
    const usable = topic !== null && topicWords.size > 0 && answer.length > 0
    out.push({ text, words, query: usable ? topic : null, answer: usable ? answer : [] })
  }
  return out
}

// ---------- scoring ----------

/** The rule: a fact is held by a text when at least half of its (answer) words are among the text's content words. */
export const COVERAGE_THRESHOLD = 0.5

export function covered(words: readonly string[], text: ReadonlySet<string>): boolean {
  if (!words.length) return false
  let hit = 0
  for (const w of words) if (text.has(w)) hit++
  return hit / words.length >= COVERAGE_THRESHOLD
}

/** The content words of a text, as a set (the same normalisation as the facts' words). */
export const textWords = (text: string): Set<string> => new Set(tokens(text))

// ---------- baselines ----------

export { Bm25 } from '../src/domain/bm25.js'
import type { Bm25 } from '../src/domain/bm25.js'

/**
 * Takes texts in the given order, one line each, while the whole text fits `budget` tokens (counted exactly on the
 * joined text); the first that does not fit ends it, as the service's context does.
 */
export function fillBudget(
  ordered: readonly string[],
  budget: number,
  count: (text: string) => number,
): { text: string; tokens: number; included: number } {
  let text = ''
  let used = 0
  let included = 0
  for (const t of ordered) {
    const next = text ? `${text}\n${t}` : t
    const n = count(next)
    if (n > budget) break
    text = next
    used = n
    included++
  }
  return { text, tokens: used, included }
}

/** Baseline (i): the newest turns that fit, newest first. */
export const newestTurns = (turns: readonly string[], budget: number, count: (text: string) => number) =>
  fillBudget([...turns].reverse(), budget, count)

/** Baseline (ii): the turns ranked by BM25 against the query, best first, while they fit. */
export const bm25Turns = (
  index: Bm25,
  turns: readonly string[],
  query: string,
  budget: number,
  count: (text: string) => number,
) =>
  fillBudget(
    index.rank(query).map((i) => turns[i]!),
    budget,
    count,
  )

// ---------- aggregation ----------

/** Facts held over facts asked, for one system and one figure. */
export interface Coverage {
  facts: number
  held: number
  share: number | null
  /** Mean tokens of the texts scored (one per speaker without a query, one per fact with one). */
  meanTokens: number | null
}

export class CoverageCounter {
  facts = 0
  held = 0
  private tokens = 0
  private texts = 0
  add(isHeld: boolean): void {
    this.facts++
    if (isHeld) this.held++
  }
  text(tokens: number): void {
    this.tokens += tokens
    this.texts++
  }
  result(): Coverage {
    return {
      facts: this.facts,
      held: this.held,
      share: this.facts ? this.held / this.facts : null,
      meanTokens: this.texts ? this.tokens / this.texts : null,
    }
  }
}

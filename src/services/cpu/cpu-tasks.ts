// The CPU work that runs off the main thread (src/threads/cpu.ts): a worker batch's merge with everything derived from
// the merged state that grows with the profile, and the ranking and composition of a context. Pure functions of their
// input, so they run the same in a thread or inline.
import { contentLines, profileText } from '../../ai/profile-text.js'
import { Bm25 } from '../../domain/bm25.js'
import {
  type ComposedContext,
  type ContextPassage,
  type PassageDates,
  composeContext,
  contextFacts,
  contextHeader,
  ASKED_WEIGHT,
  factAlternatives,
  lexicalScore,
  onlyAsks,
  passageDatesFor,
  stems,
  tokenCounter,
} from '../../ai/profile-context.js'
import { forgetValue, restoreSnapshot, type ForgetTarget } from '../../domain/forget.js'
import { contentLexemes, profileLexemes } from '../../domain/lexical.js'
import { keyMemo } from '../../domain/merge-rules.js'
import { reextractedTimestamps, reextractionDiff, type ReextractionChanges } from '../../domain/reextract.js'
import { merge, type MergeResult } from '../../domain/merge.js'
import { DropLog, enforceLimits, type ProfileLimits } from '../../domain/profile-limits.js'
import {
  emptyContent,
  type Changes,
  type Extraction,
  type ProfileContent,
  type ProfileState,
} from '../../domain/profile.js'
import { stateJson, type StateJson } from '../../domain/state-json.js'

import { mergeKeptProposals } from '../../domain/summary-check.js'
export type { StateJson } from '../../domain/state-json.js'

export interface MergeTask {
  kind: 'merge'
  state: ProfileState
  extractions: Extraction[]
  now: string
  acceptedAt: (string | undefined)[]
  /** When each extraction's text was said or written (ISO 8601), by index: the merge orders evidence by it. */
  occurredAt?: (string | undefined)[]
  limits: ProfileLimits
}

/** What grows with a profile and is derived from its content, computed beside the state (the summary comes later). */
export interface Derived {
  json: StateJson
  /** The values' search lexemes (src/domain/lexical.ts contentLexemes): the summary's are added once it is written. */
  contentLexemes: string[]
  /** The embedded text's lines but the summary (src/ai/profile-text.ts contentLines). */
  lines: string[]
}

const derived = (state: ProfileState, changes: unknown): Derived => ({
  json: stateJson(state, changes),
  contentLexemes: contentLexemes(state.content),
  lines: contentLines(state.content),
})

export interface MergeOutput extends Derived {
  merged: MergeResult
  /** Whether the merge kept every value the extractions proposed (src/domain/summary-check.ts). */
  keptProposals: boolean
}

export function runMerge(task: Omit<MergeTask, 'kind'>): MergeOutput {
  const merged = merge(task.state, task.extractions, task.now, {
    acceptedAt: task.acceptedAt,
    occurredAt: task.occurredAt,
    limits: task.limits,
  })
  return {
    merged,
    keptProposals: mergeKeptProposals(task.extractions, merged.state.content),
    ...derived(merged.state, merged.changes),
  }
}

/** What an edit (forget, rollback) or a re-extraction writes: the state and its changes, serialized, with its words. */
export interface EditOutput extends Derived {
  state: ProfileState
  changes: Changes
}

const edited = (state: ProfileState, changes: Changes): EditOutput => ({ state, changes, ...derived(state, changes) })

export interface ForgetTask {
  kind: 'forget'
  state: ProfileState
  target: ForgetTarget
  now: string
}

/** A forget (src/domain/forget.ts forgetValue); null when the profile holds no such value. */
export function runForget(task: Omit<ForgetTask, 'kind'>): EditOutput | null {
  const result = forgetValue(task.state, task.target, task.now)
  return result.found ? edited(result.state, result.changes) : null
}

export interface RollbackTask {
  kind: 'rollback'
  state: ProfileState
  snapshot: ProfileState
  toSeq: number
  now: string
  limits: ProfileLimits
}

/**
 * A rollback (src/domain/forget.ts restoreSnapshot), within today's limits: a snapshot taken under larger limits than
 * the profile has now is cut like a merge would cut it, and the entry says what went.
 */
export function runRollback(task: Omit<RollbackTask, 'kind'>): EditOutput {
  const restored = restoreSnapshot(task.state, task.snapshot, task.toSeq, task.now)
  const dropped = enforceLimits(restored.state, task.limits, keyMemo(), new DropLog()).result()
  return edited(restored.state, dropped ? { ...restored.changes, dropped } : restored.changes)
}

export interface ReextractTask {
  kind: 'reextract'
  before: ProfileState
  rebuilt: ProfileState
  now: string
}

/**
 * A re-extraction's outcome: what the rebuilt state changes against the profile, and that state as it would be written.
 */
export function runReextract(
  task: Omit<ReextractTask, 'kind'>,
): EditOutput & { changes: ReextractionChanges; changed: boolean } {
  const diff = reextractionDiff(task.before, task.rebuilt)
  const state = { ...task.rebuilt, field_timestamps: reextractedTimestamps(task.before, diff.paths, task.now) }
  return { ...edited(state, diff.changes), changes: diff.changes, changed: diff.changed }
}

export interface WordsTask {
  kind: 'words'
  profiles: { content: ProfileContent; summary: string | null }[]
}

/** What search reads of a profile written whole (an import): its lexemes and its embedded text, each profile's. */
export interface ProfileWords {
  lexemes: string
  text: string
}

export function runWords(task: Omit<WordsTask, 'kind'>): ProfileWords[] {
  return task.profiles.map((profile) => ({
    lexemes: profileLexemes(profile.content, profile.summary),
    text: profileText(profile.content, profile.summary ?? undefined),
  }))
}

/**
 * A profile as a context reads it: content, field_timestamps and internals.said_at as JSON text, parsed on the thread.
 */
export interface ContextSource {
  content: string
  timestamps: string
  /** Absent or '{}': no part has a said time (a profile last merged before they were kept). */
  said?: string
}

const contextInput = (src: ContextSource) => {
  const content = { ...emptyContent(), ...(JSON.parse(src.content) as Partial<ProfileContent>) }
  const said = src.said ? (JSON.parse(src.said) as Record<string, string> | null) : null
  return { content, facts: contextFacts(content, JSON.parse(src.timestamps) as Record<string, string>, said ?? {}) }
}

export interface ContextRankTask extends ContextSource {
  kind: 'context-rank'
  query: string
  /** How many of the most confident facts get a semantic score (the rest rank by words alone). */
  maxEmbedded: number
  /**
   * What the query's misspelt words may have meant (docs/guides/search.md, "Typos"): per word as written, the
   * dictionary's alternatives, each as words. Used for a word no fact says (factAlternatives).
   */
  meant?: [word: string, alternatives: string[][]][]
  /** The query asks only what the person likes (asksLikes): their interests match it whatever their words. */
  asksLikes?: boolean
}

export interface ContextRanking {
  /** How many facts the profile has. */
  count: number
  /** Share of the query's word stems in each fact, in [0, 1]. */
  lexical: Float64Array
  /** The facts to score by meaning: the most confident, ties in fact order, with the text to embed. */
  embed: { index: number; text: string }[]
}

/**
 * A profile's facts scored by the query's words, and which of them to score by meaning: numbers and a few texts back.
 */
export function rankContext(task: Omit<ContextRankTask, 'kind'>): ContextRanking {
  const { facts } = contextInput(task)
  const queryStems = stems(task.query)
  const factStems = facts.map((f) => stems(f.matchText))
  const alternatives = task.meant?.length ? factAlternatives(queryStems, factStems, task.meant) : undefined
  const lexical = Float64Array.from(factStems, (fact, i) =>
    task.asksLikes && facts[i]!.section === 'interests' ? 1 : lexicalScore(queryStems, fact, alternatives),
  )
  const embed = facts
    .map((f, i) => ({ c: f.confidence, i }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .slice(0, task.maxEmbedded)
    .map((x) => ({ index: x.i, text: facts[x.i]!.matchText }))
  return { count: facts.length, lexical, embed }
}

export interface PassageRankTask {
  kind: 'passage-rank'
  query: string
  /** The candidate passages' words (the question they answer, then their text). */
  texts: string[]
  /** What the person said in each (its text alone): one that only asks about the query ranks lower (onlyAsks). */
  said?: string[]
  /** How many passages the profile has: the collection BM25's word rarity is measured on. */
  total: number
}

/** BM25 scores of candidate passages for a query (docs/guides/evidence.md). */
export function rankPassages(task: Omit<PassageRankTask, 'kind'>): Float64Array {
  const scores = Float64Array.from(new Bm25(task.texts, 1.2, 0.75, { total: task.total }).scores(task.query))
  if (task.said) {
    const focus = stems(task.query)
    task.said.forEach((text, index) => {
      if (scores[index]! > 0 && onlyAsks(text, focus)) scores[index]! *= ASKED_WEIGHT
    })
  }
  return scores
}

export interface ContextComposeTask extends ContextSource {
  kind: 'context-compose'
  /** Evidence passages, best first (none: the facts alone). */
  passages?: ContextPassage[]
  /** How the passages are dated (default: by day). */
  passageDates?: PassageDates
  /** The query (passages are quoted by the sentences that say its words). */
  query?: string
  summary: string | null
  /** Relevance of each fact to the query (as rankContext counts them); absent without a query. */
  relevance?: Float64Array
  /** Leave the facts out (a context of passages only). */
  factsOff?: boolean
  /**
   * The label the passages' turns carry, when it reads as a name (the header says it when the profile has none); only
   * with passages.
   */
  label?: string
  maxTokens: number
}

/** The context text: the facts taken again from the content (cheaper here than copying them between threads). */
export async function composeTask(task: Omit<ContextComposeTask, 'kind'>): Promise<ComposedContext> {
  const { content, facts } = contextInput(task)
  const relevance = task.relevance ? Array.from(task.relevance) : undefined
  return composeContext({
    header: contextHeader(content, task.label),
    summary: task.summary,
    facts: task.factsOff ? [] : facts,
    relevance: task.factsOff ? undefined : relevance,
    ...(task.passages ? { passages: task.passages } : {}),
    ...(task.passageDates ? { passageDates: task.passageDates } : {}),
    ...(task.query ? { query: task.query } : {}),
    maxTokens: task.maxTokens,
    count: await tokenCounter(),
  })
}

/** Loads what a thread's first context would otherwise load (the tokenizer, stemmer and date parser). */
export interface WarmUpTask {
  kind: 'warm-up'
}

const WARM_UP_SOURCE: ContextSource = {
  content: JSON.stringify({
    core_info: { name: { value: 'Ana', confidence: 0.9 }, location: { value: 'Lisbon', confidence: 0.8 } },
    interests: { music: [{ value: 'jazz', confidence: 0.9 }], hobbies: [{ value: 'hiking', confidence: 0.8 }] },
  }),
  timestamps: '{}',
}
const WARM_UP_PASSAGES: ContextPassage[] = [
  { text: 'Yesterday I went hiking with my sister, and we talked about jazz.', prompt: 'Any plans?', at: '2025-05-02' },
  { text: 'Two weeks ago, on Monday the 3rd, I turned 34 and we flew to Rome at 5pm.', prompt: null, at: '2025-05-20' },
]

/**
 * A context of a small sample profile, ranked and composed: the same code paths a request's context takes. Twice: V8
 * runs a regular expression (chrono's date patterns, the tokenizer's) interpreted at first and compiles it to machine
 * code on a later run, which costs a first context with passages a few hundred milliseconds.
 */
export async function warmUp(): Promise<null> {
  const query = 'what music does she like on weekends'
  const texts = WARM_UP_PASSAGES.map((passage) => passage.text)
  for (let run = 0; run < 2; run++) {
    rankPassages({ query, texts, said: texts, total: texts.length })
    const ranking = rankContext({ ...WARM_UP_SOURCE, query, maxEmbedded: 4 })
    await composeTask({
      ...WARM_UP_SOURCE,
      passages: WARM_UP_PASSAGES,
      passageDates: passageDatesFor(query),
      query,
      summary: 'Ana lives in Lisbon and likes jazz.',
      relevance: ranking.lexical,
      maxTokens: 200,
    })
  }
  return null
}

export type CpuTask =
  | WarmUpTask
  | MergeTask
  | ForgetTask
  | RollbackTask
  | ReextractTask
  | WordsTask
  | ContextRankTask
  | ContextComposeTask
  | PassageRankTask
export type CpuResult =
  | MergeOutput
  | EditOutput
  | null
  | ProfileWords[]
  | ContextRanking
  | ComposedContext
  | Float64Array

export async function runTask(task: CpuTask): Promise<CpuResult> {
  switch (task.kind) {
    case 'warm-up':
      return warmUp()
    case 'merge':
      return runMerge(task)
    case 'forget':
      return runForget(task)
    case 'rollback':
      return runRollback(task)
    case 'reextract':
      return runReextract(task)
    case 'words':
      return runWords(task)
    case 'context-rank':
      return rankContext(task)
    case 'context-compose':
      return composeTask(task)
    case 'passage-rank':
      return rankPassages(task)
  }
}

// The CPU work that runs off the main thread (src/threads/cpu.ts): a worker batch's merge with everything derived from the
// merged state that grows with the profile, and the ranking and composition of a context. Pure functions of their input,
// so they run the same in a thread or inline.
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

export function runMerge(t: Omit<MergeTask, 'kind'>): MergeOutput {
  const merged = merge(t.state, t.extractions, t.now, {
    acceptedAt: t.acceptedAt,
    occurredAt: t.occurredAt,
    limits: t.limits,
  })
  return {
    merged,
    keptProposals: mergeKeptProposals(t.extractions, merged.state.content),
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
export function runForget(t: Omit<ForgetTask, 'kind'>): EditOutput | null {
  const r = forgetValue(t.state, t.target, t.now)
  return r.found ? edited(r.state, r.changes) : null
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
 * A rollback (src/domain/forget.ts restoreSnapshot), within today's limits: a snapshot taken under larger limits than the
 * profile has now is cut like a merge would cut it, and the entry says what went.
 */
export function runRollback(t: Omit<RollbackTask, 'kind'>): EditOutput {
  const r = restoreSnapshot(t.state, t.snapshot, t.toSeq, t.now)
  const dropped = enforceLimits(r.state, t.limits, keyMemo(), new DropLog()).result()
  return edited(r.state, dropped ? { ...r.changes, dropped } : r.changes)
}

export interface ReextractTask {
  kind: 'reextract'
  before: ProfileState
  rebuilt: ProfileState
  now: string
}

/** A re-extraction's outcome: what the rebuilt state changes against the profile, and that state as it would be written. */
export function runReextract(
  t: Omit<ReextractTask, 'kind'>,
): EditOutput & { changes: ReextractionChanges; changed: boolean } {
  const diff = reextractionDiff(t.before, t.rebuilt)
  const state = { ...t.rebuilt, field_timestamps: reextractedTimestamps(t.before, diff.paths, t.now) }
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

export function runWords(t: Omit<WordsTask, 'kind'>): ProfileWords[] {
  return t.profiles.map((p) => ({
    lexemes: profileLexemes(p.content, p.summary),
    text: profileText(p.content, p.summary ?? undefined),
  }))
}

/** A profile as a context reads it: content, field_timestamps and internals.said_at as JSON text, parsed on the thread. */
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
   * What the query's misspelt words may have meant (README "Typos"): per word as written, the dictionary's
   * alternatives, each as words. Used for a word no fact says (factAlternatives).
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

/** A profile's facts scored by the query's words, and which of them to score by meaning: numbers and a few texts back. */
export function rankContext(t: Omit<ContextRankTask, 'kind'>): ContextRanking {
  const { facts } = contextInput(t)
  const q = stems(t.query)
  const factStems = facts.map((f) => stems(f.matchText))
  const alternatives = t.meant?.length ? factAlternatives(q, factStems, t.meant) : undefined
  const lexical = Float64Array.from(factStems, (f, i) =>
    t.asksLikes && facts[i]!.section === 'interests' ? 1 : lexicalScore(q, f, alternatives),
  )
  const embed = facts
    .map((f, i) => ({ c: f.confidence, i }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .slice(0, t.maxEmbedded)
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

/** BM25 scores of candidate passages for a query (README "Evidence passages"). */
export function rankPassages(t: Omit<PassageRankTask, 'kind'>): Float64Array {
  const scores = Float64Array.from(new Bm25(t.texts, 1.2, 0.75, { total: t.total }).scores(t.query))
  if (t.said) {
    const focus = stems(t.query)
    t.said.forEach((text, i) => {
      if (scores[i]! > 0 && onlyAsks(text, focus)) scores[i]! *= ASKED_WEIGHT
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
  /** The label the passages' turns carry, when it reads as a name (the header says it when the profile has none); only with passages. */
  label?: string
  maxTokens: number
}

/** The context text: the facts taken again from the content (cheaper here than copying them between threads). */
export async function composeTask(t: Omit<ContextComposeTask, 'kind'>): Promise<ComposedContext> {
  const { content, facts } = contextInput(t)
  const relevance = t.relevance ? Array.from(t.relevance) : undefined
  return composeContext({
    header: contextHeader(content, t.label),
    summary: t.summary,
    facts: t.factsOff ? [] : facts,
    relevance: t.factsOff ? undefined : relevance,
    ...(t.passages ? { passages: t.passages } : {}),
    ...(t.passageDates ? { passageDates: t.passageDates } : {}),
    ...(t.query ? { query: t.query } : {}),
    maxTokens: t.maxTokens,
    count: await tokenCounter(),
  })
}

export type CpuTask =
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

export async function runTask(t: CpuTask): Promise<CpuResult> {
  switch (t.kind) {
    case 'merge':
      return runMerge(t)
    case 'forget':
      return runForget(t)
    case 'rollback':
      return runRollback(t)
    case 'reextract':
      return runReextract(t)
    case 'words':
      return runWords(t)
    case 'context-rank':
      return rankContext(t)
    case 'context-compose':
      return composeTask(t)
    case 'passage-rank':
      return rankPassages(t)
  }
}

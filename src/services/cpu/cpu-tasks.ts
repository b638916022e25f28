// The CPU work that runs off the main thread (src/threads/cpu.ts): a worker batch's merge with everything derived from the
// merged state that grows with the profile, and the ranking and composition of a context. Pure functions of their input,
// so they run the same in a thread or inline.
import { contentLines, profileText } from '../../ai/profile-text.js'
import { type ComposedContext, composeContext, type ContextFact, contextFacts, lexicalScore, stems, tokenCounter } from '../../ai/profile-context.js'
import { forgetValue, restoreSnapshot, type ForgetTarget } from '../../domain/forget.js'
import { contentLexemes, profileLexemes } from '../../domain/lexical.js'
import { keyMemo } from '../../domain/merge-rules.js'
import { reextractedTimestamps, reextractionDiff, type ReextractionChanges } from '../../domain/reextract.js'
import { merge, type MergeResult } from '../../domain/merge.js'
import { DropLog, enforceLimits, type ProfileLimits } from '../../domain/profile-limits.js'
import type { Changes, Extraction, ProfileContent, ProfileState } from '../../domain/profile.js'
import { stateJson, type StateJson } from '../../domain/state-json.js'

export type { StateJson } from '../../domain/state-json.js'

export interface MergeTask {
  kind: 'merge'
  state: ProfileState
  extractions: Extraction[]
  now: string
  acceptedAt: (string | undefined)[]
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
}

export function runMerge(t: Omit<MergeTask, 'kind'>): MergeOutput {
  const merged = merge(t.state, t.extractions, t.now, { acceptedAt: t.acceptedAt, limits: t.limits })
  return { merged, ...derived(merged.state, merged.changes) }
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
export function runReextract(t: Omit<ReextractTask, 'kind'>): EditOutput & { changes: ReextractionChanges; changed: boolean } {
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
  return t.profiles.map((p) => ({ lexemes: profileLexemes(p.content, p.summary), text: profileText(p.content, p.summary ?? undefined) }))
}

export interface ContextRankTask {
  kind: 'context-rank'
  content: ProfileContent
  timestamps: Record<string, string>
  query: string
  /** How many of the most confident facts get a semantic score (the rest rank by words alone). */
  maxEmbedded: number
}

export interface ContextRanking {
  facts: ContextFact[]
  /** Share of the query's word stems in each fact, in [0, 1]. */
  lexical: number[]
  /** Indexes of the facts to embed: the most confident, ties in fact order. */
  embed: number[]
}

/** A profile's facts, scored by the query's words, and which of them to score by meaning. */
export function rankContext(t: Omit<ContextRankTask, 'kind'>): ContextRanking {
  const facts = contextFacts(t.content, t.timestamps)
  const q = stems(t.query)
  const lexical = facts.map((f) => lexicalScore(q, stems(f.matchText)))
  const embed = facts
    .map((f, i) => ({ c: f.confidence, i }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .slice(0, t.maxEmbedded)
    .map((x) => x.i)
  return { facts, lexical, embed }
}

export interface ContextComposeTask {
  kind: 'context-compose'
  header: string
  summary: string | null
  /** The facts (a ranking's), or the content and timestamps to take them from. */
  facts?: ContextFact[]
  content?: ProfileContent
  timestamps?: Record<string, string>
  relevance?: number[]
  maxTokens: number
}

export async function composeTask(t: Omit<ContextComposeTask, 'kind'>): Promise<ComposedContext> {
  const facts = t.facts ?? contextFacts(t.content!, t.timestamps ?? {})
  return composeContext({ header: t.header, summary: t.summary, facts, relevance: t.relevance, maxTokens: t.maxTokens, count: await tokenCounter() })
}

export type CpuTask = MergeTask | ForgetTask | RollbackTask | ReextractTask | WordsTask | ContextRankTask | ContextComposeTask
export type CpuResult = MergeOutput | EditOutput | null | ProfileWords[] | ContextRanking | ComposedContext

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
  }
}

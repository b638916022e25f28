// The CPU work that runs off the main thread (src/threads/cpu.ts): a worker batch's merge with everything derived from the
// merged state that grows with the profile, and the ranking and composition of a context. Pure functions of their input,
// so they run the same in a thread or inline.
import { type ComposedContext, composeContext, type ContextFact, contextFacts, lexicalScore, stems, tokenCounter } from '../ai/profile-context.js'
import { contentLexemes } from '../domain/lexical.js'
import { merge, type MergeResult } from '../domain/merge.js'
import type { ProfileLimits } from '../domain/profile-limits.js'
import type { Extraction, ProfileContent, ProfileState } from '../domain/profile.js'

export interface MergeTask {
  kind: 'merge'
  state: ProfileState
  extractions: Extraction[]
  now: string
  acceptedAt: (string | undefined)[]
  limits: ProfileLimits
}

/** A state as the writers store it: its parts as JSON text, and the history snapshot built from them. */
export interface StateJson {
  content: string
  fieldTimestamps: string
  internals: string
  /** The update_log entry's changes (meaningful when the merge changed something). */
  changes: string
  /** src/domain/forget.ts snapshotOf(state), as JSON. */
  snapshot: string
}

export interface MergeOutput {
  merged: MergeResult
  json: StateJson
  /** The values' search lexemes (src/domain/lexical.ts contentLexemes): the summary's are added once it is written. */
  contentLexemes: string[]
}

/** The JSON a writer stores for a state, each part serialized once (the snapshot is made of the same parts). */
export function stateJson(state: ProfileState, changes: unknown): StateJson {
  const content = JSON.stringify(state.content)
  const fieldTimestamps = JSON.stringify(state.field_timestamps)
  const internals = JSON.stringify(state.internals)
  const language = state.language !== undefined ? `,"language":${JSON.stringify(state.language)}` : ''
  return {
    content,
    fieldTimestamps,
    internals,
    changes: JSON.stringify(changes),
    snapshot: `{"content":${content},"field_timestamps":${fieldTimestamps},"internals":${internals}${language}}`,
  }
}

export function runMerge(t: Omit<MergeTask, 'kind'>): MergeOutput {
  const merged = merge(t.state, t.extractions, t.now, { acceptedAt: t.acceptedAt, limits: t.limits })
  return { merged, json: stateJson(merged.state, merged.changes), contentLexemes: contentLexemes(merged.state.content) }
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

export type CpuTask = MergeTask | ContextRankTask | ContextComposeTask
export type CpuResult = MergeOutput | ContextRanking | ComposedContext

export async function runTask(t: CpuTask): Promise<CpuResult> {
  switch (t.kind) {
    case 'merge':
      return runMerge(t)
    case 'context-rank':
      return rankContext(t)
    case 'context-compose':
      return composeTask(t)
  }
}

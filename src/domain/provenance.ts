// Provenance (docs/guides/evidence.md): which of a profile's evidence passages support one of its values. Pure:
// the stored extractions, the words' stems and the candidate passages come in; which passages support the value, and
// how each was matched, go out. The SQL that feeds it is src/db/provenance.repository.ts; the service that runs it,
// src/services/provenance.service.ts (the evidence API and forget both use it, so they agree on what "states" a value).
import { z } from 'zod'
import { cleanText } from './merge-rules.js'
import { FORGET_SECTION_JSON_SCHEMA, isForgetSection, proposesValue, valueKey, type ForgetTarget } from './forget.js'
import { FORGET_SECTIONS, type Extraction } from './profile.js'
import { invalid } from './errors.js'
import { categoryKey } from './normalise.js'
import { parseRequest } from './requests.js'
import { checkStorable } from './validation.js'
import { MAX_LEXEME, writtenWords } from './lexical.js'

/** The applied submissions (newest first) whose stored extraction is read to find the ones that proposed a value. */
export const EVIDENCE_MAX_SUBMISSIONS = 200
/**
 * Candidate passages a lookup reads in one statement per kind (the proposing submissions', the others'); past this it
 * reads the profile's passages window by window instead.
 */
export const EVIDENCE_CANDIDATES = 1000
/** Passages an evidence answer holds by default, and at most. */
export const EVIDENCE_DEFAULT_LIMIT = 10
export const EVIDENCE_MAX_LIMIT = 50
/** At most this many of a value's words, and of a quote's, are matched. */
export const EVIDENCE_MAX_WORDS = 32
/** A passage of a proposing submission quotes the model's evidence when it holds this share of the quote's words. */
export const QUOTE_SHARE = 0.8
/** A passage of a proposing submission states the value when it holds at least this share of the value's words. */
export const PROPOSED_SHARE = 0.5

/** How a passage was found to support a value, best first. */
export type EvidenceMatch = 'quote' | 'extraction' | 'words'
const MATCH_ORDER: Record<EvidenceMatch, number> = { quote: 0, extraction: 1, words: 2 }

export interface EvidenceParams extends ForgetTarget {
  limit: number
}

const FIELD_MESSAGE =
  `Invalid parameter field: must be one of ${FORGET_SECTIONS.join(', ')}, ` +
  'or custom.<section>.<field> of a custom schema'
const limitMessage = `Invalid parameter limit: must be an integer from 1 to ${EVIDENCE_MAX_LIMIT}`

/** What an evidence lookup takes (REST query parameters, GraphQL arguments): a value named as a forget names it. */
export function evidenceParamsSchema() {
  return z.object({
    field: z
      .string({ error: (iss) => (iss.input == null ? 'Missing parameter: field' : FIELD_MESSAGE) })
      .refine((v) => isForgetSection(v), { error: FIELD_MESSAGE })
      .meta(FORGET_SECTION_JSON_SCHEMA)
      .describe(
        `The value's section, as the forget endpoint names it: ${FORGET_SECTIONS.join(', ')}, ` +
          'or custom.<section>.<field>',
      ),
    value: z
      .string({
        error: (iss) => (iss.input == null ? 'Missing parameter: value' : 'Invalid parameter value: must be a string'),
      })
      .refine((v) => cleanText(v) !== undefined, { error: 'Invalid parameter value: must not be empty' })
      .max(1000, { error: 'Invalid parameter value: longer than 1000 characters' })
      .describe('The value (for memories, the event); compared as the merge compares values'),
    category: z
      .string({ error: 'Invalid parameter category: must be a string' })
      .max(200, { error: 'Invalid parameter category: longer than 200 characters' })
      .nullish()
      .describe('interests only: the category (any category when omitted)'),
    limit: z.coerce
      .number({ error: limitMessage })
      .int({ error: limitMessage })
      .min(1, { error: limitMessage })
      .max(EVIDENCE_MAX_LIMIT, { error: limitMessage })
      .default(EVIDENCE_DEFAULT_LIMIT)
      .describe(`How many passages at most (1-${EVIDENCE_MAX_LIMIT}, default ${EVIDENCE_DEFAULT_LIMIT})`),
  })
}

export function parseEvidenceParams(input: unknown): EvidenceParams {
  const parsed = parseRequest(evidenceParamsSchema(), input)
  checkStorable(parsed.value, 'parameter value')
  checkStorable(parsed.category ?? undefined, 'parameter category')
  if (parsed.category != null && parsed.field !== 'interests')
    throw invalid('Invalid parameter category: only for field interests')
  return {
    section: parsed.field as ForgetTarget['section'],
    value: parsed.value,
    limit: parsed.limit,
    ...(parsed.category != null ? { category: parsed.category } : {}),
  }
}

/** What the worker stored for an applied submission (src/services/worker/extract.ts `provenance`). */
export interface StoredProvenance {
  extraction?: Extraction
  /** openai: the words the model quoted for each value (src/ai/openai/output.ts evidenceOf). */
  evidence?: Record<string, string>
  structured?: boolean
}

/** A stored `extraction` column as provenance; an older row may hold the bare extraction. */
export function storedProvenance(stored: unknown): StoredProvenance {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {}
  const record = stored as Record<string, unknown>
  if (record.structured === true) return { structured: true }
  if ('extraction' in record || 'evidence' in record) {
    const ex =
      record.extraction && typeof record.extraction === 'object' ? (record.extraction as Extraction) : undefined
    const ev =
      record.evidence && typeof record.evidence === 'object' && !Array.isArray(record.evidence)
        ? (record.evidence as Record<string, string>)
        : undefined
    return { ...(ex ? { extraction: ex } : {}), ...(ev ? { evidence: ev } : {}) }
  }
  return { extraction: record as Extraction }
}

/** Keys of the quote record (evidenceOf) under which a list entry's quote is kept, by section. */
const LIST_PREFIX: Partial<Record<string, string>> = {
  'personality.traits': 'personality.traits.',
  'preferences.topics_to_avoid': 'preferences.topics_to_avoid.',
  memories: 'memories.',
}

/** The words a model quoted for the target's value in one submission, when it kept any. */
export function quoteFor(provenance: StoredProvenance, target: ForgetTarget): string | undefined {
  const ev = provenance.evidence
  if (!ev) return undefined
  const key = valueKey(target.section, target.value)
  const quote = (k: string) => (typeof ev[k] === 'string' && ev[k]!.trim() ? ev[k]!.trim() : undefined)
  if (target.section === 'interests') {
    for (const k of Object.keys(ev)) {
      if (!k.startsWith('interests.')) continue
      const rest = k.slice('interests.'.length)
      const dot = rest.indexOf('.')
      if (dot < 0) continue
      if (target.category !== undefined && categoryKey(rest.slice(0, dot)) !== categoryKey(target.category)) continue
      if (valueKey('interests', rest.slice(dot + 1)) === key) return quote(k)
    }
    return undefined
  }
  const prefix = LIST_PREFIX[target.section]
  if (prefix) {
    for (const k of Object.keys(ev))
      if (k.startsWith(prefix) && valueKey(target.section, k.slice(prefix.length)) === key) return quote(k)
    return undefined
  }
  if (target.section.startsWith('custom.')) {
    // Kept per field, from its first value: the quote of a list field may be another entry's.
    const [, sec, field] = target.section.split('.') as [string, string, string]
    const cur = (provenance.extraction?.custom as Record<string, Record<string, unknown>> | undefined)?.[sec]?.[field]
    return Array.isArray(cur) ? undefined : quote(target.section)
  }
  return quote(target.section)
}

/** Whether the submission's stored extraction proposed the value, and the quote it kept for it. */
export function proposalOf(stored: unknown, target: ForgetTarget): { proposed: boolean; quote?: string } {
  const provenance = storedProvenance(stored)
  if (!provenance.extraction || !proposesValue(provenance.extraction, target)) return { proposed: false }
  const quote = quoteFor(provenance, target)
  return { proposed: true, ...(quote ? { quote } : {}) }
}

/**
 * The words of a text as the passages' `simple` index holds them (lowercase letters and digits), distinct, in order.
 */
export function textWords(text: string, max = EVIDENCE_MAX_WORDS): string[] {
  const words = writtenWords(text).filter((w) => w.length <= MAX_LEXEME)
  return [...new Set(words)].slice(0, max)
}

/**
 * A value's words as groups of lexemes, one group per word (its stems in the profile's language and the word itself):
 * a passage holds a word when it holds any lexeme of its group. Stop words (no stem) count only when the value has
 * nothing else ("The Who").
 */
export function wordGroups(words: string[], stems: string[][]): string[][] {
  const groups = words.map((w, i) => ({
    lexemes: [...new Set([...(stems[i] ?? []), w])],
    content: (stems[i]?.length ?? 0) > 0,
  }))
  const content = groups.filter((g) => g.content)
  return (content.length ? content : groups).map((g) => g.lexemes)
}

/** The share of `groups` a passage's lexemes cover (0 when there are no groups). */
export function share(lexemes: ReadonlySet<string>, groups: string[][]): number {
  if (!groups.length) return 0
  return groups.filter((g) => g.some((l) => lexemes.has(l))).length / groups.length
}

/** A passage as the lookup reads it: where it is, its words that the lookup asked about, and its full-text rank. */
export interface CandidatePassage {
  submission_id: string
  position: number
  occurred_at: string
  /** The lexemes of the passage among those looked for. */
  hits: string[]
  rank: number
  /** Already hidden by the forget that reads it (a forget taken up again): found, not hidden twice. */
  hidden?: boolean
}

export interface Supported<P extends CandidatePassage> {
  passage: P
  match: EvidenceMatch
  /** The share of the value's words (or, for a quote, of the quote's) it holds. */
  share: number
}

/** What a lookup knows before it reads passages: the submissions that proposed the value, and the words looked for. */
export interface SupportRules {
  /** The submissions whose stored extraction proposed the value, with the quote each kept. */
  proposed: ReadonlyMap<string, { quote?: string }>
  /** Every submission whose stored extraction was read (proposing or not). */
  known: ReadonlySet<string>
  valueGroups: string[][]
  /** The quote words of each proposing submission that kept a quote. */
  quoteGroups: ReadonlyMap<string, string[][]>
}

/**
 * One page of candidate passages sorted by how they support the value (any page, in any order: a lookup reads the
 * candidates page by page). `supported`: those that support it whatever else is found; `fallback`: those that support
 * it only when no page has anything `supported` (a submission whose extraction is known and did not propose the value,
 * holding every word). A passage supports the value when
 * - its submission proposed it and it holds QUOTE_SHARE of the quote's words (`quote`) or PROPOSED_SHARE of the
 * value's words (`extraction`);
 * - its submission's extraction is unknown (not among those read: older, dropped, imported) and it holds every word
 * of the value (`words`);
 * - when neither finds one (the extractions do not say where it was said), any passage that holds every word (`words`).
 */
export function siftSupport<P extends CandidatePassage>(
  page: readonly P[],
  rules: SupportRules,
): { supported: Supported<P>[]; fallback: Supported<P>[] } {
  const supported: Supported<P>[] = []
  const fallback: Supported<P>[] = []
  for (const p of page) {
    const lexemes = new Set(p.hits)
    if (rules.proposed.has(p.submission_id)) {
      const quote = rules.quoteGroups.get(p.submission_id)
      const quoteShare = quote ? share(lexemes, quote) : 0
      const valueShare = share(lexemes, rules.valueGroups)
      if (quote && quoteShare >= QUOTE_SHARE) supported.push({ passage: p, match: 'quote', share: quoteShare })
      else if (valueShare >= PROPOSED_SHARE) supported.push({ passage: p, match: 'extraction', share: valueShare })
    } else if (share(lexemes, rules.valueGroups) === 1) {
      const words = { passage: p, match: 'words' as const, share: 1 }
      if (rules.known.has(p.submission_id)) fallback.push(words)
      else supported.push(words)
    }
  }
  return { supported, fallback }
}

/** Best first: `quote`, `extraction`, `words`; then the share held, the rank, the newest said, the place. */
export function bySupport<P extends CandidatePassage>(left: Supported<P>, right: Supported<P>): number {
  return (
    MATCH_ORDER[left.match] - MATCH_ORDER[right.match] ||
    right.share - left.share ||
    right.passage.rank - left.passage.rank ||
    right.passage.occurred_at.localeCompare(left.passage.occurred_at) ||
    left.passage.submission_id.localeCompare(right.passage.submission_id) ||
    left.passage.position - right.passage.position
  )
}

/** The `limit` best of `kept` (as this returned it) and `more`: a lookup's answer, however many pages it reads. */
export function keepBest<P extends CandidatePassage>(kept: Supported<P>[], more: Supported<P>[], limit: number) {
  if (!more.length) return kept
  return [...kept, ...more].sort(bySupport).slice(0, limit)
}

/**
 * The passages that support a value, best first (siftSupport says which), read from two lists of candidates: the
 * passages of the proposing submissions that hold any word looked for, and the others that hold every word of the
 * value.
 */
export function supportingPassages<P extends CandidatePassage>(input: SupportRules & { ofProposed: P[]; others: P[] }) {
  const ofProposed = input.ofProposed.filter((p) => input.proposed.has(p.submission_id))
  const others = input.others.filter((p) => !input.proposed.has(p.submission_id))
  const { supported, fallback } = siftSupport([...ofProposed, ...others], input)
  return (supported.length ? supported : fallback).sort(bySupport)
}

import { capJsonDepth } from '../domain/deep-json.js'
import type { HistoryEntry, ProfileRecord } from '../db/profile.repository.js'
import type { ProfileContext } from '../services/profile-context.service.js'
import type { PassagePage } from '../services/passage.service.js'
import type { ReextractionResult } from '../services/reextraction.service.js'
import type { SchemaView } from '../services/app-schema.service.js'
import type { SearchProfile } from '../services/search.service.js'
import type { Evidence, SubmissionEvidenceDeletion } from '../services/provenance.service.js'

/** The interface's Profile (snake_case), plus `language` and `core_info.occupation`. */
export function toRestProfile(p: ProfileRecord) {
  const c = p.content
  return {
    profile_id: p.profile_id,
    tenant_id: p.tenant_id,
    status: p.status,
    core_info: c.core_info,
    interests: c.interests,
    personality: c.personality,
    memories: c.memories,
    preferences: c.preferences,
    ...(c.custom && Object.keys(c.custom).length ? { custom: c.custom } : {}),
    ...(c.past_values && Object.keys(c.past_values).length ? { past_values: c.past_values } : {}),
    ...(p.language ? { language: p.language } : {}),
    field_timestamps: p.field_timestamps,
    update_log: (p.update_log ?? []).map(toRestLogEntry),
    last_updated: p.last_updated,
    created_at: p.created_at,
    ...(p.summary ? { summary: p.summary } : {}),
  }
}

/** An entry of GET /v1/search: the profile, plus its score when a query ranked the page. */
export function toRestSearchEntry(p: SearchProfile) {
  return { ...toRestProfile(p), ...(p.similarityScore !== undefined ? { similarityScore: p.similarityScore } : {}) }
}

/**
 * GET /v1/search's answer as text, as `entries` (each a serialized toRestSearchEntry) come: byte for byte the document
 * JSON.stringify makes of `{profiles, total, page, pageSize}` built whole.
 */
export async function* searchDocument(
  entries: AsyncIterable<string>,
  page: { total: number; totalIsEstimate: boolean; page: number; pageSize: number },
): AsyncGenerator<string> {
  let first = true
  yield '{"profiles":['
  for await (const e of entries) {
    yield first ? e : `,${e}`
    first = false
    // A turn of the event loop between profiles (the stream would otherwise go on in microtasks).
    await new Promise<void>((r) => setImmediate(r))
  }
  yield `],"total":${JSON.stringify(page.total)},${page.totalIsEstimate ? '"totalIsEstimate":true,' : ''}"page":${JSON.stringify(page.page)},"pageSize":${JSON.stringify(page.pageSize)}}`
}

/** An entry as REST answers it: `changes` nested deeper than any merge writes (a direct write) comes as JSON text there. */
export function toRestLogEntry(e: HistoryEntry) {
  return {
    extracted_on: e.extracted_on,
    changes: capJsonDepth(e.changes),
    submission_ids: e.submission_ids,
    input_type: e.input_type,
    seq: e.seq,
  }
}

export function toRestContext(c: ProfileContext) {
  return {
    profile_id: c.profileId,
    status: c.status,
    text: c.text,
    tokens: c.tokens,
    max_tokens: c.maxTokens,
    encoding: c.encoding,
    facts_included: c.factsIncluded,
    facts_total: c.factsTotal,
    passages_included: c.passagesIncluded,
    include: c.include,
    summary_included: c.summaryIncluded,
    truncated: c.truncated,
    ranked_by: c.rankedBy,
  }
}

/** Why a profile says a value (README "Provenance"). */
export function toRestEvidence(e: Evidence) {
  return {
    profile_id: e.profileId,
    field: e.field,
    value: e.value,
    ...(e.category !== null ? { category: e.category } : {}),
    passages: e.passages.map((p) => ({
      submission_id: p.submission_id,
      position: p.position,
      speaker: p.speaker,
      prompt: p.prompt,
      text: p.text,
      occurred_at: p.occurred_at,
      match: p.match,
    })),
    sources: e.sources.map((s) => ({ submission_id: s.submissionId, occurred_at: s.occurredAt, quote: s.quote })),
    extractions_read: e.extractionsRead,
  }
}

export function toRestSubmissionEvidenceDeletion(d: SubmissionEvidenceDeletion) {
  return {
    profile_id: d.profileId,
    submission_id: d.submissionId,
    passages_deleted: d.passagesDeleted,
    text_deleted: d.textDeleted,
  }
}

export function toRestReextraction(r: ReextractionResult) {
  return {
    profile_id: r.profileId,
    dry_run: r.dryRun,
    applied: r.applied,
    version: r.version,
    ...(r.newVersion !== undefined ? { new_version: r.newVersion } : {}),
    changed: r.changed,
    changes: r.changes,
    summary: r.summary,
    previous_summary: r.previousSummary,
    submissions: {
      reextracted: r.submissions.reextracted,
      skipped_without_text: r.submissions.skippedWithoutText,
      skipped_too_large: r.submissions.skippedTooLarge,
    },
    batches: r.batches,
    ...(r.usage
      ? {
          usage: {
            prompt_tokens: r.usage.promptTokens,
            completion_tokens: r.usage.completionTokens,
            total_tokens: r.usage.totalTokens,
          },
        }
      : {}),
  }
}

export function toRestSchema(s: SchemaView) {
  return { app_id: s.appId, version: s.version, schema: s.schema, created_at: s.createdAt }
}

/** GET /v1/profile/{id}/passages: hidden_at and hidden_by only when hidden passages were asked for. */
export function toRestPassagePage(profileId: string, page: PassagePage, includeHidden: boolean) {
  return {
    profile_id: profileId,
    passages: page.passages.map((p) => ({
      submission_id: p.submission_id,
      position: p.position,
      speaker: p.speaker,
      prompt: p.prompt,
      text: p.text,
      occurred_at: p.occurred_at,
      ...(includeHidden ? { hidden_at: p.hidden_at, hidden_by: p.hidden_by } : {}),
    })),
    next_cursor: page.nextCursor,
    has_more: page.nextCursor !== null,
  }
}

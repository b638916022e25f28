import { capJsonDepth } from '../domain/deep-json.js'
import type { HistoryEntry, ProfileRecord } from '../db/profile.repository.js'
import type { ProfileContext } from '../services/profile-context.service.js'
import type { PassagePage } from '../services/passage.service.js'
import type { ReextractionResult } from '../services/reextraction.service.js'
import type { SchemaView } from '../services/app-schema.service.js'
import type { SearchProfile } from '../services/search.service.js'
import type { Evidence, SubmissionEvidenceDeletion } from '../services/provenance.service.js'

/** The interface's Profile (snake_case), plus `language` and `core_info.occupation`. */
export function toRestProfile(profile: ProfileRecord) {
  const content = profile.content
  return {
    profile_id: profile.profile_id,
    tenant_id: profile.tenant_id,
    status: profile.status,
    core_info: content.core_info,
    interests: content.interests,
    personality: content.personality,
    memories: content.memories,
    preferences: content.preferences,
    ...(content.custom && Object.keys(content.custom).length ? { custom: content.custom } : {}),
    ...(content.past_values && Object.keys(content.past_values).length ? { past_values: content.past_values } : {}),
    ...(profile.language ? { language: profile.language } : {}),
    field_timestamps: profile.field_timestamps,
    update_log: (profile.update_log ?? []).map(toRestLogEntry),
    last_updated: profile.last_updated,
    created_at: profile.created_at,
    ...(profile.summary ? { summary: profile.summary } : {}),
  }
}

/** An entry of GET /v1/search: the profile, plus its score when a query ranked the page. */
export function toRestSearchEntry(profile: SearchProfile) {
  return {
    ...toRestProfile(profile),
    ...(profile.similarityScore !== undefined ? { similarityScore: profile.similarityScore } : {}),
  }
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
  yield `],"total":${JSON.stringify(page.total)},${page.totalIsEstimate ? '"totalIsEstimate":true,' : ''}` +
    `"page":${JSON.stringify(page.page)},"pageSize":${JSON.stringify(page.pageSize)}}`
}

/**
 * An entry as REST answers it: `changes` nested deeper than any merge writes (a direct write) comes as JSON text there.
 */
export function toRestLogEntry(entry: HistoryEntry) {
  return {
    extracted_on: entry.extracted_on,
    changes: capJsonDepth(entry.changes),
    submission_ids: entry.submission_ids,
    input_type: entry.input_type,
    seq: entry.seq,
  }
}

export function toRestContext(context: ProfileContext) {
  return {
    profile_id: context.profileId,
    status: context.status,
    text: context.text,
    tokens: context.tokens,
    max_tokens: context.maxTokens,
    encoding: context.encoding,
    facts_included: context.factsIncluded,
    facts_total: context.factsTotal,
    passages_included: context.passagesIncluded,
    include: context.include,
    summary_included: context.summaryIncluded,
    truncated: context.truncated,
    ranked_by: context.rankedBy,
  }
}

/** Why a profile says a value (docs/guides/evidence.md). */
export function toRestEvidence(evidence: Evidence) {
  return {
    profile_id: evidence.profileId,
    field: evidence.field,
    value: evidence.value,
    ...(evidence.category !== null ? { category: evidence.category } : {}),
    passages: evidence.passages.map((p) => ({
      submission_id: p.submission_id,
      position: p.position,
      speaker: p.speaker,
      prompt: p.prompt,
      text: p.text,
      occurred_at: p.occurred_at,
      match: p.match,
    })),
    sources: evidence.sources.map((s) => ({
      submission_id: s.submissionId,
      occurred_at: s.occurredAt,
      quote: s.quote,
    })),
    extractions_read: evidence.extractionsRead,
  }
}

export function toRestSubmissionEvidenceDeletion(deletion: SubmissionEvidenceDeletion) {
  return {
    profile_id: deletion.profileId,
    submission_id: deletion.submissionId,
    passages_deleted: deletion.passagesDeleted,
    text_deleted: deletion.textDeleted,
  }
}

export function toRestReextraction(result: ReextractionResult) {
  return {
    profile_id: result.profileId,
    dry_run: result.dryRun,
    applied: result.applied,
    version: result.version,
    ...(result.newVersion !== undefined ? { new_version: result.newVersion } : {}),
    changed: result.changed,
    changes: result.changes,
    summary: result.summary,
    previous_summary: result.previousSummary,
    submissions: {
      reextracted: result.submissions.reextracted,
      skipped_without_text: result.submissions.skippedWithoutText,
      skipped_too_large: result.submissions.skippedTooLarge,
    },
    batches: result.batches,
    ...(result.usage
      ? {
          usage: {
            prompt_tokens: result.usage.promptTokens,
            completion_tokens: result.usage.completionTokens,
            total_tokens: result.usage.totalTokens,
          },
        }
      : {}),
  }
}

export function toRestSchema(schema: SchemaView) {
  return { app_id: schema.appId, version: schema.version, schema: schema.schema, created_at: schema.createdAt }
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

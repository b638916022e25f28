import type { HistoryEntry, ProfileRecord } from '../db/profile.repository.js'
import { capJsonDepth } from '../domain/deep-json.js'
import { SCALAR_PATHS } from '../domain/profile.js'
import type { Submission as SubmissionRecord } from '../services/submission.service.js'
import type { InputTypeEnum, ProfileStatusEnum, SubmissionStatusEnum } from './types/enums.js'
import type { Profile, Submission, UpdateLogEntry } from './types/profile.type.js'

/** Storage -> GraphQL (camelCase); the REST serializer keeps the interface's snake_case. */
export function toGqlProfile(p: ProfileRecord): Profile {
  const c = p.content
  return {
    profileId: p.profile_id,
    tenantId: p.tenant_id,
    status: p.status as ProfileStatusEnum,
    coreInfo: c.core_info,
    interests: Object.entries(c.interests).map(([category, values]) => ({ category, values })),
    personality: { traits: c.personality.traits, moodTrends: c.personality.mood_trends ?? {} },
    memories: c.memories,
    preferences: { conversationStyle: c.preferences.conversation_style, topicsToAvoid: c.preferences.topics_to_avoid },
    custom: c.custom ?? {},
    pastValues: SCALAR_PATHS.filter((path) => c.past_values?.[path]?.length).map((field) => ({
      field,
      values: c.past_values![field]!.map((v) => ({
        value: String(v.value),
        confidence: v.confidence,
        from: v.from,
        until: v.until,
        lastSaid: v.last_said,
      })),
    })),
    language: p.language ?? undefined,
    fieldTimestamps: Object.entries(p.field_timestamps).map(([field, at]) => ({ field, at })),
    summary: p.summary ?? undefined,
    lastUpdated: p.last_updated,
    createdAt: p.created_at,
  }
}

/** `changes` as stored, but what is nested deeper than SERVED_JSON_DEPTH comes as JSON text (stored history may be any depth). */
export function toGqlLogEntry(e: HistoryEntry): UpdateLogEntry {
  const changes = capJsonDepth(e.changes) as Record<string, unknown>
  return { seq: e.seq, extractedOn: e.extracted_on, changes, submissionIds: e.submission_ids, inputType: e.input_type }
}

export function toGqlSubmission(s: SubmissionRecord): Submission {
  return {
    id: s.id,
    profileId: s.profile_id,
    inputType: s.input_type as InputTypeEnum,
    status: s.status as SubmissionStatusEnum,
    attempts: s.attempts,
    error: s.error,
    createdAt: s.created_at,
    occurredAt: s.occurred_at,
    startedAt: s.started_at,
    finishedAt: s.finished_at,
    usage: s.usage,
    promptVersion: s.prompt_version,
    hasText: s.has_text,
    seq: s.seq,
  }
}

/** Opaque cursors over a sequence number. */
export const encodeCursor = (seq: number) => Buffer.from(`seq:${seq}`).toString('base64url')
export function decodeCursor(cursor: string | undefined | null): number {
  if (!cursor) return 0
  const m = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!m) throw new Error('bad cursor')
  return Number(m[1])
}

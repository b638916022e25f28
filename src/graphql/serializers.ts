import type { HistoryEntry, ProfileRecord } from '../db/profile.repository.js'
import { capJsonDepth } from '../domain/deep-json.js'
import { SCALAR_PATHS } from '../domain/profile.js'
import type { Submission as SubmissionRecord } from '../services/submission.service.js'
import type { InputTypeEnum, ProfileStatusEnum, SubmissionStatusEnum } from './types/enums.js'
import type { Profile, Submission, UpdateLogEntry } from './types/profile.type.js'

/** Storage -> GraphQL (camelCase); the REST serializer keeps the interface's snake_case. */
export function toGqlProfile(profile: ProfileRecord): Profile {
  const content = profile.content
  return {
    profileId: profile.profile_id,
    tenantId: profile.tenant_id,
    status: profile.status as ProfileStatusEnum,
    coreInfo: content.core_info,
    interests: Object.entries(content.interests).map(([category, values]) => ({ category, values })),
    personality: { traits: content.personality.traits, moodTrends: content.personality.mood_trends ?? {} },
    memories: content.memories,
    preferences: {
      conversationStyle: content.preferences.conversation_style,
      topicsToAvoid: content.preferences.topics_to_avoid,
    },
    custom: content.custom ?? {},
    pastValues: SCALAR_PATHS.filter((path) => content.past_values?.[path]?.length).map((field) => ({
      field,
      values: content.past_values![field]!.map((v) => ({
        value: String(v.value),
        confidence: v.confidence,
        from: v.from,
        until: v.until,
        lastSaid: v.last_said,
      })),
    })),
    language: profile.language ?? undefined,
    fieldTimestamps: Object.entries(profile.field_timestamps).map(([field, at]) => ({ field, at })),
    summary: profile.summary ?? undefined,
    lastUpdated: profile.last_updated,
    createdAt: profile.created_at,
  }
}

/**
 * `changes` as stored, but what is nested deeper than SERVED_JSON_DEPTH comes as JSON text (stored history may be any
 * depth).
 */
export function toGqlLogEntry(entry: HistoryEntry): UpdateLogEntry {
  const changes = capJsonDepth(entry.changes) as Record<string, unknown>
  return {
    seq: entry.seq,
    extractedOn: entry.extracted_on,
    changes,
    submissionIds: entry.submission_ids,
    inputType: entry.input_type,
  }
}

export function toGqlSubmission(submission: SubmissionRecord): Submission {
  return {
    id: submission.id,
    profileId: submission.profile_id,
    inputType: submission.input_type as InputTypeEnum,
    status: submission.status as SubmissionStatusEnum,
    attempts: submission.attempts,
    error: submission.error,
    createdAt: submission.created_at,
    occurredAt: submission.occurred_at,
    startedAt: submission.started_at,
    finishedAt: submission.finished_at,
    usage: submission.usage,
    promptVersion: submission.prompt_version,
    hasText: submission.has_text,
    seq: submission.seq,
  }
}

/** Opaque cursors over a sequence number. */
export const encodeCursor = (seq: number) => Buffer.from(`seq:${seq}`).toString('base64url')
export function decodeCursor(cursor: string | undefined | null): number {
  if (!cursor) return 0
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match) throw new Error('bad cursor')
  return Number(match[1])
}

import { z } from 'zod'
import { isCustomName } from './custom-schema.js'
import { INPUT_TYPES } from './profile.js'
import { SUBMISSION_STATES } from './submission.js'
import { checkStorableJson, PROFILE_ID_RE } from './validation.js'

// The export file (README "Export and import"): JSON Lines, one record a line. A header first, then for each profile
// its `profile` record followed by its `history` and `submission` records, and an `end` record with the counts, so
// that a file cut short is detected. Version 1.

export const EXPORT_FORMAT = 'profiler-export'
export const EXPORT_VERSION = 1

const iso = z.iso.datetime({ offset: true })
const profileId = z.string().regex(PROFILE_ID_RE, 'must be 1-200 characters of letters, digits and . _ : @ + -')
const obj = z.record(z.string(), z.unknown())
const confidence = z.number().min(0).max(1)
const scored = z.object({ value: z.string(), confidence })
const scoredInt = z.object({ value: z.number().int(), confidence })
const customName = z.string().refine(isCustomName, 'not a custom section or field name')
const customScored = z.object({ value: z.union([z.string(), z.number(), z.boolean()]), confidence })
/** Profile content exactly as stored (what the merge goes on from), not the looser `structured` input. */
const content = {
  core_info: z.object({ name: scored.optional(), age: scoredInt.optional(), gender: scored.optional(), location: scored.optional(), occupation: scored.optional() }),
  interests: z.record(z.string(), z.array(scored)),
  personality: z.object({ traits: z.array(scored), mood_trends: z.object({ default: scored.optional(), recent: scored.optional() }) }),
  memories: z.array(
    z.object({ event: z.string(), date: z.string().optional(), importance: z.enum(['low', 'medium', 'high']).optional(), confidence: confidence.optional() }),
  ),
  preferences: z.object({ conversation_style: scored.optional(), topics_to_avoid: z.array(scored) }),
  /** Custom schema values (section -> field -> scored value or list), when the profile has any. */
  custom: z.record(customName, z.record(customName, z.union([customScored, z.array(customScored)]))).optional(),
}
const count = z.number().int().min(0)

export const headerRecord = z.object({
  type: z.literal('header'),
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  tenant: z.object({ id: z.string(), name: z.string() }),
  exported_at: iso,
  /** The one profile exported, or null for the whole tenant. */
  profile_id: profileId.nullable(),
  include_text: z.boolean(),
  /** How many profiles the export expected to write (a progress total; `end` has what it wrote). */
  profiles: count,
})

export const profileRecord = z.object({
  type: z.literal('profile'),
  profile_id: profileId,
  status: z.enum(['processing', 'ready']),
  created_at: iso,
  last_updated: iso,
  summary: z.string().nullable(),
  language: z.string().max(16).nullable(),
  ...content,
  field_timestamps: z.record(z.string(), z.string()),
  /** What the merge keeps beside the content (how often each value was seen): needed to go on merging after a restore. */
  internals: z.object({ mood_counts: z.record(z.string(), z.number()), seen: z.record(z.string(), z.number()) }),
  history_seq: count,
})

export const historyRecord = z.object({
  type: z.literal('history'),
  profile_id: profileId,
  seq: z.number().int().min(1),
  extracted_on: iso,
  changes: obj,
  submission_ids: z.array(z.string()),
  input_type: z.string().min(1).max(32),
})

export const submissionRecord = z.object({
  type: z.literal('submission'),
  profile_id: profileId,
  id: z.uuid(),
  seq: z.number().int(),
  app_id: z.string().nullable(),
  input_type: z.enum(INPUT_TYPES),
  status: z.enum(SUBMISSION_STATES),
  attempts: count,
  error: z.string().nullable(),
  created_at: iso,
  started_at: iso.nullable(),
  finished_at: iso.nullable(),
  usage: z.object({ promptTokens: count, completionTokens: count, totalTokens: count }).nullable(),
  prompt_version: z.string().nullable(),
  /** Only with include_text; null when the text was dropped by retention. */
  text: z.string().nullable().optional(),
})

export const endRecord = z.object({ type: z.literal('end'), profiles: count, history: count, submissions: count })

export type HeaderRecord = z.infer<typeof headerRecord>
export type ProfileExport = z.infer<typeof profileRecord>
export type HistoryExport = z.infer<typeof historyRecord>
export type SubmissionExport = z.infer<typeof submissionRecord>
export type EndRecord = z.infer<typeof endRecord>
export type ExportRecord = HeaderRecord | ProfileExport | HistoryExport | SubmissionExport | EndRecord

const schemas = { header: headerRecord, profile: profileRecord, history: historyRecord, submission: submissionRecord, end: endRecord }

/** One line of an import, parsed and checked; throws an Error whose message says what is wrong (no line number). */
export function parseRecord(line: string): ExportRecord {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new Error('not valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object')
  const type = (value as { type?: unknown }).type
  const schema = typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type as keyof typeof schemas] : undefined
  if (!schema) throw new Error(`unknown record type ${JSON.stringify(type)?.slice(0, 40)}; expected one of ${Object.keys(schemas).join(', ')}`)
  const r = schema.safeParse(value)
  if (!r.success) {
    const issue = r.error.issues[0]!
    throw new Error(`${type} record: ${issue.path.join('.') || '(record)'}: ${issue.message}`)
  }
  // Characters PostgreSQL cannot store (NUL, lone surrogates), in any string of the record.
  try {
    checkStorableJson(line, `${type} record`)
  } catch (e) {
    throw new Error((e as Error).message)
  }
  return r.data as ExportRecord
}

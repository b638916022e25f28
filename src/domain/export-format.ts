import { z } from 'zod'
import { isCustomName } from './custom-schema.js'
import { EVENT_TIME_SKEW_MS, parseEventTime } from './event-time.js'
import { MAX_TOMBSTONES } from './forget.js'
import { PASSAGE_MAX_CHARS, PASSAGE_PROMPT_MAX_CHARS, TEXT_SEARCH_CONFIGS } from './passages.js'
import { contentViolation, MAX_MOODS, type ProfileLimits } from './profile-limits.js'
import { CUSTOM_FIELD_PATH, FORGET_SECTIONS, INPUT_TYPES, SCALAR_PATHS, type ProfileContent } from './profile.js'
import { isCalendarDate } from './structured.js'
import { SUBMISSION_STATES } from './submission.js'
import { checkStorableJson, PROFILE_ID_RE } from './validation.js'

// The export file (docs/operations/data-lifecycle.md): JSON Lines, one record a line. A header first, then for each
// profile its `profile` record followed by its `history`, `submission` and (with the text) `passage` records, and an
// `end` record with the counts, so that a file cut short is detected. Version 1 (passages came later: a file without
// them imports).

export const EXPORT_FORMAT = 'profiler-export'
export const EXPORT_VERSION = 1

/**
 * What an imported record may hold beyond the profile limits (docs/operations/data-lifecycle.md): every bound of the
 * API, so that nothing imported can make a later submission, re-extraction or read of the profile fail.
 */
export const IMPORT_BOUNDS = {
  /** `history_seq` and a history entry's `seq`: a profile imported at the bound can still take over a billion entries
   * before PostgreSQL's integer (2,147,483,647) ends. */
  seq: 1_000_000_000,
  /** A submission's `attempts` (the service makes a handful). */
  attempts: 1000,
  /**
   * Each token count of a submission's `usage`: the tenant's sums (bigint) hold nine billion submissions at the bound.
   */
  tokens: 1_000_000_000,
  /** A sighting or mood count in `internals`. */
  count: 1_000_000_000,
  /** Levels of objects and arrays in one record, the record itself counted. */
  depth: 32,
  summaryChars: 10_000,
  /** A submission's `error` (the worker writes at most 1,000 characters). */
  errorChars: 1000,
  /** Identifiers: tenant id and name, app id, prompt version, submission ids, keys of `internals.seen`. */
  idChars: 200,
  /** Submission ids of one history entry (a re-extraction lists every submission it replayed). */
  submissionIds: 10_000,
  /**
   * Times (created_at, last_updated, extracted_on, started_at, finished_at, field_timestamps, exported_at): from 1970
   * to this long after the import began (clocks differ). */
  aheadMs: 24 * 3600 * 1000,
  /** A passage's position: below the most passages PROFILER_PASSAGES_PER_SUBMISSION can allow (the configured bound is
   * checked by the import). */
  passagePosition: 9_999,
  /** A passage's speaker: a conversation's label of the person (the line form takes labels of up to 40 characters). */
  speakerChars: 40,
  /** What hid a passage (a forget's description). */
  hiddenByChars: 1000,
} as const

const EARLIEST = Date.UTC(1970, 0, 1)

export interface RecordBounds {
  /** The profile limits (config.profiles): a profile record's content keeps them, its history fits in them. */
  profiles: ProfileLimits
  /** The latest time a record may carry, ms since the epoch (the import's start plus IMPORT_BOUNDS.aheadMs). */
  latest: number
}

const BOUNDS = IMPORT_BOUNDS
const int = (max: number, min = 0) => z.number().int().min(min).max(max)
const count = z.number().int().min(0)
const profileId = z.string().regex(PROFILE_ID_RE, 'must be 1-200 characters of letters, digits and . _ : @ + -')
const confidence = z.number().min(0).max(1)
const scored = z.object({ value: z.string(), confidence })
const customName = z.string().refine(isCustomName, 'not a custom section or field name')
const customScored = z.object({ value: z.union([z.string(), z.number(), z.boolean()]), confidence })
/** A map of at most `keys` entries whose keys have at most `chars` characters. */
const map = <V extends z.ZodType>(value: V, keys: number, chars: number) =>
  z.record(z.string().max(chars), value).refine((o) => Object.keys(o).length <= keys, `at most ${keys} entries`)

/** The record schemas of one import: times are bounded by its start, profiles by the configured limits. */
export function recordSchemas(recordBounds: RecordBounds) {
  const latest = new Date(recordBounds.latest).toISOString()
  // Any offset zod accepts, stored as UTC (PostgreSQL refuses offsets past 15:59, as it refuses the year 0).
  const time = z.iso
    .datetime({ offset: true })
    .refine((text) => {
      const millis = Date.parse(text)
      return millis >= EARLIEST && millis <= recordBounds.latest
    }, `must be a time from 1970-01-01 to ${latest}`)
    .transform((s) => new Date(s).toISOString())
  /**
   * An event time (docs/guides/submitting-data.md, "Event time"), bounded as POST bounds it, from 1900 to a few minutes
   * past the import's start; here up to `latest`, the submission record checks the tighter bound (its own created_at is
   * let through). */
  const eventTime = z.string().transform((text, ctx) => {
    const parsed = parseEventTime(text, recordBounds.latest)
    if ('iso' in parsed) return parsed.iso
    ctx.addIssue({ code: 'custom', message: parsed.error })
    return z.NEVER
  })
  const importStart = recordBounds.latest - IMPORT_BOUNDS.aheadMs
  const limits = recordBounds.profiles
  /** A past value of a scalar (docs/guides/the-profile.md, "Facts over time"): its window in event times, in order. */
  const pastValue = z
    .object({
      value: z.union([z.string().max(limits.valueChars), int(150)]),
      confidence,
      from: eventTime,
      until: eventTime,
      last_said: eventTime,
    })
    .refine(
      (e) => Date.parse(e.from) <= Date.parse(e.last_said) && Date.parse(e.last_said) <= Date.parse(e.until),
      'must have from <= last_said <= until',
    )
  /** Profile content exactly as stored (what the merge goes on from), not the looser `structured` input. */
  const content = {
    core_info: z.object({
      name: scored.optional(),
      age: z.object({ value: int(150), confidence }).optional(),
      gender: scored.optional(),
      location: scored.optional(),
      occupation: scored.optional(),
    }),
    interests: z.record(z.string(), z.array(scored)),
    personality: z.object({
      traits: z.array(scored),
      mood_trends: z.object({ default: scored.optional(), recent: scored.optional() }),
    }),
    memories: z.array(
      z.object({
        event: z.string(),
        date: z.string().refine(isCalendarDate, 'must be a date (YYYY-MM-DD)').optional(),
        importance: z.enum(['low', 'medium', 'high']).optional(),
        confidence: confidence.optional(),
      }),
    ),
    preferences: z.object({ conversation_style: scored.optional(), topics_to_avoid: z.array(scored) }),
    /** Custom schema values (section -> field -> scored value or list), when the profile has any. */
    custom: z.record(customName, z.record(customName, z.union([customScored, z.array(customScored)]))).optional(),
    /** Earlier values of the scalars, newest first, at most the profile limit's per path. */
    past_values: z
      .partialRecord(
        z.enum(SCALAR_PATHS),
        z
          .array(pastValue)
          .max(
            limits.pastValues,
            `at most ${limits.pastValues} past values per scalar (PROFILER_PROFILE_MAX_PAST_VALUES)`,
          ),
      )
      .optional(),
  }
  /** A scalar's statements: [time, confidence (-1 forgotten), value index (-1 forgotten)], and the values they name. */
  const statementLog = z.object({
    said: z
      .array(z.tuple([eventTime, z.number().min(-1).max(1), z.number().int().min(-1).max(limits.scalarStatements)]))
      .max(
        limits.scalarStatements,
        `at most ${limits.scalarStatements} statements per scalar (PROFILER_PROFILE_MAX_STATEMENTS)`,
      ),
    values: z.array(z.union([z.string().max(limits.valueChars), int(150)])).max(limits.scalarStatements),
    before: z
      .tuple([eventTime, z.union([z.string().max(limits.valueChars), int(150), z.null()]), z.number().min(-1).max(1)])
      .optional(),
  })
  const tombstone = z.object({
    section: z.union([z.enum(FORGET_SECTIONS), z.string().regex(CUSTOM_FIELD_PATH)]),
    category: z.string().max(limits.valueChars).optional(),
    key: z.string().max(limits.valueChars),
    at: time,
  })

  const header = z.object({
    type: z.literal('header'),
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    tenant: z.object({ id: z.string().max(BOUNDS.idChars), name: z.string().max(BOUNDS.idChars) }),
    exported_at: time,
    /** The one profile exported, or null for the whole tenant. */
    profile_id: profileId.nullable(),
    include_text: z.boolean(),
    /** How many profiles the export expected to write (a progress total; `end` has what it wrote). */
    profiles: count,
  })

  const profile = z
    .object({
      type: z.literal('profile'),
      profile_id: profileId,
      status: z.enum(['processing', 'ready']),
      created_at: time,
      last_updated: time,
      summary: z.string().max(BOUNDS.summaryChars).nullable(),
      /** ISO 639-1, as the service stores it. */
      language: z
        .string()
        .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code such as "en"')
        .nullable(),
      ...content,
      /** When each part last changed: sections, interest categories, custom sections and fields. */
      field_timestamps: map(time, limits.categories + limits.customValues + 64, limits.valueChars + 64),
      /** What the merge keeps beside the content: needed to go on merging after a restore. */
      internals: z.object({
        mood_counts: map(int(BOUNDS.count), MAX_MOODS + 2, limits.valueChars),
        seen: map(int(BOUNDS.count), limits.customValues + 64, BOUNDS.idChars),
        /** Forgotten values: a restored profile keeps them forgotten. */
        forgotten: z.array(tombstone).max(MAX_TOMBSTONES).optional(),
        /**
         * When the evidence behind each scalar's value was said or written (a path each): keeps ordering merges by it.
         */
        evidence_at: map(eventTime, 16, 64).optional(),
        /** When the evidence behind each scalar's value was first said: the start of its window. */
        since: map(eventTime, 16, 64).optional(),
        /** When each part was last named by evidence (keyed as field_timestamps): orders a context's equal facts. */
        said_at: map(eventTime, limits.categories + limits.customValues + 64, limits.valueChars + 64).optional(),
        /** The statements each scalar's timeline is built from (src/domain/scalar-time.ts). */
        statements: z.partialRecord(z.enum(SCALAR_PATHS), statementLog).optional(),
      }),
      history_seq: int(BOUNDS.seq),
    })
    .superRefine((record, ctx) => {
      const violation = contentViolation(record as unknown as ProfileContent, limits)
      if (violation) ctx.addIssue({ code: 'custom', message: violation })
    })

  const history = z.object({
    type: z.literal('history'),
    profile_id: profileId,
    seq: int(BOUNDS.seq, 1),
    extracted_on: time,
    changes: z.record(z.string(), z.unknown()),
    submission_ids: z.array(z.string().max(BOUNDS.idChars)).max(BOUNDS.submissionIds),
    input_type: z.string().min(1).max(32),
  })

  const submission = z
    .object({
      type: z.literal('submission'),
      profile_id: profileId,
      id: z.uuid(),
      /** The exporting database's; an import gives each submission a new one. */
      seq: z.number().int(),
      app_id: z.string().max(BOUNDS.idChars).nullable(),
      input_type: z.enum(INPUT_TYPES),
      status: z.enum(SUBMISSION_STATES),
      attempts: int(BOUNDS.attempts),
      error: z.string().max(BOUNDS.errorChars).nullable(),
      created_at: time,
      /** When its text was said or written (the acceptance time when none was given); absent in older exports. */
      occurred_at: eventTime.nullable().optional(),
      started_at: time.nullable(),
      finished_at: time.nullable(),
      usage: z
        .object({
          promptTokens: int(BOUNDS.tokens),
          completionTokens: int(BOUNDS.tokens),
          totalTokens: int(BOUNDS.tokens),
        })
        .nullable(),
      prompt_version: z.string().max(BOUNDS.idChars).nullable(),
      /**
       * Only with include_text; null when the text was dropped by retention. Checked as POST checks `data` (by the
       * service).
       */
      text: z.string().nullable().optional(),
    })
    .superRefine((record, ctx) => {
      // As POST bounds it; the acceptance time itself (what an export writes when none was given) is bounded as
      // created_at.
      if (
        record.occurred_at != null &&
        record.occurred_at !== record.created_at &&
        Date.parse(record.occurred_at) > importStart + EVENT_TIME_SKEW_MS
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['occurred_at'],
          message:
            `must not be in the future (more than ${EVENT_TIME_SKEW_MS / 60_000} minutes ` +
            "past the service's clock)",
        })
      }
    })

  /**
   * An evidence passage (docs/guides/evidence.md, "Evidence passages"), with the text only: its words are the
   * submission's. No vector.
   */
  const passage = z.object({
    type: z.literal('passage'),
    profile_id: profileId,
    submission_id: z.uuid(),
    position: int(BOUNDS.passagePosition),
    speaker: z.string().min(1).max(BOUNDS.speakerChars).nullable(),
    prompt: z.string().min(1).max(PASSAGE_PROMPT_MAX_CHARS).nullable(),
    text: z.string().max(PASSAGE_MAX_CHARS).regex(/\S/, 'must not be blank'),
    /** When it was said: an event time, from 1900 to one day after the import began (its submission's acceptance time
     * may be a little ahead of this clock). */
    occurred_at: eventTime,
    /** The text search configuration its words are stemmed with. */
    language: z.enum(TEXT_SEARCH_CONFIGS as [string, ...string[]]),
    hidden_at: time.nullable(),
    hidden_by: z.string().max(BOUNDS.hiddenByChars).nullable(),
  })

  /** `passages` is absent in files made before passages were exported (then there are none). */
  const end = z.object({
    type: z.literal('end'),
    profiles: count,
    history: count,
    submissions: count,
    passages: count.optional(),
  })

  return { header, profile, history, submission, passage, end }
}

type Schemas = ReturnType<typeof recordSchemas>
export type HeaderRecord = z.infer<Schemas['header']>
export type ProfileExport = z.infer<Schemas['profile']>
export type HistoryExport = z.infer<Schemas['history']>
export type SubmissionExport = z.infer<Schemas['submission']>
export type PassageExport = z.infer<Schemas['passage']>
export type EndRecord = z.infer<Schemas['end']>
export type ExportRecord = HeaderRecord | ProfileExport | HistoryExport | SubmissionExport | PassageExport | EndRecord

/**
 * Whether JSON text nests objects and arrays deeper than `max`, read without parsing and without recursion: strings are
 * skipped whole (indexOf), so text costs next to nothing, and a line of a million brackets is refused at the first
 * bracket past the bound instead of being built (JSON.parse copes, but spends about 0.2 µs a byte on it, ten times the
 * cost of ordinary records). Exact for valid JSON; whatever it says of invalid text, JSON.parse refuses that.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 34) {
      // To the closing quote: one not escaped by an odd number of backslashes.
      for (;;) {
        const closing = text.indexOf('"', i + 1)
        if (closing === -1) return false
        let before = closing - 1
        while (text.charCodeAt(before) === 92) before--
        i = closing
        if ((closing - 1 - before) % 2 === 0) break
      }
    } else if (code === 91 || code === 123) {
      if (++depth > max) return true
    } else if (code === 93 || code === 125) depth--
  }
  return false
}

/**
 * The parser of one import's lines: each line parsed and checked against the bounds; throws an Error whose message says
 * what is wrong (no line number).
 */
export function recordParser(bounds: RecordBounds): (line: string) => ExportRecord {
  const schemas = recordSchemas(bounds)
  const historyBytes = 2 * bounds.profiles.profileBytes
  return (line) => {
    if (nestedDeeperThan(line, BOUNDS.depth))
      throw new Error(`nested deeper than ${BOUNDS.depth} levels of objects and arrays`)
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw new Error('not valid JSON')
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object')
    const type = (value as { type?: unknown }).type
    const schema = typeof type === 'string' && Object.hasOwn(schemas, type) ? schemas[type as keyof Schemas] : undefined
    if (!schema)
      throw new Error(
        `unknown record type ${JSON.stringify(type)?.slice(0, 40)}; expected one of ${Object.keys(schemas).join(', ')}`,
      )
    // A history entry's changes are free JSON: a change lists at most what was there and what came.
    if (type === 'history' && Buffer.byteLength(line) > historyBytes) {
      throw new Error(`history record: longer than ${historyBytes} bytes (twice PROFILER_PROFILE_MAX_BYTES)`)
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const path = issue.path.join('.')
      throw new Error(`${type} record: ${path ? `${path}: ` : ''}${issue.message}`)
    }
    // Characters PostgreSQL cannot store (NUL, lone surrogates), in any string of the record.
    try {
      checkStorableJson(line, `${type} record`)
    } catch (error) {
      throw new Error((error as Error).message)
    }
    return parsed.data as ExportRecord
  }
}

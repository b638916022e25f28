// Profile content in the interface's own field names (snake_case): it is the canonical data model of the spec.
// Storage keeps it as jsonb; REST serializes it nearly as is; GraphQL maps it to camelCase.

import type { CustomValues } from './custom-schema.js'

export type Importance = 'low' | 'medium' | 'high'

export interface Scored<T> {
  value: T
  confidence: number
}

export interface Memory {
  event: string
  date?: string // YYYY-MM-DD
  importance?: Importance
  confidence?: number
}

export interface CoreInfo {
  name?: Scored<string>
  age?: Scored<number>
  gender?: Scored<string>
  location?: Scored<string>
  occupation?: Scored<string>
}

export type CoreField = keyof CoreInfo
export const CORE_FIELDS: CoreField[] = ['name', 'age', 'gender', 'location', 'occupation']

export interface Personality {
  traits: Scored<string>[]
  mood_trends: { default?: Scored<string>; recent?: Scored<string> }
}

export interface Preferences {
  conversation_style?: Scored<string>
  topics_to_avoid: Scored<string>[]
}

/** What the profile holds: the parts of the interface's Profile that extraction fills. */
export interface ProfileContent {
  core_info: CoreInfo
  interests: Record<string, Scored<string>[]>
  personality: Personality
  memories: Memory[]
  preferences: Preferences
  /**
   * Values of apps' custom schema fields: section -> field -> scored value or list (docs/guides/custom-schema.md).
   */
  custom?: CustomValues
  /**
   * Earlier values of the scalars, newest first, each with the window it held (docs/guides/the-profile.md, "Facts over
   * time"; src/domain/ scalar-time.ts). Absent when no scalar ever had another value.
   */
  past_values?: PastValues
}

/** The scalars of a profile, by path: the ones that keep past values (and an event time, `internals.evidence_at`). */
export const SCALAR_PATHS = [
  'core_info.name',
  'core_info.age',
  'core_info.gender',
  'core_info.location',
  'core_info.occupation',
  'preferences.conversation_style',
  'personality.mood_trends.recent',
] as const
export type ScalarPath = (typeof SCALAR_PATHS)[number]

/**
 * A value a scalar held before (docs/guides/the-profile.md, "Facts over time"). Times are event times (ISO 8601), from
 * <= last_said <= until.
 */
export interface PastValue {
  value: string | number
  confidence: number
  /** When it was first said. */
  from: string
  /** When it stopped holding: when the value after it was first said. */
  until: string
  /** The latest time it was said within its window. */
  last_said: string
}

/** Past values by scalar path, each list newest first. */
export type PastValues = Partial<Record<ScalarPath, PastValue[]>>

/** Bookkeeping the merge needs that is not part of the public profile. */
export interface ProfileInternals {
  /** How often each normalised mood has been seen, for mood_trends.default. */
  mood_counts: Record<string, number>
  /** How many times each scalar's current value was seen (path like "core_info.name"); >= 2 means confirmed. */
  seen: Record<string, number>
  /** Values forgotten on request (src/domain/forget.ts): evidence accepted before `at` cannot bring them back. */
  forgotten?: Tombstone[]
  /**
   * Per scalar path (core_info.*, preferences.conversation_style, personality.mood_trends.recent): when the evidence
   * behind its current value was last said or written (ISO 8601), the latest statement of its window
   * (src/domain/scalar-time.ts). Absent for values stored before event times.
   */
  evidence_at?: Record<string, string>
  /**
   * Per scalar path: when the evidence behind its current value was first said (ISO 8601), the start of its window
   * (src/domain/scalar-time.ts). Absent for values stored before past values were kept.
   */
  since?: Record<string, string>
  /**
   * Per part, keyed as field_timestamps are (sections, fields, interest categories, custom sections and fields): when
   * the newest evidence that named a value of it was said or written (ISO 8601; the merge's time for evidence of
   * unknown time). A context orders facts of equal relevance and confidence by it, newest said first, so the order does
   * not depend on how the worker batched submissions (field_timestamps are merge times). Absent for parts not named
   * since it was kept; bounded as field_timestamps are (a key per part that exists).
   */
  said_at?: Record<string, string>
  /**
   * Per scalar path: the statements its timeline is built from (src/domain/scalar-time.ts): when each value was said,
   * with its confidence. Bounded by ProfileLimits.scalarStatements per path. Absent for paths not said since it was
   * kept.
   */
  statements?: Partial<Record<ScalarPath, StatementLog>>
}

/**
 * One statement of a scalar: when it was said (ISO 8601), its confidence, and the index of its value (as it was
 * written) in StatementLog.values; a forgotten value's statement keeps only its time (confidence and index -1).
 */
export type Statement = [at: string, confidence: number, value: number]

/** The statements of one scalar (src/domain/scalar-time.ts). */
export interface StatementLog {
  /** In order: by time, then value (normalised), confidence and value as written. */
  said: Statement[]
  /** The values the statements name, each as written, once. */
  values: (string | number)[]
  /**
   * The newest statement the limits let go, as [time, value (null: forgotten), confidence]: a statement not after it in
   * the order of `said` is not taken.
   */
  before?: [at: string, value: string | number | null, confidence: number]
}

/** The sections a value can be forgotten from (DELETE /v1/profile/{id}/values), in the profile's own names. */
export const FORGET_SECTIONS = [
  'core_info.name',
  'core_info.age',
  'core_info.gender',
  'core_info.location',
  'core_info.occupation',
  'interests',
  'personality.traits',
  'preferences.conversation_style',
  'preferences.topics_to_avoid',
  'memories',
] as const
/** A custom field of an app's schema (src/domain/custom-schema.ts), as a forget names it: custom.<section>.<field>. */
export type CustomFieldPath = `custom.${string}.${string}`
export const CUSTOM_FIELD_PATH = /^custom\.[a-z][a-z0-9_]{0,39}\.[a-z][a-z0-9_]{0,39}$/
export type ForgetSection = (typeof FORGET_SECTIONS)[number] | CustomFieldPath

/** A forgotten value: its section, category (interests; omitted = every category), normalised key and when. */
export interface Tombstone {
  section: ForgetSection
  category?: string
  key: string
  /** ISO 8601: submissions accepted before this are old evidence. */
  at: string
}

/** Everything the merge reads and writes. */
export interface ProfileState {
  content: ProfileContent
  field_timestamps: Record<string, string>
  language?: string
  internals: ProfileInternals
}

export function emptyContent(): ProfileContent {
  return {
    core_info: {},
    interests: {},
    personality: { traits: [], mood_trends: {} },
    memories: [],
    preferences: { topics_to_avoid: [] },
  }
}

export function emptyState(): ProfileState {
  return { content: emptyContent(), field_timestamps: {}, internals: { mood_counts: {}, seen: {} } }
}

export type ListSection = 'interests' | 'traits' | 'topics_to_avoid'

/** A value the person explicitly negated ("I don't like jazz anymore"). category only for interests; omitted = any. */
export interface Removal {
  section: ListSection
  category?: string
  value: string
}

/** What an extractor proposes from one submission. Everything optional; the merge decides. */
export interface Extraction {
  core_info?: CoreInfo
  interests?: Record<string, Scored<string>[]>
  personality?: { traits?: Scored<string>[]; mood?: Scored<string> }
  memories?: Memory[]
  preferences?: { conversation_style?: Scored<string>; topics_to_avoid?: Scored<string>[] }
  removals?: Removal[]
  /** ISO 639-1 code of the language the person writes in. */
  language?: string
  /** Values of the submitting app's custom schema fields (already checked against that schema). */
  custom?: CustomValues
  /**
   * Values said at their own times within the submission (a conversation whose messages carry timestamps): each part
   * holds what the messages of one time said, and `at`, that time (ISO 8601). The merge takes each part as said then.
   */
  parts?: TimedExtraction[]
}

/** What the messages of one time said (Extraction.parts). */
export type TimedExtraction = Omit<Extraction, 'parts'> & { at: string }

export type InputType = 'text' | 'conversation' | 'structured'
/** input_type of history entries written by a request rather than a submission. */
export type EditKind = 'forget' | 'rollback'
export const INPUT_TYPES: InputType[] = ['text', 'conversation', 'structured']

/** The name of each limit as a history entry's `dropped.limits` lists it (docs/operations/limits.md, "A profile"). */
export type LimitName =
  | 'list_values'
  | 'categories'
  | 'interests'
  | 'memories'
  | 'custom_values'
  | 'value_chars'
  | 'profile_bytes'
  | 'past_values'

/** A value the limits dropped, as recorded: the section as a forget names it, the category (interests), the value. */
export interface DroppedValue {
  section: string
  category?: string
  value: string
}

/** What a batch dropped to stay within the limits (an update_log entry's `changes.dropped`). */
export interface Dropped {
  /** How many values were dropped. */
  total: number
  /** Which limits made them go. */
  limits: LimitName[]
  /** The first DROPPED_LISTED of them (each value cut to DROPPED_VALUE_CHARS). */
  values: DroppedValue[]
}

/** The partial profile recorded in one update_log entry. */
export interface Changes {
  core_info?: Partial<CoreInfo>
  interests?: Record<string, Scored<string>[]>
  personality?: { traits?: Scored<string>[]; mood_trends?: { default?: Scored<string>; recent?: Scored<string> } }
  memories?: Memory[]
  preferences?: { conversation_style?: Scored<string>; topics_to_avoid?: Scored<string>[] }
  language?: string
  /** Scalars whose old value was replaced: path -> old value, with the window it held (`from`, `until`) when known. */
  replaced?: Record<string, Scored<string | number> & { from?: string; until?: string }>
  /**
   * Past values of scalars this batch recorded or changed (a back-filled older value, a window that moved), other than
   * the one listed under `replaced`: path -> entries, newest first.
   */
  past_values?: PastValues
  /**
   * Entries removed by an explicit negation (list sections: interests, traits, topics_to_avoid) or forgotten on request
   * (input_type 'forget': also the scalar paths like core_info.name, preferences.conversation_style, and memories).
   */
  removed?: { section: ListSection | ForgetSection; category?: string; value: string }[]
  /** A rollback (input_type 'rollback'): the seq of the history entry whose state the profile returned to. */
  rolled_back_to?: number
  /**
   * A forget (input_type 'forget'): how many evidence passages that stated the value it hid (docs/guides/evidence.md,
   * "Why the profile says it").
   */
  passages_hidden?: number
  /** Custom field values added or changed (lists: the entries added or reinforced). */
  custom?: CustomValues
  /** Values the profile's limits did not let in or made room for (docs/operations/limits.md, "A profile"). */
  dropped?: Dropped
}

/**
 * How many values a profile's lists hold (interests, traits, topics to avoid, memories, custom entries): a cheap
 * measure of how much work a merge, a summary or a context of it is, for choosing to run small ones where they are
 * asked. O(categories + custom fields); anything not a list counts nothing.
 */
export function valueCount(content: Partial<ProfileContent> | undefined): number {
  if (!content || typeof content !== 'object') return 0
  const len = (l: unknown) => (Array.isArray(l) ? l.length : 0)
  let count = len(content.personality?.traits) + len(content.preferences?.topics_to_avoid) + len(content.memories)
  for (const l of Object.values(content.interests ?? {})) count += len(l)
  for (const fields of Object.values(content.custom ?? {}))
    for (const v of Object.values(fields ?? {})) count += Array.isArray(v) ? v.length : 1
  return count
}

/** One profile's key in maps of many tenants' profiles (the worker's rounds): tenant and id, NUL-separated. */
export const profileKey = (p: { tenantId: string; profileId: string }) => `${p.tenantId}\u0000${p.profileId}`

/** A job of the queue: process what is open for this profile. */
export interface ProfileJob {
  tenantId: string
  profileId: string
}

// Export files for tests (the export format, docs/operations/data-lifecycle.md), built in one request through
// POST /v1/import: a profile with thousands of facts, one with many submissions of 100 KiB texts, or one with the
// evidence passages its submissions' texts say. importFile writes a whole valid file; the record builders
// (headerRecord, profileRecord, ...) are there for a test that builds a bad one on purpose. Everything stays within
// the API's limits (the profile limits' defaults, the 100 KiB data limit), so the import is what a client may send.
import crypto from 'node:crypto'

/** When a file is exported and its records were made, unless the test says. */
const AT = '2025-01-01T00:00:00.000Z'

/** Fields of a profile record (the content as the API shows it, and what a restore needs). */
export interface ProfileFields {
  status: string
  created_at: string
  last_updated: string
  summary: string | null
  language: string
  core_info: Record<string, unknown>
  interests: Record<string, unknown>
  personality: Record<string, unknown>
  memories: unknown[]
  preferences: Record<string, unknown>
  field_timestamps: Record<string, string>
  internals: Record<string, unknown>
  history_seq: number
}

/** Fields of a submission record. */
export interface SubmissionFields {
  seq: number
  app_id: string | null
  input_type: string
  status: string
  attempts: number
  error: string | null
  created_at: string
  /** Written only when given: the service reads a submission without it as said when it was created. */
  occurred_at: string
  started_at: string | null
  finished_at: string | null
  usage: unknown
  prompt_version: string | null
}

/** Fields of a passage record. */
export interface PassageFields {
  speaker: string | null
  prompt: string | null
  occurred_at: string
  language: string
  hidden_at: string | null
  hidden_by: string | null
}

export interface ImportPassage extends Partial<PassageFields> {
  /** What it says: its submission's text must say it too, or the import refuses it. */
  text: string
}

export interface ImportSubmission extends Partial<SubmissionFields> {
  /** Null where retention dropped it. */
  text: string | null
  /** Its evidence passages, position 0 first; each said when its submission was created unless it says. */
  passages?: ImportPassage[]
}

export interface ImportHistoryEntry {
  changes: Record<string, unknown>
  /** What the entry came from (default `structured`). */
  input_type?: string
}

export interface ImportProfile {
  id: string
  /**
   * Its profile record's fields over those of an empty ready profile (no name, no facts, no summary, no history).
   * Without them, a person named `Person <id>` with `interests` and `memories` made up, whose history entry
   * names them.
   */
  fields?: Partial<ProfileFields>
  /** Its history entries, oldest first (default: none when it has `fields`). */
  history?: ImportHistoryEntry[]
  /** Interest values (spread over up to 100 categories) and memories of a made-up person: the facts of a context. */
  interests?: number
  memories?: number
  /** Texts of its applied (done) submissions, oldest first: the shorthand of `submissions` without passages. */
  texts?: string[]
  /** Its submissions, oldest first, after those of `texts`. */
  submissions?: ImportSubmission[]
}

export interface ImportFileOptions {
  /** When the file was exported, its profiles made and each profile's first submission done (default 2025-01-01). */
  at?: string
  /** Milliseconds from one submission of a profile to its next, keeping their times in order (default 1,000). */
  msBetweenSubmissions?: number
  /** The id and name of the tenant the header names (default `t`): an import writes into the caller's, whatever. */
  tenant?: string
}

/** An export file (JSON Lines) holding `profiles`. */
export function importFile(profiles: ImportProfile[], options: ImportFileOptions = {}): string {
  return jsonLines(importRecords(profiles, options))
}

/** The records of importFile: header, each profile's record, history, submissions and passages, end. */
export function importRecords(profiles: ImportProfile[], options: ImportFileOptions = {}): unknown[] {
  const at = options.at ?? AT
  const spacingMs = options.msBetweenSubmissions ?? 1000
  const records: unknown[] = [headerRecord(profiles.length, { at, tenant: options.tenant })]
  const counts = { profiles: profiles.length, history: 0, submissions: 0, passages: 0 }
  for (const profile of profiles) {
    const { fields, history } = profile.fields
      ? { fields: profile.fields, history: profile.history ?? [] }
      : madeUpPerson(profile, at)
    records.push(profileRecord(profile.id, { history_seq: history.length, ...fields }, at))
    for (const [index, { changes, input_type = 'structured' }] of history.entries()) {
      records.push({
        type: 'history',
        profile_id: profile.id,
        seq: index + 1,
        extracted_on: at,
        changes,
        submission_ids: [],
        input_type,
      })
    }
    const submissions: ImportSubmission[] = [
      ...(profile.texts ?? []).map((text) => ({ text })),
      ...(profile.submissions ?? []),
    ]
    const passages: unknown[] = []
    for (const [index, { text, passages: said = [], ...fields }] of submissions.entries()) {
      const created = new Date(Date.parse(at) + index * spacingMs).toISOString()
      const submission = submissionRecord(profile.id, crypto.randomUUID(), text, { seq: index + 1, ...fields }, created)
      records.push(submission)
      for (const [position, { text: words, ...passage }] of said.entries())
        passages.push(passageRecord(profile.id, submission.id, position, words, passage, created))
    }
    records.push(...passages)
    counts.history += history.length
    counts.submissions += submissions.length
    counts.passages += passages.length
  }
  // An older export has no passage count: a file without passages is written as one.
  const { passages, ...rest } = counts
  records.push(endRecord(passages ? counts : rest))
  return records
}

/**
 * Submissions of `perSubmission` passages each, in order, whose texts join what theirs say (an import takes only the
 * passages their submission's text says); `fields` go into each (a text of its own that says them all, for one).
 */
export function submissionsSaying(
  passages: ImportPassage[],
  perSubmission: number,
  fields: Partial<ImportSubmission> = {},
): ImportSubmission[] {
  return Array.from({ length: Math.ceil(passages.length / perSubmission) }, (_, index) => {
    const own = passages.slice(index * perSubmission, (index + 1) * perSubmission)
    return { text: own.map((passage) => passage.text).join(' '), ...fields, passages: own }
  })
}

/** The header of a file of `profiles` profiles, exported at `at` from the tenant `tenant` (id and name). */
export function headerRecord(profiles: number, { at = AT, tenant = 't' }: { at?: string; tenant?: string } = {}) {
  return {
    type: 'header',
    format: 'profiler-export',
    version: 1,
    tenant: { id: tenant, name: tenant },
    exported_at: at,
    profile_id: null,
    include_text: true,
    profiles,
  }
}

/** The record of profile `id`: `fields` over an empty ready profile's, made and last updated at `at`. */
export function profileRecord(id: string, fields: Partial<ProfileFields> = {}, at = AT) {
  return {
    type: 'profile',
    profile_id: id,
    status: 'ready',
    created_at: at,
    last_updated: at,
    summary: null,
    language: 'en',
    core_info: {},
    interests: {},
    personality: { traits: [], mood_trends: {} },
    memories: [],
    preferences: { topics_to_avoid: [] },
    field_timestamps: {},
    internals: { mood_counts: {}, seen: {} },
    history_seq: 0,
    ...fields,
  }
}

/** The record of submission `id` of `profileId` saying `text`: `fields` over a text's, applied (done) at `at`. */
export function submissionRecord(
  profileId: string,
  id: string,
  text: string | null,
  fields: Partial<SubmissionFields> = {},
  at = AT,
) {
  return {
    type: 'submission',
    profile_id: profileId,
    id,
    seq: 1,
    app_id: null,
    input_type: 'text',
    status: 'done',
    attempts: 1,
    error: null,
    created_at: at,
    ...(fields.occurred_at === undefined ? {} : { occurred_at: fields.occurred_at }),
    started_at: at,
    finished_at: at,
    usage: null,
    prompt_version: null,
    ...fields,
    text,
  }
}

/** The record of passage `position` of submission `submissionId` saying `text`: `fields` over one said at `at`. */
export function passageRecord(
  profileId: string,
  submissionId: string,
  position: number,
  text: string,
  fields: Partial<PassageFields> = {},
  at = AT,
) {
  return {
    type: 'passage',
    profile_id: profileId,
    submission_id: submissionId,
    position,
    speaker: null,
    prompt: null,
    text,
    occurred_at: at,
    language: 'english',
    hidden_at: null,
    hidden_by: null,
    ...fields,
  }
}

/** The end record: the counts the file must hold. */
export function endRecord(counts: { profiles: number; history: number; submissions: number; passages?: number }) {
  return { type: 'end', ...counts }
}

/** `records` as JSON Lines. */
export function jsonLines(records: unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n'
}

/** POST /v1/import of `file` with `key`; throws unless it is accepted. */
export async function importProfiles(base: string, key: string, file: string): Promise<any> {
  const r = await fetch(`${base}/v1/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body: file,
  })
  const body = await r.json()
  if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(body)}`)
  return body
}

/** A person named `Person <id>` with `interests` and `memories` made up, and the history entry that names them. */
function madeUpPerson(profile: ImportProfile, at: string) {
  const interests: Record<string, { value: string; confidence: number }[]> = {}
  for (let i = 0; i < (profile.interests ?? 0); i++) {
    ;(interests[`topic_${i % 100}`] ??= []).push({
      value: `interest number ${i} about ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`,
      confidence: 0.3 + (i % 70) / 100,
    })
  }
  const memories = Array.from({ length: profile.memories ?? 0 }, (_, i) => ({
    event: `Went to the ${WORDS[i % WORDS.length]} festival number ${i} with friends`,
    date: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}`,
    importance: (['low', 'medium', 'high'] as const)[i % 3],
  }))
  const name = { name: { value: `Person ${profile.id}`, confidence: 0.9 } }
  const fields: Partial<ProfileFields> = {
    summary: `${profile.id} is a person with many interests.`,
    core_info: name,
    interests,
    personality: { traits: [{ value: 'curious', confidence: 0.8 }], mood_trends: {} },
    memories,
    field_timestamps: { core_info: at },
  }
  return { fields, history: profile.history ?? [{ changes: { core_info: name } }] }
}

const WORDS = [
  'jazz',
  'sailing',
  'chess',
  'cooking',
  'tennis',
  'poetry',
  'hiking',
  'painting',
  'astronomy',
  'cycling',
  'gardening',
  'opera',
  'surfing',
  'pottery',
  'climbing',
  'baking',
]

/**
 * About `bytes` of first-person text a person might write (sentences the local extractor reads: places, likes, work),
 * different for each `seed`.
 */
export function longText(bytes: number, seed = 0): string {
  const parts: string[] = []
  let n = 0
  for (let i = 0; n < bytes; i++) {
    const w = WORDS[(i + seed) % WORDS.length]
    const s = `I really enjoy ${w} on weekends with my friends number ${i + seed}. `
    parts.push(s)
    n += s.length
  }
  return parts.join('').slice(0, bytes)
}

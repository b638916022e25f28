// Forgetting one value on request, and rolling a profile back to a snapshot (pure: time comes in as `now`).
//
// A forgotten value leaves a tombstone in the profile's internals: { section, key (normalised), at }. Evidence accepted
// before `at` (a submission sent earlier, re-extracted or still in the queue) can never bring the value back; a
// submission accepted after it can (new evidence), and clears the tombstone. A rollback restores a snapshot but keeps
// the current tombstones applied: what was forgotten stays forgotten.
import { z } from 'zod'
import { diffStates } from './merge-diff.js'
import { cleanText, keyMemo, removeFromList } from './merge-rules.js'
import { categoryKey, normaliseValue } from './normalise.js'
import { removePastValues } from './scalar-time.js'
import { CUSTOM_FIELD_PATH, emptyState, FORGET_SECTIONS } from './profile.js'
import type {
  Changes,
  CoreField,
  CustomFieldPath,
  Extraction,
  ForgetSection,
  ProfileState,
  ScalarPath,
  Scored,
  Tombstone,
} from './profile.js'
import { parseRequest } from './requests.js'

/**
 * Tombstones kept per profile; past it the oldest go (their values could then return from evidence older than them).
 */
export const MAX_TOMBSTONES = 1000
const MAX_VALUE = 1000

export interface ForgetTarget {
  section: ForgetSection
  value: string
  /** Interests only: the category to remove it from (any category when omitted). */
  category?: string
}

/** A section a value can be forgotten from, in JSON Schema (what isForgetSection accepts): for documents. */
export const FORGET_SECTION_JSON_SCHEMA = {
  anyOf: [
    { type: 'string', enum: [...FORGET_SECTIONS] },
    { type: 'string', pattern: CUSTOM_FIELD_PATH.source },
  ],
}

export const forgetBodySchema = z
  .object({
    section: z
      .string({
        error: (iss) => (iss.input == null ? 'Missing field: section' : 'Invalid field: section must be a string'),
      })
      .refine((v): v is ForgetSection => isForgetSection(v), {
        error:
          `Invalid field section: must be one of ${FORGET_SECTIONS.join(', ')}, ` +
          'or custom.<section>.<field> of a custom schema',
      })
      .meta(FORGET_SECTION_JSON_SCHEMA)
      .describe(
        `The section, as named in the profile: ${FORGET_SECTIONS.join(', ')}, ` +
          "or custom.<section>.<field> for a custom schema's field",
      ),
    value: z
      .union([z.string(), z.number()], {
        error: (iss) => (iss.input == null ? 'Missing field: value' : 'Invalid field: value must be a string'),
      })
      .transform((v) => String(v))
      .refine((v) => cleanText(v) !== undefined, { error: 'Invalid field: value must not be empty' })
      .refine((v) => v.length <= MAX_VALUE, { error: `Invalid field: value is longer than ${MAX_VALUE} characters` })
      .describe(
        'The value to forget (compared as the merge compares values: case, plural and punctuation do not matter); ' +
          'for memories, the event',
      ),
    category: z
      .string({ error: 'Invalid field: category must be a string' })
      .max(200, { error: 'Invalid field: category is longer than 200 characters' })
      .nullish()
      .describe('interests only: the category (any category when omitted)'),
  })
  .superRefine((body, ctx) => {
    if (body.category != null && body.section !== 'interests') {
      ctx.addIssue({
        code: 'custom',
        message: 'Invalid field: category is only for section interests',
        path: ['category'],
      })
    }
  })

export const rollbackBodySchema = z.object({
  to_seq: z
    .number({
      error: (iss) => (iss.input == null ? 'Missing field: to_seq' : 'Invalid field: to_seq must be an integer >= 1'),
    })
    .int({ error: 'Invalid field: to_seq must be an integer >= 1' })
    .min(1, { error: 'Invalid field: to_seq must be an integer >= 1' })
    .max(2_147_483_647, { error: 'Invalid field: to_seq is too large' })
    .describe('seq of the history entry whose state to return to'),
})

/** A section a value can be forgotten from: a standard one, or a custom schema's field (custom.<section>.<field>). */
export const isForgetSection = (v: string): v is ForgetSection =>
  (FORGET_SECTIONS as readonly string[]).includes(v) || CUSTOM_FIELD_PATH.test(v)

export function parseForgetTarget(input: unknown): ForgetTarget {
  const body = parseRequest(forgetBodySchema, input)
  return {
    section: body.section as ForgetSection,
    value: body.value,
    ...(body.category != null ? { category: body.category } : {}),
  }
}

/** Deep copy with every section present (stored states of older shapes). */
export function completeState(state: ProfileState): ProfileState {
  const copy = structuredClone(state)
  const empty = emptyState()
  copy.content = { ...empty.content, ...(copy.content ?? {}) }
  copy.content.core_info ??= {}
  copy.content.interests ??= {}
  copy.content.personality = { ...empty.content.personality, ...(copy.content.personality ?? {}) }
  copy.content.personality.mood_trends ??= {}
  copy.content.memories ??= []
  copy.content.preferences = { ...empty.content.preferences, ...(copy.content.preferences ?? {}) }
  copy.field_timestamps ??= {}
  copy.internals = { ...empty.internals, ...(copy.internals ?? {}) }
  return copy
}

const isCustomPath = (section: ForgetSection): section is CustomFieldPath => section.startsWith('custom.')

const keyOf = (section: ForgetSection, value: string | number | boolean) =>
  section === 'core_info.age' ? String(Number(String(value).trim())) : normaliseValue(String(value))

/** A value's key in a section, as a forget compares values (the merge's normalised form; an age as its number). */
export const valueKey = keyOf

const FORGETTABLE_SCALARS: Partial<Record<ForgetSection, true>> = {
  'core_info.name': true,
  'core_info.age': true,
  'core_info.gender': true,
  'core_info.location': true,
  'core_info.occupation': true,
  'preferences.conversation_style': true,
}

function scalarSlot(
  state: ProfileState,
  section: ForgetSection,
): { get(): Scored<string | number> | undefined; del(): void } {
  if (section === 'preferences.conversation_style') {
    const preferences = state.content.preferences
    return { get: () => preferences.conversation_style, del: () => delete preferences.conversation_style }
  }
  const field = section.slice('core_info.'.length) as CoreField
  const coreInfo = state.content.core_info
  return { get: () => coreInfo[field] as Scored<string | number> | undefined, del: () => delete coreInfo[field] }
}

type Removed = NonNullable<Changes['removed']>

/** Removes what matches (section, key) from the state; what went, in update_log terms. */
function removeMatching(state: ProfileState, section: ForgetSection, key: string, category?: string): Removed {
  const out: Removed = []
  const { content } = state
  if (FORGETTABLE_SCALARS[section]) {
    const slot = scalarSlot(state, section)
    const cur = slot.get()
    if (cur !== undefined && keyOf(section, cur.value) === key) {
      out.push({ section, value: String(cur.value) })
      slot.del()
      delete state.internals.seen[section]
      if (state.internals.since) delete state.internals.since[section]
    }
    // Its past values go too (docs/guides/the-profile.md, "Facts over time"), each listed once.
    const listed = new Set(out.map((r) => r.value))
    for (const e of removePastValues(state, section as ScalarPath, key, (v) => keyOf(section, v))) {
      if (!listed.has(String(e.value))) out.push({ section, value: String(e.value) })
      listed.add(String(e.value))
    }
  } else if (section === 'interests') {
    const want = category === undefined ? undefined : categoryKey(category)
    for (const c of Object.keys(content.interests)) {
      if (want !== undefined && categoryKey(c) !== want) continue
      for (const e of content.interests[c]!)
        if (normaliseValue(e.value) === key) out.push({ section: 'interests', category: c, value: e.value })
      if (removeFromList(content.interests[c]!, key) && content.interests[c]!.length === 0) delete content.interests[c]
    }
  } else if (section === 'personality.traits' || section === 'preferences.topics_to_avoid') {
    const list = section === 'personality.traits' ? content.personality.traits : content.preferences.topics_to_avoid
    for (const e of list)
      if (normaliseValue(e.value) === key)
        out.push({ section: section === 'personality.traits' ? 'traits' : 'topics_to_avoid', value: e.value })
    removeFromList(list, key)
  } else if (isCustomPath(section)) {
    const [, sec, field] = section.split('.') as [string, string, string]
    const fields = content.custom?.[sec]
    const cur = fields && Object.hasOwn(fields, field) ? fields[field] : undefined
    if (Array.isArray(cur)) {
      for (const e of cur) if (keyOf(section, e.value) === key) out.push({ section, value: String(e.value) })
      if (out.length) fields![field] = cur.filter((e) => keyOf(section, e.value) !== key)
    } else if (cur && keyOf(section, cur.value as string | number) === key) {
      out.push({ section, value: String(cur.value) })
      delete state.internals.seen[section]
    }
    if (out.length) {
      const left = fields![field]
      if (!Array.isArray(left) || !left.length) delete fields![field]
      if (!Object.keys(fields!).length) delete content.custom![sec]
    }
  } else if (section === 'memories') {
    const kept = content.memories.filter((m) => normaliseValue(m.event) !== key)
    for (const m of content.memories)
      if (normaliseValue(m.event) === key) out.push({ section: 'memories', value: m.event })
    content.memories = kept
  }
  return out
}

/** field_timestamps keys a removal from `section` touches. */
function touched(section: ForgetSection, removed: Removed): string[] {
  if (section === 'interests') return ['interests', ...removed.map((r) => `interests.${r.category}`)]
  if (section === 'memories') return ['memories']
  if (isCustomPath(section)) return [section.split('.').slice(0, 2).join('.'), section]
  return [section.split('.')[0]!, section]
}

export interface ForgetResult {
  state: ProfileState
  /** The update_log entry's changes: `{ removed: [...] }`; empty when nothing matched. */
  changes: Changes
  found: boolean
}

/** Removes the value and records its tombstone (the tombstone only when the value was there). */
export function forgetValue(state: ProfileState, target: ForgetTarget, now: string): ForgetResult {
  const next = completeState(state)
  const key = keyOf(target.section, target.value)
  const removed = removeMatching(next, target.section, key, target.category)
  if (!removed.length) return { state: next, changes: {}, found: false }
  for (const p of touched(target.section, removed)) next.field_timestamps[p] = now
  const tombs = (next.internals.forgotten ?? []).filter((t) => !(t.section === target.section && t.key === key))
  tombs.push({
    section: target.section,
    key,
    at: now,
    ...(target.category !== undefined ? { category: target.category } : {}),
  })
  next.internals.forgotten = tombs.slice(-MAX_TOMBSTONES)
  return { state: next, changes: { removed }, found: true }
}

/** Where each value of an extraction sits, as (section, value) pairs: what tombstones are matched against. */
function* proposed(ex: Extraction): Generator<[ForgetSection, unknown]> {
  const core = (ex.core_info ?? {}) as Record<string, Scored<unknown> | undefined>
  for (const f of ['name', 'age', 'gender', 'location', 'occupation'] as const) yield [`core_info.${f}`, core[f]?.value]
  yield ['preferences.conversation_style', ex.preferences?.conversation_style?.value]
  const list = function* (section: ForgetSection, items: unknown): Generator<[ForgetSection, unknown]> {
    if (Array.isArray(items)) for (const e of items) yield [section, e?.value]
  }
  for (const l of Object.values(ex.interests && typeof ex.interests === 'object' ? ex.interests : {}))
    yield* list('interests', l)
  yield* list('personality.traits', ex.personality?.traits)
  yield* list('preferences.topics_to_avoid', ex.preferences?.topics_to_avoid)
  if (Array.isArray(ex.memories)) for (const m of ex.memories) yield ['memories', m?.event]
  for (const [sec, fields] of customEntries(ex)) {
    for (const [field, v] of Object.entries(fields)) {
      const path: CustomFieldPath = `custom.${sec}.${field}`
      if (Array.isArray(v)) yield* list(path, v)
      else yield [path, (v as Scored<unknown> | undefined)?.value]
    }
  }
  // What the submission's messages said at their own times.
  for (const part of Array.isArray(ex.parts) ? ex.parts : [])
    if (part && typeof part === 'object') yield* proposed(part)
}

/**
 * An extraction's custom sections that are objects (an extractor's answer is checked later, against the app's schema).
 */
const customEntries = (ex: Extraction): [string, Record<string, unknown>][] =>
  ex.custom && typeof ex.custom === 'object'
    ? (Object.entries(ex.custom as Record<string, unknown>).filter((e) => !!e[1] && typeof e[1] === 'object') as [
        string,
        Record<string, unknown>,
      ][])
    : []

const tombKey = (section: ForgetSection, value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? `${section}\u0000${keyOf(section, value)}`
    : undefined

/**
 * Whether an extraction proposed the target's value (same section, same key as the merge compares values); for
 * interests, in the target's category when it names one. What provenance reads a submission's stored extraction with.
 */
export function proposesValue(ex: Extraction, target: ForgetTarget): boolean {
  if (!ex || typeof ex !== 'object') return false
  const want = tombKey(target.section, target.value)
  if (target.section === 'interests') {
    const category = target.category === undefined ? undefined : categoryKey(target.category)
    for (const one of [ex, ...(Array.isArray(ex.parts) ? ex.parts : [])]) {
      if (!one || typeof one !== 'object') continue
      for (const [c, l] of Object.entries(one.interests && typeof one.interests === 'object' ? one.interests : {})) {
        if (category !== undefined && categoryKey(c) !== category) continue
        if (Array.isArray(l) && l.some((e) => tombKey('interests', e?.value) === want)) return true
      }
    }
    return false
  }
  for (const [section, value] of proposed(ex))
    if (section === target.section && tombKey(section, value) === want) return true
  return false
}

/** The extraction without the values of the `blocked` tombstone keys. */
function without(ex: Extraction, blocked: Set<string>): Extraction {
  const out = structuredClone(ex)
  const gone = (section: ForgetSection, value: unknown) => {
    const key = tombKey(section, value)
    return key !== undefined && blocked.has(key)
  }
  const keep = (section: ForgetSection, l: unknown) =>
    (Array.isArray(l) ? l.filter((e) => !gone(section, e?.value)) : l) as Scored<string>[]
  if (out.core_info) {
    for (const f of Object.keys(out.core_info) as CoreField[])
      if (gone(`core_info.${f}` as ForgetSection, out.core_info[f]?.value)) delete out.core_info[f]
  }
  if (out.preferences) {
    if (gone('preferences.conversation_style', out.preferences.conversation_style?.value))
      delete out.preferences.conversation_style
    if (out.preferences.topics_to_avoid)
      out.preferences.topics_to_avoid = keep('preferences.topics_to_avoid', out.preferences.topics_to_avoid)
  }
  if (out.interests && typeof out.interests === 'object')
    for (const c of Object.keys(out.interests)) out.interests[c] = keep('interests', out.interests[c])
  if (out.personality?.traits) out.personality.traits = keep('personality.traits', out.personality.traits)
  if (Array.isArray(out.memories)) out.memories = out.memories.filter((m) => !gone('memories', m?.event))
  for (const [sec, fields] of customEntries(out)) {
    for (const field of Object.keys(fields)) {
      const path: CustomFieldPath = `custom.${sec}.${field}`
      const value = fields[field]
      if (Array.isArray(value)) fields[field] = keep(path, value)
      else if (gone(path, (value as Scored<unknown> | undefined)?.value)) delete fields[field]
    }
  }
  return out
}

/**
 * What the merge may take from a batch, given the profile's tombstones: a tombstoned value proposed by evidence
 * accepted before its forget (or of unknown age: `acceptedAt[i]` undefined) is dropped; proposed by newer evidence, it
 * is let through and its tombstone cleared. Extractions without a tombstoned value come back as they are. Linear in the
 * size of the extractions (tombstones are looked up by key).
 */
export function screenForgotten(
  state: ProfileState,
  extractions: Extraction[],
  acceptedAt: (string | undefined)[] = [],
) {
  const tombs = state.internals?.forgotten ?? []
  if (!tombs.length) return { state, extractions }
  const byKey = new Map(tombs.map((t) => [`${t.section}\u0000${t.key}`, t]))
  const cleared = new Set<Tombstone>()
  const out = extractions.map((ex, index) => {
    if (!ex || typeof ex !== 'object') return ex
    const blocked = new Set<string>()
    const at = acceptedAt[index]
    for (const [section, value] of proposed(ex)) {
      const key = tombKey(section, value)
      const tomb = key === undefined ? undefined : byKey.get(key)
      if (!tomb) continue
      if (at !== undefined && at > tomb.at) cleared.add(tomb)
      else blocked.add(key!)
    }
    return blocked.size ? without(ex, blocked) : ex
  })
  if (!cleared.size) return { state, extractions: out }
  return {
    state: { ...state, internals: { ...state.internals, forgotten: tombs.filter((t) => !cleared.has(t)) } },
    extractions: out,
  }
}

/**
 * The state of a snapshot, as the profile's next state: the current tombstones kept and applied (a rollback never
 * brings back what was forgotten); field_timestamps are the current ones, with what the rollback changes stamped `now`.
 * `changes`: what the rollback changed, in update_log terms, with `rolled_back_to`.
 */
export function restoreSnapshot(
  current: ProfileState,
  snapshot: ProfileState,
  toSeq: number,
  now: string,
): { state: ProfileState; changes: Changes } {
  const before = completeState(current)
  const restored = completeState(snapshot)
  const tombs = before.internals.forgotten ?? []
  restored.internals.forgotten = structuredClone(tombs)
  if (!restored.internals.forgotten.length) delete restored.internals.forgotten
  for (const t of tombs) removeMatching(restored, t.section, t.key)
  restored.field_timestamps = { ...before.field_timestamps }
  const { changes, paths } = diffStates(before, restored, keyMemo())
  // The diff reports scalars and memories that appear or change; those the rollback takes away are listed here.
  const removed: Removed = changes.removed ?? []
  for (const section of Object.keys(FORGETTABLE_SCALARS) as ForgetSection[]) {
    const was = scalarSlot(before, section).get()
    if (was !== undefined && scalarSlot(restored, section).get() === undefined) {
      removed.push({ section, value: String(was.value) })
      paths.push(section.split('.')[0]!, section)
    }
  }
  const kept = new Set(restored.content.memories.map((m) => `${normaliseValue(m.event)}\u0000${m.date ?? ''}`))
  for (const m of before.content.memories) {
    if (!kept.has(`${normaliseValue(m.event)}\u0000${m.date ?? ''}`)) {
      removed.push({ section: 'memories', value: m.event })
      paths.push('memories')
    }
  }
  const moodBefore = before.content.personality.mood_trends
  const moodAfter = restored.content.personality.mood_trends
  if ((moodBefore.recent && !moodAfter.recent) || (moodBefore.default && !moodAfter.default))
    paths.push('personality', 'personality.mood_trends')
  if (removed.length) changes.removed = removed
  if (before.language !== undefined && restored.language === undefined) paths.push('language')
  for (const p of paths) restored.field_timestamps[p] = now
  return { state: restored, changes: { ...changes, rolled_back_to: toSeq } }
}

/** A stored snapshot (jsonb) as a state; null when absent or not an object. */
export function snapshotState(stored: unknown): ProfileState | null {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null
  const record = stored as Record<string, unknown>
  if (!record.content || typeof record.content !== 'object') return null
  return completeState(record as unknown as ProfileState)
}

/** A history entry's snapshot: the profile's state once the entry applied (what a rollback to it restores). */
export function snapshotOf(state: ProfileState): ProfileState {
  return {
    content: state.content,
    field_timestamps: state.field_timestamps,
    internals: state.internals,
    ...(state.language !== undefined ? { language: state.language } : {}),
  }
}

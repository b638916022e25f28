// Forgetting one value on request, and rolling a profile back to a snapshot (pure: time comes in as `now`).
//
// A forgotten value leaves a tombstone in the profile's internals: { section, key (normalised), at }. Evidence accepted
// before `at` (a submission sent earlier, re-extracted or still in the queue) can never bring the value back; a
// submission accepted after it can (new evidence), and clears the tombstone. A rollback restores a snapshot but keeps
// the current tombstones applied: what was forgotten stays forgotten.
import { z } from 'zod'
import { diffStates } from './merge-diff.js'
import { cleanText, removeFromList } from './merge-rules.js'
import { categoryKey, normaliseValue } from './normalise.js'
import { emptyState, FORGET_SECTIONS } from './profile.js'
import type { Changes, CoreField, Extraction, ForgetSection, ProfileState, Scored, Tombstone } from './profile.js'
import { parseRequest } from './requests.js'

/** Tombstones kept per profile; past it the oldest go (their values could then return from evidence older than them). */
export const MAX_TOMBSTONES = 1000
const MAX_VALUE = 1000

export interface ForgetTarget {
  section: ForgetSection
  value: string
  /** Interests only: the category to remove it from (any category when omitted). */
  category?: string
}

export const forgetBodySchema = z
  .object({
    section: z
      .enum(FORGET_SECTIONS, {
        error: (iss) => (iss.input == null ? 'Missing field: section' : `Invalid field section: must be one of ${FORGET_SECTIONS.join(', ')}`),
      })
      .describe('The section, as named in the profile'),
    value: z
      .union([z.string(), z.number()], { error: (iss) => (iss.input == null ? 'Missing field: value' : 'Invalid field: value must be a string') })
      .transform((v) => String(v))
      .refine((v) => cleanText(v) !== undefined, { error: 'Invalid field: value must not be empty' })
      .refine((v) => v.length <= MAX_VALUE, { error: `Invalid field: value is longer than ${MAX_VALUE} characters` })
      .describe('The value to forget (compared as the merge compares values: case, plural and punctuation do not matter); for memories, the event'),
    category: z
      .string({ error: 'Invalid field: category must be a string' })
      .max(200, { error: 'Invalid field: category is longer than 200 characters' })
      .nullish()
      .describe('interests only: the category (any category when omitted)'),
  })
  .superRefine((b, ctx) => {
    if (b.category != null && b.section !== 'interests') {
      ctx.addIssue({ code: 'custom', message: 'Invalid field: category is only for section interests', path: ['category'] })
    }
  })

export const rollbackBodySchema = z.object({
  to_seq: z
    .number({ error: (iss) => (iss.input == null ? 'Missing field: to_seq' : 'Invalid field: to_seq must be an integer >= 1') })
    .int({ error: 'Invalid field: to_seq must be an integer >= 1' })
    .min(1, { error: 'Invalid field: to_seq must be an integer >= 1' })
    .max(2_147_483_647, { error: 'Invalid field: to_seq is too large' })
    .describe('seq of the history entry whose state to return to'),
})

export function parseForgetTarget(input: unknown): ForgetTarget {
  const b = parseRequest(forgetBodySchema, input)
  return { section: b.section, value: b.value, ...(b.category != null ? { category: b.category } : {}) }
}

/** Deep copy with every section present (stored states of older shapes). */
export function completeState(state: ProfileState): ProfileState {
  const s = structuredClone(state)
  const e = emptyState()
  s.content = { ...e.content, ...(s.content ?? {}) }
  s.content.core_info ??= {}
  s.content.interests ??= {}
  s.content.personality = { ...e.content.personality, ...(s.content.personality ?? {}) }
  s.content.personality.mood_trends ??= {}
  s.content.memories ??= []
  s.content.preferences = { ...e.content.preferences, ...(s.content.preferences ?? {}) }
  s.field_timestamps ??= {}
  s.internals = { ...e.internals, ...(s.internals ?? {}) }
  return s
}

const keyOf = (section: ForgetSection, value: string | number) =>
  section === 'core_info.age' ? String(Number(String(value).trim())) : normaliseValue(String(value))

const SCALAR_PATHS: Partial<Record<ForgetSection, true>> = {
  'core_info.name': true,
  'core_info.age': true,
  'core_info.gender': true,
  'core_info.location': true,
  'core_info.occupation': true,
  'preferences.conversation_style': true,
}

function scalarSlot(s: ProfileState, section: ForgetSection): { get(): Scored<string | number> | undefined; del(): void } {
  if (section === 'preferences.conversation_style') {
    const p = s.content.preferences
    return { get: () => p.conversation_style, del: () => delete p.conversation_style }
  }
  const f = section.slice('core_info.'.length) as CoreField
  const c = s.content.core_info
  return { get: () => c[f] as Scored<string | number> | undefined, del: () => delete c[f] }
}

type Removed = NonNullable<Changes['removed']>

/** Removes what matches (section, key) from the state; what went, in update_log terms. */
function removeMatching(s: ProfileState, section: ForgetSection, key: string, category?: string): Removed {
  const out: Removed = []
  const { content } = s
  if (SCALAR_PATHS[section]) {
    const slot = scalarSlot(s, section)
    const cur = slot.get()
    if (cur !== undefined && keyOf(section, cur.value) === key) {
      out.push({ section, value: String(cur.value) })
      slot.del()
      delete s.internals.seen[section]
    }
  } else if (section === 'interests') {
    const want = category === undefined ? undefined : categoryKey(category)
    for (const c of Object.keys(content.interests)) {
      if (want !== undefined && categoryKey(c) !== want) continue
      for (const e of content.interests[c]!) if (normaliseValue(e.value) === key) out.push({ section: 'interests', category: c, value: e.value })
      if (removeFromList(content.interests[c]!, key) && content.interests[c]!.length === 0) delete content.interests[c]
    }
  } else if (section === 'personality.traits' || section === 'preferences.topics_to_avoid') {
    const list = section === 'personality.traits' ? content.personality.traits : content.preferences.topics_to_avoid
    for (const e of list) if (normaliseValue(e.value) === key) out.push({ section: section === 'personality.traits' ? 'traits' : 'topics_to_avoid', value: e.value })
    removeFromList(list, key)
  } else if (section === 'memories') {
    const kept = content.memories.filter((m) => normaliseValue(m.event) !== key)
    for (const m of content.memories) if (normaliseValue(m.event) === key) out.push({ section: 'memories', value: m.event })
    content.memories = kept
  }
  return out
}

/** field_timestamps keys a removal from `section` touches. */
function touched(section: ForgetSection, removed: Removed): string[] {
  if (section === 'interests') return ['interests', ...removed.map((r) => `interests.${r.category}`)]
  if (section === 'memories') return ['memories']
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
  const s = completeState(state)
  const key = keyOf(target.section, target.value)
  const removed = removeMatching(s, target.section, key, target.category)
  if (!removed.length) return { state: s, changes: {}, found: false }
  for (const p of touched(target.section, removed)) s.field_timestamps[p] = now
  const tombs = (s.internals.forgotten ?? []).filter((t) => !(t.section === target.section && t.key === key))
  tombs.push({ section: target.section, key, at: now, ...(target.category !== undefined ? { category: target.category } : {}) })
  s.internals.forgotten = tombs.slice(-MAX_TOMBSTONES)
  return { state: s, changes: { removed }, found: true }
}

/** Whether the extraction proposes the tombstoned value. */
function proposes(ex: Extraction, t: Tombstone): boolean {
  const hit = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && keyOf(t.section, v) === t.key
  const anyOf = (list: unknown) => Array.isArray(list) && list.some((e) => e && hit(e.value))
  if (t.section === 'preferences.conversation_style') return hit(ex.preferences?.conversation_style?.value)
  if (SCALAR_PATHS[t.section]) return hit((ex.core_info as Record<string, Scored<unknown>> | undefined)?.[t.section.slice(10)]?.value)
  if (t.section === 'interests') return Object.values(ex.interests ?? {}).some(anyOf)
  if (t.section === 'personality.traits') return anyOf(ex.personality?.traits)
  if (t.section === 'preferences.topics_to_avoid') return anyOf(ex.preferences?.topics_to_avoid)
  return Array.isArray(ex.memories) && ex.memories.some((m) => m && hit(m.event))
}

/** The extraction without the tombstoned value. */
function without(ex: Extraction, t: Tombstone): Extraction {
  const out = structuredClone(ex)
  const keep = (list: unknown) => (Array.isArray(list) ? list.filter((e) => !(e && keyOf(t.section, e.value) === t.key)) : list)
  if (t.section === 'preferences.conversation_style') {
    if (out.preferences) delete out.preferences.conversation_style
  } else if (SCALAR_PATHS[t.section]) {
    if (out.core_info) delete out.core_info[t.section.slice(10) as CoreField]
  } else if (t.section === 'interests') {
    for (const c of Object.keys(out.interests ?? {})) out.interests![c] = keep(out.interests![c]) as Scored<string>[]
  } else if (t.section === 'personality.traits') {
    if (out.personality) out.personality.traits = keep(out.personality.traits) as Scored<string>[]
  } else if (t.section === 'preferences.topics_to_avoid') {
    if (out.preferences) out.preferences.topics_to_avoid = keep(out.preferences.topics_to_avoid) as Scored<string>[]
  } else if (Array.isArray(out.memories)) {
    out.memories = out.memories.filter((m) => !(m && typeof m.event === 'string' && normaliseValue(m.event) === t.key))
  }
  return out
}

/**
 * What the merge may take from a batch, given the profile's tombstones: a tombstoned value proposed by evidence accepted
 * before its forget (or of unknown age: `acceptedAt[i]` undefined) is dropped; proposed by newer evidence, it is let
 * through and its tombstone cleared. Extractions without a tombstoned value come back as they are.
 */
export function screenForgotten(state: ProfileState, extractions: Extraction[], acceptedAt: (string | undefined)[] = []) {
  const tombs = state.internals?.forgotten ?? []
  if (!tombs.length) return { state, extractions }
  const cleared = new Set<Tombstone>()
  const out = extractions.map((ex, i) => {
    if (!ex || typeof ex !== 'object') return ex
    let cur = ex
    for (const t of tombs) {
      if (!proposes(cur, t)) continue
      const at = acceptedAt[i]
      if (at !== undefined && at > t.at) cleared.add(t)
      else cur = without(cur, t)
    }
    return cur
  })
  if (!cleared.size) return { state, extractions: out }
  return { state: { ...state, internals: { ...state.internals, forgotten: tombs.filter((t) => !cleared.has(t)) } }, extractions: out }
}

/**
 * The state of a snapshot, as the profile's next state: the current tombstones kept and applied (a rollback never
 * brings back what was forgotten); field_timestamps are the current ones, with what the rollback changes stamped `now`. `changes`:
 * what the rollback changed, in update_log terms, with `rolled_back_to`.
 */
export function restoreSnapshot(current: ProfileState, snapshot: ProfileState, toSeq: number, now: string): { state: ProfileState; changes: Changes } {
  const before = completeState(current)
  const s = completeState(snapshot)
  const tombs = before.internals.forgotten ?? []
  s.internals.forgotten = structuredClone(tombs)
  if (!s.internals.forgotten.length) delete s.internals.forgotten
  for (const t of tombs) removeMatching(s, t.section, t.key)
  s.field_timestamps = { ...before.field_timestamps }
  const { changes, paths } = diffStates(before, s)
  // The diff reports scalars and memories that appear or change; those the rollback takes away are listed here.
  const removed: Removed = changes.removed ?? []
  for (const section of Object.keys(SCALAR_PATHS) as ForgetSection[]) {
    const was = scalarSlot(before, section).get()
    if (was !== undefined && scalarSlot(s, section).get() === undefined) {
      removed.push({ section, value: String(was.value) })
      paths.push(section.split('.')[0]!, section)
    }
  }
  const kept = new Set(s.content.memories.map((m) => `${normaliseValue(m.event)}\u0000${m.date ?? ''}`))
  for (const m of before.content.memories) {
    if (!kept.has(`${normaliseValue(m.event)}\u0000${m.date ?? ''}`)) {
      removed.push({ section: 'memories', value: m.event })
      paths.push('memories')
    }
  }
  const b = before.content.personality.mood_trends
  const a = s.content.personality.mood_trends
  if ((b.recent && !a.recent) || (b.default && !a.default)) paths.push('personality', 'personality.mood_trends')
  if (removed.length) changes.removed = removed
  if (before.language !== undefined && s.language === undefined) paths.push('language')
  for (const p of paths) s.field_timestamps[p] = now
  return { state: s, changes: { ...changes, rolled_back_to: toSeq } }
}

/** A stored snapshot (jsonb) as a state; null when absent or not an object. */
export function snapshotState(v: unknown): ProfileState | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (!o.content || typeof o.content !== 'object') return null
  return completeState(o as unknown as ProfileState)
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

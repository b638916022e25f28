// Scalars in event time (README "Event time", "Facts over time"): which value of a scalar stands, since when, and the
// values it held before, each with its window. Pure, like the rest of the merge: it mutates the working copy the merge
// owns. Every operation here costs O(past values of one path), which the limit bounds, so the merge stays linear.
//
// A scalar's timeline is a run of values in event time: the current one from `internals.since[path]` (when it was first
// said), and before it `content.past_values[path]`, newest first, each holding from when it was first said until the
// value after it was first said. A value replaced by newer evidence becomes the newest past value; a different value
// from evidence older than the current value's start (a back-filled conversation) does not replace anything: it is
// placed where it falls in the past, so back-filling a year of conversations builds the timeline.
import { clampConfidence, hasOwn, mergeScalar, reinforce, sameScalar } from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import type { PastValue, ProfileState, ScalarPath, Scored } from './profile.js'

/**
 * The event time of the evidence a merge is applying, and the state whose scalars it dates: `internals.evidence_at`
 * holds, per scalar path, when the evidence behind the current value was last said, `internals.since` when it was first
 * said (one time each per path, so the state stays bounded).
 */
export interface ScalarClock {
  /** When the evidence at hand was said or written (ISO 8601); undefined: unknown, merged as the newest (as before event times). */
  at: string | undefined
  /** The merge's time: dates evidence of unknown time where a time is needed (the start of a value, the end of the one it replaced). */
  now: string
  state: ProfileState
  /** Past values kept per scalar path (ProfileLimits.pastValues): past it, the oldest go. */
  pastLimit: number
  /** Told of each past value the limit drops. */
  dropped?: (path: ScalarPath, value: PastValue) => void
}

/** The field_timestamps key that dates a scalar path (mood_trends is stamped as a whole). */
const stampKey = (path: string) => (path === 'personality.mood_trends.recent' ? 'personality.mood_trends' : path)

const ms = (t: string | undefined) => (t === undefined ? NaN : Date.parse(t))
const before = (a: string, b: string) => ms(a) < ms(b)
const earliest = (a: string, b: string) => (before(b, a) ? b : a)
const latest = (a: string, b: string) => (before(a, b) ? b : a)

/**
 * When the evidence behind a scalar's current value was last said or written: as recorded, else (a value stored before
 * event times) when the value last changed.
 */
export function heldAt(state: ProfileState, path: string): string | undefined {
  const times = state.internals.evidence_at
  if (times && hasOwn(times, path)) return times[path]
  const t = state.field_timestamps?.[stampKey(path)]
  return typeof t === 'string' ? t : undefined
}

/**
 * When a scalar's current value was first said: as recorded, else (stored before past values were kept) when the value
 * before it stopped holding, else when its evidence was last said.
 */
export function valueSince(state: ProfileState, path: ScalarPath): string | undefined {
  const since = state.internals.since
  if (since && hasOwn(since, path)) return since[path]
  return state.content.past_values?.[path]?.[0]?.until ?? heldAt(state, path)
}

function stamp(state: ProfileState, path: string, at: string | undefined): void {
  if (at !== undefined) (state.internals.evidence_at ??= {})[path] = at
  else if (state.internals.evidence_at && hasOwn(state.internals.evidence_at, path))
    delete state.internals.evidence_at[path]
}

const setSince = (state: ProfileState, path: ScalarPath, t: string) => void ((state.internals.since ??= {})[path] = t)

/** The path's past values as a list the profile holds (created when absent). */
function pastList(state: ProfileState, path: ScalarPath): PastValue[] {
  const all = (state.content.past_values ??= {})
  return (all[path] ??= [])
}

/** Drops the oldest past values beyond the limit. */
function cap(clock: ScalarClock, path: ScalarPath, list: PastValue[]): void {
  while (list.length > Math.max(0, clock.pastLimit)) clock.dropped?.(path, list.pop()!)
}

/** The value a newer one replaced becomes the newest past value: from its start to when the newer one was said. */
function recordReplaced(clock: ScalarClock, path: ScalarPath, old: Scored<string | number>, until: string): void {
  const { state } = clock
  const from = earliest(valueSince(state, path) ?? until, until)
  const last = heldAt(state, path) ?? from
  const list = pastList(state, path)
  list.unshift({
    value: old.value,
    confidence: old.confidence,
    from,
    until,
    last_said: earliest(latest(last, from), until),
  })
  cap(clock, path, list)
}

/**
 * Evidence said before the current value's start (`t` < valueSince), placed in the past where it falls: the same value as
 * the window it falls in reinforces it; a different value said after the last statement of that window's value starts a
 * window of its own there (the earlier one ending at `t`), or, said just before the next window's value, moves that
 * window's start back; one said between two statements of another value is not recorded (the person said the other before
 * and after). Older than every window: the oldest window's value reaches back to `t`, or a new oldest window begins.
 */
function placeOlder(
  clock: ScalarClock,
  path: ScalarPath,
  incoming: Scored<string | number>,
  t: string,
  current: Scored<string | number>,
): void {
  const { state } = clock
  const since = valueSince(state, path)!
  const list = pastList(state, path)
  const entry = (from: string): PastValue => ({
    value: incoming.value,
    confidence: incoming.confidence,
    from,
    until: from,
    last_said: from,
  })
  const startOf = (k: number) => (k === 0 ? since : list[k - 1]!.from)
  const i = list.findIndex((r) => !before(t, r.from))
  if (i >= 0) {
    const r = list[i]!
    if (sameScalar(r.value, incoming.value)) {
      // A statement in a gap after the window (a value forgotten after it) stretches it to the next value's start.
      // The display form of the latest statement, as the current value takes it.
      const value = before(r.last_said, t) ? incoming.value : r.value
      list[i] = {
        ...r,
        value,
        confidence: reinforce(r.confidence, incoming.confidence),
        last_said: latest(r.last_said, t),
        until: before(t, r.until) ? r.until : startOf(i),
      }
    } else if (before(r.last_said, t)) {
      const newer = i === 0 ? current : list[i - 1]!
      const until = before(t, r.until) ? r.until : startOf(i)
      list[i] = { ...r, until: earliest(r.until, t) }
      if (!sameScalar(newer.value, incoming.value)) list.splice(i, 0, { ...entry(t), until })
      else if (i === 0) setSince(state, path, t)
      else
        list[i - 1] = { ...list[i - 1]!, from: t, confidence: reinforce(list[i - 1]!.confidence, incoming.confidence) }
    }
  } else {
    const n = list.length
    const oldest = n ? list[n - 1]! : current
    if (!sameScalar(oldest.value, incoming.value)) list.push({ ...entry(t), until: n ? list[n - 1]!.from : since })
    else if (n === 0) setSince(state, path, t)
    else list[n - 1] = { ...list[n - 1]!, from: t, confidence: reinforce(list[n - 1]!.confidence, incoming.confidence) }
  }
  cap(clock, path, list)
  dropEmpty(state, path)
}

/** No empty list of past values, and no empty map of them. */
function dropEmpty(state: ProfileState, path: ScalarPath): void {
  const all = state.content.past_values
  if (!all) return
  if (all[path]?.length === 0) delete all[path]
  if (!Object.keys(all).length) delete state.content.past_values
}

/**
 * The scalar rule (merge-rules.ts mergeScalar) in event time: a different value from evidence older than the current
 * value's does not replace it (a back-filled conversation from last year does not overwrite what the person said last
 * week); an equal value reinforces whatever its age. A value replaced is kept as the newest past value with its window;
 * older evidence said before the current value's start is placed in the past (placeOlder). The times behind the value
 * are kept: `internals.evidence_at` (the latest statement; the later of the two when it reinforces) and `internals.since`
 * (the first).
 */
export function mergeScalarAt<T extends string | number>(
  current: Scored<T> | undefined,
  incoming: Scored<T>,
  clock: ScalarClock,
  path: ScalarPath,
  always = false,
): Scored<T> {
  const { at, state } = clock
  const seen = state.internals.seen
  if (!current) {
    stamp(state, path, at)
    setSince(state, path, at ?? clock.now)
    return mergeScalar(current, incoming, seen, path, always)
  }
  const held = heldAt(state, path)
  const since = valueSince(state, path)
  const older = at !== undefined && since !== undefined && before(at, since)
  if (sameScalar(current.value, incoming.value)) {
    if (older) placeOlder(clock, path, incoming, at, current)
    if (at !== undefined) stamp(state, path, held !== undefined && ms(held) > ms(at) ? held : at)
    return mergeScalar(current, incoming, seen, path, always)
  }
  if (at !== undefined && held !== undefined && ms(at) < ms(held)) {
    if (older) placeOlder(clock, path, incoming, at, current)
    return current
  }
  const next = mergeScalar(current, incoming, seen, path, always)
  if (next === incoming) {
    recordReplaced(clock, path, current, at ?? clock.now)
    stamp(state, path, at)
    setSince(state, path, at ?? clock.now)
  }
  return next
}

/**
 * Mood: `recent` is always the latest mood in event time (replaced even by a less confident one, reinforced when the
 * same, kept against an older one: mergeScalarAt, which keeps the moods it replaced as past values);
 * `default` is the most frequent mood so far, ties going to the most recent of the tied. Kept incrementally:
 * the mood just seen becomes the default as soon as its count reaches the current default's count.
 */
export function applyMood(mood: Scored<string>, clock: ScalarClock): void {
  const { state } = clock
  const trends = state.content.personality.mood_trends
  const counts = state.internals.mood_counts
  const prior = trends.recent
  trends.recent = mergeScalarAt(trends.recent, mood, clock, 'personality.mood_trends.recent', true)
  // A mood older than the recent one is not the latest: it counts, and ties go to the newer mood.
  const older = prior !== undefined && trends.recent === prior && !sameScalar(prior.value, mood.value)
  const key = normaliseValue(mood.value)
  counts[key] = (hasOwn(counts, key) ? counts[key] : 0) + 1
  const defaultKey = trends.default ? normaliseValue(trends.default.value) : undefined
  const defaultCount = defaultKey !== undefined && hasOwn(counts, defaultKey) ? counts[defaultKey] : 0
  const winner =
    !trends.default || counts[key] > defaultCount || (!older && counts[key] >= defaultCount)
      ? mood.value
      : trends.default.value
  const total = Object.values(counts).reduce((s, n) => s + n, 0)
  trends.default = { value: winner, confidence: clampConfidence(counts[normaliseValue(winner)] / total) }
}

/**
 * Removes a scalar's past values whose key (`keyOf`, as a forget compares values) is `key`; returns them. The windows
 * around them are left as they were: the timeline keeps a gap where the forgotten value was.
 */
export function removePastValues(
  state: ProfileState,
  path: ScalarPath,
  key: string,
  keyOf: (v: string | number) => string,
): PastValue[] {
  const all = state.content.past_values
  const list = all?.[path]
  if (!all || !list) return []
  const gone = list.filter((e) => keyOf(e.value) === key)
  if (!gone.length) return []
  all[path] = list.filter((e) => keyOf(e.value) !== key)
  dropEmpty(state, path)
  return gone
}

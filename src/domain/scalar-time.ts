// Scalars in event time (docs/guides/the-profile.md "Facts over time"): which value of a scalar stands, since when,
// and the values it held before, each with its window. Pure, like the rest of the merge: it mutates the working copy
// the merge owns.
//
// A scalar's timeline is built from its statements (internals.statements[path]): when each value was said, with its
// confidence. Of the values said at one time, the most confident stands (their statements reinforce each other); in
// event-time order, a run of times at which one value stands is a window, from its first statement until the first
// statement of the next run, last said at its last statement. The newest run is the current value; the runs before it
// are `content.past_values[path]`, newest first, as many as the limit shows. So time decides: a newer statement
// replaces an older value whatever the confidences; confidence only decides between statements of the same time, and a
// window never has zero length. The timeline is a function of the set of statements: the same statements, in any order
// and any batches, give the same current value and the same windows.
//
// Bounded: a path keeps its newest statements, at most `statementLimit` of them naming values of at most as many
// characters as its past values and current value may hold (in the order of `said`: the oldest go first). Evidence not
// newer than the newest statement let go (`before`) is not taken, so what was let go never decides anything either,
// whatever the order. Each operation costs O(statements of one path), which the limit bounds.
import { clampConfidence, hasOwn, reinforce } from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import type { CoreField, PastValue, ProfileState, ScalarPath, Scored, Statement, StatementLog } from './profile.js'

/** The event time of the evidence a merge is applying, and the state whose scalars it dates. */
export interface ScalarClock {
  /** When the evidence at hand was said or written (ISO 8601); undefined: unknown, taken as said at `now`. */
  at: string | undefined
  /** The merge's time. */
  now: string
  state: ProfileState
  /** Past values shown per scalar path (ProfileLimits.pastValues): the oldest beyond it are not shown. */
  pastLimit: number
  /** Statements kept per scalar path (ProfileLimits.scalarStatements): past it, the oldest go. */
  statementLimit: number
  /**
   * Characters of one value (ProfileLimits.valueChars): a path's statements name values of as many characters as its
   * shown values may hold.
   */
  valueChars: number
  /** Told of each value a limit let go from the timeline in this merge. */
  dropped?: (path: ScalarPath, value: string | number) => void
  /** The paths said in this merge: `settle` builds their timelines. */
  touched: Set<ScalarPath>
  /** Values of the touched paths the timelines showed (current and past) before this merge, and said in it. */
  named?: Map<ScalarPath, Map<string, string | number>>
  /** Normalised keys of string values (the merge's memo). */
  keyOf?: (text: string) => string
}

/** The field_timestamps key that dates a scalar path (mood_trends is stamped as a whole). */
const stampKey = (path: string) => (path === 'personality.mood_trends.recent' ? 'personality.mood_trends' : path)

const ms = (t: string) => Date.parse(t)
/** A forgotten value's index and confidence: it loses to any value said at the same time. */
const FORGOTTEN = -1

type Key = (value: string | number) => string

/**
 * When the evidence behind a scalar's current value was last said or written: as recorded, else (a value stored before
 * event times) when the value last changed.
 */
export function heldAt(state: ProfileState, path: string): string | undefined {
  const times = state.internals.evidence_at
  if (times && hasOwn(times, path)) return times[path]
  const stamped = state.field_timestamps?.[stampKey(path)]
  return typeof stamped === 'string' ? stamped : undefined
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

/** Where a scalar's current value is held. */
function slot(state: ProfileState, path: ScalarPath) {
  const content = state.content
  if (path === 'preferences.conversation_style') {
    const preferences = content.preferences
    return {
      get: () => preferences.conversation_style,
      set: (v: Scored<string | number>) => void (preferences.conversation_style = v as Scored<string>),
      del: () => void delete preferences.conversation_style,
    }
  }
  if (path === 'personality.mood_trends.recent') {
    const trends = content.personality.mood_trends
    return {
      get: () => trends.recent,
      set: (v: Scored<string | number>) => void (trends.recent = v as Scored<string>),
      del: () => void delete trends.recent,
    }
  }
  const field = path.slice('core_info.'.length) as CoreField
  const core = content.core_info as Record<CoreField, Scored<string | number> | undefined>
  return {
    get: () => core[field],
    set: (v: Scored<string | number>) => void (core[field] = v),
    del: () => void delete core[field],
  }
}

/** A value's key: as the merge compares scalars (normalised text; an age by its number). */
function keyer(clock: Pick<ScalarClock, 'keyOf'>): Key {
  const text = clock.keyOf ?? normaliseValue
  return (v) => (typeof v === 'number' ? `#${v}` : text(v))
}

/** A statement with what orders it: time, value key, confidence, value as written. */
interface SortKey {
  time: number
  key: string
  confidence: number
  text: string
}

const sortKey = (at: string, confidence: number, value: string | number | null, key: Key): SortKey => ({
  time: ms(at),
  key: value === null ? '' : key(value),
  confidence,
  text: value === null ? '' : String(value),
})

const compare = (a: SortKey, b: SortKey) =>
  a.time - b.time ||
  (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
  a.confidence - b.confidence ||
  (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)

/** The value a statement names as written; null for a forgotten value's. */
const statedValue = (log: StatementLog, statement: Statement) =>
  statement[2] === FORGOTTEN ? null : log.values[statement[2]]!
const sortKeyOf = (log: StatementLog, statement: Statement, key: Key) =>
  sortKey(statement[0], statement[1], statedValue(log, statement), key)
/** Where the statements let go end: a statement ordered before it is not taken. */
const beforeKey = (before: NonNullable<StatementLog['before']>, key: Key) =>
  sortKey(before[0], before[2], before[1], key)

/** Adds a statement in its place; false when it is not after the newest statement let go (`before`). */
function addStatement(
  log: StatementLog,
  at: string,
  confidence: number,
  value: string | number | null,
  key: Key,
): boolean {
  const stated = value === null ? FORGOTTEN : clampConfidence(confidence)
  const incoming = sortKey(at, stated, value, key)
  if (log.before && compare(incoming, beforeKey(log.before, key)) < 0) return false
  let lo = 0
  let hi = log.said.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compare(sortKeyOf(log, log.said[mid]!, key), incoming) <= 0) lo = mid + 1
    else hi = mid
  }
  let index = FORGOTTEN
  if (value !== null) {
    index = log.values.indexOf(value)
    if (index < 0) index = log.values.push(value) - 1
  }
  log.said.splice(lo, 0, [at, stated, index])
  return true
}

/** A run of times at which one value stood: a window of the timeline, written as its latest statement wrote it. */
interface Run {
  key: string
  value: number
  first: string
  last: string
  confidence: number
  count: number
}

/**
 * The runs of a log. At each time the value with the most confidence (its statements of that time reinforcing each
 * other) stands; equal, the smaller key (any order gives the same); a forgotten value's statement stands only alone.
 */
function runsOf(log: StatementLog, key: Key): Run[] {
  const runs: Run[] = []
  const said = log.said
  const keyAt = (i: number) => (said[i]![2] === FORGOTTEN ? '' : key(log.values[said[i]![2]]!))
  for (let i = 0; i < said.length; ) {
    const time = ms(said[i]![0])
    let next = i
    let best: { key: string; confidence: number; value: number; count: number } | undefined
    while (next < said.length && ms(said[next]![0]) === time) {
      // Statements of one time are in order of key: each key's are together, its most confident last.
      const valueKey = keyAt(next)
      let confidence = valueKey === '' ? FORGOTTEN : clampConfidence(said[next]![1])
      let count = 1
      while (next + count < said.length && ms(said[next + count]![0]) === time && keyAt(next + count) === valueKey) {
        if (valueKey !== '') confidence = reinforce(confidence, said[next + count]![1])
        count++
      }
      if (!best || confidence > best.confidence)
        best = { key: valueKey, confidence, value: said[next + count - 1]![2], count }
      next += count
    }
    const at = said[i]![0]
    const last = runs[runs.length - 1]
    if (last && last.key === best!.key) {
      last.last = at
      last.value = best!.value
      last.confidence = last.key === '' ? 0 : reinforce(last.confidence, best!.confidence)
      last.count += best!.count
    } else
      runs.push({
        key: best!.key,
        value: best!.value,
        first: at,
        last: at,
        confidence: Math.max(0, best!.confidence),
        count: best!.count,
      })
    i = next
  }
  return runs
}

/** The runs before the newest, as past values, newest first; a forgotten value's run is a gap, no past value. */
function pastWindows(log: StatementLog, runs: Run[]): PastValue[] {
  const out: PastValue[] = []
  for (let k = runs.length - 2; k >= 0; k--) {
    const run = runs[k]!
    if (run.value === FORGOTTEN) continue
    out.push({
      value: log.values[run.value]!,
      confidence: run.confidence,
      from: run.first,
      until: runs[k + 1]!.first,
      last_said: run.last,
    })
  }
  return out
}

/**
 * The statements up to index `through` (in order) go, and a statement not after the last of them is not taken any
 * more.
 */
function letGo(log: StatementLog, through: number): void {
  if (through < 0) return
  const last = log.said[through]!
  log.before = [last[0], statedValue(log, last), last[1]]
  log.said.splice(0, through + 1)
}

/** Values no statement names any more go; the indexes follow. */
function compact(log: StatementLog): void {
  const used = new Map<number, number>()
  const values: StatementLog['values'] = []
  for (const [, , index] of log.said) {
    if (index === FORGOTTEN || used.has(index)) continue
    used.set(index, values.push(log.values[index]!) - 1)
  }
  if (values.length === log.values.length && [...used].every(([from, to]) => from === to)) return
  log.said = log.said.map(([at, confidence, index]) => [at, confidence, index === FORGOTTEN ? index : used.get(index)!])
  log.values = values
}

const isValue = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))
const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(ms(v))

/** A stored `before` as the merge reads it. */
const isBefore = (before: unknown): before is NonNullable<StatementLog['before']> =>
  Array.isArray(before) &&
  isTime(before[0]) &&
  (before[1] === null || isValue(before[1])) &&
  typeof before[2] === 'number'

/** A stored log as the merge reads it: its statements well formed and in order, after what was let go. */
function canonical(stored: Partial<StatementLog>, key: Key): stored is StatementLog {
  const { said, values, before } = stored
  if (
    !Array.isArray(said) ||
    !Array.isArray(values) ||
    !values.every(isValue) ||
    new Set(values).size !== values.length
  )
    return false
  if (before !== undefined && !isBefore(before)) return false
  let previous = before === undefined ? undefined : beforeKey(before, key)
  for (const statement of said) {
    if (!Array.isArray(statement) || !isTime(statement[0]) || typeof statement[1] !== 'number') return false
    const [at, confidence, index] = statement
    if (!Number.isInteger(index)) return false
    const wellFormed =
      index === FORGOTTEN
        ? confidence === FORGOTTEN
        : index >= 0 && index < values.length && confidence >= 0 && confidence <= 1
    if (!wellFormed) return false
    const current = sortKey(at, confidence, index === FORGOTTEN ? null : values[index]!, key)
    if (previous && compare(previous, current) > 0) return false
    previous = current
  }
  return true
}

/** A stored log, rebuilt when it is not canonical (an import may hold anything); undefined when it is no log at all. */
function usable(raw: unknown, key: Key): StatementLog | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const stored = raw as Partial<StatementLog>
  if (canonical(stored, key)) return stored
  const values = Array.isArray(stored.values) ? stored.values : []
  const log: StatementLog = { said: [], values: [] }
  if (isBefore(stored.before)) log.before = [stored.before[0], stored.before[1], stored.before[2]]
  for (const statement of Array.isArray(stored.said) ? stored.said : []) {
    if (!Array.isArray(statement) || !isTime(statement[0]) || typeof statement[1] !== 'number') continue
    const [at, confidence, index] = statement
    if (typeof index !== 'number') continue
    const value = index === FORGOTTEN ? null : values[index]
    if (value === null || isValue(value)) addStatement(log, at, confidence, value, key)
  }
  compact(log)
  return log
}

/**
 * The statements of a timeline stored before statements were kept, as they can be read from it: each past value said
 * at its start and last said, the current value at its start and at its latest statement (those later statements
 * with no confidence of their own, so the windows keep theirs), and a gap (a value forgotten) where a window ends
 * before the next begins.
 */
function storedLog(state: ProfileState, path: ScalarPath, now: string, key: Key): StatementLog {
  const log: StatementLog = { said: [], values: [] }
  const current = slot(state, path).get()
  const past = (state.content.past_values?.[path] ?? []).filter(
    (window) => window && isValue(window.value) && isTime(window.from) && isTime(window.until),
  )
  past.sort((a, b) => ms(a.from) - ms(b.from))
  const since = current ? (valueSince(state, path) ?? now) : undefined
  past.forEach((window, index) => {
    addStatement(log, window.from, window.confidence, window.value, key)
    if (isTime(window.last_said) && ms(window.last_said) > ms(window.from))
      addStatement(log, window.last_said, 0, window.value, key)
    const next = past[index + 1]?.from ?? since
    if (next === undefined || ms(window.until) < ms(next)) addStatement(log, window.until, FORGOTTEN, null, key)
  })
  if (current && since !== undefined && isValue(current.value)) {
    addStatement(log, since, current.confidence, current.value, key)
    const held = heldAt(state, path)
    if (held !== undefined && ms(held) > ms(since)) addStatement(log, held, 0, current.value, key)
  }
  return log
}

/** Logs read in this process already (each merge works on its own copy): checked once, however many statements come. */
const checked = new WeakSet<StatementLog>()

/** The path's statements, read from its timeline when it has none yet. */
function logOf(clock: ScalarClock, path: ScalarPath): StatementLog {
  const { state } = clock
  const all = (state.internals.statements ??= {})
  const stored = hasOwn(all, path) ? all[path] : undefined
  if (stored && checked.has(stored)) return stored
  const key = keyer(clock)
  const log = (stored ? usable(stored, key) : undefined) ?? storedLog(state, path, clock.now, key)
  checked.add(log)
  all[path] = log
  return log
}

/** What a path shows: its current value and past values, by key. */
function shown(state: ProfileState, path: ScalarPath, key: Key): Map<string, string | number> {
  const out = new Map<string, string | number>()
  const current = slot(state, path).get()
  if (current && isValue(current.value)) out.set(key(current.value), current.value)
  for (const window of state.content.past_values?.[path] ?? [])
    if (window && isValue(window.value)) out.set(key(window.value), window.value)
  return out
}

/** The values a path named before this merge and in it, for what the merge's limits let go. */
function named(clock: ScalarClock, path: ScalarPath): Map<string, string | number> {
  const all = (clock.named ??= new Map())
  let values = all.get(path)
  if (!values) all.set(path, (values = shown(clock.state, path, keyer(clock))))
  return values
}

/** Whether the path holds a statement said after `at`: evidence said at `at` is then not the latest. */
export function saidSince(clock: ScalarClock, path: ScalarPath, at: string): boolean {
  const log = logOf(clock, path)
  const last = log.said[log.said.length - 1]
  return last !== undefined && ms(last[0]) > ms(at)
}

/** Evidence that a scalar holds a value, said at the clock's time: a statement of its timeline. */
export function say<T extends string | number>(clock: ScalarClock, path: ScalarPath, incoming: Scored<T>): void {
  const log = logOf(clock, path)
  named(clock, path).set(keyer(clock)(incoming.value), incoming.value)
  addStatement(log, clock.at ?? clock.now, incoming.confidence, incoming.value, keyer(clock))
  clock.touched.add(path)
}

/**
 * The timeline of each path said in this merge, built from its statements: the current value, its start and the past
 * values.
 */
export function settle(clock: ScalarClock): void {
  for (const path of clock.touched) settlePath(clock, path)
  clock.touched.clear()
  clock.named?.clear()
}

function settlePath(clock: ScalarClock, path: ScalarPath): void {
  const key = keyer(clock)
  const log = logOf(clock, path)
  const pastLimit = Math.max(0, clock.pastLimit)
  letGo(log, oldestOver(log, Math.max(1, clock.statementLimit), (pastLimit + 1) * clock.valueChars))
  compact(log)
  const runs = runsOf(log, key)
  const windows = pastWindows(log, runs)
  write(clock.state, path, log, runs, windows.slice(0, pastLimit))
  // What the path showed or was told in this merge and shows no more, the limits let go (a value not standing at the
  // time it was said, or forgotten, is not theirs).
  const after = shown(clock.state, path, key)
  const standing = new Set(runs.map((run) => run.key))
  const stated = new Set(log.values.map(key))
  for (const [valueKey, value] of named(clock, path))
    if (!after.has(valueKey) && (standing.has(valueKey) || !stated.has(valueKey))) clock.dropped?.(path, value)
}

/**
 * The index (in order) of the newest statement that must go so that the newer ones are at most `count` and the
 * values they name hold at most `chars` characters; -1 when all fit.
 */
function oldestOver(log: StatementLog, count: number, chars: number): number {
  const seen = new Set<number>()
  let text = 0
  for (let n = 0; n < log.said.length; n++) {
    const position = log.said.length - 1 - n
    const index = log.said[position]![2]
    if (n >= count) return position
    if (index !== FORGOTTEN && !seen.has(index)) {
      seen.add(index)
      text += String(log.values[index]!).length
      if (text > chars) return position
    }
  }
  return -1
}

/** The timeline into the profile: the current value (none after a forgotten one), when it began, the past values. */
function write(state: ProfileState, path: ScalarPath, log: StatementLog, runs: Run[], windows: PastValue[]): void {
  const current = slot(state, path)
  const newest = runs[runs.length - 1]
  const internals = state.internals
  if (newest && newest.value !== FORGOTTEN) {
    current.set({ value: log.values[newest.value]!, confidence: newest.confidence })
    ;(internals.since ??= {})[path] = newest.first
    ;(internals.evidence_at ??= {})[path] = newest.last
    internals.seen[path] = newest.count
  } else {
    current.del()
    if (internals.since) delete internals.since[path]
    delete internals.seen[path]
  }
  const all = (state.content.past_values ??= {})
  if (windows.length) all[path] = windows
  else delete all[path]
  if (!Object.keys(all).length) delete state.content.past_values
}

/**
 * After the limits dropped past values of a path that its statements still hold (the byte limit, or a limit lowered
 * since they were kept), the statements follow: those of the newest window dropped and all older go, and the past
 * values older than it too (each told to `dropped`), so the next merge does not build them again.
 */
export function followDroppedPast(
  state: ProfileState,
  pastLimit: number,
  dropped: (path: ScalarPath, value: string | number) => void,
): void {
  const all = state.internals.statements
  if (!all) return
  const key = keyer({})
  for (const path of Object.keys(all) as ScalarPath[]) {
    const log = usable(all[path], key)
    if (!log) {
      delete all[path]
      continue
    }
    all[path] = log
    const windowKey = (window: PastValue) => `${window.from}\u0000${String(window.value)}`
    const kept = new Set((state.content.past_values?.[path] ?? []).map(windowKey))
    const gone = pastWindows(log, runsOf(log, key))
      .slice(0, Math.max(0, pastLimit))
      .find((window) => !kept.has(windowKey(window)))
    if (!gone) continue
    let through = log.said.length - 1
    while (through >= 0 && ms(log.said[through]![0]) > ms(gone.last_said)) through--
    letGo(log, through)
    compact(log)
    const list = state.content.past_values?.[path]
    if (!list) continue
    const left = list.filter((window) => ms(window.from) > ms(gone.last_said))
    for (const window of list) if (!left.includes(window)) dropped(path, window.value)
    if (left.length) state.content.past_values![path] = left
    else delete state.content.past_values![path]
    if (!Object.keys(state.content.past_values!).length) delete state.content.past_values
  }
}

/**
 * Mood: `recent` is the latest mood in event time (a scalar with its past values, like the others); `default` is the
 * most frequent mood so far, ties going to the most recent of the tied. Kept incrementally: the mood just seen becomes
 * the default as soon as its count reaches the current default's count, unless a later mood was said already.
 */
export function applyMood(mood: Scored<string>, clock: ScalarClock): void {
  const { state } = clock
  const trends = state.content.personality.mood_trends
  const counts = state.internals.mood_counts
  const path: ScalarPath = 'personality.mood_trends.recent'
  const older = saidSince(clock, path, clock.at ?? clock.now)
  say(clock, path, mood)
  const key = normaliseValue(mood.value)
  counts[key] = (hasOwn(counts, key) ? counts[key] : 0) + 1
  const defaultKey = trends.default ? normaliseValue(trends.default.value) : undefined
  const defaultCount = defaultKey !== undefined && hasOwn(counts, defaultKey) ? counts[defaultKey] : 0
  const winner =
    !trends.default || counts[key] > defaultCount || (!older && counts[key] >= defaultCount)
      ? mood.value
      : trends.default.value
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
  trends.default = { value: winner, confidence: clampConfidence(counts[normaliseValue(winner)] / total) }
}

/**
 * Removes a scalar's past values whose key (`keyOf`, as a forget compares values) is `key`; returns them. The
 * statements of the value keep only their times: the timeline keeps a gap where it was (and, when it was the current
 * value, none stands until a value is said after it).
 */
export function removePastValues(
  state: ProfileState,
  path: ScalarPath,
  key: string,
  keyOf: (value: string | number) => string,
): PastValue[] {
  forgetStatements(state, path, key, keyOf)
  const all = state.content.past_values
  const list = all?.[path]
  if (!all || !list) return []
  const gone = list.filter((window) => keyOf(window.value) === key)
  if (!gone.length) return []
  all[path] = list.filter((window) => keyOf(window.value) !== key)
  if (all[path]?.length === 0) delete all[path]
  if (!Object.keys(all).length) delete state.content.past_values
  return gone
}

/** A forgotten value's statements keep only their times; nothing the log keeps names it any more. */
function forgetStatements(
  state: ProfileState,
  path: ScalarPath,
  key: string,
  keyOf: (value: string | number) => string,
): void {
  const all = state.internals.statements
  const order = keyer({})
  const log = all && hasOwn(all, path) ? usable(all[path], order) : undefined
  if (!all || !log) return
  const forgotten = log.said.map(
    ([at, confidence, index]): Statement =>
      index !== FORGOTTEN && keyOf(log.values[index]!) === key ? [at, FORGOTTEN, FORGOTTEN] : [at, confidence, index],
  )
  const rebuilt: StatementLog = { said: [], values: [...log.values] }
  for (const statement of forgotten)
    addStatement(rebuilt, statement[0], statement[1], statedValue(rebuilt, statement), order)
  compact(rebuilt)
  if (log.before)
    rebuilt.before =
      log.before[1] !== null && keyOf(log.before[1]) === key ? [log.before[0], null, FORGOTTEN] : log.before
  all[path] = rebuilt
}

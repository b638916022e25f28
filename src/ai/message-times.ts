// Conversations whose messages carry timestamps (docs/guides/submitting-data.md "Event time"): each value takes the
// time of the message it came from. Such a conversation is read in parts, one per run of the person's turns said at
// one time (or, for a provider that reads whole dates, on one day), each with the partner's turn it answers and its own
// reference date; the submission's extraction holds what each part said, with its time, as `parts`
// (src/domain/profile.ts), which the merge takes as said then. Pure, but for the extractor it wraps.
import { parseEventTime } from '../domain/event-time.js'
import type { CustomValues } from '../domain/custom-schema.js'
import type { Extraction, TimedExtraction } from '../domain/profile.js'
import {
  ConversationFormatError,
  NOT_TURNS,
  parseConversation,
  sameSpeaker,
  type ParsedConversation,
} from './conversation.js'
import type { ExtractionInput, Extractor, ExtractResult } from './types.js'

/** How finely a conversation is cut: at every change of a message's time, or of its (UTC) day. */
export type MessageTimeGrain = 'message' | 'day'

/** A run of the person's turns said at one time: the conversation of those turns, and that time (ISO 8601). */
export interface TimedSegment {
  at: string
  data: string
}

/**
 * A message's time: its timestamp as POST checked it, at most `receivedAt` (a sender's clock running ahead within the
 * allowed skew dates nothing after its arrival); the submission's time when it has none.
 */
export function messageTime(raw: unknown, fallbackAt: string, receivedAt: number): string {
  if (raw === undefined || raw === null) return fallbackAt
  const parsed = parseEventTime(raw, receivedAt)
  if (!('iso' in parsed)) return fallbackAt
  return Date.parse(parsed.iso) > receivedAt ? new Date(receivedAt).toISOString() : parsed.iso
}

/**
 * The conversation cut into the runs of the person's turns said at one time (`grain` 'day': on one UTC day, dated by
 * the latest of them), each a JSON conversation of those turns and the partner's turn each answers; null when every
 * turn of the person was said at the submission's own time (`fallbackAt`), or it is no conversation.
 */
export function timedSegments(
  data: string,
  fallbackAt: string,
  receivedAt: number,
  grain: MessageTimeGrain,
): TimedSegment[] | null {
  let conversation: ParsedConversation
  try {
    conversation = parseConversation(data)
  } catch (error) {
    if (error instanceof ConversationFormatError) return null
    throw error
  }
  const { speaker: subject, turns, timestamps } = conversation
  if (subject === null || !timestamps?.length) return null
  const stamps = new Map(timestamps.map((stamp) => [stamp.index, stamp.value]))
  const segments: (TimedSegment & { grainKey: string; messages: { role: string; content: string }[] })[] = []
  let timed = false
  turns.forEach((turn, index) => {
    if (!turn.text.trim() || !sameSpeaker(turn.speaker, subject)) return
    const at = messageTime(stamps.get(index), fallbackAt, receivedAt)
    if (at !== fallbackAt) timed = true
    const grainKey = grain === 'day' ? at.slice(0, 10) : at
    let segment = segments[segments.length - 1]
    if (!segment || segment.grainKey !== grainKey) segments.push((segment = { at, data: '', grainKey, messages: [] }))
    else if (at > segment.at) segment.at = at
    const before = turns[index - 1]
    if (before?.text.trim() && !sameSpeaker(before.speaker, subject) && !NOT_TURNS.has(before.speaker)) {
      segment.messages.push({ role: before.speaker, content: before.text })
    }
    segment.messages.push({ role: turn.speaker, content: turn.text })
  })
  if (!timed) return null
  return segments.map((segment) => ({ at: segment.at, data: JSON.stringify(segment.messages) }))
}

/**
 * One submission's extraction from its parts: each part's values with its time; the language the most parts were
 * written in (ties: the latest); custom values (which keep no time) together, a later part's scalar over an earlier's.
 */
export function timedExtraction(parts: Extraction[], times: string[]): Extraction {
  const order = parts.map((_, i) => i).sort((a, b) => Date.parse(times[a]!) - Date.parse(times[b]!) || a - b)
  const out: Extraction = {}
  const timed: TimedExtraction[] = []
  const languages = new Map<string, { count: number; last: number }>()
  let custom: CustomValues | undefined
  for (const [rank, i] of order.entries()) {
    const { language, custom: partCustom, parts: _nested, ...values } = parts[i] ?? {}
    if (typeof language === 'string')
      languages.set(language, { count: (languages.get(language)?.count ?? 0) + 1, last: rank })
    if (partCustom && typeof partCustom === 'object') custom = withCustom(custom, partCustom)
    if (Object.keys(values).length) timed.push({ ...values, at: times[i]! })
  }
  const language = [...languages].sort((a, b) => b[1].count - a[1].count || b[1].last - a[1].last)[0]?.[0]
  if (language !== undefined) out.language = language
  if (custom) out.custom = custom
  if (timed.length) out.parts = timed
  return out
}

/** Custom values of a later part over an earlier part's: a scalar replaces, a list adds its entries. */
function withCustom(into: CustomValues | undefined, from: CustomValues): CustomValues {
  const out: CustomValues = { ...into }
  for (const [section, fields] of Object.entries(from)) {
    if (!fields || typeof fields !== 'object') continue
    const target = { ...out[section] }
    for (const [field, value] of Object.entries(fields)) {
      const had = target[field]
      target[field] = Array.isArray(value) && Array.isArray(had) ? [...had, ...value] : value
    }
    out[section] = target
  }
  return out
}

/**
 * An extractor that reads a conversation with timestamped messages in its timed parts (timedSegments), all in one call
 * of the extractor it wraps, and gives each submission one extraction with its `parts`.
 */
export function byMessageTime(inner: Extractor, grain: MessageTimeGrain): Extractor {
  return {
    name: inner.name,
    async extract(req, signal) {
      const plan = req.submissions.map((submission) => segmentsOf(submission, grain))
      if (plan.every((segments) => segments === null)) return inner.extract(req, signal)
      const inputs = req.submissions.flatMap(
        (submission, i) =>
          plan[i]?.map(
            (segment): ExtractionInput => ({ ...submission, data: segment.data, referenceDate: segment.at }),
          ) ?? [submission],
      )
      return regroup(plan, await inner.extract({ ...req, submissions: inputs }, signal))
    },
  }
}

/** A submission's timed parts (timedSegments), dated at most at its arrival; null when it is read whole. */
function segmentsOf(submission: ExtractionInput, grain: MessageTimeGrain): TimedSegment[] | null {
  if (submission.inputType !== 'conversation') return null
  const received = submission.receivedAt !== undefined ? Date.parse(submission.receivedAt) : Number.NaN
  const now = Number.isNaN(received) ? Date.now() : received
  const reference = submission.referenceDate ? Date.parse(submission.referenceDate) : Number.NaN
  const fallbackAt = new Date(Number.isNaN(reference) ? now : reference).toISOString()
  return timedSegments(submission.data, fallbackAt, now, grain)
}

/** The wrapped extractor's answer, one extraction (and quote record) per submission again. */
function regroup(plan: (TimedSegment[] | null)[], res: ExtractResult): ExtractResult {
  const extractions: Extraction[] = []
  const evidence: Record<string, string>[] | undefined = res.evidence ? [] : undefined
  let start = 0
  for (const segments of plan) {
    const count = segments?.length ?? 1
    const parts = res.extractions.slice(start, start + count)
    extractions.push(
      segments
        ? timedExtraction(
            parts,
            segments.map((segment) => segment.at),
          )
        : parts[0]!,
    )
    evidence?.push(Object.assign({}, ...res.evidence!.slice(start, start + count)))
    start += count
  }
  // A submission whose part failed fails whole, once.
  const failed = res.failed?.filter(
    (unfit, i, all) => all.findIndex((other) => other.submissionId === unfit.submissionId) === i,
  )
  return { ...res, extractions, ...(evidence ? { evidence } : {}), ...(failed ? { failed } : {}) }
}

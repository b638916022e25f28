// A submission's evidence passages (README "Evidence passages"): the person's turns with the question each answers, or
// windows of whole sentences of a text. Pure.
import { chunk } from './local/text.js'
import { NOT_TURNS, parseConversation, sameSpeaker as same, type ParsedConversation } from './conversation.js'
import { parseEventTime } from '../domain/event-time.js'
import type { InputType } from '../domain/profile.js'
import {
  PASSAGE_MAX_CHARS,
  PASSAGE_PROMPT_MAX_CHARS,
  TEXT_WINDOW_CHARS,
  type PassageDraft,
  type PassageLimits,
} from '../domain/passages.js'

interface Unit {
  prompt: string | null
  text: string
  at: string
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`)

/** Sentences of a text (line breaks and sentence ends), each at most PASSAGE_MAX_CHARS. */
function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?…])\s+/)
    .map(oneLine)
    .filter((s) => s.length > 0)
    .flatMap((s) => chunk(s, PASSAGE_MAX_CHARS))
}

/** Consecutive units packed into passages of about `target` characters (never over PASSAGE_MAX_CHARS). */
function pack(units: Unit[], target: number, joiner: string): Unit[] {
  const out: Unit[] = []
  let cur: Unit | undefined
  for (const u of units) {
    if (cur && cur.text.length + joiner.length + u.text.length <= Math.min(target, PASSAGE_MAX_CHARS)) {
      cur.text += joiner + u.text
      if (u.at > cur.at) cur.at = u.at
      continue
    }
    if (cur) out.push(cur)
    cur = { ...u }
  }
  if (cur) out.push(cur)
  return out
}

/**
 * The units packed so that at most `max` passages remain: the window grows with the text (a 100 KB text with the
 * default 200 passages gets windows of about 500 characters). What still does not fit (only possible when single
 * units are near PASSAGE_MAX_CHARS) is dropped and counted.
 */
function bounded(units: Unit[], minTarget: number, max: number, joiner: string): { units: Unit[]; dropped: number } {
  const total = units.reduce((n, u) => n + u.text.length + joiner.length, 0)
  let target = Math.max(minTarget, Math.ceil(total / max))
  let packed = pack(units, target, joiner)
  // Packing leaves gaps at unit edges; widen the window until the count fits or the window is at its cap.
  while (packed.length > max && target < PASSAGE_MAX_CHARS) {
    target = Math.min(PASSAGE_MAX_CHARS, Math.ceil(target * 1.25))
    packed = pack(units, target, joiner)
  }
  return { units: packed.slice(0, max), dropped: Math.max(0, packed.length - max) }
}

function conversationUnits(c: ParsedConversation, fallbackAt: string, now: number): Unit[] {
  const subject = c.speaker
  if (subject === null) return []
  const times = new Map<number, string>()
  for (const t of c.timestamps ?? []) {
    const r = parseEventTime(t.value, now)
    if ('iso' in r) times.set(t.index, r.iso)
  }
  const units: Unit[] = []
  c.turns.forEach((t, i) => {
    const text = oneLine(t.text)
    if (!text || !same(t.speaker, subject)) return
    const before = c.turns[i - 1]
    const prompt =
      before && !same(before.speaker, subject) && !NOT_TURNS.has(before.speaker) ? oneLine(before.text) : ''
    const at = times.get(i) ?? fallbackAt
    // A long turn becomes several passages; the question it answers goes with the first.
    sentencesOrWhole(text).forEach((piece, k) =>
      units.push({ prompt: k === 0 && prompt ? cut(prompt, PASSAGE_PROMPT_MAX_CHARS) : null, text: piece, at }),
    )
  })
  return units
}

/** A turn as it is when it fits, else its sentences packed into windows. */
function sentencesOrWhole(text: string): string[] {
  if (text.length <= PASSAGE_MAX_CHARS) return [text]
  return pack(
    sentences(text).map((s) => ({ prompt: null, text: s, at: '' })),
    PASSAGE_MAX_CHARS,
    ' ',
  ).map((u) => u.text)
}

/**
 * A submission's passages: for a conversation, each of the profiled person's turns with the partner's turn it answers;
 * for a text, windows of whole sentences. Structured data leaves none (its values are their own evidence).
 * `occurredAt` is the submission's event time; `now` (ms) checks message timestamps as the API did.
 */
export function buildPassages(
  s: { input_type: InputType; data: string; occurredAt: string },
  limits: Pick<PassageLimits, 'perSubmission'>,
  now: number = Date.now(),
): { passages: PassageDraft[]; dropped: number } {
  if (s.input_type === 'structured' || limits.perSubmission <= 0) return { passages: [], dropped: 0 }
  let units: Unit[]
  let speaker: string | null = null
  let minTarget = TEXT_WINDOW_CHARS
  if (s.input_type === 'conversation') {
    let c: ParsedConversation
    try {
      c = parseConversation(s.data)
    } catch {
      return { passages: [], dropped: 0 }
    }
    speaker = c.speaker
    units = conversationUnits(c, s.occurredAt, now)
    // One turn, one passage, unless the conversation has more turns than passages allowed.
    minTarget = 0
  } else {
    units = sentences(s.data).map((text) => ({ prompt: null, text, at: s.occurredAt }))
  }
  const b = bounded(units, minTarget, limits.perSubmission, s.input_type === 'conversation' ? ' … ' : ' ')
  return {
    passages: b.units.map((u, position) => ({ position, speaker, prompt: u.prompt, text: u.text, occurredAt: u.at })),
    dropped: b.dropped,
  }
}

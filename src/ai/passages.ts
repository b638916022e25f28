// A submission's evidence passages (docs/guides/evidence.md): the person's turns with the question each answers, or
// windows of whole sentences of a text. Pure.
import { chunk } from './local/text.js'
import { NOT_TURNS, parseConversation, sameSpeaker as same, type ParsedConversation } from './conversation.js'
import { messageTime } from './message-times.js'
import { withoutInvisible } from '../domain/invisible.js'
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

/** What joins the turns packed into one passage. */
const TURN_JOINER = ' … '

/** White space as single spaces; a space that is one already is left alone (replacing each costs ten times as much). */
const oneLine = (s: string) => s.replace(/\s\s+|[^\S ]/g, ' ').trim()
/** What a passage keeps of a turn: its visible characters (no bidi controls, src/domain/invisible.ts) on one line. */
const visibleLine = (s: string) => oneLine(withoutInvisible(s))
const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`)

/** Sentences of a text (line breaks and sentence ends), each at most PASSAGE_MAX_CHARS. */
function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?…])\s+/)
    .map(oneLine)
    .filter((s) => s.length > 0)
    .flatMap((s) => chunk(s, PASSAGE_MAX_CHARS))
}

/** The UTC day of a unit's time: a passage never joins turns of different days (it carries one date). */
const dayOf = (at: string) => at.slice(0, 10)

/**
 * Consecutive units of one day packed into passages of about `target` characters (never over PASSAGE_MAX_CHARS); a
 * passage takes the time of its latest unit.
 */
function pack(units: Unit[], target: number, joiner: string): Unit[] {
  const out: Unit[] = []
  let cur: Unit | undefined
  for (const u of units) {
    if (
      cur &&
      dayOf(cur.at) === dayOf(u.at) &&
      cur.text.length + joiner.length + u.text.length <= Math.min(target, PASSAGE_MAX_CHARS)
    ) {
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
 * default 200 passages gets windows of about 500 characters). What still does not fit (single units near
 * PASSAGE_MAX_CHARS, or turns of more days than `max`) is dropped and counted.
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

function conversationUnits(conversation: ParsedConversation, fallbackAt: string, now: number): Unit[] {
  const subject = conversation.speaker
  if (subject === null) return []
  const times = new Map<number, string>()
  for (const t of conversation.timestamps ?? []) times.set(t.index, messageTime(t.value, fallbackAt, now))
  const units: Unit[] = []
  conversation.turns.forEach((turn, index) => {
    const text = visibleLine(turn.text)
    if (!text || !same(turn.speaker, subject)) return
    const before = conversation.turns[index - 1]
    const answers = before && !same(before.speaker, subject) && !NOT_TURNS.has(before.speaker)
    const prompt = answers ? visibleLine(before.text) : ''
    const at = times.get(index) ?? fallbackAt
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
 * `occurredAt` is the submission's event time; `now` (ms), when it was received: message timestamps are checked as the
 * API did, and none is later.
 */
export function buildPassages(
  submission: { input_type: InputType; data: string; occurredAt: string },
  limits: Pick<PassageLimits, 'perSubmission'>,
  now: number = Date.now(),
): { passages: PassageDraft[]; dropped: number } {
  if (submission.input_type === 'structured' || limits.perSubmission <= 0) return { passages: [], dropped: 0 }
  let units: Unit[]
  let speaker: string | null = null
  let minTarget = TEXT_WINDOW_CHARS
  if (submission.input_type === 'conversation') {
    let conversation: ParsedConversation
    try {
      conversation = parseConversation(submission.data)
    } catch {
      return { passages: [], dropped: 0 }
    }
    speaker = conversation.speaker
    units = conversationUnits(conversation, submission.occurredAt, now)
    // One turn, one passage, unless the conversation has more turns than passages allowed.
    minTarget = 0
  } else {
    units = sentences(withoutInvisible(submission.data)).map((text) => ({
      prompt: null,
      text,
      at: submission.occurredAt,
    }))
  }
  const packed = bounded(
    units,
    minTarget,
    limits.perSubmission,
    submission.input_type === 'conversation' ? TURN_JOINER : ' ',
  )
  return {
    passages: packed.units.map((u, position) => ({
      position,
      speaker,
      prompt: u.prompt,
      text: u.text,
      occurredAt: u.at,
    })),
    dropped: packed.dropped,
  }
}

/**
 * A submission's text as what its passages may say (an import checks each passage against it): for a conversation, the
 * profiled person's label, their turns (what a passage's words come from) and every turn (what its prompt comes from);
 * for a text, the text. Each turn on one line with its invisible characters left out, as buildPassages reads it; turns
 * apart by line breaks, so that nothing a passage says can span two of them. Null when the submission leaves no
 * passages (structured data, or no turn of the person).
 */
export interface PassageSource {
  /** The profiled person's label in a conversation; null for a text. */
  speaker: string | null
  /** The person's turns (a conversation) or the text, one line each. */
  words: string
  /** Every turn of a conversation (not instructions or tool output), one line each; empty for a text. */
  turns: string
}

export function passageSource(inputType: InputType, data: string): PassageSource | null {
  if (inputType === 'structured') return null
  if (inputType === 'text') return { speaker: null, words: visibleLine(data), turns: '' }
  let conversation: ParsedConversation
  try {
    conversation = parseConversation(data)
  } catch {
    return null
  }
  if (conversation.speaker === null) return null
  const words: string[] = []
  const turns: string[] = []
  for (const t of conversation.turns) {
    const line = visibleLine(t.text)
    if (!line || NOT_TURNS.has(t.speaker)) continue
    turns.push(line)
    if (same(t.speaker, conversation.speaker)) words.push(line)
  }
  return { speaker: conversation.speaker, words: words.join('\n'), turns: turns.join('\n') }
}

/** A passage as an import stores it: words and prompt on one line, no invisible character in them or the speaker. */
export function visiblePassage<P extends { speaker: string | null; prompt: string | null; text: string }>(
  passage: P,
): P {
  const speaker = passage.speaker === null ? null : withoutInvisible(passage.speaker).trim()
  const prompt = passage.prompt === null ? null : visibleLine(passage.prompt)
  return { ...passage, speaker: speaker || null, prompt: prompt || null, text: visibleLine(passage.text) }
}

/**
 * Why a passage (as visiblePassage gives it) is not one its submission's text can leave, or null: its speaker is not
 * the person's label (none for a text); its words, read as the parts a packed passage joins with " … ", are not found
 * one after another in the person's turns (or the text); its prompt, less the "…" that marks it cut, is not in a turn.
 * Each part is looked for from where the one before it ended, so the check reads the source at most once per passage.
 */
export function passageMismatch(
  source: PassageSource,
  passage: { speaker: string | null; prompt: string | null; text: string },
): string | null {
  if (passage.speaker !== source.speaker) {
    return source.speaker === null
      ? 'speaker: must be null: its submission is a text'
      : `speaker: must be ${JSON.stringify(source.speaker)}, the person's label in its submission's conversation`
  }
  if (passage.prompt !== null) {
    if (source.speaker === null) return 'prompt: must be null: its submission is a text'
    const said = passage.prompt.replace(/…$/, '').trimEnd()
    if (!source.turns.includes(said)) return "prompt: is not a turn of its submission's conversation"
  }
  let at = 0
  for (const part of passage.text.split(TURN_JOINER)) {
    const start = source.words.indexOf(part, at)
    if (start < 0) {
      return source.speaker === null
        ? "text: is not in its submission's text"
        : "text: is not in the person's turns of its submission's conversation"
    }
    at = start + part.length
  }
  return null
}

// Conversation transcripts (docs/guides/submitting-data.md): either lines "Speaker: utterance" (lines without a prefix
// continue the previous turn), or a JSON array of {"role", "content"} messages. The profiled person is role "user" in
// the JSON form, or in the line form the first speaker who is not an assistant ("Assistant:", "Bot:", "AI:", "Agent:",
// ...). Only their turns are evidence; the turn of the partner they answer is context ("Do you like jazz?" / "Yes, a
// lot.").

import { laterTime, parseEventTime } from '../domain/event-time.js'
import { withoutInvisible } from '../domain/invisible.js'
import { termsOf } from './local/nlp.js'

export interface Turn {
  speaker: string
  text: string
}

export interface ParsedConversation {
  /** The profiled person: "user" in the JSON form, the first speaker in the line form. */
  speaker: string | null
  turns: Turn[]
  /** The JSON form: each message's "timestamp" as given (when it has one), by message index; unchecked. */
  timestamps?: { index: number; value: unknown }[]
}

/** The data is not a conversation in either accepted form. */
export class ConversationFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConversationFormatError'
  }
}

const SUBJECT_ROLES = new Set(['user', 'human'])

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content
  // OpenAI-style content parts: [{type: "text", text: "..."}]
  if (Array.isArray(content)) {
    const parts = content.map((p) =>
      typeof p === 'string'
        ? p
        : p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
          ? (p as { text: string }).text
          : undefined,
    )
    if (parts.every((p) => p !== undefined)) return parts.join('\n')
  }
  return undefined
}

function parseJson(messages: unknown[]): ParsedConversation {
  if (messages.length === 0) throw new ConversationFormatError('data: the conversation has no messages')
  const turns: Turn[] = []
  let timestamps: ParsedConversation['timestamps']
  messages.forEach((message, index) => {
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      throw new ConversationFormatError(`data: message ${index} must be an object with "role" and "content"`)
    }
    const { role, content } = message as { role?: unknown; content?: unknown }
    if (typeof role !== 'string' || !role.trim()) {
      throw new ConversationFormatError(`data: message ${index} has no string "role"`)
    }
    const text = content === null || content === undefined ? '' : contentText(content)
    if (text === undefined) throw new ConversationFormatError(`data: message ${index} has no string "content"`)
    turns.push({ speaker: withoutInvisible(role).trim().toLowerCase(), text })
    const timestamp = (message as { timestamp?: unknown }).timestamp
    if (timestamp !== undefined && timestamp !== null) (timestamps ??= []).push({ index, value: timestamp })
  })
  const subject = turns.find((t) => SUBJECT_ROLES.has(t.speaker))?.speaker ?? null
  return { speaker: subject, turns, ...(timestamps ? { timestamps } : {}) }
}

// "Alice: hi", "[10:02] Bob: hello", "**Dr. Smith**: ...", "- User: ..."
const LINE = new RegExp(
  String.raw`^\s*(?:[-*>]\s+)?` +
    String.raw`(?:\[[^\]]{1,40}\]\s*|\(?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]m)?\)?\s*[-–]?\s*)?` +
    String.raw`\**([^:\n]{1,40}?)\**\s*:\s?(.*)$`,
  'i',
)

/** A line's speaker label, or none; invisible characters left out (a bidi control makes a label read as another). */
function speakerLabel(raw: string): string | undefined {
  const label = withoutInvisible(raw).replace(/\*+/g, '').trim()
  if (!label || label.split(/\s+/).length > 4) return undefined
  if (!/^[\p{L}]/u.test(label)) return undefined
  if (/[.?!,;"]$/.test(label) || /[?!;"]/.test(label)) return undefined
  if (/^(?:https?|ftp|mailto|note|ps|p\.s|re|fw|fwd|tip|warning|edit|update|example|eg|ie)$/i.test(label))
    return undefined
  return label
}

function parseLines(data: string): ParsedConversation {
  const turns: Turn[] = []
  for (const line of data.split(/\r?\n/)) {
    const match = LINE.exec(line)
    // "at 10:30 we met" is no speaker: a label ending in a digit followed by digits is a time
    const label = match && !(/\d$/.test(match[1]) && /^\d/.test(match[2])) ? speakerLabel(match[1]) : undefined
    if (match && label) {
      turns.push({ speaker: label, text: match[2].trim() })
    } else if (turns.length && line.trim()) {
      const last = turns[turns.length - 1]
      last.text = last.text ? `${last.text}\n${line.trim()}` : line.trim()
    }
    // lines before the first "Speaker:" line (a title, a blank line) are ignored
  }
  if (!turns.length) {
    throw new ConversationFormatError(
      'data: not a recognisable conversation; expected lines "Speaker: utterance" or a JSON array of ' +
        '{"role", "content"} messages',
    )
  }
  return { speaker: turns.find((t) => !isAssistantLabel(t.speaker))?.speaker ?? null, turns }
}

/**
 * Labels that name the machine side of a transcript, never the profiled person: "Assistant", "AI", "Bot", "Chatbot",
 * "Agent", "System", "Model", the common assistants' names, and any label ending in "bot" or "assistant" ("HelpBot",
 * "AI Assistant", "Support Agent").
 */
const ASSISTANT_NAME = new RegExp(
  String.raw`^(?:the\s+)?(?:ai|a\.i\.|assistant|bot|chat\s*bot|agent|system|model|llm|gpt|chatgpt|gpt-?\d[\w.-]*|` +
    'claude|gemini|copilot|bard|siri|alexa|cortana)$',
  'i',
)
/** "AI Assistant", "Support Agent", "help-bot", "Support_Bot"; not "Talbot" or "Abbot". */
const ASSISTANT_WORD = /(?:^|[\s_-])(?:bot|assistant|agent)$/i
/** "HelpBot", "ShopAssistant". */
const ASSISTANT_CAMEL = /[a-z](?:Bot|Assistant)$/

export function isAssistantLabel(label: string): boolean {
  const trimmed = label.trim()
  return ASSISTANT_NAME.test(trimmed) || ASSISTANT_WORD.test(trimmed) || ASSISTANT_CAMEL.test(trimmed)
}

/**
 * Labels that name a part in a transcript, not a person: "User", "Me", "Customer", "Patient", "Speaker A". A label that
 * is none of these (nor an assistant's, nor holds a digit, nor is one letter) is taken to be what the person is called
 * when it reads as a name (readsAsName).
 */
const ROLE_WORDS = (
  'user human me i you myself self customer client patient guest visitor caller speaker person subject narrator ' +
  'interviewee interviewer respondent participant member student teacher employee candidate applicant host ' +
  'moderator operator support staff admin owner buyer seller friend partner other unknown anonymous anon'
).split(' ')
const ROLE_LABEL = new RegExp(String.raw`^(?:the\s+)?(?:${ROLE_WORDS.join('|')})(?:\s+[a-z])?$`, 'i')

/** A title before a name ("Dr. Lee", "Ms Moreau"). */
const HONORIFIC = /^(?:dr|mr|mrs|ms|mx|miss|prof|sir|dame|rev|fr)\.?$/i
/** Lower-case words inside a name ("Ludwig van Beethoven", "Leonardo da Vinci", "Jean de La Fontaine"). */
const PARTICLES = new Set(
  'van von der den de da di del della des du dos das do le la al el bin ibn ben ter ten zu y'.split(' '),
)
/**
 * A word as a name is written: capitalised ("Ana", "O'Brien", "Jean-Luc", "McAdams", "J."), or in a script without
 * case ("王伟", "محمد").
 */
const NAME_WORD =
  /^(?:[\p{Lu}\p{Lt}][\p{L}\p{M}]*(?:['’.-][\p{L}\p{M}]+)*\.?|[\p{Lo}\p{M}]+(?:[-·・][\p{Lo}\p{M}]+)*)$/u
/** At most this many words of a name (a title and lower-case particles not counted). */
const NAME_MAX_WORDS = 3
/** compromise's tags of a person's name. */
const PERSON_TAGS = new Set(['Person', 'FirstName', 'LastName', 'MaleName', 'FemaleName', 'Honorific'])
/**
 * Tags of the words a command or a sentence is made of and a name is not: verbs (except an -ing form, which is no
 * command, and which compromise guesses for names such as "Xiaoling"), pronouns, determiners, prepositions,
 * conjunctions, adverbs, question words, interjections ("Please", "Yes"), negations.
 */
const COMMAND_TAGS = [
  'Verb',
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'Adverb',
  'QuestionWord',
  'Expression',
  'Possessive',
  'Negative',
  'Modal',
  'Auxiliary',
  'Copula',
]
/** Of those, the closed classes, looked for in the label in lower case too, with verbs. */
const FUNCTION_TAGS = [
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'QuestionWord',
  'Possessive',
  'Negative',
  'Auxiliary',
  'Copula',
]

const isPerson = (tags: readonly string[]) => tags.some((t) => PERSON_TAGS.has(t))

/**
 * Whether a label reads as a person's name: one to three words written as a name is ("Caroline", "Dr. Lee", "Mary Jane
 * Watson", "Ludwig van Beethoven", "王伟"; a word in lower case only when it is a known first or last name), none of
 * them a verb, pronoun, article, preposition or other word of a sentence unless compromise reads it as part of a name
 * ("Will Smith"). So "Ignore All Previous Instructions", "Tell Me Everything" or "Act As Root" are no name, and a
 * context never says one as whom it is about. The vocabulary is English: a label in another language is judged by
 * its shape alone.
 */
export function readsAsName(label: string): boolean {
  const words = label.split(/\s+/).filter((w) => w !== '')
  let named = 0
  for (const [i, w] of words.entries()) {
    if (i === 0 && words.length > 1 && HONORIFIC.test(w)) continue
    if (i > 0 && i < words.length - 1 && PARTICLES.has(w)) continue
    if (!NAME_WORD.test(w)) {
      const terms = termsOf(w)
      if (!terms.length || !terms.every((t) => isPerson(t.tags))) return false
    }
    if (++named > NAME_MAX_WORDS) return false
  }
  if (named === 0) return false
  const lower = new Map(termsOf(label.toLowerCase()).map((t) => [t.text, t.tags]))
  for (const t of termsOf(label)) {
    // A part of a hyphenated name ("Ji-woo") may be any word.
    if (isPerson(t.tags) || PARTICLES.has(t.text) || t.tags.includes('Hyphenated')) continue
    if (!t.tags.includes('Gerund') && t.tags.some((x) => COMMAND_TAGS.includes(x))) return false
    // In lower case: "Hereby Forget", "Roleplay As Admin" (title case makes compromise read nouns).
    const low = lower.get(t.text) ?? []
    if (low.some((x) => FUNCTION_TAGS.includes(x) || (x === 'Verb' && !low.includes('Gerund')))) return false
  }
  return true
}

/**
 * The label of a person's turns when it reads as what they are called ("Caroline", "Dr. Lee"; readsAsName), else
 * null: not the label of a part ("User", "Customer"), an assistant's, one with a digit or of one letter.
 */
export function nameLabel(label: string | null | undefined): string | null {
  const trimmed = label?.trim() ?? ''
  if (
    trimmed.length < 2 ||
    /\d/.test(trimmed) ||
    ROLE_LABEL.test(trimmed) ||
    isAssistantLabel(trimmed) ||
    !readsAsName(trimmed)
  )
    return null
  return trimmed
}

/**
 * Speaker labels compared ignoring case: one collator (localeCompare with options builds one per call, ~10 µs each).
 */
const LABELS = new Intl.Collator(undefined, { sensitivity: 'accent' })
export const sameSpeaker = (a: string, b: string) => a === b || LABELS.compare(a, b) === 0
const same = sameSpeaker

/** Parses a transcript; throws ConversationFormatError when it has no recognisable turns. */
export function parseConversation(data: string): ParsedConversation {
  const trimmed = data.trim()
  if (!trimmed) throw new ConversationFormatError('data: the conversation is empty')
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: unknown
    let isJson = true
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      isJson = false // e.g. "[10:02] Alice: hi" is the line form
    }
    if (isJson) {
      if (Array.isArray(parsed)) return parseJson(parsed)
      const messages = parsed && typeof parsed === 'object' ? (parsed as { messages?: unknown }).messages : undefined
      if (Array.isArray(messages)) return parseJson(messages)
      throw new ConversationFormatError('data: a JSON conversation must be an array of {"role", "content"} messages')
    }
    if (trimmed.startsWith('{'))
      throw new ConversationFormatError('data: a JSON conversation must be an array of {"role", "content"} messages')
  }
  return parseLines(trimmed)
}

/** The profiled person's turns (their text only), in order. */
export function subjectTurns(data: string): string[] {
  return turnsOf(parseConversation(data))
}

/** The profiled person's turns of a parsed conversation, each turn's text. */
export function turnsOf(conversation: ParsedConversation): string[] {
  if (conversation.speaker === null) return []
  const subject = conversation.speaker
  return conversation.turns
    .filter((t) => same(t.speaker, subject))
    .map((t) => t.text)
    .filter((t) => t.trim().length > 0)
}

/** Roles of the JSON form that are instructions or machinery, not a turn of the conversation. */
export const NOT_TURNS: ReadonlySet<string> = new Set(['system', 'developer', 'tool', 'function'])

/**
 * The conversation as a model should read it: every turn as "speaker: text" with the speakers' own labels, the
 * profiled person's turns whole and the others' cut to `partnerChars` (they are context: the question a "yes"
 * answers), instructions and tool output left out. `subject` is the profiled person's label; null when the
 * conversation has no turn of theirs. Throws ConversationFormatError when it is not a conversation.
 */
export function transcript(data: string, partnerChars = 300): { subject: string | null; text: string } {
  const conversation = parseConversation(data)
  if (conversation.speaker === null) return { subject: null, text: '' }
  const subject = conversation.speaker
  const lines: string[] = []
  for (const t of conversation.turns) {
    const text = t.text.trim()
    if (!text || NOT_TURNS.has(t.speaker)) continue
    const own = same(t.speaker, subject)
    const body = own || text.length <= partnerChars ? text : `${text.slice(0, partnerChars).trimEnd()}…`
    lines.push(`${own ? subject : t.speaker}: ${body.replace(/\s*\n\s*/g, ' ')}`)
  }
  return { subject, text: lines.join('\n') }
}

/**
 * The profiled person's turns, each with the partner's turn just before it when there is one (the question it
 * answers): what a quote of evidence may come from.
 */
export function evidenceTurns(data: string): string[] {
  const conversation = parseConversation(data)
  if (conversation.speaker === null) return []
  const out: string[] = []
  conversation.turns.forEach((turn, index) => {
    if (!same(turn.speaker, conversation.speaker!) || !turn.text.trim()) return
    const before = conversation.turns[index - 1]
    if (before && !same(before.speaker, conversation.speaker!) && !NOT_TURNS.has(before.speaker)) out.push(before.text)
    out.push(turn.text)
  })
  return out
}

/** For the HTTP layer: an error message naming the problem, or null when the conversation is acceptable. */
export function validateConversation(data: string): string | null {
  return checkConversation(data, Date.now()).problem
}

/**
 * For the HTTP layer: the problem with the conversation (null when it is acceptable), and the latest of its messages'
 * timestamps (UTC ISO 8601) when they carry any. A timestamp is checked as `occurred_at` is (src/domain/event-time.ts):
 * a bad one is a problem naming the message. `now` is the service's clock (ms).
 */
export function checkConversation(data: string, now: number): { problem: string | null; latest?: string } {
  let conversation: ParsedConversation
  try {
    conversation = parseConversation(data)
  } catch (err) {
    if (err instanceof ConversationFormatError) return { problem: err.message }
    throw err
  }
  if (conversation.speaker === null) {
    return {
      problem:
        'data: the conversation has no turn of the profiled person (role "user" in the JSON form; in the line form, ' +
        'a speaker who is not an assistant such as "Assistant:", "Bot:" or "AI:")',
    }
  }
  let latest: string | undefined
  for (const t of conversation.timestamps ?? []) {
    const parsed = parseEventTime(t.value, now)
    if ('error' in parsed) return { problem: `data: message ${t.index} has an invalid "timestamp": it ${parsed.error}` }
    latest = laterTime(latest, parsed.iso)
  }
  return { problem: null, ...(latest ? { latest } : {}) }
}

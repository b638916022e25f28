// The chat task of the evaluation (docs/evaluation/quality.md, "Chat"): each Multi-Session Chat speaker's first two
// sessions posted as a chat app would, and how much of what that speaker revealed reaches the structured profile (its
// fields and memories), how much of the other speaker's facts lands in it, and how many of its memories and interests
// are fragments. The pure parts come first; `runChat` at the end posts through a backend and prints.
import crypto from 'node:crypto'
import nlp from 'compromise'
import { tokens } from '../src/domain/normalise.js'
import {
  conversationJson,
  covered,
  durationMs,
  personaFacts,
  sessionsOf,
  speakerTurns,
  textWords,
  type MscRecord,
  type PersonaFact,
  type Session,
} from './memory.js'

// ---------- the data ----------

/** The sessions posted: the first two. Their per-session personas are the gold; the third session is not used. */
export const CHAT_SESSIONS = 2

const isTextList = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string')
const isDialog = (dialog: unknown) =>
  Array.isArray(dialog) && dialog.every((turn) => typeof (turn as { text?: unknown } | null)?.text === 'string')

/** Why an earlier session cannot be used, or null: it needs its turns, a pair of persona lists and a valid time gap. */
function sessionProblem(session: MscRecord['previous_dialogs'][number] | undefined, position: number): string | null {
  if (!isDialog(session?.dialog)) return `session ${position} has no dialog`
  const personas = session!.personas
  if (!Array.isArray(personas) || personas.length !== 2 || !personas.every(isTextList))
    return `session ${position} has no pair of persona lists`
  try {
    durationMs(session!.time_num, session!.time_unit)
  } catch {
    return `session ${position} has no valid time (time_num, time_unit)`
  }
  return null
}

/**
 * Why a record cannot be used, or null: it needs an id (for the profile ids and the half), the current session (the
 * earlier ones are dated back from it), and at least two earlier sessions that sessionProblem accepts (a persona list
 * may be empty).
 */
export function chatProblem(record: unknown): string | null {
  const candidate = record as Partial<MscRecord> | null
  if (!candidate || typeof candidate !== 'object') return 'not an object'
  const id = candidate.metadata?.initial_data_id
  if (typeof id !== 'string' || !id) return 'no metadata.initial_data_id'
  if (!isDialog(candidate.dialog)) return 'no current session (dialog)'
  const previous = candidate.previous_dialogs
  if (!Array.isArray(previous) || previous.length < CHAT_SESSIONS)
    return `fewer than ${CHAT_SESSIONS} earlier sessions (previous_dialogs)`
  for (const [i, session] of previous.entries()) {
    const problem = sessionProblem(session, i + 1)
    if (problem) return problem
  }
  return null
}

/**
 * A speaker's gold: what the per-session summaries of sessions 1 and 2 say they revealed
 * (`previous_dialogs[0].personas[speaker]` and `previous_dialogs[1].personas[speaker]`), one fact a sentence,
 * duplicates out (personaFacts).
 */
export function chatGold(record: MscRecord, speaker: 0 | 1): PersonaFact[] {
  const entries = record.previous_dialogs.slice(0, CHAT_SESSIONS).flatMap((s) => s.personas?.[speaker] ?? [])
  return personaFacts(entries)
}

/**
 * The other speaker's facts that are not also this speaker's: a fact whose words are covered (the coverage rule) by
 * the content words of this speaker's own gold is a shared topic ("I love horror movies" said by both), and out.
 */
export function otherOnlyFacts(other: readonly PersonaFact[], own: readonly PersonaFact[]): PersonaFact[] {
  const ownWords = new Set(own.flatMap((f) => f.words))
  return other.filter((f) => !covered(f.words, ownWords))
}

/**
 * A conversation's half, by a hash of its id: rules are tuned on `tuning` and checked on `held-out`. Stable across
 * runs, samples and machines.
 */
export function chatHalf(record: Pick<MscRecord, 'metadata'>): 'tuning' | 'held-out' {
  const id = record.metadata?.initial_data_id
  if (typeof id !== 'string' || !id) throw new Error('chat half: the record has no metadata.initial_data_id')
  const digest = crypto.createHash('sha256').update(id).digest()
  return digest[0]! % 2 === 0 ? 'tuning' : 'held-out'
}

/** How a speaker's sessions are posted: each own turn as a `text`, or each session as one `conversation`. */
export type ChatForm = 'messages' | 'conversation'
export const CHAT_FORMS: readonly ChatForm[] = ['messages', 'conversation']

export interface ChatSubmission {
  data: string
  inputType: 'text' | 'conversation'
  /** When it was said (ISO 8601): sent as occurred_at. */
  at: string
}

/** One speaker of one conversation, as the task measures them. */
export interface ChatSpeaker {
  conversationId: string
  speaker: 0 | 1
  facts: PersonaFact[]
  /** The other speaker's facts with the shared topics out (otherOnlyFacts). */
  otherOnly: PersonaFact[]
  /** The other speaker's facts before the shared topics are taken out. */
  otherFacts: number
  /** The sessions posted (1 and 2), with their times. */
  sessions: Session[]
}

/** A turn's time within its session: a chat's messages come about half a minute apart. */
export const MESSAGE_GAP_MS = 30_000

/** What is posted for a speaker, in order: their own turns one by one, or each session whole (partner as assistant). */
export function chatSubmissions(sessions: readonly Session[], speaker: 0 | 1, form: ChatForm): ChatSubmission[] {
  if (form === 'conversation')
    return sessions
      .filter((s) => s.turns.some((t) => t.speaker === speaker))
      .map((s) => ({ data: conversationJson(s, speaker), inputType: 'conversation', at: s.at }))
  return sessions.flatMap((s) => {
    const start = Date.parse(s.at)
    return s.turns.flatMap((t, i) =>
      t.speaker === speaker
        ? [{ data: t.text, inputType: 'text' as const, at: new Date(start + i * MESSAGE_GAP_MS).toISOString() }]
        : [],
    )
  })
}

/**
 * The speakers measured: both speakers of each usable record, sessions dated back from `reference` (sessionsOf). A
 * record that chatProblem refuses is skipped with its reason, and so is a speaker with no gold fact (nothing to
 * recall, and no own facts to tell shared topics by).
 */
export function chatSpeakers(
  records: readonly unknown[],
  reference: Date,
): { speakers: ChatSpeaker[]; skipped: { id: string; reason: string }[] } {
  const speakers: ChatSpeaker[] = []
  const skipped: { id: string; reason: string }[] = []
  for (const [index, raw] of records.entries()) {
    const problem = chatProblem(raw)
    const record = raw as MscRecord
    const id = record?.metadata?.initial_data_id ?? `record ${index}`
    if (problem) {
      skipped.push({ id, reason: problem })
      continue
    }
    const sessions = sessionsOf(record, reference).slice(0, CHAT_SESSIONS)
    const gold = [chatGold(record, 0), chatGold(record, 1)] as const
    for (const speaker of [0, 1] as const) {
      const other = gold[1 - speaker]!
      if (!gold[speaker].length) {
        skipped.push({ id: `${id}:${speaker + 1}`, reason: 'no persona fact in sessions 1 and 2' })
        continue
      }
      speakers.push({
        conversationId: id,
        speaker,
        facts: gold[speaker],
        otherOnly: otherOnlyFacts(other, gold[speaker]),
        otherFacts: other.length,
        sessions,
      })
    }
  }
  return { speakers, skipped }
}

// ---------- the profile ----------

const CORE_FIELDS = ['name', 'age', 'gender', 'location', 'occupation'] as const

/** A profile as GET /v1/profile/{id} returns it (the parts the task reads; any may be missing). */
export interface ChatProfile {
  status?: string
  core_info?: Partial<Record<(typeof CORE_FIELDS)[number], { value: unknown }>>
  interests?: Record<string, { value: unknown }[] | undefined>
  personality?: {
    traits?: { value: unknown }[]
    mood_trends?: { default?: { value: unknown }; recent?: { value: unknown } }
  }
  preferences?: { conversation_style?: { value: unknown }; topics_to_avoid?: { value: unknown }[] }
  memories?: { event?: unknown }[]
}

export interface FieldValue {
  /** Its group: core_info.<field>, interests, personality.traits, personality.mood_trends or preferences.<field>. */
  field: string
  value: string
}

/** The field groups counted, in the order printed; `memories` is the last. */
export const CHAT_FIELDS = [
  ...CORE_FIELDS.map((f) => `core_info.${f}`),
  'interests',
  'personality.traits',
  'personality.mood_trends',
  'preferences.conversation_style',
  'preferences.topics_to_avoid',
  'memories',
] as const

const present = (scored: { value: unknown } | undefined): string | null => {
  const value = scored?.value
  return value === undefined || value === null || !String(value).trim() ? null : String(value)
}

/** Every field value of the profile (not the memories): core info, interests, personality and preferences. */
export function fieldValues(profile: ChatProfile): FieldValue[] {
  const out: FieldValue[] = []
  const add = (field: string, scored: { value: unknown } | undefined) => {
    const value = present(scored)
    if (value !== null) out.push({ field, value })
  }
  for (const f of CORE_FIELDS) add(`core_info.${f}`, profile.core_info?.[f])
  for (const items of Object.values(profile.interests ?? {})) for (const item of items ?? []) add('interests', item)
  for (const trait of profile.personality?.traits ?? []) add('personality.traits', trait)
  add('personality.mood_trends', profile.personality?.mood_trends?.default)
  add('personality.mood_trends', profile.personality?.mood_trends?.recent)
  add('preferences.conversation_style', profile.preferences?.conversation_style)
  for (const topic of profile.preferences?.topics_to_avoid ?? []) add('preferences.topics_to_avoid', topic)
  return out
}

/** The memories' texts. */
export const memoryTexts = (profile: ChatProfile): string[] =>
  (profile.memories ?? []).map((m) => (typeof m?.event === 'string' ? m.event.trim() : '')).filter(Boolean)

// ---------- fragments ----------

const wordList = (words: string) => new Set(words.split(' '))

/**
 * Words that leave a phrase open when they end it, whatever comes before: an article or a determiner (its noun is
 * missing), a conjunction, a subject pronoun (its verb is missing), "very": "went to a", "rock music the", "because I".
 */
const OPEN_ENDINGS = wordList(
  'a an the my your our their its every and or but nor because if whether ' +
    "i we they he she i'm i've i'd i'll it's that's there's they're we're you're he's she's very",
)

/**
 * Words that end a phrase well when it names what they point back to ("a friend I talk to", "tried violin and liked
 * it") and leave it open when it does not ("used to", "chose them", "made some"): prepositions, auxiliaries and modals,
 * pronouns that stand for an object.
 */
const POINTING_ENDINGS = wordList(
  'to of for with from into onto than as at about ' +
    'is am are was were be been have has had do does did will would can could should might must shall ' +
    'it them him her you this that these those one there here some any',
)

/**
 * Words an interest, a noun phrase, does not start with in lower case: prepositions and conjunctions ("for cars", "at
 * the beach", "whilst"). A title keeps its capital ("Of Mice and Men") and is not counted.
 */
const LEADING_WORDS = wordList(
  'to of for with from into onto than as at about in on by and or but nor because if whether while whilst',
)

/** Content words a phrase needs before a pointing ending can point back to one of them. */
const POINTED_CONTENT_WORDS = 2

export type FragmentKind = 'memory' | 'interest'

/** The words of a text as written (curly apostrophes straightened). */
const wordsOf = (text: string): string[] =>
  text.replace(/[\u2018\u2019]/g, "'").match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? []

/** An acronym ("IT", "OR" for Oregon) is a name, not the function word it spells. */
const isAcronym = (word: string) => word.length > 1 && word === word.toUpperCase() && word !== word.toLowerCase()

/** Why a memory is too short to be an event: one word, or one content word and no verb ("so fun", "my son"). */
function shortMemoryReason(text: string, words: readonly string[], contentWords: number): string | null {
  if (words.length < 2) return 'a single word'
  if (contentWords < 2 && !nlp(text).has('#Verb')) return 'one content word and no verb'
  return null
}

/**
 * Why a memory text or an interest value is not a phrase a person would write, or null when it is. Language only, no
 * word lists from the data (docs/evaluation/quality.md, "Chat"): no content word; for a memory, a single word, or one
 * content word and no verb; a last word that leaves the phrase open (OPEN_ENDINGS), or that points back
 * (POINTING_ENDINGS) in a phrase of fewer than two content words; for an interest, a lower-case first word that is a
 * preposition or a conjunction. An acronym at the end ("IT") is a name, and so is an interest of two or more words
 * that all open with a capital ("The Who").
 */
export function fragmentReason(text: string, kind: FragmentKind): string | null {
  const words = wordsOf(text)
  const contentWords = tokens(text).length
  // "The Who": a title of function words, written with its capitals
  const title = kind === 'interest' && words.length > 1 && words.every((word) => /^\p{Lu}/u.test(word))
  if (!contentWords && !title) return 'no content word'
  if (kind === 'memory') {
    const short = shortMemoryReason(text, words, contentWords)
    if (short) return short
  }
  const written = words[words.length - 1]!
  const last = isAcronym(written) ? '' : written.toLowerCase()
  if (OPEN_ENDINGS.has(last)) return `ends in "${last}"`
  if (POINTING_ENDINGS.has(last) && contentWords < POINTED_CONTENT_WORDS)
    return `ends in "${last}" with nothing to point back to`
  const first = text.trim().split(/\s+/)[0]!
  if (kind === 'interest' && LEADING_WORDS.has(first)) return `starts with "${first}"`
  return null
}

// ---------- scoring one profile ----------

export interface ChatProfileScore {
  facts: number
  /** Own facts covered by the content words of the field values and the memories together. */
  held: number
  /** Own facts covered by the field values' words alone. */
  heldByFields: number
  /** The other speaker's facts with shared topics out. */
  otherOnly: number
  /** Of those, covered by the field values' words: false attributions. */
  otherByFields: number
  /** Of those, covered by the field values' and the memories' words. */
  otherByAll: number
  memories: number
  memoryFragments: number
  interests: number
  interestFragments: number
  named: boolean
  /** Values by field group (CHAT_FIELDS), memories included. */
  values: Record<string, number>
  /** Distinct content words of the whole profile: a profile that says everything covers everything. */
  words: number
  failed: boolean
  /** For reading: the facts missed, the other speaker's facts taken in by the fields, the fragments. */
  missed: string[]
  attributed: string[]
  fragments: { text: string; kind: FragmentKind; reason: string }[]
}

/** Scores one speaker's profile (docs/evaluation/quality.md, "Chat"). A missing profile scores as an empty one. */
export function scoreChatProfile(person: Pick<ChatSpeaker, 'facts' | 'otherOnly'>, profile: ChatProfile | undefined) {
  const content = profile ?? {}
  const values = fieldValues(content)
  const memories = memoryTexts(content)
  const fieldWords = textWords(values.map((v) => v.value).join('\n'))
  const allWords = textWords([...values.map((v) => v.value), ...memories].join('\n'))
  const fragments = [
    ...memories.map((text) => ({ text, kind: 'memory' as const })),
    ...values.filter((v) => v.field === 'interests').map((v) => ({ text: v.value, kind: 'interest' as const })),
  ].flatMap(({ text, kind }) => {
    const reason = fragmentReason(text, kind)
    return reason ? [{ text, kind, reason }] : []
  })
  const counts: Record<string, number> = Object.fromEntries(CHAT_FIELDS.map((f) => [f, 0]))
  for (const v of values) counts[v.field] = (counts[v.field] ?? 0) + 1
  counts.memories = memories.length
  const heldAll = person.facts.filter((f) => covered(f.words, allWords))
  const attributed = person.otherOnly.filter((f) => covered(f.words, fieldWords))
  const score: ChatProfileScore = {
    facts: person.facts.length,
    held: heldAll.length,
    heldByFields: person.facts.filter((f) => covered(f.words, fieldWords)).length,
    otherOnly: person.otherOnly.length,
    otherByFields: attributed.length,
    otherByAll: person.otherOnly.filter((f) => covered(f.words, allWords)).length,
    memories: memories.length,
    memoryFragments: fragments.filter((f) => f.kind === 'memory').length,
    interests: counts.interests!,
    interestFragments: fragments.filter((f) => f.kind === 'interest').length,
    named: counts['core_info.name']! > 0,
    values: counts,
    words: allWords.size,
    failed: profile === undefined || profile.status === 'failed',
    missed: person.facts.filter((f) => !heldAll.includes(f)).map((f) => f.text),
    attributed: attributed.map((f) => f.text),
    fragments,
  }
  return score
}

/** The reference: the speaker's own turns as posted, scored as a profile made of them (the words rule's ceiling). */
export function ownTurnsScore(person: ChatSpeaker): { facts: number; held: number; otherOnly: number; other: number } {
  const words = textWords(speakerTurns(person.sessions, person.speaker).join('\n'))
  return {
    facts: person.facts.length,
    held: person.facts.filter((f) => covered(f.words, words)).length,
    otherOnly: person.otherOnly.length,
    other: person.otherOnly.filter((f) => covered(f.words, words)).length,
  }
}

// ---------- totals ----------

/** A count over a whole: how many of how many, and the share (null when the whole is empty). */
export interface Share {
  count: number
  of: number
  share: number | null
}

const shareOf = (count: number, of: number): Share => ({ count, of, share: of ? count / of : null })

export interface ChatFigures {
  profiles: number
  failed: number
  recall: Share
  recallFields: Share
  falseAttributionFields: Share
  falseAttributionAll: Share
  memoryFragments: Share
  interestFragments: Share
  fragments: Share
  named: Share
  meanWords: number | null
  /** By field group: profiles with at least one value, and values in all. */
  fields: Record<string, { profiles: number; values: number }>
}

/** Sums profile scores into the figures of one form. */
export function chatFigures(scores: readonly ChatProfileScore[]): ChatFigures {
  const sum = (pick: (s: ChatProfileScore) => number) => scores.reduce((total, s) => total + pick(s), 0)
  const fields: ChatFigures['fields'] = {}
  for (const f of CHAT_FIELDS)
    fields[f] = {
      profiles: scores.filter((s) => (s.values[f] ?? 0) > 0).length,
      values: sum((s) => s.values[f] ?? 0),
    }
  const memories = sum((s) => s.memories)
  const interests = sum((s) => s.interests)
  const memoryFragments = sum((s) => s.memoryFragments)
  const interestFragments = sum((s) => s.interestFragments)
  return {
    profiles: scores.length,
    failed: scores.filter((s) => s.failed).length,
    recall: shareOf(
      sum((s) => s.held),
      sum((s) => s.facts),
    ),
    recallFields: shareOf(
      sum((s) => s.heldByFields),
      sum((s) => s.facts),
    ),
    falseAttributionFields: shareOf(
      sum((s) => s.otherByFields),
      sum((s) => s.otherOnly),
    ),
    falseAttributionAll: shareOf(
      sum((s) => s.otherByAll),
      sum((s) => s.otherOnly),
    ),
    memoryFragments: shareOf(memoryFragments, memories),
    interestFragments: shareOf(interestFragments, interests),
    fragments: shareOf(memoryFragments + interestFragments, memories + interests),
    named: shareOf(scores.filter((s) => s.named).length, scores.length),
    meanWords: scores.length ? sum((s) => s.words) / scores.length : null,
    fields,
  }
}

// ---------- printing ----------

const percent = (share: Share) => (share.share === null ? '-' : `${(share.share * 100).toFixed(1)}%`)
const cell = (share: Share) => `${percent(share)} (${share.count}/${share.of})`

/** The table printed for the task: one column a form, and the own turns as reference. */
export function chatTable(
  title: string,
  forms: Partial<Record<ChatForm, ChatFigures>>,
  reference: { recall: Share; falseAttribution: Share },
): string {
  const shown = CHAT_FORMS.filter((f) => forms[f])
  const width = 24
  const row = (label: string, cells: string[]) => label.padEnd(34) + cells.map((c) => c.padEnd(width)).join('')
  const each = (pick: (f: ChatFigures) => string) => shown.map((f) => pick(forms[f]!))
  const lines = [
    `\n${title}`,
    row('', [...shown, 'own turns (reference)']),
    row('recall, fields + memories', [...each((f) => cell(f.recall)), cell(reference.recall)]),
    row(
      'recall, fields only',
      each((f) => cell(f.recallFields)),
    ),
    row('other speaker, in fields', [...each((f) => cell(f.falseAttributionFields)), cell(reference.falseAttribution)]),
    row(
      'other speaker, fields + memories',
      each((f) => cell(f.falseAttributionAll)),
    ),
    row(
      'fragments, memories',
      each((f) => cell(f.memoryFragments)),
    ),
    row(
      'fragments, interests',
      each((f) => cell(f.interestFragments)),
    ),
    row(
      'name set (no gold: informative)',
      each((f) => cell(f.named)),
    ),
    row(
      'content words a profile (mean)',
      each((f) => f.meanWords?.toFixed(1) ?? '-'),
    ),
    row(
      'failed profiles',
      each((f) => String(f.failed)),
    ),
    row('profiles with a value (values)', []),
  ]
  for (const field of CHAT_FIELDS)
    lines.push(
      row(
        `  ${field}`,
        each((f) => `${f.fields[field]!.profiles} (${f.fields[field]!.values})`),
      ),
    )
  return lines.join('\n') + '\n'
}

// ---------- the run ----------

/** What the task needs of a backend (eval/run.ts): post submissions in order, wait, read the profiles. */
export interface ChatBackend {
  buildInOrder(
    items: { profileId: string; submissions: ChatSubmission[] }[],
    sendTimes: boolean,
    log: (s: string) => void,
  ): Promise<Map<string, ChatProfile>>
}

const EXAMPLES = 20

/**
 * Posts every speaker in both forms (each form its own profiles), scores the profiles as GET returns them, prints the
 * table and returns the report for the JSON.
 */
export async function runChat(
  backend: ChatBackend,
  records: readonly unknown[],
  options: { reference: Date; sendTimes: boolean; title: string; forms?: readonly ChatForm[] },
  log: (s: string) => void,
  write: (text: string) => void,
) {
  const { speakers, skipped } = chatSpeakers(records, options.reference)
  const forms: Partial<Record<ChatForm, ChatFigures & { seconds: number; examples: unknown[] }>> = {}
  for (const form of options.forms ?? CHAT_FORMS) {
    log(`chat: posting ${speakers.length} speakers as ${form}`)
    const started = Date.now()
    const idOf = (p: ChatSpeaker) => `chat:${form}:${p.conversationId}:${p.speaker + 1}`
    const profiles = await backend.buildInOrder(
      speakers.map((p) => ({ profileId: idOf(p), submissions: chatSubmissions(p.sessions, p.speaker, form) })),
      options.sendTimes,
      log,
    )
    const scores = speakers.map((p) => scoreChatProfile(p, profiles.get(idOf(p))))
    const examples = scores
      .map((s, i) => ({
        profileId: idOf(speakers[i]!),
        missed: s.missed,
        attributed: s.attributed,
        fragments: s.fragments,
        fields: fieldValues(profiles.get(idOf(speakers[i]!)) ?? {}).map((v) => `${v.field}: ${v.value}`),
      }))
      .filter((s) => s.attributed.length || s.fragments.length)
      .slice(0, EXAMPLES)
    forms[form] = { ...chatFigures(scores), seconds: (Date.now() - started) / 1000, examples }
  }
  const own = speakers.map(ownTurnsScore)
  const sum = (pick: (s: ReturnType<typeof ownTurnsScore>) => number) => own.reduce((t, s) => t + pick(s), 0)
  const reference = {
    recall: shareOf(
      sum((s) => s.held),
      sum((s) => s.facts),
    ),
    falseAttribution: shareOf(
      sum((s) => s.other),
      sum((s) => s.otherOnly),
    ),
  }
  const facts = sum((s) => s.facts)
  const otherFacts = speakers.reduce((t, p) => t + p.otherFacts, 0)
  const otherOnly = sum((s) => s.otherOnly)
  const header =
    `CHAT (${options.title}: ${speakers.length} speakers; ${facts} persona facts of sessions 1-2; ` +
    `${otherOnly} of the other speakers' ${otherFacts} facts after shared topics out` +
    `${skipped.length ? `; ${skipped.length} skipped` : ''})`
  write(chatTable(header, forms, reference))
  return { speakers: speakers.length, facts, otherFacts, otherOnlyFacts: otherOnly, skipped, reference, forms }
}

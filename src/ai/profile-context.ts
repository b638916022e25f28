// A profile as compact text for an LLM's system prompt, under a token budget (docs/guides/context.md): one short line
// per fact, grouped by section, the most relevant (to a query) and most confident facts first, filled greedily until
// the budget, counted exactly with a real tokenizer. Pure: the service fetches the profile and the relevance scores.
import { stemmer } from 'stemmer'
import type { PastValue, ProfileContent, ScalarPath } from '../domain/profile.js'
import { customFacts } from './custom-text.js'
import { byConfidence, clean, compareEn, rankMemories } from './profile-text.js'
import { readableDate, readableDay } from '../domain/passages.js'
import { withDates } from './relative-dates.js'

/** The tokenizer: o200k_base, the encoding of OpenAI's GPT-4o/4.1/o-series models (ranks ship in gpt-tokenizer). */
export const CONTEXT_ENCODING = 'o200k_base'

type Counter = (text: string) => number
const PLAIN = { disallowedSpecial: new Set<string>() }
let counter: Promise<Counter> | undefined
/** Loaded on first use (the ranks are a few MB), so processes that never build a context don't pay for them. */
export function tokenCounter(): Promise<Counter> {
  // Special-token strings in a text ("<|endoftext|>" in what someone wrote) are counted as plain text, never refused.
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text, PLAIN))
  return counter
}

export type ContextSection =
  | 'summary'
  | 'basics'
  | 'interests'
  | 'personality'
  | 'preferences'
  | 'custom'
  | 'memories'
  | 'evidence'
const SECTION_TITLES: Record<Exclude<ContextSection, 'summary'>, string> = {
  evidence: 'What they said',
  basics: 'Basics',
  interests: 'Interests',
  personality: 'Personality',
  preferences: 'Preferences',
  custom: 'Other',
  memories: 'Memories',
}
const SECTION_ORDER: ContextSection[] = [
  'summary',
  'basics',
  'interests',
  'personality',
  'preferences',
  'custom',
  'memories',
  'evidence',
]

export interface ContextFact {
  section: ContextSection
  /** The line as it appears (without the "- " bullet). */
  text: string
  /** What relevance is measured on (the line, plus the category for interests). */
  matchText: string
  confidence: number
  /** ISO time (or YYYY-MM-DD) the fact was last said (else last set); '' when unknown. */
  at: string
}

/** Past values a fact line names (the newest): the line says what changed lately, not a scalar's whole life. */
export const PAST_IN_CONTEXT = 3

/**
 * A scalar's newest past values as the end of its line: "before: Lisbon, 1 June 2019 to 10 March 2025"; '' when none.
 */
export function pastText(past: readonly PastValue[] | undefined): string {
  const parts: string[] = []
  for (const p of past ?? []) {
    const value = clean(String(p.value))
    if (value === '') continue
    const from = readableDate(p.from)
    const until = readableDate(p.until)
    parts.push(from === until ? `${value}, ${from}` : `${value}, ${from} to ${until}`)
    if (parts.length === PAST_IN_CONTEXT) break
  }
  return parts.length ? `before: ${parts.join('; ')}` : ''
}

/**
 * Every fact of a profile as a line, in a fixed order (deterministic whatever the storage order). Name is the header.
 * A fact's `at` is when evidence last named its part (`said`, internals.said_at), else when the part last changed
 * (`timestamps`, field_timestamps, for parts not named since said times were kept).
 */
export function contextFacts(
  content: ProfileContent,
  timestamps: Record<string, string>,
  said: Record<string, string> = {},
): ContextFact[] {
  const facts: ContextFact[] = []
  const at = (p: string) =>
    Object.hasOwn(said, p) && typeof said[p] === 'string'
      ? said[p]
      : Object.hasOwn(timestamps, p)
        ? timestamps[p]
        : undefined
  const ts = (...paths: string[]) => paths.map(at).find((t) => t) ?? ''
  const add = (section: ContextSection, text: string, confidence: number | undefined, at: string, matchText = text) => {
    const cleaned = clean(text)
    if (cleaned !== '')
      facts.push({ section, text: cleaned, matchText: clean(matchText), confidence: confidence ?? 0.5, at })
  }
  // A scalar's line says what it was before, when it changed (docs/guides/the-profile.md, "Facts over time").
  const withPast = (line: string, path: ScalarPath) => {
    const past = pastText(content.past_values?.[path])
    return past ? `${clean(line)} (${past})` : line
  }
  const core = content.core_info
  if (core.name && clean(core.name.value) && content.past_values?.['core_info.name']?.length) {
    const past = pastText(content.past_values['core_info.name'])
    if (past)
      add('basics', `Name: ${core.name.value} (${past})`, core.name.confidence, ts('core_info.name', 'core_info'))
  }
  if (core.age)
    add(
      'basics',
      withPast(`Age ${core.age.value}`, 'core_info.age'),
      core.age.confidence,
      ts('core_info.age', 'core_info'),
    )
  if (core.gender && clean(core.gender.value))
    add(
      'basics',
      withPast(`Gender: ${core.gender.value}`, 'core_info.gender'),
      core.gender.confidence,
      ts('core_info.gender', 'core_info'),
    )
  if (core.location && clean(core.location.value))
    add(
      'basics',
      withPast(`Lives in ${core.location.value}`, 'core_info.location'),
      core.location.confidence,
      ts('core_info.location', 'core_info'),
    )
  if (core.occupation && clean(core.occupation.value))
    add(
      'basics',
      withPast(`Works as ${core.occupation.value}`, 'core_info.occupation'),
      core.occupation.confidence,
      ts('core_info.occupation', 'core_info'),
    )

  for (const category of Object.keys(content.interests).sort(compareEn)) {
    const label = category.replace(/[_-]+/g, ' ').trim()
    const seen = new Set<string>()
    for (const i of byConfidence(content.interests[category] ?? [])) {
      const value = clean(String(i.value))
      if (value === '' || seen.has(value.toLowerCase())) continue
      seen.add(value.toLowerCase())
      add('interests', label ? `${label}: ${value}` : value, i.confidence, ts(`interests.${category}`, 'interests'))
    }
  }
  const seenTraits = new Set<string>()
  for (const t of byConfidence(content.personality.traits)) {
    const value = clean(String(t.value))
    if (value === '' || seenTraits.has(value.toLowerCase())) continue
    seenTraits.add(value.toLowerCase())
    add('personality', `Trait: ${value}`, t.confidence, ts('personality.traits', 'personality'))
  }
  const recent = content.personality.mood_trends.recent
  const mood = recent ?? content.personality.mood_trends.default
  if (mood && clean(mood.value)) {
    const line = `Mood lately: ${mood.value}`
    add(
      'personality',
      recent ? withPast(line, 'personality.mood_trends.recent') : line,
      mood.confidence,
      ts('personality.mood_trends', 'personality'),
    )
  }

  const style = content.preferences.conversation_style
  if (style && clean(style.value)) {
    add(
      'preferences',
      withPast(`Conversation style: ${style.value}`, 'preferences.conversation_style'),
      style.confidence,
      ts('preferences.conversation_style', 'preferences'),
    )
  }
  const seenTopics = new Set<string>()
  for (const t of byConfidence(content.preferences.topics_to_avoid)) {
    const value = clean(String(t.value))
    if (value === '' || seenTopics.has(value.toLowerCase())) continue
    seenTopics.add(value.toLowerCase())
    add('preferences', `Avoid talking about: ${value}`, t.confidence, ts('preferences.topics_to_avoid', 'preferences'))
  }
  for (const f of customFacts(content.custom)) {
    const [section] = f.path.split('.')
    add('custom', `${f.label}: ${f.text}`, f.confidence, ts(`custom.${f.path}`, `custom.${section}`))
  }
  for (const m of rankMemories(content.memories)) {
    const text = m.date ? `${readableDay(m.date)}: ${m.event}` : m.event
    const importance = m.importance === 'high' ? 0.1 : m.importance === 'low' ? -0.1 : 0
    add(
      'memories',
      text,
      Math.round(Math.max(0, Math.min(1, (m.confidence ?? 0.5) + importance)) * 1000) / 1000,
      m.date ?? ts('memories'),
      m.event,
    )
  }
  return facts
}

/**
 * The header line: who the text is about. Without a name in the profile, the label the quoted passages' turns carry
 * (`label`, a name as nameLabel reads one: "Caroline") is said, so a model knows whose words they are.
 */
export function contextHeader(content: ProfileContent, label?: string | null): string {
  const name = content.core_info.name ? clean(content.core_info.name.value) : ''
  if (name) return `About ${name}:`
  const cleanLabel = label ? clean(label) : ''
  return cleanLabel ? `About ${cleanLabel} (as their turns are labelled):` : 'About this person (name unknown):'
}

/** Distinct stems of the content words of a text (lexical relevance). */
export function stems(text: string): Set<string> {
  const words =
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return new Set(words.filter((w) => w.length > 1 && !LEXICAL_STOP.has(w)).map((w) => stemmer(w)))
}
const LEXICAL_STOP = new Set(
  (
    'a an and are as at be by for from has have he her his i in is it its of on or she that the their they to was ' +
    'were with about likes like lives works trait'
  ).split(' '),
)

/**
 * Share of the query's stems that the fact contains, in [0, 1]. A stem with `alternatives` (what a misspelt word may
 * have meant, factAlternatives) counts when the fact contains every stem of one of them instead.
 */
export function lexicalScore(
  query: Set<string>,
  fact: Set<string>,
  alternatives?: ReadonlyMap<string, readonly Set<string>[]>,
): number {
  if (query.size === 0) return 0
  let hit = 0
  for (const s of query) {
    if (fact.has(s)) hit++
    else if (alternatives?.get(s)?.some((alt) => [...alt].every((x) => fact.has(x)))) hit++
  }
  return hit / query.size
}

/**
 * What the query's misspelt words may have meant, as the facts are matched (stems): `meant` gives, per word as
 * written, its alternatives as words (the dictionary's, spellingCorrections); a word is taken for misspelt only when no
 * fact contains its stem. By the word's stem in the query, each alternative the set of its stems.
 */
export function factAlternatives(
  query: Set<string>,
  facts: readonly Set<string>[],
  meant: readonly (readonly [string, readonly (readonly string[])[]])[],
): Map<string, Set<string>[]> {
  const out = new Map<string, Set<string>[]>()
  for (const [word, alts] of meant) {
    const [s] = stems(word)
    if (s === undefined || !query.has(s) || out.has(s) || facts.some((f) => f.has(s))) continue
    const sets = alts.map((a) => stems(a.join(' '))).filter((x) => x.size > 0)
    if (sets.length) out.set(s, sets)
  }
  return out
}

/** An evidence passage as a context quotes it (docs/guides/evidence.md). */
export interface ContextPassage {
  text: string
  /** The partner's turn it answers; null when none. */
  prompt: string | null
  /** When it was said (ISO 8601). */
  at: string
}

/**
 * A question answered in fewer words than this is quoted with the question (a "Yes, a lot." says nothing alone). Not
 * more: on the memory evaluation the longer answers gained nothing from their question but its tokens.
 */
const SHORT_ANSWER_WORDS = 6
const PROMPT_QUOTE_CHARS = 150

/**
 * Passage text (characters) whose relative dates one context resolves at most (withDates: chrono costs up to about 9 ms
 * per 1,000 characters of text made of date words); the passages after it are quoted as said.
 */
export const DATED_CHARS_PER_CONTEXT = 8000

/** Whether a passage is quoted with the question it answers: when its answer is short ("Yes, a lot."). */
const quotesPrompt = (p: Pick<ContextPassage, 'prompt' | 'text'>, said: string): boolean =>
  !!p.prompt && said.split(' ').length < SHORT_ANSWER_WORDS

/**
 * What a passage is ranked by against a query (BM25): what its line quotes, the person's words, and the question they
 * answer only when the line quotes it. On the memory evaluation's long histories, ranking by what is quoted held more
 * of the answers than ranking by the question of every answer too, at small and large budgets.
 */
export function passageRankText(passage: Pick<ContextPassage, 'prompt' | 'text'>): string {
  const said = passage.text.replace(/\s+/g, ' ').trim()
  return quotesPrompt(passage, said) ? `${passage.prompt}\n${passage.text}` : passage.text
}

/**
 * A passage as one line (under its day, "8 May 2023"), with the question it answers when the answer is short, with
 * its relative dates resolved when `dated` ("yesterday (7 May 2023)"), and, given a query's `focus`, cut to the
 * sentences that say it when long (focused).
 */
export function passageLine(
  passage: ContextPassage,
  dated = false,
  focus?: { stems: Set<string>; minWords: number },
): string {
  const said = passage.text.replace(/\s+/g, ' ').trim()
  const shown = focus?.stems.size ? focused(said, focus.stems, focus.minWords) : said
  const text = dated ? withDates(shown, passage.at) : shown
  const prompt = quotesPrompt(passage, said) ? passage.prompt!.replace(/\s+/g, ' ').trim() : ''
  const quoted = prompt.length > PROMPT_QUOTE_CHARS ? `${prompt.slice(0, PROMPT_QUOTE_CHARS - 1).trimEnd()}…` : prompt
  const asked = prompt ? ` (asked "${quoted}")` : ''
  return asked ? `${asked.trimStart()} ${text}` : text
}

/**
 * A passage of more words than this, or than the budget's tokens / FOCUS_BUDGET_DIVISOR, is quoted by its sentences
 * that say the query (focused). On the memory evaluation, focusing every passage over 20 words held more of the long
 * histories' answers at a small budget but fewer of the short histories' at a large one: a passage long for a small
 * budget gains from the cut, one a large budget holds anyway loses what the cut left out.
 */
const FOCUS_MIN_WORDS = 20
const FOCUS_BUDGET_DIVISOR = 8

/** The words over which a passage is focused in a context of `maxTokens`. */
export function focusMinWords(maxTokens: number): number {
  return Math.max(FOCUS_MIN_WORDS, maxTokens / FOCUS_BUDGET_DIVISOR)
}

/** Sentences of a passage's words (after its whitespace is made single spaces). */
const sentencesOf = (said: string): string[] => said.split(/(?<=[.!?…])\s+/)

/**
 * A passage of more than `minWords` words quoted by its sentences that say a word of the query (`focus`: its stems),
 * each with the sentence after it (what answers a topic often follows it: "My son is thirteen. He just started junior
 * high."), what is left out marked "…". A passage that says none of the query's words (found by meaning) is quoted
 * whole. Linear in the passage.
 */
export function focused(said: string, focus: Set<string>, minWords: number): string {
  if (said.split(' ').length <= minWords) return said
  const parts = sentencesOf(said)
  if (parts.length < 2) return said
  const keep = new Array<boolean>(parts.length).fill(false)
  let any = false
  parts.forEach((sentence, index) => {
    for (const w of stems(sentence)) {
      if (!focus.has(w)) continue
      any = keep[index] = true
      if (index + 1 < parts.length) keep[index + 1] = true
      break
    }
  })
  if (!any) return said
  const out: string[] = []
  let gap = false
  parts.forEach((sentence, index) => {
    if (!keep[index]) return void (gap = true)
    out.push(gap ? `… ${sentence}` : sentence)
    gap = false
  })
  return gap ? `${out.join(' ')} …` : out.join(' ')
}

/**
 * Whether each sentence of a passage that says a word of the query (`focus`: its stems) is a question: the person asks
 * about it ("How are the dogs?", often of the partner's) rather than says something of their own. Such a passage
 * ranks lower (ASKED_WEIGHT).
 */
export function onlyAsks(text: string, focus: Set<string>): boolean {
  let asked = false
  for (const s of sentencesOf(text.replace(/\s+/g, ' ').trim())) {
    let says = false
    for (const w of stems(s))
      if (focus.has(w)) {
        says = true
        break
      }
    if (!says) continue
    if (!s.endsWith('?')) return false
    asked = true
  }
  return asked
}

/**
 * A passage that only asks about the query's words has its BM25 score multiplied by this. On the memory evaluation's
 * long histories at a small budget, 0.5 held a few more answers than no weight or 0.25.
 */
export const ASKED_WEIGHT = 0.5

/** A fact this relevant to the query (in [0, 1]) goes before the passages; the others after them. */
export const STRONG_FACT = 0.5

/** How passages are dated: under a line per day ("8 May 2023:"), per month ("May 2023:") or per year ("2023:"). */
export type PassageDates = 'day' | 'month' | 'year'

/** Words of a question about time: "When did she ...", "How long ago", "in 2022", "last summer", "on Monday". */
const TIME_WORDS = [
  'when|whenever|date|dates|day|days|week|weeks|weekend|month|months|year|years|time|times|ago|since|until|till',
  'before|after|recently|lately|yesterday|today|tomorrow|tonight|season|spring|summer|autumn|fall|winter',
  'birthday|anniversary|how long|how often|(?:19|20)\\d\\d',
  'january|february|march|april|june|july|august|september|october|november|december',
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday',
].join('|')
const ABOUT_TIME = new RegExp(`\\b(?:${TIME_WORDS})\\b`, 'i')

/**
 * The dates a query's passages are shown with: by day when the query asks about time, by year otherwise. A line per
 * day costs about 7 tokens, and in a long history nearly every passage quoted is of another day; grouped by month, the
 * passages of a month share one line, by year those of a year. On the memory evaluation's long histories, month lines
 * held more of the answers than day lines, and over much longer histories (the passages of a context from many
 * months) year lines held more than month lines. Relative dates in the words ("yesterday (7 May 2023)") are resolved
 * either way, and a question about time gets every day.
 */
export function passageDatesFor(query: string | undefined): PassageDates {
  return !query || ABOUT_TIME.test(query) ? 'day' : 'year'
}

/** "8 May 2023", "May 2023" or "2023" (UTC); '' when `iso` is not a time. */
function dateLine(iso: string, by: PassageDates): string {
  const readable = readableDate(iso)
  return by === 'year'
    ? readable.replace(/^(?:\d+ )?\S+ /, '')
    : by === 'month'
      ? readable.replace(/^\d+ /, '')
      : readable
}

/**
 * A passage that does not fit what is left of the budget is skipped and the next one tried (a shorter one may fit),
 * until fewer than this many tokens are left, or after MAX_SKIPPED passages skipped in a row.
 */
const MIN_PASSAGE_TOKENS = 6
const MAX_SKIPPED = 32

export interface ComposeInput {
  header: string
  summary?: string | null
  facts: ContextFact[]
  /** Relevance of each fact to the query in [0, 1] (same order as facts); absent without a query. */
  relevance?: number[]
  /**
   * Evidence passages, best first (a query's ranking, or the newest first): after the facts that match the query
   * strongly, before the others. A passage whose words are all in a fact taken before it is left out (deduplicated).
   */
  passages?: ContextPassage[]
  /** How the passages are dated (default: by day). */
  passageDates?: PassageDates
  /**
   * The query: a passage long for the budget is quoted by its sentences that say its words (focused, focusMinWords).
   */
  query?: string
  maxTokens: number
  count: Counter
}

export interface ComposedContext {
  text: string
  tokens: number
  factsIncluded: number
  factsTotal: number
  passagesIncluded: number
  summaryIncluded: boolean
  truncated: boolean
}

interface Item {
  section: ContextSection
  text: string
  rank: number
  kind: 'fact' | 'passage' | 'summary'
  /** A passage's date line ("8 May 2023"), and its time (ISO 8601): passages are shown by date, oldest first. */
  date?: string
  at?: string
  /** A passage whose line (text) is still to be made. */
  line?: ContextPassage
}

/** Renders chosen items: header, then sections in the order of their best item, items best first within a section. */
function render(header: string, items: Item[]): string {
  const bySection = new Map<ContextSection, Item[]>()
  for (const it of [...items].sort((a, b) => a.rank - b.rank)) {
    const list = bySection.get(it.section) ?? []
    list.push(it)
    bySection.set(it.section, list)
  }
  const lines = [header]
  for (const [section, list] of bySection) {
    if (section === 'summary') lines.push(...list.map((i) => i.text))
    else if (section === 'evidence') {
      // Under one line per day, in time order: a model reads when each thing was said without a date on every line.
      // A passage is a line of its own, without a bullet (a token a line; the date lines end in ":").
      lines.push(`${SECTION_TITLES[section]}:`)
      let day: string | undefined
      for (const i of [...list].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? '') || a.rank - b.rank)) {
        if (i.date !== day) lines.push(`${(day = i.date)}:`)
        lines.push(i.text)
      }
    } else lines.push(`${SECTION_TITLES[section]}:`, ...list.map((i) => `- ${i.text}`))
  }
  return lines.join('\n')
}

/**
 * Greedy fill in priority order, stopping at the first fact that does not fit: a fact is never cut, and the facts
 * included are always a prefix of their order, so a larger budget gives a superset of facts. A passage that does not
 * fit is quoted by its sentences that say the query when those fit, else passed over for the shorter ones after it
 * (MIN_PASSAGE_TOKENS, MAX_SKIPPED), so a larger budget may quote a long passage in place of shorter ones. The summary
 * comes after every fact (it retells them in prose) and is added when all facts fit and it still fits. Costs are
 * estimated per line, each with the newline after it (o200k takes a newline after punctuation into the punctuation's
 * token: counting it before the line, as a token of its own, overcounts a context of passages), then the whole text
 * is counted exactly; should the estimate be short, the last items taken are dropped until the exact count fits.
 */
export function composeContext(input: ComposeInput): ComposedContext {
  const { header, facts, maxTokens, count } = input
  const order = facts.map((f, i) => ({ f, i, r: input.relevance?.[i] ?? 0 }))
  order.sort(
    (a, b) =>
      b.r - a.r ||
      b.f.confidence - a.f.confidence ||
      b.f.at.localeCompare(a.f.at) ||
      SECTION_ORDER.indexOf(a.f.section) - SECTION_ORDER.indexOf(b.f.section) ||
      a.i - b.i,
  )
  const factItem = (o: (typeof order)[number]): Item => ({
    section: o.f.section,
    text: o.f.text,
    rank: 0,
    kind: 'fact',
  })
  let candidates: Item[]
  if (input.passages?.length) {
    const strong = order.filter((o) => o.r >= STRONG_FACT)
    const rest = order.filter((o) => o.r < STRONG_FACT)
    // What the strong facts already say is not quoted again.
    const known = new Set<string>()
    for (const o of strong) for (const w of stems(o.f.text)) known.add(w)
    const seen = new Set<string>()
    const passages: Item[] = []
    for (const p of input.passages) {
      const words = stems(p.text)
      const key = clean(p.text).toLowerCase()
      if (seen.has(key) || (words.size > 0 && [...words].every((w) => known.has(w)))) continue
      seen.add(key)
      // The line is made when the fill reaches it: resolving dates costs, and most candidates are never reached.
      passages.push({
        section: 'evidence',
        text: '',
        line: p,
        rank: 0,
        kind: 'passage',
        date: dateLine(p.at, input.passageDates ?? 'day') || 'Undated',
        at: p.at,
      })
    }
    candidates = [...strong.map(factItem), ...passages, ...rest.map(factItem)]
  } else {
    candidates = order.map(factItem)
  }
  candidates.forEach((c, rank) => (c.rank = rank))
  const summary = input.summary?.replace(/\s+/g, ' ').trim()
  if (summary)
    candidates.push({ section: 'summary', text: `Summary: ${summary}`, rank: candidates.length, kind: 'summary' })
  const factsTotal = facts.length
  const headerTokens = count(header)
  if (headerTokens > maxTokens) {
    return {
      text: '',
      tokens: 0,
      factsIncluded: 0,
      factsTotal,
      passagesIncluded: 0,
      summaryIncluded: false,
      truncated: true,
    }
  }
  const chosen: Item[] = []
  const sectionsOpen = new Set<ContextSection>()
  const daysOpen = new Set<string>()
  let estimate = count(`${header}\n`)
  let datedChars = DATED_CHARS_PER_CONTEXT
  let skipped = 0
  const focus = input.query ? { stems: stems(input.query), minWords: focusMinWords(maxTokens) } : undefined
  // The line and its newline, plus the section's title line the first time the section appears, and its day's line.
  // Each counted with the newline after it, which a line ending in punctuation takes into its last token ("?\n").
  const costOf = (it: Item) =>
    count((it.section === 'summary' || it.section === 'evidence' ? it.text : `- ${it.text}`) + '\n') +
    (it.section !== 'summary' && !sectionsOpen.has(it.section) ? count(`${SECTION_TITLES[it.section]}:\n`) : 0) +
    (it.date !== undefined && !daysOpen.has(it.date) ? count(`${it.date}:\n`) : 0)
  for (const it of candidates) {
    const source = it.line
    let dated = false
    if (source) {
      dated = source.text.length <= datedChars
      if (dated) datedChars -= source.text.length
      it.text = passageLine(source, dated, focus)
      it.line = undefined
    }
    let cost = costOf(it)
    if (estimate + cost > maxTokens && source && focus?.stems.size) {
      // A passage too long for what is left is quoted by its sentences that say the query, when those fit.
      const cut = passageLine(source, dated, { stems: focus.stems, minWords: 0 })
      if (cut.length < it.text.length) {
        const was = it.text
        it.text = cut
        cost = costOf(it)
        if (estimate + cost > maxTokens) it.text = was
      }
    }
    if (estimate + cost > maxTokens) {
      // A fact never gives way to a later item (a larger budget is then a superset of facts); a passage does, to a
      // shorter one after it.
      if (it.kind !== 'passage' || maxTokens - estimate < MIN_PASSAGE_TOKENS || ++skipped > MAX_SKIPPED) break
      continue
    }
    skipped = 0
    estimate += cost
    chosen.push(it)
    sectionsOpen.add(it.section)
    if (it.date !== undefined) daysOpen.add(it.date)
  }
  let text = render(header, chosen)
  let tokens = count(text)
  while (tokens > maxTokens && chosen.length) {
    chosen.pop()
    text = render(header, chosen)
    tokens = count(text)
  }
  return {
    text,
    tokens,
    factsIncluded: chosen.filter((c) => c.kind === 'fact').length,
    factsTotal,
    passagesIncluded: chosen.filter((c) => c.kind === 'passage').length,
    summaryIncluded: chosen.some((c) => c.kind === 'summary'),
    // Something was left out: a fact, or the summary the profile has.
    truncated: chosen.length < candidates.length,
  }
}

/**
 * The profile's fields: summary, core info, interests, personality and preferences, each value with its confidence, and
 * beside a scalar that changed the values it held before, with their windows (README "Facts over time").
 */
import { h } from '../../dom'
import type { Profile } from '../../types'
import { confidenceBar, dateTime } from '../../ui'
import type { EditActions } from './edits'
import { empty, none, section } from './section'
import type { WhyActions } from './why'

/** The remove control of a value, when the page offers edits. */
type Remove = ((value: string | number) => HTMLButtonElement) | undefined

/** What the page offers beside each value: "Why?" (its evidence) and remove. */
export interface ValueActions {
  edits?: EditActions
  why?: WhyActions
}

/** Beside a value: its controls ("Why?", remove), and the panel "Why?" opens (placed on a line of its own). */
export interface ValueControls {
  actions: HTMLElement
  panel: HTMLElement | null
}
export type Controls = ((value: string | number) => ValueControls) | undefined

export const valueControls = (a: ValueActions | undefined, section: string, category?: string): Controls =>
  a && (a.edits || a.why)
    ? (value) => {
        const [why, panel] = a.why?.why(section, value, category) ?? [null, null]
        return {
          actions: h('span', { class: 'value-actions' }, why, a.edits?.forget(section, value, category) ?? null),
          panel,
        }
      }
    : undefined

/** A value with its confidence, as the schema's ScoredString and ScoredInt. */
interface Scored {
  value: string | number
  confidence: number
}

type PastValue = Profile['pastValues'][number]['values'][number]

const monthYear = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** A past value's window as months: "Jun 2019 – Mar 2025" (one month when it began and ended in it). */
export function pastWindow(from: string, until: string): string {
  const a = new Date(from)
  const b = new Date(until)
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return `${from} – ${until}`
  const [x, y] = [monthYear.format(a), monthYear.format(b)]
  return x === y ? x : `${x} – ${y}`
}

/** "before: Lisbon, Jun 2019 – Mar 2025; …": a scalar's past values, newest first, each with a remove control. */
function pastLine(past: readonly PastValue[] | undefined, remove?: Remove): HTMLElement | null {
  if (!past?.length) return null
  return h(
    'span',
    { class: 'past-values', 'data-testid': 'past-values' },
    'before: ',
    past.map((p, i) => [
      i > 0 ? '; ' : null,
      h(
        'span',
        {
          class: 'past-value',
          title: `said from ${p.from} to ${p.lastSaid}; held until ${p.until}; confidence ${p.confidence.toFixed(2)}`,
        },
        `${p.value}, ${pastWindow(p.from, p.until)}`,
      ),
      remove ? [' ', remove(p.value)] : null,
    ]),
  )
}

function scoredRow(
  label: string,
  scored: Scored | null,
  controls?: Controls,
  past?: readonly PastValue[],
  remove?: Remove,
): HTMLElement {
  const c = scored ? controls?.(scored.value) : undefined
  return h(
    'div',
    { class: 'scored-row' },
    h('dt', null, label),
    h(
      'dd',
      null,
      scored
        ? [
            h('span', { class: 'scored-value' }, String(scored.value)),
            confidenceBar(scored.confidence),
            c?.actions ?? null,
          ]
        : none(),
      pastLine(past, remove),
    ),
    c?.panel ?? null,
  )
}

/** A scalar's past values, by its path (core_info.location). */
const pastOf = (p: Profile, field: string) => p.pastValues.find((f) => f.field === field)?.values

/** The remove control of a past value, when the page offers edits. */
const remover = (a: ValueActions | undefined, section: string): Remove =>
  a?.edits && ((value) => a.edits!.forget(section, value))

function scoredList(items: Scored[], emptyText: string, controls?: Controls): HTMLElement {
  if (items.length === 0) return empty(emptyText)
  return h(
    'ul',
    { class: 'scored-list' },
    items.map((item) => {
      const c = controls?.(item.value)
      return h(
        'li',
        null,
        h('span', { class: 'scored-value' }, item.value),
        confidenceBar(item.confidence),
        c?.actions ?? null,
        c?.panel ?? null,
      )
    }),
  )
}

export function summarySection(p: Profile): HTMLElement {
  return section(
    'summary',
    'Summary',
    p.summary ? h('p', { class: 'summary-text' }, p.summary) : empty('No summary yet.'),
    h(
      'dl',
      { class: 'meta' },
      h('div', null, h('dt', null, 'Language'), h('dd', null, p.language ?? none())),
      h('div', null, h('dt', null, 'Created'), h('dd', null, dateTime(p.createdAt))),
      h('div', null, h('dt', null, 'Last updated'), h('dd', null, dateTime(p.lastUpdated))),
    ),
  )
}

export function coreInfoSection(p: Profile, actions?: ValueActions): HTMLElement {
  const c = p.coreInfo
  return section(
    'core-info',
    'Core info',
    h(
      'dl',
      { class: 'scored-grid' },
      scoredRow(
        'Name',
        c.name,
        valueControls(actions, 'core_info.name'),
        pastOf(p, 'core_info.name'),
        remover(actions, 'core_info.name'),
      ),
      scoredRow(
        'Age',
        c.age,
        valueControls(actions, 'core_info.age'),
        pastOf(p, 'core_info.age'),
        remover(actions, 'core_info.age'),
      ),
      scoredRow(
        'Gender',
        c.gender,
        valueControls(actions, 'core_info.gender'),
        pastOf(p, 'core_info.gender'),
        remover(actions, 'core_info.gender'),
      ),
      scoredRow(
        'Location',
        c.location,
        valueControls(actions, 'core_info.location'),
        pastOf(p, 'core_info.location'),
        remover(actions, 'core_info.location'),
      ),
      scoredRow(
        'Occupation',
        c.occupation,
        valueControls(actions, 'core_info.occupation'),
        pastOf(p, 'core_info.occupation'),
        remover(actions, 'core_info.occupation'),
      ),
    ),
  )
}

export function interestsSection(p: Profile, actions?: ValueActions): HTMLElement {
  if (p.interests.length === 0) return section('interests', 'Interests', empty('No interests yet.'))
  return section(
    'interests',
    'Interests',
    h(
      'div',
      { class: 'interest-grid' },
      p.interests.map((category) =>
        h(
          'div',
          { class: 'interest-category' },
          h('h3', null, category.category.replace(/_/g, ' ')),
          scoredList(category.values, 'None', valueControls(actions, 'interests', category.category)),
        ),
      ),
    ),
  )
}

export function personalitySection(p: Profile, actions?: ValueActions): HTMLElement {
  const mood = p.personality.moodTrends
  return section(
    'personality',
    'Personality and mood',
    h('h3', null, 'Traits'),
    scoredList(p.personality.traits, 'No traits yet.', valueControls(actions, 'personality.traits')),
    h('h3', null, 'Mood'),
    h(
      'dl',
      { class: 'scored-grid' },
      scoredRow('Usual mood', mood.default),
      scoredRow('Recent mood', mood.recent, undefined, pastOf(p, 'personality.mood_trends.recent')),
    ),
  )
}

export function preferencesSection(p: Profile, actions?: ValueActions): HTMLElement {
  return section(
    'preferences',
    'Preferences',
    h(
      'dl',
      { class: 'scored-grid' },
      scoredRow(
        'Conversation style',
        p.preferences.conversationStyle,
        valueControls(actions, 'preferences.conversation_style'),
        pastOf(p, 'preferences.conversation_style'),
        remover(actions, 'preferences.conversation_style'),
      ),
    ),
    h('h3', null, 'Topics to avoid'),
    scoredList(p.preferences.topicsToAvoid, 'None.', valueControls(actions, 'preferences.topics_to_avoid')),
  )
}

/** The profile's fields: summary, core info, interests, personality and preferences, each value with its confidence. */
import { h } from '../../dom'
import type { Profile } from '../../types'
import { confidenceBar, dateTime } from '../../ui'
import type { EditActions } from './edits'
import { empty, none, section } from './section'

/** The remove control of a value, when the page offers edits. */
type Remove = ((value: string | number) => HTMLButtonElement) | undefined

/** A value with its confidence, as the schema's ScoredString and ScoredInt. */
interface Scored {
  value: string | number
  confidence: number
}

function scoredRow(label: string, scored: Scored | null, remove?: Remove): HTMLElement {
  return h(
    'div',
    { class: 'scored-row' },
    h('dt', null, label),
    h(
      'dd',
      null,
      scored ? [h('span', { class: 'scored-value' }, String(scored.value)), confidenceBar(scored.confidence), remove?.(scored.value) ?? null] : none(),
    ),
  )
}

function scoredList(items: Scored[], emptyText: string, remove?: Remove): HTMLElement {
  if (items.length === 0) return empty(emptyText)
  return h(
    'ul',
    { class: 'scored-list' },
    items.map((item) => h('li', null, h('span', { class: 'scored-value' }, item.value), confidenceBar(item.confidence), remove?.(item.value) ?? null)),
  )
}

const remover = (edits: EditActions | undefined, section: string, category?: string): Remove =>
  edits && ((value) => edits.forget(section, value, category))

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

export function coreInfoSection(p: Profile, edits?: EditActions): HTMLElement {
  const c = p.coreInfo
  return section(
    'core-info',
    'Core info',
    h(
      'dl',
      { class: 'scored-grid' },
      scoredRow('Name', c.name, remover(edits, 'core_info.name')),
      scoredRow('Age', c.age, remover(edits, 'core_info.age')),
      scoredRow('Gender', c.gender, remover(edits, 'core_info.gender')),
      scoredRow('Location', c.location, remover(edits, 'core_info.location')),
      scoredRow('Occupation', c.occupation, remover(edits, 'core_info.occupation')),
    ),
  )
}

export function interestsSection(p: Profile, edits?: EditActions): HTMLElement {
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
          scoredList(category.values, 'None', remover(edits, 'interests', category.category)),
        ),
      ),
    ),
  )
}

export function personalitySection(p: Profile, edits?: EditActions): HTMLElement {
  const mood = p.personality.moodTrends
  return section(
    'personality',
    'Personality and mood',
    h('h3', null, 'Traits'),
    scoredList(p.personality.traits, 'No traits yet.', remover(edits, 'personality.traits')),
    h('h3', null, 'Mood'),
    h('dl', { class: 'scored-grid' }, scoredRow('Usual mood', mood.default), scoredRow('Recent mood', mood.recent)),
  )
}

export function preferencesSection(p: Profile, edits?: EditActions): HTMLElement {
  return section(
    'preferences',
    'Preferences',
    h('dl', { class: 'scored-grid' }, scoredRow('Conversation style', p.preferences.conversationStyle, remover(edits, 'preferences.conversation_style'))),
    h('h3', null, 'Topics to avoid'),
    scoredList(p.preferences.topicsToAvoid, 'None.', remover(edits, 'preferences.topics_to_avoid')),
  )
}

/** The frame every section of the profile page shares. */
import { h, type Child } from '../../dom'

/** A card with an h2 that "Load more" can move focus to (`#<id>-title`). */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { class: 'card profile-section', 'aria-labelledby': `${id}-title`, 'data-section': id },
    h('h2', { id: `${id}-title`, tabindex: -1 }, title),
    ...children,
  )
}

/** Muted text standing in for a missing value. */
export function none(text = 'Unknown'): HTMLElement {
  return h('span', { class: 'muted' }, text)
}

/** Muted text standing in for an empty list. */
export function empty(text: string): HTMLElement {
  return h('p', { class: 'muted' }, text)
}

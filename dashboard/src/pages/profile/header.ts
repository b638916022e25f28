/** The profile page's header: back link, title, status badge, live indicator and actions. */
import { h } from '../../dom'

export interface ProfileHeader {
  /** The breadcrumb and the header row, in page order. */
  nodes: HTMLElement[]
  heading: HTMLElement
  /** Shows the status badge (hidden while it is null). */
  showStatus(status: string | null): void
}

export function profileHeader(id: string, live: HTMLElement, actions: HTMLElement): ProfileHeader {
  const badge = h('span', { class: 'badge', 'data-testid': 'profile-status', hidden: true })
  const heading = h('h1', { tabindex: -1, class: 'profile-title' }, 'Profile ', h('code', { class: 'profile-id' }, id))
  return {
    nodes: [
      h('p', { class: 'breadcrumb' }, h('a', { href: '#/profiles' }, '← All profiles')),
      h(
        'div',
        { class: 'profile-header' },
        heading,
        h('div', { class: 'profile-header-status' }, badge, live),
        h('div', { class: 'profile-header-actions' }, actions),
      ),
    ],
    heading,
    showStatus(status) {
      badge.hidden = status === null
      badge.textContent = status ?? ''
      badge.className = `badge badge--${status ?? 'none'}`
    },
  }
}

/** What the profile page shows under its header: the profile's sections, or why there is none. */
import { h, type Child } from '../../dom'
import { errorText } from '../../ui'
import { customSection } from './custom'
import { coreInfoSection, interestsSection, personalitySection, preferencesSection, summarySection } from './fields'
import type { WhyActions } from './why'
import type { EditActions } from './edits'
import { historySection } from './history'
import { memoriesSection } from './memories'
import type { ProfileState } from './state'
import { submissionsSection } from './submissions'

export interface LoadMore {
  history(): void
  submissions(): void
}

export function profileBody(
  id: string,
  state: ProfileState,
  loadMore: LoadMore,
  edits?: EditActions,
  why?: WhyActions,
): Child[] {
  const p = state.profile
  if (!p) {
    return [
      state.loadError
        ? errorText(`Could not load the profile: ${state.loadError}`)
        : state.deleted
          ? h('p', { class: 'notice', 'data-testid': 'profile-deleted' }, `Profile ${id} was deleted.`)
          : h('p', { class: 'notice', 'data-testid': 'profile-not-found' }, `No profile with id ${id}.`),
      h('p', { class: 'muted' }, 'This page stays live: if data arrives for this id, the profile appears here.'),
    ]
  }
  const actions = { edits, why }
  return [
    h(
      'div',
      { class: 'profile-grid' },
      summarySection(p),
      coreInfoSection(p, actions),
      interestsSection(p, actions),
      personalitySection(p, actions),
      preferencesSection(p, actions),
      customSection(p, actions),
      memoriesSection(p, actions),
    ),
    historySection(state.history, loadMore.history, edits),
    submissionsSection(state.submissions, loadMore.submissions, edits?.deleteEvidence),
  ]
}

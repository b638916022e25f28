/**
 * #/profiles/<id>: one profile, kept up to date live through the profileStatusChanged subscription. This file wires
 * the page together; its parts are in ./profile/: the header, the sections, the paged lists, the live subscription
 * and the delete action.
 */
import { errorMessage, gql } from '../api'
import { h, replace } from '../dom'
import { PROFILE, PROFILE_HISTORY, PROFILE_SUBMISSIONS } from '../queries'
import type { Page } from '../router'
import { announce } from '../ui'
import { profileBody } from './profile/body'
import { contextPanel } from './profile/context'
import { reextractPanel } from './profile/reextract'
import { deleteAction } from './profile/delete'
import { editActions } from './profile/edits'
import { profileHeader } from './profile/header'
import { historyKey, historyPage } from './profile/history'
import { liveProfile } from './profile/live'
import { loadNextPage, type PageOf, type Paged } from './profile/paged'
import { applyEvent, applyProfile, initialState, markDeleted, statusOf } from './profile/state'
import { submissionKey, submissionPage } from './profile/submissions'
import { whyActions } from './profile/why'

export const profilePage: Page = ({ root, route, signal, onLeave }) => {
  const id = route.profileId ?? ''
  document.title = `Profile ${id} · Profiler`
  const state = initialState()
  /** Counts applied live events, so that a slower first load does not overwrite a newer event. */
  let eventsApplied = 0

  const live = liveProfile(
    id,
    { signal, onLeave },
    {
      event(event) {
        eventsApplied += 1
        const message = applyEvent(state, event)
        if (message) announce(message)
        why.refresh()
        render()
      },
      restarted: () => void load(),
    },
  )
  const remove = deleteAction(id, signal, () => {
    markDeleted(state)
    render()
    header.heading.focus()
  })
  const edits = editActions(
    id,
    signal,
    (profile) => {
      applyProfile(state, profile)
      why.refresh()
      render()
    },
    (submissionId) => {
      // The row says its text is gone; "Why?" panels no longer quote its passages.
      state.submissions.items = state.submissions.items.map((s) =>
        s.id === submissionId ? { ...s, hasText: false } : s,
      )
      why.refresh()
      render()
    },
  )
  // "Why?" beside a value: its evidence passages, each linking to its row of the Submissions list.
  const why = whyActions(id, signal, (submissionId) => {
    const row = content.querySelector<HTMLElement>(`[data-submission="${CSS.escape(submissionId)}"]`)
    if (!row) {
      announce(
        `Submission ${submissionId} is not on the loaded pages of the Submissions list: load more there to see it.`,
      )
      return
    }
    row.scrollIntoView({ block: 'center' })
    row.focus()
  })
  const header = profileHeader(id, live.indicator, remove.button)
  const content = h(
    'div',
    { class: 'profile-content', 'aria-busy': 'true' },
    h('p', { class: 'muted' }, 'Loading profile…'),
  )
  const context = contextPanel(id, signal)
  context.element.hidden = true
  const reextract = reextractPanel(id, signal)
  reextract.element.hidden = true

  function render(): void {
    header.showStatus(statusOf(state))
    remove.button.hidden = state.profile === null
    context.element.hidden = state.profile === null
    reextract.element.hidden = state.profile === null
    if (!state.loaded) return
    content.removeAttribute('aria-busy')
    // Keep keyboard focus on the same control across a re-render.
    const focusedKey = document.activeElement?.getAttribute('data-key') ?? null
    replace(
      content,
      ...profileBody(
        id,
        state,
        { history: () => void loadMoreHistory(), submissions: () => void loadMoreSubmissions() },
        edits,
        why,
      ),
    )
    if (focusedKey) content.querySelector<HTMLElement>(`[data-key="${focusedKey}"]`)?.focus()
  }

  async function load(): Promise<void> {
    const before = eventsApplied
    try {
      const data = await gql(PROFILE, { id }, signal)
      if (signal.aborted || eventsApplied !== before) return
      state.loadError = null
      applyProfile(state, data.profile)
    } catch (err) {
      if (signal.aborted || eventsApplied !== before) return
      state.loadError = errorMessage(err)
    }
    state.loaded = true
    render()
  }

  /** Loads the next page of a list; once the list is complete, focus moves to its section's heading. */
  async function loadMore<T>(
    sectionId: string,
    paged: () => Paged<T>,
    fetchPage: (after: string | null) => Promise<PageOf<T> | null>,
    key: (item: T) => string,
  ): Promise<void> {
    if (!(await loadNextPage(paged, fetchPage, key, signal, render))) return
    if (!paged().hasNextPage) content.querySelector<HTMLElement>(`#${sectionId}-title`)?.focus()
  }

  const loadMoreHistory = (): Promise<void> =>
    loadMore(
      'history',
      () => state.history,
      async (after) => {
        const { profile } = await gql(PROFILE_HISTORY, { id, after }, signal)
        return profile && historyPage(profile.history)
      },
      historyKey,
    )

  const loadMoreSubmissions = (): Promise<void> =>
    loadMore(
      'submissions',
      () => state.submissions,
      async (after) => {
        const { profile } = await gql(PROFILE_SUBMISSIONS, { id, after }, signal)
        return profile && submissionPage(profile.submissions)
      },
      submissionKey,
    )

  root.append(...header.nodes, remove.error, context.element, reextract.element, content)
  live.start()
  void load()
}

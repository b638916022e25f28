/** What the profile page knows, and how a load, a live event or a deletion changes it (no DOM here). */
import type { HistoryEntry, Profile, ProfileStatusEvent, Submission } from '../../types'
import { historyKey, historyPage } from './history'
import { emptyPaged, mergeFirstPage, type Paged } from './paged'
import { submissionKey, submissionPage } from './submissions'

export interface ProfileState {
  /** The first load finished (found or not). */
  loaded: boolean
  loadError: string | null
  profile: Profile | null
  /** Deleted while this page was open (by this page or elsewhere). */
  deleted: boolean
  history: Paged<HistoryEntry>
  submissions: Paged<Submission>
}

export function initialState(): ProfileState {
  return {
    loaded: false,
    loadError: null,
    profile: null,
    deleted: false,
    history: emptyPaged(),
    submissions: emptyPaged(),
  }
}

/** The status badge's text: processing, ready, deleted, or null before anything is known. */
export function statusOf(state: ProfileState): string | null {
  return state.deleted ? 'deleted' : state.profile ? state.profile.status.toLowerCase() : null
}

/** A fresh profile, or null when there is none; pages the visitor loaded beyond the first are kept. */
export function applyProfile(state: ProfileState, profile: Profile | null): void {
  state.profile = profile
  if (profile) {
    state.deleted = false
    state.history = mergeFirstPage(state.history, historyPage(profile.history), historyKey)
    state.submissions = mergeFirstPage(state.submissions, submissionPage(profile.submissions), submissionKey)
  } else {
    state.history = emptyPaged()
    state.submissions = emptyPaged()
  }
}

export function markDeleted(state: ProfileState): void {
  state.deleted = true
  applyProfile(state, null)
  state.loaded = true
  state.loadError = null
}

/** Applies a live event of this profile; returns what to announce, if anything. */
export function applyEvent(state: ProfileState, event: ProfileStatusEvent): string | null {
  const id = event.profileId
  const wasMissing = state.profile === null
  if (event.status === 'DELETED' || event.profile === null) {
    const wasDeleted = state.deleted
    markDeleted(state)
    return wasDeleted ? null : `Deleted profile ${id}.`
  }
  state.loaded = true
  state.loadError = null
  applyProfile(state, event.profile)
  const status = event.status.toLowerCase()
  return wasMissing ? `Profile ${id} appeared (${status}).` : `Profile updated: ${status}.`
}

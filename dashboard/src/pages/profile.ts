/** #/profiles/<id>: one profile, kept up to date live through the profileStatusChanged subscription. */
import { errorMessage, gql, onLiveState, subscribe, type ApiError, type LiveState } from '../api'
import { h, replace, type Child } from '../dom'
import {
  DELETE_PROFILE,
  PROFILE,
  PROFILE_HISTORY,
  PROFILE_STATUS_CHANGED,
  PROFILE_SUBMISSIONS,
} from '../queries'
import type { TypedDocumentString } from '../generated/graphql'
import type { Page } from '../router'
import type { HistoryEntry, Memory, Profile, ProfileStatusEvent, Submission } from '../types'
import { announce, confidenceBar, confirmDialog, dataTable, dateOnly, dateTime, errorText, showError, statusBadge } from '../ui'

/** A list that is read page by page ("Load more"). */
interface Paged<T> {
  items: T[]
  endCursor: string | null
  hasNextPage: boolean
  /** More than the first page has been loaded. */
  extended: boolean
  loading: boolean
  error: string | null
}

interface State {
  /** The first load finished (found or not). */
  loaded: boolean
  loadError: string | null
  profile: Profile | null
  /** Deleted while this page was open (by this page or elsewhere). */
  deleted: boolean
  history: Paged<HistoryEntry>
  submissions: Paged<Submission>
}

function emptyPaged<T>(): Paged<T> {
  return { items: [], endCursor: null, hasNextPage: false, extended: false, loading: false, error: null }
}

/**
 * Takes the first page that came with a fresh profile. If the visitor had loaded more pages, those are kept (merged
 * by key, newer data winning) and "Load more" continues from where they were.
 */
function mergeFirstPage<T>(
  old: Paged<T>,
  items: T[],
  endCursor: string | null,
  hasNextPage: boolean,
  key: (item: T) => string,
): Paged<T> {
  if (!old.extended) return { ...emptyPaged<T>(), items, endCursor, hasNextPage }
  const byKey = new Map<string, T>()
  for (const item of old.items) byKey.set(key(item), item)
  for (const item of items) byKey.set(key(item), item)
  return { ...old, items: [...byKey.values()], hasNextPage: true, loading: false, error: null }
}

/** A value with its confidence, as the schema's ScoredString and ScoredInt. */
interface Scored<T = string> {
  value: T
  confidence: number
}

const historyKey = (e: HistoryEntry): string => String(e.seq)
const submissionKey = (s: Submission): string => s.id

// --- rendering of the sections (pure functions of the data) -----------------------------------------------------

function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { class: 'card profile-section', 'aria-labelledby': `${id}-title`, 'data-section': id },
    h('h2', { id: `${id}-title`, tabindex: -1 }, title),
    ...children,
  )
}

function none(text = 'Unknown'): HTMLElement {
  return h('span', { class: 'muted' }, text)
}

function scoredRow(label: string, scored: Scored<string | number> | null): HTMLElement {
  return h(
    'div',
    { class: 'scored-row' },
    h('dt', null, label),
    h('dd', null, scored ? [h('span', { class: 'scored-value' }, String(scored.value)), confidenceBar(scored.confidence)] : none()),
  )
}

function scoredList(items: Scored[], emptyText: string): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, emptyText)
  return h(
    'ul',
    { class: 'scored-list' },
    items.map((item) => h('li', null, h('span', { class: 'scored-value' }, item.value), confidenceBar(item.confidence))),
  )
}

function summarySection(p: Profile): HTMLElement {
  return section(
    'summary',
    'Summary',
    p.summary ? h('p', { class: 'summary-text' }, p.summary) : h('p', { class: 'muted' }, 'No summary yet.'),
    h(
      'dl',
      { class: 'meta' },
      h('div', null, h('dt', null, 'Language'), h('dd', null, p.language ?? none())),
      h('div', null, h('dt', null, 'Created'), h('dd', null, dateTime(p.createdAt))),
      h('div', null, h('dt', null, 'Last updated'), h('dd', null, dateTime(p.lastUpdated))),
    ),
  )
}

function coreInfoSection(p: Profile): HTMLElement {
  const c = p.coreInfo
  return section(
    'core-info',
    'Core info',
    h(
      'dl',
      { class: 'scored-grid' },
      scoredRow('Name', c.name),
      scoredRow('Age', c.age),
      scoredRow('Gender', c.gender),
      scoredRow('Location', c.location),
      scoredRow('Occupation', c.occupation),
    ),
  )
}

function interestsSection(p: Profile): HTMLElement {
  if (p.interests.length === 0) return section('interests', 'Interests', h('p', { class: 'muted' }, 'No interests yet.'))
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
          scoredList(category.values, 'None'),
        ),
      ),
    ),
  )
}

function personalitySection(p: Profile): HTMLElement {
  const mood = p.personality.moodTrends
  return section(
    'personality',
    'Personality and mood',
    h('h3', null, 'Traits'),
    scoredList(p.personality.traits, 'No traits yet.'),
    h('h3', null, 'Mood'),
    h('dl', { class: 'scored-grid' }, scoredRow('Usual mood', mood.default), scoredRow('Recent mood', mood.recent)),
  )
}

function preferencesSection(p: Profile): HTMLElement {
  return section(
    'preferences',
    'Preferences',
    h('dl', { class: 'scored-grid' }, scoredRow('Conversation style', p.preferences.conversationStyle)),
    h('h3', null, 'Topics to avoid'),
    scoredList(p.preferences.topicsToAvoid, 'None.'),
  )
}

/** Dated memories in date order, then the undated ones in the order given. */
export function orderMemories(memories: Memory[]): Memory[] {
  const dated = memories.filter((m) => m.date).sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''))
  return [...dated, ...memories.filter((m) => !m.date)]
}

function memoriesSection(p: Profile): HTMLElement {
  const memories = orderMemories(p.memories)
  if (memories.length === 0) return section('memories', 'Memories', h('p', { class: 'muted' }, 'No memories yet.'))
  return section(
    'memories',
    'Memories',
    h(
      'ol',
      { class: 'timeline' },
      memories.map((m) =>
        h(
          'li',
          { class: `timeline-item${m.date ? '' : ' timeline-item--undated'}` },
          h('div', { class: 'timeline-date' }, m.date ? dateOnly(m.date) : 'Undated'),
          h('p', { class: 'timeline-event' }, m.event),
          h(
            'div',
            { class: 'timeline-meta' },
            m.importance ? h('span', { class: `badge badge--importance-${m.importance}` }, `${m.importance} importance`) : null,
            m.confidence !== null ? confidenceBar(m.confidence) : null,
          ),
        ),
      ),
    ),
  )
}

/** Flattens a changes object into "path: value" lines; {value, confidence} objects become one line with a bar. */
function describeChanges(value: unknown, path: string, out: HTMLElement[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>
    if ('value' in obj && ('confidence' in obj || Object.keys(obj).length === 1)) {
      out.push(
        h(
          'li',
          null,
          h('span', { class: 'change-path' }, path || 'value'),
          ': ',
          h('span', { class: 'change-value' }, formatLeaf(obj.value)),
          typeof obj.confidence === 'number' ? confidenceBar(obj.confidence) : null,
        ),
      )
      return
    }
    const entries = Object.entries(obj)
    if (entries.length === 0) {
      out.push(h('li', null, h('span', { class: 'change-path' }, path || '(empty)'), ': (none)'))
      return
    }
    for (const [key, child] of entries) describeChanges(child, path ? `${path}.${key}` : key, out)
    return
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out.push(h('li', null, h('span', { class: 'change-path' }, path), ': (none)'))
    value.forEach((item, index) => describeChanges(item, `${path}[${index}]`, out))
    return
  }
  out.push(h('li', null, h('span', { class: 'change-path' }, path), ': ', h('span', { class: 'change-value' }, formatLeaf(value))))
}

function formatLeaf(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return '(none)'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function loadMoreButton(key: string, paged: Paged<unknown>, onClick: () => void): Child[] {
  return [
    paged.error ? h('p', { class: 'error', role: 'alert' }, paged.error) : null,
    paged.hasNextPage
      ? h(
          'button',
          { type: 'button', class: 'button', 'data-key': key, disabled: paged.loading, onclick: onClick },
          paged.loading ? 'Loading…' : 'Load more',
        )
      : null,
  ]
}

function historySection(history: Paged<HistoryEntry>, loadMore: () => void): HTMLElement {
  const body: Child[] =
    history.items.length === 0
      ? [h('p', { class: 'muted' }, 'No updates yet.')]
      : [
          h(
            'ol',
            { class: 'history' },
            history.items.map((entry) => {
              const lines: HTMLElement[] = []
              describeChanges(entry.changes, '', lines)
              return h(
                'li',
                { class: 'history-entry' },
                h(
                  'div',
                  { class: 'history-head' },
                  h('span', { class: 'history-seq' }, `#${entry.seq}`),
                  ' ',
                  dateTime(entry.extractedOn),
                  ' ',
                  h('span', { class: 'badge' }, entry.inputType.toLowerCase()),
                ),
                lines.length > 0 ? h('ul', { class: 'changes' }, lines) : h('p', { class: 'muted' }, 'No changes.'),
                entry.submissionIds.length > 0
                  ? h('p', { class: 'muted small' }, `Submission${entry.submissionIds.length === 1 ? '' : 's'}: ${entry.submissionIds.join(', ')}`)
                  : null,
              )
            }),
          ),
        ]
  return section('history', 'History', h('p', { class: 'hint' }, 'Every update, oldest first.'), ...body, ...loadMoreButton('history-more', history, loadMore))
}

function submissionsSection(submissions: Paged<Submission>, loadMore: () => void): HTMLElement {
  const body: Child =
    submissions.items.length === 0
      ? h('p', { class: 'muted' }, 'No submissions.')
      : dataTable(
          'Submissions table',
          ['Id', 'Input type', 'Status', 'Attempts', 'Error', 'Created', 'Started', 'Finished', 'Tokens', 'Prompt'],
          submissions.items.map((s) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, h('code', { class: 'small' }, s.id)),
              h('td', null, s.inputType.toLowerCase()),
              h('td', null, statusBadge(s.status)),
              h('td', { class: 'num' }, String(s.attempts)),
              h('td', { class: 'cell-error' }, s.error ?? none('—')),
              h('td', null, dateTime(s.createdAt)),
              h('td', null, dateTime(s.startedAt)),
              h('td', null, dateTime(s.finishedAt)),
              h('td', { class: 'num' }, s.usage ? String(s.usage.totalTokens) : none('—')),
              h('td', null, s.promptVersion ?? none('—')),
            ),
          ),
          'table table--compact',
        )
  return section(
    'submissions',
    'Submissions',
    h('p', { class: 'hint' }, 'The data sent for this profile, oldest first.'),
    body,
    ...loadMoreButton('submissions-more', submissions, loadMore),
  )
}

const LIVE_TEXT: Record<LiveState | 'error', string> = {
  idle: 'Connecting…',
  connecting: 'Connecting…',
  connected: 'Live',
  closed: 'Reconnecting…',
  error: 'Offline',
}

// --- the page --------------------------------------------------------------------------------------------------

export const profilePage: Page = ({ root, route, signal, onLeave }) => {
  const id = route.profileId ?? ''
  document.title = `Profile ${id} · Profiler`
  const state: State = {
    loaded: false,
    loadError: null,
    profile: null,
    deleted: false,
    history: emptyPaged(),
    submissions: emptyPaged(),
  }
  /** Counts applied live events, so that a slower first load does not overwrite a newer event. */
  let eventsApplied = 0

  const badge = h('span', { class: 'badge', 'data-testid': 'profile-status', hidden: true })
  const live = h('span', { class: 'live live--connecting', 'data-testid': 'live-indicator' }, LIVE_TEXT.connecting)
  const deleteButton = h('button', { type: 'button', class: 'button button--danger', hidden: true }, 'Delete profile')
  const deleteError = errorText()
  const content = h('div', { class: 'profile-content', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading profile…'))
  const heading = h('h1', { tabindex: -1, class: 'profile-title' }, 'Profile ', h('code', { class: 'profile-id' }, id))

  // --- live indicator ----------------------------------------------------------------------------------------

  let liveError = false
  let socketState: LiveState = 'idle'
  function renderLive(): void {
    const key: LiveState | 'error' = liveError ? 'error' : socketState
    live.textContent = LIVE_TEXT[key]
    live.className = `live live--${key === 'connected' ? 'on' : key === 'error' ? 'off' : 'connecting'}`
    live.title =
      key === 'connected'
        ? 'Changes to this profile appear here as they happen.'
        : key === 'error'
          ? 'Live updates are unavailable; retrying.'
          : 'Connecting to live updates.'
  }
  onLeave(
    onLiveState((s) => {
      socketState = s
      renderLive()
    }),
  )

  // --- rendering -----------------------------------------------------------------------------------------------

  function renderBadge(): void {
    const status = state.deleted ? 'deleted' : state.profile ? state.profile.status.toLowerCase() : null
    badge.hidden = status === null
    badge.textContent = status ?? ''
    badge.className = `badge badge--${status ?? 'none'}`
    deleteButton.hidden = state.profile === null
  }

  function render(): void {
    renderBadge()
    if (!state.loaded) return
    content.removeAttribute('aria-busy')
    // Keep keyboard focus on the same control across a re-render.
    const focusedKey = document.activeElement?.getAttribute('data-key') ?? null

    const p = state.profile
    if (!p) {
      replace(
        content,
        state.loadError
          ? h('p', { class: 'error', role: 'alert' }, `Could not load the profile: ${state.loadError}`)
          : state.deleted
            ? h('p', { class: 'notice', 'data-testid': 'profile-deleted' }, `Profile ${id} was deleted.`)
            : h('p', { class: 'notice', 'data-testid': 'profile-not-found' }, `No profile with id ${id}.`),
        h('p', { class: 'muted' }, 'This page stays live: if data arrives for this id, the profile appears here.'),
      )
    } else {
      replace(
        content,
        h(
          'div',
          { class: 'profile-grid' },
          summarySection(p),
          coreInfoSection(p),
          interestsSection(p),
          personalitySection(p),
          preferencesSection(p),
          memoriesSection(p),
        ),
        historySection(state.history, () => void loadMoreHistory()),
        submissionsSection(state.submissions, () => void loadMoreSubmissions()),
      )
    }
    if (focusedKey) content.querySelector<HTMLElement>(`[data-key="${focusedKey}"]`)?.focus()
  }

  function applyProfile(profile: Profile | null): void {
    state.profile = profile
    if (profile) {
      state.deleted = false
      state.history = mergeFirstPage(
        state.history,
        profile.history.entries,
        profile.history.pageInfo.endCursor,
        profile.history.pageInfo.hasNextPage,
        historyKey,
      )
      state.submissions = mergeFirstPage(
        state.submissions,
        profile.submissions.nodes,
        profile.submissions.pageInfo.endCursor,
        profile.submissions.pageInfo.hasNextPage,
        submissionKey,
      )
    } else {
      state.history = emptyPaged()
      state.submissions = emptyPaged()
    }
  }

  function markDeleted(): void {
    state.deleted = true
    applyProfile(null)
    state.loaded = true
    state.loadError = null
  }

  // --- loading -------------------------------------------------------------------------------------------------

  async function load(): Promise<void> {
    const before = eventsApplied
    try {
      const data = await gql(PROFILE, { id }, signal)
      if (signal.aborted || eventsApplied !== before) return
      state.loadError = null
      applyProfile(data.profile)
    } catch (err) {
      if (signal.aborted || eventsApplied !== before) return
      state.loadError = errorMessage(err)
    }
    state.loaded = true
    render()
  }

  async function loadMore<T, P>(
    paged: () => Paged<T>,
    document: TypedDocumentString<{ profile: P | null }, { id: string; after: string | null }>,
    pick: (profile: P) => { items: T[]; endCursor: string | null; hasNextPage: boolean },
    key: (item: T) => string,
    sectionId: string,
  ): Promise<void> {
    const current = paged()
    if (current.loading || !current.hasNextPage) return
    current.loading = true
    current.error = null
    render()
    try {
      const data = await gql(document, { id, after: current.endCursor }, signal)
      if (signal.aborted) return
      const target = paged()
      target.loading = false
      if (!data.profile) {
        target.hasNextPage = false
      } else {
        const page = pick(data.profile)
        const byKey = new Map<string, T>()
        for (const item of target.items) byKey.set(key(item), item)
        for (const item of page.items) byKey.set(key(item), item)
        target.items = [...byKey.values()]
        target.endCursor = page.endCursor ?? target.endCursor
        target.hasNextPage = page.hasNextPage
        target.extended = true
      }
    } catch (err) {
      if (signal.aborted) return
      const target = paged()
      target.loading = false
      target.error = `Could not load more: ${errorMessage(err)}`
    }
    render()
    if (!paged().hasNextPage) content.querySelector<HTMLElement>(`#${sectionId}-title`)?.focus()
  }

  const loadMoreHistory = (): Promise<void> =>
    loadMore(
      () => state.history,
      PROFILE_HISTORY,
      (p) => ({ items: p.history.entries, endCursor: p.history.pageInfo.endCursor, hasNextPage: p.history.pageInfo.hasNextPage }),
      historyKey,
      'history',
    )

  const loadMoreSubmissions = (): Promise<void> =>
    loadMore(
      () => state.submissions,
      PROFILE_SUBMISSIONS,
      (p) => ({
        items: p.submissions.nodes,
        endCursor: p.submissions.pageInfo.endCursor,
        hasNextPage: p.submissions.pageInfo.hasNextPage,
      }),
      submissionKey,
      'submissions',
    )

  // --- live updates ----------------------------------------------------------------------------------------------

  let stop: (() => void) | null = null
  let retryTimer: number | undefined
  let retryDelay = 1000

  function onEvent(event: ProfileStatusEvent): void {
    if (event.profileId !== id) return
    eventsApplied += 1
    retryDelay = 1000
    const wasMissing = state.profile === null
    if (event.status === 'DELETED' || event.profile === null) {
      const wasDeleted = state.deleted
      markDeleted()
      if (!wasDeleted) announce(`Deleted profile ${id}.`)
    } else {
      state.loaded = true
      state.loadError = null
      applyProfile(event.profile)
      announce(wasMissing ? `Profile ${id} appeared (${event.status.toLowerCase()}).` : `Profile updated: ${event.status.toLowerCase()}.`)
    }
    render()
  }

  function startLive(): void {
    liveError = false
    renderLive()
    stop = subscribe(
      PROFILE_STATUS_CHANGED,
      { id },
      {
        next: (data) => onEvent(data.profileStatusChanged),
        error: (err: ApiError) => {
          stop = null
          if (signal.aborted || err.code === 'UNAUTHENTICATED') return
          liveError = true
          renderLive()
          scheduleRetry()
        },
        complete: () => {
          stop = null
          if (signal.aborted) return
          scheduleRetry()
        },
      },
    )
  }

  function scheduleRetry(): void {
    window.clearTimeout(retryTimer)
    retryTimer = window.setTimeout(() => {
      if (signal.aborted) return
      startLive()
      // Catch up with whatever changed while the subscription was down.
      void load()
    }, retryDelay)
    retryDelay = Math.min(retryDelay * 2, 30_000)
  }

  onLeave(() => {
    window.clearTimeout(retryTimer)
    stop?.()
    stop = null
  })

  // --- delete --------------------------------------------------------------------------------------------------

  deleteButton.addEventListener('click', async () => {
    showError(deleteError, null)
    const ok = await confirmDialog({
      title: 'Delete this profile?',
      message: `Profile ${id}, its history, its pending submissions and its search entry are deleted. This cannot be undone.`,
      confirmLabel: 'Delete',
    })
    if (!ok || signal.aborted) return
    deleteButton.disabled = true
    try {
      await gql(DELETE_PROFILE, { id }, signal)
      if (signal.aborted) return
      markDeleted()
      render()
      heading.focus()
      announce(`Deleted profile ${id}.`)
    } catch (err) {
      if (signal.aborted) return
      showError(deleteError, `Could not delete the profile: ${errorMessage(err)}`)
    } finally {
      deleteButton.disabled = false
    }
  })

  root.append(
    h('p', { class: 'breadcrumb' }, h('a', { href: '#/profiles' }, '← All profiles')),
    h(
      'div',
      { class: 'profile-header' },
      heading,
      h('div', { class: 'profile-header-status' }, badge, live),
      h('div', { class: 'profile-header-actions' }, deleteButton),
    ),
    deleteError,
    content,
  )

  startLive()
  void load()
}

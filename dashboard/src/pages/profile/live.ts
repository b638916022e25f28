/**
 * The profile page's live updates: the profileStatusChanged subscription, restarted with backoff when it fails or
 * ends, and the indicator that says whether it is live.
 */
import { onLiveState, subscribe, type ApiError, type LiveState } from '../../api'
import { h } from '../../dom'
import { PROFILE_STATUS_CHANGED } from '../../queries'
import type { PageContext } from '../../router'
import type { ProfileStatusEvent } from '../../types'

const LIVE_TEXT: Record<LiveState | 'error', string> = {
  idle: 'Connecting…',
  connecting: 'Connecting…',
  connected: 'Live',
  closed: 'Reconnecting…',
  error: 'Offline',
}

export interface LiveHandlers {
  /** An event of this profile. */
  event(event: ProfileStatusEvent): void
  /** The subscription was restarted: catch up with whatever changed while it was down. */
  restarted(): void
}

export interface LiveProfile {
  indicator: HTMLElement
  /** Subscribes (once; restarts are its own). */
  start(): void
}

export function liveProfile(
  id: string,
  { signal, onLeave }: Pick<PageContext, 'signal' | 'onLeave'>,
  handlers: LiveHandlers,
): LiveProfile {
  const indicator = h('span', { class: 'live live--connecting', 'data-testid': 'live-indicator' }, LIVE_TEXT.connecting)
  let liveError = false
  let socketState: LiveState = 'idle'

  function renderIndicator(): void {
    const key: LiveState | 'error' = liveError ? 'error' : socketState
    indicator.textContent = LIVE_TEXT[key]
    indicator.className = `live live--${key === 'connected' ? 'on' : key === 'error' ? 'off' : 'connecting'}`
    indicator.title =
      key === 'connected'
        ? 'Changes to this profile appear here as they happen.'
        : key === 'error'
          ? 'Live updates are unavailable; retrying.'
          : 'Connecting to live updates.'
  }
  onLeave(
    onLiveState((s) => {
      socketState = s
      renderIndicator()
    }),
  )

  let stop: (() => void) | null = null
  let retryTimer: number | undefined
  let retryDelay = 1000

  function start(): void {
    liveError = false
    renderIndicator()
    stop = subscribe(
      PROFILE_STATUS_CHANGED,
      { id },
      {
        next: ({ profileStatusChanged: event }) => {
          if (event.profileId !== id) return
          retryDelay = 1000
          handlers.event(event)
        },
        error: (err: ApiError) => {
          stop = null
          if (signal.aborted || err.code === 'UNAUTHENTICATED') return
          liveError = true
          renderIndicator()
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
      start()
      handlers.restarted()
    }, retryDelay)
    retryDelay = Math.min(retryDelay * 2, 30_000)
  }

  onLeave(() => {
    window.clearTimeout(retryTimer)
    stop?.()
    stop = null
  })

  return { indicator, start }
}

/**
 * The profile page's "Why?" beside a value: the evidence passages that support it (Profile.evidence, README
 * "Provenance"), loaded when asked and shown under the value, each with when it was said and the submission it came
 * from. What is open, and what it loaded, survives the re-renders of live updates (kept here by value); a change of
 * the profile loads the open ones again.
 */
import { errorMessage, gql } from '../../api'
import { h } from '../../dom'
import type { EvidenceMatch, ProfileEvidenceQuery } from '../../generated/graphql'
import { PROFILE_EVIDENCE } from '../../queries'
import { dateTime, errorText } from '../../ui'

type Evidence = NonNullable<ProfileEvidenceQuery['profile']>['evidence']

interface Entry {
  n: number
  section: string
  value: string
  category?: string
  open: boolean
  /** Bumped by every load, so that a slower earlier answer does not overwrite a newer one. */
  loads: number
  data?: Evidence
  error?: string
  /** The elements of the last render. */
  button?: HTMLButtonElement
  panel?: HTMLElement
}

export interface WhyActions {
  /** A "Why?" toggle for a value, and the panel it opens (to be placed under the value). */
  why(section: string, value: string | number, category?: string): [HTMLButtonElement, HTMLElement]
  /** The profile changed: what is open is loaded again, what is closed is forgotten. */
  refresh(): void
}

const MATCH_TEXT: Record<EvidenceMatch, string> = {
  QUOTE: 'quoted by the model',
  EXTRACTION: 'extracted from it',
  WORDS: 'holds its words',
}

/** `showSubmission` brings a submission's row of the Submissions list into view. */
export function whyActions(
  id: string,
  signal: AbortSignal,
  showSubmission: (submissionId: string) => void,
): WhyActions {
  const entries = new Map<string, Entry>()
  let next = 0

  function passage(p: Evidence['passages'][number]): HTMLElement {
    return h(
      'li',
      { class: 'evidence-item' },
      p.prompt ? h('p', { class: 'evidence-prompt' }, `Asked: “${p.prompt}”`) : null,
      h('blockquote', { class: 'evidence-text' }, p.text),
      h(
        'p',
        { class: 'evidence-meta' },
        'Said ',
        dateTime(p.occurredAt),
        ' · ',
        h(
          'button',
          {
            type: 'button',
            class: 'link-button',
            'data-testid': 'why-submission',
            onclick: () => showSubmission(p.submissionId),
            title: p.submissionId,
          },
          'submission ',
          h('code', null, p.submissionId.slice(0, 8)),
        ),
        ` · ${MATCH_TEXT[p.match]}`,
      ),
    )
  }

  function fill(e: Entry): void {
    const panel = e.panel
    if (!panel) return
    panel.hidden = !e.open
    panel.replaceChildren()
    if (!e.open) return
    if (e.error) panel.append(errorText(`Could not load what supports it: ${e.error}`))
    else if (!e.data) panel.append(h('p', { class: 'muted' }, 'Loading…'))
    else if (!e.data.passages.length) {
      const from = e.data.sources.length
        ? ` It was extracted from ${e.data.sources.length === 1 ? 'a submission' : `${e.data.sources.length} submissions`} whose passages do not hold its words.`
        : ''
      panel.append(
        h(
          'p',
          { class: 'muted' },
          `No passage of what the person said supports it (any that did may have been hidden when a value was forgotten, or deleted with their submission's text).${from}`,
        ),
      )
    } else {
      panel.append(h('ol', { class: 'evidence-list', 'data-testid': 'why-passages' }, e.data.passages.map(passage)))
    }
  }

  async function load(e: Entry): Promise<void> {
    const mine = ++e.loads
    e.error = undefined
    fill(e)
    try {
      const data = await gql(
        PROFILE_EVIDENCE,
        { id, field: e.section, value: e.value, category: e.category ?? null },
        signal,
      )
      if (signal.aborted || mine !== e.loads) return
      if (data.profile) e.data = data.profile.evidence
      else e.error = 'this profile no longer exists'
    } catch (err) {
      if (signal.aborted || mine !== e.loads) return
      e.error = errorMessage(err)
    }
    fill(e)
  }

  return {
    why(section, value, category) {
      const text = String(value)
      const key = `${section}\u0000${category ?? ''}\u0000${text}`
      let e = entries.get(key)
      if (!e) {
        e = { n: next++, section, value: text, ...(category !== undefined ? { category } : {}), open: false, loads: 0 }
        entries.set(key, e)
      }
      const entry = e
      const panelId = `why-${entry.n}`
      const button = h(
        'button',
        {
          type: 'button',
          class: 'button button--small',
          'aria-expanded': String(entry.open),
          'aria-controls': panelId,
          'aria-label': `Why ${text}? What supports it`,
          'data-testid': 'why-value',
        },
        'Why?',
      )
      const panel = h('div', {
        class: 'why-panel',
        id: panelId,
        role: 'region',
        'aria-label': `What supports ${text}`,
        hidden: !entry.open,
      })
      entry.button = button
      entry.panel = panel
      fill(entry)
      button.addEventListener('click', () => {
        entry.open = !entry.open
        button.setAttribute('aria-expanded', String(entry.open))
        if (entry.open && !entry.data) void load(entry)
        else fill(entry)
      })
      return [button, panel]
    },
    refresh() {
      for (const [key, e] of entries) {
        if (!e.open) {
          entries.delete(key)
          continue
        }
        e.data = undefined
        void load(e)
      }
    },
  }
}

/**
 * The profile page's "Re-extract" panel: a dry run of Profile re-extraction (reextractProfile) shows what re-reading
 * the profile's stored submissions with the current model and prompt would change, and Apply writes exactly that diff
 * (expectedVersion: refused if the profile changed meanwhile). The page itself updates from the live subscription.
 */
import { errorMessage, gql } from '../../api'
import { h, replace } from '../../dom'
import { REEXTRACT_PROFILE } from '../../queries'
import { announce, errorText, showError } from '../../ui'

type Scored = { value: string | number; confidence?: number }
const isScored = (v: unknown): v is Scored => typeof v === 'object' && v !== null && 'value' in v

function show(v: Scored): string {
  return v.confidence === undefined ? String(v.value) : `${v.value} (${Math.round(v.confidence * 100)}%)`
}

/** The diff as lines a person reads: "+ core_info.location: Lisbon (95%), was Porto", "− interests.music: jazz". */
export function diffLines(changes: Record<string, any>): string[] {
  const lines: string[] = []
  const replaced: Record<string, Scored> = changes.replaced ?? {}
  const walk = (path: string, v: unknown): void => {
    if (isScored(v)) {
      const was = replaced[path]
      lines.push(`+ ${path}: ${show(v)}${was ? `, was ${was.value}` : ''}`)
    } else if (Array.isArray(v)) {
      for (const item of v) {
        if (isScored(item)) lines.push(`+ ${path}: ${show(item)}`)
        else if (item && typeof item === 'object' && 'event' in item)
          lines.push(`+ ${path}: ${item.event}${item.date ? ` (${item.date})` : ''}`)
      }
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) walk(`${path}.${k}`, child)
    } else if (v !== undefined) lines.push(`+ ${path}: ${String(v)}`)
  }
  for (const [k, v] of Object.entries(changes)) if (k !== 'replaced' && k !== 'removed' && k !== 'cleared') walk(k, v)
  for (const r of changes.removed ?? []) lines.push(`− ${r.section}${r.category ? `.${r.category}` : ''}: ${r.value}`)
  for (const c of changes.cleared ?? []) lines.push(`− ${c.path}: ${c.value}`)
  return lines
}

export function reextractPanel(id: string, signal: AbortSignal): { element: HTMLElement } {
  const run = h(
    'button',
    { type: 'button', class: 'button button--primary', 'data-action': 'reextract' },
    'Re-extract (dry run)',
  )
  const apply = h(
    'button',
    { type: 'button', class: 'button', 'data-action': 'apply-reextraction', hidden: true },
    'Apply',
  )
  const error = errorText()
  const status = h('p', { class: 'results-summary', 'aria-live': 'polite', 'data-testid': 'reextract-summary' })
  const diff = h('ul', { class: 'reextract-diff', 'data-testid': 'reextract-diff', hidden: true })
  const summary = h('p', { class: 'hint', 'data-testid': 'reextract-new-summary', hidden: true })
  let version: number | null = null
  let busy = false

  const setBusy = (b: boolean) => {
    busy = b
    run.disabled = b
    apply.disabled = b
  }

  run.addEventListener('click', async () => {
    if (busy) return
    showError(error, null)
    setBusy(true)
    apply.hidden = true
    status.textContent = 'Re-extracting (dry run)…'
    try {
      const { reextractProfile: r } = await gql(REEXTRACT_PROFILE, { id, dryRun: true, expectedVersion: null }, signal)
      if (signal.aborted) return
      version = r.version
      const lines = diffLines(r.changes)
      const skipped = r.skippedWithoutText ? `, ${r.skippedWithoutText} skipped (text dropped by retention)` : ''
      status.textContent = `Computed on version ${r.version} from ${r.reextracted} submissions${skipped} in ${r.batches} request${r.batches === 1 ? '' : 's'}: ${
        r.changed ? `${lines.length} change${lines.length === 1 ? '' : 's'}` : 'nothing would change'
      }.`
      replace(diff, ...lines.map((l) => h('li', { class: l.startsWith('−') ? 'diff-removed' : 'diff-added' }, l)))
      diff.hidden = lines.length === 0
      summary.textContent = `New summary: ${r.summary}`
      summary.hidden = false
      apply.hidden = !r.changed
    } catch (err) {
      if (signal.aborted) return
      status.textContent = ''
      showError(error, `Could not re-extract: ${errorMessage(err)}`)
    } finally {
      setBusy(false)
    }
  })

  apply.addEventListener('click', async () => {
    if (busy || version === null) return
    showError(error, null)
    setBusy(true)
    try {
      const { reextractProfile: r } = await gql(
        REEXTRACT_PROFILE,
        { id, dryRun: false, expectedVersion: version },
        signal,
      )
      if (signal.aborted) return
      apply.hidden = true
      status.textContent = `Applied: the profile is at version ${r.newVersion} now.`
      announce('Re-extraction applied.')
    } catch (err) {
      if (signal.aborted) return
      showError(error, `Could not apply: ${errorMessage(err)}`)
    } finally {
      setBusy(false)
    }
  })

  const element = h(
    'section',
    { class: 'card profile-section', 'aria-labelledby': 'reextract-title', 'data-section': 'reextract' },
    h('h2', { id: 'reextract-title', tabindex: -1 }, 'Re-extract'),
    h(
      'p',
      { class: 'hint' },
      "Re-reads this profile's stored submissions with the current model and prompt, and shows what would change. Apply replaces the profile with the result as one history entry.",
    ),
    h('div', { class: 'form-actions' }, run, apply),
    error,
    status,
    diff,
    summary,
  )
  return { element }
}

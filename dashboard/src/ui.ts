/** Small shared pieces of UI: status messages, confirmation dialogs, confidence bars, dates. */
import { h, uid, type Child } from './dom'

// --- the page-wide status region (aria-live="polite", in index.html) -------------------------------------------

let clearTimer: number | undefined
let shownAt = 0

/** Shows (and announces) a short status message under the header. */
export function announce(message: string, kind: 'info' | 'error' = 'info'): void {
  const region = document.getElementById('status-region')
  if (!region) return
  window.clearTimeout(clearTimer)
  region.textContent = ''
  region.classList.toggle('status-region--error', kind === 'error')
  // A fresh text node in a separate task, so that repeating the same message is announced again.
  window.setTimeout(() => {
    region.replaceChildren(h('p', { class: 'status-message' }, message))
    shownAt = Date.now()
    clearTimer = window.setTimeout(() => region.replaceChildren(), 10_000)
  }, 30)
}

/** On navigation: removes a message that has been on screen for a while (not one announced just now). */
export function clearStaleAnnouncement(): void {
  if (Date.now() - shownAt < 1500) return
  window.clearTimeout(clearTimer)
  document.getElementById('status-region')?.replaceChildren()
}

// --- inline error text for forms ---------------------------------------------------------------------------------

/** A role="alert" paragraph, empty unless given a message: next to a form, or where a load failed. */
export function errorText(message?: string): HTMLParagraphElement {
  return h('p', { class: 'error', role: 'alert' }, message)
}

export function showError(el: HTMLElement, message: string | null): void {
  el.textContent = message ?? ''
}

// --- confirmation dialogs ----------------------------------------------------------------------------------------

const openDialogs = new Set<HTMLDialogElement>()

export interface ConfirmOptions {
  title: string
  message: string
  /** The confirm button's text, naming the action ("Delete app"). */
  confirmLabel: string
  cancelLabel?: string
  destructive?: boolean
}

/** A native modal <dialog>; resolves true when the confirm button is pressed, false on Cancel or Escape. */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = uid('dialog-title')
    const messageId = uid('dialog-message')
    const cancel = h('button', { type: 'button', class: 'button' }, options.cancelLabel ?? 'Cancel')
    const confirm = h(
      'button',
      { type: 'button', class: options.destructive === false ? 'button button--primary' : 'button button--danger' },
      options.confirmLabel,
    )
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': titleId, 'aria-describedby': messageId },
      h('h2', { id: titleId, class: 'dialog-title' }, options.title),
      h('p', { id: messageId }, options.message),
      h('div', { class: 'dialog-actions' }, cancel, confirm),
    )
    const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null
    cancel.addEventListener('click', () => dialog.close('cancel'))
    confirm.addEventListener('click', () => dialog.close('confirm'))
    dialog.addEventListener('close', () => {
      openDialogs.delete(dialog)
      dialog.remove()
      if (previousFocus?.isConnected) previousFocus.focus()
      resolve(dialog.returnValue === 'confirm')
    })
    document.body.append(dialog)
    openDialogs.add(dialog)
    dialog.showModal()
    cancel.focus()
  })
}

/** Closes any open dialog as cancelled (when the page changes). */
export function closeDialogs(): void {
  for (const dialog of openDialogs) dialog.close('cancel')
}

// --- values --------------------------------------------------------------------------------------------------------

export function formatConfidence(confidence: number): string {
  return confidence.toFixed(2)
}

/** A <meter> 0..1 with its number as text, e.g. for "confidence 0.85". */
export function confidenceBar(confidence: number | null | undefined): HTMLElement {
  if (confidence === null || confidence === undefined || Number.isNaN(confidence)) {
    return h('span', { class: 'confidence confidence--none' }, 'no confidence')
  }
  const text = formatConfidence(confidence)
  return h(
    'span',
    { class: 'confidence' },
    h('meter', {
      min: 0,
      max: 1,
      low: 0.4,
      high: 0.75,
      optimum: 1,
      value: String(confidence),
      'aria-label': `confidence ${text}`,
    }),
    h('span', { class: 'confidence-value', 'aria-hidden': 'true' }, text),
  )
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** A <time> for an ISO 8601 date-time (shown in the browser's locale), or a dash. */
export function dateTime(iso: string | null | undefined): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—')
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return h('span', null, iso)
  return h('time', { datetime: iso, title: iso }, dateTimeFormat.format(date))
}

/** A <time> for a calendar date (YYYY-MM-DD), shown as written so that no time zone can shift it. */
export function dateOnly(iso: string | null | undefined): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—')
  return h('time', { datetime: iso }, iso)
}

/** Lower-case status text for badges (processing, ready, deleted, pending, done, failed). */
export function statusText(status: string): string {
  return status.toLowerCase()
}

export function statusBadge(status: string, attrs: Record<string, string> = {}): HTMLElement {
  const text = statusText(status)
  return h('span', { ...attrs, class: `badge badge--${text}` }, text)
}

/** A header cell: its text, and a class (e.g. `num` for right-aligned numbers). null leaves the column out. */
export type Column = string | { label: string; class: string } | null

/**
 * A table with one header row inside a focusable, labelled region that scrolls sideways on narrow screens (so the
 * page itself never does).
 */
export function dataTable(label: string, columns: readonly Column[], rows: Child, tableClass = 'table'): HTMLElement {
  const th = (c: Exclude<Column, null>) =>
    typeof c === 'string' ? h('th', { scope: 'col' }, c) : h('th', { scope: 'col', class: c.class }, c.label)
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': label },
    h(
      'table',
      { class: tableClass },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          columns.map((c) => (c === null ? null : th(c))),
        ),
      ),
      h('tbody', null, rows),
    ),
  )
}

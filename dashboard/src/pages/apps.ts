/** #/apps: the tenant's apps and their API keys. */
import { errorMessage, gql } from '../api'
import { h, labelled, replace, uid } from '../dom'
import { APPS, CREATE_APP, DELETE_APP, RENAME_APP, REVOKE_APP_KEY, ROTATE_APP_KEY } from '../queries'
import { retentionHref, schemaHref, summaryHref, webhooksHref, type Page } from '../router'
import type { DashboardApp } from '../types'
import { announce, confirmDialog, dataTable, dateTime, errorText, showError } from '../ui'

const NAME_HINT =
  'Any name, up to 100 characters ("My Web App"). Its short handle for scripts and the CLI (the slug) is made from it.'
const NAME_MAX = 100

export const appsPage: Page = ({ root, signal }) => {
  document.title = 'Apps · Profiler'
  let apps: DashboardApp[] = []
  /** The app whose name is being edited inline. */
  let renamingId: string | null = null

  // --- the once-only key panel -------------------------------------------------------------------------------

  const keyPanel = h('section', { class: 'card key-panel', hidden: true, 'aria-labelledby': 'new-key-title' })

  function showKey(appName: string, apiKey: string): void {
    const code = h('code', { class: 'api-key', 'data-testid': 'new-api-key' }, apiKey)
    const copied = h('span', { class: 'copy-status', role: 'status', 'data-testid': 'copy-status' })
    const copy = h('button', { type: 'button', class: 'button button--primary' }, 'Copy key')
    copy.addEventListener('click', async () => {
      copied.textContent = ''
      if (await copyText(apiKey, code)) {
        copied.textContent = 'Copied'
      } else {
        copied.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.'
      }
    })
    const done = h('button', { type: 'button', class: 'button' }, 'Done')
    done.addEventListener('click', () => {
      keyPanel.replaceChildren()
      keyPanel.hidden = true
      heading.focus()
    })
    replace(
      keyPanel,
      h('h2', { id: 'new-key-title', tabindex: -1 }, `New API key for ${appName}`),
      h(
        'p',
        { class: 'warning' },
        'Copy this key now. It will not be shown again: if you lose it, rotate the key to get a new one.',
      ),
      h('div', { class: 'key-row' }, code, copy, copied),
      h('div', { class: 'form-actions' }, done),
    )
    keyPanel.hidden = false
    copy.focus()
  }

  // --- create form ---------------------------------------------------------------------------------------------

  const nameInput = h('input', { type: 'text', name: 'name', autocomplete: 'off', maxlength: NAME_MAX, required: true })
  const createButton = h('button', { type: 'submit', class: 'button button--primary' }, 'Create app')
  const createError = errorText()
  const createForm = h(
    'form',
    { class: 'form form--inline', novalidate: true, 'aria-labelledby': 'create-app-title' },
    labelled('App name', nameInput, NAME_HINT),
    h('div', { class: 'form-actions' }, createButton),
  )
  createForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(createError, null)
    const name = nameInput.value.trim()
    if (!name) {
      showError(createError, 'Enter a name for the app.')
      nameInput.focus()
      return
    }
    createButton.disabled = true
    try {
      const { createApp } = await gql(CREATE_APP, { name }, signal)
      nameInput.value = ''
      apps = [...apps.filter((a) => a.id !== createApp.app.id), createApp.app]
      renderTable()
      announce(`App ${createApp.app.displayName} created (slug ${createApp.app.name}).`)
      showKey(createApp.app.displayName, createApp.apiKey)
    } catch (err) {
      if (signal.aborted) return
      showError(createError, errorMessage(err))
      nameInput.focus()
    } finally {
      createButton.disabled = false
    }
  })

  // --- the table ---------------------------------------------------------------------------------------------

  const tableError = errorText()
  const tableArea = h('div', { class: 'table-area', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading apps…'))

  function keyStatus(app: DashboardApp): HTMLElement {
    if (!app.keyPrefix) return h('span', { class: 'badge badge--revoked' }, 'Revoked')
    return h(
      'span',
      { class: 'key-status' },
      h('span', { class: 'badge badge--ready' }, `Active (${app.keyPrefix}…)`),
      app.keyCreatedAt ? h('span', { class: 'muted small' }, ' since ', dateTime(app.keyCreatedAt)) : null,
    )
  }

  async function runAction(action: () => Promise<void>): Promise<void> {
    showError(tableError, null)
    try {
      await action()
    } catch (err) {
      if (signal.aborted) return
      showError(tableError, errorMessage(err))
    }
  }

  function replaceApp(updated: DashboardApp): void {
    apps = apps.map((a) => (a.id === updated.id ? updated : a))
  }

  function renameForm(app: DashboardApp): HTMLFormElement {
    const input = h('input', {
      type: 'text',
      name: 'name',
      autocomplete: 'off',
      maxlength: NAME_MAX,
      value: app.displayName,
    })
    const label = h('label', { for: uid('rename'), class: 'visually-hidden' }, `New name for ${app.displayName}`)
    input.id = label.htmlFor
    const save = h('button', { type: 'submit', class: 'button button--primary button--small' }, 'Save')
    const cancel = h('button', { type: 'button', class: 'button button--small' }, 'Cancel')
    const error = errorText()
    const form = h('form', { class: 'rename-form', novalidate: true }, label, input, save, cancel, error)
    cancel.addEventListener('click', () => {
      renamingId = null
      renderTable()
      focusRowButton(app.id, 'rename')
    })
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') cancel.click()
    })
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      showError(error, null)
      const name = input.value.trim()
      if (!name) {
        showError(error, 'Enter a name.')
        input.focus()
        return
      }
      save.disabled = true
      try {
        const { renameApp } = await gql(RENAME_APP, { id: app.id, name }, signal)
        replaceApp(renameApp)
        renamingId = null
        renderTable()
        focusRowButton(app.id, 'rename')
        announce(`App renamed to ${renameApp.displayName}.`)
      } catch (err) {
        if (signal.aborted) return
        showError(error, errorMessage(err))
        input.focus()
      } finally {
        save.disabled = false
      }
    })
    return form
  }

  function focusRowButton(appId: string, action: string): void {
    const row = tableArea.querySelector<HTMLElement>(`tr[data-app-id="${CSS.escape(appId)}"]`)
    const button = row?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`)
    if (button) button.focus()
    else heading.focus()
  }

  function actionButton(action: string, text: string, nameCellId: string, danger = false): HTMLButtonElement {
    return h(
      'button',
      {
        type: 'button',
        class: danger ? 'button button--small button--danger-outline' : 'button button--small',
        'data-action': action,
        'aria-describedby': nameCellId,
      },
      text,
    )
  }

  function row(app: DashboardApp): HTMLTableRowElement {
    const nameCellId = `app-name-${app.id}`
    const rename = actionButton('rename', 'Rename', nameCellId)
    rename.addEventListener('click', () => {
      renamingId = app.id
      renderTable()
      tableArea.querySelector<HTMLInputElement>(`tr[data-app-id="${CSS.escape(app.id)}"] input`)?.focus()
    })

    const rotate = actionButton('rotate', 'Rotate key', nameCellId)
    rotate.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Rotate the key of ${app.displayName}?`,
        message: app.keyPrefix
          ? `A new key is created and the current key (${app.keyPrefix}…) stops working at once.`
          : 'A new key is created for this app.',
        confirmLabel: 'Rotate key',
      })
      if (!ok || signal.aborted) return
      await runAction(async () => {
        const { rotateAppKey } = await gql(ROTATE_APP_KEY, { id: app.id }, signal)
        replaceApp(rotateAppKey.app)
        renderTable()
        announce(`New key created for ${rotateAppKey.app.displayName}.`)
        showKey(rotateAppKey.app.displayName, rotateAppKey.apiKey)
      })
    })

    const revoke = app.keyPrefix ? actionButton('revoke', 'Revoke key', nameCellId, true) : null
    revoke?.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Revoke the key of ${app.displayName}?`,
        message: `The key ${app.keyPrefix}… stops working at once. The app keeps no key until you rotate it.`,
        confirmLabel: 'Revoke key',
      })
      if (!ok || signal.aborted) return
      await runAction(async () => {
        const { revokeAppKey } = await gql(REVOKE_APP_KEY, { id: app.id }, signal)
        replaceApp(revokeAppKey)
        renderTable()
        focusRowButton(app.id, 'rotate')
        announce(`Key of ${revokeAppKey.displayName} revoked.`)
      })
    })

    const remove = actionButton('delete', 'Delete', nameCellId, true)
    remove.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: `Delete app ${app.displayName}?`,
        message: 'The app and its key are deleted; requests with its key stop working at once.',
        confirmLabel: 'Delete app',
      })
      if (!ok || signal.aborted) return
      await runAction(async () => {
        await gql(DELETE_APP, { id: app.id }, signal)
        apps = apps.filter((a) => a.id !== app.id)
        renderTable()
        heading.focus()
        announce(`App ${app.displayName} deleted.`)
      })
    })

    const nameCell =
      renamingId === app.id
        ? h(
            'td',
            { class: 'cell-name' },
            h('span', { id: nameCellId, class: 'visually-hidden' }, app.displayName),
            renameForm(app),
          )
        : h(
            'th',
            { scope: 'row', class: 'cell-name' },
            // dir=auto: a right-to-left name is shown as it is written, without turning the page around it
            h('span', { id: nameCellId, dir: 'auto' }, app.displayName),
            // the slug on a line of its own, so it never breaks at a hyphen beside the name
            h('div', { class: 'muted small', 'data-testid': 'app-slug' }, ' ', h('code', null, app.name)),
          )

    return h(
      'tr',
      { 'data-app-id': app.id },
      nameCell,
      h('td', null, dateTime(app.createdAt)),
      h('td', null, keyStatus(app)),
      h(
        'td',
        null,
        h(
          'div',
          { class: 'actions' },
          renamingId === app.id ? null : rename,
          rotate,
          revoke,
          h(
            'a',
            {
              class: 'button button--small',
              href: webhooksHref(app.id),
              'data-action': 'webhooks',
              'aria-describedby': nameCellId,
            },
            'Webhooks',
          ),
          h(
            'a',
            {
              class: 'button button--small',
              href: retentionHref(app.id),
              'data-action': 'retention',
              'aria-describedby': nameCellId,
            },
            'Retention',
          ),
          h(
            'a',
            {
              class: 'button button--small',
              href: summaryHref(app.id),
              'data-action': 'summary',
              'aria-describedby': nameCellId,
            },
            'Summary',
          ),
          h(
            'a',
            {
              class: 'button button--small',
              href: schemaHref(app.id),
              'data-action': 'schema',
              'aria-describedby': nameCellId,
            },
            'Profile schema',
          ),
          remove,
        ),
      ),
    )
  }

  function renderTable(): void {
    tableArea.removeAttribute('aria-busy')
    if (apps.length === 0) {
      replace(tableArea, h('p', { class: 'empty' }, 'No apps yet. Create one to get an API key.'))
      return
    }
    replace(tableArea, dataTable('Apps table', ['Name', 'Created', 'API key', 'Actions'], apps.map(row)))
  }

  async function load(): Promise<void> {
    try {
      const data = await gql(APPS, {}, signal)
      apps = data.apps
      renderTable()
    } catch (err) {
      if (signal.aborted) return
      tableArea.removeAttribute('aria-busy')
      replace(tableArea)
      showError(tableError, `Could not load the apps: ${errorMessage(err)}`)
    }
  }

  const heading = h('h1', { tabindex: -1 }, 'Apps')
  root.append(
    heading,
    h(
      'p',
      { class: 'lead' },
      'Each app has one API key for the REST and GraphQL API (Authorization: Bearer <key>). ' +
        'Keys are shown once, when they are created.',
    ),
    keyPanel,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'create-app-title' },
      h('h2', { id: 'create-app-title' }, 'New app'),
      createForm,
      createError,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'apps-list-title' },
      h('h2', { id: 'apps-list-title' }, 'App list'),
      tableError,
      tableArea,
    ),
  )
  void load()
}

/** Copies to the clipboard; falls back to selecting the text (and execCommand) where the API is unavailable. */
async function copyText(text: string, element: HTMLElement): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text)
      return true
    }
  } catch {
    // fall through to selecting the text
  }
  const selection = window.getSelection()
  if (!selection) return false
  const range = document.createRange()
  range.selectNodeContents(element)
  selection.removeAllRanges()
  selection.addRange(range)
  try {
    return document.execCommand('copy')
  } catch {
    return false
  }
}

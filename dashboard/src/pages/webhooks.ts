/** #/apps/<app id>/webhooks: an app's webhook endpoints, their secrets, test deliveries and the delivery log. */
import { errorMessage, gql } from '../api'
import { h, labelled, replace } from '../dom'
import {
  APPS,
  CREATE_WEBHOOK,
  DELETE_WEBHOOK,
  REDELIVER_WEBHOOK,
  ROTATE_WEBHOOK_SECRET,
  SEND_TEST_WEBHOOK,
  UPDATE_WEBHOOK,
  WEBHOOK_DELIVERIES,
  WEBHOOK_ENDPOINTS,
} from '../queries'
import type { Page } from '../router'
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint, WebhookEvent } from '../types'
import { announce, confirmDialog, dataTable, dateTime, errorText, showError, statusBadge } from '../ui'

const EVENTS: [WebhookEvent, string][] = [
  ['PROFILE_READY' as WebhookEvent, 'profile.ready'],
  ['PROFILE_DELETED' as WebhookEvent, 'profile.deleted'],
  ['SUBMISSION_FAILED' as WebhookEvent, 'submission.failed'],
]

export const webhooksPage: Page = ({ root, route, signal }) => {
  document.title = 'Webhooks · Profiler'
  const appId = route.appId!
  let endpoints: WebhookEndpoint[] = []

  const heading = h('h1', { tabindex: -1 }, 'Webhooks')
  const pageError = errorText()

  // --- the once-only secret panel ----------------------------------------------------------------------------------

  const secretPanel = h('section', { class: 'card key-panel', hidden: true, 'aria-labelledby': 'new-secret-title' })
  function showSecret(url: string, secret: string): void {
    const done = h('button', { type: 'button', class: 'button' }, 'Done')
    done.addEventListener('click', () => {
      secretPanel.replaceChildren()
      secretPanel.hidden = true
      heading.focus()
    })
    replace(
      secretPanel,
      h('h2', { id: 'new-secret-title', tabindex: -1 }, `Signing secret for ${url}`),
      h(
        'p',
        { class: 'warning' },
        'Copy this secret now. It will not be shown again: if you lose it, rotate it to get a new one.',
      ),
      h('div', { class: 'key-row' }, h('code', { class: 'api-key', 'data-testid': 'new-webhook-secret' }, secret)),
      h('div', { class: 'form-actions' }, done),
    )
    secretPanel.hidden = false
    done.focus()
  }

  // --- add an endpoint ---------------------------------------------------------------------------------------------

  const urlInput = h('input', {
    type: 'url',
    name: 'url',
    autocomplete: 'off',
    maxlength: 2048,
    required: true,
    placeholder: 'https://example.com/hooks/profiler',
  })
  const boxes = EVENTS.map(([value, label]) => ({
    value,
    box: h('input', { type: 'checkbox', name: 'events', value, checked: true }),
    label,
  }))
  const createButton = h('button', { type: 'submit', class: 'button button--primary' }, 'Add endpoint')
  const createError = errorText()
  const createForm = h(
    'form',
    { class: 'form', novalidate: true },
    labelled(
      'Endpoint URL',
      urlInput,
      'http(s) only; private, loopback and link-local addresses are refused unless the server allows them.',
    ),
    h(
      'fieldset',
      { class: 'fieldset' },
      h('legend', null, 'Events'),
      boxes.map((b) => h('label', { class: 'checkbox' }, b.box, ' ', b.label)),
    ),
    createError,
    h('div', { class: 'form-actions' }, createButton),
  )
  createForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(createError, null)
    const url = urlInput.value.trim()
    const events = boxes.filter((b) => b.box.checked).map((b) => b.value)
    if (!url) return (showError(createError, 'Enter the URL of your receiver.'), urlInput.focus())
    if (!events.length) return showError(createError, 'Choose at least one event.')
    createButton.disabled = true
    try {
      const { createWebhookEndpoint: c } = await gql(CREATE_WEBHOOK, { appId, url, events }, signal)
      urlInput.value = ''
      endpoints = [...endpoints, c.endpoint]
      renderEndpoints()
      announce('Endpoint added.')
      showSecret(c.endpoint.url, c.secret)
    } catch (err) {
      if (signal.aborted) return
      showError(createError, errorMessage(err))
      urlInput.focus()
    } finally {
      createButton.disabled = false
    }
  })

  // --- endpoints, each with its delivery log -----------------------------------------------------------------------

  const list = h(
    'div',
    { class: 'webhook-list', 'aria-busy': 'true' },
    h('p', { class: 'muted' }, 'Loading endpoints…'),
  )

  function endpointCard(e: WebhookEndpoint): HTMLElement {
    const error = errorText()
    const log = h('div', { class: 'table-area' })
    const statusFilter = h(
      'select',
      { name: 'status', 'aria-label': 'Show deliveries' },
      h('option', { value: '' }, 'All deliveries'),
      h('option', { value: 'PENDING' }, 'Pending'),
      h('option', { value: 'DELIVERED' }, 'Delivered'),
      h('option', { value: 'FAILED' }, 'Failed'),
    )
    let after: string | null = null
    let rows: WebhookDelivery[] = []
    const more = h('button', { type: 'button', class: 'button button--small', hidden: true }, 'Older deliveries')

    const act = async (fn: () => Promise<void>) => {
      showError(error, null)
      try {
        await fn()
      } catch (err) {
        if (!signal.aborted) showError(error, errorMessage(err))
      }
    }
    const replaceEndpoint = (updated: WebhookEndpoint) => {
      endpoints = endpoints.map((x) => (x.id === updated.id ? updated : x))
      renderEndpoints()
    }

    async function loadLog(reset: boolean): Promise<void> {
      if (reset) {
        after = null
        rows = []
      }
      const status = (statusFilter.value || null) as WebhookDeliveryStatus | null
      const { webhookDeliveries: page } = await gql(WEBHOOK_DELIVERIES, { endpointId: e.id, status, after }, signal)
      rows = [...rows, ...page.nodes]
      after = page.pageInfo.endCursor
      more.hidden = !page.pageInfo.hasNextPage
      renderLog()
    }

    function renderLog(): void {
      if (!rows.length) return replace(log, h('p', { class: 'empty' }, 'No deliveries yet.'))
      replace(
        log,
        dataTable(
          `Deliveries to ${e.url}`,
          ['Event', 'Status', 'Attempts', 'Response', 'Created', 'Next retry', ''],
          rows.map((d) => {
            const redeliver =
              d.status === 'PENDING'
                ? null
                : h('button', { type: 'button', class: 'button button--small' }, 'Redeliver')
            redeliver?.addEventListener('click', () =>
              act(async () => {
                const { redeliverWebhook } = await gql(REDELIVER_WEBHOOK, { id: d.id }, signal)
                announce(`Redelivery ${redeliverWebhook.status.toLowerCase()}.`)
                await loadLog(true)
              }),
            )
            return h(
              'tr',
              { 'data-delivery-id': d.id },
              h(
                'td',
                null,
                h('code', null, d.event),
                d.profileId ? h('span', { class: 'muted small' }, ` ${d.profileId}`) : null,
              ),
              h('td', null, statusBadge(d.status, { 'data-testid': 'delivery-status' })),
              h('td', { class: 'num' }, String(d.attempts)),
              h(
                'td',
                { title: d.lastError ?? '' },
                d.lastStatusCode !== null
                  ? String(d.lastStatusCode)
                  : d.lastError
                    ? h('span', { class: 'muted' }, d.lastError.slice(0, 80))
                    : '—',
              ),
              h('td', null, dateTime(d.createdAt)),
              h('td', null, dateTime(d.nextAttemptAt)),
              h('td', null, redeliver),
            )
          }),
        ),
      )
    }

    statusFilter.addEventListener('change', () => void act(() => loadLog(true)))
    more.addEventListener('click', () => void act(() => loadLog(false)))

    const test = h(
      'button',
      { type: 'button', class: 'button button--small button--primary', 'data-action': 'test', disabled: !e.enabled },
      'Send test delivery',
    )
    test.addEventListener('click', () =>
      act(async () => {
        test.disabled = true
        try {
          const { sendTestWebhook: d } = await gql(SEND_TEST_WEBHOOK, { id: e.id }, signal)
          announce(
            d.status === 'DELIVERED'
              ? `Test delivered (HTTP ${d.lastStatusCode}).`
              : `Test failed: ${d.lastError ?? `HTTP ${d.lastStatusCode}`}`,
            d.status === 'DELIVERED' ? 'info' : 'error',
          )
          await loadLog(true)
        } finally {
          test.disabled = !e.enabled
        }
      }),
    )
    const rotate = h(
      'button',
      { type: 'button', class: 'button button--small', 'data-action': 'rotate' },
      'Rotate secret',
    )
    rotate.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: 'Rotate the signing secret?',
        message:
          'A new secret is created. The current one keeps signing deliveries (as a second signature) for the grace period, so update your receiver within it.',
        confirmLabel: 'Rotate secret',
        destructive: false,
      })
      if (!ok || signal.aborted) return
      await act(async () => {
        const { rotateWebhookSecret: r } = await gql(ROTATE_WEBHOOK_SECRET, { id: e.id }, signal)
        replaceEndpoint(r.endpoint)
        showSecret(r.endpoint.url, r.secret)
      })
    })
    const toggle = h(
      'button',
      { type: 'button', class: 'button button--small', 'data-action': 'toggle' },
      e.enabled ? 'Disable' : 'Enable',
    )
    toggle.addEventListener('click', () =>
      act(async () => {
        const { updateWebhookEndpoint } = await gql(UPDATE_WEBHOOK, { id: e.id, enabled: !e.enabled }, signal)
        replaceEndpoint(updateWebhookEndpoint)
        announce(`Endpoint ${updateWebhookEndpoint.enabled ? 'enabled' : 'disabled'}.`)
      }),
    )
    const remove = h(
      'button',
      { type: 'button', class: 'button button--small button--danger-outline', 'data-action': 'delete' },
      'Delete',
    )
    remove.addEventListener('click', async () => {
      const ok = await confirmDialog({
        title: 'Delete this endpoint?',
        message: `${e.url} gets no more deliveries; its delivery log is deleted.`,
        confirmLabel: 'Delete endpoint',
      })
      if (!ok || signal.aborted) return
      await act(async () => {
        await gql(DELETE_WEBHOOK, { id: e.id }, signal)
        endpoints = endpoints.filter((x) => x.id !== e.id)
        renderEndpoints()
        heading.focus()
        announce('Endpoint deleted.')
      })
    })

    void act(() => loadLog(true))
    return h(
      'section',
      { class: 'card', 'data-endpoint-id': e.id, 'aria-label': `Endpoint ${e.url}` },
      h('h2', { class: 'endpoint-url' }, h('code', null, e.url)),
      h(
        'p',
        null,
        h('span', { class: `badge badge--${e.enabled ? 'ready' : 'revoked'}` }, e.enabled ? 'enabled' : 'disabled'),
        e.disabledReason ? ` ${e.disabledReason}` : '',
        ' · events: ',
        e.events.map((v) => EVENTS.find(([k]) => k === v)?.[1] ?? v).join(', '),
        e.previousSecretExpiresAt
          ? h('span', { class: 'muted small' }, ' · previous secret valid until ', dateTime(e.previousSecretExpiresAt))
          : null,
      ),
      h('div', { class: 'actions' }, test, rotate, toggle, remove),
      error,
      h('h3', null, 'Delivery log'),
      h('div', { class: 'form-actions webhook-log-filter' }, statusFilter),
      log,
      more,
    )
  }

  function renderEndpoints(): void {
    list.removeAttribute('aria-busy')
    if (!endpoints.length)
      return replace(list, h('p', { class: 'empty' }, 'No endpoints yet. Add one to receive events.'))
    replace(list, endpoints.map(endpointCard))
  }

  async function load(): Promise<void> {
    try {
      const [{ apps }, { webhookEndpoints }] = await Promise.all([
        gql(APPS, {}, signal),
        gql(WEBHOOK_ENDPOINTS, { appId }, signal),
      ])
      const app = apps.find((a) => a.id === appId)
      if (!app) {
        replace(list)
        return showError(pageError, 'No such app.')
      }
      heading.textContent = `Webhooks of ${app.displayName}`
      document.title = `Webhooks of ${app.displayName} · Profiler`
      endpoints = webhookEndpoints
      renderEndpoints()
    } catch (err) {
      if (signal.aborted) return
      list.removeAttribute('aria-busy')
      replace(list)
      showError(pageError, `Could not load the webhooks: ${errorMessage(err)}`)
    }
  }

  root.append(
    h('p', null, h('a', { href: '#/apps' }, '← Apps')),
    heading,
    h(
      'p',
      { class: 'lead' },
      'Profiler POSTs signed JSON to these URLs when a profile is ready or deleted, or a submission fails. ' +
        'Verify the Profiler-Signature header with the secret, which is shown once.',
    ),
    pageError,
    secretPanel,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'add-endpoint-title' },
      h('h2', { id: 'add-endpoint-title' }, 'New endpoint'),
      createForm,
    ),
    list,
  )
  void load()
}

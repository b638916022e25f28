/**
 * #/apps/<id>/schema: the app's custom profile schema, viewed and edited as JSON; the server's validation errors are
 * shown.
 */
import { errorMessage, gql } from '../api'
import { h, labelled, replace } from '../dom'
import { APP_CUSTOM_SCHEMA, APPS, SET_APP_CUSTOM_SCHEMA } from '../queries'
import type { Page } from '../router'
import { announce, dateTime, errorText, showError } from '../ui'
import { saveWith } from './app-settings'

const EXAMPLE = {
  sections: {
    diet: {
      restrictions: {
        type: 'string[]',
        description: 'Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
      },
    },
    travel: {
      budget: { type: 'integer', description: 'Trip budget in dollars', min: 0 },
      preferred_language: { type: 'enum', values: ['English', 'Spanish'], description: 'The language to answer in' },
    },
  },
}

const HINT =
  'Sections hold fields; each field has a type (string, string[], integer, number, boolean, enum), an optional description ' +
  'that guides extraction (a list after a colon is the vocabulary the local extractor looks for), "values" for an enum, ' +
  'and "min"/"max" for numbers. Names: lower case, digits and _ (up to 40). Saving a different schema makes a new version; ' +
  "values of a field it drops move to each profile's history."

export const schemaPage: Page = ({ root, route, signal }) => {
  document.title = 'Profile schema · Profiler'
  const appId = route.appId!
  const heading = h('h1', { tabindex: -1 }, 'Profile schema')
  const pageError = errorText()
  const current = h('p', { 'data-testid': 'schema-current', role: 'status' })
  const textarea = h('textarea', {
    name: 'schema',
    rows: 18,
    spellcheck: false,
    class: 'code-input',
    'data-testid': 'schema-json',
  })
  const save = h('button', { type: 'submit', class: 'button button--primary' }, 'Save schema')
  const example = h('button', { type: 'button', class: 'button' }, 'Insert example')
  const formError = errorText()
  formError.setAttribute('data-testid', 'schema-error')
  const result = h('p', { class: 'muted', 'data-testid': 'schema-result' })
  const versions = h('div', { 'data-testid': 'schema-versions' })
  const form = h(
    'form',
    { class: 'form', novalidate: true, 'aria-labelledby': 'schema-form-title' },
    h('h2', { id: 'schema-form-title' }, 'Schema (JSON)'),
    labelled('Custom sections and fields', textarea, HINT),
    formError,
    h('div', { class: 'form-actions' }, save, example),
    result,
  )

  function show(version: number, schema: unknown, createdAt: string | null | undefined): void {
    textarea.value = JSON.stringify(schema, null, 2)
    current.textContent =
      version === 0
        ? 'This app has no custom schema yet: profiles get only the standard sections from its submissions.'
        : `Version ${version}`
    if (createdAt && version > 0) current.append(', saved ', dateTime(createdAt))
  }

  function showVersions(list: { version: number; createdAt?: string | null }[]): void {
    replace(
      versions,
      list.length
        ? h(
            'ul',
            null,
            list.map((v) => h('li', null, `Version ${v.version}`, v.createdAt ? [' — ', dateTime(v.createdAt)] : null)),
          )
        : h('p', { class: 'muted' }, 'No versions yet.'),
    )
  }

  example.addEventListener('click', () => {
    textarea.value = JSON.stringify(EXAMPLE, null, 2)
    textarea.focus()
  })

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(formError, null)
    result.textContent = ''
    let schema: unknown
    try {
      schema = JSON.parse(textarea.value)
    } catch (err) {
      showError(formError, `Not valid JSON: ${(err as Error).message}`)
      textarea.focus()
      return
    }
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
      showError(formError, 'The schema must be a JSON object like {"sections": {...}}.')
      textarea.focus()
      return
    }
    await saveWith(
      save,
      formError,
      signal,
      async () => {
        const { setCustomSchema: r } = await gql(
          SET_APP_CUSTOM_SCHEMA,
          { appId, schema: schema as Record<string, unknown> },
          signal,
        )
        show(r.version, r.schema, r.createdAt)
        result.textContent = !r.changed
          ? 'No change: the schema equals the current version.'
          : `Saved as version ${r.version}.` +
            (r.droppedFields.length
              ? ` Dropped ${r.droppedFields.join(', ')}: values moved to the history of ${r.profilesUpdated} profile(s).`
              : '')
        announce(result.textContent)
        void loadVersions()
      },
      () => textarea.focus(),
    )
  })

  async function loadVersions(): Promise<void> {
    try {
      const d = await gql(APP_CUSTOM_SCHEMA, { appId }, signal)
      showVersions(d.customSchemaVersions)
    } catch {
      /* the list is a convenience; the form still works */
    }
  }

  async function load(): Promise<void> {
    try {
      const [{ apps }, d] = await Promise.all([gql(APPS, {}, signal), gql(APP_CUSTOM_SCHEMA, { appId }, signal)])
      const app = apps.find((a) => a.id === appId)
      if (app) {
        heading.textContent = `Profile schema of ${app.displayName}`
        document.title = `Profile schema of ${app.displayName} · Profiler`
      }
      show(d.customSchema.version, d.customSchema.schema, d.customSchema.createdAt)
      showVersions(d.customSchemaVersions)
    } catch (err) {
      if (signal.aborted) return
      showError(pageError, `Could not load the schema: ${errorMessage(err)}`)
    }
  }

  root.append(
    h('p', null, h('a', { href: '#/apps' }, '← Apps')),
    heading,
    h(
      'p',
      { class: 'lead' },
      "The app's own profile fields, beside the standard ones. Its submissions are extracted with them (the local extractor and the openai provider both fill them); every app's values show on the profile page.",
    ),
    pageError,
    current,
    h('section', { class: 'card' }, form),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'schema-versions-title' },
      h('h2', { id: 'schema-versions-title' }, 'Versions'),
      versions,
    ),
  )
  void load()
}

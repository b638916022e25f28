/**
 * #/apps/<id>/summary: the app's summary instructions (what the summaries of the profiles it writes to cover or leave
 * out).
 */
import { gql } from '../api'
import { h, labelled } from '../dom'
import { SET_APP_SUMMARY_INSTRUCTIONS } from '../queries'
import type { Page } from '../router'
import { loadApp, saveWith } from './app-settings'
import type { DashboardApp } from '../types'
import { announce, errorText, showError } from '../ui'

const MAX = 5
const MAX_CHARS = 200

export const summaryPage: Page = ({ root, route, signal }) => {
  document.title = 'Summary instructions · Profiler'
  const appId = route.appId!
  const heading = h('h1', { tabindex: -1 }, 'Summary instructions')
  const pageError = errorText()
  const current = h('p', { 'data-testid': 'summary-current', role: 'status' })
  const inputs = Array.from({ length: MAX }, (_, i) =>
    h('input', {
      type: 'text',
      name: `instruction-${i + 1}`,
      autocomplete: 'off',
      maxlength: MAX_CHARS,
      placeholder: i === 0 ? 'Leave out age' : '',
    }),
  )
  const save = h('button', { type: 'submit', class: 'button button--primary' }, 'Save instructions')
  const formError = errorText()
  const form = h(
    'form',
    { class: 'form', novalidate: true, 'aria-labelledby': 'summary-form-title' },
    h('h2', { id: 'summary-form-title' }, 'Instructions'),
    ...inputs.map((input, i) =>
      labelled(
        `Instruction ${i + 1}`,
        input,
        i === 0
          ? `Up to ${MAX} instructions of at most ${MAX_CHARS} characters; leave a field empty to drop it.`
          : undefined,
      ),
    ),
    formError,
    h('div', { class: 'form-actions' }, save),
  )

  function show(app: DashboardApp): void {
    heading.textContent = `Summary instructions of ${app.displayName}`
    document.title = `Summary instructions of ${app.displayName} · Profiler`
    inputs.forEach((input, i) => (input.value = app.summaryInstructions[i] ?? ''))
    current.textContent = app.summaryInstructions.length
      ? `${app.summaryInstructions.length} instruction${app.summaryInstructions.length === 1 ? '' : 's'}: ${app.summaryInstructions.join(' · ')}`
      : 'No instructions: summaries follow the default template.'
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    showError(formError, null)
    const instructions = inputs.map((i) => i.value.trim()).filter(Boolean)
    await saveWith(save, formError, signal, async () => {
      const { setAppSummaryInstructions } = await gql(SET_APP_SUMMARY_INSTRUCTIONS, { id: appId, instructions }, signal)
      show(setAppSummaryInstructions)
      announce('Summary instructions saved.')
    })
  })

  root.append(
    h('p', null, h('a', { href: '#/apps' }, '← Apps')),
    heading,
    h(
      'p',
      { class: 'lead' },
      'They apply to the summary written after each batch of a profile whose newest submission comes from this app, and to re-extractions. ' +
        'An LLM provider (openai) reads them as written. The built-in template understands: "Leave out <part>" (also omit, exclude, ' +
        `don't mention), "Mention <part> first" (also start with), and "Cover <part>" (also include, always mention), where a part is ` +
        'name, age, gender, location, occupation, identity, interests, personality, traits, mood, preferences, conversation style, topics to avoid or memories.',
    ),
    pageError,
    current,
    h('section', { class: 'card' }, form),
  )
  void loadApp(appId, signal, pageError, show)
}

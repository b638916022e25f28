/**
 * The profile page's "Context for an LLM" panel: a token budget and an optional query, and the compact text the API
 * builds for a system prompt (Profile.context), with its exact token count. Made once per page, outside the part
 * that re-renders on live updates, so what a person typed survives them.
 */
import { errorMessage, gql } from '../../api'
import { h, labelled } from '../../dom'
import { PROFILE_CONTEXT } from '../../queries'
import { errorText, showError } from '../../ui'

const MAX_TOKENS = 32000
const DEFAULT_TOKENS = 1000

export interface ContextPanel {
  element: HTMLElement
}

export function contextPanel(id: string, signal: AbortSignal): ContextPanel {
  const budget = h('input', {
    type: 'number',
    name: 'maxTokens',
    min: 1,
    max: MAX_TOKENS,
    step: 1,
    value: String(DEFAULT_TOKENS),
    inputmode: 'numeric',
    required: true,
  })
  const query = h('input', { type: 'search', name: 'query', autocomplete: 'off', maxlength: 1000 })
  const error = errorText()
  const button = h('button', { type: 'submit', class: 'button button--primary' }, 'Build context')
  const summary = h('p', { class: 'results-summary', 'aria-live': 'polite', 'data-testid': 'context-summary' })
  const output = h('pre', { class: 'context-text', 'data-testid': 'context-text', tabindex: 0, hidden: true })
  const budgetField = labelled('Token budget', budget, `1 to ${MAX_TOKENS}, counted with the o200k_base tokenizer`)
  budgetField.classList.add('field--narrow')
  const form = h(
    'form',
    { class: 'form context-form', novalidate: true, 'aria-labelledby': 'context-title' },
    h(
      'div',
      { class: 'field-row' },
      budgetField,
      labelled('Query (optional)', query, 'What the conversation is about: relevant facts first'),
    ),
    error,
    h('div', { class: 'form-actions' }, button),
  )
  let seq = 0
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const max = Number(budget.value)
    if (!Number.isInteger(max) || max < 1 || max > MAX_TOKENS) {
      showError(error, `Enter a whole number of tokens from 1 to ${MAX_TOKENS}.`)
      budget.focus()
      return
    }
    showError(error, null)
    const mine = ++seq
    button.disabled = true
    summary.textContent = 'Building…'
    try {
      const data = await gql(PROFILE_CONTEXT, { id, maxTokens: max, query: query.value.trim() || null }, signal)
      if (signal.aborted || mine !== seq) return
      const c = data.profile?.context
      if (!c) {
        summary.textContent = ''
        output.hidden = true
        showError(error, 'This profile no longer exists.')
        return
      }
      const facts = `${c.factsIncluded} of ${c.factsTotal} facts${c.summaryIncluded ? ' and the summary' : ''}`
      const cut = !c.truncated
        ? ''
        : c.factsIncluded === c.factsTotal
          ? ' · the summary left out to fit'
          : ' · less confident or relevant facts left out to fit'
      summary.textContent = `${c.tokens} of ${c.maxTokens} tokens (${c.encoding}) · ${facts}${cut}`
      output.textContent = c.text === '' ? '(nothing fits in this budget)' : c.text
      output.hidden = false
    } catch (err) {
      if (signal.aborted || mine !== seq) return
      summary.textContent = ''
      showError(error, `Could not build the context: ${errorMessage(err)}`)
    } finally {
      if (mine === seq) button.disabled = false
    }
  })
  const element = h(
    'section',
    { class: 'card profile-section', 'aria-labelledby': 'context-title', 'data-section': 'context' },
    h('h2', { id: 'context-title', tabindex: -1 }, 'Context for an LLM'),
    h(
      'p',
      { class: 'hint' },
      'The profile as compact text for a system prompt: the most relevant and most confident facts first, within the budget.',
    ),
    form,
    summary,
    output,
  )
  return { element }
}

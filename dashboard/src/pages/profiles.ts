/** #/profiles: open a profile by id, or search, filter, sort and page through profiles. */
import { errorMessage, gql } from '../api'
import { h, labelled, replace } from '../dom'
import { SEARCH_PROFILES } from '../queries'
import { navigate, profileHref, type Page } from '../router'
import type { FilterField, SearchResult, SortField, SortOrder } from '../types'
import { dataTable, dateTime, errorText, showError, statusBadge } from '../ui'

interface SearchState {
  query: string
  sensitivity: number
  filterField: FilterField | ''
  filterValue: string
  sortField: SortField
  sortOrder: SortOrder
  pageSize: number
  page: number
}

const DEFAULT_SEARCH: SearchState = {
  query: '',
  sensitivity: 63,
  filterField: '',
  filterValue: '',
  sortField: 'LAST_UPDATED',
  sortOrder: 'DESC',
  pageSize: 10,
  page: 1,
}

/** Kept while the dashboard is open, so coming back to the list shows the same search. */
let lastSearch: SearchState = { ...DEFAULT_SEARCH }

const FILTER_FIELDS: [FilterField | '', string][] = [
  ['', 'No filter'],
  ['ID', 'Id'],
  ['NAME', 'Name'],
  ['LOCATION', 'Location'],
  ['AGE', 'Age'],
  ['GENDER', 'Gender'],
  ['LANGUAGE', 'Language'],
  ['STATUS', 'Status'],
]

const SORT_FIELDS: [SortField, string][] = [
  ['LAST_UPDATED', 'Last updated'],
  ['CREATED_AT', 'Created'],
  ['ID', 'Id'],
  ['NAME', 'Name'],
  ['AGE', 'Age'],
  ['LOCATION', 'Location'],
]

const PAGE_SIZES = [10, 20, 50, 100]

function options<T extends string | number>(items: [T, string][], selected: T): HTMLOptionElement[] {
  return items.map(([value, text]) => h('option', { value: String(value), selected: value === selected }, text))
}

function narrow(field: HTMLElement): HTMLElement {
  field.classList.add('field--narrow')
  return field
}

function findByIdSection(): HTMLElement {
  const input = h('input', { type: 'text', name: 'profileId', autocomplete: 'off', spellcheck: false, required: true })
  const error = errorText()
  const form = h(
    'form',
    { class: 'form form--inline', novalidate: true },
    labelled('Profile id', input),
    h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'button button--primary' }, 'Open')),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const id = input.value.trim()
    if (!id) {
      showError(error, 'Enter a profile id.')
      input.focus()
      return
    }
    showError(error, null)
    navigate(profileHref(id))
  })
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'find-by-id-title' },
    h('h2', { id: 'find-by-id-title' }, 'Find by id'),
    form,
    error,
  )
}

export const profilesPage: Page = ({ root, signal }) => {
  document.title = 'Profiles · Profiler'
  const state: SearchState = { ...lastSearch }
  let controller: AbortController | null = null

  // --- the search form -----------------------------------------------------------------------------------------

  const query = h('input', { type: 'search', name: 'query', autocomplete: 'off', value: state.query })
  const sensitivity = h('input', {
    type: 'range',
    name: 'sensitivity',
    min: 0,
    max: 100,
    step: 1,
    value: String(state.sensitivity),
  })
  const sensitivityValue = h(
    'output',
    { class: 'range-value', 'data-testid': 'sensitivity-value' },
    String(state.sensitivity),
  )
  sensitivity.addEventListener('input', () => {
    sensitivityValue.textContent = sensitivity.value
  })
  sensitivity.id = 'search-sensitivity'
  sensitivityValue.htmlFor.add(sensitivity.id)

  const filterField = h(
    'select',
    { name: 'filterField', value: state.filterField },
    options(FILTER_FIELDS, state.filterField),
  )
  const filterValue = h('input', { type: 'text', name: 'filterValue', autocomplete: 'off', value: state.filterValue })
  const sortField = h('select', { name: 'sortField', value: state.sortField }, options(SORT_FIELDS, state.sortField))
  const sortOrder = h(
    'select',
    { name: 'sortOrder', value: state.sortOrder },
    options<SortOrder>(
      [
        ['DESC', 'Descending'],
        ['ASC', 'Ascending'],
      ],
      state.sortOrder,
    ),
  )
  const pageSize = h(
    'select',
    { name: 'pageSize', value: String(state.pageSize) },
    options(
      PAGE_SIZES.map((n): [number, string] => [n, String(n)]),
      state.pageSize,
    ),
  )

  const sortFieldset = h(
    'fieldset',
    { class: 'fieldset' },
    h('legend', null, 'Sorting'),
    h('p', { class: 'hint' }, 'Used when there is no query; with a query, results are ranked by score.'),
    h('div', { class: 'field-row' }, labelled('Sort by', sortField), labelled('Order', sortOrder)),
  )
  const syncSortEnabled = (): void => {
    sortFieldset.disabled = query.value.trim() !== ''
  }
  query.addEventListener('input', syncSortEnabled)
  syncSortEnabled()

  const searchError = errorText()
  const form = h(
    'form',
    { class: 'form search-form', novalidate: true, role: 'search', 'aria-labelledby': 'search-title' },
    labelled(
      'Query',
      query,
      'Natural language or exact words, e.g. "likes jazz and lives in Lisbon", a name or a place: matched by meaning and by words ' +
        '(a profile holding every word of the query scores at least 80). Leave empty to list profiles.',
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: sensitivity.id }, 'Sensitivity'),
      h(
        'span',
        { class: 'hint', id: 'sensitivity-hint' },
        'Minimum score (0-100) a result needs when a query is given.',
      ),
      h('div', { class: 'range-row' }, sensitivity, sensitivityValue),
    ),
    h(
      'fieldset',
      { class: 'fieldset' },
      h('legend', null, 'Filter'),
      h('p', { class: 'hint' }, 'Case-insensitive partial match on one field.'),
      h('div', { class: 'field-row' }, labelled('Filter by', filterField), labelled('Filter value', filterValue)),
    ),
    sortFieldset,
    h('div', { class: 'field-row' }, narrow(labelled('Page size', pageSize))),
    searchError,
    h(
      'div',
      { class: 'form-actions' },
      h('button', { type: 'submit', class: 'button button--primary' }, 'Search'),
      h('button', { type: 'reset', class: 'button' }, 'Reset'),
    ),
  )
  sensitivity.setAttribute('aria-describedby', 'sensitivity-hint')

  function readForm(): void {
    state.query = query.value.trim()
    state.sensitivity = Number(sensitivity.value)
    state.filterField = filterField.value as FilterField | ''
    state.filterValue = filterValue.value.trim()
    state.sortField = sortField.value as SortField
    state.sortOrder = sortOrder.value as SortOrder
    state.pageSize = Number(pageSize.value)
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    readForm()
    if (state.filterField && !state.filterValue) {
      showError(searchError, 'Enter a value to filter by, or choose "No filter".')
      filterValue.focus()
      return
    }
    showError(searchError, null)
    state.page = 1
    void search()
  })
  form.addEventListener('reset', () => {
    // After the browser has reset the controls to their defaults.
    window.setTimeout(() => {
      query.value = ''
      sensitivity.value = String(DEFAULT_SEARCH.sensitivity)
      sensitivityValue.textContent = sensitivity.value
      filterField.value = DEFAULT_SEARCH.filterField
      filterValue.value = ''
      sortField.value = DEFAULT_SEARCH.sortField
      sortOrder.value = DEFAULT_SEARCH.sortOrder
      pageSize.value = String(DEFAULT_SEARCH.pageSize)
      syncSortEnabled()
      showError(searchError, null)
      Object.assign(state, DEFAULT_SEARCH)
      void search()
    }, 0)
  })

  // --- results -----------------------------------------------------------------------------------------------

  const summary = h('p', { class: 'results-summary', 'aria-live': 'polite', 'data-testid': 'results-summary' })
  const results = h('div', { class: 'results' })
  const pager = h('nav', { class: 'pager', 'aria-label': 'Result pages' })

  function renderResults(result: SearchResult, withScore: boolean): void {
    const pages = Math.max(1, Math.ceil(result.total / result.pageSize))
    summary.textContent = result.total === 1 ? '1 profile found' : `${result.total} profiles found`
    if (result.profiles.length === 0) {
      replace(
        results,
        h('p', { class: 'empty' }, result.total > 0 ? 'No profiles on this page.' : 'No profiles match.'),
      )
    } else {
      replace(
        results,
        dataTable(
          'Search results',
          ['Profile id', 'Name', withScore ? { label: 'Score', class: 'num' } : null, 'Status', 'Last updated'],
          result.profiles.map((hit) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, h('a', { href: profileHref(hit.profile.profileId) }, hit.profile.profileId)),
              h('td', null, hit.profile.coreInfo.name?.value ?? h('span', { class: 'muted' }, '—')),
              withScore
                ? h('td', { class: 'num' }, hit.similarityScore === null ? '—' : hit.similarityScore.toFixed(1))
                : null,
              h('td', null, statusBadge(hit.profile.status)),
              h('td', null, dateTime(hit.profile.lastUpdated)),
            ),
          ),
        ),
      )
    }

    const previous = h('button', { type: 'button', class: 'button', disabled: result.page <= 1 }, 'Previous')
    const next = h('button', { type: 'button', class: 'button', disabled: result.page >= pages }, 'Next')
    previous.addEventListener('click', () => {
      state.page = Math.max(1, result.page - 1)
      void search('previous')
    })
    next.addEventListener('click', () => {
      state.page = result.page + 1
      void search('next')
    })
    replace(
      pager,
      previous,
      h('span', { class: 'page-of', 'data-testid': 'page-indicator' }, `Page ${result.page} of ${pages}`),
      next,
    )
  }

  async function search(focusAfter?: 'previous' | 'next'): Promise<void> {
    controller?.abort()
    const current = new AbortController()
    controller = current
    signal.addEventListener('abort', () => current.abort(), { once: true })
    lastSearch = { ...state }
    results.setAttribute('aria-busy', 'true')
    summary.textContent = 'Searching…'
    const withQuery = state.query !== ''
    try {
      const { searchProfiles } = await gql(
        SEARCH_PROFILES,
        {
          query: withQuery ? state.query : null,
          sensitivity: state.sensitivity,
          filter:
            state.filterField && state.filterValue ? { field: state.filterField, value: state.filterValue } : null,
          sort: withQuery ? null : { field: state.sortField, order: state.sortOrder },
          page: state.page,
          pageSize: state.pageSize,
        },
        current.signal,
      )
      if (current.signal.aborted) return
      showError(searchError, null)
      renderResults(searchProfiles, withQuery)
      if (focusAfter) {
        const button = [...pager.querySelectorAll('button')].find(
          (b) => b.textContent === (focusAfter === 'next' ? 'Next' : 'Previous'),
        )
        if (button && !button.disabled) button.focus()
        else pager.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus()
      }
    } catch (err) {
      if (current.signal.aborted) return
      summary.textContent = ''
      replace(results)
      replace(pager)
      showError(searchError, errorMessage(err))
    } finally {
      if (controller === current) results.removeAttribute('aria-busy')
    }
  }

  root.append(
    h('h1', { tabindex: -1 }, 'Profiles'),
    findByIdSection(),
    h('section', { class: 'card', 'aria-labelledby': 'search-title' }, h('h2', { id: 'search-title' }, 'Search'), form),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'results-title' },
      h('h2', { id: 'results-title' }, 'Results'),
      summary,
      results,
      pager,
    ),
  )
  void search()
}

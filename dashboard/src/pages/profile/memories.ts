/** The profile's memories on a timeline. */
import { h } from '../../dom'
import type { Memory, Profile } from '../../types'
import { confidenceBar, dateOnly } from '../../ui'
import { valueControls, type ValueActions } from './fields'
import { empty, section } from './section'

/** Dated memories in date order, then the undated ones in the order given. */
export function orderMemories(memories: Memory[]): Memory[] {
  const dated = memories.filter((m) => m.date).sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''))
  return [...dated, ...memories.filter((m) => !m.date)]
}

export function memoriesSection(p: Profile, actions?: ValueActions): HTMLElement {
  const memories = orderMemories(p.memories)
  if (memories.length === 0) return section('memories', 'Memories', empty('No memories yet.'))
  return section(
    'memories',
    'Memories',
    h(
      'ol',
      { class: 'timeline' },
      memories.map((m) => {
        const c = valueControls(actions, 'memories')?.(m.event)
        return h(
          'li',
          { class: `timeline-item${m.date ? '' : ' timeline-item--undated'}` },
          h('div', { class: 'timeline-date' }, m.date ? dateOnly(m.date) : 'Undated'),
          h('p', { class: 'timeline-event' }, m.event),
          h(
            'div',
            { class: 'timeline-meta' },
            m.importance
              ? h('span', { class: `badge badge--importance-${m.importance}` }, `${m.importance} importance`)
              : null,
            m.confidence !== null ? confidenceBar(m.confidence) : null,
            c?.actions ?? null,
          ),
          c?.panel ?? null,
        )
      }),
    ),
  )
}

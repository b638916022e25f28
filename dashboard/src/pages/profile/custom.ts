/**
 * The profile's custom schema values (issue 14): one card, a sub-heading per section, each field with its confidence.
 */
import { h, type Child } from '../../dom'
import type { Profile } from '../../types'
import { confidenceBar } from '../../ui'
import { valueControls, type Controls, type ValueActions } from './fields'
import { empty, section } from './section'

interface Scored {
  value: unknown
  confidence: number
}

const isScored = (v: unknown): v is Scored =>
  !!v && typeof v === 'object' && 'value' in v && typeof (v as Scored).confidence === 'number'
const label = (s: string) => s.replace(/_/g, ' ')
const shown = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v))

/** A value's controls ("Why?", remove: section custom.<section>.<field>), when the page offers them. */
function valueCell(v: unknown, controls: Controls): Child[] {
  if (Array.isArray(v)) {
    const items = v.filter(isScored)
    if (!items.length) return [h('dd', null, h('span', { class: 'muted' }, 'None'))]
    return [
      h(
        'dd',
        null,
        h(
          'ul',
          { class: 'scored-list' },
          items.map((i) => {
            const c = controls?.(String(i.value))
            return h(
              'li',
              null,
              h('span', { class: 'scored-value' }, shown(i.value)),
              confidenceBar(i.confidence),
              c?.actions ?? null,
              c?.panel ?? null,
            )
          }),
        ),
      ),
    ]
  }
  if (isScored(v)) {
    const c = controls?.(String(v.value))
    return [
      h(
        'dd',
        null,
        h('span', { class: 'scored-value' }, shown(v.value)),
        confidenceBar(v.confidence),
        c?.actions ?? null,
      ),
      c?.panel ?? null,
    ]
  }
  return [h('dd', null, h('span', { class: 'muted' }, 'Unknown'))]
}

export function customSection(p: Profile, actions?: ValueActions): HTMLElement {
  const custom = (p.custom ?? {}) as Record<string, Record<string, unknown>>
  const sections = Object.keys(custom).sort()
  if (!sections.length)
    return section('custom', 'Custom fields', empty("No values of the apps' custom schema fields yet."))
  return section(
    'custom',
    'Custom fields',
    sections.map((s) => [
      h('h3', null, label(s)),
      h(
        'dl',
        { class: 'scored-grid', 'data-testid': `custom-${s}` },
        Object.keys(custom[s] ?? {})
          .sort()
          .map((f) =>
            h(
              'div',
              { class: 'scored-row' },
              h('dt', null, label(f)),
              valueCell(custom[s]![f], valueControls(actions, `custom.${s}.${f}`)),
            ),
          ),
      ),
    ]),
  )
}

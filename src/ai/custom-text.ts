// Custom schema values as short labelled facts ("diet restrictions: vegetarian, gluten-free"; "travel budget: 500"), in
// a fixed order (section, field), for the embedded text and the LLM context.
import type { CustomValues } from '../domain/custom-schema.js'

const MAX_FACTS = 40
const MAX_LIST = 10

export interface CustomFact {
  /** section.field */
  path: string
  label: string
  text: string
  confidence: number
}

const show = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v).replace(/\s+/g, ' ').trim())

export function customFacts(custom: CustomValues | undefined): CustomFact[] {
  const out: CustomFact[] = []
  if (!custom || typeof custom !== 'object') return out
  for (const section of Object.keys(custom).sort()) {
    const fields = custom[section]
    if (!fields || typeof fields !== 'object') continue
    for (const field of Object.keys(fields).sort()) {
      const value = fields[field]
      const label = `${section} ${field}`.replace(/_+/g, ' ')
      if (Array.isArray(value)) {
        const items = [...value]
          .sort((a, b) => b.confidence - a.confidence)
          .map((e) => show(e.value))
          .filter(Boolean)
          .slice(0, MAX_LIST)
        if (items.length)
          out.push({
            path: `${section}.${field}`,
            label,
            text: items.join(', '),
            confidence: Math.max(...value.map((e) => e.confidence)),
          })
      } else if (value && typeof value === 'object' && show(value.value)) {
        out.push({ path: `${section}.${field}`, label, text: show(value.value), confidence: value.confidence })
      }
      if (out.length >= MAX_FACTS) return out
    }
  }
  return out
}

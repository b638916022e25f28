// The merge of custom schema values, with the rules of the standard fields (docs/architecture/processing.md,
// "Merging"): a scalar is reinforced by the same value and replaced by a different one when at least as confident or
// not confirmed yet; a list is a deduplicated union whose repeats raise confidence. A value of another kind (list vs
// scalar, or another type after a schema change) replaces the stored one.
import { isCustomName, type CustomScalar, type CustomValues } from './custom-schema.js'
import { CONFIRMED_SEEN, clampConfidence, hasOwn, ListIndex, reinforce } from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import type { Changes, ProfileState, Scored } from './profile.js'

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value)

function scalarKey(value: CustomScalar): string {
  return typeof value === 'string' ? `s:${normaliseValue(value)}` : `${typeof value}:${String(value)}`
}

function cleanScalar(raw: unknown): Scored<CustomScalar> | undefined {
  if (!isObject(raw)) return undefined
  const value = raw.value
  if (
    typeof value === 'string'
      ? !value.trim()
      : typeof value !== 'boolean' && !(typeof value === 'number' && Number.isFinite(value))
  )
    return undefined
  return {
    value: typeof value === 'string' ? value.trim() : (value as CustomScalar),
    confidence: clampConfidence(raw.confidence),
  }
}

function mergeCustomScalar(
  cur: unknown,
  inc: Scored<CustomScalar>,
  seen: Record<string, number>,
  path: string,
): Scored<CustomScalar> {
  const stored = cleanScalar(cur)
  if (!stored || typeof stored.value !== typeof inc.value) {
    seen[path] = 1
    return inc
  }
  const count = hasOwn(seen, path) ? seen[path] : 1
  if (scalarKey(stored.value) === scalarKey(inc.value)) {
    seen[path] = count + 1
    return { value: inc.value, confidence: reinforce(stored.confidence, inc.confidence) }
  }
  if (inc.confidence >= stored.confidence || count < CONFIRMED_SEEN) {
    seen[path] = 1
    return inc
  }
  return stored
}

/**
 * Applies an extraction's custom values to the working copy; `named` is told of each section and field given a value.
 */
export function applyCustom(
  state: ProfileState,
  incoming: unknown,
  lists = new ListIndex(),
  named?: (section: string, field: string) => void,
): void {
  if (!isObject(incoming)) return
  for (const [section, fields] of Object.entries(incoming)) {
    if (!isObject(fields) || !isCustomName(section)) continue
    for (const [field, value] of Object.entries(fields)) {
      if (!isCustomName(field)) continue
      const custom = (state.content.custom ??= {})
      if (!hasOwn(custom, section)) custom[section] = {}
      const target = custom[section]!
      const path = `custom.${section}.${field}`
      if (Array.isArray(value)) {
        const entries = value
          .map(cleanScalar)
          .filter((entry): entry is Scored<string> => !!entry && typeof entry.value === 'string')
        if (!entries.length) continue
        const list = Array.isArray(target[field]) ? (target[field] as Scored<string>[]) : []
        for (const entry of entries) lists.add(list, entry)
        target[field] = list
      } else {
        const one = cleanScalar(value)
        if (!one) continue
        const cur = hasOwn(target, field) && !Array.isArray(target[field]) ? target[field] : undefined
        target[field] = mergeCustomScalar(cur, one, state.internals.seen, path)
      }
      named?.(section, field)
      if (!Object.keys(target).length) delete custom[section]
    }
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Adds what changed in custom values to a batch's changes; returns the field_timestamps paths touched. */
export function diffCustom(
  before: CustomValues | undefined,
  after: CustomValues | undefined,
  changes: Changes,
): string[] {
  const paths: string[] = []
  for (const [section, fields] of Object.entries(after ?? {})) {
    for (const [field, cur] of Object.entries(fields)) {
      const old =
        before && hasOwn(before, section) && hasOwn(before[section]!, field) ? before[section]![field] : undefined
      if (same(old, cur)) continue
      let reported: Scored<CustomScalar> | Scored<string>[] = cur
      if (Array.isArray(cur)) {
        const oldList = new Set((Array.isArray(old) ? old : []).map((o) => JSON.stringify(o)))
        reported = cur.filter((e) => !oldList.has(JSON.stringify(e)))
        if (!reported.length) continue
      } else if (old && !Array.isArray(old) && scalarKey(old.value) !== scalarKey(cur.value)) {
        ;(changes.replaced ??= {})[`custom.${section}.${field}`] = old as Scored<string | number>
      }
      ;((changes.custom ??= {})[section] ??= {})[field] = reported
      paths.push(`custom.${section}`, `custom.${section}.${field}`)
    }
  }
  return paths
}

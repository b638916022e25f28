// The merge of custom schema values (issue 14), with the rules of the standard fields (CONTRACT §7): a scalar is
// reinforced by the same value and replaced by a different one when at least as confident or not confirmed yet; a
// list is a deduplicated union whose repeats raise confidence. A value of another kind (list vs scalar, or another
// type after a schema change) replaces the stored one.
import { isCustomName, type CustomScalar, type CustomValues } from './custom-schema.js'
import { CONFIRMED_SEEN, clampConfidence, hasOwn, ListIndex, reinforce } from './merge-rules.js'
import { normaliseValue } from './normalise.js'
import type { Changes, ProfileState, Scored } from './profile.js'

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

function scalarKey(v: CustomScalar): string {
  return typeof v === 'string' ? `s:${normaliseValue(v)}` : `${typeof v}:${String(v)}`
}

function cleanScalar(x: unknown): Scored<CustomScalar> | undefined {
  if (!isObject(x)) return undefined
  const v = x.value
  if (typeof v === 'string' ? !v.trim() : typeof v !== 'boolean' && !(typeof v === 'number' && Number.isFinite(v)))
    return undefined
  return { value: typeof v === 'string' ? v.trim() : (v as CustomScalar), confidence: clampConfidence(x.confidence) }
}

function mergeCustomScalar(
  cur: unknown,
  inc: Scored<CustomScalar>,
  seen: Record<string, number>,
  path: string,
): Scored<CustomScalar> {
  const c = cleanScalar(cur)
  if (!c || typeof c.value !== typeof inc.value) {
    seen[path] = 1
    return inc
  }
  const count = hasOwn(seen, path) ? seen[path] : 1
  if (scalarKey(c.value) === scalarKey(inc.value)) {
    seen[path] = count + 1
    return { value: inc.value, confidence: reinforce(c.confidence, inc.confidence) }
  }
  if (inc.confidence >= c.confidence || count < CONFIRMED_SEEN) {
    seen[path] = 1
    return inc
  }
  return c
}

/** Applies an extraction's custom values to the working copy; `named` is told of each section and field given a value. */
export function applyCustom(
  s: ProfileState,
  incoming: unknown,
  lists = new ListIndex(),
  named?: (section: string, field: string) => void,
): void {
  if (!isObject(incoming)) return
  for (const [section, fields] of Object.entries(incoming)) {
    if (!isObject(fields) || !isCustomName(section)) continue
    for (const [field, v] of Object.entries(fields)) {
      if (!isCustomName(field)) continue
      const custom = (s.content.custom ??= {})
      if (!hasOwn(custom, section)) custom[section] = {}
      const target = custom[section]!
      const path = `custom.${section}.${field}`
      if (Array.isArray(v)) {
        const entries = v.map(cleanScalar).filter((e): e is Scored<string> => !!e && typeof e.value === 'string')
        if (!entries.length) continue
        const list = Array.isArray(target[field]) ? (target[field] as Scored<string>[]) : []
        for (const e of entries) lists.add(list, e)
        target[field] = list
      } else {
        const one = cleanScalar(v)
        if (!one) continue
        const cur = hasOwn(target, field) && !Array.isArray(target[field]) ? target[field] : undefined
        target[field] = mergeCustomScalar(cur, one, s.internals.seen, path)
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

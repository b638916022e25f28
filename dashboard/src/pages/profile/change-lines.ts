/**
 * A history entry's `changes` as "path: value" lines (no DOM here). Stored history can be nested to any depth (an
 * import, a direct write), and a recursive walk, like JSON.stringify, overflows the stack at a few thousand levels:
 * both walks here are iterative. Paths go CHANGE_PATH_DEPTH levels deep; whatever lies deeper is shown as compact JSON
 * text, cut after JSON_TEXT_CHARS characters (so the work is bounded too).
 *
 * The server has its own iterative JSON text (src/domain/deep-json.ts): the dashboard is bundled from dashboard/ alone.
 */

export const CHANGE_PATH_DEPTH = 32
export const JSON_TEXT_CHARS = 2000

export interface ChangeLine {
  path: string
  /** The value as text; undefined for an empty list or object ("(none)"). */
  value?: string
  /** A {value, confidence} pair's confidence. */
  confidence?: number
  /** A past value's window ({value, confidence, from, until}: a replaced scalar, a past value), ISO 8601. */
  window?: { from: string; until: string }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Text that closes a list or object, or separates its items, in jsonText's work stack (values are never Raw). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify's compact text of JSON data, without recursion, stopping after `maxChars` characters (then "…"). */
export function jsonText(value: unknown, maxChars = JSON_TEXT_CHARS): string {
  let out = ''
  const stack: unknown[] = [value]
  while (stack.length && out.length <= maxChars) {
    const v = stack.pop()
    if (v instanceof Raw) out += v.text
    else if (Array.isArray(v)) {
      out += '['
      stack.push(new Raw(']'))
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i] === undefined || typeof v[i] === 'function' ? null : v[i])
        if (i > 0) stack.push(new Raw(','))
      }
    } else if (isObject(v)) {
      out += '{'
      stack.push(new Raw('}'))
      const keys = Object.keys(v).filter((k) => v[k] !== undefined && typeof v[k] !== 'function')
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(v[keys[i]!])
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else if (typeof v === 'string') out += JSON.stringify(v)
    else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'null'
    else if (typeof v === 'boolean') out += String(v)
    else out += 'null'
  }
  if (!stack.length && out.length <= maxChars) return out
  // Not in the middle of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(out.charAt(maxChars - 1)) ? maxChars - 1 : maxChars
  return `${out.slice(0, end)}…`
}

function leafText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return '(none)'
  if (typeof value === 'object') return jsonText(value)
  return String(value)
}

/**
 * Flattens a changes object into lines, in order: {value, confidence} objects become one line (with the confidence, and
 * the window of a past value),
 * an empty list or object "(none)", anything deeper than CHANGE_PATH_DEPTH its JSON text.
 */
export function changeLines(changes: unknown): ChangeLine[] {
  const out: ChangeLine[] = []
  const stack: [value: unknown, path: string, depth: number][] = [[changes, '', 0]]
  while (stack.length) {
    const [value, path, depth] = stack.pop()!
    if (isObject(value)) {
      const keys = Object.keys(value)
      if ('value' in value && ('confidence' in value || keys.length === 1)) {
        const confidence = typeof value.confidence === 'number' ? { confidence: value.confidence } : {}
        const window =
          typeof value.from === 'string' && typeof value.until === 'string'
            ? { window: { from: value.from, until: value.until } }
            : {}
        out.push({ path: path || 'value', value: leafText(value.value), ...confidence, ...window })
      } else if (!keys.length) out.push({ path: path || '(empty)' })
      else if (depth >= CHANGE_PATH_DEPTH) out.push({ path, value: jsonText(value) })
      else
        for (let i = keys.length - 1; i >= 0; i--)
          stack.push([value[keys[i]!], path ? `${path}.${keys[i]}` : keys[i]!, depth + 1])
    } else if (Array.isArray(value)) {
      if (!value.length) out.push({ path })
      else if (depth >= CHANGE_PATH_DEPTH) out.push({ path, value: jsonText(value) })
      else for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`, depth + 1])
    } else out.push({ path, value: leafText(value) })
  }
  return out
}

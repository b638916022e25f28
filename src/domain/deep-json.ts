// Stored free-form JSON (a history entry's `changes`) can be nested deeper than JSON.stringify can go: it recurses and
// overflows the stack at about 4,000 levels, failing the whole answer. What the service writes is a few levels deep;
// an import or a direct write to the database can hold thousands (PostgreSQL's jsonb takes about 10,000-40,000 on a
// server, 5,000 on PGlite). Both walks here are iterative.

/** Levels of stored JSON the GraphQL API serves as JSON; deeper lists and objects come as their JSON text. */
export const SERVED_JSON_DEPTH = 100

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object'

/** Text that closes a list or object, or separates its items, in jsonText's work stack (values are never Raw). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify's compact text of JSON data (as parsed from JSON: no toJSON, cycles or BigInt), at any depth. */
export function jsonText(value: unknown): string {
  const parts: string[] = []
  const stack: unknown[] = [value]
  while (stack.length) {
    const v = stack.pop()
    if (v instanceof Raw) parts.push(v.text)
    else if (Array.isArray(v)) {
      parts.push('[')
      stack.push(new Raw(']'))
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i] === undefined || typeof v[i] === 'function' ? null : v[i])
        if (i > 0) stack.push(new Raw(','))
      }
    } else if (isContainer(v)) {
      const o = v as Record<string, unknown>
      parts.push('{')
      stack.push(new Raw('}'))
      const keys = Object.keys(o).filter((k) => o[k] !== undefined && typeof o[k] !== 'function')
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(o[keys[i]!])
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else parts.push(typeof v === 'number' && !Number.isFinite(v) ? 'null' : (JSON.stringify(v) ?? 'null'))
  }
  return parts.join('')
}

function deeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [v, depth] = stack.pop()!
    if (!isContainer(v)) continue
    if (depth >= maxDepth) return true
    for (const x of Object.values(v)) if (isContainer(x)) stack.push([x, depth + 1])
  }
  return false
}

/**
 * `value` itself when no list or object in it is `maxDepth` levels down (the top is level 0); otherwise a copy in which
 * each one at that level is replaced by its JSON text, so any serializer can write it.
 */
export function capJsonDepth(value: unknown, maxDepth = SERVED_JSON_DEPTH): unknown {
  if (!deeperThan(value, maxDepth)) return value
  const top: unknown[] = [undefined]
  const stack: [v: unknown, into: object, key: string | number, depth: number][] = [[value, top, 0, 0]]
  while (stack.length) {
    const [v, into, key, depth] = stack.pop()!
    let copy: unknown = v
    if (isContainer(v)) {
      if (depth >= maxDepth) copy = jsonText(v)
      else {
        const c: Record<string, unknown> | unknown[] = Array.isArray(v) ? new Array(v.length) : {}
        for (const [k, x] of Object.entries(v)) {
          // defineProperty: a key named "__proto__" stays a key (JSON.parse makes it an own property too).
          if (!Array.isArray(c))
            Object.defineProperty(c, k, { value: undefined, enumerable: true, writable: true, configurable: true })
          stack.push([x, c, Array.isArray(c) ? Number(k) : k, depth + 1])
        }
        copy = c
      }
    }
    ;(into as Record<string | number, unknown>)[key] = copy
  }
  return top[0]
}

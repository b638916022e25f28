// Stored free-form JSON (a history entry's `changes`) can be nested deeper than JSON.stringify can go: it recurses and
// overflows the stack at about 4,500 levels, failing the whole answer. What the service writes is a few levels deep;
// an import holds at most 32; a direct write to the database can hold thousands (PostgreSQL's jsonb takes about
// 10,000-40,000 on a server; PGlite about 5,000, and past that it may drop the row or never answer). Both walks here
// are iterative.

/** Levels of stored JSON the GraphQL API serves as JSON; deeper lists and objects come as their JSON text. */
export const SERVED_JSON_DEPTH = 100

const isContainer = (value: unknown): value is object => value !== null && typeof value === 'object'

/** Text that closes a list or object, or separates its items, in jsonText's work stack (values are never Raw). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify's compact text of JSON data (as parsed from JSON: no toJSON, cycles or BigInt), at any depth. */
export function jsonText(value: unknown): string {
  const parts: string[] = []
  const stack: unknown[] = [value]
  while (stack.length) {
    const next = stack.pop()
    if (next instanceof Raw) parts.push(next.text)
    else if (Array.isArray(next)) {
      parts.push('[')
      stack.push(new Raw(']'))
      for (let i = next.length - 1; i >= 0; i--) {
        stack.push(next[i] === undefined || typeof next[i] === 'function' ? null : next[i])
        if (i > 0) stack.push(new Raw(','))
      }
    } else if (isContainer(next)) {
      const object = next as Record<string, unknown>
      parts.push('{')
      stack.push(new Raw('}'))
      const keys = Object.keys(object).filter((k) => object[k] !== undefined && typeof object[k] !== 'function')
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(object[keys[i]!])
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`))
      }
    } else parts.push(typeof next === 'number' && !Number.isFinite(next) ? 'null' : (JSON.stringify(next) ?? 'null'))
  }
  return parts.join('')
}

function deeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (!isContainer(node)) continue
    if (depth >= maxDepth) return true
    for (const child of Object.values(node)) if (isContainer(child)) stack.push([child, depth + 1])
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
    const [node, into, key, depth] = stack.pop()!
    let copy: unknown = node
    if (isContainer(node)) {
      if (depth >= maxDepth) copy = jsonText(node)
      else {
        const container: Record<string, unknown> | unknown[] = Array.isArray(node) ? new Array(node.length) : {}
        for (const [key, child] of Object.entries(node)) {
          // defineProperty: a key named "__proto__" stays a key (JSON.parse makes it an own property too).
          if (!Array.isArray(container))
            Object.defineProperty(container, key, {
              value: undefined,
              enumerable: true,
              writable: true,
              configurable: true,
            })
          stack.push([child, container, Array.isArray(container) ? Number(key) : key, depth + 1])
        }
        copy = container
      }
    }
    ;(into as Record<string | number, unknown>)[key] = copy
  }
  return top[0]
}

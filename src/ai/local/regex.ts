// Compiled regular expressions, cached by source: rules build patterns from shared fragments (ADV, number words)
// and must not recompile them for every clause.
const cache = new Map<string, RegExp>()

export function re(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`
  let r = cache.get(key)
  if (!r) {
    if (cache.size > 2000) cache.clear()
    r = new RegExp(source, flags)
    cache.set(key, r)
  }
  if (r.global || r.sticky) r.lastIndex = 0
  return r
}

const sites = new WeakMap<TemplateStringsArray, RegExp>()

function compileSite(flags: string, strings: TemplateStringsArray, values: unknown[]): RegExp {
  let r = sites.get(strings)
  if (!r) {
    r = new RegExp(String.raw({ raw: strings }, ...values), flags)
    sites.set(strings, r)
  }
  if (r.global || r.sticky) r.lastIndex = 0
  return r
}

/**
 * A regex written as a template literal, compiled once per call site. The interpolated values must be constants
 * (shared fragments such as ADV): the first call's values are the ones compiled.
 */
export const rx = (strings: TemplateStringsArray, ...values: unknown[]): RegExp => compileSite('', strings, values)
/** As `rx`, with the global flag (for matchAll). */
export const rxg = (strings: TemplateStringsArray, ...values: unknown[]): RegExp => compileSite('g', strings, values)

/** A lookup table without a prototype, so that keys such as "constructor" read as absent. */
export function dict<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries)
}

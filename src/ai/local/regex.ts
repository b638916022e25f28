// Compiled regular expressions, cached by source: rules build patterns from shared fragments (ADV, number words)
// and must not recompile them for every clause.
const cache = new Map<string, RegExp>()

export function re(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`
  let regex = cache.get(key)
  if (!regex) {
    if (cache.size > 2000) cache.clear()
    regex = new RegExp(source, flags)
    cache.set(key, regex)
  }
  if (regex.global || regex.sticky) regex.lastIndex = 0
  return regex
}

const sites = new WeakMap<TemplateStringsArray, RegExp>()

function compileSite(flags: string, strings: TemplateStringsArray, values: unknown[]): RegExp {
  let regex = sites.get(strings)
  if (!regex) {
    regex = new RegExp(String.raw({ raw: strings }, ...values), flags)
    sites.set(strings, regex)
  }
  if (regex.global || regex.sticky) regex.lastIndex = 0
  return regex
}

/**
 * A regex written as a template literal, compiled once per call site. The interpolated values must be constants
 * (shared fragments such as ADV): the first call's values are the ones compiled.
 */
export const rx = (strings: TemplateStringsArray, ...values: unknown[]): RegExp => compileSite('', strings, values)
/** As `rx`, with the global flag (for matchAll). */
export const rxg = (strings: TemplateStringsArray, ...values: unknown[]): RegExp => compileSite('g', strings, values)

/**
 * A regex source written over several lines: read as String.raw reads a template (backslashes as in a regex literal),
 * with each line break and the indentation after it dropped. A long pattern breaks where it has no space (after a `|`,
 * before a group), so no character of the pattern is lost or added.
 */
export const pattern = (strings: TemplateStringsArray, ...values: unknown[]): string =>
  String.raw(strings, ...values).replace(/\n\s*/g, '')

/** A lookup table without a prototype, so that keys such as "constructor" read as absent. */
export function dict<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries)
}

/** Names of a generated vocabulary ('|' and line separated), as a regex reads them. */
export interface NameList {
  /** Lower case -> as the vocabulary writes it. */
  names: Map<string, string>
  /** Every name in lower case, escaped, longest first ("mandarin chinese" before "mandarin"), joined by '|'. */
  alternation: string
}

/** A generated vocabulary's names (language-data.ts, faith-data.ts) ready for a regex. */
export function nameList(list: string): NameList {
  const names = new Map(
    list
      .split(/[|\n]/)
      .filter(Boolean)
      .map((name) => [name.toLowerCase(), name]),
  )
  const alternation = [...names.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('|')
  return { names, alternation }
}

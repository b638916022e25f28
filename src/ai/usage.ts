import type { Usage } from './types.js'

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 }

/** The sum of the usages given; undefined when none is. */
export function sumUsage(parts: (Usage | undefined)[]): Usage | undefined {
  const present = parts.filter((u): u is Usage => !!u)
  if (!present.length) return undefined
  return present.reduce((a, b) => ({
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  }))
}

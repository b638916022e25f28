// The generated parts of docs/ and the function that generates each. A page may hold prose of its own: only the part
// between its markers is generated (the whole page when it has none).
import { cliReference } from './cli.js'
import { configurationReference } from './configuration.js'
import { errorsReference } from './errors.js'
import { graphqlReference } from './graphql.js'
import { restReference } from './rest.js'

export const referencePages: Record<string, () => string | Promise<string>> = {
  'docs/operations/configuration.md': configurationReference,
  'docs/reference/cli.md': cliReference,
  'docs/reference/errors.md': errorsReference,
  'docs/reference/graphql.md': graphqlReference,
  'docs/reference/rest.md': restReference,
}

export const GENERATED_START = '<!-- generated: start (npm run docs:reference writes this part; do not edit it) -->'
export const GENERATED_END = '<!-- generated: end -->'

/** The page `current` with its generated part replaced by `generated` (the whole page when it has no markers). */
export function withGeneratedPart(current: string | null, generated: string): string {
  const start = current?.indexOf(GENERATED_START) ?? -1
  const end = current?.indexOf(GENERATED_END) ?? -1
  if (current === null || start < 0 || end < start) return generated
  return current.slice(0, start + GENERATED_START.length) + '\n\n' + generated.trimEnd() + '\n\n' + current.slice(end)
}

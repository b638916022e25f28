// docs/reference/errors.md, generated from the error registry (src/domain/errors.ts).
import { ERRORS } from '../../src/domain/errors.js'

const HEADER = `# Error codes

Every error the service answers with. This page is generated from the code by \`npm run docs:reference\`; do not
edit it by hand.

Over REST an error is the body \`{"error": <status>, "message": "..."}\` with the HTTP status; over GraphQL it is an
error whose \`extensions.code\` is the code below and \`extensions.status\` the status. The message says what to fix
and names the field; it never holds a stack trace, SQL or a secret. See
[API conventions](api-conventions.md) for the headers that come with errors.

| code | status | when |
|---|---|---|
`

/** The whole page. */
export function errorsReference(): string {
  const rows = Object.entries(ERRORS)
    .sort(([codeA, a], [codeB, b]) => a.status - b.status || codeA.localeCompare(codeB))
    .map(([code, { status, when }]) => `| \`${code}\` | ${status} | ${when} |`)
  return HEADER + rows.join('\n') + '\n'
}

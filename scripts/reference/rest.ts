// docs/reference/rest.md, generated from the OpenAPI document (schema/openapi.json, itself checked against the code).
import fs from 'node:fs'
import path from 'node:path'

interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: { type?: string; enum?: unknown[]; default?: unknown; minimum?: number; maximum?: number }
}
interface Operation {
  operationId: string
  summary?: string
  description?: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> }
  responses: Record<string, { description?: string; $ref?: string }>
}
type PathItem = Record<string, Operation>

const HEADER = `# REST API reference

Every route of \`/v1\`, from the OpenAPI document the service serves at \`GET /v1/openapi.json\` (browse it at
\`/docs\` on a running service). This page is generated from the code by \`npm run docs:reference\`; do not edit
it by hand. Authentication, errors, headers and paging are described in [API conventions](api-conventions.md);
error codes in [errors](errors.md).
`

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

function schemaName(ref: string | undefined): string {
  return ref ? ref.replace('#/components/schemas/', '') : 'object'
}

function parameterType(parameter: Parameter): string {
  const schema = parameter.schema ?? {}
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(', ')
  const range = schema.minimum !== undefined || schema.maximum !== undefined
  return (schema.type ?? 'string') + (range ? ` ${schema.minimum ?? ''}..${schema.maximum ?? ''}` : '')
}

function operationSection(method: string, route: string, operation: Operation): string {
  const lines = [`### ${method.toUpperCase()} ${route}`, '', `\`${operation.operationId}\`: ${cell(operation.summary)}`]
  if (operation.description) lines.push('', cell(operation.description))
  const parameters = operation.parameters ?? []
  if (parameters.length) {
    lines.push('', '| parameter | in | type | required | description |', '|---|---|---|---|---|')
    for (const parameter of parameters) {
      const required = parameter.required ? 'yes' : 'no'
      const row = [parameter.name, parameter.in, parameterType(parameter), required, cell(parameter.description)]
      lines.push(`| \`${row[0]}\` | ${row.slice(1).join(' | ')} |`)
    }
  }
  const body = operation.requestBody?.content
  if (body) {
    const [type, media] = Object.entries(body)[0]!
    lines.push('', `Body: \`${type}\`, schema \`${schemaName(media.schema.$ref)}\`.`)
  }
  lines.push('', '| status | meaning |', '|---|---|')
  for (const [status, response] of Object.entries(operation.responses)) {
    const meaning =
      response.description ?? `see \`${schemaName(response.$ref).replace('#/components/responses/', '')}\``
    lines.push(`| ${status} | ${cell(meaning)} |`)
  }
  return lines.join('\n') + '\n'
}

/** The whole page, from the OpenAPI document at `file`. */
export function restReference(file = path.resolve(import.meta.dirname, '../../schema/openapi.json')): string {
  const document = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    paths: Record<string, PathItem>
    components: { schemas: Record<string, { description?: string }> }
  }
  const sections = Object.entries(document.paths).flatMap(([route, item]) =>
    METHODS.filter((method) => item[method]).map((method) => operationSection(method, route, item[method]!)),
  )
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) => `- \`${name}\`${schema.description ? `: ${cell(schema.description)}` : ''}`,
  )
  return [
    HEADER,
    '## Routes',
    '',
    ...sections,
    '## Schemas',
    '',
    'The named schemas of `components.schemas` in the OpenAPI document:',
    '',
    ...schemas,
    '',
  ].join('\n')
}

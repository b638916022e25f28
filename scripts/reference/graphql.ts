// docs/reference/graphql.md, generated from the GraphQL schema (schema/schema.graphql, itself checked against the
// code).
import fs from 'node:fs'
import path from 'node:path'
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  buildSchema,
} from 'graphql'

const HEADER = `# GraphQL reference

Every query, mutation, subscription and type of \`/graphql\`. This page is generated from the code by
\`npm run docs:reference\`; do not edit it by hand. The [GraphQL guide](../guides/graphql.md) shows how to use it.
`

function oneLine(text: string | null | undefined): string {
  return (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim()
}

function argumentList(args: readonly GraphQLArgument[]): string {
  if (!args.length) return ''
  const parts = args.map((arg) => `${arg.name}: ${String(arg.type)}`)
  return `(${parts.join(', ')})`
}

function rootSection(title: string, type: GraphQLObjectType | null | undefined): string[] {
  if (!type) return []
  const lines = [`## ${title}`, '']
  for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
    lines.push(
      `### ${field.name}`,
      '',
      '```graphql',
      `${field.name}${argumentList(field.args)}: ${String(field.type)}`,
      '```',
      '',
      oneLine(field.description),
    )
    const described = field.args.filter((arg) => arg.description)
    if (described.length) {
      lines.push('', ...described.map((arg) => `- \`${arg.name}\`: ${oneLine(arg.description)}`))
    }
    lines.push('')
  }
  return lines
}

function typeSection(type: GraphQLNamedType): string[] {
  const lines = [`### ${type.name}`, '']
  if (type.description) lines.push(oneLine(type.description), '')
  if (type instanceof GraphQLObjectType || type instanceof GraphQLInputObjectType) {
    lines.push('| field | type | description |', '|---|---|---|')
    for (const field of Object.values(type.getFields())) {
      lines.push(`| \`${field.name}\` | \`${String(field.type)}\` | ${oneLine(field.description)} |`)
    }
    lines.push('')
  } else if (type instanceof GraphQLEnumType) {
    lines.push(
      ...type
        .getValues()
        .map((value) => `- \`${value.name}\`${value.description ? `: ${oneLine(value.description)}` : ''}`),
      '',
    )
  } else if (type instanceof GraphQLUnionType) {
    lines.push(
      `One of ${type
        .getTypes()
        .map((member) => `\`${member.name}\``)
        .join(', ')}.`,
      '',
    )
  } else if (type instanceof GraphQLScalarType) {
    lines.push('A scalar.', '')
  }
  return lines
}

/** The whole page, from the schema at `file`. */
export function graphqlReference(file = path.resolve(import.meta.dirname, '../../schema/schema.graphql')): string {
  const schema = buildSchema(fs.readFileSync(file, 'utf8'))
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()])
  const types = Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && !roots.has(type as GraphQLObjectType))
    .sort((a, b) => a.name.localeCompare(b.name))
  return [
    HEADER,
    ...rootSection('Queries', schema.getQueryType()),
    ...rootSection('Mutations', schema.getMutationType()),
    ...rootSection('Subscriptions', schema.getSubscriptionType()),
    '## Types',
    '',
    ...types.flatMap(typeSection),
  ]
    .join('\n')
    .replace(/\n+$/, '\n')
}

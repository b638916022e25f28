import fs from 'node:fs'
import path from 'node:path'
import { printSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import { profilerSchema } from '../../src/graphql/schema.js'

describe('GraphQL schema', () => {
  it('schema/schema.graphql matches the running schema (run `npm run schema` after changing types or resolvers)', async () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/schema.graphql'), 'utf8')
    expect(printSchema(await profilerSchema()) + '\n').toBe(committed)
  })
})

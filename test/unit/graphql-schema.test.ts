import fs from 'node:fs'
import path from 'node:path'
import { printSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import { dashboardSchema, profilerSchema } from '../../src/graphql/schema.js'

describe('GraphQL schema', () => {
  it('schema/schema.graphql matches the running schema', async () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/schema.graphql'), 'utf8')
    expect(printSchema(await profilerSchema()) + '\n', 'run `npm run schema` after changing types or resolvers').toBe(
      committed,
    )
  })

  it('schema/dashboard.graphql matches the dashboard schema, which adds account operations', async () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/dashboard.graphql'), 'utf8')
    const dashboard = await dashboardSchema()
    expect(printSchema(dashboard) + '\n').toBe(committed)
    const api = await profilerSchema()
    for (const field of [
      'signUp',
      'signIn',
      'signOut',
      'changePassword',
      'createApp',
      'renameApp',
      'deleteApp',
      'rotateAppKey',
      'revokeAppKey',
    ]) {
      expect(dashboard.getMutationType()!.getFields()[field], field).toBeDefined()
      expect(api.getMutationType()!.getFields()[field], field).toBeUndefined()
    }
    expect(api.getQueryType()!.getFields().apps).toBeUndefined()
    expect(api.getType('Account')).toBeUndefined()
  })
})

// Writes schema/openapi.json, schema/schema.graphql (the API) and schema/dashboard.graphql from the code. Run: npm run
// schema
import 'reflect-metadata'
import fs from 'node:fs'
import path from 'node:path'
import { printSchema } from 'graphql'
import { dashboardSchema, profilerSchema } from '../src/graphql/schema.js'
import { openApiDocument } from '../src/rest/openapi.js'

const dir = path.resolve(import.meta.dirname, '../schema')
fs.mkdirSync(dir, { recursive: true })
fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(openApiDocument(), null, 2) + '\n')
fs.writeFileSync(path.join(dir, 'schema.graphql'), printSchema(await profilerSchema()) + '\n')
fs.writeFileSync(path.join(dir, 'dashboard.graphql'), printSchema(await dashboardSchema()) + '\n')
process.stdout.write('wrote schema/openapi.json, schema/schema.graphql and schema/dashboard.graphql\n')

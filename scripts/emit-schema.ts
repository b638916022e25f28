// Writes schema/openapi.json and schema/schema.graphql from the code. Run: npm run schema
import 'reflect-metadata'
import fs from 'node:fs'
import path from 'node:path'
import { printSchema } from 'graphql'
import { profilerSchema } from '../src/graphql/schema.js'
import { openApiDocument } from '../src/rest/openapi.js'

const dir = path.resolve(import.meta.dirname, '../schema')
fs.mkdirSync(dir, { recursive: true })
fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(openApiDocument(), null, 2) + '\n')
fs.writeFileSync(path.join(dir, 'schema.graphql'), printSchema(await profilerSchema()) + '\n')
process.stdout.write('wrote schema/openapi.json and schema/schema.graphql\n')

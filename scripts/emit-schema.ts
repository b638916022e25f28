// Writes schema/openapi.json from the code (the same document GET /v1/openapi.json serves). Run: npm run schema
import fs from 'node:fs'
import path from 'node:path'
import { openApiDocument } from '../src/rest/openapi.js'

const file = path.resolve(import.meta.dirname, '../schema/openapi.json')
fs.mkdirSync(path.dirname(file), { recursive: true })
fs.writeFileSync(file, JSON.stringify(openApiDocument(), null, 2) + '\n')
process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`)

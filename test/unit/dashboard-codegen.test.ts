// The dashboard's GraphQL documents and their generated types (dashboard/codegen.ts, GraphQL Code Generator): the
// committed output must be what the generator writes now from the documents and schema/dashboard.graphql, every
// document must validate against that schema, and every one must pass the server's own parser and limits.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generate } from '@graphql-codegen/cli'
import { parse, specifiedRules, validate } from 'graphql'
import { describe, expect, it } from 'vitest'
import config from '../../dashboard/codegen.js'
import * as generated from '../../dashboard/src/generated/graphql.js'
import { loadConfig } from '../../src/config.js'
import { limitRules } from '../../src/graphql/limits.js'
import { dashboardSchema } from '../../src/graphql/schema.js'

const root = path.resolve(import.meta.dirname, '../..')
const outputDir = path.join(root, 'dashboard/src/generated')

describe('dashboard GraphQL code generation', () => {
  it('dashboard/src/generated matches the documents and schema/dashboard.graphql (run `npm run codegen`)', async () => {
    const outputs: { filename: string; content: string }[] = await generate(
      { ...config, cwd: root, silent: true },
      false,
    )
    expect(outputs.length).toBeGreaterThan(0)
    for (const { filename, content } of outputs) {
      const file = path.resolve(root, filename)
      expect(fs.existsSync(file), `${filename} is not committed`).toBe(true)
      expect(fs.readFileSync(file, 'utf8'), `${filename} is stale`).toBe(content)
    }
    const written = outputs.map((o) => path.basename(o.filename)).sort()
    expect(fs.readdirSync(outputDir).sort(), 'files the generator no longer writes').toEqual(written)
  }, 60_000)

  it('refuses a document that does not validate against the schema', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profiler-codegen-'))
    try {
      fs.writeFileSync(
        path.join(dir, 'bad.ts'),
        'graphql(`query Bad($id: ID!) { profile(id: $id) { profileId noSuchField } }`)\n',
      )
      const bad = {
        ...config,
        cwd: root,
        silent: true,
        documents: [path.join(dir, '*.ts')],
        generates: { [path.join(dir, 'out/')]: Object.values(config.generates)[0]! },
      }
      await expect(generate(bad, false)).rejects.toThrow(/noSuchField/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it("every document the dashboard sends passes the server's parser, validation and depth/cost limits", async () => {
    const schema = await dashboardSchema()
    const limits = loadConfig({}).graphql
    const rules = [...specifiedRules, ...limitRules(limits, true)]
    const operations = Object.entries(generated).filter(([name]) => name.endsWith('Document'))
    expect(operations.map(([name]) => name)).toContain('ProfileStatusChangedDocument')
    for (const [name, document] of operations) {
      const ast = parse(String(document), { maxTokens: limits.maxTokens })
      expect(
        validate(schema, ast, rules).map((e) => e.message),
        name,
      ).toEqual([])
    }
  })
})

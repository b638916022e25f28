// Custom profile schema with PROFILER_AI=openai: the app's fields go into the structured-output JSON schema the
// extractor sends (strict, with each field's description), the local OpenAI-compatible server's "model" fills them
// from there, and what comes back is checked against the app's schema (what does not fit is dropped).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProfiler, type Profiler } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { client, freshDatabase, testEnv, type Client, type TestDatabase } from '../support/harness.js'
import { strictSchemaProblems } from '../support/json-schema-strict.js'
import { customSchemaOf, openaiEnv, startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'

const SCHEMA = {
  sections: {
    diet: {
      restrictions: {
        type: 'string[]',
        description: 'Dietary restrictions: vegetarian, vegan, gluten-free, halal, kosher',
      },
    },
    travel: {
      budget: { type: 'integer', description: 'Trip budget in dollars', min: 0, max: 100000 },
      preferred_language: { type: 'enum', values: ['English', 'Spanish'] },
      newsletter: { type: 'boolean', description: 'Wants the newsletter' },
    },
  },
}

describe('custom profile schema, openai provider', () => {
  let oa: OpenAIServer
  let db: TestDatabase
  let profiler: Profiler
  let withSchema: Client
  let without: Client

  beforeAll(async () => {
    oa = await startOpenAIServer()
    db = await freshDatabase()
    profiler = await startProfiler(loadConfig(testEnv(db, openaiEnv(oa))), { role: 'all' })
    const t = profiler.services.tenants
    const ka = await t.createApp('default', 'with-schema')
    const kb = await t.createApp('default', 'without')
    withSchema = client(profiler.url!, ka.api_key)
    without = client(profiler.url!, kb.api_key)
    const r = await fetch(`${profiler.url}/v1/schema`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ka.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(SCHEMA),
    })
    expect(r.status).toBe(200)
  })
  afterAll(async () => {
    await profiler?.close()
    await db?.drop()
    await oa?.close()
  })

  it("sends the app's fields in the strict output schema and merges what the model fills", async () => {
    expect(
      (
        await withSchema.post('o1', {
          data: "I'm Bo. I'm vegan and kosher. My budget is 900 and I prefer English. Newsletter: yes",
        })
      ).status,
    ).toBe(202)
    const p = await withSchema.waitReady('o1')
    const req = oa.chatRequests().find((r) => r.batch?.texts.some((t) => t.includes("I'm Bo")))!
    const schema = req.body.response_format.json_schema.schema
    expect(strictSchemaProblems(schema)).toEqual([])
    expect(req.problems).toEqual([])
    expect(customSchemaOf(schema)!.sections.diet!.restrictions).toEqual({
      type: 'string[]',
      description: SCHEMA.sections.diet.restrictions.description,
    })
    expect(JSON.stringify(schema)).toContain('maximum 100000')
    expect(p.custom).toEqual({
      diet: {
        restrictions: [
          { value: 'vegan', confidence: 0.6 },
          { value: 'kosher', confidence: 0.6 },
        ],
      },
      travel: {
        budget: { value: 900, confidence: 0.8 },
        preferred_language: { value: 'English', confidence: 0.72 },
        newsletter: { value: true, confidence: 0.8 },
      },
    })
    expect(p.core_info.name.value).toBe('Bo')
  })

  it('drops what does not fit the schema', async () => {
    oa.faults.add({
      match: 'Carla',
      customOverride: {
        diet: {
          restrictions: [
            { value: 'paleo', confidence: 0.9, evidence: "I'm Carla" },
            { value: 5, confidence: 0.9, evidence: "I'm Carla" },
          ],
          invented: { value: 'x', confidence: 1, evidence: "I'm Carla" },
        },
        travel: {
          budget: { value: 1e9, confidence: 0.9, evidence: "I'm Carla" },
          preferred_language: { value: 'Klingon', confidence: 0.9, evidence: "I'm Carla" },
          newsletter: { value: 'maybe', confidence: 0.9, evidence: "I'm Carla" },
        },
        ghost: { f: { value: 1, confidence: 1, evidence: "I'm Carla" } },
      },
    })
    expect((await withSchema.post('o2', { data: "I'm Carla and I live in Rome." })).status).toBe(202)
    const p = await withSchema.waitReady('o2')
    expect(p.core_info.name.value).toBe('Carla')
    // paleo is text: a string[] field takes any; the rest breaks the schema (type, bounds, enum, unknown names).
    expect(p.custom).toEqual({ diet: { restrictions: [{ value: 'paleo', confidence: 0.9 }] } })
  })

  it('an app without a schema sends the fixed output schema', async () => {
    expect((await without.post('o3', { data: 'I am Dee and I am vegan.' })).status).toBe(202)
    const p = await without.waitReady('o3')
    expect(p.custom).toBeUndefined()
    const req = oa.chatRequests().find((r) => r.batch?.texts.some((t) => t.includes('I am Dee')))!
    expect(customSchemaOf(req.body.response_format.json_schema.schema)).toBeUndefined()
  })
})

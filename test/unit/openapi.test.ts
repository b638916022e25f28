import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../src/rest/openapi.js'

describe('OpenAPI document', () => {
  it('schema/openapi.json matches the code (run `npm run schema` after changing the API)', () => {
    const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../schema/openapi.json'), 'utf8')
    expect(JSON.parse(committed)).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
  })

  it('describes every /v1 operation with the request schemas used for validation', () => {
    const doc = openApiDocument() as any
    // A body's schema is a $ref to a named component.
    const s = (x: any): any => (x?.$ref ? doc.components.schemas[x.$ref.split('/').pop()] : x)
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/v1/export',
      '/v1/import',
      '/v1/openapi.json',
      '/v1/profile/{id}',
      '/v1/profile/{id}/context',
      '/v1/profile/{id}/evidence',
      '/v1/profile/{id}/passages',
      '/v1/profile/{id}/reextract',
      '/v1/profile/{id}/rollback',
      '/v1/profile/{id}/submissions/{submissionId}/evidence',
      '/v1/profile/{id}/values',
      '/v1/schema',
      '/v1/schema/versions',
      '/v1/search',
      '/v1/smart-search',
      '/v1/summary-instructions',
    ])
    expect(Object.keys(doc.paths['/v1/schema']).sort()).toEqual(['get', 'put'])
    const schemaBody = s(doc.paths['/v1/schema'].put.requestBody.content['application/json'].schema)
    expect(JSON.stringify(schemaBody)).toContain('#/components/schemas/CustomField')
    expect(JSON.stringify(doc.components.schemas.CustomField)).toContain('string[]')
    expect(Object.keys(doc.paths['/v1/profile/{id}']).sort()).toEqual(['delete', 'get', 'post'])
    const body = s(doc.paths['/v1/profile/{id}'].post.requestBody.content['application/json'].schema)
    expect(body.required).toEqual(['data'])
    expect(body.properties.input_type.anyOf[0].enum).toEqual(['text', 'conversation', 'structured'])
    expect(body.properties.data.pattern).toBe('\\S')
    const params = doc.paths['/v1/search'].get.parameters.map((p: any) => p.name).sort()
    expect(params).toEqual([
      'filterBy',
      'filterValue',
      'page',
      'pageSize',
      'query',
      'sensitivity',
      'sortBy',
      'sortOrder',
    ])
    expect(doc.paths['/v1/profile/{id}'].post.responses['202']).toBeTruthy()
    const context = doc.paths['/v1/profile/{id}/context'].get
    const byName = Object.fromEntries(context.parameters.map((p: any) => [p.name, p.schema]))
    expect(Object.keys(byName).sort()).toEqual(['id', 'include', 'max_tokens', 'query'])
    expect(byName.include).toMatchObject({ type: 'string', enum: ['all', 'facts', 'passages'], default: 'all' })
    expect(byName.max_tokens).toMatchObject({ type: 'integer', minimum: 1, maximum: 32000, default: 1000 })
    expect(byName.query).toMatchObject({ type: 'string', maxLength: 1000 })
    const passages = doc.paths['/v1/profile/{id}/passages'].get
    const passageParams = Object.fromEntries(passages.parameters.map((p: any) => [p.name, p.schema]))
    expect(Object.keys(passageParams).sort()).toEqual(['cursor', 'id', 'include_hidden', 'limit', 'submission_id'])
    expect(passageParams.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
    expect(passageParams.include_hidden).toMatchObject({ type: 'boolean', default: false })
    expect(s(passages.responses['200'].content['application/json'].schema).required).toEqual([
      'profile_id',
      'passages',
      'next_cursor',
      'has_more',
    ])
    const forget = doc.paths['/v1/profile/{id}/values'].delete
    expect(s(forget.requestBody.content['application/json'].schema).required).toEqual(['section', 'value'])
    expect(forget.parameters.map((p: any) => p.name)).toEqual(['id', 'section', 'value', 'category'])
    expect(Object.keys(forget.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']))
    const rollback = doc.paths['/v1/profile/{id}/rollback'].post
    expect(s(rollback.requestBody.content['application/json'].schema).properties.to_seq).toMatchObject({
      type: 'integer',
      minimum: 1,
    })
    expect(Object.keys(rollback.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']))
    const out = s(context.responses['200'].content['application/json'].schema)
    expect(out.required).toEqual(
      expect.arrayContaining([
        'text',
        'tokens',
        'max_tokens',
        'encoding',
        'facts_included',
        'facts_total',
        'truncated',
      ]),
    )
    const reextract = doc.paths['/v1/profile/{id}/reextract'].post
    expect(reextract.parameters.map((p: any) => p.name).sort()).toEqual(['dry_run', 'expected_version', 'id'])
    expect(Object.keys(reextract.responses).sort()).toEqual(['200', '400', '401', '404', '409', '429', '503'])
    const evidence = doc.paths['/v1/profile/{id}/evidence'].get
    expect(evidence.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['id', true],
      ['field', true],
      ['value', true],
      ['category', false],
      ['limit', false],
    ])
    expect(
      s(s(evidence.responses['200'].content['application/json'].schema).properties.passages.items).required,
    ).toEqual(expect.arrayContaining(['submission_id', 'position', 'text', 'occurred_at', 'match']))
    expect(Object.keys(doc.paths['/v1/profile/{id}/submissions/{submissionId}/evidence'])).toEqual(['delete'])
    const diff = s(reextract.responses['200'].content['application/json'].schema)
    expect(diff.required).toEqual(
      expect.arrayContaining(['version', 'changes', 'dry_run', 'applied', 'submissions', 'summary']),
    )
  })
})

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
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths).sort()).toEqual(['/v1/export', '/v1/import', '/v1/profile/{id}', '/v1/search', '/v1/smart-search'])
    expect(Object.keys(doc.paths['/v1/profile/{id}']).sort()).toEqual(['delete', 'get', 'post'])
    const body = doc.paths['/v1/profile/{id}'].post.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['data'])
    expect(body.properties.input_type.anyOf[0].enum).toEqual(['text', 'conversation', 'structured'])
    expect(body.properties.data.pattern).toBe('\\S')
    const params = doc.paths['/v1/search'].get.parameters.map((p: any) => p.name).sort()
    expect(params).toEqual(['filterBy', 'filterValue', 'page', 'pageSize', 'query', 'sensitivity', 'sortBy', 'sortOrder'])
    expect(doc.paths['/v1/profile/{id}'].post.responses['202']).toBeTruthy()
  })
})

// The generated reference pages of docs/ are what the code generates now (npm run docs:reference writes them).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { referencePages, withGeneratedPart } from '../../scripts/reference/pages.js'

const root = path.resolve(import.meta.dirname, '../..')

describe('generated reference pages', () => {
  for (const [file, generate] of Object.entries(referencePages)) {
    it(`${file} matches the code (run npm run docs:reference when it does not)`, async () => {
      const committed = fs.readFileSync(path.join(root, file), 'utf8')
      expect(committed).toBe(withGeneratedPart(committed, await generate()))
    })
  }

  it('the error catalog lists every code with its status', async () => {
    const { ERRORS } = await import('../../src/domain/errors.js')
    const page = fs.readFileSync(path.join(root, 'docs/reference/errors.md'), 'utf8')
    for (const [code, { status }] of Object.entries(ERRORS)) expect(page).toContain(`| \`${code}\` | ${status} |`)
  })
})

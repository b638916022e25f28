// The API reference at /docs: served by the service itself with no key, the OpenAPI document the same as
// /v1/openapi.json, and, in a real headless Chromium with every request off this host refused, the page renders the
// operations (it works offline).
import fs from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type TestService } from '../support/harness.js'

const CANDIDATES = [process.env.PROFILER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[]
const executable = CANDIDATES.find((candidate) => fs.existsSync(candidate))
if (!executable && process.env.PROFILER_REQUIRE_BROWSER) throw new Error(`No Chromium found (tried ${CANDIDATES})`)
// The page is the same whatever database serves it: the browser runs in the embedded-database pass.
const serverPass = !!process.env.DATABASE_URL

describe('/docs, the API reference', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService()
  })
  afterAll(async () => svc?.close())

  it('serves the page and its assets without a key, from this server only', async () => {
    const page = await fetch(`${svc.url}/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
    expect(loaded.length).toBeGreaterThanOrEqual(4)
    for (const url of loaded) {
      expect(url.startsWith('/docs/'), url).toBe(true)
      const asset = await fetch(`${svc.url}${url}`)
      expect(asset.status, url).toBe(200)
      expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(100)
    }
    expect(html).not.toMatch(/<script>[^<]/)
  })

  it('the document is the one /v1/openapi.json serves with a key', async () => {
    const open = (await (await fetch(`${svc.url}/docs/openapi.json`)).json()) as Record<string, unknown>
    const keyed = await fetch(`${svc.url}/v1/openapi.json`, { headers: { authorization: `Bearer ${svc.key}` } })
    expect(open).toEqual(await keyed.json())
    expect(Object.keys(open.paths as object)).toContain('/v1/profile/{id}')
  })

  it('only the listed assets are served: no path reaches another file', async () => {
    for (const path of ['/docs/assets/package.json', '/docs/assets/..%2Fpackage.json', '/docs/assets/index.js']) {
      expect((await fetch(`${svc.url}${path}`)).status, path).toBe(404)
    }
  })

  describe.skipIf(!executable || serverPass)('in headless Chromium', () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
    }, 60_000)
    afterAll(async () => browser?.close())

    it('renders every operation with no request leaving this host', async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const host = new URL(svc.url).host
      const refused: string[] = []
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url())
        if (url.host === host || url.protocol === 'data:') return route.continue()
        refused.push(url.href)
        return route.abort()
      })
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${svc.url}/docs`)
      await expect.poll(() => page.locator('.opblock').count()).toBeGreaterThan(10)
      await expect.poll(() => page.getByText('/v1/profile/{id}/context').count()).toBeGreaterThan(0)
      expect(refused).toEqual([])
      expect(errors).toEqual([])
      await context.close()
    })
  })
})

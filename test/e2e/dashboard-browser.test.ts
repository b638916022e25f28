// The dashboard in a real headless Chromium (Debian's `chromium`, driven by playwright-core): sign up, create an app,
// copy its key, POST a submission with it over REST, find the profile by id, watch it turn ready without a reload,
// open it, delete it. With PROFILER_SCREENSHOTS_DIR set (npm run screenshots) it also saves the main pages as PNGs.
import fs from 'node:fs'
import path from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { chromium, type Browser, type Page } from 'playwright-core'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyProfilerSignature } from '../../examples/webhook-receiver.mjs'
import { startService, type TestService } from '../support/harness.js'
import { TestReceiver } from '../support/webhook-receiver.js'

const CANDIDATES = [process.env.PROFILER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  Boolean,
) as string[]
const executable = CANDIDATES.find((p) => fs.existsSync(p))
// .ci/run installs Chromium and sets PROFILER_REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
if (!executable && process.env.PROFILER_REQUIRE_BROWSER)
  throw new Error(`No Chromium found (tried ${CANDIDATES.join(', ')})`)
if (!executable)
  console.warn('dashboard browser test skipped: no Chromium (apt-get install chromium, or set PROFILER_CHROMIUM)')

// The page is the same whatever database serves it, and its server side is tested on both (dashboard.test.ts): the
// browser runs once, in the embedded-database pass of the suite.
const serverPass = !!process.env.DATABASE_URL

/**
 * axe-core's WCAG 2 A and AA violations on the page as it is. axe is injected as a script, which the page's
 * Content-Security-Policy would block: the page's context must be made with `bypassCSP`.
 */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({
    content: fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
  })
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe
    const r = await axe.run((globalThis as any).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return r.violations.map(
      (v: any) => `${v.id} (${v.impact}): ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
    ) as string[]
  })
}
if (executable && serverPass) console.warn('dashboard browser test: run in the embedded-database pass only')

const shots = process.env.PROFILER_SCREENSHOTS_DIR
async function shot(page: Page, name: string) {
  if (!shots) return
  fs.mkdirSync(shots, { recursive: true })
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true })
}

describe.skipIf(!executable || serverPass)('dashboard in headless Chromium', () => {
  let svc: TestService
  let browser: Browser
  beforeAll(async () => {
    // Extraction waits 2 s, so the page shows `processing` before `ready`.
    svc = await startService({ env: { PROFILER_EXTRACT_DELAY_MS: '2000' } })
    browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('sign up, app and key, submit over REST, the profile turns ready live, forget, roll back, delete', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url })
    const page = await context.newPage()
    const failures: string[] = []
    page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
    page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`))
    const external: string[] = []
    page.on(
      'request',
      (r) =>
        !r.url().startsWith(svc.url) && !r.url().startsWith(svc.url.replace('http', 'ws')) && external.push(r.url()),
    )

    await page.goto(`${svc.url}/dashboard`)
    await shot(page, 'sign-in')
    await page.getByRole('link', { name: 'Create an account' }).click()
    await page.getByLabel('Email').fill('e2e@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()

    // apps: create one, copy its key
    await page.getByLabel('App name').fill('My Web App')
    await page.getByRole('button', { name: 'Create app' }).click()
    const keyBox = page.getByTestId('new-api-key')
    await expect
      .poll(async () => (await keyBox.textContent())?.trim() ?? '')
      .toMatch(/^pk_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/)
    const key = (await keyBox.textContent())!.trim()
    await page.getByRole('button', { name: 'Copy key' }).click()
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>))
      .toBe(key)
    // the table shows the name as written, the derived slug beside it
    await expect
      .poll(async () => (await page.getByRole('rowheader').first().textContent())?.trim())
      .toBe('My Web App my-web-app')
    await shot(page, 'apps')
    // the header links the service's API reference
    expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs')

    // the key works on REST
    const posted = await fetch(`${svc.url}/v1/profile/maria-1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: 'My name is Maria. I live in Lisbon. I work as a nurse and I love jazz and hiking.',
      }),
    })
    expect(posted.status).toBe(202)

    // find it by id; it turns ready on the page without a reload
    await page.getByRole('link', { name: 'Profiles', exact: true }).click()
    await page.getByLabel('Profile id').fill('maria-1')
    await page.getByRole('button', { name: 'Open' }).click()
    const status = page.getByTestId('profile-status')
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 5000 }).toBe('processing')
    await page.evaluate(() => ((globalThis as any).__noReload = true))
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 20_000 }).toBe('ready')
    expect(await page.evaluate(() => (globalThis as any).__noReload as boolean | undefined)).toBe(true) // same document
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/Lisbon/)
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/nurse/i)
    await shot(page, 'profile')

    // "Why?" beside a value: the passage that supports it, dated, linking to its submission's row
    const submissionId = ((await posted.json()) as { id: string }).id
    const whyLisbon = page.getByRole('button', { name: 'Why Lisbon? What supports it' })
    await whyLisbon.click()
    const why = page.getByRole('region', { name: 'What supports Lisbon' })
    await expect.poll(async () => why.innerText(), { timeout: 10_000 }).toMatch(/I live in Lisbon\./)
    expect(await whyLisbon.getAttribute('aria-expanded')).toBe('true')
    expect(await why.locator('time').count()).toBe(1)
    await why.getByTestId('why-submission').click()
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('data-submission')))
      .toBe(submissionId)
    await shot(page, 'profile-why')
    await whyLisbon.click()
    await expect.poll(async () => why.isHidden()).toBe(true)

    // the "Context for an LLM" panel: a budget and a query give the text and its exact token count
    const panel = page.getByRole('region', { name: 'Context for an LLM' })
    await panel.getByLabel('Token budget').fill('0')
    await panel.getByRole('button', { name: 'Build context' }).click()
    await expect.poll(async () => panel.innerText()).toMatch(/whole number of tokens from 1 to 32000/)
    await panel.getByLabel('Token budget').fill('40')
    await panel.getByLabel('Query (optional)').fill('jazz')
    await panel.getByRole('button', { name: 'Build context' }).click()
    const contextSummary = panel.getByTestId('context-summary')
    await expect
      .poll(async () => (await contextSummary.textContent()) ?? '', { timeout: 10_000 })
      .toMatch(/^\d+ of 40 tokens \(o200k_base\)/)
    const contextText = (await panel.getByTestId('context-text').textContent()) ?? ''
    expect(contextText).toMatch(/^About Maria:\n/)
    expect(contextText).toMatch(/jazz/)
    expect(Number((await contextSummary.textContent())!.split(' ')[0])).toBe(countTokens(contextText))
    await shot(page, 'profile-context')

    // the full search finds it too
    await page.getByRole('link', { name: 'Profiles', exact: true }).click()
    await page.getByLabel('Query').fill('nurse who likes jazz')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/maria-1/)
    await shot(page, 'search')

    // back to it, delete with confirmation
    await page.getByRole('link', { name: 'maria-1' }).first().click()
    await expect.poll(async () => (await status.textContent())?.trim()).toBe('ready')

    // forget a value with its Remove control, then roll back to the first update: both confirmed, both in the history
    const interests = page.locator('[data-section="interests"]')
    const history = page.locator('[data-section="history"]')
    await expect.poll(async () => interests.innerText()).toMatch(/jazz/)
    await page.getByRole('button', { name: 'Remove jazz from interests' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click()
    await expect.poll(async () => interests.innerText()).not.toMatch(/jazz/)
    await expect.poll(async () => history.innerText()).toMatch(/forget/)
    await page.getByRole('button', { name: 'Roll back to here' }).first().click()
    await page.getByRole('dialog').getByRole('button', { name: 'Roll back', exact: true }).click()
    await expect.poll(async () => history.innerText()).toMatch(/rollback/)
    expect(await interests.innerText()).not.toMatch(/jazz/) // forgotten values stay forgotten

    // delete what the submission said: confirmed; its row says the text is gone, "Why?" quotes nothing, the values stay
    const submissions = page.locator('[data-section="submissions"]')
    await page.getByRole('button', { name: `Delete evidence of submission ${submissionId}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete evidence', exact: true }).click()
    await expect.poll(async () => submissions.getByTestId('submission-text-gone').count()).toBe(1)
    expect(await submissions.getByTestId('delete-evidence').count()).toBe(0)
    const passagesLeft = await fetch(`${svc.url}/v1/profile/maria-1/passages`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(((await passagesLeft.json()) as { passages: unknown[] }).passages).toEqual([])
    await whyLisbon.click()
    await expect
      .poll(async () => why.innerText(), { timeout: 10_000 })
      .toMatch(/No passage of what the person said supports it/)
    expect(await why.innerText()).not.toMatch(/I live in Lisbon\./)
    await expect.poll(async () => page.locator('[data-section="core-info"]').innerText()).toMatch(/Lisbon/)
    await shot(page, 'profile-evidence-deleted')
    await page.getByRole('button', { name: 'Delete profile' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect.poll(async () => (await status.textContent())?.trim()).toBe('deleted')
    const gone = await fetch(`${svc.url}/v1/profile/maria-1`, { headers: { authorization: `Bearer ${key}` } })
    expect(gone.status).toBe(404)

    expect(external).toEqual([]) // no CDN, nothing from the network but this server
    expect(failures).toEqual([])
    await context.close()
  }, 90_000)

  it('works at phone width and from the keyboard alone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } })
    const page = await context.newPage()
    await page.goto(`${svc.url}/dashboard`)
    // the sign-in form is reachable and usable with Tab and Enter
    await page.getByLabel('Email').focus()
    await page.keyboard.type('e2e@example.com')
    await page.keyboard.press('Tab')
    await page.keyboard.type('a long enough password')
    await page.keyboard.press('Enter')
    await expect.poll(async () => page.locator('body').innerText()).toMatch(/Apps/)
    const overflow = await page.evaluate(() => {
      const root = (globalThis as any).document.documentElement
      return (root.scrollWidth - root.clientWidth) as number
    })
    expect(overflow).toBeLessThanOrEqual(1) // nothing wider than the phone
    await shot(page, 'apps-phone')
    await context.close()
  }, 60_000)

  it("every page passes axe-core's WCAG 2 A and AA checks", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const page = await context.newPage()
    const audit = async (name: string) => expect(await axeViolations(page), name).toEqual([])
    await page.goto(`${svc.url}/dashboard#/signin`)
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await audit('sign in')
    await page.getByRole('link', { name: 'Create an account' }).click()
    await page.getByRole('heading', { name: 'Sign up' }).waitFor()
    await audit('sign up')
    await page.getByLabel('Email').fill('a11y@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').fill('My Web App')
    await page.getByRole('button', { name: 'Create app' }).click()
    const key = (await page.getByTestId('new-api-key').textContent())!.trim()
    await audit('apps, with a new key shown')
    const posted = await fetch(`${svc.url}/v1/profile/ada`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: 'I am Ada, 36, an engineer in London. I love chess and I have a cat named Babbage.',
      }),
    })
    expect(posted.status).toBe(202)
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(`${svc.url}/v1/profile/ada`, { headers: { authorization: `Bearer ${key}` } })
            ).json()) as any
          ).profile?.status,
        {
          timeout: 20_000,
        },
      )
      .toBe('ready')
    await page.getByRole('link', { name: 'Profiles', exact: true }).click()
    await page.getByLabel('Query').fill('engineer')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(async () => page.locator('main').innerText(), { timeout: 20_000 }).toMatch(/1 profile found/)
    await audit('profiles, with results')
    await page.getByRole('link', { name: 'ada' }).first().click()
    await expect
      .poll(async () => (await page.getByTestId('profile-status').textContent())?.trim(), { timeout: 20_000 })
      .toBe('ready')
    await page.getByRole('button', { name: 'Why chess? What supports it' }).click()
    await expect
      .poll(async () => page.getByRole('region', { name: 'What supports chess' }).innerText(), { timeout: 10_000 })
      .toMatch(/I love chess/)
    await audit("profile, with a value's evidence open")
    await page.getByRole('link', { name: 'Account', exact: true }).click()
    await page.getByLabel('Current password').waitFor()
    await audit('account')
    await context.close()
  }, 90_000)
})

describe.skipIf(!executable || serverPass)('dashboard sign-up by invite, in headless Chromium', () => {
  let svc: TestService
  let browser: Browser
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SIGNUP: 'invite' } })
    browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('sign-up asks for the invite code, refuses a missing or wrong one, signs in with a valid one', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
    await page.goto(`${svc.url}/dashboard#/signup`)
    await page.getByRole('heading', { name: 'Sign up' }).waitFor()
    await page.getByLabel('Email').fill('invited@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/Enter your invite code/)
    await page.getByLabel('Invite code').fill('inv_not_a_real_code')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/invite code is not valid/)
    const { code } = await svc.profiler.services.accounts.createInvite()
    await page.getByLabel('Invite code').fill(code)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').waitFor()
  })
})

describe.skipIf(!executable || serverPass)(
  'dashboard profile page: live arrival, paged lists, deletion elsewhere, in headless Chromium',
  () => {
    let svc: TestService
    let browser: Browser
    beforeAll(async () => {
      svc = await startService()
      browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
    }, 60_000)
    afterAll(async () => {
      await browser?.close()
      await svc?.close()
    })

    const HOBBIES = (
      'chess jazz hiking painting cooking running cycling swimming knitting poetry pottery climbing rowing ' +
      'sailing surfing skiing baking gardening fishing dancing tennis karate'
    ).split(' ')

    /** Posts one submission and waits until it is processed: one processing round, so one history entry. */
    async function submitAndWait(key: string, id: string, text: string) {
      const auth = { authorization: `Bearer ${key}` }
      const posted = await fetch(`${svc.url}/v1/profile/${id}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ data: text }),
      })
      expect(posted.status).toBe(202)
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${svc.url}/v1/profile/${id}`, { headers: auth })).json()) as any).profile?.status,
          { timeout: 20_000 },
        )
        .toBe('ready')
    }

    it('a profile appears live; its lists page in and stay across updates; a deletion shows at once', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
      const failures: string[] = []
      page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
      page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`))

      await page.goto(`${svc.url}/dashboard#/signup`)
      await page.getByLabel('Email').fill('pages@example.com')
      await page.getByLabel('Password').fill('a long enough password')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByLabel('App name').fill('My Web App')
      await page.getByRole('button', { name: 'Create app' }).click()
      const key = (await page.getByTestId('new-api-key').textContent())!.trim()

      await page.goto(`${svc.url}/dashboard#/profiles/paged-1`)
      await page.getByTestId('profile-not-found').waitFor()
      await expect.poll(async () => page.getByTestId('live-indicator').textContent()).toBe('Live')
      await page.evaluate(() => ((globalThis as any).__noReload = true))

      // 21 rounds: one more than a page (20) of history entries and of submissions
      for (const hobby of HOBBIES.slice(0, 21)) await submitAndWait(key, 'paged-1', `I love ${hobby}.`)
      const history = page.locator('[data-section="history"]')
      const submissions = page.locator('[data-section="submissions"]')
      await expect.poll(async () => (await page.getByTestId('profile-status').textContent())?.trim()).toBe('ready')
      await expect.poll(async () => history.locator('.history-entry').count()).toBe(20)
      await expect.poll(async () => submissions.locator('tbody tr').count()).toBe(20)

      // Load more brings the 21st; then the button goes and focus moves to the section's heading
      await history.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(async () => history.locator('.history-entry').count()).toBe(21)
      await expect.poll(async () => history.getByRole('button', { name: 'Load more' }).count()).toBe(0)
      await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('history-title')
      await submissions.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(async () => submissions.locator('tbody tr').count()).toBe(21)
      await expect
        .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id))
        .toBe('submissions-title')

      // a live update keeps what was loaded beyond the first page, and Load more goes on from there
      await submitAndWait(key, 'paged-1', `I love ${HOBBIES[21]}.`)
      await expect.poll(async () => history.getByRole('button', { name: 'Load more' }).count()).toBe(1)
      expect(await history.locator('.history-entry').count()).toBe(21)
      await history.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(async () => history.locator('.history-entry').count()).toBe(22)
      await expect.poll(async () => history.locator('.history-seq').last().textContent()).toBe('#22')

      // deleted elsewhere: the page says so, live
      const deleted = await fetch(`${svc.url}/v1/profile/paged-1`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      })
      expect(deleted.status).toBeLessThan(300)
      await page.getByTestId('profile-deleted').waitFor()
      expect((await page.getByTestId('profile-status').textContent())?.trim()).toBe('deleted')
      expect(await page.evaluate(() => (globalThis as any).__noReload as boolean | undefined)).toBe(true)
      expect(failures).toEqual([])
    }, 120_000)

    it('a changed scalar shows its past values and windows in fields and history; one can be removed', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
      const failures: string[] = []
      page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
      page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`))
      await page.goto(`${svc.url}/dashboard#/signup`)
      await page.getByLabel('Email').fill('past@example.com')
      await page.getByLabel('Password').fill('a long enough password')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByLabel('App name').fill('Past')
      await page.getByRole('button', { name: 'Create app' }).click()
      const key = (await page.getByTestId('new-api-key').textContent())!.trim()
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      for (const [data, occurred_at] of [
        ['I live in Lisbon.', '2019-06-01'],
        ['I moved to Porto.', '2025-03-10'],
      ]) {
        expect(
          (
            await fetch(`${svc.url}/v1/profile/past-1`, {
              method: 'POST',
              headers: auth,
              body: JSON.stringify({ data, occurred_at }),
            })
          ).status,
        ).toBe(202)
        await expect
          .poll(
            async () =>
              ((await (await fetch(`${svc.url}/v1/profile/past-1`, { headers: auth })).json()) as any).profile?.status,
            { timeout: 20_000 },
          )
          .toBe('ready')
      }
      await page.goto(`${svc.url}/dashboard#/profiles/past-1`)
      const core = page.locator('[data-section="core-info"]')
      await expect.poll(async () => core.innerText()).toMatch(/Porto/)
      expect(await core.getByTestId('past-values').innerText()).toMatch(/^before: Lisbon, Jun 2019 – Mar 2025/)
      const history = page.locator('[data-section="history"]')
      expect(await history.innerText()).toMatch(/replaced\.core_info\.location: Lisbon[\s\S]*Jun 2019 – Mar 2025/)
      await shot(page, 'profile-past-values')
      await core.getByRole('button', { name: 'Remove Lisbon from core_info.location' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click()
      await expect.poll(async () => core.getByTestId('past-values').count()).toBe(0)
      expect(await core.innerText()).toMatch(/Porto/)
      expect(failures).toEqual([])
    }, 60_000)

    it('a history entry nested thousands of levels deep renders: paths, then compact JSON text', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
      const failures: string[] = []
      page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
      page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`))
      await page.goto(`${svc.url}/dashboard#/signup`)
      await page.getByLabel('Email').fill('deep@example.com')
      await page.getByLabel('Password').fill('a long enough password')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByLabel('App name').fill('Deep')
      await page.getByRole('button', { name: 'Create app' }).click()
      const key = (await page.getByTestId('new-api-key').textContent())!.trim()
      await submitAndWait(key, 'deep-1', 'I love chess.')
      // The service never writes such entries; an import could, and anything stored must still render.
      const ds = svc.profiler.db.dataSource
      const [{ tenant_id: tenant }] = await ds.query(`SELECT tenant_id FROM profiles WHERE profile_id = 'deep-1'`)
      // Lists and objects 3,000 deep: a recursive render overflowed the page's stack there. PGlite's limit is not
      // much further: past about 5,000 levels it may drop the row without an error or never answer.
      const bottom = '{"value":"bottom","confidence":0.5}'
      const entries: [number, string, string][] = [
        [2, `{"a":${'['.repeat(3000)}${bottom}${']'.repeat(3000)}}`, `a${'[0]'.repeat(31)}: [[[`],
        [3, `${'{"a":'.repeat(3000)}${bottom}${'}'.repeat(3000)}`, `${Array(32).fill('a').join('.')}: {"a":{"a":`],
      ]
      for (const [seq, changes] of entries) {
        await ds.query(
          `INSERT INTO profile_history (tenant_id, profile_id, seq, extracted_on, changes, submission_ids, input_type)
           VALUES ($1, 'deep-1', $2, now(), $3::jsonb, '[]', 'import')`,
          [tenant, seq, changes],
        )
      }
      expect(
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM profile_history WHERE tenant_id = $1 AND profile_id = 'deep-1'`,
            [tenant],
          )
        )[0].n,
      ).toBe(3)
      await page.goto(`${svc.url}/dashboard#/profiles/deep-1`)
      const history = page.locator('[data-section="history"]')
      await expect.poll(async () => history.locator('.history-entry').count()).toBe(3)
      await expect.poll(async () => history.innerText()).toMatch(/chess/)
      for (const [seq, , prefix] of entries) {
        // 32 levels as a path, the rest as JSON text cut short
        const line = (
          await history
            .locator('.history-entry')
            .nth(seq - 1)
            .locator('.changes li')
            .first()
            .innerText()
        ).trim()
        expect(line.startsWith(prefix), line.slice(0, 300)).toBe(true)
        expect(line.length).toBeLessThan(2200)
        expect(line.endsWith('…')).toBe(true)
      }
      expect(failures).toEqual([])
    }, 120_000)
  },
)

describe.skipIf(!executable || serverPass)('dashboard app pages in headless Chromium, each passing axe', () => {
  let svc: TestService
  let browser: Browser
  const rx = new TestReceiver()
  beforeAll(async () => {
    await rx.start()
    svc = await startService({ env: { PROFILER_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' } })
    browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    await rx.stop()
  })

  it('adds an endpoint (secret shown once), sends a test delivery, the log shows it delivered', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const page = await context.newPage()
    const failures: string[] = []
    page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
    page.on('console', (m) => m.type() === 'error' && failures.push(`console: ${m.text()}`))
    await page.goto(`${svc.url}/dashboard#/signup`)
    await page.getByLabel('Email').fill('hooks@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').fill('web')
    await page.getByRole('button', { name: 'Create app' }).click()
    await page.getByTestId('new-api-key').waitFor()
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click()
    await page.getByRole('heading', { name: 'Webhooks of web' }).waitFor()

    // a refused target says why
    await page.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest/meta-data')
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/link-local/)
    // The browser logs that answer's HTTP 400 (the page showed it as it should): wait for the log line, which may come
    // after the page shows the message, then clear it so that only unexpected failures remain.
    await expect.poll(() => failures.some((f) => f.includes('status of 400'))).toBe(true)
    failures.splice(0)

    await page.getByLabel('Endpoint URL').fill(rx.url())
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secretBox = page.getByTestId('new-webhook-secret')
    await expect.poll(async () => (await secretBox.textContent())?.trim() ?? '').toMatch(/^whsec_/)
    const secret = (await secretBox.textContent())!.trim()
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.getByTestId('new-webhook-secret').count()).toBe(0)

    await page.getByRole('button', { name: 'Send test delivery' }).click()
    await expect
      .poll(async () => (await page.getByTestId('delivery-status').first().textContent())?.trim(), { timeout: 20_000 })
      .toBe('delivered')
    expect(rx.received).toHaveLength(1)
    const got = rx.received[0]!
    expect(got.body.type).toBe('webhook.test')
    expect(verifyProfilerSignature(secret, got.headers['profiler-signature'], got.raw)).toBe(true)
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/webhook\.test/)

    expect(await axeViolations(page)).toEqual([])
    await shot(page, 'webhooks')
    expect(failures).toEqual([])
    await context.close()
  }, 90_000)

  it("sets an app's retention policy on its Retention page; bad values are refused with a message", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const page = await context.newPage()
    const failures: string[] = []
    page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
    await page.goto(`${svc.url}/dashboard#/signup`)
    await page.getByLabel('Email').fill('retention@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').fill('crm')
    await page.getByRole('button', { name: 'Create app' }).click()
    await page.getByTestId('new-api-key').waitFor()
    await page.getByRole('link', { name: 'Retention', exact: true }).click()
    await page.getByRole('heading', { name: 'Data retention of crm' }).waitFor()
    await expect
      .poll(async () => page.getByTestId('retention-current').textContent())
      .toBe('Profiles are kept until deleted. Submission texts are kept.')

    const del = page.getByLabel('Delete profiles untouched for (days)')
    const drop = page.getByLabel('Drop raw submission text after (days)')
    await del.fill('abc')
    await page.getByRole('button', { name: 'Save policy' }).click()
    await expect
      .poll(async () => page.locator('main').innerText())
      .toMatch(/Delete profiles: enter a whole number of days/)
    await del.fill('0')
    await page.getByRole('button', { name: 'Save policy' }).click()
    await expect.poll(async () => page.locator('main').innerText()).toMatch(/from 1 to 36500/)

    await del.fill('30')
    await drop.fill('7')
    await page.getByRole('button', { name: 'Save policy' }).click()
    await expect
      .poll(async () => page.getByTestId('retention-current').textContent())
      .toBe('Profiles untouched for 30 days are deleted. Submission texts are dropped 7 days after processing.')
    // Stored: the service has it, and a fresh load of the page shows it.
    const mine = (await svc.profiler.services.tenants.listApps()).find((a) => a.name === 'crm')
    expect(mine).toMatchObject({ delete_profiles_after_days: 30, drop_submission_text_after_days: 7 })
    await page.reload()
    await expect.poll(async () => del.inputValue()).toBe('30')
    expect(await drop.inputValue()).toBe('7')
    // Emptied: kept forever again.
    await del.fill('')
    await page.getByRole('button', { name: 'Save policy' }).click()
    await expect
      .poll(async () => page.getByTestId('retention-current').textContent())
      .toBe('Profiles are kept until deleted. Submission texts are dropped 7 days after processing.')
    expect(await axeViolations(page)).toEqual([])
    expect(failures).toEqual([])
    await context.close()
  }, 90_000)

  it("sets an app's summary instructions, re-extracts a profile: dry run diff, then Apply", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const page = await context.newPage()
    const failures: string[] = []
    page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
    await page.goto(`${svc.url}/dashboard#/signup`)
    await page.getByLabel('Email').fill('reextract@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').fill('notes')
    await page.getByRole('button', { name: 'Create app' }).click()
    const key = (await page.getByTestId('new-api-key').textContent())!.trim()
    await page.getByRole('link', { name: 'Summary', exact: true }).click()
    await page.getByRole('heading', { name: 'Summary instructions of notes' }).waitFor()
    await expect.poll(async () => page.getByTestId('summary-current').textContent()).toMatch(/No instructions/)
    await page.getByLabel('Instruction 1').fill('Leave out age')
    await page.getByLabel('Instruction 2').fill('Mention interests first')
    await page.getByRole('button', { name: 'Save instructions' }).click()
    await expect
      .poll(async () => page.getByTestId('summary-current').textContent())
      .toBe('2 instructions: Leave out age · Mention interests first')
    expect(await axeViolations(page)).toEqual([])

    // A profile written by this app: its summary follows the instructions.
    const post = (data: string) =>
      fetch(`${svc.url}/v1/profile/lea`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      })
    for (const data of ['My name is Lea. I am 29 years old. I love climbing.', 'I live in Graz.']) {
      expect((await post(data)).status).toBe(202)
      await expect
        .poll(
          async () =>
            (
              await svc.profiler.db.dataSource.query(
                `SELECT count(*)::int AS n FROM submissions WHERE profile_id = 'lea' AND status = 'done'`,
              )
            )[0].n,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(data.includes('Graz') ? 1 : 0)
    }
    await page.goto(`${svc.url}/dashboard#/profiles/lea`)
    await expect.poll(async () => page.locator('main').innerText(), { timeout: 30_000 }).toMatch(/Lea enjoys climbing/)
    // Retention dropped the first text: a re-extraction can no longer see the age.
    await svc.profiler.db.dataSource.query(
      `UPDATE submissions SET data = NULL WHERE profile_id = 'lea' AND data LIKE 'My name%'`,
    )
    await page.getByRole('button', { name: 'Re-extract (dry run)' }).click()
    await expect
      .poll(async () => page.getByTestId('reextract-summary').textContent(), { timeout: 30_000 })
      .toMatch(/from 1 submissions, 1 skipped \(text dropped by retention\)/)
    expect(await page.getByTestId('reextract-diff').innerText()).toMatch(/− core_info\.age: 29/)
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect
      .poll(async () => page.getByTestId('reextract-summary').textContent(), { timeout: 30_000 })
      .toMatch(/^Applied: the profile is at version \d+ now\.$/)
    await expect.poll(async () => page.locator('main').innerText(), { timeout: 30_000 }).toMatch(/reextraction/)
    const [row] = await svc.profiler.db.dataSource.query(`SELECT age FROM profiles WHERE profile_id = 'lea'`)
    expect(row.age).toBeNull()
    expect(failures).toEqual([])
    await context.close()
  }, 120_000)

  it("edits an app's custom schema as JSON (errors shown); the profile page shows the custom values", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const page = await context.newPage()
    const failures: string[] = []
    page.on('pageerror', (e) => failures.push(`pageerror: ${e.message}`))
    await page.goto(`${svc.url}/dashboard#/signup`)
    await page.getByLabel('Email').fill('schema@example.com')
    await page.getByLabel('Password').fill('a long enough password')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('App name').fill('shop')
    await page.getByRole('button', { name: 'Create app' }).click()
    const key = (await page.getByTestId('new-api-key').textContent())!
    await page.getByRole('link', { name: 'Profile schema', exact: true }).click()
    await page.getByRole('heading', { name: 'Profile schema of shop' }).waitFor()
    await expect.poll(async () => page.getByTestId('schema-current').textContent()).toMatch(/no custom schema yet/)

    const editor = page.getByLabel('Custom sections and fields')
    const save = page.getByRole('button', { name: 'Save schema' })
    await editor.fill('{"sections": ')
    await save.click()
    await expect.poll(async () => page.getByTestId('schema-error').textContent()).toMatch(/Not valid JSON/)
    await editor.fill('{"sections": {"core_info": {"x": {"type": "string"}}}}')
    await save.click()
    await expect
      .poll(async () => page.getByTestId('schema-error').textContent())
      .toMatch(/would shadow the standard profile's 'core_info'/)
    await page.getByRole('button', { name: 'Insert example' }).click()
    await save.click()
    await expect.poll(async () => page.getByTestId('schema-result').textContent()).toBe('Saved as version 1.')
    await expect.poll(async () => page.getByTestId('schema-current').textContent()).toMatch(/^Version 1/)
    expect(await axeViolations(page)).toEqual([])

    const r = await fetch(`${svc.url}/v1/profile/diner`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.trim()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: "I'm vegetarian and my budget is 700." }),
    })
    expect(r.status).toBe(202)
    await page.goto(`${svc.url}/dashboard#/profiles/diner`)
    await expect
      .poll(async () => page.getByTestId('custom-travel').textContent(), { timeout: 30_000 })
      .toMatch(/budget\s*700/)
    expect(await page.getByTestId('custom-diet').textContent()).toMatch(/restrictions\s*vegetarian/)
    expect(await axeViolations(page)).toEqual([])
    expect(failures).toEqual([])
    await context.close()
  }, 90_000)
})

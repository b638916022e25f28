// Dashboard sign-up against abuse: a per-client-address limit (the request budget's limiter, shared through the
// database on a server), and the policy: open, closed, or by invite code (codes used up, expired, wrong).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DashboardBrowser } from '../support/dashboard-client.js'
import { startService, type TestService } from '../support/harness.js'

const PASSWORD = 'correct horse battery'
const codeOf = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code as string | undefined

describe('sign-up: open, limited per client address', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SIGNUP: 'open', PROFILER_SIGNUP_MAX_PER_ADDRESS: '3' } })
  })
  afterAll(async () => svc?.close())

  it('three sign-ups from one address, then RATE_LIMITED (429) with no account or tenant made', async () => {
    const results = []
    for (let i = 0; i < 5; i++)
      results.push(await new DashboardBrowser(svc.url).signUp(`user${i}@example.com`, PASSWORD))
    expect(results.slice(0, 3).map(codeOf)).toEqual([undefined, undefined, undefined])
    expect(results.slice(3).map(codeOf)).toEqual(['RATE_LIMITED', 'RATE_LIMITED'])
    expect(results[3]!.status).toBe(429)
    expect(results[3]!.body.errors[0].message).toMatch(/Too many sign-ups from this address/)
    const accounts = await svc.profiler.services.accounts.listAccounts()
    expect(accounts.map((a) => a.email).sort()).toEqual(['user0@example.com', 'user1@example.com', 'user2@example.com'])
    // Signing in is not a sign-up: still served.
    expect(codeOf(await new DashboardBrowser(svc.url).signIn('user0@example.com', PASSWORD))).toBeUndefined()
  })
})

describe('sign-up: by invite', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SIGNUP: 'invite', PROFILER_SIGNUP_MAX_PER_ADDRESS: '100' } })
  })
  afterAll(async () => svc?.close())

  it('needs a valid code; a code has its uses and expiry; an invite can name the tenant to join', async () => {
    const accounts = svc.profiler.services.accounts
    const b = () => new DashboardBrowser(svc.url)
    expect((await b().session()).body).toMatchObject({ signUpOpen: true, signUp: 'invite' })
    expect(codeOf(await b().signUp('a@example.com', PASSWORD))).toBe('SIGNUP_CLOSED')
    expect(codeOf(await b().signUp('a@example.com', PASSWORD, 'inv_wrong'))).toBe('INVALID_INVITE')

    const two = await accounts.createInvite({ uses: 2 })
    expect(two.code).toMatch(/^inv_[A-Za-z0-9]{32}$/)
    const first = await b().signUp('a@example.com', PASSWORD, two.code)
    expect(codeOf(first)).toBeUndefined()
    const second = await b().signUp('b@example.com', PASSWORD, two.code)
    expect(codeOf(second)).toBeUndefined()
    // each a new tenant
    expect(second.body.data.signUp.account.tenantId).not.toBe(first.body.data.signUp.account.tenantId)
    expect(codeOf(await b().signUp('c@example.com', PASSWORD, two.code))).toBe('INVALID_INVITE') // used up

    // A refused sign-up does not use up a code (a taken e-mail address fails in the same transaction).
    const once = await accounts.createInvite({ uses: 1, tenant: 'default' })
    expect(codeOf(await b().signUp('a@example.com', PASSWORD, once.code))).toBe('CONFLICT')
    const joined = await b().signUp('d@example.com', PASSWORD, once.code)
    expect(joined.body.data.signUp.account.tenantName).toBe('default')

    const expired = await accounts.createInvite({ expiresHours: 1 })
    await svc.profiler.db.dataSource.query(
      `UPDATE invites SET expires_at = now() - interval '1 second'
        WHERE expires_at > now() + interval '50 minutes' AND expires_at < now() + interval '70 minutes'`,
    )
    expect(codeOf(await b().signUp('e@example.com', PASSWORD, expired.code))).toBe('INVALID_INVITE')
    await expect(accounts.createInvite({ tenant: 'nope' })).rejects.toMatchObject({ code: 'TENANT_NOT_FOUND' })
    await expect(accounts.createInvite({ uses: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
  })
})

describe('sign-up: closed', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startService({ env: { PROFILER_SIGNUP: 'closed' } })
  })
  afterAll(async () => svc?.close())

  it('refuses every sign-up, even with an invite code', async () => {
    const code = (await svc.profiler.services.accounts.createInvite()).code
    const b = new DashboardBrowser(svc.url)
    expect((await b.session()).body).toMatchObject({ signUpOpen: false, signUp: 'closed' })
    expect(codeOf(await b.signUp('a@example.com', PASSWORD))).toBe('SIGNUP_CLOSED')
    expect(codeOf(await b.signUp('a@example.com', PASSWORD, code))).toBe('SIGNUP_CLOSED')
  })
})

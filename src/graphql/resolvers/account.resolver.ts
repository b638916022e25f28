import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql'
import { DomainError } from '../../domain/errors.js'
import type { Account as AccountRecord, NewSession } from '../../services/account.service.js'
import { clearSessionCookie, sessionCookie } from '../../http/cookies.js'
import type { DashboardRequest, GqlContext } from '../context.js'
import { Account, AppWithKey, DashboardApp, SessionInfo } from '../types/account.type.js'

function dashboardOf(context: GqlContext): DashboardRequest {
  if (!context.dashboard) throw new DomainError('FORBIDDEN', 'Account operations are only served on /dashboard/graphql')
  return context.dashboard
}

function signedIn(context: GqlContext): { d: DashboardRequest; account: AccountRecord } {
  const dashboard = dashboardOf(context)
  if (!dashboard.account)
    throw new DomainError('UNAUTHENTICATED', 'Sign in first: this operation needs a dashboard session')
  return { d: dashboard, account: dashboard.account }
}

const toAccount = (a: AccountRecord): Account => ({
  id: a.id,
  email: a.email,
  tenantId: a.tenantId,
  tenantName: a.tenantName,
})

function started(dashboard: DashboardRequest, session: NewSession): SessionInfo {
  if (!dashboard.reply)
    throw new DomainError('VALIDATION_FAILED', 'Sign in over HTTP (POST /dashboard/graphql), not over a WebSocket')
  dashboard.reply.header('set-cookie', sessionCookie(session.token, session.expiresAt, dashboard.secure))
  return { account: toAccount(session.account), csrfToken: session.csrfToken }
}

/** Sign-up, sign-in and the account's own settings. Guarded by the session cookie, never by an app key. */
@Resolver()
export class AccountResolver {
  @Mutation(() => SessionInfo, {
    description:
      'Creates an account (and its tenant, or joins the tenant its invite names) and signs it in; SIGNUP_CLOSED ' +
      'when sign-up is off or needs an invite code, RATE_LIMITED past the sign-ups allowed per client address',
  })
  async signUp(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('inviteCode', () => String, {
      nullable: true,
      description: 'Required when the server takes sign-ups by invite only',
    })
    inviteCode: string | null,
    @Ctx() context: GqlContext,
  ): Promise<SessionInfo> {
    const dashboard = dashboardOf(context)
    return started(dashboard, await dashboard.accounts.signUp(email, password, { ip: dashboard.ip, inviteCode }))
  }

  @Mutation(() => SessionInfo, {
    description: 'Signs in; failed attempts are rate-limited per e-mail address and per client',
  })
  async signIn(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() context: GqlContext,
  ): Promise<SessionInfo> {
    const dashboard = dashboardOf(context)
    return started(dashboard, await dashboard.accounts.signIn(email, password, dashboard.ip))
  }

  @Mutation(() => Boolean, { description: 'Ends this session' })
  async signOut(@Ctx() context: GqlContext): Promise<boolean> {
    const { d } = signedIn(context)
    if (d.sessionToken) await d.accounts.signOut(d.sessionToken)
    d.reply?.header('set-cookie', clearSessionCookie(d.secure))
    return true
  }

  @Mutation(() => Boolean, { description: "Replaces the password; the account's other sessions end" })
  async changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() context: GqlContext,
  ): Promise<boolean> {
    const { d, account } = signedIn(context)
    await d.accounts.changePassword(account.id, d.sessionToken, currentPassword, newPassword)
    return true
  }

  @Query(() => Account, { description: 'The signed-in account' })
  me(@Ctx() context: GqlContext): Account {
    return toAccount(signedIn(context).account)
  }

  @Query(() => [DashboardApp], { description: "The account's apps" })
  async apps(@Ctx() context: GqlContext): Promise<DashboardApp[]> {
    const { account } = signedIn(context)
    return context.services.tenants.appsOf(account.tenantId)
  }

  @Mutation(() => AppWithKey, {
    description:
      'Creates an app with its API key (shown only here). `name` is the display name (any printable text, 1-100 ' +
      'characters, no control or text-direction characters); `slug` the handle, derived from the name when ' +
      'omitted ("My Web App" -> my-web-app, my-web-app-2 when taken)',
  })
  async createApp(
    @Arg('name', () => String, { description: 'The display name' }) name: string,
    @Arg('slug', () => String, { nullable: true, description: "The slug: 1-63 letters, digits, '.', '_', '-'" }) slug:
      | string
      | null
      | undefined,
    @Ctx() context: GqlContext,
  ): Promise<AppWithKey> {
    const { account } = signedIn(context)
    return context.services.tenants.createAppIn(account.tenantId, { displayName: name, slug: slug ?? undefined })
  }

  @Mutation(() => DashboardApp, {
    description:
      'Renames the app: `name` sets the display name, `slug` the slug (give one or both); the id and key stay',
  })
  async renameApp(
    @Arg('id', () => ID) id: string,
    @Arg('name', () => String, { nullable: true, description: 'The new display name' }) name: string | null | undefined,
    @Arg('slug', () => String, { nullable: true, description: 'The new slug' }) slug: string | null | undefined,
    @Ctx() context: GqlContext,
  ): Promise<DashboardApp> {
    const { account } = signedIn(context)
    return context.services.tenants.renameApp(account.tenantId, id, {
      displayName: name ?? undefined,
      slug: slug ?? undefined,
    })
  }

  @Mutation(() => DashboardApp, {
    description:
      "Sets the app's retention policy (both parts; null turns a part off), applied by the worker's next sweep: " +
      'profiles untouched for deleteProfilesAfterDays are deleted when every app that wrote them has such a ' +
      "policy (the longest counts); the raw text of the app's submissions is dropped " +
      'dropSubmissionTextAfterDays after they finished',
  })
  async setAppRetention(
    @Arg('id', () => ID) id: string,
    @Arg('deleteProfilesAfterDays', () => Int, { nullable: true }) deleteProfilesAfterDays: number | null,
    @Arg('dropSubmissionTextAfterDays', () => Int, { nullable: true }) dropSubmissionTextAfterDays: number | null,
    @Ctx() context: GqlContext,
  ): Promise<DashboardApp> {
    const { account } = signedIn(context)
    return context.services.tenants.setRetention(
      account.tenantId,
      id,
      {
        deleteProfilesAfterDays: deleteProfilesAfterDays ?? null,
        dropSubmissionTextAfterDays: dropSubmissionTextAfterDays ?? null,
      },
      { byId: true },
    )
  }

  @Mutation(() => DashboardApp, {
    description:
      "Replaces the app's summary instructions (at most 5, each 1-200 characters; [] clears them). The summary " +
      "of a batch follows the instructions of the app of the batch's newest submission; the local summarizer " +
      'understands the forms docs/guides/summary-instructions.md lists, an LLM reads them all',
  })
  async setAppSummaryInstructions(
    @Arg('id', () => ID) id: string,
    @Arg('instructions', () => [String]) instructions: string[],
    @Ctx() context: GqlContext,
  ): Promise<DashboardApp> {
    const { account } = signedIn(context)
    return context.services.tenants.setSummaryInstructions(account.tenantId, id, instructions, { byId: true })
  }

  @Mutation(() => Boolean, { description: 'Deletes the app and its key (the tenant keeps its profiles)' })
  async deleteApp(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<boolean> {
    const { account } = signedIn(context)
    await context.services.tenants.deleteApp(account.tenantId, id)
    return true
  }

  @Mutation(() => AppWithKey, {
    description: 'Issues a new key (shown only here); the old one stops working at once, open subscriptions included',
  })
  async rotateAppKey(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<AppWithKey> {
    const { account } = signedIn(context)
    const issued = await context.services.tenants.rotateKey(account.tenantId, id, { byId: true })
    return { app: await context.services.tenants.appOf(account.tenantId, id), apiKey: issued.api_key }
  }

  @Mutation(() => DashboardApp, {
    description: 'Revokes the key without a new one; it stops working at once, open subscriptions included',
  })
  async revokeAppKey(@Arg('id', () => ID) id: string, @Ctx() context: GqlContext): Promise<DashboardApp> {
    const { account } = signedIn(context)
    await context.services.tenants.revokeKey(account.tenantId, id, { byId: true })
    return context.services.tenants.appOf(account.tenantId, id)
  }
}

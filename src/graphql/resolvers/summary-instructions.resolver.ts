import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql'
import type { GqlContext } from '../context.js'
import { appContext } from './custom-schema.resolver.js'

/**
 * The app's summary instructions (docs/guides/summary-instructions.md), for its own key as for the dashboard (the named
 * app): thin over TenantService, as REST /v1/summary-instructions.
 */
@Resolver()
export class SummaryInstructionsResolver {
  @Query(() => [String], { description: "The app's summary instructions ([] when none)" })
  async summaryInstructions(
    @Arg('appId', () => ID, { nullable: true }) appId: string | null,
    @Ctx() context: GqlContext,
  ): Promise<string[]> {
    const { tenantId, appId: app } = appContext(context, appId)
    return (await context.services.tenants.appOf(tenantId, app)).summaryInstructions
  }

  @Mutation(() => [String], {
    description:
      "Replaces the app's summary instructions (at most 5 of 1-200 characters; [] clears them): they apply from " +
      'the next batch of a profile whose newest submission comes from this app, and to its re-extractions; ' +
      'VALIDATION_FAILED says what is invalid',
  })
  async setSummaryInstructions(
    @Arg('instructions', () => [String]) instructions: string[],
    @Arg('appId', () => ID, { nullable: true }) appId: string | null,
    @Ctx() context: GqlContext,
  ): Promise<string[]> {
    const { tenantId, appId: app } = appContext(context, appId)
    return (await context.services.tenants.setSummaryInstructions(tenantId, app, instructions, { byId: true }))
      .summaryInstructions
  }
}

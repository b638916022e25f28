import { GraphQLJSONObject } from 'graphql-scalars'
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql'
import { DomainError, invalid } from '../../domain/errors.js'
import type { RequestContext } from '../../services/context.js'
import type { SchemaView } from '../../services/app-schema.service.js'
import type { GqlContext } from '../context.js'
import { CustomSchemaChange, CustomSchemaVersion } from '../types/custom-schema.type.js'

/**
 * Whose app setting (the custom schema, the summary instructions): with an app key, the key's app (appId omitted or the
 * same); on the dashboard, the named app of the signed-in account's tenant.
 */
export function appContext(context: GqlContext, appId: string | null | undefined): RequestContext {
  if (context.dashboard) {
    if (!context.dashboard.account)
      throw new DomainError('UNAUTHENTICATED', 'Sign in first: this operation needs a dashboard session')
    if (!appId) throw invalid('Argument appId is required on the dashboard')
    return { ...context.ctx, tenantId: context.dashboard.account.tenantId, appId }
  }
  if (appId && appId !== context.ctx.appId)
    throw new DomainError('APP_NOT_FOUND', 'App not found: an app key reads and sets only its own app')
  return context.ctx
}

const toGql = (s: SchemaView): CustomSchemaVersion => ({
  appId: s.appId,
  version: s.version,
  schema: s.schema as unknown as Record<string, unknown>,
  createdAt: s.createdAt,
})

/** Custom profile schemas per app (docs/guides/custom-schema.md): thin over AppSchemaService. */
@Resolver()
export class CustomSchemaResolver {
  @Query(() => CustomSchemaVersion, { description: "The app's current custom profile schema" })
  async customSchema(
    @Arg('appId', () => ID, { nullable: true }) appId: string | null,
    @Ctx() context: GqlContext,
  ): Promise<CustomSchemaVersion> {
    return toGql(await context.services.schemas.get(appContext(context, appId)))
  }

  @Query(() => [CustomSchemaVersion], {
    description:
      "The kept versions of the app's custom schema, newest first: at most PROFILER_SCHEMA_MAX_VERSIONS (100)",
  })
  async customSchemaVersions(
    @Arg('appId', () => ID, { nullable: true }) appId: string | null,
    @Ctx() context: GqlContext,
  ): Promise<CustomSchemaVersion[]> {
    return (await context.services.schemas.versions(appContext(context, appId))).map(toGql)
  }

  @Mutation(() => CustomSchemaChange, {
    description:
      "Sets the app's custom profile schema (a new version when it differs). Values of fields it drops leave " +
      "the tenant's profiles into their history, unless another app of the tenant still declares the field; " +
      'VALIDATION_FAILED names what is invalid',
  })
  async setCustomSchema(
    @Arg('schema', () => GraphQLJSONObject) schema: Record<string, unknown>,
    @Arg('appId', () => ID, { nullable: true }) appId: string | null,
    @Ctx() context: GqlContext,
  ): Promise<CustomSchemaChange> {
    const change = await context.services.schemas.set(appContext(context, appId), schema)
    return {
      ...toGql(change),
      changed: change.changed,
      droppedFields: change.droppedFields,
      profilesUpdated: change.profilesUpdated,
    }
  }
}

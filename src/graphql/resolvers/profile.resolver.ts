import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql'
import { invalid } from '../../domain/errors.js'
import type { GqlContext } from '../context.js'
import { ContextIncludeEnum } from '../types/enums.js'
import type { ContextInclude as ContextIncludeValue } from '../../services/profile-context.service.js'
import { decodeCursor, encodeCursor, toGqlLogEntry, toGqlProfile, toGqlSubmission } from '../serializers.js'
import { ContextArgs, ForgetArgs, PageArgs, RollbackArgs, SubmissionPageArgs, SubmitArgs } from '../types/args.type.js'
import { Reextraction, SubmissionAck } from '../types/operations.type.js'
import { HistoryPage, Profile, ProfileContext, SubmissionPage } from '../types/profile.type.js'

const MAX_PAGE = 100

function pageArgs(first: number, after: string | undefined | null) {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE)
    throw invalid(`Invalid argument first: must be an integer from 1 to ${MAX_PAGE}`)
  try {
    return { limit: first, afterSeq: decodeCursor(after) }
  } catch {
    throw invalid('Invalid argument after: not a cursor of this list')
  }
}

/** Thin: every field is one service call; the services enforce tenancy through ctx. */
@Resolver(() => Profile)
export class ProfileResolver {
  @Query(() => Profile, {
    nullable: true,
    description: 'The profile, or null when this tenant has no profile with that id',
  })
  async profile(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GqlContext): Promise<Profile | null> {
    const profile = await services.profiles.find(ctx, id)
    return profile ? toGqlProfile(profile) : null
  }

  @FieldResolver(() => HistoryPage, { description: 'The full update log, oldest first, paged' })
  async history(
    @Root() profile: Profile,
    @Args(() => PageArgs) { first, after }: PageArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<HistoryPage> {
    const { limit, afterSeq } = pageArgs(first, after)
    const rows = await services.profiles.history(ctx, profile.profileId, { afterSeq, limit: limit + 1 })
    const page = rows.slice(0, limit)
    return {
      entries: page.map(toGqlLogEntry),
      pageInfo: {
        endCursor: page.length ? encodeCursor(page[page.length - 1]!.seq) : null,
        hasNextPage: rows.length > limit,
      },
    }
  }

  @FieldResolver(() => SubmissionPage, {
    description: 'Submissions of this profile with their status and error, oldest first',
  })
  async submissions(
    @Root() profile: Profile,
    @Args(() => SubmissionPageArgs) { first, after, status }: SubmissionPageArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<SubmissionPage> {
    const { limit, afterSeq } = pageArgs(first, after)
    const rows = await services.submissions.listForProfile(ctx, profile.profileId, {
      afterSeq,
      limit: limit + 1,
      status: status ?? undefined,
    })
    const page = rows.slice(0, limit)
    return {
      nodes: page.map(toGqlSubmission),
      pageInfo: {
        endCursor: page.length ? encodeCursor(page[page.length - 1]!.seq) : null,
        hasNextPage: rows.length > limit,
      },
    }
  }

  @FieldResolver(() => ProfileContext, {
    description:
      'The profile as compact text for an LLM prompt, within maxTokens: with a query, the facts that match it, ' +
      'the evidence passages most relevant to it (dated), then the other facts; without one, the most confident ' +
      'facts. At most 10 in one operation',
  })
  async context(
    @Root() profile: Profile,
    @Args(() => ContextArgs) { maxTokens, query, include }: ContextArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<ProfileContext> {
    // How many of these one operation resolves is bounded, and charged, before it runs (src/graphql/plan.ts).
    const context = await services.llmContext.context(ctx, profile.profileId, {
      maxTokens,
      query: query ?? undefined,
      include: include ? (include.toLowerCase() as ContextIncludeValue) : undefined,
    })
    return {
      text: context.text,
      tokens: context.tokens,
      maxTokens: context.maxTokens,
      encoding: context.encoding,
      factsIncluded: context.factsIncluded,
      factsTotal: context.factsTotal,
      passagesIncluded: context.passagesIncluded,
      include: context.include.toUpperCase() as ContextIncludeEnum,
      summaryIncluded: context.summaryIncluded,
      truncated: context.truncated,
      rankedBy: context.rankedBy,
    }
  }

  @Mutation(() => SubmissionAck, { description: 'Accepts data for background processing (as POST /v1/profile/{id})' })
  async submitProfileData(
    @Args(() => SubmitArgs) { id, data, inputType, occurredAt, idempotencyKey }: SubmitArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<SubmissionAck> {
    const ack = await services.submissions.submit(ctx, id, {
      data,
      input_type: inputType,
      occurred_at: occurredAt,
      idempotencyKey: idempotencyKey ?? undefined,
    })
    return { id: ack.id, profileId: ack.profileId, message: 'Accepted for processing' }
  }

  @Mutation(() => Reextraction, {
    description:
      'Re-extracts the profile from its applied submissions with the current provider and prompt (as POST ' +
      '/v1/profile/{id}/reextract): a dry run (the default) answers the diff; dryRun false replaces the profile ' +
      'with it as one history entry (inputType reextraction). CONFLICT when the profile is processing or is no ' +
      'longer at expectedVersion',
  })
  async reextractProfile(
    @Arg('id', () => ID) id: string,
    @Arg('dryRun', () => Boolean, { defaultValue: true }) dryRun: boolean,
    @Arg('expectedVersion', () => Int, {
      nullable: true,
      description: 'The version a dry run answered: apply only if the profile is still at it',
    })
    expectedVersion: number | null | undefined,
    @Ctx() { ctx, services, budgetKey }: GqlContext,
  ): Promise<Reextraction> {
    const result = await services.reextraction.reextract(ctx, id, {
      dryRun,
      expectedVersion: expectedVersion ?? undefined,
      budgetKey,
    })
    return {
      profileId: result.profileId,
      dryRun: result.dryRun,
      applied: result.applied,
      version: result.version,
      newVersion: result.newVersion ?? null,
      changed: result.changed,
      changes: result.changes as Record<string, unknown>,
      summary: result.summary,
      previousSummary: result.previousSummary,
      reextracted: result.submissions.reextracted,
      skippedWithoutText: result.submissions.skippedWithoutText,
      skippedTooLarge: result.submissions.skippedTooLarge,
      batches: result.batches,
      usage: result.usage ?? null,
    }
  }

  @Mutation(() => Boolean, { description: 'Deletes the profile and everything of it; false when there was none' })
  async deleteProfile(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GqlContext): Promise<boolean> {
    return services.profiles.remove(ctx, id)
  }

  @Mutation(() => Profile, {
    description:
      'Forgets one value (as DELETE /v1/profile/{id}/values): gone from the profile, summary and embedding, ' +
      'recorded in the history; only a submission accepted afterwards can bring it back',
  })
  async forgetProfileValue(
    @Args(() => ForgetArgs) { id, section, value, category }: ForgetArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<Profile> {
    return toGqlProfile(await services.edits.forget(ctx, id, { section, value, category }))
  }

  @Mutation(() => Profile, {
    description:
      'Returns the profile to the state of an earlier history entry, recorded as a new entry (as POST ' +
      '/v1/profile/{id}/rollback)',
  })
  async rollbackProfile(
    @Args(() => RollbackArgs) { id, toSeq }: RollbackArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<Profile> {
    return toGqlProfile(await services.edits.rollback(ctx, id, { to_seq: toSeq }))
  }
}

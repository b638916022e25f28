import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql'
import type { GqlContext } from '../context.js'
import { toGqlProfile, toGqlSubmission } from '../serializers.js'
import { SearchArgs } from '../types/args.type.js'
import { SearchResult } from '../types/operations.type.js'
import { Submission, TenantUsage } from '../types/profile.type.js'

@Resolver()
export class SearchResolver {
  @Query(() => SearchResult, { description: 'Exactly the semantics of GET /v1/search' })
  async searchProfiles(
    @Args(() => SearchArgs) { query, sensitivity, filter, sort, page, pageSize }: SearchArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<SearchResult> {
    const r = await services.search.search(ctx, {
      query: query ?? undefined,
      sensitivity: sensitivity ?? undefined,
      filterBy: filter?.field,
      filterValue: filter?.value,
      sortBy: sort?.field,
      sortOrder: sort?.order,
      page: page ?? undefined,
      pageSize: pageSize ?? undefined,
    })
    return {
      profiles: r.profiles.map((p) => ({ similarityScore: p.similarityScore, profile: toGqlProfile(p) })),
      total: r.total,
      page: r.page,
      pageSize: r.pageSize,
    }
  }

  @Query(() => TenantUsage, { description: "Tokens used by the caller's tenant with the AI provider" })
  async usage(@Ctx() { ctx, services }: GqlContext): Promise<TenantUsage> {
    return services.submissions.usageTotals(ctx)
  }

  @Query(() => Submission, { nullable: true, description: 'A submission of this tenant, or null' })
  async submission(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GqlContext): Promise<Submission | null> {
    const s = await services.submissions.find(ctx, id)
    return s ? toGqlSubmission(s) : null
  }
}

import type { GraphQLResolveInfo } from 'graphql'
import { Arg, Args, Ctx, ID, Info, Query, Resolver } from 'type-graphql'
import type { GqlContext } from '../context.js'
import { selectedFieldNames } from '../selection.js'
import { toGqlProfile, toGqlSubmission } from '../serializers.js'
import { SearchArgs } from '../types/args.type.js'
import { SearchResult } from '../types/operations.type.js'
import { Submission, TenantUsage } from '../types/profile.type.js'

/** Fields of Profile that hold the content's sections (custom included); the others are small or read on their own. */
const CONTENT_FIELDS = ['interests', 'personality', 'memories', 'preferences', 'custom']

@Resolver()
export class SearchResolver {
  @Query(() => SearchResult, {
    description:
      'Exactly the semantics of GET /v1/search. A GraphQL answer is built whole, so the profiles of the ' +
      'searchProfiles pages of one operation hold at most 2 MiB of content together by default ' +
      '(PROFILER_GRAPHQL_MAX_SEARCH_BYTES): a larger page is refused with PAYLOAD_TOO_LARGE before it is read ' +
      '(ask for fewer profiles, or use GET /v1/search, which streams). A selection of only profileId, status, ' +
      'coreInfo, summary, language, fieldTimestamps, dates, history, submissions or context reads no content ' +
      'and has no such bound. Charged by size as GET /v1/search is. The total is counted only when total or ' +
      'totalIsEstimate is selected',
  })
  async searchProfiles(
    @Args(() => SearchArgs) { query, sensitivity, filter, sort, page, pageSize }: SearchArgs,
    @Ctx() gctx: GqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SearchResult> {
    const { ctx, services } = gctx
    const selected = selectedFieldNames(info, ['profiles', 'profile'])
    // The total costs a statement of its own (a count, or a sample of a large tenant): run only when asked for.
    const answer = selectedFieldNames(info, [])
    const result = await services.search.search(
      ctx,
      {
        query: query ?? undefined,
        sensitivity: sensitivity ?? undefined,
        filterBy: filter?.field,
        filterValue: filter?.value,
        sortBy: sort?.field,
        sortOrder: sort?.order,
        page: page ?? undefined,
        pageSize: pageSize ?? undefined,
      },
      {
        shape: { history: false, light: !CONTENT_FIELDS.some((f) => selected.has(f)) },
        whole: (gctx.searchAnswer ??= { used: 0 }),
        chargeTo: gctx.budgetKey,
        countTotal: answer.has('total') || answer.has('totalIsEstimate'),
      },
    )
    if (result.rate) gctx.rate = result.rate
    return {
      profiles: result.profiles.map((p) => ({ similarityScore: p.similarityScore, profile: toGqlProfile(p) })),
      total: result.total,
      totalIsEstimate: result.totalIsEstimate,
      page: result.page,
      pageSize: result.pageSize,
    }
  }

  @Query(() => TenantUsage, { description: "Tokens used by the caller's tenant with the AI provider" })
  async usage(@Ctx() { ctx, services }: GqlContext): Promise<TenantUsage> {
    return services.submissions.usageTotals(ctx)
  }

  @Query(() => Submission, { nullable: true, description: 'A submission of this tenant, or null' })
  async submission(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GqlContext): Promise<Submission | null> {
    const submission = await services.submissions.find(ctx, id)
    return submission ? toGqlSubmission(submission) : null
  }
}

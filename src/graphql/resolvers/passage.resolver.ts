import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql'
import type { GqlContext } from '../context.js'
import { Passage, PassagePage, PassagePageArgs } from '../types/passage.type.js'
import { Profile } from '../types/profile.type.js'

/** Thin: Profile.passages is one service call (the service checks the tenant and the arguments). */
@Resolver(() => Profile)
export class PassageResolver {
  @FieldResolver(() => PassagePage, {
    description: "The profile's evidence passages, newest said first, paged; hidden ones only with includeHidden",
  })
  async passages(
    @Root() profile: Profile,
    @Args(() => PassagePageArgs) { first, after, submissionId, includeHidden }: PassagePageArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<PassagePage> {
    const page = await services.passages.list(ctx, profile.profileId, {
      limit: first,
      cursor: after,
      submissionId,
      includeHidden,
    })
    return {
      nodes: page.passages.map(
        (p): Passage => ({
          submissionId: p.submission_id,
          position: p.position,
          speaker: p.speaker,
          prompt: p.prompt,
          text: p.text,
          occurredAt: p.occurred_at,
          hiddenAt: p.hidden_at,
          hiddenBy: p.hidden_by,
        }),
      ),
      pageInfo: { endCursor: page.nextCursor, hasNextPage: page.nextCursor !== null },
    }
  }
}

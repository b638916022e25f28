import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql'
import type { GqlContext } from '../context.js'
import { Evidence, EvidenceArgs, EvidenceMatchEnum, SubmissionEvidenceDeletion } from '../types/evidence.type.js'
import { Profile } from '../types/profile.type.js'

/** Provenance (docs/guides/evidence.md). Thin: one service call each; the service enforces tenancy through ctx. */
@Resolver(() => Profile)
export class ProvenanceResolver {
  @FieldResolver(() => Evidence, {
    description:
      'Why the profile says a value (as GET /v1/profile/{id}/evidence): the evidence passages that support it, ' +
      'best first; an empty list when none does. Counted with context fields: at most 10 in one operation',
  })
  async evidence(
    @Root() profile: Profile,
    @Args(() => EvidenceArgs) { field, value, category, limit }: EvidenceArgs,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<Evidence> {
    const evidence = await services.provenance.evidence(ctx, profile.profileId, { field, value, category, limit })
    return {
      field: evidence.field,
      value: evidence.value,
      category: evidence.category,
      passages: evidence.passages.map((p) => ({
        submissionId: p.submission_id,
        position: p.position,
        speaker: p.speaker,
        prompt: p.prompt,
        text: p.text,
        occurredAt: p.occurred_at,
        match: p.match.toUpperCase() as EvidenceMatchEnum,
      })),
      sources: evidence.sources,
      extractionsRead: evidence.extractionsRead,
    }
  }

  @Mutation(() => SubmissionEvidenceDeletion, {
    description:
      "Deletes one submission's evidence (as DELETE /v1/profile/{id}/submissions/{submissionId}/evidence): its " +
      "passages, its text and its stored extraction; the profile's values stay. CONFLICT while it is pending or " +
      'processing',
  })
  async deleteSubmissionEvidence(
    @Arg('profileId', () => ID) profileId: string,
    @Arg('submissionId', () => ID) submissionId: string,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<SubmissionEvidenceDeletion> {
    return services.provenance.deleteSubmissionEvidence(ctx, profileId, submissionId)
  }
}
